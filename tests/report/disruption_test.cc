// The disruption cost of a run, computed from hand-made results: victims against their
// preemptors' requests, the cascade through replacements (and through victims the book model
// places again), broken budgets and pod groups, time to quiet, waits per PriorityClass.

#include <gtest/gtest.h>

#include <string>

#include "kpsim/results.h"
#include "report/disruption.h"
#include "report/render_test_util.h"

namespace kpsim::report {
namespace {

using testing::Event;
using testing::PodAt;
using testing::Seconds;

SimEvent Preempted(double t, std::string victim, std::string by) {
  SimEvent e = Event(t, EventReason::kPreempted, std::move(victim), "n1");
  e.by = std::move(by);
  return e;
}

PodOutcome Pod(std::string name, std::int32_t priority, PodState state, std::int64_t milli_cpu,
               std::string cls) {
  PodOutcome p = PodAt(std::move(name), priority, state, state == PodState::kRunning ? "n1" : "");
  p.requests.milli_cpu = milli_cpu;
  p.requests.memory = milli_cpu * 1024 * 1024;
  p.priority_class = std::move(cls);
  return p;
}

// api (1 cpu) preempts web (1 cpu) at 0 s; web's replacement (arrives at 0 s, 1 cpu) preempts
// batch (500m) at 10 s and lands at 40 s; batch's replacement is still pending at 60 s.
SimulationResult Cascade() {
  SimulationResult r;
  r.events.push_back(Event(0, EventReason::kFailedScheduling, "default/api", ""));
  r.events.push_back(Preempted(0, "default/web", "default/api"));
  r.events.push_back(Event(0, EventReason::kCreated, "default/web-2", ""));
  r.events.push_back(Event(10, EventReason::kScheduled, "default/api", "n1"));
  r.events.push_back(Preempted(10, "default/batch", "default/web-2"));
  r.events.push_back(Event(10, EventReason::kCreated, "default/batch-2", ""));
  r.events.push_back(Event(30, EventReason::kDeleted, "default/batch", "n1"));
  r.events.push_back(Event(40, EventReason::kScheduled, "default/web-2", "n1"));
  r.pods.push_back(Pod("default/api", 1000, PodState::kRunning, 1000, "high"));
  r.pods.back().scheduled_at = Seconds(10);
  r.pods.push_back(Pod("default/web", 500, PodState::kDeleted, 1000, "mid"));
  r.pods.push_back(Pod("default/batch", 100, PodState::kDeleted, 500, "low"));
  r.pods.push_back(Pod("default/web-2", 500, PodState::kRunning, 1000, "mid"));
  r.pods.back().replacement_of = "default/web";
  r.pods.back().scheduled_at = Seconds(40);
  r.pods.push_back(Pod("default/batch-2", 100, PodState::kPending, 500, "low"));
  r.pods.back().replacement_of = "default/batch";
  r.end_time = Seconds(60);
  return r;
}

TEST(DisruptionTest, CountsVictimsAgainstWhatTheirPreemptorsAsked) {
  const DisruptionCost d = ComputeDisruption(Cascade());
  EXPECT_EQ(d.evicted_pods, 2);
  EXPECT_EQ(d.preemptors, 2);
  EXPECT_EQ(d.evicted.milli_cpu, 1500);
  EXPECT_EQ(d.requested.milli_cpu, 2000);
  ASSERT_TRUE(d.cpu_ratio.has_value());
  EXPECT_DOUBLE_EQ(*d.cpu_ratio, 0.75);
  ASSERT_EQ(d.by_preemptor.size(), 2u);
  EXPECT_EQ(d.by_preemptor[0].name, "default/api") << "the most evicting first";
  EXPECT_EQ(d.by_preemptor[0].evicted.milli_cpu, 1000);
  EXPECT_EQ(d.by_preemptor[1].evicted.milli_cpu, 500);
}

TEST(DisruptionTest, CascadeFollowsReplacementsAndQuietEndsAtTheLastPlacement) {
  const DisruptionCost d = ComputeDisruption(Cascade());
  EXPECT_EQ(d.cascade_depth, 2) << "web's replacement preempted in turn";
  ASSERT_TRUE(d.time_to_quiet.has_value());
  EXPECT_DOUBLE_EQ(*d.time_to_quiet, 40.0);
  EXPECT_EQ(d.pending, 1);
  ASSERT_EQ(d.longest_waiting.size(), 1u);
  EXPECT_EQ(d.longest_waiting[0].pod, "default/batch-2");
  EXPECT_DOUBLE_EQ(d.longest_waiting[0].waited, 50.0);
}

TEST(DisruptionTest, BookModelVictimPlacedAgainDeepensTheCascade) {
  // The book model requeues a victim itself: batch, evicted by api, preempts log.
  SimulationResult r;
  r.events.push_back(Preempted(0, "default/batch", "default/api"));
  r.events.push_back(Preempted(0, "default/log", "default/batch"));
  r.events.push_back(Preempted(0, "default/tiny", "default/log"));
  for (const char* name : {"default/api", "default/batch", "default/log", "default/tiny"}) {
    r.pods.push_back(Pod(name, 1, PodState::kRunning, 100, ""));
  }
  EXPECT_EQ(ComputeDisruption(r).cascade_depth, 3);
}

// A pod group's preemption: the event names a member and the group; the preemptor is the group,
// once, with its pods' requests (a composite root's through its child groups).
TEST(DisruptionTest, APodGroupPreemptsAsOneWithItsPodsRequests) {
  SimulationResult r;
  for (const char* victim : {"default/a", "default/b"}) {
    SimEvent e = Preempted(0, victim, "default/train-0");
    e.by_group = "default/job";
    r.events.push_back(e);
  }
  GroupOutcome root;
  root.group = "default/job";
  root.composite = true;
  GroupOutcome leaf;
  leaf.group = "default/train";
  leaf.parent = "default/job";
  r.groups = {root, leaf};
  for (const char* name : {"default/train-0", "default/train-1"}) {
    r.pods.push_back(Pod(name, 100, PodState::kRunning, 1000, ""));
    r.pods.back().pod_group = "default/train";
  }
  r.pods.push_back(Pod("default/a", 1, PodState::kDeleted, 1000, ""));
  r.pods.push_back(Pod("default/b", 1, PodState::kDeleted, 500, ""));
  const DisruptionCost d = ComputeDisruption(r);
  EXPECT_EQ(d.preemptors, 1);
  ASSERT_EQ(d.by_preemptor.size(), 1u);
  EXPECT_EQ(d.by_preemptor[0].name, "default/job");
  EXPECT_TRUE(d.by_preemptor[0].group);
  EXPECT_EQ(d.by_preemptor[0].victims, 2);
  EXPECT_EQ(d.requested.milli_cpu, 2000);
  ASSERT_TRUE(d.cpu_ratio.has_value());
  EXPECT_DOUBLE_EQ(*d.cpu_ratio, 0.75);
}

TEST(DisruptionTest, PerPriorityClassEvictedPlacedAndWaited) {
  const DisruptionCost d = ComputeDisruption(Cascade());
  ASSERT_EQ(d.by_class.size(), 3u);
  EXPECT_EQ(d.by_class[0].priority_class, "high");
  EXPECT_EQ(d.by_class[0].placed, 1);
  EXPECT_DOUBLE_EQ(d.by_class[0].mean_wait, 10.0);
  const DisruptionCost::PerClass& mid = d.by_class[1];
  EXPECT_EQ(mid.priority_class, "mid");
  EXPECT_EQ(mid.pods, 2);
  EXPECT_EQ(mid.evicted, 1);
  EXPECT_EQ(mid.placed, 1);
  EXPECT_EQ(mid.waits, 1) << "web was bound from the start: no wait";
  EXPECT_DOUBLE_EQ(mid.max_wait, 40.0);
  const DisruptionCost::PerClass& low = d.by_class[2];
  EXPECT_EQ(low.evicted, 1);
  EXPECT_EQ(low.pending, 1);
  EXPECT_DOUBLE_EQ(low.max_wait, 50.0);
}

TEST(DisruptionTest, BrokenBudgetsAndGroups) {
  SimulationResult r = Cascade();
  r.pdb_names = {"default/web-pdb", "default/batch-pdb"};
  PreemptionDecision d;
  d.pdbs.push_back(DecisionPdb{0, 1, 0, {1}});    // consumed, not broken
  d.pdbs.push_back(DecisionPdb{1, 0, -1, {2}});   // broken by batch
  r.decisions.push_back(d);
  GroupOutcome gang;
  gang.group = "default/gang";
  gang.state = "WaitingForMinCount";
  gang.preempted = 2;
  gang.min_count = 3;
  r.groups.push_back(gang);
  GroupOutcome fine = gang;
  fine.group = "default/waiting";
  fine.preempted = 0;  // never had its pods: not broken by preemption
  r.groups.push_back(fine);
  const DisruptionCost cost = ComputeDisruption(r);
  EXPECT_EQ(cost.pdb_budget_consumed, 2);
  ASSERT_EQ(cost.pdbs_broken.size(), 1u);
  EXPECT_EQ(cost.pdbs_broken[0].pdb, "default/batch-pdb");
  EXPECT_EQ(cost.pdbs_broken[0].victims, std::vector<std::string>{"default/batch"});
  ASSERT_EQ(cost.groups_broken.size(), 1u);
  EXPECT_EQ(cost.groups_broken[0].group, "default/gang");
}

TEST(DisruptionTest, AVictimChosenAgainWhileItTerminatesConsumesTheBudgetOnce) {
  // Two preemptors on one node: the second decision lists the first one's still-terminating
  // victim again (kube-scheduler counts terminating pods as victims) and its PDB once more.
  SimulationResult r = Cascade();
  r.pdb_names = {"default/batch-pdb"};
  PreemptionDecision first;
  first.pdbs.push_back(DecisionPdb{0, 0, -1, {2}});
  PreemptionDecision second;
  second.pdbs.push_back(DecisionPdb{0, -1, -2, {2}});
  r.decisions = {first, second};
  const DisruptionCost cost = ComputeDisruption(r);
  EXPECT_EQ(cost.pdb_budget_consumed, 1);
  ASSERT_EQ(cost.pdbs_broken.size(), 1u);
  EXPECT_EQ(cost.pdbs_broken[0].victims, std::vector<std::string>{"default/batch"});
}

TEST(DisruptionTest, NothingEvictedIsZeroWithoutRatios) {
  SimulationResult r;
  r.events.push_back(Event(0, EventReason::kScheduled, "default/a", "n1"));
  r.pods.push_back(Pod("default/a", 0, PodState::kRunning, 100, ""));
  const DisruptionCost d = ComputeDisruption(r);
  EXPECT_EQ(d.evicted_pods, 0);
  EXPECT_EQ(d.cascade_depth, 0);
  EXPECT_FALSE(d.cpu_ratio.has_value());
  EXPECT_FALSE(d.time_to_quiet.has_value());
}

}  // namespace
}  // namespace kpsim::report
