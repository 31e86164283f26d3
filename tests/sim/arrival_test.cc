// `EngineOptions::arrival`: `--arrival sequential` applies pods one apply after another, the
// scheduler settling in between (default and book profiles, simulate and explain); and
// StatefulSet replacements, which keep their victim's name.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine.h"
#include "kpsim/engine_options.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using kpsim::testing::MakePod;
using std::chrono::seconds;

class ArrivalTest : public EngineTest {
 protected:
  SimulationResult Run(Arrival arrival, Profile profile = Profile::kDefault) {
    options.arrival = arrival;
    options.profile = profile;
    return kpsim::Simulate(state, options);
  }
  static std::vector<SimEvent> Events(const SimulationResult& r, EventReason reason, std::string_view pod) {
    std::vector<SimEvent> out;
    for (const SimEvent& e : r.events) {
      if (e.reason == reason && e.pod == pod) out.push_back(e);
    }
    return out;
  }
  static std::size_t Count(const SimulationResult& r, EventReason reason) {
    std::size_t n = 0;
    for (const SimEvent& e : r.events) n += e.reason == reason ? 1 : 0;
    return n;
  }
  static const PodOutcome& Outcome(const SimulationResult& r, std::string_view pod) {
    for (const PodOutcome& p : r.pods) {
      if (p.pod == pod) return p;
    }
    static const PodOutcome kNone;
    ADD_FAILURE() << "no outcome for " << pod;
    return kNone;
  }

  // One 2-cpu node; `low` (priority 100, 2 cpu) then `high` (priority 1000, 2 cpu), both pending.
  void LowThenHigh(std::int64_t low_grace = 30) {
    AddNode(NodeWithCpu("n1", "2").Build());
    AddPod(MakePod("low").Priority(100).Cpu("2").GracePeriod(low_grace).Build());
    AddPod(MakePod("high").Priority(1000).Cpu("2").Build());
  }
};

TEST_F(ArrivalTest, TogetherSchedulesTheHigherPriorityFirst) {
  LowThenHigh();
  const SimulationResult r = Run(Arrival::kTogether);
  EXPECT_EQ(Outcome(r, "default/high").state, PodState::kRunning);
  EXPECT_EQ(Outcome(r, "default/low").state, PodState::kPending);
  EXPECT_EQ(Count(r, EventReason::kPreempted), 0u);
  EXPECT_EQ(Count(r, EventReason::kCreated), 0u);
}

TEST_F(ArrivalTest, SequentialAppliesLowThenHighAndHighPreemptsLow) {
  LowThenHigh();
  const SimulationResult r = Run(Arrival::kSequential);
  const auto low_created = Events(r, EventReason::kCreated, "default/low");
  ASSERT_EQ(low_created.size(), 1u);
  EXPECT_EQ(low_created[0].message,
            "applied (apply 1 of 2, --arrival sequential); it enters the scheduling queue");
  ASSERT_EQ(Events(r, EventReason::kScheduled, "default/low").size(), 1u);
  const auto preempted = Events(r, EventReason::kPreempted, "default/low");
  ASSERT_EQ(preempted.size(), 1u);
  EXPECT_EQ(preempted[0].by, "default/high");
  // The order in the timeline: low applied and bound before high arrives.
  std::vector<std::string> order;
  for (const SimEvent& e : r.events) order.push_back(std::string(EventReasonName(e.reason)) + " " + e.pod.string());
  ASSERT_GE(order.size(), 4u);
  EXPECT_EQ(order[0], "Created default/low");
  EXPECT_EQ(order[1], "Scheduled default/low");
  EXPECT_EQ(order[2], "Created default/high");
  const auto high_bound = Events(r, EventReason::kScheduled, "default/high");
  ASSERT_EQ(high_bound.size(), 1u);
  EXPECT_EQ(high_bound[0].time, SimTime{seconds(30)});
  EXPECT_EQ(Outcome(r, "default/low").state, PodState::kDeleted);
}

TEST_F(ArrivalTest, ConsecutivePodsOfOneControllerArriveAsOneApply) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("web-1").Owner("ReplicaSet", "web").Priority(100).Cpu("1").Build());
  AddPod(MakePod("web-2").Owner("ReplicaSet", "web").Priority(100).Cpu("1").Build());
  AddPod(MakePod("bare").Priority(100).Cpu("1").Build());
  const SimulationResult r = Run(Arrival::kSequential);
  for (const char* pod : {"default/web-1", "default/web-2"}) {
    const auto created = Events(r, EventReason::kCreated, pod);
    ASSERT_EQ(created.size(), 1u) << pod;
    EXPECT_NE(created[0].message.str().find("apply 1 of 2"), std::string::npos) << created[0].message;
  }
  const auto bare = Events(r, EventReason::kCreated, "default/bare");
  ASSERT_EQ(bare.size(), 1u);
  EXPECT_NE(bare[0].message.str().find("apply 2 of 2"), std::string::npos);
}

TEST_F(ArrivalTest, TheNextApplyWaitsForTerminationsInFlight) {
  LowThenHigh(/*low_grace=*/20);
  AddPod(MakePod("mid").Priority(500).Cpu("1").Build());
  const SimulationResult r = Run(Arrival::kSequential);
  const auto mid = Events(r, EventReason::kCreated, "default/mid");
  ASSERT_EQ(mid.size(), 1u);
  EXPECT_EQ(mid[0].time, SimTime{seconds(20)}) << "after low's 20s grace period and high's bind";
  const auto high = Events(r, EventReason::kScheduled, "default/high");
  ASSERT_EQ(high.size(), 1u);
  EXPECT_EQ(high[0].time, SimTime{seconds(20)});
  EXPECT_EQ(Outcome(r, "default/mid").state, PodState::kPending);
  EXPECT_EQ(Count(r, EventReason::kPreempted), 1u) << "mid cannot preempt high";
}

TEST_F(ArrivalTest, PodsWithACreationTimestampKeepTheirTime) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("later").Priority(1000).Cpu("2").Created(WallTime{kOriginUs + 50'000'000}).Build());
  AddPod(MakePod("now").Priority(100).Cpu("2").Build());
  const SimulationResult r = Run(Arrival::kSequential);
  const auto later = Events(r, EventReason::kCreated, "default/later");
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0].time, SimTime{seconds(50)});
  EXPECT_EQ(later[0].message, "pod created; it enters the scheduling queue");
  const auto now = Events(r, EventReason::kCreated, "default/now");
  ASSERT_EQ(now.size(), 1u);
  EXPECT_EQ(now[0].time, SimTime{});
  EXPECT_NE(now[0].message.str().find("apply 1 of 1"), std::string::npos);
  EXPECT_EQ(Events(r, EventReason::kPreempted, "default/now").size(), 1u);
}

TEST_F(ArrivalTest, StatefulSetReplacementKeepsTheNameOnceTheVictimIsGone) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("db-0").Owner("StatefulSet", "db").Node("n1").Priority(0).Cpu("1").GracePeriod(10).Build());
  AddPod(MakePod("hi").Priority(10).Cpu("1").Build());
  const SimulationResult r = Run(Arrival::kTogether);
  const auto created = Events(r, EventReason::kCreated, "default/db-0");
  ASSERT_EQ(created.size(), 1u);
  EXPECT_EQ(created[0].time, SimTime{seconds(10)}) << "created only after the old db-0 is deleted";
  ASSERT_EQ(r.pods.size(), 3u);
  EXPECT_EQ(r.pods[0].pod, "default/db-0");
  EXPECT_EQ(r.pods[0].state, PodState::kDeleted);
  EXPECT_EQ(r.pods[2].pod, "default/db-0");
  EXPECT_EQ(r.pods[2].replacement_of, "default/db-0");
  EXPECT_EQ(r.pods[2].state, PodState::kPending);
}

TEST_F(ArrivalTest, ExplainUnderSequentialSeesTheEarlierApplies) {
  LowThenHigh();
  options.arrival = Arrival::kTogether;
  Expected<ExplainResult> together = kpsim::Explain(state, options, "high");
  ASSERT_TRUE(together.ok());
  EXPECT_TRUE(together->fits_node.has_value());
  options.arrival = Arrival::kSequential;
  Expected<ExplainResult> sequential = kpsim::Explain(state, options, "high");
  ASSERT_TRUE(sequential.ok());
  EXPECT_FALSE(sequential->fits_node.has_value());
  ASSERT_TRUE(sequential->chosen.has_value()) << sequential->message;
  EXPECT_EQ(sequential->chosen->node, "n1");
  EXPECT_EQ(sequential->chosen->victims, (std::vector<std::string>{"default/low"}));
}

TEST_F(ArrivalTest, BookProfileAppliesSequentiallyToo) {
  LowThenHigh();
  const SimulationResult together = Run(Arrival::kTogether, Profile::kBook);
  EXPECT_EQ(Count(together, EventReason::kPreempted), 0u);
  const SimulationResult sequential = Run(Arrival::kSequential, Profile::kBook);
  const auto preempted = Events(sequential, EventReason::kPreempted, "default/low");
  ASSERT_EQ(preempted.size(), 1u);
  EXPECT_EQ(preempted[0].by, "default/high");
  EXPECT_EQ(Outcome(sequential, "default/high").state, PodState::kRunning);
  EXPECT_TRUE(sequential.warnings.empty());
  // The chapter's explain table is of time 0 only: said, not silently ignored.
  options.arrival = Arrival::kSequential;
  Expected<ExplainResult> explained = kpsim::Explain(state, options, "high");
  ASSERT_TRUE(explained.ok());
  ASSERT_EQ(explained->warnings.size(), 1u);
  EXPECT_EQ(explained->warnings[0].code, "FlagIgnored");
}

TEST_F(ArrivalTest, SequentialIsDeterministic) {
  LowThenHigh();
  AddPod(MakePod("w1").Owner("ReplicaSet", "w").Priority(50).Cpu("1").Build());
  AddPod(MakePod("w2").Owner("ReplicaSet", "w").Priority(50).Cpu("1").Build());
  const SimulationResult a = Run(Arrival::kSequential);
  const SimulationResult b = Run(Arrival::kSequential);
  ASSERT_EQ(a.events.size(), b.events.size());
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    EXPECT_EQ(a.events[i].pod, b.events[i].pod);
    EXPECT_EQ(a.events[i].message, b.events[i].message);
    EXPECT_EQ(a.events[i].time, b.events[i].time);
  }
}


}  // namespace
}  // namespace kpsim::engine::test
