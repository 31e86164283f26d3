// The registry's chain order through the filter runner (fixture: filter_fixture.h).

#include "filter_fixture.h"

#include "testing/builders.h"

namespace kpsim::engine::plugin_test {
namespace {

using kpsim::testing::MakeNamespace;
using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

// The chain's order: a node failing several plugins reports the first one only.
TEST_F(FilterTest, ChainStopsAtTheFirstRejectingPlugin) {
  AddNode(MakeNode("n1").Cpu("1").Pods(110).Unschedulable().Taint("k", "v", TaintEffect::kNoSchedule).Build());
  AddNode(MakeNode("n2").Cpu("1").Pods(110).Taint("k", "v", TaintEffect::kNoSchedule).Build());
  AddPod(MakePod("p").Cpu("2").NodeSelector("x", "y").Build());
  EXPECT_EQ(Filter("p", "n1").plugin, PluginId::kNodeUnschedulable);
  EXPECT_EQ(Filter("p", "n2").plugin, PluginId::kTaintToleration);
}

}  // namespace
}  // namespace kpsim::engine::plugin_test
