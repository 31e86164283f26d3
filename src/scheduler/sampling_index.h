#pragma once

// The class index's part for `--candidate-sampling kubernetes` (class_index.cc,
// Framework::SampledDecision): DefaultPreemption's DryRunPreemption visits the potential nodes in
// node order from a random offset and stops once it holds numCandidates candidates, one of them
// violating no PodDisruptionBudget (GetOffsetAndNumCandidates, DryRunPreemption). Over the
// class's cached dry runs that window is found by counting, not by visiting: counts of potential
// nodes and of candidates per node order position (bits, with a Fenwick tree over words of 64
// positions, with select), and the best candidates of a range of positions (a segment tree over
// blocks of CandidateKeys). A cycle costs O(log nodes) where visiting costs the window's size (a
// tenth of the nodes). Both are laid out for the cache: the window's ends fall anywhere in the
// node order, so the levels of a tree over single positions near its leaves each cost a miss.

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "preemption/candidate.h"

namespace kpsim::engine {

// Counts per position [0, n) in `kLanes` lanes, each 0 or 1 at a position, with prefix sums and
// select. The counts are bits, 64 positions to a word and a word for each lane side by side; a
// Fenwick tree over the words holds each word's counts in every lane. The tree and the words
// take under a quarter of a byte per position and lane (about 100 KB for 130,000 positions), so the
// queries that a sampled window asks at each end of it stay in cache, where a Fenwick tree over
// the positions (16 bytes each) missed at each of its levels near the leaves.
template <std::size_t kLanes>
class LaneCounts {
 public:
  using Sums = std::array<std::int64_t, kLanes>;
  explicit LaneCounts(std::size_t n) : n_(n), words_((n + 63) / 64), tree_(words_.size() + 1) {
    while ((high_bit_ << 1) < tree_.size()) high_bit_ <<= 1;
  }
  // Adds `delta` (+1 or -1) to lane `lane` at `pos`, and `other_delta` to lane `other` (none:
  // kLanes). A count goes from 0 to 1 or from 1 to 0.
  void Add(std::int32_t pos, std::size_t lane, std::int32_t delta, std::size_t other = kLanes,
           std::int32_t other_delta = 0) {
    const auto p = static_cast<std::size_t>(pos);
    assert(p < n_);
    Flip(p, lane, delta);
    if (other < kLanes) Flip(p, other, other_delta);
    for (std::size_t i = p / 64 + 1; i < tree_.size(); i += i & (~i + 1)) {
      tree_[i][lane] += delta;
      if (other < kLanes) tree_[i][other] += other_delta;
    }
  }
  // The count of `lane` in [0, n).
  std::int64_t Total(std::size_t lane) const { return total_[lane]; }
  // Every lane's count in [0, end).
  Sums Prefix(std::int32_t end) const {
    Sums sum{};
    const auto e = static_cast<std::size_t>(end);
    for (std::size_t i = e / 64; i > 0; i -= i & (~i + 1)) {
      for (std::size_t l = 0; l < kLanes; ++l) sum[l] += tree_[i][l];
    }
    if (const std::size_t bits = e % 64; bits != 0) {
      const std::uint64_t below = (std::uint64_t{1} << bits) - 1;
      for (std::size_t l = 0; l < kLanes; ++l) sum[l] += std::popcount(words_[e / 64][l] & below);
    }
    return sum;
  }
  // The position of the k-th counted one of `lane` (k >= 1), or -1 if there are fewer.
  std::int32_t Select(std::size_t lane, std::int64_t k) const {
    if (k < 1 || k > total_[lane]) return -1;
    std::size_t word = 0;  // the words before the k-th one's, by the tree
    for (std::size_t step = high_bit_; step > 0; step >>= 1) {
      if (word + step < tree_.size() && tree_[word + step][lane] < k) {
        word += step;
        k -= tree_[word][lane];
      }
    }
    return static_cast<std::int32_t>(word * 64 + NthBit(words_[word][lane], static_cast<int>(k)));
  }
  std::size_t Bytes() const { return words_.capacity() * sizeof(words_[0]) + tree_.capacity() * sizeof(tree_[0]); }

 private:
  void Flip(std::size_t p, std::size_t lane, std::int32_t delta) {
    std::uint64_t& word = words_[p / 64][lane];
    const std::uint64_t bit = std::uint64_t{1} << (p % 64);
    assert((delta == +1 && (word & bit) == 0) || (delta == -1 && (word & bit) != 0));
    word ^= bit;
    total_[lane] += delta;
  }
  // The index of the k-th set bit of `w` (1 <= k <= popcount(w)), halving the word by counts.
  static int NthBit(std::uint64_t w, int k) {
    int at = 0;
    for (int half = 32; half >= 8; half /= 2) {
      const int low = std::popcount(w & ((std::uint64_t{1} << half) - 1));
      if (low < k) {
        k -= low;
        w >>= half;
        at += half;
      }
    }
    for (;; w >>= 1, ++at) {
      if ((w & 1) != 0 && --k == 0) return at;
    }
  }
  std::size_t n_;
  std::vector<std::array<std::uint64_t, kLanes>> words_;  // bit p % 64 of word p / 64
  std::vector<std::array<std::int32_t, kLanes>> tree_;    // over the words' counts, from 1
  std::size_t high_bit_ = 1;
  Sums total_{};
};

// The best CandidateKey (the least by CandidateKey::operator<) of a range of positions. The keys
// sit by position in blocks of kBlock (four cache lines); a bottom-up segment tree over the
// blocks' best keys, 2 keys per block for any number of blocks (the range query combines only
// nodes inside the range, and taking the least is order-free), answers a range's whole blocks,
// and the keys of its partial blocks at either end are read. The tree is a quarter of the keys'
// size and stays in cache, where a tree over every position missed at each level near its leaves.
// An absent position holds a key worse than every real one (on every row, and at no node order
// position), so the tree compares by operator< alone. The storage is allocated by the first key
// set: a class whose candidates all violate a PDB, or none does, keeps one tree, not two.
class BestKeys {
 public:
  static constexpr std::size_t kBlock = 8;
  explicit BestKeys(std::size_t n) : blocks_((n + kBlock - 1) / kBlock) {}
  void Set(std::int32_t pos, const CandidateKey& key) {
    if (keys_.empty()) {
      if (IsAbsent(key)) return;
      keys_.assign(blocks_ * kBlock / 2, Pair{{kAbsent, kAbsent}});
      tree_.assign(blocks_, Pair{{kAbsent, kAbsent}});
    }
    const auto p = static_cast<std::size_t>(pos);
    Key(p) = key;
    const std::size_t first = p / kBlock * kBlock;
    const CandidateKey* best = &Key(first);
    for (std::size_t i = first + 1; i < first + kBlock; ++i) {
      if (Key(i) < *best) best = &Key(i);
    }
    // A range whose best is what it was leaves every range above it as it was.
    std::size_t i = blocks_ + p / kBlock;
    if (*best == Node(i)) return;
    Node(i) = *best;
    for (i >>= 1; i > 0; i >>= 1) {
      const Pair& children = tree_[i];  // nodes 2i and 2i + 1
      const CandidateKey& b = children.key[1] < children.key[0] ? children.key[1] : children.key[0];
      if (b == Node(i)) break;
      Node(i) = b;
    }
  }
  void Clear(std::int32_t pos) { Set(pos, kAbsent); }
  static bool IsAbsent(const CandidateKey& key) { return key == kAbsent; }
  // The least key in positions [first, last); an absent key if none. The reference holds until
  // the next Set or Clear.
  const CandidateKey& Best(std::int32_t first, std::int32_t last) const {
    const CandidateKey* best = &kAbsent;
    if (first >= last || keys_.empty()) return *best;
    const auto f = static_cast<std::size_t>(first);
    const auto l = static_cast<std::size_t>(last);
    const auto scan = [&](std::size_t from, std::size_t to) {
      for (; from < to; ++from) {
        if (Key(from) < *best) best = &Key(from);
      }
    };
    const std::size_t whole_first = (f + kBlock - 1) / kBlock;  // whole blocks [whole_first, whole_end)
    const std::size_t whole_end = l / kBlock;
    if (whole_first >= whole_end) {
      scan(f, l);
      return *best;
    }
    scan(f, whole_first * kBlock);
    scan(whole_end * kBlock, l);
    for (std::size_t lo = blocks_ + whole_first, hi = blocks_ + whole_end; lo < hi; lo >>= 1, hi >>= 1) {
      if ((lo & 1) != 0 && Node(lo) < *best) best = &Node(lo);
      if ((lo & 1) != 0) ++lo;
      if ((hi & 1) != 0 && Node(--hi) < *best) best = &Node(hi);
    }
    return *best;
  }
  std::size_t Bytes() const { return (keys_.capacity() + tree_.capacity()) * sizeof(Pair); }

 private:
  static constexpr CandidateKey kAbsent = [] {
    CandidateKey k;
    k.pdb_violations = std::numeric_limits<std::int32_t>::max();
    k.highest_priority = std::numeric_limits<std::int32_t>::max();
    k.priority_sum = std::numeric_limits<std::int64_t>::max();
    k.victims = std::numeric_limits<std::int32_t>::max();
    k.latest_start = std::numeric_limits<std::int64_t>::min();
    k.pos = std::numeric_limits<std::int32_t>::max();  // no node order position
    return k;
  }();
  // Two keys in one cache line: positions 2k and 2k + 1, or the tree's nodes 2k and 2k + 1 (the
  // children of node k). No key straddles two lines.
  struct alignas(64) Pair {
    CandidateKey key[2];
  };
  static_assert(sizeof(Pair) == 64);
  CandidateKey& Key(std::size_t p) { return keys_[p >> 1].key[p & 1]; }
  const CandidateKey& Key(std::size_t p) const { return keys_[p >> 1].key[p & 1]; }
  // Node i of the tree (1 <= i < 2 * blocks; block b's best at blocks + b).
  CandidateKey& Node(std::size_t i) { return tree_[i >> 1].key[i & 1]; }
  const CandidateKey& Node(std::size_t i) const { return tree_[i >> 1].key[i & 1]; }
  std::size_t blocks_;
  std::vector<Pair> keys_;  // blocks * kBlock keys, by position
  std::vector<Pair> tree_;  // blocks pairs: nodes 0 (unused) to 2 * blocks - 1
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
