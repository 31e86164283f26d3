// Unit tests for choosing the node among preemption candidates (pickOneNodeForPreemption, spec
// §11): each tie-breaker in order, set up so that the criteria after it would choose the other
// node, and the deterministic final tie-break by node order (zones round-robin).

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/explain.h"
#include "scheduler/framework.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using kpsim::testing::MakePdb;
using kpsim::testing::MakePod;
using Names = std::vector<std::string>;

class CandidateSelectionTest : public EngineTest {
 protected:
  // Expect: the simulator's cycle preempts on `node`, and explain agrees and names `decided_by`.
  void ExpectChosen(const std::string& node, const std::string& decided_by) {
    const Decision d = Decide("p");
    ASSERT_EQ(d.kind, Decision::Kind::kPreempt) << d.message;
    EXPECT_EQ(NodeName(d.node), node);
    const ExplainResult r = Trace("p");
    ASSERT_TRUE(r.chosen.has_value());
    EXPECT_EQ(r.chosen->node, node);
    EXPECT_EQ(r.chosen->decided_by, decided_by);
  }
};

TEST_F(CandidateSelectionTest, SingleCandidateIsTakenWithoutScoring) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddNode(NodeWithCpu("b", "1").Build());
  AddPod(MakePod("va").Node("a").Priority(100).Cpu("1").Build());
  AddPod(MakePod("vb").Node("b").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  ExpectChosen("b", "only candidate");
}

TEST_F(CandidateSelectionTest, FewestPdbViolationsComesFirst) {
  // Setup: a's victim has the lower priority (criterion 2 prefers a) but is PDB-protected.
  AddNode(NodeWithCpu("a", "1").Build());
  AddNode(NodeWithCpu("b", "1").Build());
  AddPod(MakePod("va").Node("a").Priority(1).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("vb").Node("b").Priority(5).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  AddPdb(MakePdb("pdb").MinAvailable(1).Selector("app", "x").Build());
  ExpectChosen("b", "fewest PDB violations");
}

TEST_F(CandidateSelectionTest, LowestHighestVictimPriorityBeatsFewerVictims) {
  AddNode(NodeWithCpu("a", "2").Build());
  AddNode(NodeWithCpu("b", "2").Build());
  AddPod(MakePod("va").Node("a").Priority(5).Cpu("2").Build());
  AddPod(MakePod("vb1").Node("b").Priority(3).Cpu("1").Build());
  AddPod(MakePod("vb2").Node("b").Priority(3).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  ExpectChosen("b", "lowest highest-victim priority");
}

TEST_F(CandidateSelectionTest, PrioritySumIsShiftedSoNegativeVictimsStillCount) {
  // Setup: a's victims {0, -100} sum to less than b's {0} unshifted; with each term shifted by
  // 2^31 a's sum is larger, so b wins on criterion 3.
  AddNode(NodeWithCpu("a", "2").Build());
  AddNode(NodeWithCpu("b", "2").Build());
  AddPod(MakePod("va0").Node("a").Priority(0).Cpu("1").Build());
  AddPod(MakePod("va-neg").Node("a").Priority(-100).Cpu("1").Build());
  AddPod(MakePod("vb0").Node("b").Priority(0).Cpu("2").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  ExpectChosen("b", "smallest sum of victim priorities");
}

TEST_F(CandidateSelectionTest, PrioritySumPrefersLowerPrioritiesAtEqualCount) {
  AddNode(NodeWithCpu("a", "2").Build());
  AddNode(NodeWithCpu("b", "2").Build());
  AddPod(MakePod("va5").Node("a").Priority(5).Cpu("1").Build());
  AddPod(MakePod("va4").Node("a").Priority(4).Cpu("1").Build());
  AddPod(MakePod("vb5").Node("b").Priority(5).Cpu("1").Build());
  AddPod(MakePod("vb1").Node("b").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  ExpectChosen("b", "smallest sum of victim priorities");
}

TEST_F(CandidateSelectionTest, FewestVictimsDecidesWhenShiftedSumsTie) {
  // Setup: with the shift, {0, INT32_MIN} and {0} have equal sums (2^31 each); the count decides.
  AddNode(NodeWithCpu("a", "2").Build());
  AddNode(NodeWithCpu("b", "2").Build());
  AddPod(MakePod("va0").Node("a").Priority(0).Cpu("1").Build());
  AddPod(MakePod("va-min").Node("a").Priority(std::numeric_limits<std::int32_t>::min()).Cpu("1").Build());
  AddPod(MakePod("vb0").Node("b").Priority(0).Cpu("2").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  ExpectChosen("b", "fewest victims");
}

TEST_F(CandidateSelectionTest, LatestStartOfTheHighestPriorityVictimsWins) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddNode(NodeWithCpu("b", "1").Build());
  AddPod(MakePod("va").Node("a").Priority(3).Cpu("1").StartTime(SecondsBeforeOrigin(100)).Build());
  AddPod(MakePod("vb").Node("b").Priority(3).Cpu("1").StartTime(SecondsBeforeOrigin(10)).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  ExpectChosen("b", "latest start time of the highest-priority victims");
}

TEST_F(CandidateSelectionTest, StartTimesOfLowerPriorityVictimsAreIgnored) {
  // Setup: a's top victim started 20 s ago, b's 10 s ago; b's other victim is very old. Only
  // the highest-priority victims' start times count, so b (latest) wins.
  AddNode(NodeWithCpu("a", "2").Build());
  AddNode(NodeWithCpu("b", "2").Build());
  AddPod(MakePod("va5").Node("a").Priority(5).Cpu("1").StartTime(SecondsBeforeOrigin(20)).Build());
  AddPod(MakePod("va1").Node("a").Priority(1).Cpu("1").StartTime(SecondsBeforeOrigin(1)).Build());
  AddPod(MakePod("vb5").Node("b").Priority(5).Cpu("1").StartTime(SecondsBeforeOrigin(10)).Build());
  AddPod(MakePod("vb1").Node("b").Priority(1).Cpu("1").StartTime(SecondsBeforeOrigin(1000)).Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  ExpectChosen("b", "latest start time of the highest-priority victims");
}

TEST_F(CandidateSelectionTest, VictimWithoutStartTimeCountsAsStartingNow) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddNode(NodeWithCpu("b", "1").Build());
  AddPod(MakePod("va").Node("a").Priority(3).Cpu("1").StartTime(SecondsBeforeOrigin(5)).Build());
  AddPod(MakePod("vb").Node("b").Priority(3).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  ExpectChosen("b", "latest start time of the highest-priority victims");
}

TEST_F(CandidateSelectionTest, FullTieGoesToTheFirstNodeInZoneRoundRobinOrder) {
  // Setup: node order is z1-a, z2-a, z1-b (one node per zone in turn); z1-a has no candidate.
  // Input order would pick z1-b; node order picks z2-a.
  const WallTime start = SecondsBeforeOrigin(60);
  AddNode(NodeWithCpu("z1-a", "1").Label("topology.kubernetes.io/zone", "z1").Build());
  AddNode(NodeWithCpu("z1-b", "1").Label("topology.kubernetes.io/zone", "z1").Build());
  AddNode(NodeWithCpu("z2-a", "1").Label("topology.kubernetes.io/zone", "z2").Build());
  AddPod(MakePod("v-z1-a").Node("z1-a").Priority(100).Cpu("1").StartTime(start).Build());
  AddPod(MakePod("v-z1-b").Node("z1-b").Priority(3).Cpu("1").StartTime(start).Build());
  AddPod(MakePod("v-z2-a").Node("z2-a").Priority(3).Cpu("1").StartTime(start).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  ExpectChosen("z2-a", "first in node order (all tie-breakers equal)");
}

TEST_F(CandidateSelectionTest, ExplainListsEveryPotentialNodeInNodeOrder) {
  AddNode(NodeWithCpu("z1-a", "1").Label("topology.kubernetes.io/zone", "z1").Build());
  AddNode(NodeWithCpu("z1-b", "1").Label("topology.kubernetes.io/zone", "z1").Build());
  AddNode(NodeWithCpu("z2-a", "1").Label("topology.kubernetes.io/zone", "z2").Build());
  AddPod(MakePod("v1").Node("z1-a").Priority(100).Cpu("1").Build());
  AddPod(MakePod("v2").Node("z1-b").Priority(3).Cpu("1").Build());
  AddPod(MakePod("v3").Node("z2-a").Priority(4).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const ExplainResult r = Trace("p");
  ASSERT_EQ(r.candidates.size(), 3u);
  EXPECT_EQ(r.candidates[0].node, "z1-a");
  EXPECT_TRUE(r.candidates[0].victims.empty());
  EXPECT_EQ(r.candidates[1].node, "z2-a");
  EXPECT_EQ(r.candidates[1].victims, Names{"default/v3"});
  EXPECT_EQ(r.candidates[1].highest_victim_priority, 4);
  EXPECT_EQ(r.candidates[2].node, "z1-b");
  ASSERT_TRUE(r.chosen.has_value());
  EXPECT_EQ(r.chosen->node, "z1-b");
  EXPECT_EQ(r.chosen->victims, Names{"default/v2"});
}


}  // namespace
}  // namespace kpsim::engine::test
