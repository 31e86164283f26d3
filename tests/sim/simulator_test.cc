// Unit tests for the default profile's event loop (src/engine/scheduler.cc) through the public
// `Simulate`: graceful termination of victims, controller replacements, nomination lifecycle,
// the race where a higher-priority pod takes a nominated node, deterministic names, `until`,
// and quiescence.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using kpsim::testing::MakePdb;
using kpsim::testing::MakePod;
using std::chrono::seconds;

SimTime At(SimDuration d) { return SimTime{d}; }

WallTime SecondsAfterOrigin(std::int64_t s) { return WallTime{kOriginUs + s * 1'000'000}; }

class SimulatorTest : public EngineTest {
 protected:
  SimulationResult Run() { return kpsim::Simulate(state, options); }

  static std::vector<SimEvent> Events(const SimulationResult& r, EventReason reason,
                                      std::string_view pod) {
    std::vector<SimEvent> out;
    for (const SimEvent& e : r.events) {
      if (e.reason == reason && e.pod == pod) out.push_back(e);
    }
    return out;
  }
  static const PodOutcome* Outcome(const SimulationResult& r, std::string_view pod) {
    for (const PodOutcome& p : r.pods) {
      if (p.pod == pod) return &p;
    }
    ADD_FAILURE() << "no outcome for " << pod;
    return nullptr;
  }
  static std::vector<const PodOutcome*> Replacements(const SimulationResult& r) {
    std::vector<const PodOutcome*> out;
    for (const PodOutcome& p : r.pods) {
      if (!p.replacement_of.empty()) out.push_back(&p);
    }
    return out;
  }

  // Setup: n1 (1 cpu) runs `lo` (priority 0, 1 cpu, `grace` seconds); `hi` (priority 10, 1 cpu)
  // is pending at time 0.
  void OneVictim(std::int64_t grace, bool owned = false) {
    AddNode(NodeWithCpu("n1", "1").Build());
    auto lo = MakePod("lo").Node("n1").Priority(0).Cpu("1").GracePeriod(grace);
    if (owned) lo.Owner("ReplicaSet", "web");
    AddPod(lo.Build());
    AddPod(MakePod("hi").Priority(10).Cpu("1").Build());
  }
};

TEST_F(SimulatorTest, VictimHoldsItsResourcesForItsGracePeriod) {
  OneVictim(/*grace=*/20);
  const SimulationResult r = Run();
  const auto preempted = Events(r, EventReason::kPreempted, "default/lo");
  ASSERT_EQ(preempted.size(), 1u);
  EXPECT_EQ(preempted[0].time, At(seconds(0)));
  EXPECT_EQ(preempted[0].node, "n1");
  EXPECT_EQ(preempted[0].by, "default/hi");
  EXPECT_FALSE(preempted[0].pdb_violation);
  EXPECT_EQ(preempted[0].message, "Preempted by pod default/hi on node n1");
  const auto nominated = Events(r, EventReason::kNominated, "default/hi");
  ASSERT_EQ(nominated.size(), 1u);
  EXPECT_EQ(nominated[0].node, "n1");
  const auto deleted = Events(r, EventReason::kDeleted, "default/lo");
  ASSERT_EQ(deleted.size(), 1u);
  EXPECT_EQ(deleted[0].time, At(seconds(20)));
  const auto scheduled = Events(r, EventReason::kScheduled, "default/hi");
  ASSERT_EQ(scheduled.size(), 1u);
  EXPECT_EQ(scheduled[0].time, At(seconds(20)));
  EXPECT_EQ(scheduled[0].node, "n1");
  const PodOutcome* hi = Outcome(r, "default/hi");
  ASSERT_NE(hi, nullptr);
  EXPECT_EQ(hi->state, PodState::kRunning);
  EXPECT_EQ(hi->scheduled_at, std::optional<SimTime>(At(seconds(20))));
  EXPECT_TRUE(hi->nominated_node.empty()) << "binding ends the nomination";
  EXPECT_EQ(Outcome(r, "default/lo")->state, PodState::kDeleted);
  EXPECT_EQ(r.stats.victims, 1);
  EXPECT_EQ(r.end_reason, "quiescent");
}

TEST_F(SimulatorTest, FailedSchedulingCarriesThePreemptionMessage) {
  OneVictim(/*grace=*/5);
  const SimulationResult r = Run();
  const auto failed = Events(r, EventReason::kFailedScheduling, "default/hi");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement "
            "for pod on node n1, preempting 1 victims");
}

// The timeline and the outcomes share the model's texts (SharedString) rather than copying a name
// into every event: what keeps a 130,000-node run's result small.
TEST_F(SimulatorTest, EventsAndOutcomesShareTheirNamesAndRepeatedMessages) {
  // Setup: n1 (2 cpu) runs lo1 and lo2 (priority 0, 1 cpu, no grace period); `hi` (priority 10,
  // 2 cpu) preempts both.
  AddNode(NodeWithCpu("n1-with-a-long-name", "2").Build());
  AddPod(MakePod("lo1-with-a-long-name").Node("n1-with-a-long-name").Priority(0).Cpu("1").GracePeriod(0).Build());
  AddPod(MakePod("lo2-with-a-long-name").Node("n1-with-a-long-name").Priority(0).Cpu("1").GracePeriod(0).Build());
  AddPod(MakePod("hi").Priority(10).Cpu("2").Build());
  const SimulationResult r = Run();
  const auto p1 = Events(r, EventReason::kPreempted, "default/lo1-with-a-long-name");
  const auto p2 = Events(r, EventReason::kPreempted, "default/lo2-with-a-long-name");
  const auto d1 = Events(r, EventReason::kDeleted, "default/lo1-with-a-long-name");
  const auto d2 = Events(r, EventReason::kDeleted, "default/lo2-with-a-long-name");
  ASSERT_EQ(p1.size(), 1u);
  ASSERT_EQ(p2.size(), 1u);
  ASSERT_EQ(d1.size(), 1u);
  ASSERT_EQ(d2.size(), 1u);
  EXPECT_EQ(p1[0].message, "Preempted by pod default/hi on node n1-with-a-long-name");
  EXPECT_TRUE(p1[0].message.SharesTextWith(p2[0].message)) << "one preemptor's victims, one message";
  EXPECT_TRUE(p1[0].node.SharesTextWith(p2[0].node)) << "the node's name, held once";
  EXPECT_TRUE(p1[0].pod.SharesTextWith(d1[0].pod)) << "the pod's name, held once";
  EXPECT_EQ(d1[0].message, "terminated after its grace period of 0s");
  EXPECT_TRUE(d1[0].message.SharesTextWith(d2[0].message)) << "equal messages in a row are shared";
  const PodOutcome* lo1 = Outcome(r, "default/lo1-with-a-long-name");
  ASSERT_NE(lo1, nullptr);
  EXPECT_TRUE(lo1->pod.SharesTextWith(p1[0].pod));
  EXPECT_TRUE(lo1->node.SharesTextWith(p1[0].node));
}

TEST_F(SimulatorTest, ZeroGracePeriodFreesTheNodeAtOnce) {
  OneVictim(/*grace=*/0);
  const SimulationResult r = Run();
  const auto scheduled = Events(r, EventReason::kScheduled, "default/hi");
  ASSERT_EQ(scheduled.size(), 1u);
  EXPECT_EQ(scheduled[0].time, At(seconds(0)));
}

TEST_F(SimulatorTest, DefaultGracePeriodIsThirtySeconds) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("lo").Node("n1").Priority(0).Cpu("1").Build());
  AddPod(MakePod("hi").Priority(10).Cpu("1").Build());
  const SimulationResult r = Run();
  const auto scheduled = Events(r, EventReason::kScheduled, "default/hi");
  ASSERT_EQ(scheduled.size(), 1u);
  EXPECT_EQ(scheduled[0].time, At(seconds(30)));
}

TEST_F(SimulatorTest, OwnedVictimIsReplacedByANewPendingPod) {
  OneVictim(/*grace=*/10, /*owned=*/true);
  const SimulationResult r = Run();
  const auto replacements = Replacements(r);
  ASSERT_EQ(replacements.size(), 1u);
  const PodOutcome& rep = *replacements[0];
  EXPECT_EQ(rep.replacement_of, "default/lo");
  EXPECT_TRUE(std::regex_match(rep.pod.string(), std::regex("default/web-[bcdfghjklmnpqrstvwxz2456789]{5}")))
      << rep.pod;
  EXPECT_EQ(rep.priority, 0);
  EXPECT_EQ(rep.state, PodState::kPending) << "no room is left for it";
  const auto created = Events(r, EventReason::kCreated, rep.pod);
  ASSERT_EQ(created.size(), 1u);
  EXPECT_EQ(created[0].time, At(seconds(0))) << "the controller reacts to the deletion at once";
  EXPECT_EQ(created[0].message, "created by its controller to replace preempted pod default/lo");
}

TEST_F(SimulatorTest, ReplacementNameUsesGenerateNameWhenPresent) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("job-7-abcde").GenerateName("job-7-").Owner("Job", "job-7").Node("n1").Priority(0).Cpu("1").Build());
  AddPod(MakePod("hi").Priority(10).Cpu("1").Build());
  const SimulationResult r = Run();
  const auto replacements = Replacements(r);
  ASSERT_EQ(replacements.size(), 1u);
  EXPECT_TRUE(std::regex_match(replacements[0]->pod.string(), std::regex("default/job-7-[a-z0-9]{5}")))
      << replacements[0]->pod;
}

TEST_F(SimulatorTest, BarePodVictimIsNotReplaced) {
  OneVictim(/*grace=*/10, /*owned=*/false);
  const SimulationResult r = Run();
  EXPECT_TRUE(Replacements(r).empty());
  EXPECT_EQ(r.pods.size(), 2u);
}

TEST_F(SimulatorTest, ReplacementNamesAreDeterministicForASeed) {
  OneVictim(/*grace=*/10, /*owned=*/true);
  auto name_for = [&](std::uint64_t seed) {
    options.seed = seed;
    const SimulationResult r = Run();
    const auto replacements = Replacements(r);
    return replacements.size() == 1 ? replacements[0]->pod.string() : std::string();
  };
  const std::string first = name_for(1);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(name_for(1), first);
  bool another_seed_differs = false;
  for (std::uint64_t seed = 2; seed < 6; ++seed) another_seed_differs |= name_for(seed) != first;
  EXPECT_TRUE(another_seed_differs) << "the name does not depend on the seed";
}

TEST_F(SimulatorTest, LowerPriorityNominationsOnTheChosenNodeAreCleared) {
  // Setup: `mid` (5) is nominated to n1 from the snapshot; `hi` (10) preempts there.
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("lo").Node("n1").Priority(0).Cpu("2").GracePeriod(10).Build());
  AddPod(MakePod("mid").Priority(5).Cpu("1").NominatedNode("n1").Build());
  AddPod(MakePod("hi").Priority(10).Cpu("2").Build());
  const SimulationResult r = Run();
  const auto cleared = Events(r, EventReason::kNominated, "default/mid");
  ASSERT_FALSE(cleared.empty());
  EXPECT_EQ(cleared[0].time, At(seconds(0)));
  EXPECT_TRUE(cleared[0].node.empty());
  EXPECT_EQ(cleared[0].message,
            "nomination to node n1 cleared: default/hi (priority 10) preempts there");
  const PodOutcome* mid = Outcome(r, "default/mid");
  ASSERT_NE(mid, nullptr);
  EXPECT_EQ(mid->state, PodState::kPending);
  EXPECT_TRUE(mid->nominated_node.empty());
  EXPECT_EQ(Outcome(r, "default/hi")->node, "n1");
}

// Setup: `p` (10) preempts `lo` (grace 30) on n1 and is nominated; at 5 s `h` (100) arrives.
// Expect: h ignores p's nomination, takes over n1 (lo is already terminating: no second
// Preempted event), p's nomination is cleared, h lands at 30 s and p stays pending.
TEST_F(SimulatorTest, HigherPriorityPodTakesTheNominatedNode) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("lo").Node("n1").Priority(0).Cpu("1").GracePeriod(30).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  AddPod(MakePod("h").Priority(100).Cpu("1").Created(SecondsAfterOrigin(5)).Build());
  const SimulationResult r = Run();
  EXPECT_EQ(Events(r, EventReason::kPreempted, "default/lo").size(), 1u);
  const auto h_nominated = Events(r, EventReason::kNominated, "default/h");
  ASSERT_EQ(h_nominated.size(), 1u);
  EXPECT_EQ(h_nominated[0].time, At(seconds(5)));
  const auto p_nominations = Events(r, EventReason::kNominated, "default/p");
  ASSERT_EQ(p_nominations.size(), 2u);
  EXPECT_EQ(p_nominations[0].node, "n1");
  EXPECT_EQ(p_nominations[1].time, At(seconds(5)));
  EXPECT_TRUE(p_nominations[1].node.empty());
  const auto h_scheduled = Events(r, EventReason::kScheduled, "default/h");
  ASSERT_EQ(h_scheduled.size(), 1u);
  EXPECT_EQ(h_scheduled[0].time, At(seconds(30)));
  const PodOutcome* p = Outcome(r, "default/p");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->state, PodState::kPending);
  EXPECT_TRUE(p->nominated_node.empty());
  EXPECT_TRUE(Events(r, EventReason::kScheduled, "default/p").empty());
}

TEST_F(SimulatorTest, PreemptedEventFlagsPdbViolations) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("lo").Node("n1").Priority(0).Cpu("1").Label("app", "x").GracePeriod(0).Build());
  AddPod(MakePod("hi").Priority(10).Cpu("1").Build());
  AddPdb(MakePdb("pdb").MinAvailable(1).Selector("app", "x").Build());
  const SimulationResult r = Run();
  const auto preempted = Events(r, EventReason::kPreempted, "default/lo");
  ASSERT_EQ(preempted.size(), 1u);
  EXPECT_TRUE(preempted[0].pdb_violation);
}

TEST_F(SimulatorTest, UntilStopsTheRun) {
  OneVictim(/*grace=*/30);
  options.until = seconds(10);
  const SimulationResult r = Run();
  EXPECT_EQ(r.end_reason, "until");
  EXPECT_EQ(r.end_time, At(seconds(10)));
  EXPECT_EQ(Outcome(r, "default/lo")->state, PodState::kTerminating);
  const PodOutcome* hi = Outcome(r, "default/hi");
  ASSERT_NE(hi, nullptr);
  EXPECT_EQ(hi->state, PodState::kPending);
  EXPECT_EQ(hi->nominated_node, "n1");
  for (const SimEvent& e : r.events) EXPECT_LE(e.time, At(seconds(10)));
}

TEST_F(SimulatorTest, ACancelledRunStopsBeforeItsNextAttemptAndSaysSo) {
  OneVictim(/*grace=*/30);
  const std::atomic<bool> cancel{true};
  options.cancel = &cancel;
  const SimulationResult cancelled = Run();
  EXPECT_EQ(cancelled.end_reason, "cancelled");
  EXPECT_EQ(cancelled.stats.scheduling_attempts, 0);
  EXPECT_EQ(Outcome(cancelled, "default/hi")->state, PodState::kPending);
  // A flag that stays down changes nothing.
  const std::atomic<bool> idle{false};
  options.cancel = &idle;
  const SimulationResult with_flag = Run();
  options.cancel = nullptr;
  const SimulationResult without = Run();
  EXPECT_EQ(with_flag.end_reason, "quiescent");
  EXPECT_EQ(with_flag.events.size(), without.events.size());
  EXPECT_EQ(with_flag.stats.scheduling_attempts, without.stats.scheduling_attempts);
}

TEST_F(SimulatorTest, ACancelledBookRunSaysSo) {
  OneVictim(/*grace=*/30);
  options.profile = Profile::kBook;
  const std::atomic<bool> cancel{true};
  options.cancel = &cancel;
  const SimulationResult r = Run();
  EXPECT_EQ(r.end_reason, "cancelled");
  EXPECT_FALSE(r.attempt_cap_reached);
  EXPECT_EQ(r.stats.scheduling_attempts, 0);
}

TEST_F(SimulatorTest, UntilAfterQuiescenceDoesNotExtendTheRun) {
  OneVictim(/*grace=*/3);
  options.until = seconds(100);
  const SimulationResult r = Run();
  EXPECT_EQ(r.end_reason, "quiescent");
  EXPECT_EQ(r.end_time, At(seconds(3)));
}

TEST_F(SimulatorTest, RunEndsWhenOnlyHopelessPodsRemain) {
  AddNode(NodeWithCpu("n1", "4").Taint("k", "v", TaintEffect::kNoSchedule).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const SimulationResult r = Run();
  EXPECT_EQ(r.end_reason, "quiescent");
  EXPECT_EQ(r.end_time, At(seconds(0)));
  const PodOutcome* p = Outcome(r, "default/p");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->state, PodState::kPending);
  EXPECT_EQ(p->reason,
            "0/1 nodes are available: 1 node(s) had untolerated taint {k: v}. preemption: 0/1 "
            "nodes are available: 1 Preemption is not helpful for scheduling.");
  EXPECT_EQ(Events(r, EventReason::kFailedScheduling, "default/p").size(), 1u);
}

TEST_F(SimulatorTest, PodsWithNoNodesEndAtOnceAllPending) {
  // Setup: no node at all; two pods at time 0 and one created at 7 s. Before the error backoffQ
  // was kept apart, SchedulerPopFromBackoffQ popped the failed pods again at once, forever.
  AddPod(MakePod("a").Priority(10).Cpu("1").Build());
  AddPod(MakePod("b").Priority(0).Build());
  AddPod(MakePod("c").Priority(5).Created(SecondsAfterOrigin(7)).Build());
  const SimulationResult r = Run();
  EXPECT_EQ(r.end_reason, "quiescent");
  EXPECT_EQ(r.end_time, At(seconds(7)));
  for (const char* pod : {"default/a", "default/b", "default/c"}) {
    const PodOutcome* p = Outcome(r, pod);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->state, PodState::kPending) << pod;
    // ErrNoNodesAvailable (pkg/scheduler/schedule_one.go), the FailedScheduling message.
    EXPECT_EQ(p->reason, "no nodes available to schedule pods") << pod;
    const auto failed = Events(r, EventReason::kFailedScheduling, pod);
    // Retries (when the clock moves for c's arrival) repeat the same event: one, with a count.
    ASSERT_EQ(failed.size(), 1u) << pod;
    EXPECT_LE(failed[0].count, 2) << pod;
  }
  EXPECT_LE(r.stats.scheduling_attempts, 5);
}

TEST_F(SimulatorTest, RepeatedIdenticalFailuresAreOneEventWithACount) {
  // Setup: `waiter` (priority 0) needs a whole node; n1 and n2 run victims of `hi1`/`hi2`
  // (priority 10) that go at 10 s and 20 s. Each deletion requeues `waiter` (NodeResourcesFit),
  // which fails again with the same message as long as the preemptors take the freed room.
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddPod(MakePod("lo1").Node("n1").Priority(0).Cpu("1").GracePeriod(10).Build());
  AddPod(MakePod("lo2").Node("n2").Priority(0).Cpu("1").GracePeriod(20).Build());
  AddPod(MakePod("hi1").Priority(10).Cpu("1").Build());
  AddPod(MakePod("hi2").Priority(10).Cpu("1").Build());
  AddPod(MakePod("waiter").Priority(0).Cpu("1").Build());
  const SimulationResult r = Run();
  const auto failed = Events(r, EventReason::kFailedScheduling, "default/waiter");
  ASSERT_FALSE(failed.empty());
  std::int64_t total = 0;
  for (std::size_t i = 0; i < failed.size(); ++i) {
    total += failed[i].count;
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(failed[i].message, failed[j].message);
  }
  EXPECT_GT(total, static_cast<std::int64_t>(failed.size()));  // some repeats were folded
  const auto& agg = *std::max_element(failed.begin(), failed.end(), [](const SimEvent& a, const SimEvent& b) {
    return a.count < b.count;
  });
  EXPECT_GT(agg.last_time, agg.time);
  // Every attempt of the pod is counted once.
  std::int64_t attempts = 0;
  for (const SimEvent& e : r.events) {
    if (e.reason == EventReason::kFailedScheduling && e.pod == "default/waiter") attempts += e.count;
  }
  EXPECT_EQ(attempts, total);
}

TEST_F(SimulatorTest, PodLeavingTheClusterRequeuesAPodWaitingForResources) {
  // Setup: `busy` (higher priority, so no preemption) is being deleted and goes at 60 s.
  AddNode(NodeWithCpu("n1", "1").Build());
  Pod busy = MakePod("busy").Node("n1").Priority(100).Cpu("1").Build();
  busy.meta.deletion_timestamp = SecondsAfterOrigin(60);
  AddPod(busy);
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const SimulationResult r = Run();
  const auto scheduled = Events(r, EventReason::kScheduled, "default/p");
  ASSERT_EQ(scheduled.size(), 1u);
  EXPECT_EQ(scheduled[0].time, At(seconds(60)));
}

TEST_F(SimulatorTest, PendingPodsEnterTheQueueAtTheirCreationTimestamp) {
  AddNode(NodeWithCpu("n1", "4").Build());
  AddPod(MakePod("later").Priority(100).Cpu("1").Created(SecondsAfterOrigin(7)).Build());
  AddPod(MakePod("now").Priority(0).Cpu("1").Build());
  const SimulationResult r = Run();
  const auto later = Events(r, EventReason::kScheduled, "default/later");
  const auto now = Events(r, EventReason::kScheduled, "default/now");
  ASSERT_EQ(later.size(), 1u);
  ASSERT_EQ(now.size(), 1u);
  EXPECT_EQ(now[0].time, At(seconds(0)));
  EXPECT_EQ(later[0].time, At(seconds(7)));
  ASSERT_EQ(Events(r, EventReason::kCreated, "default/later").size(), 1u);
}

TEST_F(SimulatorTest, HigherPriorityPendingPodIsScheduledFirst) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("low").Priority(1).Cpu("1").Build());
  AddPod(MakePod("high").Priority(2).Cpu("1").Build());
  const SimulationResult r = Run();
  EXPECT_EQ(Outcome(r, "default/high")->state, PodState::kRunning);
  EXPECT_EQ(Outcome(r, "default/low")->state, PodState::kPending);
  EXPECT_TRUE(Events(r, EventReason::kPreempted, "default/low").empty());
}

TEST_F(SimulatorTest, PendingPodWithDeletionTimestampIsSkipped) {
  AddNode(NodeWithCpu("n1", "1").Build());
  Pod gone = MakePod("gone").Priority(1).Cpu("1").Build();
  gone.meta.deletion_timestamp = SecondsAfterOrigin(0);
  AddPod(gone);
  const SimulationResult r = Run();
  const auto deleted = Events(r, EventReason::kDeleted, "default/gone");
  ASSERT_EQ(deleted.size(), 1u);
  EXPECT_EQ(deleted[0].message, "pod has a deletionTimestamp; the scheduler skips it");
  EXPECT_TRUE(Events(r, EventReason::kScheduled, "default/gone").empty());
}

TEST_F(SimulatorTest, NeverPolicyPodWaitsInsteadOfPreempting) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("lo").Node("n1").Priority(0).Cpu("1").Build());
  AddPod(MakePod("polite").Priority(10).PreemptionPolicy(PreemptionPolicy::kNever).Cpu("1").Build());
  const SimulationResult r = Run();
  EXPECT_TRUE(Events(r, EventReason::kPreempted, "default/lo").empty());
  EXPECT_EQ(Outcome(r, "default/polite")->state, PodState::kPending);
  EXPECT_EQ(r.stats.victims, 0);
}

// Rule 9.2 (GetPodStartTime): a victim without status.startTime counts as starting "now", at
// the moment of evaluation, which makes its node preferable under tie-breaker 5 (rule 11.2.5,
// spec §22 item 12). Setup: a-victim runs on node a from the snapshot without a startTime;
// b-victim is bound to node b by the scheduler at 5 s; the preemptor arrives at 10 s. Both
// victims are otherwise equal. Expect (upstream): a-victim's start is 10 s, later than 5 s, so
// node a is chosen.
// DISABLED: the engine gives snapshot pods without startTime the simulation origin (time 0) as
// their start, so it chooses node b instead. Engine bug report to the lead.
TEST_F(SimulatorTest, VictimWithoutStartTimeCountsAsStartingAtEvaluationTime) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddNode(NodeWithCpu("b", "1").Build());
  AddPod(MakePod("a-victim").Node("a").Priority(1).Cpu("1").GracePeriod(0).Build());
  AddPod(MakePod("b-victim").Priority(1).Cpu("1").Created(SecondsAfterOrigin(5)).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Created(SecondsAfterOrigin(10)).Build());
  const SimulationResult r = Run();
  ASSERT_EQ(Events(r, EventReason::kScheduled, "default/b-victim").size(), 1u);
  EXPECT_EQ(Events(r, EventReason::kScheduled, "default/b-victim")[0].node, "b");
  EXPECT_EQ(Events(r, EventReason::kPreempted, "default/a-victim").size(), 1u);
  EXPECT_TRUE(Events(r, EventReason::kPreempted, "default/b-victim").empty());
}


}  // namespace
}  // namespace kpsim::engine::test
