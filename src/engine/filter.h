#pragma once

// The Filter plugins of the default profile, in kube-scheduler's order: NodeUnschedulable,
// NodeName, TaintToleration, NodeAffinity (with nodeSelector), NodeResourcesFit,
// InterPodAffinity. The chain stops at the first rejection, as RunFilterPlugins does.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/status.h"
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

class Filters {
 public:
  explicit Filters(ClusterModel& model);

  // Builds InterPodAffinity's state for `pod` over the current cluster, or returns false when
  // the plugin has nothing to check (the pod has no terms and no bound pod has anti-affinity).
  bool PreFilterAffinity(const PodInfo& pod, AffinityState& state);

  // The node-local plugins (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity). Pure
  // functions of the pod's static class and the node, so cached per (class, node).
  Status Static(const PodInfo& pod, NodeId node);

  // NodeResourcesFit against `requested` (the node's requests as the caller sees them, pods
  // included in `requested.pods`).
  Status Fit(const PodInfo& pod, const NodeInfo& node, const ResourceList& requested);

  Status Affinity(const AffinityState& state, const NodeInfo& node);

  // The whole chain. `affinity` may be null (nothing to check).
  Status Run(const PodInfo& pod, NodeId node, const ResourceList& requested,
             const AffinityState* affinity);

 private:
  Status ComputeStatic(const PodInfo& pod, const NodeInfo& node);

  ClusterModel& model_;
  // static_cache_[class][node]: 0 = not computed, else 1 + index into static_results_.
  std::vector<std::vector<std::int32_t>> static_cache_;
  std::vector<Status> static_results_;
  ReasonId too_many_pods_, insufficient_cpu_, insufficient_memory_, insufficient_ephemeral_,
      unschedulable_, node_name_, node_affinity_, affinity_rules_, anti_affinity_rules_,
      existing_anti_affinity_;
};

// True iff `other` is selected by `term` as written in the spec of `owner` (namespaces,
// namespaceSelector, labelSelector), mirroring framework.AffinityTerm.Matches.
bool TermMatches(ClusterModel& model, const PodAffinityTerm& term, const PodInfo& owner,
                 const PodInfo& other);

}  // namespace kpsim::engine
