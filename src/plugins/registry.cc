#include "plugins/registry.h"

#include <memory>

#include "plugins/image_locality.h"
#include "plugins/inter_pod_affinity.h"
#include "plugins/inter_pod_affinity_score.h"
#include "plugins/node_affinity.h"
#include "plugins/node_affinity_score.h"
#include "plugins/node_name.h"
#include "plugins/node_ports.h"
#include "plugins/node_resources_balanced_allocation.h"
#include "plugins/node_resources_fit.h"
#include "plugins/node_resources_least_allocated.h"
#include "plugins/node_unschedulable.h"
#include "plugins/pod_topology_spread_filter.h"
#include "plugins/pod_topology_spread_score.h"
#include "plugins/taint_toleration.h"

namespace kpsim::engine {

FilterPlugins NewFilterPlugins(ClusterModel& model) {
  ReasonTable& reasons = model.reasons();
  FilterPlugins filters;
  // Node-local (cached per static class and node).
  filters.push_back(std::make_unique<NodeUnschedulable>(reasons));
  filters.push_back(std::make_unique<NodeName>(reasons));
  filters.push_back(std::make_unique<TaintToleration>(reasons));
  filters.push_back(std::make_unique<NodeAffinity>(reasons));
  // Depending on the pods present.
  filters.push_back(std::make_unique<NodePorts>(reasons));
  filters.push_back(std::make_unique<NodeResourcesFit>(reasons));
  filters.push_back(std::make_unique<PodTopologySpread>(model));
  filters.push_back(std::make_unique<InterPodAffinity>(model));
  return filters;
}

// The default profile's score plugins with their weights (getDefaultPlugins, pkg/scheduler/apis/
// config/v1/default_plugins.go).
ScorePlugins NewScorePlugins(ClusterModel& model) {
  ScorePlugins scores;
  scores.push_back({std::make_unique<NodeResourcesLeastAllocated>(), 1});
  scores.push_back({std::make_unique<NodeResourcesBalancedAllocation>(), 1});
  scores.push_back({std::make_unique<TaintTolerationScore>(model), 3});
  scores.push_back({std::make_unique<NodeAffinityScore>(model), 2});
  scores.push_back({std::make_unique<ImageLocality>(model), 1});
  scores.push_back({std::make_unique<PodTopologySpreadScore>(model), 2});
  scores.push_back({std::make_unique<InterPodAffinityScore>(model), 2});
  return scores;
}

}  // namespace kpsim::engine
