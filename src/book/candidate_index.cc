#include "book/candidate_index.h"

namespace kpsim::book::internal {

void CandidateIndex::Clear() {
  for (const Candidate& c : ranked_) entries_[static_cast<std::size_t>(c.node)] = Entry{};
  for (int node : pdb_nodes_) entries_[static_cast<std::size_t>(node)] = Entry{};
  ranked_.clear();
  pdb_nodes_.clear();
  for (int node : dirty_) dirty_flag_[static_cast<std::size_t>(node)] = 0;
  dirty_.clear();
}

void CandidateIndex::Remove(int node) {
  Entry& entry = entries_[static_cast<std::size_t>(node)];
  if (entry.kind == Entry::Kind::kRanked) {
    ranked_.erase(entry.candidate);
  } else if (entry.kind == Entry::Kind::kPdb) {
    // Swap-remove: the last listed node takes the freed position.
    const int moved = pdb_nodes_.back();
    pdb_nodes_[entry.pdb_pos] = moved;
    entries_[static_cast<std::size_t>(moved)].pdb_pos = entry.pdb_pos;
    pdb_nodes_.pop_back();
  }
  entry = Entry{};
}

void CandidateIndex::Put(int node, const std::optional<Candidate>& candidate, bool touches_pdb) {
  Remove(node);
  if (!candidate) return;
  Entry& entry = entries_[static_cast<std::size_t>(node)];
  if (touches_pdb) {
    entry.kind = Entry::Kind::kPdb;
    entry.pdb_pos = pdb_nodes_.size();
    pdb_nodes_.push_back(node);
  } else {
    entry.kind = Entry::Kind::kRanked;
    entry.candidate = *candidate;
    ranked_.insert(*candidate);
  }
}

std::vector<int> CandidateIndex::TakeDirty() {
  for (int node : dirty_) dirty_flag_[static_cast<std::size_t>(node)] = 0;
  return std::exchange(dirty_, {});
}

}  // namespace kpsim::book::internal
