// NodeAffinity (nodeSelector and required node affinity): its filter verdicts through the
// registry's chain (fixture: filter_fixture.h).

#include "filter_fixture.h"

#include "testing/builders.h"

namespace kpsim::engine::plugin_test {
namespace {

using kpsim::testing::MakeNamespace;
using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

TEST_F(FilterTest, NodeSelectorMismatchRejectsAsUnresolvable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Label("disk", "hdd").Build());
  AddNode(MakeNode("n2").Cpu("4").Pods(110).Label("disk", "ssd").Build());
  AddNode(MakeNode("n3").Cpu("4").Pods(110).Build());
  AddPod(MakePod("p").NodeSelector("disk", "ssd").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.plugin, PluginId::kNodeAffinity);
  EXPECT_EQ(v.reasons, Reasons{"node(s) didn't match Pod's node affinity/selector"});
  EXPECT_EQ(Filter("p", "n2").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "n3").plugin, PluginId::kNodeAffinity);
}

TEST_F(FilterTest, NodeSelectorAndRequiredAffinityMustBothMatch) {
  AddNode(MakeNode("both").Cpu("4").Pods(110).Label("disk", "ssd").Label("zone", "a").Build());
  AddNode(MakeNode("selector-only").Cpu("4").Pods(110).Label("disk", "ssd").Label("zone", "b").Build());
  Pod p = MakePod("p").NodeSelector("disk", "ssd").Build();
  p.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("zone", NodeSelectorOperator::kIn, {"a"})}, {}}}};
  AddPod(p);
  EXPECT_EQ(Filter("p", "both").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "selector-only").plugin, PluginId::kNodeAffinity);
}

TEST_F(FilterTest, RequiredTermsAreOredAndTheirExpressionsAnded) {
  AddNode(MakeNode("a-x").Cpu("4").Pods(110).Label("zone", "a").Label("arch", "x").Build());
  AddNode(MakeNode("a-y").Cpu("4").Pods(110).Label("zone", "a").Label("arch", "y").Build());
  AddNode(MakeNode("b-y").Cpu("4").Pods(110).Label("zone", "b").Label("arch", "y").Build());
  AddNode(MakeNode("c-y").Cpu("4").Pods(110).Label("zone", "c").Label("arch", "y").Build());
  Pod p = MakePod("p").Build();
  // (zone In [a] AND arch In [x]) OR (zone In [b]).
  p.spec.affinity.node_affinity_required = NodeSelector{{
      NodeSelectorTerm{{Req("zone", NodeSelectorOperator::kIn, {"a"}),
                        Req("arch", NodeSelectorOperator::kIn, {"x"})},
                       {}},
      NodeSelectorTerm{{Req("zone", NodeSelectorOperator::kIn, {"b"})}, {}},
  }};
  AddPod(p);
  EXPECT_EQ(Filter("p", "a-x").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "a-y").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("p", "b-y").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "c-y").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, GtAndLtCompareLabelValuesAsIntegers) {
  AddNode(MakeNode("cores-9").Cpu("4").Pods(110).Label("cores", "9").Build());
  AddNode(MakeNode("cores-10").Cpu("4").Pods(110).Label("cores", "10").Build());
  AddNode(MakeNode("cores-none").Cpu("4").Pods(110).Build());
  AddNode(MakeNode("cores-text").Cpu("4").Pods(110).Label("cores", "many").Build());
  Pod gt = MakePod("gt").Build();
  gt.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("cores", NodeSelectorOperator::kGt, {"9"})}, {}}}};
  AddPod(gt);
  Pod lt = MakePod("lt").Build();
  lt.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("cores", NodeSelectorOperator::kLt, {"10"})}, {}}}};
  AddPod(lt);
  // "10" > "9" numerically although not as strings; Gt is strict.
  EXPECT_EQ(Filter("gt", "cores-10").code, Code::kSuccess);
  EXPECT_EQ(Filter("gt", "cores-9").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("gt", "cores-none").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("gt", "cores-text").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("lt", "cores-9").code, Code::kSuccess);
  EXPECT_EQ(Filter("lt", "cores-10").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, NotInMatchesNodesWithoutTheKey) {
  AddNode(MakeNode("bad").Cpu("4").Pods(110).Label("pool", "spot").Build());
  AddNode(MakeNode("good").Cpu("4").Pods(110).Label("pool", "ondemand").Build());
  AddNode(MakeNode("unlabelled").Cpu("4").Pods(110).Build());
  Pod p = MakePod("p").Build();
  p.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("pool", NodeSelectorOperator::kNotIn, {"spot"})}, {}}}};
  AddPod(p);
  EXPECT_EQ(Filter("p", "bad").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("p", "good").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "unlabelled").code, Code::kSuccess);
}

TEST_F(FilterTest, DoesNotExistAndExistsLookOnlyAtTheKey) {
  AddNode(MakeNode("gpu").Cpu("4").Pods(110).Label("gpu", "").Build());
  AddNode(MakeNode("plain").Cpu("4").Pods(110).Build());
  Pod none = MakePod("none").Build();
  none.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("gpu", NodeSelectorOperator::kDoesNotExist, {})}, {}}}};
  AddPod(none);
  Pod some = MakePod("some").Build();
  some.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("gpu", NodeSelectorOperator::kExists, {})}, {}}}};
  AddPod(some);
  EXPECT_EQ(Filter("none", "gpu").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("none", "plain").code, Code::kSuccess);
  EXPECT_EQ(Filter("some", "gpu").code, Code::kSuccess);
  EXPECT_EQ(Filter("some", "plain").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, EmptyRequiredTermSelectsNoNode) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Label("a", "b").Build());
  Pod p = MakePod("p").Build();
  p.spec.affinity.node_affinity_required = NodeSelector{{NodeSelectorTerm{}}};
  AddPod(p);
  EXPECT_EQ(Filter("p", "n1").plugin, PluginId::kNodeAffinity);
}

TEST_F(FilterTest, MatchFieldsSelectsByNodeName) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Build());
  AddNode(MakeNode("n2").Cpu("4").Pods(110).Build());
  Pod p = MakePod("p").Build();
  p.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{}, {Req("metadata.name", NodeSelectorOperator::kIn, {"n2"})}}}};
  AddPod(p);
  EXPECT_EQ(Filter("p", "n1").plugin, PluginId::kNodeAffinity);
  EXPECT_EQ(Filter("p", "n2").code, Code::kSuccess);
}

}  // namespace
}  // namespace kpsim::engine::plugin_test
