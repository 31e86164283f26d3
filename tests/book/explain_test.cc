// `book::Explain`: the chapter's "remove all, then put back" table and the tie-breaker that chose.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "book/book.h"
#include "book/book_builders.h"
#include "kpsim/engine_options.h"
#include "kpsim/explain.h"

namespace kpsim::book {
namespace {

using ::testing::ElementsAre;
using testing::Int;
using testing::MakeNode;
using testing::MakePdb;
using testing::MakePod;

EngineOptions BookOptions() {
  EngineOptions options;
  options.profile = Profile::kBook;
  options.origin = WallTime{};
  return options;
}

ClusterState MinimizeScene() {
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  state.pods.push_back(MakePod("small-a").Priority(10).MilliCpu(100).Node("node-a").Build());
  state.pods.push_back(MakePod("small-b").Priority(10).MilliCpu(100).Node("node-a").Build());
  state.pods.push_back(MakePod("big").Priority(20).MilliCpu(600).Node("node-a").Build());
  state.pods.push_back(MakePod("api").Priority(100).MilliCpu(700).Build());
  return state;
}

TEST(BookExplainTest, MinimizeShowsTheChaptersPutBackTable) {
  // Expect the chapter's right-hand column: remove all -> 1000; big back -> 400, victim;
  // small-a back -> 900, spared; small-b back -> 800, spared.
  auto explain = book::Explain(MinimizeScene(), BookOptions(), "api");
  ASSERT_TRUE(explain.ok());
  EXPECT_EQ(explain->pod, "default/api");
  EXPECT_EQ(explain->priority, 100);
  EXPECT_TRUE(explain->eligible);
  ASSERT_EQ(explain->filter.size(), 1u);
  EXPECT_FALSE(explain->filter[0].fits);
  EXPECT_EQ(explain->filter[0].code, "Unschedulable");
  EXPECT_THAT(explain->filter[0].reasons, ElementsAre("Insufficient cpu"));
  ASSERT_EQ(explain->candidates.size(), 1u);
  const CandidateOutcome& cand = explain->candidates[0];
  EXPECT_EQ(cand.node, "node-a");
  EXPECT_EQ(cand.free_after_removal.milli_cpu, 1000);
  EXPECT_THAT(cand.victims, ElementsAre("default/big"));
  EXPECT_THAT(cand.reprieved, ElementsAre("default/small-a", "default/small-b"));
  EXPECT_EQ(cand.highest_victim_priority, 20);
  EXPECT_EQ(cand.pdb_violations, 0);
  ASSERT_EQ(cand.steps.size(), 3u);
  EXPECT_EQ(cand.steps[0].pod, "default/big");
  EXPECT_FALSE(cand.steps[0].reprieved);
  EXPECT_EQ(cand.steps[0].why, "Insufficient cpu with it back");
  EXPECT_EQ(cand.steps[0].free_after.milli_cpu, 1000);
  EXPECT_EQ(cand.steps[1].pod, "default/small-a");
  EXPECT_TRUE(cand.steps[1].reprieved);
  EXPECT_EQ(cand.steps[1].why, "fits with it back");
  EXPECT_EQ(cand.steps[1].free_after.milli_cpu, 900);
  EXPECT_EQ(cand.steps[2].free_after.milli_cpu, 800);
  ASSERT_TRUE(explain->chosen.has_value());
  EXPECT_EQ(explain->chosen->node, "node-a");
  EXPECT_EQ(explain->chosen->decided_by, "only candidate");
  EXPECT_EQ(explain->message,
            "api (priority 100) would preempt big (priority 20) from node-a (decided by only "
            "candidate)");
}

// The chapter's contrast: "remove the lowest first until it fits" stops all three (small-b and
// small-a first, by the put-back order's tail), where the put-back stops big alone.
TEST(BookExplainTest, MinimizeCarriesTheNaiveOrderAndTheStripData) {
  auto explain = book::Explain(MinimizeScene(), BookOptions(), "api");
  ASSERT_TRUE(explain.ok());
  EXPECT_EQ(explain->requests.milli_cpu, 700);
  ASSERT_EQ(explain->candidates.size(), 1u);
  const CandidateOutcome& cand = explain->candidates[0];
  EXPECT_THAT(cand.naive_victims, ElementsAre("default/small-b", "default/small-a", "default/big"));
  EXPECT_EQ(cand.allocatable.milli_cpu, 1000);
  EXPECT_TRUE(cand.staying.empty());
  ASSERT_EQ(cand.steps.size(), 3u);
  EXPECT_EQ(cand.steps[0].requests.milli_cpu, 600);
  EXPECT_EQ(cand.steps[1].requests.milli_cpu, 100);
}

TEST(BookExplainTest, CascadeWithPdbIsDecidedByFewestPdbViolations) {
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  state.nodes.push_back(MakeNode("node-b", 1000));
  state.pods.push_back(MakePod("batch").Priority(50).MilliCpu(800).Node("node-a").Build());
  state.pods.push_back(
      MakePod("log").Priority(10).MilliCpu(800).Node("node-b").Label("app", "log").Build());
  state.pods.push_back(MakePod("api").Priority(100).MilliCpu(900).Build());
  state.pdbs.push_back(MakePdb("log-pdb", "app", "log", Int(1)));
  auto explain = book::Explain(state, BookOptions(), "default/api");
  ASSERT_TRUE(explain.ok());
  ASSERT_EQ(explain->candidates.size(), 2u);
  EXPECT_EQ(explain->candidates[0].pdb_violations, 0);
  EXPECT_EQ(explain->candidates[1].pdb_violations, 1);
  EXPECT_TRUE(explain->candidates[1].steps[0].pdb_violating);
  ASSERT_TRUE(explain->chosen.has_value());
  EXPECT_EQ(explain->chosen->node, "node-a");
  EXPECT_THAT(explain->chosen->victims, ElementsAre("default/batch"));
  EXPECT_EQ(explain->chosen->decided_by, "fewest PDB violations");
}

TEST(BookExplainTest, TieBreakersAfterViolationsAreNamed) {
  // Setup: three nodes of 1000m; the preemptor (p100, 1000m) must clear a node.
  // node-b: one p30 pod; node-c: two p20 pods; node-a: two p20 pods.
  // Expect: node-a and node-c beat node-b on highest-victim priority; node-a beats node-c by
  // name; the runner-up (node-c) differs from node-a only by name.
  ClusterState state;
  for (const char* node : {"node-b", "node-c", "node-a"})
    state.nodes.push_back(MakeNode(node, 1000));
  state.pods.push_back(MakePod("b1").Priority(30).MilliCpu(1000).Node("node-b").Build());
  state.pods.push_back(MakePod("c1").Priority(20).MilliCpu(500).Node("node-c").Build());
  state.pods.push_back(MakePod("c2").Priority(20).MilliCpu(500).Node("node-c").Build());
  state.pods.push_back(MakePod("a1").Priority(20).MilliCpu(500).Node("node-a").Build());
  state.pods.push_back(MakePod("a2").Priority(20).MilliCpu(500).Node("node-a").Build());
  state.pods.push_back(MakePod("hi").Priority(100).MilliCpu(1000).Build());
  auto explain = book::Explain(state, BookOptions(), "hi");
  ASSERT_TRUE(explain.ok());
  ASSERT_TRUE(explain->chosen.has_value());
  EXPECT_EQ(explain->chosen->node, "node-a");
  EXPECT_EQ(explain->chosen->decided_by, "node name");

  // Without node-c, node-a (two p20 victims) against node-b (one p30) is decided by priority.
  state.nodes.erase(state.nodes.begin() + 1);
  state.pods.erase(state.pods.begin() + 1, state.pods.begin() + 3);
  explain = book::Explain(state, BookOptions(), "hi");
  ASSERT_TRUE(explain.ok());
  EXPECT_EQ(explain->chosen->node, "node-a");
  EXPECT_EQ(explain->chosen->decided_by, "lowest highest-victim priority");

  // With node-b holding two p20 pods too, but of 1000m total on a 1500m node (one victim).
  state.nodes[0].allocatable.milli_cpu = 1500;
  state.pods[0] = MakePod("b1").Priority(20).MilliCpu(1000).Node("node-b").Build();
  explain = book::Explain(state, BookOptions(), "hi");
  ASSERT_TRUE(explain.ok());
  EXPECT_EQ(explain->chosen->node, "node-b");
  EXPECT_EQ(explain->chosen->decided_by, "fewest victims");
}

TEST(BookExplainTest, NodeThatCannotFitEvenAfterRemovalIsNoCandidate) {
  // Setup: node-a runs a higher-priority pod; removing the lower ones (none) does not help.
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  state.nodes.push_back(MakeNode("node-b", 1000));
  state.pods.push_back(MakePod("boss").Priority(500).MilliCpu(900).Node("node-a").Build());
  state.pods.push_back(MakePod("low").Priority(0).MilliCpu(900).Node("node-b").Build());
  state.pods.push_back(MakePod("mid").Priority(100).MilliCpu(500).Build());
  auto explain = book::Explain(state, BookOptions(), "mid");
  ASSERT_TRUE(explain.ok());
  EXPECT_THAT(explain->filter[0].reasons,
              ElementsAre("Insufficient cpu",
                          "not a preemption candidate: Insufficient cpu even with every "
                          "lower-priority pod removed"));
  ASSERT_EQ(explain->candidates.size(), 1u);
  EXPECT_EQ(explain->candidates[0].node, "node-b");
}

TEST(BookExplainTest, FittingPodNamesThePlacementNode) {
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  state.nodes.push_back(MakeNode("node-b", 2000));
  state.pods.push_back(MakePod("p").MilliCpu(100).Build());
  auto explain = book::Explain(state, BookOptions(), "default/p");
  ASSERT_TRUE(explain.ok());
  EXPECT_EQ(explain->fits_node, "node-b");
  EXPECT_EQ(explain->message, "fits on node node-b");
  EXPECT_TRUE(explain->candidates.empty());
  EXPECT_FALSE(explain->chosen.has_value());
}

TEST(BookExplainTest, NoCandidateMeansStuckMessage) {
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  state.pods.push_back(MakePod("x").Priority(10).MilliCpu(900).Node("node-a").Build());
  state.pods.push_back(MakePod("y").Priority(10).MilliCpu(900).Build());
  auto explain = book::Explain(state, BookOptions(), "y");
  ASSERT_TRUE(explain.ok());
  EXPECT_FALSE(explain->chosen.has_value());
  EXPECT_EQ(explain->message, "y cannot be placed anywhere (and has no one to preempt)");
}

TEST(BookExplainTest, UnknownPodIsNotFound) {
  auto explain = book::Explain(MinimizeScene(), BookOptions(), "default/nobody");
  ASSERT_FALSE(explain.ok());
  EXPECT_EQ(explain.error().code, ErrorCode::kNotFound);
}

}  // namespace
}  // namespace kpsim::book
