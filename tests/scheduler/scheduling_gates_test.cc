// spec.schedulingGates in the default profile: SchedulingGates.PreEnqueue keeps a gated pod out
// of the queue (no attempt, no event, never a preemptor), explain refuses to invent a cycle for
// it, and a gated pod-group member is not pending for its group.

#include <gtest/gtest.h>

#include <string>

#include "kpsim/engine.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "testing/builders.h"

namespace kpsim {
namespace {

using testing::MakeNode;
using testing::MakePod;

ClusterState GatedCluster() {
  // n1 full with `low`; `gated` (higher priority) would have to preempt it.
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("1").Memory("1Gi").Pods(10).Build());
  Pod low = MakePod("low").Namespace("default").Priority(1).Node("n1").Cpu("1").Build();
  Pod gated = MakePod("gated").Namespace("default").Priority(100).Cpu("1").SchedulingGate("b")
                  .SchedulingGate("a").Build();
  for (Pod* p : {&low, &gated}) p->spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  state.pods = {low, gated};
  return state;
}

TEST(SchedulingGatesEngineTest, GatedPodStaysPendingWithoutAttemptOrPreemption) {
  const SimulationResult r = Simulate(GatedCluster(), EngineOptions{});
  ASSERT_EQ(r.pods.size(), 2u);
  EXPECT_EQ(r.pods[0].state, PodState::kRunning);
  EXPECT_EQ(r.pods[1].state, PodState::kPending);
  // Gate names in spec order, as `%v` of the slice prints them.
  EXPECT_EQ(r.pods[1].reason, "waiting for scheduling gates: [b a]");
  EXPECT_EQ(r.pods[1].condition, "SchedulingGated");
  EXPECT_EQ(r.pods[0].condition, "");
  EXPECT_EQ(r.stats.scheduling_attempts, 0);
  EXPECT_EQ(r.stats.preemption_attempts, 0);
  for (const SimEvent& e : r.events) EXPECT_NE(e.pod, "default/gated") << e.message;
}

TEST(SchedulingGatesEngineTest, WithoutGatesTheSamePodPreempts) {
  // The control: the outcome above is the gates' doing.
  ClusterState state = GatedCluster();
  state.pods[1].spec.scheduling_gates.clear();
  const SimulationResult r = Simulate(state, EngineOptions{});
  EXPECT_GT(r.stats.scheduling_attempts, 0);
  EXPECT_EQ(r.pods[0].state, PodState::kDeleted);
  EXPECT_EQ(r.pods[1].condition, "");
}

TEST(SchedulingGatesEngineTest, ExplainSaysTheGatedPodIsNotAttempted) {
  const auto explained = Explain(GatedCluster(), EngineOptions{}, "default/gated");
  ASSERT_FALSE(explained.ok());
  EXPECT_EQ(explained.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_EQ(explained.error().message,
            "pod default/gated is SchedulingGated (waiting for scheduling gates: [b a]): "
            "kube-scheduler makes no attempt for it until its gates are removed");
}

TEST(SchedulingGatesEngineTest, BookProfileSchedulesGatedPodsAndWarns) {
  EngineOptions options;
  options.profile = Profile::kBook;
  const SimulationResult r = Simulate(GatedCluster(), options);
  EXPECT_EQ(r.pods[1].state, PodState::kRunning);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].code, "IgnoredByProfile");
  EXPECT_EQ(r.warnings[0].object, "Pod default/gated");
}

}  // namespace
}  // namespace kpsim
