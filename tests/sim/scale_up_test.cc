// kpsim::SimulateScaleUp (`simulate --scale-up`): the autoscaler's world on small clusters worked
// by hand. Every figure below is computed in the comment above it from the requests, not read
// from kpsim's output.

#include <gtest/gtest.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;
using std::chrono::minutes;
using std::chrono::seconds;

const PodOutcome* Outcome(const SimulationResult& r, std::string_view pod) {
  for (const PodOutcome& p : r.pods) {
    if (p.pod == pod) return &p;
  }
  return nullptr;
}

std::size_t Preempted(const SimulationResult& r) {
  return static_cast<std::size_t>(std::count_if(r.events.begin(), r.events.end(), [](const SimEvent& e) {
    return e.reason == EventReason::kPreempted;
  }));
}

class ScaleUpTest : public EngineTest {
 protected:
  // Two 4-cpu nodes, each full with two 2-cpu pods of priority 10; three pending 3-cpu pods of
  // priority 1000 (1Gi each). Templates: `small` (4 cpu, 16Gi) and `big` (8 cpu, 32Gi).
  void FullCluster() {
    for (const char* n : {"n1", "n2"}) {
      AddNode(MakeNode(n).Cpu("4").Memory("16Gi").Pods(110).Label("kubernetes.io/hostname", n).Build());
      for (int i = 1; i <= 2; ++i) {
        AddPod(MakePod(fmt::format("low-{}-{}", n, i)).Priority(10).Node(n).Cpu("2").Memory("1Gi").Build());
      }
    }
    for (int i = 1; i <= 3; ++i) AddPod(MakePod(fmt::format("high-{}", i)).Priority(1000).Cpu("3").Memory("1Gi").Build());
    scale.templates.push_back(MakeNode("small").Cpu("4").Memory("16Gi").Pods(110).Label("kubernetes.io/hostname", "small").Build());
    scale.templates.push_back(MakeNode("big").Cpu("8").Memory("32Gi").Pods(110).Label("kubernetes.io/hostname", "big").Build());
  }

  ScaleUpRun Run() { return SimulateScaleUp(state, options, scale); }

  ScaleUpOptions scale;
};

// Preempt world: high-1 takes n1 (both lows must go: one back would need 2+3 > 4 cpu), high-2
// takes n2 the same way, high-3 finds 1 cpu free beside each high pod and nobody lower: pending.
// Scale-up world, least-waste: `small` packs one 3-cpu pod per node, 3 nodes: cpu waste
// (12-9)/12 = 0.25, memory (48-3)/48 = 0.9375, 1.1875 in all; `big` packs two per node, 2 nodes:
// cpu (16-9)/16 = 0.4375, memory (64-3)/64 = 0.953125, 1.390625. small wins: 3 nodes, Ready at
// the 2m delay, each high pod placed there at 120s, nobody evicted.
TEST_F(ScaleUpTest, LeastWastePacksAsWorkedByHand) {
  FullCluster();
  const ScaleUpRun run = Run();
  EXPECT_EQ(Preempted(run.report.preempt), 4u);
  ASSERT_NE(Outcome(run.report.preempt, "default/high-3"), nullptr);
  EXPECT_EQ(Outcome(run.report.preempt, "default/high-3")->state, PodState::kPending);

  ASSERT_EQ(run.report.additions.size(), 1u);
  const ScaleUpAddition& add = run.report.additions[0];
  EXPECT_EQ(add.template_name, "small");
  EXPECT_EQ(add.nodes, (std::vector<std::string>{"small-1", "small-2", "small-3"}));
  EXPECT_EQ(add.decided_at, SimTime{});
  EXPECT_EQ(add.ready_at, SimTime(minutes(2)));
  ASSERT_EQ(add.options.size(), 2u);
  EXPECT_EQ(add.options[0].nodes, 3);
  EXPECT_EQ(add.options[0].pods, 3);
  EXPECT_NEAR(add.options[0].waste, 1.1875, 1e-9);
  EXPECT_EQ(add.options[1].nodes, 2);
  EXPECT_EQ(add.options[1].pods, 3);
  EXPECT_NEAR(add.options[1].waste, 1.390625, 1e-9);
  EXPECT_TRUE(run.report.stop.empty()) << run.report.stop;
  EXPECT_EQ(run.report.worlds, 2);

  EXPECT_EQ(Preempted(run.result), 0u);
  std::vector<std::string> nodes;
  for (int i = 1; i <= 3; ++i) {
    const PodOutcome* p = Outcome(run.result, fmt::format("default/high-{}", i));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->state, PodState::kRunning);
    ASSERT_TRUE(p->scheduled_at);
    EXPECT_EQ(*p->scheduled_at, SimTime(minutes(2)));
    nodes.push_back(p->node.string());
  }
  std::sort(nodes.begin(), nodes.end());
  EXPECT_EQ(nodes, (std::vector<std::string>{"small-1", "small-2", "small-3"}));
  // Without preemption the failures carry no PostFilter message (no DefaultPreemption).
  for (const SimEvent& e : run.result.events) {
    if (e.reason == EventReason::kFailedScheduling) {
      EXPECT_EQ(e.message.str().find("preemption"), std::string::npos) << e.message;
    }
  }
}

// most-pods: both groups take all three pods; the random fallback decides, from the seed, and the
// same seed decides the same way.
TEST_F(ScaleUpTest, MostPodsTieGoesToTheSeededFallback) {
  FullCluster();
  scale.expander = Expander::kMostPods;
  std::set<std::string> chosen;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    options.seed = seed;
    const ScaleUpRun a = Run();
    const ScaleUpRun b = Run();
    ASSERT_EQ(a.report.additions.size(), 1u);
    EXPECT_EQ(a.report.additions[0].template_name, b.report.additions[0].template_name);
    EXPECT_EQ(a.report.additions[0].nodes.size(), a.report.additions[0].template_name == "small" ? 3u : 2u);
    chosen.insert(a.report.additions[0].template_name);
  }
  EXPECT_EQ(chosen.size(), 2u) << "eight seeds always chose the same group";
}

// The cap stops the autoscaler: two small nodes take two of the three pods; the third waits.
TEST_F(ScaleUpTest, MaxNewNodesCapsTheAnswer) {
  FullCluster();
  scale.templates.pop_back();  // small only
  scale.max_new_nodes = 2;
  const ScaleUpRun run = Run();
  ASSERT_EQ(run.report.additions.size(), 1u);
  EXPECT_EQ(run.report.additions[0].nodes.size(), 2u);
  EXPECT_EQ(run.report.additions[0].pods.size(), 2u);
  EXPECT_NE(run.report.stop.find("max-new-nodes cap (2)"), std::string::npos) << run.report.stop;
  int pending = 0;
  for (const PodOutcome& p : run.result.pods) pending += p.state == PodState::kPending ? 1 : 0;
  EXPECT_EQ(pending, 1);
}

// A pod no template can take (it asks for a GPU neither has) is named with every group's reason,
// and the others are still served.
TEST_F(ScaleUpTest, PodNoTemplateTakesIsNamedWithTheReasons) {
  FullCluster();
  AddPod(MakePod("trainer").Priority(1000).Cpu("1").Request("nvidia.com/gpu", "1").Build());
  const ScaleUpRun run = Run();
  ASSERT_EQ(run.report.no_template.size(), 1u);
  EXPECT_EQ(run.report.no_template[0].pod, "default/trainer");
  EXPECT_NE(run.report.no_template[0].reason.find("small: Insufficient nvidia.com/gpu"), std::string::npos)
      << run.report.no_template[0].reason;
  EXPECT_NE(run.report.no_template[0].reason.find("big: Insufficient nvidia.com/gpu"), std::string::npos);
  EXPECT_EQ(Outcome(run.result, "default/trainer")->state, PodState::kPending);
  EXPECT_EQ(Outcome(run.result, "default/high-3")->state, PodState::kRunning);
}

// Pods that become unschedulable later are answered by a later loop: high-late is created 5m
// after the others (time 0 is the earliest pending pod), the loop on the 10s grid at 5m picks
// a node, Ready at 7m.
TEST_F(ScaleUpTest, LaterPodsGetALaterLoop) {
  FullCluster();
  for (Pod& p : state.pods) {
    if (p.spec.node_name.empty()) p.meta.creation_timestamp = WallTime{kOriginUs};
  }
  AddPod(MakePod("high-late").Priority(1000).Cpu("3").Memory("1Gi").Created(WallTime{kOriginUs + 300'000'000}).Build());
  scale.templates.pop_back();  // small only
  options.origin.reset();
  const ScaleUpRun run = Run();
  ASSERT_EQ(run.report.additions.size(), 2u);
  EXPECT_EQ(run.report.additions[0].nodes.size(), 3u);
  EXPECT_EQ(run.report.additions[1].decided_at, SimTime(minutes(5)));
  EXPECT_EQ(run.report.additions[1].ready_at, SimTime(minutes(7)));
  EXPECT_EQ(run.report.additions[1].pods, (std::vector<std::string>{"default/high-late"}));
  const PodOutcome* late = Outcome(run.result, "default/high-late");
  ASSERT_NE(late, nullptr);
  EXPECT_EQ(late->state, PodState::kRunning);
  EXPECT_EQ(late->scheduled_at, SimTime(minutes(7)));
}

// The autoscaler's loop does not wait for earlier nodes: b fails at 30s while a's node (decided
// at 0) is still provisioning; the loop at 30s asks for b, Ready at 150s. And a pod no group
// takes (huge) does not stop the loop from serving a later one.
TEST_F(ScaleUpTest, EachLoopServesThePodsItSeesAndUnhelpablePodsDoNotBlockLaterOnes) {
  AddNode(MakeNode("n1").Cpu("1").Memory("4Gi").Pods(110).Build());
  AddPod(MakePod("huge").Priority(1000).Cpu("64").Created(WallTime{kOriginUs}).Build());
  AddPod(MakePod("a").Priority(1000).Cpu("3").Created(WallTime{kOriginUs}).Build());
  AddPod(MakePod("b").Priority(1000).Cpu("3").Created(WallTime{kOriginUs + 30'000'000}).Build());
  scale.templates.push_back(MakeNode("pool").Cpu("4").Memory("8Gi").Pods(110).Build());
  options.origin.reset();
  const ScaleUpRun run = Run();
  ASSERT_EQ(run.report.no_template.size(), 1u);
  EXPECT_EQ(run.report.no_template[0].pod, "default/huge");
  ASSERT_EQ(run.report.additions.size(), 2u);
  EXPECT_EQ(run.report.additions[0].decided_at, SimTime{});
  EXPECT_EQ(run.report.additions[0].pods, (std::vector<std::string>{"default/a"}));
  EXPECT_EQ(run.report.additions[1].decided_at, SimTime(seconds(30)));
  EXPECT_EQ(run.report.additions[1].pods, (std::vector<std::string>{"default/b"}));
  EXPECT_EQ(Outcome(run.result, "default/b")->scheduled_at, SimTime(seconds(150)));
  EXPECT_TRUE(run.report.stop.empty()) << run.report.stop;
}

// The estimate does not see the pods already running, the scheduler does: web must not share
// zone a with db, and the template is in zone a. The estimate opens a node, the scheduler
// refuses it, and the autoscaler stops rather than adding nodes that help nobody.
TEST_F(ScaleUpTest, NodesThatHelpNobodyStopTheLoop) {
  AddNode(MakeNode("n1").Cpu("2").Memory("4Gi").Pods(110).Label("kubernetes.io/hostname", "n1").Label("zone", "a").Build());
  AddPod(MakePod("db").Priority(10).Node("n1").Cpu("1").Label("app", "db").Build());
  Pod web = MakePod("web").Priority(1000).Cpu("3").Build();
  PodAffinityTerm term;
  term.label_selector = LabelSelector{{{"app", "db"}}, {}};
  term.topology_key = "zone";
  web.spec.affinity.pod_anti_affinity_required.push_back(term);
  AddPod(web);
  scale.templates.push_back(MakeNode("zone-a").Cpu("4").Memory("8Gi").Pods(110).Label("zone", "a").Build());
  const ScaleUpRun run = Run();
  ASSERT_EQ(run.report.additions.size(), 1u);
  EXPECT_NE(run.report.stop.find("placed none of the 1 pod(s)"), std::string::npos) << run.report.stop;
  EXPECT_EQ(Outcome(run.result, "default/web")->state, PodState::kPending);
  EXPECT_EQ(run.report.worlds, 2);
}

// The new nodes carry their own hostname (topology by hostname must see distinct nodes) and the
// run is the same twice.
TEST_F(ScaleUpTest, NewNodesAreDistinctAndTheRunDeterministic) {
  FullCluster();
  const ScaleUpRun a = Run();
  const ScaleUpRun b = Run();
  ASSERT_EQ(a.world.steps.size(), 3u);
  for (const TimedStep& t : a.world.steps) {
    const Node& n = std::get<Node>(t.step.object->value);
    EXPECT_EQ(*FindLabel(n.meta.labels, "kubernetes.io/hostname"), n.meta.name);
  }
  ASSERT_EQ(a.result.events.size(), b.result.events.size());
  for (std::size_t i = 0; i < a.result.events.size(); ++i) {
    EXPECT_EQ(a.result.events[i].message, b.result.events[i].message);
    EXPECT_EQ(a.result.events[i].time, b.result.events[i].time);
  }
}

}  // namespace
}  // namespace kpsim::engine::test
