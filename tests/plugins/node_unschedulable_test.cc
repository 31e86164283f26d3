// NodeUnschedulable: its filter verdicts through the registry's chain (fixture:
// filter_fixture.h).

#include "filter_fixture.h"

#include "testing/builders.h"

namespace kpsim::engine::plugin_test {
namespace {

using kpsim::testing::MakeNamespace;
using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

TEST_F(FilterTest, UnschedulableNodeRejectsPodAsUnresolvable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Unschedulable().Build());
  AddPod(MakePod("p").Cpu("100m").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.plugin, PluginId::kNodeUnschedulable);
  EXPECT_EQ(v.reasons, Reasons{"node(s) were unschedulable"});
}

TEST_F(FilterTest, TolerationOfTheUnschedulableTaintLiftsNodeUnschedulable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Unschedulable().Build());
  AddPod(MakePod("p")
             .Cpu("100m")
             .Toleration(Tol("node.kubernetes.io/unschedulable", TolerationOperator::kExists, "",
                             TaintEffect::kNoSchedule))
             .Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
}

TEST_F(FilterTest, TolerateEverythingTolerationLiftsNodeUnschedulable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Unschedulable().Build());
  AddPod(MakePod("p").Toleration(Tol("", TolerationOperator::kExists, "", std::nullopt)).Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
}

TEST_F(FilterTest, TolerationForAnotherEffectDoesNotLiftNodeUnschedulable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Unschedulable().Build());
  AddPod(MakePod("p")
             .Toleration(Tol("node.kubernetes.io/unschedulable", TolerationOperator::kExists, "",
                             TaintEffect::kNoExecute))
             .Build());
  EXPECT_EQ(Filter("p", "n1").plugin, PluginId::kNodeUnschedulable);
}

}  // namespace
}  // namespace kpsim::engine::plugin_test
