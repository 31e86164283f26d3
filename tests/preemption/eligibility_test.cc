// Unit tests for the rest of one default-profile cycle (spec §4-§7, §13): preemptor eligibility
// (PodEligibleToPreemptOthers), nominated pods counted on their node during filtering and dry
// runs, the nominated-node fast path, and the exact FitError / FailedScheduling texts.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/explain.h"
#include "scheduler/framework.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using kpsim::testing::MakePod;
using Names = std::vector<std::string>;

class EligibilityTest : public EngineTest {};

// ----------------------------------------------------------------------------------------------
// Eligibility.

TEST_F(EligibilityTest, PreemptionPolicyNeverIsNotEligible) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("lo").Node("n1").Priority(0).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).PreemptionPolicy(PreemptionPolicy::kNever).Cpu("1").Build());
  const Decision d = Decide("p");
  EXPECT_EQ(d.kind, Decision::Kind::kFail);
  EXPECT_EQ(d.message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to "
            "preemptionPolicy=Never.");
  EXPECT_FALSE(d.clear_nomination);
  const ExplainResult r = Trace("p");
  EXPECT_FALSE(r.eligible);
  EXPECT_EQ(r.eligibility_message, "not eligible due to preemptionPolicy=Never.");
  EXPECT_TRUE(r.candidates.empty());
}

// Setup: p was nominated to n1 and its victim there is still terminating; n2 has another
// lower-priority pod. Expect: p waits instead of preempting again, and keeps its nomination.
TEST_F(EligibilityTest, TerminatingVictimOnTheNominatedNodeBlocksPreemption) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddPod(TerminatingByPreemption(MakePod("leaving").Node("n1").Priority(1).Cpu("1").Build()));
  AddPod(MakePod("lo").Node("n2").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").NominatedNode("n1").Build());
  const Decision d = Decide("p");
  EXPECT_EQ(d.kind, Decision::Kind::kFail);
  EXPECT_EQ(d.message,
            "0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to a "
            "terminating pod on the nominated node.");
  EXPECT_FALSE(d.clear_nomination);
}

TEST_F(EligibilityTest, PodTerminatingForAnotherReasonDoesNotBlock) {
  AddNode(NodeWithCpu("n1", "1").Build());
  Pod leaving = MakePod("leaving").Node("n1").Priority(1).Cpu("1").Build();
  leaving.meta.deletion_timestamp = WallTime{kOriginUs + 30'000'000};  // no DisruptionTarget
  AddPod(leaving);
  AddPod(MakePod("p").Priority(10).Cpu("1").NominatedNode("n1").Build());
  EXPECT_EQ(Decide("p").kind, Decision::Kind::kPreempt);
}

TEST_F(EligibilityTest, TerminatingPodOfEqualPriorityDoesNotBlock) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(TerminatingByPreemption(MakePod("peer").Node("n1").Priority(10).Cpu("1").Build()));
  AddPod(MakePod("lo").Node("n1").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").NominatedNode("n1").Build());
  const Decision d = Decide("p");
  // Eligible; the equal-priority pod is no victim, so n1 cannot be freed.
  EXPECT_EQ(d.kind, Decision::Kind::kFail);
  EXPECT_EQ(d.message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 "
            "Insufficient cpu.");
}

TEST_F(EligibilityTest, TerminatingVictimElsewhereDoesNotBlock) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddPod(TerminatingByPreemption(MakePod("leaving").Node("n2").Priority(1).Cpu("1").Build()));
  AddPod(MakePod("lo").Node("n1").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").NominatedNode("n1").Build());
  EXPECT_EQ(Decide("p").kind, Decision::Kind::kPreempt);
}

TEST_F(EligibilityTest, UnresolvableNominatedNodeLetsThePodPreemptAfresh) {
  // Setup: n1 now carries a taint p does not tolerate, so the old nomination is hopeless.
  AddNode(NodeWithCpu("n1", "1").Taint("maintenance", "", TaintEffect::kNoSchedule).Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddPod(TerminatingByPreemption(MakePod("leaving").Node("n1").Priority(1).Cpu("1").Build()));
  AddPod(MakePod("lo").Node("n2").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").NominatedNode("n1").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt) << d.message;
  EXPECT_EQ(NodeName(d.node), "n2");
  EXPECT_EQ(Victims(d), Names{"default/lo"});
}

// ----------------------------------------------------------------------------------------------
// Nominated pods (rule 4.2).

TEST_F(EligibilityTest, EqualOrHigherPriorityNominatedPodsOccupyTheirNodeInDryRuns) {
  for (const std::int32_t nominated_priority : {10, 20}) {
    state = ClusterState{};
    AddNode(NodeWithCpu("n1", "2").Build());
    AddPod(MakePod("lo").Node("n1").Priority(0).Cpu("2").Build());
    AddPod(MakePod("waiting").Priority(nominated_priority).Cpu("1").NominatedNode("n1").Build());
    AddPod(MakePod("p").Priority(10).Cpu("2").Build());
    const Decision d = Decide("p");
    EXPECT_EQ(d.kind, Decision::Kind::kFail) << nominated_priority;
    EXPECT_EQ(d.message,
              "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: "
              "1 Insufficient cpu.")
        << nominated_priority;
  }
}

TEST_F(EligibilityTest, LowerPriorityNominatedPodsAreIgnored) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("lo").Node("n1").Priority(0).Cpu("2").Build());
  AddPod(MakePod("waiting").Priority(5).Cpu("1").NominatedNode("n1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(Victims(d), Names{"default/lo"});
}

TEST_F(EligibilityTest, NominatedPodBlocksFilteringOfLowerOrEqualPods) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("waiting").Priority(10).Cpu("2").NominatedNode("n1").Build());
  AddPod(MakePod("equal").Priority(10).Cpu("1").Build());
  AddPod(MakePod("higher").Priority(11).Cpu("1").Build());
  const Decision equal = Decide("equal");
  EXPECT_EQ(equal.kind, Decision::Kind::kFail);
  EXPECT_EQ(equal.message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 "
            "No preemption victims found for incoming pod.");
  const Decision higher = Decide("higher");
  EXPECT_EQ(higher.kind, Decision::Kind::kBind);
  EXPECT_EQ(NodeName(higher.node), "n1");
}

TEST_F(EligibilityTest, PodsOwnNominationDoesNotCountAgainstItself) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").NominatedNode("n1").Build());
  const Decision d = Decide("p");
  EXPECT_EQ(d.kind, Decision::Kind::kBind);
  EXPECT_EQ(NodeName(d.node), "n1");
}

TEST_F(EligibilityTest, NominatedNodeIsTriedFirst) {
  // Setup: n1 scores far better (emptier), but p is nominated to n2 where it fits.
  AddNode(NodeWithCpu("n1", "16").Build());
  AddNode(NodeWithCpu("n2", "2").Build());
  AddPod(MakePod("free").Priority(10).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").NominatedNode("n2").Build());
  EXPECT_EQ(NodeName(Decide("free").node), "n1");
  const Decision d = Decide("p");
  EXPECT_EQ(d.kind, Decision::Kind::kBind);
  EXPECT_EQ(NodeName(d.node), "n2");
}

TEST_F(EligibilityTest, PodLeavesAnInfeasibleNominatedNode) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddNode(NodeWithCpu("n2", "2").Build());
  AddPod(MakePod("blocker").Node("n2").Priority(100).Cpu("2").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").NominatedNode("n2").Build());
  const Decision d = Decide("p");
  EXPECT_EQ(d.kind, Decision::Kind::kBind);
  EXPECT_EQ(NodeName(d.node), "n1");
}

// ----------------------------------------------------------------------------------------------
// FitError texts (rule 13.1).

TEST_F(EligibilityTest, HistogramIsSortedAsStrings) {
  // Setup: 10 unschedulable nodes and 2 full of higher-priority pods. "10 ..." sorts before
  // "2 ..." as strings, whatever the reasons say.
  for (int i = 0; i < 10; ++i) AddNode(NodeWithCpu("cordoned-" + std::to_string(i), "4").Unschedulable().Build());
  for (int i = 0; i < 2; ++i) {
    const std::string node = "full-" + std::to_string(i);
    AddNode(NodeWithCpu(node, "1").Build());
    AddPod(MakePod("hi-" + std::to_string(i)).Node(node).Priority(100).Cpu("1").Build());
  }
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const Decision d = Decide("p");
  EXPECT_EQ(d.message,
            "0/12 nodes are available: 10 node(s) were unschedulable, 2 Insufficient cpu. "
            "preemption: 0/12 nodes are available: 10 Preemption is not helpful for scheduling, "
            "2 No preemption victims found for incoming pod.");
}

TEST_F(EligibilityTest, MixedReasonsAsInTheSpecExample) {
  AddNode(NodeWithCpu("n1", "1").Label("disk", "hdd").Build());
  AddNode(NodeWithCpu("n2", "1").Label("disk", "ssd").Build());
  AddNode(NodeWithCpu("n3", "1").Label("disk", "ssd").Build());
  AddPod(MakePod("h2").Node("n2").Priority(100).Cpu("1").Build());
  AddPod(MakePod("h3").Node("n3").Priority(100).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").NodeSelector("disk", "ssd").Build());
  EXPECT_EQ(Decide("p").message,
            "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 "
            "Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful "
            "for scheduling, 2 No preemption victims found for incoming pod.");
}

TEST_F(EligibilityTest, EveryReasonOfANodeIsCounted) {
  AddNode(kpsim::testing::MakeNode("n1").Cpu("1").Memory("1Gi").Pods(110).Build());
  AddPod(MakePod("hi").Node("n1").Priority(100).Cpu("1").Memory("1Gi").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Memory("1Gi").Build());
  EXPECT_EQ(Decide("p").message,
            "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory. preemption: 0/1 "
            "nodes are available: 1 No preemption victims found for incoming pod.");
}

TEST_F(EligibilityTest, SuccessfulPreemptionMessageNamesNodeAndVictimCount) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("a").Node("n1").Priority(1).Cpu("1").Build());
  AddPod(MakePod("b").Node("n1").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(d.message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement "
            "for pod on node n1, preempting 2 victims");
}

TEST_F(EligibilityTest, NoNodesAtAll) {
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const Decision d = Decide("p");
  EXPECT_EQ(d.kind, Decision::Kind::kFail);
  EXPECT_EQ(d.message, "no nodes available to schedule pods");
}


}  // namespace
}  // namespace kpsim::engine::test
