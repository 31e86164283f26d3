#pragma once

// The class index's part for `--candidate-sampling kubernetes` (class_index.cc,
// Framework::SampledDecision): DefaultPreemption's DryRunPreemption visits the potential nodes in
// node order from a random offset and stops once it holds numCandidates candidates, one of them
// violating no PodDisruptionBudget (GetOffsetAndNumCandidates, DryRunPreemption). Over the
// class's cached dry runs that window is found by counting, not by visiting: counts of potential
// nodes and of candidates per node order position (one Fenwick tree with a lane for each count,
// with select), and the best candidates of a range of positions (a segment tree of
// CandidateKeys). A cycle costs O(log nodes) where visiting costs the window's size (a tenth of
// the nodes).

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "preemption/candidate.h"

namespace kpsim::engine {

// Counts per position [0, n) in `kLanes` lanes, with prefix sums and select: one Fenwick tree
// whose nodes hold every lane's count side by side, so that the lanes' prefix sums up to one
// position (the sampled window asks several at each end of it) walk the same cache lines once.
template <std::size_t kLanes>
class LaneCounts {
 public:
  using Sums = std::array<std::int64_t, kLanes>;
  explicit LaneCounts(std::size_t n) : tree_(n + 1) {
    while ((high_bit_ << 1) <= n) high_bit_ <<= 1;
  }
  // Adds `delta` to lane `lane` at `pos`, and `other_delta` to lane `other` (none: kLanes).
  void Add(std::int32_t pos, std::size_t lane, std::int32_t delta, std::size_t other = kLanes,
           std::int32_t other_delta = 0) {
    for (auto i = static_cast<std::size_t>(pos) + 1; i < tree_.size(); i += i & (~i + 1)) {
      tree_[i][lane] += delta;
      if (other < kLanes) tree_[i][other] += other_delta;
    }
    total_[lane] += delta;
    if (other < kLanes) total_[other] += other_delta;
  }
  // The count of `lane` in [0, n).
  std::int64_t Total(std::size_t lane) const { return total_[lane]; }
  // Every lane's count in [0, end).
  Sums Prefix(std::int32_t end) const {
    Sums sum{};
    for (auto i = static_cast<std::size_t>(end); i > 0; i -= i & (~i + 1)) {
      for (std::size_t l = 0; l < kLanes; ++l) sum[l] += tree_[i][l];
    }
    return sum;
  }
  // The position of the k-th counted one of `lane` (k >= 1), or -1 if there are fewer.
  std::int32_t Select(std::size_t lane, std::int64_t k) const {
    std::size_t pos = 0;
    for (std::size_t step = high_bit_; step > 0; step >>= 1) {
      if (pos + step < tree_.size() && tree_[pos + step][lane] < k) {
        pos += step;
        k -= tree_[pos][lane];
      }
    }
    return pos + 1 < tree_.size() ? static_cast<std::int32_t>(pos) : -1;
  }
  std::size_t Bytes() const { return tree_.capacity() * sizeof(tree_[0]); }

 private:
  std::vector<std::array<std::int32_t, kLanes>> tree_;
  std::size_t high_bit_ = 1;
  Sums total_{};
};

// The best CandidateKey (the least by CandidateKey::operator<) of a range of positions: a
// bottom-up segment tree over the positions, 2n keys for any n (the range query combines only
// nodes inside the range, and taking the least is order-free, so n need not be a power of two).
// An absent position holds a key worse than every real one (on every row, and at no node order
// position), so the tree compares by operator< alone. The tree is allocated by the first key set:
// a class whose candidates all violate a PDB, or none does, keeps one tree, not two.
class BestKeys {
 public:
  explicit BestKeys(std::size_t n) : n_(n) {}
  void Set(std::int32_t pos, const CandidateKey& key) {
    if (pairs_.empty()) {
      if (IsAbsent(key)) return;
      pairs_.assign(n_, Pair{{kAbsent, kAbsent}});
    }
    std::size_t i = n_ + static_cast<std::size_t>(pos);
    At(i) = key;
    for (i >>= 1; i > 0; i >>= 1) {
      const Pair& children = pairs_[i];  // nodes 2i and 2i + 1
      const CandidateKey& best = children.key[1] < children.key[0] ? children.key[1] : children.key[0];
      // A range whose best is what it was leaves every range above it as it was.
      if (best == At(i)) break;
      At(i) = best;
    }
  }
  void Clear(std::int32_t pos) { Set(pos, kAbsent); }
  static bool IsAbsent(const CandidateKey& k) { return k.pos == kAbsent.pos; }
  // The best key of positions [first, last), absent if none. The reference stays valid until
  // the next Set or Clear.
  const CandidateKey& Best(std::int32_t first, std::int32_t last) const {
    const CandidateKey* best = &kAbsent;
    if (first >= last || pairs_.empty()) return *best;
    for (std::size_t l = n_ + static_cast<std::size_t>(first), r = n_ + static_cast<std::size_t>(last); l < r;
         l >>= 1, r >>= 1) {
      if ((l & 1) != 0 && At(l) < *best) best = &At(l);
      if ((l & 1) != 0) ++l;
      if ((r & 1) != 0 && At(--r) < *best) best = &At(r);
    }
    return *best;
  }
  std::size_t Bytes() const { return pairs_.capacity() * sizeof(Pair); }

 private:
  static constexpr CandidateKey kAbsent = [] {
    CandidateKey k;  // the worst on every row
    k.priority_sum = std::numeric_limits<std::int64_t>::max();
    k.latest_start = std::numeric_limits<std::int64_t>::min();
    k.pdb_violations = std::numeric_limits<std::int32_t>::max();
    k.highest_priority = std::numeric_limits<std::int32_t>::max();
    k.victims = std::numeric_limits<std::int32_t>::max();
    k.pos = std::numeric_limits<std::int32_t>::max();  // no node order position
    return k;
  }();
  // Node i of the tree (1 <= i < 2n; the leaves from n): nodes 2k and 2k + 1, the two children
  // of node k, share one cache line, and no key straddles two.
  struct alignas(64) Pair {
    CandidateKey key[2];
  };
  static_assert(sizeof(Pair) == 64);
  CandidateKey& At(std::size_t i) { return pairs_[i >> 1].key[i & 1]; }
  const CandidateKey& At(std::size_t i) const { return pairs_[i >> 1].key[i & 1]; }
  std::size_t n_;
  std::vector<Pair> pairs_;  // n pairs: nodes 0 (unused) to 2n - 1
};

// Per class, by node order position: potential nodes, candidates, candidates violating no
// PDB (`clean`) and the others (`violating`), in the lanes of one counting tree; the best keys
// of the clean candidates and of the violating ones.
struct SamplingIndex {
  enum Lane : std::size_t { kPotential, kCandidates, kClean, kViolating, kLaneCount };
  explicit SamplingIndex(std::size_t n) : counts(n), clean_keys(n), violating_keys(n) {}
  void AddPotential(std::int32_t pos, std::int32_t delta) { counts.Add(pos, kPotential, delta); }
  void AddCandidate(std::int32_t pos, const CandidateKey& key, bool is_clean) {
    counts.Add(pos, kCandidates, +1, is_clean ? kClean : kViolating, +1);
    (is_clean ? clean_keys : violating_keys).Set(pos, key);
  }
  void RemoveCandidate(std::int32_t pos, bool is_clean) {
    counts.Add(pos, kCandidates, -1, is_clean ? kClean : kViolating, -1);
    (is_clean ? clean_keys : violating_keys).Clear(pos);
  }
  using Counts = LaneCounts<kLaneCount>;
  Counts counts;
  BestKeys clean_keys, violating_keys;
  std::size_t Bytes() const { return counts.Bytes() + clean_keys.Bytes() + violating_keys.Bytes(); }
};

}  // namespace kpsim::engine
