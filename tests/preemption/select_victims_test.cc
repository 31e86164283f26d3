// Unit tests for victim selection on one node (SelectVictimsOnNode, spec §8 and §9) through one
// scheduling cycle: strictly-lower-priority victims, the remove-all feasibility gate, the
// reprieve order and PodDisruptionBudget accounting. Every case runs on both engine paths.

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

using kpsim::testing::MakeNode;
using kpsim::testing::MakePdb;
using kpsim::testing::MakePod;
using Names = std::vector<std::string>;

class SelectVictimsTest : public EngineTest {};

// ----------------------------------------------------------------------------------------------
// Who may be a victim.

TEST_F(SelectVictimsTest, OnlyStrictlyLowerPriorityPodsAreVictims) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("equal").Node("n1").Priority(10).Cpu("1").Build());
  AddPod(MakePod("lower").Node("n1").Priority(9).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(NodeName(d.node), "n1");
  EXPECT_EQ(Victims(d), Names{"default/lower"});
}

TEST_F(SelectVictimsTest, EqualPriorityPodsNeverMakeRoom) {
  // Setup: removing the only lower-priority pod is not enough; the equal-priority one stays.
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("equal").Node("n1").Priority(10).Cpu("1").Build());
  AddPod(MakePod("lower").Node("n1").Priority(9).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  const Decision d = Decide("p");
  EXPECT_EQ(d.kind, Decision::Kind::kFail);
  EXPECT_EQ(d.message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 "
            "Insufficient cpu.");
  EXPECT_TRUE(d.clear_nomination);
}

TEST_F(SelectVictimsTest, NodeWithoutLowerPriorityPodsHasNoVictims) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("zero").Node("n1").Priority(0).Cpu("1").Build());
  AddPod(MakePod("p").Priority(0).Cpu("1").Build());
  const Decision d = Decide("p");
  EXPECT_EQ(d.kind, Decision::Kind::kFail);
  EXPECT_EQ(d.message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 "
            "No preemption victims found for incoming pod.");
}

TEST_F(SelectVictimsTest, VictimsOwnPreemptionPolicyNeverDoesNotProtectIt) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("never").Node("n1").Priority(1).PreemptionPolicy(PreemptionPolicy::kNever).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  EXPECT_EQ(Victims(Decide("p")), Names{"default/never"});
}

TEST_F(SelectVictimsTest, TerminatingLowerPriorityPodsAreVictimsToo) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(TerminatingByPreemption(MakePod("leaving").Node("n1").Priority(1).Cpu("1").Build()));
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  EXPECT_EQ(Victims(Decide("p")), Names{"default/leaving"});
}

// ----------------------------------------------------------------------------------------------
// The remove-all feasibility gate.

TEST_F(SelectVictimsTest, NodeWhereRemovingEveryLowerPodIsNotEnoughIsNoCandidate) {
  AddNode(NodeWithCpu("small", "2").Build());
  AddNode(NodeWithCpu("big", "4").Build());
  AddPod(MakePod("hi-small").Node("small").Priority(100).Cpu("1").Build());
  AddPod(MakePod("lo-small").Node("small").Priority(1).Cpu("1").Build());
  AddPod(MakePod("hi-big").Node("big").Priority(100).Cpu("1").Build());
  AddPod(MakePod("lo-big").Node("big").Priority(1).Cpu("3").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(NodeName(d.node), "big");
  EXPECT_EQ(Victims(d), Names{"default/lo-big"});
}

TEST_F(SelectVictimsTest, NodesRejectedAsUnresolvableAreNotPreemptionTargets) {
  AddNode(NodeWithCpu("n1", "1").Label("disk", "ssd").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddPod(MakePod("lo1").Node("n1").Priority(0).Cpu("1").Build());
  AddPod(MakePod("lo2").Node("n2").Priority(0).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").NodeSelector("disk", "ssd").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(NodeName(d.node), "n1");
  EXPECT_EQ(Victims(d), Names{"default/lo1"});
}

TEST_F(SelectVictimsTest, RequestAboveAllocatableIsNotHelpedByPreemption) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("lo").Node("n1").Priority(0).Cpu("2").Build());
  AddPod(MakePod("p").Priority(10).Cpu("3").Build());
  const Decision d = Decide("p");
  EXPECT_EQ(d.kind, Decision::Kind::kFail);
  EXPECT_EQ(d.message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 "
            "Preemption is not helpful for scheduling.");
}

TEST_F(SelectVictimsTest, PreemptionCanResolveAntiAffinityToALowerPriorityPod) {
  AddNode(NodeWithCpu("n1", "4").Label("kubernetes.io/hostname", "n1").Build());
  AddPod(MakePod("x").Node("n1").Priority(0).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("y").Node("n1").Priority(0).Label("app", "y").Cpu("1").Build());
  Pod p = MakePod("p").Priority(10).Cpu("1").Build();
  PodAffinityTerm term;
  term.label_selector = LabelSelector{{{"app", "x"}}, {}};
  term.topology_key = "kubernetes.io/hostname";
  p.spec.affinity.pod_anti_affinity_required.push_back(term);
  AddPod(p);
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(Victims(d), Names{"default/x"});
}

TEST_F(SelectVictimsTest, AffinityToTheVictimItselfMakesTheNodeNoCandidate) {
  // Setup: the pod needs the same host as x, but x must go to make room (rule 8.3).
  AddNode(NodeWithCpu("n1", "1").Label("kubernetes.io/hostname", "n1").Build());
  AddPod(MakePod("x").Node("n1").Priority(0).Label("app", "x").Cpu("1").Build());
  Pod p = MakePod("p").Priority(10).Cpu("1").Build();
  PodAffinityTerm term;
  term.label_selector = LabelSelector{{{"app", "x"}}, {}};
  term.topology_key = "kubernetes.io/hostname";
  p.spec.affinity.pod_affinity_required.push_back(term);
  AddPod(p);
  const Decision d = Decide("p");
  EXPECT_EQ(d.kind, Decision::Kind::kFail);
  EXPECT_EQ(d.message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 "
            "node(s) didn't match pod affinity rules.");
}

// ----------------------------------------------------------------------------------------------
// Reprieve order.

TEST_F(SelectVictimsTest, MostImportantVictimsAreReprievedFirst) {
  AddNode(NodeWithCpu("n1", "3").Build());
  AddPod(MakePod("p1").Node("n1").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p3").Node("n1").Priority(3).Cpu("1").Build());
  AddPod(MakePod("p2").Node("n1").Priority(2).Cpu("1").Build());
  AddPod(MakePod("one").Priority(10).Cpu("1").Build());
  AddPod(MakePod("two").Priority(10).Cpu("2").Build());
  EXPECT_EQ(Victims(Decide("one")), Names{"default/p1"});
  // Victims are listed most important first.
  EXPECT_EQ(Victims(Decide("two")), (Names{"default/p2", "default/p1"}));
}

TEST_F(SelectVictimsTest, ReprieveIsGreedyNotMinimal) {
  // Setup: evicting `big` alone would do, but `big` is reprieved first (most important), so
  // both small pods go. This is kube-scheduler's one-pass greedy reprieve.
  AddNode(NodeWithCpu("n1", "4").Build());
  AddPod(MakePod("big").Node("n1").Priority(3).Cpu("2").Build());
  AddPod(MakePod("s2").Node("n1").Priority(2).Cpu("1").Build());
  AddPod(MakePod("s1").Node("n1").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  EXPECT_EQ(Victims(Decide("p")), (Names{"default/s2", "default/s1"}));
}

TEST_F(SelectVictimsTest, EqualPriorityEarlierStartTimeIsMoreImportant) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("young").Node("n1").Priority(1).Cpu("1").StartTime(SecondsBeforeOrigin(10)).Build());
  AddPod(MakePod("old").Node("n1").Priority(1).Cpu("1").StartTime(SecondsBeforeOrigin(100)).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  EXPECT_EQ(Victims(Decide("p")), Names{"default/young"});
}

TEST_F(SelectVictimsTest, PriorityOutranksStartTime) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("old-low").Node("n1").Priority(1).Cpu("1").StartTime(SecondsBeforeOrigin(1000)).Build());
  AddPod(MakePod("new-high").Node("n1").Priority(2).Cpu("1").StartTime(SecondsBeforeOrigin(1)).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  EXPECT_EQ(Victims(Decide("p")), Names{"default/old-low"});
}

TEST_F(SelectVictimsTest, FullTieIsBrokenBySmallerUidBeingMoreImportant) {
  AddNode(NodeWithCpu("n1", "2").Build());
  const WallTime start = SecondsBeforeOrigin(50);
  AddPod(MakePod("a").Uid("uid-2").Node("n1").Priority(1).Cpu("1").StartTime(start).Build());
  AddPod(MakePod("b").Uid("uid-1").Node("n1").Priority(1).Cpu("1").StartTime(start).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  EXPECT_EQ(Victims(Decide("p")), Names{"default/a"});
}

TEST_F(SelectVictimsTest, PdbViolatingVictimsAreReprievedFirst) {
  // Setup: `guarded` is the least important pod but evicting it would break its PDB; it is
  // tried first and spared, so the next least important pod (`c`) goes instead.
  AddNode(NodeWithCpu("n1", "3").Build());
  AddPod(MakePod("guarded").Node("n1").Priority(1).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("b").Node("n1").Priority(8).Cpu("1").Build());
  AddPod(MakePod("c").Node("n1").Priority(6).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  EXPECT_EQ(Victims(Decide("p")), Names{"default/guarded"}) << "without the PDB";
  AddPdb(MakePdb("pdb").MinAvailable(1).Selector("app", "x").Build());
  const Decision d = Decide("p");
  EXPECT_EQ(Victims(d), Names{"default/c"});
  ASSERT_TRUE(d.candidate.has_value());
  EXPECT_EQ(d.candidate->pdb_violations, 0);
}

TEST_F(SelectVictimsTest, TraceShowsViolatingVictimsTriedBeforeTheRest) {
  AddNode(NodeWithCpu("n1", "3").Build());
  AddPod(MakePod("guarded").Node("n1").Priority(1).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("b").Node("n1").Priority(8).Cpu("1").Build());
  AddPod(MakePod("c").Node("n1").Priority(6).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  AddPdb(MakePdb("pdb").MinAvailable(1).Selector("app", "x").Build());
  const ExplainResult r = Trace("p");
  ASSERT_EQ(r.candidates.size(), 1u);
  const CandidateOutcome& c = r.candidates[0];
  ASSERT_EQ(c.steps.size(), 3u);
  EXPECT_EQ(c.steps[0].pod, "default/guarded");
  EXPECT_TRUE(c.steps[0].pdb_violating);
  EXPECT_TRUE(c.steps[0].reprieved);
  EXPECT_EQ(c.steps[1].pod, "default/b");
  EXPECT_TRUE(c.steps[1].reprieved);
  EXPECT_EQ(c.steps[2].pod, "default/c");
  EXPECT_FALSE(c.steps[2].reprieved);
  EXPECT_EQ(c.steps[2].why, "with it back: Insufficient cpu");
  EXPECT_EQ(c.steps[2].free_after.milli_cpu, 1000);
  EXPECT_EQ(c.free_after_removal.milli_cpu, 3000);
  EXPECT_EQ(c.reprieved, (Names{"default/guarded", "default/b"}));
  EXPECT_EQ(c.victims, Names{"default/c"});
}

TEST_F(SelectVictimsTest, UnreprievedViolatingVictimCountsAsAPdbViolation) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("guarded").Node("n1").Priority(1).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  AddPdb(MakePdb("pdb").MinAvailable(1).Selector("app", "x").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(ViolatingVictims(d), Names{"default/guarded"});
  EXPECT_EQ(d.candidate->pdb_violations, 1);
}

// ----------------------------------------------------------------------------------------------
// PDB budgets (rule 8.7).

TEST_F(SelectVictimsTest, BudgetIsConsumedInImportanceOrderSoTheLeastImportantViolates) {
  // Setup: both pods must go; the budget allows one disruption.
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("lo").Node("n1").Priority(3).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("hi").Node("n1").Priority(7).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  AddPdb(MakePdb("pdb").DisruptionsAllowed(1).MinAvailable(1).Selector("app", "x").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  // Violating and non-violating victims both exist, so the list is re-sorted by importance.
  EXPECT_EQ(Victims(d), (Names{"default/hi", "default/lo"}));
  EXPECT_EQ(ViolatingVictims(d), Names{"default/lo"});
  EXPECT_EQ(d.candidate->pdb_violations, 1);
}

TEST_F(SelectVictimsTest, PodsAlreadyInDisruptedPodsConsumeNoBudget) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("lo").Node("n1").Priority(3).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("hi").Node("n1").Priority(7).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  PodDisruptionBudget pdb = MakePdb("pdb").DisruptionsAllowed(0).MinAvailable(2).Selector("app", "x").Build();
  pdb.disrupted_pods = {"lo"};
  AddPdb(pdb);
  const Decision d = Decide("p");
  EXPECT_EQ(ViolatingVictims(d), Names{"default/hi"});
  EXPECT_EQ(d.candidate->pdb_violations, 1);
}

TEST_F(SelectVictimsTest, EmptyPdbSelectorMatchesNothing) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("lo").Node("n1").Priority(1).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  PodDisruptionBudget empty = MakePdb("empty").DisruptionsAllowed(0).MinAvailable(5).Build();
  empty.selector = LabelSelector{};
  AddPdb(empty);
  AddPdb(MakePdb("unset").DisruptionsAllowed(0).MinAvailable(5).Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_TRUE(ViolatingVictims(d).empty());
}

TEST_F(SelectVictimsTest, PodsWithoutLabelsAreNeverCountedByAPdb) {
  // Setup: `app NotIn [zzz]` would select an unlabelled pod, but pods without labels are skipped.
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("bare").Node("n1").Priority(1).Cpu("1").Build());
  AddPod(MakePod("labelled").Node("n1").Priority(2).Label("other", "1").Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  PodDisruptionBudget pdb = MakePdb("pdb").DisruptionsAllowed(0).MinAvailable(5).Build();
  pdb.selector = LabelSelector{{}, {LabelSelectorRequirement{"app", SelectorOperator::kNotIn, {"zzz"}}}};
  AddPdb(pdb);
  const Decision d = Decide("p");
  EXPECT_EQ(ViolatingVictims(d), Names{"default/labelled"});
}

TEST_F(SelectVictimsTest, PdbInAnotherNamespaceDoesNotProtect) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("lo").Node("n1").Priority(1).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  AddPdb(MakePdb("pdb").Namespace("elsewhere").DisruptionsAllowed(0).MinAvailable(1).Selector("app", "x").Build());
  EXPECT_TRUE(ViolatingVictims(Decide("p")).empty());
}

TEST_F(SelectVictimsTest, PdbWithBudgetLeftIsNotViolated) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "4").Build());
  AddPod(MakePod("lo").Node("n1").Priority(1).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("peer1").Node("n2").Priority(100).Label("app", "x").Cpu("2").Build());
  AddPod(MakePod("peer2").Node("n2").Priority(100).Label("app", "x").Cpu("2").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  // Three healthy pods, minAvailable 2: one disruption allowed.
  AddPdb(MakePdb("pdb").MinAvailable(2).Selector("app", "x").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(Victims(d), Names{"default/lo"});
  EXPECT_TRUE(ViolatingVictims(d).empty());
}


}  // namespace
}  // namespace kpsim::engine::test
