#pragma once

// What one scheduling cycle computes once and its filters share (kube-scheduler's CycleState):
// the PreFilter states of the plugins whose verdict depends on other nodes, and the affinity term
// matching of framework.AffinityTerm.

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "kpsim/api/types.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

// The PreFilter state of a plugin outside framework/ (PodTopologySpread's): carried in the cycle
// state, cloned when the state is branched (a dry run, nominated pods added) and told of every pod
// added or removed there (its PreFilterExtensions AddPod/RemovePod).
class PluginCycleState {
 public:
  virtual ~PluginCycleState() = default;
  virtual std::unique_ptr<PluginCycleState> Clone() const = 0;
  virtual void AddPod(const PodInfo& other, const NodeInfo& node, int delta) = 0;
};

// The cycle state of one pod's filters (kube-scheduler's CycleState, the parts that depend on
// other nodes): InterPodAffinity's PreFilter state (counts of matching pods per topology pair,
// when `inter_pod`) and PodTopologySpread's (`spread`, when the pod has DoNotSchedule
// constraints), both updated incrementally by AddPod during dry runs. A value type: copy it to
// branch a dry run.
struct AffinityState {
  using TopologyPair = std::pair<std::string, std::string>;
  const PodInfo* pod = nullptr;
  bool inter_pod = false;  // InterPodAffinity has something to check
  std::map<TopologyPair, int> affinity_counts;        // pods matching all affinity terms
  std::map<TopologyPair, int> anti_affinity_counts;   // pods matching each anti-affinity term
  std::map<TopologyPair, int> existing_anti_affinity;  // existing pods whose anti-affinity P matches
  std::unique_ptr<PluginCycleState> spread;            // PodTopologySpread's; null: none

  AffinityState() = default;
  AffinityState(const AffinityState& other);
  AffinityState& operator=(const AffinityState& other);
  AffinityState(AffinityState&&) = default;
  AffinityState& operator=(AffinityState&&) = default;
  ~AffinityState() = default;

  // PreFilterExtensions AddPod/RemovePod of every plugin with a state: `other` appears on /
  // leaves `node`.
  void AddPod(ClusterModel& model, const PodInfo& other, const NodeInfo& node, int delta);
  // InterPodAffinity's part alone (its PreFilter counts the placed pods with it).
  void AddAffinityPod(ClusterModel& model, const PodInfo& other, const NodeInfo& node, int delta);
};

// True iff `other` is selected by `term` as written in the spec of `owner` (namespaces,
// namespaceSelector, labelSelector), mirroring framework.AffinityTerm.Matches.
bool TermMatches(ClusterModel& model, const PodAffinityTerm& term, const PodInfo& owner,
                 const PodInfo& other);

// podMatchesAllAffinityTerms: `other` matches every required affinity term of `owner` (false
// when it has none).
bool AllAffinityTermsMatch(ClusterModel& model, const PodInfo& owner, const PodInfo& other);

}  // namespace kpsim::engine
