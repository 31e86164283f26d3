#pragma once

// A preemption candidate and the chapter's ordering of candidates (`better`).

#include <cstdint>
#include <string_view>

namespace kpsim::book::internal {

struct Candidate {
  int node = -1;
  int name_rank = 0;  // the node name's rank: comparing ranks compares names
  int violations = 0;
  std::int32_t top_victim = 0;
  int victim_count = 0;
};

// Mirrors `better(a, b)`: fewest PDB violations, then lowest highest-victim priority, then fewest
// victims, then the node name that sorts first. A strict total order (node names are unique), so
// the winner does not depend on the order nodes are visited.
inline bool Better(const Candidate& a, const Candidate& b) {
  if (a.violations != b.violations) return a.violations < b.violations;
  if (a.top_victim != b.top_victim) return a.top_victim < b.top_victim;
  if (a.victim_count != b.victim_count) return a.victim_count < b.victim_count;
  return a.name_rank < b.name_rank;
}

// Names the first criterion of `Better` that separates `winner` from `runner_up`.
// REQUIRES: Better(winner, runner_up).
inline std::string_view DecidedBy(const Candidate& winner, const Candidate& runner_up) {
  if (winner.violations != runner_up.violations) return "fewest PDB violations";
  if (winner.top_victim != runner_up.top_victim) return "lowest highest-victim priority";
  if (winner.victim_count != runner_up.victim_count) return "fewest victims";
  return "node name";
}

// The stable id (PreemptionDecision::decided_by) of a `DecidedBy` label.
inline std::string_view DecidedById(std::string_view label) {
  if (label == "fewest PDB violations") return "pdbViolations";
  if (label == "lowest highest-victim priority") return "highestPriority";
  if (label == "fewest victims") return "victims";
  if (label == "only candidate") return "onlyCandidate";
  return "nodeName";
}

}  // namespace kpsim::book::internal
