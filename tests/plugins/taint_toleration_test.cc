// TaintToleration: its filter verdicts through the registry's chain (fixture: filter_fixture.h).

#include "filter_fixture.h"

#include "testing/builders.h"

namespace kpsim::engine::plugin_test {
namespace {

using kpsim::testing::MakeNamespace;
using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

TEST_F(FilterTest, UntoleratedNoScheduleTaintRejectsWithTaintInReason) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("dedicated", "gpu", TaintEffect::kNoSchedule).Build());
  AddPod(MakePod("p").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.plugin, PluginId::kTaintToleration);
  EXPECT_EQ(v.reasons, Reasons{"node(s) had untolerated taint {dedicated: gpu}"});
}

TEST_F(FilterTest, UntoleratedNoExecuteTaintRejects) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("evict", "", TaintEffect::kNoExecute).Build());
  AddPod(MakePod("p").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.reasons, Reasons{"node(s) had untolerated taint {evict: }"});
}

TEST_F(FilterTest, PreferNoScheduleTaintNeverRejects) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("soft", "x", TaintEffect::kPreferNoSchedule).Build());
  AddPod(MakePod("p").Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
}

TEST_F(FilterTest, EqualTolerationNeedsTheSameValue) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("dedicated", "gpu", TaintEffect::kNoSchedule).Build());
  AddPod(MakePod("same")
             .Toleration(Tol("dedicated", TolerationOperator::kEqual, "gpu", TaintEffect::kNoSchedule))
             .Build());
  AddPod(MakePod("other")
             .Toleration(Tol("dedicated", TolerationOperator::kEqual, "cpu", TaintEffect::kNoSchedule))
             .Build());
  EXPECT_EQ(Filter("same", "n1").code, Code::kSuccess);
  EXPECT_EQ(Filter("other", "n1").plugin, PluginId::kTaintToleration);
}

TEST_F(FilterTest, ExistsTolerationMatchesAnyValueOfItsKey) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("dedicated", "gpu", TaintEffect::kNoSchedule).Build());
  AddPod(MakePod("p").Toleration(Tol("dedicated", TolerationOperator::kExists, "", std::nullopt)).Build());
  AddPod(MakePod("q").Toleration(Tol("other", TolerationOperator::kExists, "", std::nullopt)).Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
  EXPECT_EQ(Filter("q", "n1").plugin, PluginId::kTaintToleration);
}

TEST_F(FilterTest, TolerationWithAnotherEffectDoesNotTolerate) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("k", "v", TaintEffect::kNoExecute).Build());
  AddPod(MakePod("p").Toleration(Tol("k", TolerationOperator::kEqual, "v", TaintEffect::kNoSchedule)).Build());
  EXPECT_EQ(Filter("p", "n1").reasons, Reasons{"node(s) had untolerated taint {k: v}"});
}

TEST_F(FilterTest, ReportsTheFirstUntoleratedTaint) {
  AddNode(MakeNode("n1")
              .Cpu("4")
              .Pods(110)
              .Taint("a", "1", TaintEffect::kNoSchedule)
              .Taint("b", "2", TaintEffect::kNoSchedule)
              .Taint("c", "3", TaintEffect::kNoExecute)
              .Build());
  AddPod(MakePod("p").Toleration(Tol("a", TolerationOperator::kExists, "", std::nullopt)).Build());
  EXPECT_EQ(Filter("p", "n1").reasons, Reasons{"node(s) had untolerated taint {b: 2}"});
}

}  // namespace
}  // namespace kpsim::engine::plugin_test
