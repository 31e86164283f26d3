// The registry (src/plugins/registry.cc): the default profile's filter plugins in
// kube-scheduler's order, the node-local ones first (the filter runner caches that prefix), and
// the score plugins with the default profile's weights.

#include "plugins/registry.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "framework/status.h"
#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {
namespace {

TEST(RegistryTest, FilterPluginsRunInTheDefaultProfilesOrder) {
  ClusterState state;
  EngineOptions options;
  ClusterModel model(state, options);
  const FilterPlugins filters = NewFilterPlugins(model);
  std::vector<std::string> names;
  for (const auto& p : filters) names.emplace_back(PluginName(p->id()));
  EXPECT_EQ(names, (std::vector<std::string>{"NodeUnschedulable", "NodeName", "TaintToleration",
                                             "NodeAffinity", "NodePorts", "NodeResourcesFit",
                                             "PodTopologySpread", "InterPodAffinity"}));
}

TEST(RegistryTest, NodeLocalFiltersComeFirst) {
  ClusterState state;
  EngineOptions options;
  ClusterModel model(state, options);
  const FilterPlugins filters = NewFilterPlugins(model);
  bool seen_dynamic = false;
  for (const auto& p : filters) {
    if (!p->node_local()) seen_dynamic = true;
    EXPECT_FALSE(seen_dynamic && p->node_local()) << PluginName(p->id());
  }
  EXPECT_TRUE(filters.front()->node_local());
  EXPECT_FALSE(filters.back()->node_local());  // InterPodAffinity depends on the pods present
}

TEST(RegistryTest, ScorePluginsCarryTheDefaultWeights) {
  ClusterState state;
  EngineOptions options;
  ClusterModel model(state, options);
  const ScorePlugins scores = NewScorePlugins(model);
  std::vector<std::string> names;
  std::vector<std::int64_t> weights;
  for (const auto& s : scores) {
    names.emplace_back(s.plugin->name());
    weights.push_back(s.weight);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"NodeResourcesFit", "NodeResourcesBalancedAllocation",
                                             "TaintToleration", "NodeAffinity",
                                             "ImageLocality", "PodTopologySpread",
                                             "InterPodAffinity"}));
  EXPECT_EQ(weights, (std::vector<std::int64_t>{1, 1, 3, 2, 1, 2, 2}));
}

}  // namespace
}  // namespace kpsim::engine
