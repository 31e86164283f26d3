#pragma once

// PodTopologySpread's filter in the cycle (upstream podtopologyspread/filtering.go): the pure
// counting and skew check are plugins/pod_topology_spread.h; this adapter builds the PreFilter
// state over the cluster model, keeps it in the cycle state (AffinityState::spread) so that
// nominated pods and dry-run victims update it (PreFilterExtensions AddPod/RemovePod), and maps
// the verdict onto a Status. Not node-local: a node's verdict depends on the pods of its whole
// topology domain, so a pod with DoNotSchedule constraints bypasses the per-node caches.

#include "framework/plugin.h"
#include "framework/status.h"
#include "plugins/pod_topology_spread.h"
#include "snapshot/cluster.h"
#include "snapshot/reason_table.h"

namespace kpsim::engine {

// What PodTopologySpread reads of `node` for `incoming` (filter and score alike): its labels,
// taints and whether the pod's required node affinity matches it; a node not in the cluster
// is no domain.
plugins::SpreadNodeView SpreadNodeViewOf(const PodInfo& incoming, const NodeInfo& node);

class PodTopologySpread final : public FilterPlugin {
 public:
  explicit PodTopologySpread(ClusterModel& model);
  PluginId id() const override { return PluginId::kPodTopologySpread; }
  // False when the pod has no DoNotSchedule constraint (upstream returns Skip).
  bool PreFilter(const PodInfo& pod, AffinityState& state) override;
  Status Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const override;

 private:
  ClusterModel& model_;
  ReasonId constraints_not_match_, node_label_not_match_;
};

}  // namespace kpsim::engine
