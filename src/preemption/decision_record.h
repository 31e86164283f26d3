#pragma once

// The decision record of each preemption (`PreemptionDecision` in kpsim/results.h), read off the
// one tie-breaker table of pickOneNodeForPreemption (kTieBreakers, candidate.h) that
// the Evaluator's pick, the class index's CandidateKey, explain's `decided_by` and the record all use.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/results.h"
#include "preemption/candidate.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

// The two outcomes that are no row of the table.
inline constexpr std::string_view kOnlyCandidateId = "onlyCandidate";
inline constexpr std::string_view kOnlyCandidateLabel = "only candidate";
inline constexpr std::string_view kNodeOrderId = "nodeOrder";
inline constexpr std::string_view kNodeOrderLabel = "first in node order (all tie-breakers equal)";
inline constexpr std::string_view kWorkloadAwareId = "workloadAwarePreemption";
inline constexpr std::string_view kWorkloadAwareLabel = "workload-aware preemption (pod group)";

// The id and label of what chose `ranked[0]`: "onlyCandidate", the first row on which it
// differs from `ranked[1]` (the runner-up in table order; successive filtering keeps the two
// together until that row), or "nodeOrder".
// REQUIRES: ranked is not empty, best first.
std::pair<std::string_view, std::string_view> DecidedBy(std::span<const Candidate* const> ranked);

// The best `k` of `candidates` in table order, ties by position in `candidates` (the first
// wins, as in pickOneNodeForPreemption): a partial selection, not a sort of all of them.
std::vector<const Candidate*> TopCandidates(const std::vector<const Candidate*>& candidates,
                                            std::size_t k);

// The record of a single-pod preemption that nominated `ranked[0]->node`. The record names pods,
// nodes and PDBs by their model ids, which are the indices of SimulationResult's pods, nodes and
// pdb_names (see ResultIndex).
// REQUIRES: ranked is not empty, best first (at most PreemptionDecision::kCandidatesShown);
// `preemptor` is an element of model.pods().
PreemptionDecision MakePodDecision(const ClusterModel& model, const PodInfo& preemptor,
                                   std::span<const Candidate* const> ranked,
                                   std::int64_t candidate_count, std::int64_t nodes_evaluated);

// A victim unit a pod group's preemption took, with why it was not reprieved.
DecisionUnit MakeDecisionUnit(const VictimUnit& unit, std::string why);

// The record of the workload-aware preemption of the pod group `root` (a model group id).
PreemptionDecision MakeGroupDecision(const ClusterModel& model, GroupId root,
                                     const std::vector<Victim>& victims,
                                     std::vector<DecisionUnit> units,
                                     const std::vector<std::pair<PodId, NodeId>>& nominations);

// `decision.pdbs`: each PDB the victims count against (as ClassifyPdbViolations counts them:
// pods it already lists as disrupted do not), disruptionsAllowed before and after, in name order.
void FillDecisionPdbs(const ClusterModel& model, const std::vector<Victim>& victims,
                      PreemptionDecision& decision);

}  // namespace kpsim::engine
