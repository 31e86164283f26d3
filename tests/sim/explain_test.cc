// Unit tests for the default profile's `Explain`: one attempt of the run simulate makes,
// changing nothing, with per-node filter verdicts, the dry run of each potential node, and the
// tie-breaker that chose the node.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using kpsim::testing::MakePdb;
using kpsim::testing::MakePod;
using Names = std::vector<std::string>;

class ExplainTest : public ::testing::Test, public CycleHarness {
 protected:
  // Setup: a (1 cpu) runs a-lo (priority 1); b (1 cpu) runs b-lo (priority 2); c is tainted;
  // `p` (priority 10, 1 cpu) is pending.
  void ThreeNodes() {
    AddNode(NodeWithCpu("a", "1").Build());
    AddNode(NodeWithCpu("b", "1").Build());
    AddNode(NodeWithCpu("c", "1").Taint("k", "v", TaintEffect::kNoSchedule).Build());
    AddPod(MakePod("a-lo").Node("a").Priority(1).Cpu("1").Build());
    AddPod(MakePod("b-lo").Node("b").Priority(2).Cpu("1").Build());
    AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  }
  ExplainResult Explain(std::string_view pod) {
    auto r = kpsim::Explain(state, options, pod);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : ExplainResult{};
  }
};

TEST_F(ExplainTest, ReportsEveryNodesFilterVerdict) {
  ThreeNodes();
  const ExplainResult r = Explain("p");
  EXPECT_EQ(r.pod, "default/p");
  EXPECT_EQ(r.priority, 10);
  ASSERT_EQ(r.filter.size(), 3u);
  EXPECT_EQ(r.filter[0].node, "a");
  EXPECT_FALSE(r.filter[0].fits);
  EXPECT_EQ(r.filter[0].code, "Unschedulable");
  EXPECT_EQ(r.filter[0].reasons, Names{"Insufficient cpu"});
  EXPECT_EQ(r.filter[2].node, "c");
  EXPECT_EQ(r.filter[2].code, "UnschedulableAndUnresolvable");
  EXPECT_EQ(r.filter[2].reasons, Names{"node(s) had untolerated taint {k: v}"});
}

TEST_F(ExplainTest, ReportsCandidatesAndTheDecidingTieBreaker) {
  ThreeNodes();
  const ExplainResult r = Explain("p");
  EXPECT_TRUE(r.eligible);
  ASSERT_EQ(r.candidates.size(), 2u) << "only Unschedulable nodes are dry-run";
  EXPECT_EQ(r.candidates[0].node, "a");
  EXPECT_EQ(r.candidates[0].victims, Names{"default/a-lo"});
  EXPECT_EQ(r.candidates[0].pdb_violations, 0);
  EXPECT_EQ(r.candidates[1].node, "b");
  ASSERT_TRUE(r.chosen.has_value());
  EXPECT_EQ(r.chosen->node, "a");
  EXPECT_EQ(r.chosen->victims, Names{"default/a-lo"});
  EXPECT_EQ(r.chosen->decided_by, "lowest highest-victim priority");
  EXPECT_EQ(r.message,
            "0/3 nodes are available: 1 node(s) had untolerated taint {k: v}, 2 Insufficient cpu. "
            "preemption: found a potential placement for pod on node a, preempting 1 victims");
  EXPECT_FALSE(r.fits_node.has_value());
}

TEST_F(ExplainTest, MessageIsTheOneTheSimulationLogs) {
  ThreeNodes();
  const ExplainResult r = Explain("p");
  const SimulationResult sim = kpsim::Simulate(state, options);
  std::string logged;
  for (const SimEvent& e : sim.events) {
    if (e.reason == EventReason::kFailedScheduling && e.pod == "default/p") {
      logged = e.message;
      break;
    }
  }
  EXPECT_EQ(r.message, logged);
}

TEST_F(ExplainTest, ReportsWhyANodeIsNoCandidate) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddPod(MakePod("hi").Node("a").Priority(100).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const ExplainResult r = Explain("p");
  ASSERT_EQ(r.candidates.size(), 1u);
  EXPECT_TRUE(r.candidates[0].victims.empty());
  ASSERT_EQ(r.candidates[0].steps.size(), 1u);
  EXPECT_EQ(r.candidates[0].steps[0].why,
            "not a candidate: No preemption victims found for incoming pod");
  EXPECT_FALSE(r.chosen.has_value());
}

TEST_F(ExplainTest, PodThatFitsNamesItsNode) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddNode(NodeWithCpu("b", "4").Build());
  AddPod(MakePod("a-full").Node("a").Priority(100).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const ExplainResult r = Explain("p");
  ASSERT_TRUE(r.fits_node.has_value());
  EXPECT_EQ(*r.fits_node, "b");
  EXPECT_EQ(r.message, "the pod fits without preemption; kube-scheduler would bind it to b");
  EXPECT_TRUE(r.candidates.empty());
  EXPECT_FALSE(r.chosen.has_value());
}

TEST_F(ExplainTest, NeverPolicyIsReportedAsNotEligible) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddPod(MakePod("lo").Node("a").Priority(0).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).PreemptionPolicy(PreemptionPolicy::kNever).Cpu("1").Build());
  const ExplainResult r = Explain("p");
  EXPECT_FALSE(r.eligible);
  EXPECT_EQ(r.eligibility_message, "not eligible due to preemptionPolicy=Never.");
  EXPECT_EQ(r.message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to "
            "preemptionPolicy=Never.");
}

TEST_F(ExplainTest, PdbViolationsAreReportedPerCandidate) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddNode(NodeWithCpu("b", "1").Build());
  AddPod(MakePod("a-lo").Node("a").Priority(1).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("b-lo").Node("b").Priority(5).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  AddPdb(MakePdb("pdb").MinAvailable(1).Selector("app", "x").Build());
  const ExplainResult r = Explain("p");
  ASSERT_EQ(r.candidates.size(), 2u);
  EXPECT_EQ(r.candidates[0].pdb_violations, 1);
  ASSERT_EQ(r.candidates[0].steps.size(), 1u);
  EXPECT_TRUE(r.candidates[0].steps[0].pdb_violating);
  EXPECT_EQ(r.candidates[1].pdb_violations, 0);
  ASSERT_TRUE(r.chosen.has_value());
  EXPECT_EQ(r.chosen->node, "b");
  EXPECT_EQ(r.chosen->decided_by, "fewest PDB violations");
}

TEST_F(ExplainTest, ChangesNothing) {
  ThreeNodes();
  const ClusterState before = state;
  const SimulationResult sim_before = kpsim::Simulate(state, options);
  (void)Explain("p");
  (void)Explain("default/p");
  EXPECT_EQ(state.pods, before.pods);
  EXPECT_EQ(state.nodes, before.nodes);
  const SimulationResult sim_after = kpsim::Simulate(state, options);
  ASSERT_EQ(sim_after.events.size(), sim_before.events.size());
  for (std::size_t i = 0; i < sim_after.events.size(); ++i) {
    EXPECT_EQ(sim_after.events[i].pod, sim_before.events[i].pod) << i;
    EXPECT_EQ(sim_after.events[i].reason, sim_before.events[i].reason) << i;
    EXPECT_EQ(sim_after.events[i].message, sim_before.events[i].message) << i;
    EXPECT_EQ(sim_after.events[i].time, sim_before.events[i].time) << i;
  }
}

TEST_F(ExplainTest, UnknownPodIsNotFound) {
  ThreeNodes();
  auto r = kpsim::Explain(state, options, "default/nope");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(r.error().message, "pod default/nope not found in the input, nor created during the run");
}

TEST_F(ExplainTest, RunningPodCannotBeExplained) {
  ThreeNodes();
  auto r = kpsim::Explain(state, options, "a-lo");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kFailedPrecondition);
}

TEST_F(ExplainTest, ExplainNeedsNoCachesAndAgreesWithoutThem) {
  ThreeNodes();
  const ExplainResult with = Explain("p");
  options.disable_caches = true;
  const ExplainResult without = Explain("p");
  EXPECT_EQ(with.message, without.message);
  ASSERT_TRUE(without.chosen.has_value());
  EXPECT_EQ(with.chosen->node, without.chosen->node);
  EXPECT_EQ(with.chosen->decided_by, without.chosen->decided_by);
}

// The two decisions explain used to make on its own: a pending pod with status.nominatedNodeName
// is tried on that node first, as simulate binds it; and another scheduler's pod has no attempt.
TEST_F(ExplainTest, NominatedPodIsExplainedOntoTheNodeSimulateBindsItTo) {
  AddNode(NodeWithCpu("n1", "4").Build());
  AddNode(NodeWithCpu("n2", "4").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").NominatedNode("n2").Build());
  const SimulationResult sim = kpsim::Simulate(state, options);
  ASSERT_EQ(sim.pods.size(), 1u);
  EXPECT_EQ(sim.pods[0].node, "n2");
  const ExplainResult r = Explain("p");
  ASSERT_TRUE(r.fits_node.has_value());
  EXPECT_EQ(*r.fits_node, "n2");
  EXPECT_EQ(r.round, 1);
  EXPECT_EQ(r.message,
            "the pod fits on its nominated node n2, which is tried first; kube-scheduler binds it there");
}

TEST_F(ExplainTest, AnotherSchedulersPodHasNoAttempt) {
  AddNode(NodeWithCpu("n1", "4").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").SchedulerName("my-scheduler").Build());
  auto r = kpsim::Explain(state, options, "p");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_EQ(r.error().message,
            "pod default/p makes no scheduling attempt in the run: schedulerName my-scheduler is "
            "not served by this profile");
}

// A replacement the run creates (here for a preempted ReplicaSet pod) can be explained under the
// name simulate gives it, and its attempt is the one simulate logs.
TEST_F(ExplainTest, ReplacementCreatedDuringTheRunCanBeExplained) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddPod(MakePod("web-1").Node("a").Priority(1).Cpu("1").Owner("ReplicaSet", "web").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const SimulationResult sim = kpsim::Simulate(state, options);
  std::string replacement;
  for (const PodOutcome& pod : sim.pods) {
    if (pod.replacement_of == "default/web-1") replacement = pod.pod;
  }
  ASSERT_FALSE(replacement.empty());
  const ExplainResult r = Explain(replacement);
  EXPECT_EQ(r.pod, replacement);
  EXPECT_GT(r.round, 1) << "after the preemptor's round";
  bool logged = false;
  for (const SimEvent& e : sim.events) {
    if (e.pod == replacement && e.reason == EventReason::kFailedScheduling) {
      logged = true;
      EXPECT_EQ(e.round, r.round);
      EXPECT_EQ(e.message, r.message);
    }
  }
  EXPECT_TRUE(logged);
  ASSERT_EQ(r.filter.size(), 1u);
  EXPECT_FALSE(r.filter[0].fits);
}

// `--attempt N` picks the attempt of round N; `--at T` the first attempt at or after T. Here p
// preempts v (grace period 30 s) in round 1 and binds once v is gone.
TEST_F(ExplainTest, AttemptAndAtPickALaterAttempt) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddPod(MakePod("v").Node("a").Priority(1).Cpu("1").GracePeriod(30).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const SimulationResult sim = kpsim::Simulate(state, options);
  std::int64_t bound_round = 0;
  for (const SimEvent& e : sim.events) {
    if (e.pod == "default/p" && e.reason == EventReason::kScheduled) bound_round = e.round;
  }
  ASSERT_GT(bound_round, 1);
  const ExplainResult first = Explain("p");
  EXPECT_EQ(first.round, 1);
  ASSERT_TRUE(first.chosen.has_value());
  EXPECT_EQ(first.chosen->victims, Names{"default/v"});

  ExplainQuery query;
  query.pod = "p";
  query.round = bound_round;
  auto later = kpsim::Explain(state, options, query);
  ASSERT_TRUE(later.ok()) << later.error().message;
  ASSERT_TRUE(later->fits_node.has_value());
  EXPECT_EQ(*later->fits_node, "a");
  EXPECT_EQ(later->time, SimTime{std::chrono::seconds(30)});

  query.round.reset();
  query.at = SimDuration{std::chrono::seconds(10)};
  auto at = kpsim::Explain(state, options, query);
  ASSERT_TRUE(at.ok()) << at.error().message;
  EXPECT_EQ(at->round, bound_round);

  query.at = SimDuration{std::chrono::seconds(31)};
  auto none = kpsim::Explain(state, options, query);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message,
            "pod default/p has no attempt at or after 31s (its attempts: round 1 at 0s, round " +
                std::to_string(bound_round) + " at 30s)");
}

TEST_F(ExplainTest, AttemptOfAnotherPodIsRefusedWithItsOwner) {
  ThreeNodes();
  AddPod(MakePod("q").Priority(20).Cpu("1").Build());  // attempted first (higher priority)
  ExplainQuery query;
  query.pod = "p";
  query.round = 1;
  auto r = kpsim::Explain(state, options, query);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_EQ(r.error().message,
            "pod default/p has no attempt in round 1 (round 1 is the attempt of pod default/q)");
}

// The chapter's minimise scene: the reprieve stops big alone; the naive order (the least
// important pod first until the pod fits) would stop all three, which a real filter dry run of
// each removal decides.
TEST_F(ExplainTest, CandidateCarriesCapacityAndTheNaiveOrder) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddPod(MakePod("keep").Node("a").Priority(500).Cpu("100m").Build());
  AddPod(MakePod("small-a").Node("a").Priority(10).Cpu("100m").Build());
  AddPod(MakePod("small-b").Node("a").Priority(10).Cpu("100m").Build());
  AddPod(MakePod("big").Node("a").Priority(20).Cpu("600m").Build());
  AddPod(MakePod("api").Priority(100).Cpu("600m").Build());
  const ExplainResult r = Explain("api");
  EXPECT_EQ(r.requests.milli_cpu, 600);
  ASSERT_EQ(r.candidates.size(), 1u);
  const CandidateOutcome& c = r.candidates[0];
  EXPECT_EQ(c.victims, Names{"default/big"});
  EXPECT_EQ(c.allocatable.milli_cpu, 1000);
  ASSERT_EQ(c.staying.size(), 1u) << "the pod at or above the preemptor's priority";
  EXPECT_EQ(c.staying[0].pod, "default/keep");
  EXPECT_EQ(c.staying[0].priority, 500);
  EXPECT_EQ(c.staying[0].requests.milli_cpu, 100);
  ASSERT_EQ(c.steps.size(), 3u);
  EXPECT_EQ(c.steps[0].pod, "default/big");
  EXPECT_EQ(c.steps[0].requests.milli_cpu, 600);
  EXPECT_EQ(c.steps[1].requests.milli_cpu, 100);
  ASSERT_EQ(c.naive_victims.size(), 3u);
  EXPECT_EQ(c.naive_victims.back(), "default/big") << "the most important victim comes last";
}

TEST_F(ExplainTest, NaiveOrderStopsAsSoonAsThePodFits) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddPod(MakePod("lo").Node("a").Priority(1).Cpu("500m").Build());
  AddPod(MakePod("mid").Node("a").Priority(5).Cpu("500m").Build());
  AddPod(MakePod("p").Priority(10).Cpu("400m").Build());
  const ExplainResult r = Explain("p");
  ASSERT_EQ(r.candidates.size(), 1u);
  EXPECT_EQ(r.candidates[0].naive_victims, Names{"default/lo"});
  EXPECT_EQ(r.candidates[0].victims, Names{"default/lo"});
}

// The filter chain's order and, per node, the plugin that rejected the pod.
TEST_F(ExplainTest, FilterNamesTheRejectingPlugin) {
  ThreeNodes();
  const ExplainResult r = Explain("p");
  ASSERT_FALSE(r.filter_plugins.empty());
  EXPECT_EQ(r.filter_plugins.front(), "NodeUnschedulable");
  const auto pos = [&](const std::string& name) {
    return std::find(r.filter_plugins.begin(), r.filter_plugins.end(), name) - r.filter_plugins.begin();
  };
  EXPECT_LT(pos("TaintToleration"), pos("NodeResourcesFit"));
  EXPECT_LT(pos("NodeResourcesFit"), static_cast<std::ptrdiff_t>(r.filter_plugins.size()));
  EXPECT_EQ(r.filter[0].plugin, "NodeResourcesFit");
  EXPECT_EQ(r.filter[2].plugin, "TaintToleration");
}

// A pod that fits on several nodes: the score table of the cycle, whose highest total is the
// node the pod is bound to, and whose totals are the weighted sums of the plugins' scores.
TEST_F(ExplainTest, ScoreTableOfABindRanksTheChosenNodeFirst) {
  AddNode(NodeWithCpu("a", "4").Build());
  AddNode(NodeWithCpu("b", "4").Build());
  AddPod(MakePod("busy").Node("a").Cpu("3").Build());
  AddPod(MakePod("p").Cpu("1").Build());
  const ExplainResult r = Explain("p");
  ASSERT_TRUE(r.fits_node.has_value());
  EXPECT_EQ(*r.fits_node, "b");
  ASSERT_EQ(r.scores.size(), 2u);
  ASSERT_FALSE(r.score_plugins.empty());
  std::int64_t best = -1;
  std::string best_node;
  for (const NodeScore& n : r.scores) {
    ASSERT_EQ(n.plugins.size(), r.score_plugins.size());
    std::int64_t sum = 0;
    for (const PluginScore& p : n.plugins) {
      EXPECT_GE(p.score, 0);
      EXPECT_LE(p.score, 100);
      sum += p.score * p.weight;
    }
    EXPECT_EQ(sum, n.total);
    if (n.total > best) {
      best = n.total;
      best_node = n.node;
    }
  }
  EXPECT_EQ(best_node, "b");
}

// One feasible node or the nominated node: kube-scheduler scores nothing, nor does explain.
TEST_F(ExplainTest, NoScoreTableWithOneFeasibleNode) {
  AddNode(NodeWithCpu("a", "4").Build());
  AddPod(MakePod("p").Cpu("1").Build());
  const ExplainResult r = Explain("p");
  ASSERT_TRUE(r.fits_node.has_value());
  EXPECT_TRUE(r.scores.empty());
}

}  // namespace
}  // namespace kpsim::engine::test
