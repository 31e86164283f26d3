// Unit tests for SchedulingQueue (src/engine/queue.h), spec §3: PrioritySort order, backoff
// durations, the unschedulable pool and the events and flushes that move pods out of it, and
// SchedulerPopFromBackoffQ.

#include "queue/queue.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "framework/status.h"
#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/sim_time.h"
#include "snapshot/cluster.h"
#include "testing/builders.h"

namespace kpsim::engine {
namespace {

using namespace kpsim::engine::id_literals;  // NOLINT(google-build-using-namespace)

using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;
using std::chrono::milliseconds;
using std::chrono::seconds;

SimTime At(SimDuration d) { return SimTime{d}; }

// Setup: one node and pending pods p0..pN-1 with the given priorities, plus a pending pod
// "other" whose binding stands for cluster progress.
class QueueTest : public ::testing::Test {
 protected:
  void Build(const std::vector<std::int32_t>& priorities, bool pop_from_backoff_q = true) {
    state_.nodes.push_back(MakeNode("n1").Cpu("4").Memory("8Gi").Pods(110).Build());
    for (std::size_t i = 0; i < priorities.size(); ++i) {
      Pod p = MakePod("p" + std::to_string(i)).Namespace("default").Priority(priorities[i]).Build();
      p.spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
      state_.pods.push_back(p);
    }
    Pod other = MakePod("other").Namespace("default").Priority(0).Build();
    other.spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
    state_.pods.push_back(other);
    other_ = static_cast<PodId>(priorities.size());
    model_.emplace(state_, EngineOptions{});
    QueueOptions options;
    options.pop_from_backoff_q = pop_from_backoff_q;
    queue_.emplace(*model_, options);
  }

  // Pops everything, in order.
  std::vector<PodId> Drain() {
    std::vector<PodId> out;
    while (auto entity = queue_->Pop()) out.push_back(entity->pod());
    return out;
  }

  void Progress(SimTime now) { model_->Bind(other_, 0_node, now); }

  // A failed attempt that lands in the (normal) backoffQ: rejected for resources, then an
  // assigned pod's deletion moves it out of the pool while it is still backing off.
  void Backoff(PodId pod, SimTime now) {
    queue_->AddUnschedulable(pod, MaskOf(PluginId::kNodeResourcesFit), now);
    queue_->OnEvent(ClusterEvent::kAssignedPodDelete, now);
  }

  ClusterState state_;
  std::optional<ClusterModel> model_;
  std::optional<SchedulingQueue> queue_;
  PodId other_ = kNoId;
};

// ----------------------------------------------------------------------------------------------
// Storage: an entry per entity ever queued, not per pod of the model.

TEST_F(QueueTest, HoldsEntriesOnlyForEntitiesEverQueued) {
  Build(std::vector<std::int32_t>(50, 0));
  // Removing or asking about pods that were never queued makes no entry.
  queue_->Remove(PodId(40));
  EXPECT_FALSE(queue_->IsUnschedulable(PodId(45)));
  queue_->Activate(PodId(20), At(seconds(0)));  // not queued before: it is added
  EXPECT_EQ(queue_->entity_count(), 1u);
  queue_->Add(PodId(49), At(seconds(0)));
  queue_->AddUnschedulable(PodId(30), MaskOf(PluginId::kNodeResourcesFit), At(seconds(0)));
  EXPECT_EQ(queue_->entity_count(), 3u);
  EXPECT_TRUE(queue_->IsUnschedulable(PodId(30)));
  EXPECT_EQ(queue_->attempts(PodId(30)), 1);
  EXPECT_EQ(queue_->attempts(PodId(49)), 0);
  EXPECT_EQ(Drain(), (std::vector<PodId>{PodId(20), PodId(49)}));
  queue_->Remove(PodId(30));
  EXPECT_FALSE(queue_->IsUnschedulable(PodId(30)));
  // A pod queued again keeps its entry and its attempts.
  queue_->AddUnschedulable(PodId(30), MaskOf(PluginId::kNodeResourcesFit), At(seconds(1)));
  EXPECT_EQ(queue_->attempts(PodId(30)), 2);
  EXPECT_EQ(queue_->entity_count(), 3u);
}

// ----------------------------------------------------------------------------------------------
// PrioritySort.

TEST_F(QueueTest, HigherPriorityPopsFirst) {
  Build({10, 1000, -5, 100});
  for (PodId p : IdRange<PodId>(4)) queue_->Add(p, At(seconds(0)));
  EXPECT_EQ(Drain(), (std::vector<PodId>{1_pod, 3_pod, 0_pod, 2_pod}));
}

TEST_F(QueueTest, EqualPriorityEarlierTimestampFirst) {
  Build({10, 10, 10});
  queue_->Add(0_pod, At(seconds(5)));
  queue_->Add(1_pod, At(seconds(3)));
  queue_->Add(2_pod, At(seconds(4)));
  EXPECT_EQ(Drain(), (std::vector<PodId>{1_pod, 2_pod, 0_pod}));
}

TEST_F(QueueTest, EqualPriorityAndTimestampPopInInsertionOrder) {
  Build({7, 7, 7, 7});
  for (PodId p : {2_pod, 0_pod, 3_pod, 1_pod}) queue_->Add(p, At(seconds(1)));
  EXPECT_EQ(Drain(), (std::vector<PodId>{2_pod, 0_pod, 3_pod, 1_pod}));
}

TEST_F(QueueTest, PriorityBeatsAnEarlierTimestamp) {
  Build({1, 2});
  queue_->Add(0_pod, At(seconds(0)));
  queue_->Add(1_pod, At(seconds(100)));
  EXPECT_EQ(Drain(), (std::vector<PodId>{1_pod, 0_pod}));
}

TEST_F(QueueTest, ReAddingMovesThePodBehindEqualPriorityPods) {
  // The queue timestamp is the time of (re)entry, not of creation.
  Build({5, 5});
  queue_->Add(0_pod, At(seconds(0)));
  queue_->Add(1_pod, At(seconds(1)));
  queue_->Add(0_pod, At(seconds(2)));
  EXPECT_EQ(Drain(), (std::vector<PodId>{1_pod, 0_pod}));
}

TEST_F(QueueTest, RemovedPodIsForgotten) {
  Build({1, 2});
  queue_->Add(0_pod, At(seconds(0)));
  queue_->Add(1_pod, At(seconds(0)));
  queue_->Remove(1_pod);
  EXPECT_EQ(Drain(), (std::vector<PodId>{0_pod}));
  EXPECT_TRUE(queue_->Empty());
}

// ----------------------------------------------------------------------------------------------
// Backoff.

// Setup: one pod fails again each time its backoff ends (no plugin rejected it, so it is queued
// after backoff). Expect: 1, 2, 4, 8, 10, 10, 10 s, the pod leaving backoffQ exactly then.
TEST_F(QueueTest, BackoffDoublesFromOneSecondUpToTenSeconds) {
  Build({0}, /*pop_from_backoff_q=*/false);
  const std::vector<int> expected = {1, 2, 4, 8, 10, 10, 10};
  SimTime now = At(seconds(0));
  queue_->Add(0_pod, now);
  ASSERT_EQ(queue_->Pop(), std::optional<PodId>(0_pod));
  for (std::size_t attempt = 0; attempt < expected.size(); ++attempt) {
    Backoff(0_pod, now);
    EXPECT_EQ(queue_->attempts(0_pod), static_cast<int>(attempt) + 1);
    const SimTime due = now + seconds(expected[attempt]);
    EXPECT_EQ(queue_->NextFlushTime(now), std::optional<SimTime>(due)) << "attempt " << attempt + 1;
    queue_->Flush(due - seconds(1));
    EXPECT_EQ(queue_->Pop(), std::nullopt) << "attempt " << attempt + 1 << " left backoff early";
    queue_->Flush(due);
    EXPECT_EQ(queue_->Pop(), std::optional<PodId>(0_pod)) << "attempt " << attempt + 1;
    now = due;
  }
}

TEST_F(QueueTest, BackoffExpiryIsTruncatedToTheSecondWithPopFromBackoffQ) {
  Build({0});
  Backoff(0_pod, At(milliseconds(2700)));
  // 2.7 s + 1 s = 3.7 s, truncated to the 3 s ordering window.
  EXPECT_EQ(queue_->NextFlushTime(At(milliseconds(2700))), std::optional<SimTime>(At(seconds(3))));
}

TEST_F(QueueTest, WithinOneBackoffWindowHigherPriorityLeavesFirst) {
  Build({1, 50});
  Backoff(0_pod, At(milliseconds(300)));
  Backoff(1_pod, At(milliseconds(700)));
  // Both expire in the 1 s window (1.3 s and 1.7 s truncated), so backoffQ orders them by
  // priority: popping from it (activeQ empty) yields the later-failing, higher-priority pod.
  EXPECT_EQ(Drain(), (std::vector<PodId>{1_pod, 0_pod}));
}

// ----------------------------------------------------------------------------------------------
// SchedulerPopFromBackoffQ.

TEST_F(QueueTest, PopsFromBackoffQWhenActiveQIsEmptyWithTheGateOn) {
  Build({0, 0});
  Backoff(0_pod, At(seconds(0)));
  EXPECT_FALSE(queue_->Empty());
  EXPECT_EQ(queue_->Pop(), std::optional<PodId>(0_pod));
}

TEST_F(QueueTest, ActiveQStillComesBeforeBackoffQWithTheGateOn) {
  Build({100, 0});
  Backoff(0_pod, At(seconds(0)));
  queue_->Add(1_pod, At(seconds(0)));
  EXPECT_EQ(Drain(), (std::vector<PodId>{1_pod, 0_pod}));
}

TEST_F(QueueTest, DoesNotPopFromBackoffQWithTheGateOff) {
  Build({0}, /*pop_from_backoff_q=*/false);
  Backoff(0_pod, At(seconds(0)));
  EXPECT_EQ(queue_->Pop(), std::nullopt);
  queue_->Flush(At(seconds(1)));
  EXPECT_EQ(queue_->Pop(), std::optional<PodId>(0_pod));
}

TEST_F(QueueTest, UnschedulablePoolIsNeverPoppedDirectly) {
  Build({0});
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kNodeResourcesFit), At(seconds(0)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod));
  EXPECT_EQ(queue_->Pop(), std::nullopt);
}

// ----------------------------------------------------------------------------------------------
// Events and the unschedulable pool.

TEST_F(QueueTest, AssignedPodDeleteMovesPodsRejectedForResources) {
  Build({0}, /*pop_from_backoff_q=*/false);
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kNodeResourcesFit), At(seconds(0)));
  queue_->OnEvent(ClusterEvent::kAssignedPodAdd, At(seconds(5)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod)) << "a pod arriving frees no resources";
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, At(seconds(5)));
  EXPECT_FALSE(queue_->IsUnschedulable(0_pod));
  EXPECT_EQ(queue_->Pop(), std::optional<PodId>(0_pod)) << "backoff (1 s) was over: straight to activeQ";
}

TEST_F(QueueTest, EventDuringBackoffMovesThePodToBackoffQ) {
  Build({0}, /*pop_from_backoff_q=*/false);
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kNodeResourcesFit), At(seconds(10)));
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, At(milliseconds(10500)));
  EXPECT_FALSE(queue_->IsUnschedulable(0_pod));
  EXPECT_EQ(queue_->Pop(), std::nullopt) << "still backing off until 11 s";
  queue_->Flush(At(seconds(11)));
  EXPECT_EQ(queue_->Pop(), std::optional<PodId>(0_pod));
}

TEST_F(QueueTest, AssignedPodDeleteLeavesPodsRejectedByNodeLocalPlugins) {
  Build({0, 0, 0});
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kTaintToleration), At(seconds(0)));
  queue_->AddUnschedulable(1_pod, MaskOf(PluginId::kNodeAffinity), At(seconds(0)));
  queue_->AddUnschedulable(2_pod, MaskOf(PluginId::kNodeUnschedulable), At(seconds(0)));
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, At(seconds(5)));
  queue_->OnEvent(ClusterEvent::kAssignedPodAdd, At(seconds(5)));
  for (PodId p : IdRange<PodId>(3)) EXPECT_TRUE(queue_->IsUnschedulable(p)) << p;
  queue_->OnEvent(ClusterEvent::kNodeAdd, At(seconds(6)));
  for (PodId p : IdRange<PodId>(3)) EXPECT_FALSE(queue_->IsUnschedulable(p)) << p;
}

TEST_F(QueueTest, AnyRejectingPluginThatCaresIsEnough) {
  Build({0});
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kTaintToleration) | MaskOf(PluginId::kNodeResourcesFit),
                           At(seconds(0)));
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, At(seconds(5)));
  EXPECT_FALSE(queue_->IsUnschedulable(0_pod));
}

TEST_F(QueueTest, AssignedPodAddMovesPodsRejectedByInterPodAffinity) {
  Build({0, 0});
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kInterPodAffinity), At(seconds(0)));
  queue_->AddUnschedulable(1_pod, MaskOf(PluginId::kNodeResourcesFit), At(seconds(0)));
  queue_->OnEvent(ClusterEvent::kAssignedPodAdd, At(seconds(5)));
  EXPECT_FALSE(queue_->IsUnschedulable(0_pod));
  EXPECT_TRUE(queue_->IsUnschedulable(1_pod));
}

// NodePorts.isSchedulableAfterPodDeleted: a deleted scheduled pod helps a pod rejected by NodePorts
// only when it held a host port conflicting with one the pod asks for.
TEST_F(QueueTest, AssignedPodDeleteMovesNodePortsRejectsOnlyWhenAConflictingPortIsFreed) {
  state_.nodes.push_back(MakeNode("n1").Cpu("4").Memory("8Gi").Pods(110).Build());
  state_.pods.push_back(MakePod("wants80").Namespace("default").Priority(0).HostPort(80).Build());
  state_.pods.push_back(MakePod("holds81").Namespace("default").Priority(0).Node("n1").HostPort(81).Build());
  state_.pods.push_back(
      MakePod("holds80udp").Namespace("default").Priority(0).Node("n1").HostPort(80, "UDP").Build());
  state_.pods.push_back(
      MakePod("holds80ip").Namespace("default").Priority(0).Node("n1").HostPort(80, "TCP", "10.0.0.1").Build());
  for (Pod& p : state_.pods) p.spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  model_.emplace(state_, EngineOptions{});
  queue_.emplace(*model_, QueueOptions{});
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kNodePorts), At(seconds(0)));
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, 1_pod, At(seconds(5)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod)) << "port 81 is not the one asked for";
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, 2_pod, At(seconds(5)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod)) << "80/UDP does not conflict with 80/TCP";
  queue_->OnEvent(ClusterEvent::kAssignedPodAdd, 3_pod, At(seconds(5)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod)) << "NodePorts does not register for pod additions";
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, 3_pod, At(seconds(5)));
  EXPECT_FALSE(queue_->IsUnschedulable(0_pod)) << "10.0.0.1:80/TCP conflicts with 0.0.0.0:80/TCP";
}

// ----------------------------------------------------------------------------------------------
// The periodic flush of the unschedulable pool.

// Setup: a pod parked at 10 s, then the cluster makes progress. Expect: it is moved at the first
// 30 s tick at which it has been parked for more than 5 minutes (330 s), not before.
TEST_F(QueueTest, UnschedulablePodsReturnAtTheFirstTickAfterFiveMinutes) {
  Build({0});
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kTaintToleration), At(seconds(10)));
  Progress(At(seconds(20)));
  EXPECT_EQ(queue_->NextFlushTime(At(seconds(20))), std::optional<SimTime>(At(seconds(330))));
  queue_->Flush(At(seconds(300)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod));
  queue_->Flush(At(seconds(329)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod)) << "329 s is no 30 s tick";
  queue_->Flush(At(seconds(330)));
  EXPECT_FALSE(queue_->IsUnschedulable(0_pod));
  EXPECT_EQ(queue_->Pop(), std::optional<PodId>(0_pod));
}

TEST_F(QueueTest, ExactlyFiveMinutesIsNotEnough) {
  Build({0});
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kTaintToleration), At(seconds(0)));
  Progress(At(seconds(1)));
  queue_->Flush(At(seconds(300)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod));
  queue_->Flush(At(seconds(330)));
  EXPECT_FALSE(queue_->IsUnschedulable(0_pod));
}

TEST_F(QueueTest, FlushSkipsPodsThatSawNoProgress) {
  // A retry would fail identically, so nothing is scheduled for it and the run can end.
  Build({0});
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kTaintToleration), At(seconds(0)));
  EXPECT_EQ(queue_->NextFlushTime(At(seconds(0))), std::nullopt);
  queue_->Flush(At(seconds(600)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod));
}

TEST_F(QueueTest, NextFlushTimeReportsTheEarliestBackoffExpiry) {
  Build({0, 0});
  Backoff(0_pod, At(seconds(0)));  // attempt 1: 1 s
  Backoff(1_pod, At(seconds(0)));
  Backoff(1_pod, At(seconds(0)));  // attempt 2: 2 s
  EXPECT_EQ(queue_->NextFlushTime(At(seconds(0))), std::optional<SimTime>(At(seconds(1))));
  queue_->Flush(At(seconds(1)));
  EXPECT_EQ(queue_->NextFlushTime(At(seconds(1))), std::optional<SimTime>(At(seconds(2))));
}

// ----------------------------------------------------------------------------------------------
// The error backoffQ (no rejecting plugin, e.g. ErrNoNodesAvailable): rule 3.5/3.6.

TEST_F(QueueTest, ErrorBackoffIsNotPoppedEarlyEvenWithTheGateOn) {
  Build({0});
  queue_->AddUnschedulable(0_pod, /*rejectors=*/0, At(seconds(0)));
  EXPECT_EQ(queue_->Pop(), std::nullopt);
  queue_->Flush(At(seconds(1)));
  EXPECT_EQ(queue_->Pop(), std::optional<PodId>(0_pod));
}

TEST_F(QueueTest, ErrorRetryWithoutProgressIsNoReasonToAdvanceTheClock) {
  Build({0});
  queue_->AddUnschedulable(0_pod, /*rejectors=*/0, At(seconds(0)));
  // Nothing happened since the attempt: a retry would fail identically.
  EXPECT_EQ(queue_->NextFlushTime(At(seconds(0))), std::nullopt);
  Progress(At(seconds(0)));
  EXPECT_EQ(queue_->NextFlushTime(At(seconds(0))), std::optional<SimTime>(At(seconds(1))));
}

// ----------------------------------------------------------------------------------------------
// Queueing hints with the event's pod (isSchedulableAfterPodEvent / isSchedulableAfterPodChange).

class QueueHintTest : public ::testing::Test {
 protected:
  // Pods: 0 "target" (pending, anti-affinity against app=db, affinity to app=cache when
  // `with_affinity`), 1 "db" (app=db), 2 "cache" (app=cache), 3 "web" (app=web), all bound to n1.
  void Build(bool with_affinity) {
    state_.nodes.push_back(MakeNode("n1").Cpu("4").Memory("8Gi").Pods(110).Build());
    Pod target = MakePod("target").Namespace("default").Build();
    PodAffinityTerm anti;
    anti.topology_key = "kubernetes.io/hostname";
    anti.label_selector = LabelSelector{};
    anti.label_selector->match_labels = {{"app", "db"}};
    target.spec.affinity.pod_anti_affinity_required.push_back(anti);
    if (with_affinity) {
      PodAffinityTerm aff = anti;
      aff.label_selector->match_labels = {{"app", "cache"}};
      target.spec.affinity.pod_affinity_required.push_back(aff);
    }
    state_.pods.push_back(target);
    for (const char* app : {"db", "cache", "web"}) {
      Pod p = MakePod(app).Namespace("default").Build();
      p.meta.labels = {{"app", app}};
      p.spec.node_name = "n1";
      state_.pods.push_back(p);
    }
    model_.emplace(state_, EngineOptions{});
    queue_.emplace(*model_, QueueOptions{});
  }

  ClusterState state_;
  std::optional<ClusterModel> model_;
  std::optional<SchedulingQueue> queue_;
};

TEST_F(QueueHintTest, InterPodAffinityQueuesOnlyForPodsMatchingItsTerms) {
  Build(/*with_affinity=*/true);
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kInterPodAffinity), At(seconds(0)));
  // Added pods help when they match the affinity terms; deleted ones when they match the
  // anti-affinity terms.
  queue_->OnEvent(ClusterEvent::kAssignedPodAdd, /*subject=*/3_pod, At(seconds(1)));
  queue_->OnEvent(ClusterEvent::kAssignedPodAdd, /*subject=*/1_pod, At(seconds(1)));
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, /*subject=*/3_pod, At(seconds(1)));
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, /*subject=*/2_pod, At(seconds(1)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod));
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, /*subject=*/1_pod, At(seconds(1)));
  EXPECT_FALSE(queue_->IsUnschedulable(0_pod));
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kInterPodAffinity), At(seconds(2)));
  queue_->OnEvent(ClusterEvent::kAssignedPodAdd, /*subject=*/2_pod, At(seconds(3)));
  EXPECT_FALSE(queue_->IsUnschedulable(0_pod));
}

TEST_F(QueueHintTest, WithoutAffinityTermsAnAddedPodNeverHelps) {
  Build(/*with_affinity=*/false);
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kInterPodAffinity), At(seconds(0)));
  for (PodId subject : {1_pod, 2_pod, 3_pod}) queue_->OnEvent(ClusterEvent::kAssignedPodAdd, subject, At(seconds(1)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod));
}

TEST_F(QueueHintTest, NodeResourcesFitQueuesOnAnyDeletionAndNoAddition) {
  Build(/*with_affinity=*/false);
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kNodeResourcesFit), At(seconds(0)));
  for (PodId subject : {1_pod, 2_pod, 3_pod}) queue_->OnEvent(ClusterEvent::kAssignedPodAdd, subject, At(seconds(1)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod));
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, /*subject=*/3_pod, At(seconds(1)));
  EXPECT_FALSE(queue_->IsUnschedulable(0_pod));
}

TEST_F(QueueHintTest, NodeLocalPluginsIgnorePodEvents) {
  Build(/*with_affinity=*/false);
  queue_->AddUnschedulable(0_pod, MaskOf(PluginId::kTaintToleration) | MaskOf(PluginId::kNodeAffinity),
                           At(seconds(0)));
  queue_->OnEvent(ClusterEvent::kAssignedPodDelete, /*subject=*/1_pod, At(seconds(1)));
  queue_->OnEvent(ClusterEvent::kAssignedPodAdd, /*subject=*/2_pod, At(seconds(1)));
  EXPECT_TRUE(queue_->IsUnschedulable(0_pod));
}

}  // namespace
}  // namespace kpsim::engine
