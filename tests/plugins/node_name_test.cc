// NodeName (src/plugins/node_name.h), called directly: the cluster model binds every pod that
// names an existing node, so a pending pod with spec.nodeName only reaches the plugin this way.

#include "plugins/node_name.h"

#include <gtest/gtest.h>

#include <string>

#include "filter_fixture.h"
#include "testing/builders.h"

namespace kpsim::engine::plugin_test {
namespace {

using namespace kpsim::engine::id_literals;  // NOLINT(google-build-using-namespace)

using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

TEST(NodeNameTest, OnlyTheNamedNodeFits) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("4").Pods(110).Build());
  state.nodes.push_back(MakeNode("n2").Cpu("4").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("p").Cpu("1").Build()));
  EngineOptions options;
  ClusterModel model(state, options);
  const NodeName plugin(model.reasons());
  EXPECT_TRUE(plugin.node_local());
  const NodeInfo& n1 = model.node(0_node);
  const NodeInfo& n2 = model.node(1_node);
  EXPECT_TRUE(plugin.Filter(model.pod(0_pod), n1, FilterInput{n1.requested}).IsSuccess());  // names none
  Pod named = model.pod(0_pod).pod;
  named.spec.node_name = "n2";
  const PodInfo pod{named};
  EXPECT_TRUE(plugin.Filter(pod, n2, FilterInput{n2.requested}).IsSuccess());
  const Status s = plugin.Filter(pod, n1, FilterInput{n1.requested});
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.plugin(), PluginId::kNodeName);
  ASSERT_EQ(s.reason_count(), 1);
  EXPECT_EQ(model.reasons().Text(s.reason(0)), "node(s) didn't match the requested node name");
}

}  // namespace
}  // namespace kpsim::engine::plugin_test
