#pragma once

// The preemption candidates of one preemptor key (priority, request class), kept from one attempt
// to the next so that a run of preemptors with the same key does not rank every node again.
// A node's candidate depends on the node's pods and the key, except its PDB violations, which
// follow every PDB's running count. So:
// - nodes whose victims touch no PDB sit in a set ordered by `Better`; an entry changes only when
//   its node does (the runner reports every bind and eviction through `Touch`);
// - nodes whose victims touch a PDB are listed and ranked again at every attempt.
// The runner builds the index from a full scan and drops it when the key changes.

#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "book/candidate.h"

namespace kpsim::book::internal {

struct BetterLess {
  bool operator()(const Candidate& a, const Candidate& b) const { return Better(a, b); }
};

class CandidateIndex {
 public:
  using Key = std::pair<std::int32_t, int>;  // (priority, request class)

  explicit CandidateIndex(int node_count)
      : entries_(static_cast<std::size_t>(node_count)),
        dirty_flag_(static_cast<std::size_t>(node_count), 0) {}

  bool Holds(const Key& key) const { return live_ && key_ == key; }
  // Starts an empty index for `key`; the caller then `Put`s every node.
  void Reset(const Key& key) {
    Clear();
    live_ = true;
    key_ = key;
  }
  // No index until the next `Reset`.
  void Drop() {
    if (live_) Clear();
    live_ = false;
  }

  // Records what `node` offers now: nothing, a candidate whose rank is fixed, or one that touches
  // a PDB (`candidate` unused but for its node, re-ranked at every attempt).
  void Put(int node, const std::optional<Candidate>& candidate, bool touches_pdb);
  // `node` changed: its entry is stale until the next `TakeDirty`.
  void Touch(int node) {
    if (!live_ || dirty_flag_[static_cast<std::size_t>(node)] != 0) return;
    dirty_flag_[static_cast<std::size_t>(node)] = 1;
    dirty_.push_back(node);
  }
  // The nodes touched since the last call, each once.
  std::vector<int> TakeDirty();

  const std::set<Candidate, BetterLess>& ranked() const { return ranked_; }
  // The nodes whose candidate touches a PDB, in no particular order.
  const std::vector<int>& pdb_nodes() const { return pdb_nodes_; }

 private:
  struct Entry {
    enum class Kind : std::uint8_t { kNone, kRanked, kPdb } kind = Kind::kNone;
    Candidate candidate;      // kRanked: the key in `ranked_`
    std::size_t pdb_pos = 0;  // kPdb: its position in `pdb_nodes_`
  };
  void Remove(int node);
  void Clear();  // O(entries held), not O(nodes)

  bool live_ = false;
  Key key_{};
  std::vector<Entry> entries_;
  std::set<Candidate, BetterLess> ranked_;
  std::vector<int> pdb_nodes_;
  std::vector<char> dirty_flag_;
  std::vector<int> dirty_;
};

}  // namespace kpsim::book::internal
