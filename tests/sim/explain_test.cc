// Unit tests for the default profile's `Explain`: one pod's attempt against the state at time 0,
// changing nothing, with per-node filter verdicts, the dry run of each potential node, and the
// tie-breaker that chose the node.

#include <gtest/gtest.h>

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
  EXPECT_EQ(r.error().message, "pod default/nope not found in the input");
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

}  // namespace
}  // namespace kpsim::engine::test
