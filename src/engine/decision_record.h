#pragma once

// The decision record of each preemption (`PreemptionDecision` in kpsim/results.h) and the one
// tie-breaker table of pickOneNodeForPreemption that PickCandidate, explain's `decided_by` and
// the record all read.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cluster.h"
#include "engine/framework.h"
#include "kpsim/results.h"

namespace kpsim::engine {

// One row of pickOneNodeForPreemption's table: after each row only the candidates with the
// best `score` (larger is better) stay. `value` is what the record shows: the compared quantity
// itself (the priority sum is upstream's, each term shifted by 2^31 so that it is >= 0).
struct TieBreaker {
  std::string_view id;     // stable camelCase key (PreemptionDecision::decided_by)
  std::string_view label;  // for people; explain's `decided_by`
  std::int64_t (*score)(const Candidate&);
  std::int64_t (*value)(const Candidate&);
  bool is_time = false;
};

inline constexpr std::array<TieBreaker, 5> kTieBreakers{{
    {"pdbViolations", "fewest PDB violations",
     [](const Candidate& c) -> std::int64_t { return -c.pdb_violations; },
     [](const Candidate& c) -> std::int64_t { return c.pdb_violations; }, false},
    {"highestPriority", "lowest highest-victim priority",
     [](const Candidate& c) { return -c.highest_priority; },
     [](const Candidate& c) { return c.highest_priority; }, false},
    {"prioritySum", "smallest sum of victim priorities",
     [](const Candidate& c) { return -c.priority_sum; },
     [](const Candidate& c) { return c.priority_sum; }, false},
    {"victims", "fewest victims",
     [](const Candidate& c) { return -static_cast<std::int64_t>(c.victims.size()); },
     [](const Candidate& c) { return static_cast<std::int64_t>(c.victims.size()); }, false},
    {"latestStartTime", "latest start time of the highest-priority victims",
     [](const Candidate& c) { return c.latest_start; },
     [](const Candidate& c) { return c.latest_start; }, true},
}};

// The two outcomes that are no row of the table.
inline constexpr std::string_view kOnlyCandidateId = "onlyCandidate";
inline constexpr std::string_view kOnlyCandidateLabel = "only candidate";
inline constexpr std::string_view kNodeOrderId = "nodeOrder";
inline constexpr std::string_view kNodeOrderLabel = "first in node order (all tie-breakers equal)";
inline constexpr std::string_view kWorkloadAwareId = "workloadAwarePreemption";
inline constexpr std::string_view kWorkloadAwareLabel = "workload-aware preemption (pod group)";

// True iff `a` is preferred to `b` by the table alone (false on a full tie).
bool BetterCandidate(const Candidate& a, const Candidate& b);

// The id and label of what chose `ranked[0]`: "onlyCandidate", the first row on which it
// differs from `ranked[1]` (the runner-up in table order; successive filtering keeps the two
// together until that row), or "nodeOrder".
// REQUIRES: ranked is not empty, best first.
std::pair<std::string_view, std::string_view> DecidedBy(std::span<const Candidate* const> ranked);

// The best `k` of `candidates` in table order, ties by position in `candidates` (the first
// wins, as in pickOneNodeForPreemption): a partial selection, not a sort of all of them.
std::vector<const Candidate*> TopCandidates(const std::vector<const Candidate*>& candidates,
                                            std::size_t k);

// The record of a single-pod preemption that nominated `ranked[0]->node`.
// REQUIRES: ranked is not empty, best first (at most PreemptionDecision::kCandidatesShown).
PreemptionDecision MakePodDecision(const ClusterModel& model, const PodInfo& preemptor,
                                   std::span<const Candidate* const> ranked,
                                   std::int64_t candidate_count, std::int64_t nodes_evaluated);

// A victim unit a pod group's preemption took, with why it was not reprieved.
DecisionUnit MakeDecisionUnit(const ClusterModel& model, const VictimUnit& unit, std::string why);

// The record of a pod group's workload-aware preemption.
PreemptionDecision MakeGroupDecision(const ClusterModel& model, const GroupInfo& root,
                                     const std::vector<Victim>& victims,
                                     std::vector<DecisionUnit> units,
                                     const std::vector<std::pair<PodId, NodeId>>& nominations);

// `decision.pdbs`: each PDB the victims count against (as ClassifyPdbViolations counts them:
// pods it already lists as disrupted do not), disruptionsAllowed before and after, in name order.
void FillDecisionPdbs(const ClusterModel& model, const std::vector<Victim>& victims,
                      PreemptionDecision& decision);

}  // namespace kpsim::engine
