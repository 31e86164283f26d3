#pragma once

// What one scheduling cycle computes once and its filters share (kube-scheduler's CycleState):
// InterPodAffinity's PreFilter state, and the affinity term matching of framework.AffinityTerm.

#include <map>
#include <string>
#include <utility>

#include "kpsim/api/types.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

// InterPodAffinity's PreFilter state (its CycleState entry): counts of matching pods per
// topology pair, updated incrementally by AddPod/RemovePod during dry runs. A value type:
// copy it to branch a dry run.
struct AffinityState {
  using TopologyPair = std::pair<std::string, std::string>;
  const PodInfo* pod = nullptr;
  std::map<TopologyPair, int> affinity_counts;        // pods matching all affinity terms
  std::map<TopologyPair, int> anti_affinity_counts;   // pods matching each anti-affinity term
  std::map<TopologyPair, int> existing_anti_affinity;  // existing pods whose anti-affinity P matches

  // PreFilterExtension: `other` appears on / leaves `node`.
  void AddPod(ClusterModel& model, const PodInfo& other, const NodeInfo& node, int delta);
};

// True iff `other` is selected by `term` as written in the spec of `owner` (namespaces,
// namespaceSelector, labelSelector), mirroring framework.AffinityTerm.Matches.
bool TermMatches(ClusterModel& model, const PodAffinityTerm& term, const PodInfo& owner,
                 const PodInfo& other);

// podMatchesAllAffinityTerms: `other` matches every required affinity term of `owner` (false
// when it has none).
bool AllAffinityTermsMatch(ClusterModel& model, const PodInfo& owner, const PodInfo& other);

}  // namespace kpsim::engine
