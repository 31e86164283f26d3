// `book::Simulate` on the chapter's scenes and on the model's edge rules, with builder-made states.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "book/book.h"
#include "book/book_builders.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"

namespace kpsim::book {
namespace {

using ::testing::ElementsAre;
using testing::Int;
using testing::MakeNode;
using testing::MakePdb;
using testing::MakePod;
using testing::Percent;

EngineOptions BookOptions(int max_attempts = 1000) {
  EngineOptions options;
  options.profile = Profile::kBook;
  options.max_attempts = max_attempts;
  options.origin = WallTime{};
  return options;
}

std::vector<std::string> EventsOf(const SimulationResult& result, EventReason reason) {
  std::vector<std::string> out;
  for (const SimEvent& e : result.events) {
    if (e.reason == reason) out.push_back(e.pod.string() + "@" + e.node.string());
  }
  return out;
}

std::vector<std::string> Messages(const SimulationResult& result) {
  std::vector<std::string> out;
  for (const SimEvent& e : result.events) out.push_back(e.message.string());
  return out;
}

const PodOutcome& OutcomeOf(const SimulationResult& result, const std::string& pod) {
  for (const PodOutcome& o : result.pods) {
    if (o.pod == pod) return o;
  }
  ADD_FAILURE() << "no outcome for " << pod;
  return result.pods.front();
}

// The chapter's "minimize" scene.
ClusterState MinimizeScene() {
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  state.pods.push_back(MakePod("small-a").Priority(10).MilliCpu(100).Node("node-a").Build());
  state.pods.push_back(MakePod("small-b").Priority(10).MilliCpu(100).Node("node-a").Build());
  state.pods.push_back(MakePod("big").Priority(20).MilliCpu(600).Node("node-a").Build());
  state.pods.push_back(MakePod("api").Priority(100).MilliCpu(700).Build());
  return state;
}

// The chapter's cascade scene, with or without the PDB on log.
ClusterState CascadeScene(bool with_pdb) {
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  state.nodes.push_back(MakeNode("node-b", 1000));
  state.pods.push_back(
      MakePod("batch").Priority(50).MilliCpu(800).Node("node-a").Label("app", "batch").Build());
  state.pods.push_back(
      MakePod("log").Priority(10).MilliCpu(800).Node("node-b").Label("app", "log").Build());
  state.pods.push_back(MakePod("api").Priority(100).MilliCpu(900).Label("app", "api").Build());
  if (with_pdb) state.pdbs.push_back(MakePdb("log-pdb", "app", "log", Int(1)));
  return state;
}

TEST(BookSimulateTest, MinimizeEvictsOnlyBig) {
  // Setup: node-a 1000m with small-a 100m p10, small-b 100m p10, big 600m p20; api 700m p100.
  // Expect: removing all and putting back from the top spares both smalls; only big goes, and
  // big (600m) then finds no room and no one to preempt.
  const SimulationResult result = book::Simulate(MinimizeScene(), BookOptions());
  EXPECT_THAT(EventsOf(result, EventReason::kPreempted), ElementsAre("default/big@node-a"));
  EXPECT_THAT(EventsOf(result, EventReason::kScheduled), ElementsAre("default/api@node-a"));
  EXPECT_THAT(EventsOf(result, EventReason::kFailedScheduling), ElementsAre("default/big@"));
  EXPECT_THAT(Messages(result),
              ElementsAre("api (priority 100) preempted big (priority 20) from node-a",
                          "api placed on node-a (on room made by preemption)",
                          "big cannot be placed anywhere (and has no one to preempt)"));
  EXPECT_EQ(OutcomeOf(result, "default/big").state, PodState::kPending);
  EXPECT_EQ(OutcomeOf(result, "default/big").reason,
            "big cannot be placed anywhere (and has no one to preempt)");
  EXPECT_EQ(OutcomeOf(result, "default/small-a").state, PodState::kRunning);
  EXPECT_EQ(OutcomeOf(result, "default/api").node, "node-a");
  EXPECT_EQ(result.end_reason, "quiescent");
  EXPECT_FALSE(result.attempt_cap_reached);
  EXPECT_EQ(result.stats.victims, 1);
  EXPECT_EQ(result.stats.scheduling_attempts, 2);
}

TEST(BookSimulateTest, CascadeWithPdbEvictsBatchThenBatchEvictsLogBreakingThePdb) {
  // Setup: node-a batch p50 800m, node-b log p10 800m with PDB minAvailable 1; api p100 900m.
  // Expect: api takes node-a (no violation) evicting batch; batch returns to the queue and can
  // only take node-b, evicting log and breaking the budget.
  const SimulationResult result = book::Simulate(CascadeScene(true), BookOptions());
  ASSERT_THAT(EventsOf(result, EventReason::kPreempted),
              ElementsAre("default/batch@node-a", "default/log@node-b"));
  std::vector<const SimEvent*> preempted;
  for (const SimEvent& e : result.events) {
    if (e.reason == EventReason::kPreempted) preempted.push_back(&e);
  }
  EXPECT_EQ(preempted[0]->by, "default/api");
  EXPECT_FALSE(preempted[0]->pdb_violation);
  EXPECT_EQ(preempted[0]->round, 1);
  EXPECT_EQ(preempted[1]->by, "default/batch");
  EXPECT_TRUE(preempted[1]->pdb_violation);
  EXPECT_EQ(preempted[1]->round, 2);
  EXPECT_EQ(preempted[1]->message,
            "batch (priority 50) preempted log (priority 10) from node-b, breaking a "
            "PodDisruptionBudget");
  EXPECT_THAT(EventsOf(result, EventReason::kScheduled),
              ElementsAre("default/api@node-a", "default/batch@node-b"));
  EXPECT_THAT(EventsOf(result, EventReason::kFailedScheduling), ElementsAre("default/log@"));
  EXPECT_EQ(OutcomeOf(result, "default/log").state, PodState::kPending);
}

TEST(BookSimulateTest, CascadeWithoutPdbEvictsLogOnce) {
  // Same scene without the budget: the lowest-priority victim, log, goes at once.
  const SimulationResult result = book::Simulate(CascadeScene(false), BookOptions());
  EXPECT_THAT(EventsOf(result, EventReason::kPreempted), ElementsAre("default/log@node-b"));
  EXPECT_THAT(EventsOf(result, EventReason::kScheduled), ElementsAre("default/api@node-b"));
  EXPECT_EQ(OutcomeOf(result, "default/batch").node, "node-a");
}

TEST(BookSimulateTest, HighPriorityQueuedLaterIsPlacedFirstWithoutEviction) {
  // Setup: node-a 1000m empty; low (p0, 300m) queued before high (p100, 300m).
  // Expect: high placed in round 1, low in round 2, no eviction.
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  state.pods.push_back(MakePod("low").Priority(0).MilliCpu(300).Created(1).Build());
  state.pods.push_back(MakePod("high").Priority(100).MilliCpu(300).Created(2).Build());
  const SimulationResult result = book::Simulate(state, BookOptions());
  EXPECT_THAT(EventsOf(result, EventReason::kScheduled),
              ElementsAre("default/high@node-a", "default/low@node-a"));
  EXPECT_TRUE(EventsOf(result, EventReason::kPreempted).empty());
  EXPECT_EQ(result.events[0].message, "high (priority 100) placed on node-a");
}

TEST(BookSimulateTest, PlacesOnMostFreeCpuThenNodeName) {
  // Setup: node-b and node-c both 2000m free, node-a 1500m (node order a, c, b).
  // Expect: a tie on free CPU goes to the name that sorts first, node-b.
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1500));
  state.nodes.push_back(MakeNode("node-c", 2000));
  state.nodes.push_back(MakeNode("node-b", 2000));
  state.pods.push_back(MakePod("p").MilliCpu(100).Build());
  const SimulationResult result = book::Simulate(state, BookOptions());
  EXPECT_THAT(EventsOf(result, EventReason::kScheduled), ElementsAre("default/p@node-b"));
}

TEST(BookSimulateTest, CreationTimestampOrdersEqualPriorities) {
  // Setup: two equal-priority pods, the second in input order created first; room for one.
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 500));
  state.pods.push_back(MakePod("later").MilliCpu(400).Created(20).Build());
  state.pods.push_back(MakePod("earlier").MilliCpu(400).Created(10).Build());
  const SimulationResult result = book::Simulate(state, BookOptions());
  EXPECT_THAT(EventsOf(result, EventReason::kScheduled), ElementsAre("default/earlier@node-a"));
  EXPECT_THAT(EventsOf(result, EventReason::kFailedScheduling), ElementsAre("default/later@"));
}

TEST(BookSimulateTest, NegativePriorityVictimsGiveTopVictimZero) {
  // Setup: node-a holds three p-5 pods of 300m (3 victims), node-b one p0 pod of 900m (1 victim);
  // the preemptor is p10, 900m.
  // Expect: the chapter's topVictim starts at 0, so both candidates score 0 and the fewer victims
  // (node-b) win; a true maximum (-5 < 0) would have picked node-a. Then zero, requeued,
  // evicts the three p-5 pods from node-a.
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 900));
  state.nodes.push_back(MakeNode("node-b", 900));
  for (const char* name : {"n1", "n2", "n3"}) {
    state.pods.push_back(MakePod(name).Priority(-5).MilliCpu(300).Node("node-a").Build());
  }
  state.pods.push_back(MakePod("zero").Priority(0).MilliCpu(900).Node("node-b").Build());
  state.pods.push_back(MakePod("p").Priority(10).MilliCpu(900).Build());
  const SimulationResult result = book::Simulate(state, BookOptions());
  EXPECT_THAT(EventsOf(result, EventReason::kPreempted),
              ElementsAre("default/zero@node-b", "default/n1@node-a", "default/n2@node-a",
                          "default/n3@node-a"));
  EXPECT_EQ(result.events[0].by, "default/p");
  EXPECT_EQ(result.events[2].by, "default/zero");
}

TEST(BookSimulateTest, EvictedPodWithNowhereToGoIsStuckForGood) {
  // Setup: node-a 1000m runs filler p50 800m, node-b 600m runs blocker p60 600m; q (p10, 500m)
  // and hi (p100, 600m) are pending.
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  state.nodes.push_back(MakeNode("node-b", 600));
  state.pods.push_back(MakePod("filler").Priority(50).MilliCpu(800).Node("node-a").Build());
  state.pods.push_back(MakePod("blocker").Priority(60).MilliCpu(600).Node("node-b").Build());
  state.pods.push_back(MakePod("q").Priority(10).MilliCpu(500).Created(1).Build());
  state.pods.push_back(MakePod("hi").Priority(100).MilliCpu(600).Created(2).Build());
  const SimulationResult result = book::Simulate(state, BookOptions());
  // Round 1: hi (higher priority) evicts filler. Round 2: filler (p50) finds node-a with 400m,
  // cannot fit, and has no lower pod to preempt (q is pending): stuck. Round 3: q (500m) fits
  // nowhere (400m free on node-a) and preempts nobody: stuck.
  EXPECT_THAT(EventsOf(result, EventReason::kFailedScheduling),
              ElementsAre("default/filler@", "default/q@"));
  EXPECT_EQ(result.stats.scheduling_attempts, 3);
}

TEST(BookSimulateTest, RoundCapStopsTheRunAndIsReported) {
  // Setup: three pending pods, cap of 2 rounds.
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  for (const char* name : {"a", "b", "c"}) {
    state.pods.push_back(MakePod(name).MilliCpu(100).Build());
  }
  const SimulationResult result = book::Simulate(state, BookOptions(2));
  EXPECT_TRUE(result.attempt_cap_reached);
  EXPECT_EQ(result.end_reason, "max-attempts");
  EXPECT_EQ(result.stats.scheduling_attempts, 2);
  EXPECT_EQ(OutcomeOf(result, "default/c").state, PodState::kPending);
  EXPECT_EQ(OutcomeOf(result, "default/c").reason,
            "still in the queue when the round cap (2) stopped the run");
}

TEST(BookSimulateTest, PreboundPodsMayOverCommitAndStayRunning) {
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 1000));
  state.pods.push_back(MakePod("x").MilliCpu(800).Node("node-a").Build());
  state.pods.push_back(MakePod("y").MilliCpu(800).Node("node-a").Build());
  state.pods.push_back(MakePod("ghost").MilliCpu(100).Node("node-z").Build());
  const SimulationResult result = book::Simulate(state, BookOptions());
  EXPECT_TRUE(result.events.empty());
  ASSERT_EQ(result.nodes.size(), 1u);
  EXPECT_EQ(result.nodes[0].requested.milli_cpu, 1600);
  std::vector<std::string> on_node;
  for (ResultIndex p : result.nodes[0].pods) on_node.push_back(result.PodName(p).string());
  EXPECT_THAT(on_node, ElementsAre("default/x", "default/y"));
  EXPECT_EQ(OutcomeOf(result, "default/ghost").state, PodState::kPending);
}

TEST(BookSimulateTest, PodCountLimitsOnlyNodesThatDeclareIt) {
  // Setup: node-a declares pods=1 and already runs one; node-b declares none. Both have CPU.
  ClusterState state;
  state.nodes.push_back(MakeNode("node-a", 4000, 0, 1));
  state.nodes.push_back(MakeNode("node-b", 1000));
  state.pods.push_back(MakePod("x").MilliCpu(100).Node("node-a").Build());
  state.pods.push_back(MakePod("p").MilliCpu(100).Build());
  const SimulationResult result = book::Simulate(state, BookOptions());
  EXPECT_THAT(EventsOf(result, EventReason::kScheduled), ElementsAre("default/p@node-b"));
}

TEST(BookSimulateTest, ExtendedResourcesMustFit) {
  ClusterState state;
  Node gpu = MakeNode("gpu-node", 1000);
  gpu.allocatable.scalar.emplace_back("nvidia.com/gpu", 1);
  state.nodes.push_back(MakeNode("cpu-node", 4000));
  state.nodes.push_back(gpu);
  state.pods.push_back(MakePod("train").MilliCpu(100).Scalar("nvidia.com/gpu", 1).Build());
  const SimulationResult result = book::Simulate(state, BookOptions());
  EXPECT_THAT(EventsOf(result, EventReason::kScheduled), ElementsAre("default/train@gpu-node"));
}

TEST(BookSimulateTest, PercentAndMaxUnavailableBudgetsResolveAgainstMatchingPods) {
  // Setup: three app=web pods (p0, 500m) on three 500m nodes; maxUnavailable 1 means
  // minAvailable 2, so one eviction is free; minAvailable 100% makes every eviction violate.
  for (bool use_percent : {false, true}) {
    ClusterState state;
    for (const char* node : {"n1", "n2", "n3"}) {
      state.nodes.push_back(MakeNode(node, 500));
      state.pods.push_back(
          MakePod(std::string("web-") + node).MilliCpu(500).Node(node).Label("app", "web").Build());
    }
    state.pods.push_back(MakePod("hi").Priority(10).MilliCpu(500).Build());
    state.pdbs.push_back(use_percent ? MakePdb("web", "app", "web", Percent(100))
                                     : MakePdb("web", "app", "web", std::nullopt, Int(1)));
    const SimulationResult result = book::Simulate(state, BookOptions());
    ASSERT_EQ(EventsOf(result, EventReason::kPreempted).size(), 1u);
    for (const SimEvent& e : result.events) {
      if (e.reason == EventReason::kPreempted) {
        EXPECT_EQ(e.pdb_violation, use_percent);
      }
    }
  }
}

}  // namespace
}  // namespace kpsim::book
