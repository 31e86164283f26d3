#pragma once

// The class index's part for `--candidate-sampling kubernetes` (class_index.cc,
// Framework::SampledDecision): DefaultPreemption's DryRunPreemption visits the potential nodes in
// node order from a random offset and stops once it holds numCandidates candidates, one of them
// violating no PodDisruptionBudget (GetOffsetAndNumCandidates, DryRunPreemption). Over the
// class's cached dry runs that window is found by counting, not by visiting: counts of potential
// nodes and of candidates per node order position (Fenwick trees, with select), and the best
// candidates of a range of positions (a tree of CandidateKeys). A cycle costs O(log nodes)
// where visiting costs the window's size (a tenth of the nodes).

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "preemption/candidate.h"

namespace kpsim::engine {

// Counts per position [0, n), with prefix sums and select.
class PositionCounts {
 public:
  explicit PositionCounts(std::size_t n) : tree_(n + 1, 0) {
    while ((high_bit_ << 1) <= n) high_bit_ <<= 1;
  }
  void Add(std::int32_t pos, std::int32_t delta) {
    for (auto i = static_cast<std::size_t>(pos) + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
    total_ += delta;
  }
  // The count in [0, n).
  std::int64_t Total() const { return total_; }
  // The count in [0, end).
  std::int64_t Prefix(std::int32_t end) const {
    std::int64_t sum = 0;
    for (auto i = static_cast<std::size_t>(end); i > 0; i -= i & (~i + 1)) sum += tree_[i];
    return sum;
  }
  // The position of the k-th counted one (k >= 1), or -1 if there are fewer.
  std::int32_t Select(std::int64_t k) const {
    std::size_t pos = 0;
    for (std::size_t step = high_bit_; step > 0; step >>= 1) {
      if (pos + step < tree_.size() && tree_[pos + step] < k) {
        pos += step;
        k -= tree_[pos];
      }
    }
    return pos + 1 < tree_.size() ? static_cast<std::int32_t>(pos) : -1;
  }
  std::size_t Bytes() const { return tree_.capacity() * sizeof(std::int32_t); }

 private:
  std::vector<std::int32_t> tree_;
  std::size_t high_bit_ = 1;
  std::int64_t total_ = 0;
};

// The best CandidateKey (the least by CandidateKey::operator<) of a range of positions: a
// segment tree over the positions. An absent position holds a key worse than every real one
// (scores[0] is a score no candidate reaches), so the tree compares by operator< alone.
class BestKeys {
 public:
  explicit BestKeys(std::size_t n) {
    while (size_ < n) size_ <<= 1;
    tree_.assign(2 * size_, kAbsent);
  }
  void Set(std::int32_t pos, const CandidateKey& key) {
    std::size_t i = size_ + static_cast<std::size_t>(pos);
    tree_[i] = key;
    for (i >>= 1; i > 0; i >>= 1) {
      const CandidateKey& best = tree_[2 * i + 1] < tree_[2 * i] ? tree_[2 * i + 1] : tree_[2 * i];
      // A range whose best is what it was leaves every range above it as it was.
      if (best.pos == tree_[i].pos && best.scores == tree_[i].scores) break;
      tree_[i] = best;
    }
  }
  void Clear(std::int32_t pos) { Set(pos, kAbsent); }
  static bool IsAbsent(const CandidateKey& k) { return k.scores[0] == kAbsent.scores[0]; }
  // The best key of positions [first, last), absent if none. The reference stays valid until
  // the next Set or Clear.
  const CandidateKey& Best(std::int32_t first, std::int32_t last) const {
    const CandidateKey* best = &kAbsent;
    if (first >= last) return *best;
    for (std::size_t l = size_ + static_cast<std::size_t>(first), r = size_ + static_cast<std::size_t>(last); l < r;
         l >>= 1, r >>= 1) {
      if ((l & 1) != 0 && tree_[l] < *best) best = &tree_[l];
      if ((l & 1) != 0) ++l;
      if ((r & 1) != 0 && tree_[--r] < *best) best = &tree_[r];
    }
    return *best;
  }
  std::size_t Bytes() const { return tree_.capacity() * sizeof(CandidateKey); }

 private:
  static constexpr CandidateKey kAbsent = [] {
    CandidateKey k;
    k.scores.fill(std::numeric_limits<std::int64_t>::min());
    k.pos = std::numeric_limits<std::int32_t>::max();
    return k;
  }();
  std::size_t size_ = 1;
  std::vector<CandidateKey> tree_;
};

// Per class: potential nodes, candidates violating no PDB (`clean`) and the others
// (`violating`), by node order position.
struct SamplingIndex {
  explicit SamplingIndex(std::size_t n)
      : potential(n), candidates(n), clean(n), violating(n), clean_keys(n), violating_keys(n) {}
  void AddCandidate(std::int32_t pos, const CandidateKey& key, bool is_clean) {
    candidates.Add(pos, +1);
    (is_clean ? clean : violating).Add(pos, +1);
    (is_clean ? clean_keys : violating_keys).Set(pos, key);
  }
  void RemoveCandidate(std::int32_t pos, bool is_clean) {
    candidates.Add(pos, -1);
    (is_clean ? clean : violating).Add(pos, -1);
    (is_clean ? clean_keys : violating_keys).Clear(pos);
  }
  PositionCounts potential, candidates, clean, violating;
  BestKeys clean_keys, violating_keys;
  std::size_t Bytes() const {
    return potential.Bytes() + candidates.Bytes() + clean.Bytes() + violating.Bytes() + clean_keys.Bytes() +
           violating_keys.Bytes();
  }
};

}  // namespace kpsim::engine
