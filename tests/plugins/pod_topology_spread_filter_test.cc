// PodTopologySpread's filter in the registry's chain (fixture: filter_fixture.h): the counts come
// from the pods bound in the model, the reasons and codes are upstream's, and the cycle state
// follows pods added and removed (the dry runs' and nominated pods' PreFilterExtensions).

#include "filter_fixture.h"

#include "framework/cycle_state.h"
#include "plugins/pod_topology_spread_filter.h"
#include "testing/builders.h"

namespace kpsim::engine::plugin_test {
namespace {

using namespace kpsim::engine::id_literals;  // NOLINT(google-build-using-namespace)

// A DoNotSchedule zone constraint of maxSkew 1 over app=web.
Pod SpreadWeb(std::string name) {
  Pod pod = MakePod(std::move(name)).Label("app", "web").Build();
  TopologySpreadConstraint c;
  c.max_skew = 1;
  c.topology_key = std::string(kZone);
  c.when_unsatisfiable = UnsatisfiableConstraintAction::kDoNotSchedule;
  c.label_selector = LabelSelector{{{"app", "web"}}, {}};
  pod.spec.topology_spread_constraints.push_back(std::move(c));
  return pod;
}

class SpreadFilterTest : public FilterTest {
 protected:
  void SetUp() override {
    AddNode(ZonedNode("a1", "a"));
    AddNode(ZonedNode("a2", "a"));
    AddNode(ZonedNode("b1", "b"));
    AddNode(MakeNode("x").Cpu("4").Memory("8Gi").Pods(110).Build());  // no zone label
    AddPod(MakePod("w1").Label("app", "web").Node("a1").Build());
    AddPod(MakePod("w2").Label("app", "web").Node("a2").Build());
  }
};

// Setup: zone a holds 2 matching pods, zone b none. Expect: zone a refused as Unschedulable
// (preemption may remove matching pods), b fits, a node without the key is unresolvable.
TEST_F(SpreadFilterTest, SkewAboveMaxIsUnschedulableAndAMissingKeyUnresolvable) {
  AddPod(SpreadWeb("p"));
  const Verdict a = Filter("p", "a1");
  EXPECT_EQ(a.code, Code::kUnschedulable);
  EXPECT_EQ(a.plugin, PluginId::kPodTopologySpread);
  EXPECT_EQ(a.reasons, (Reasons{"node(s) didn't match pod topology spread constraints"}));
  EXPECT_EQ(Filter("p", "b1").code, Code::kSuccess);
  const Verdict x = Filter("p", "x");
  EXPECT_EQ(x.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(x.reasons, (Reasons{"node(s) didn't match pod topology spread constraints (missing required label)"}));
}

// Setup: the same pods in another namespace, and pods of other labels. Expect: not counted.
TEST_F(SpreadFilterTest, CountsOnlyMatchingPodsOfThePodsNamespace) {
  AddPod(MakePod("other-ns").Namespace("other").Label("app", "web").Node("b1").Build());
  AddPod(MakePod("db").Label("app", "db").Node("b1").Build());
  AddPod(SpreadWeb("p"));
  EXPECT_EQ(Filter("p", "b1").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "a1").code, Code::kUnschedulable);
}

// Setup: PreFilter for p, then the cycle state branched as a dry run does: w1 and w2 removed
// from zone a. Expect: the branch lets p into zone a, the original state still refuses it, and
// adding one back (a reprieve) refuses it again.
TEST_F(SpreadFilterTest, TheCycleStateFollowsPodsRemovedAndAddedBack) {
  AddPod(SpreadWeb("p"));
  model_.emplace(state_, options_);
  FilterRunner filters(*model_, options_, NewFilterPlugins(*model_));
  const PodInfo& p = model_->pod(*model_->FindPod("default/p"));
  AffinityState state;
  ASSERT_TRUE(filters.PreFilter(p, state));
  ASSERT_NE(state.spread, nullptr);
  const NodeId a1 = *model_->FindNode("a1");
  const NodeId a2 = *model_->FindNode("a2");
  const auto& nodes = model_->nodes();
  const PodInfo& w1 = model_->pod(*model_->FindPod("default/w1"));
  const PodInfo& w2 = model_->pod(*model_->FindPod("default/w2"));
  AffinityState branch = state;
  branch.AddPod(*model_, w1, nodes[a1], -1);
  branch.AddPod(*model_, w2, nodes[a2], -1);
  const ResourceList& requested = nodes[a1].requested;
  EXPECT_TRUE(filters.Run(p, a1, requested, &branch).IsSuccess());
  EXPECT_EQ(filters.Run(p, a1, requested, &state).plugin(), PluginId::kPodTopologySpread);
  branch.AddPod(*model_, w2, nodes[a2], +1);
  EXPECT_EQ(filters.Run(p, a1, requested, &branch).plugin(), PluginId::kPodTopologySpread);
}

// Setup: a pod with only a ScheduleAnyway constraint. Expect: PreFilter has nothing to check
// (upstream's Skip) and every node with or without the key passes the filter.
TEST_F(SpreadFilterTest, ScheduleAnywayIsNotAFilter) {
  Pod soft = SpreadWeb("soft");
  soft.spec.topology_spread_constraints[0].when_unsatisfiable = UnsatisfiableConstraintAction::kScheduleAnyway;
  AddPod(std::move(soft));
  EXPECT_EQ(Filter("soft", "a1").code, Code::kSuccess);
  EXPECT_EQ(Filter("soft", "x").code, Code::kSuccess);
}

}  // namespace
}  // namespace kpsim::engine::plugin_test
