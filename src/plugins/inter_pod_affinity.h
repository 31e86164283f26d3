#pragma once

// InterPodAffinity (plugins/interpodaffinity) filter: the pod's required affinity and
// anti-affinity terms, and the existing pods' anti-affinity against it (symmetry), over the
// topology-pair counts its PreFilter builds (AffinityState, framework/cycle_state.h).

#include "framework/cycle_state.h"
#include "framework/plugin.h"
#include "framework/status.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

class InterPodAffinity final : public FilterPlugin {
 public:
  explicit InterPodAffinity(ClusterModel& model);
  PluginId id() const override { return PluginId::kInterPodAffinity; }
  // Builds the state over the current cluster; false when there is nothing to check (the pod has
  // no terms and no bound pod has anti-affinity).
  bool PreFilter(const PodInfo& pod, AffinityState& state) override;
  // Success when `in.affinity` is null (PreFilter found nothing to check).
  Status Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const override;

 private:
  ClusterModel& model_;
  ReasonId affinity_rules_, anti_affinity_rules_, existing_anti_affinity_;
};

}  // namespace kpsim::engine
