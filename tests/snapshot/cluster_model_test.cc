// Unit tests for ClusterModel (src/engine/cluster.h): PodDisruptionBudget accounting (computed
// from minAvailable/maxUnavailable, or taken from a snapshot's status and kept current), node
// order (kube-scheduler's node tree: zones round-robin) and the per-node aggregates.

#include "snapshot/cluster.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using namespace kpsim::engine::id_literals;  // NOLINT(google-build-using-namespace)

using kpsim::testing::MakeNode;
using kpsim::testing::MakePdb;
using kpsim::testing::MakeCompositePodGroup;
using kpsim::testing::MakePod;
using kpsim::testing::MakePodGroup;
using kpsim::testing::PdbBuilder;

// ----------------------------------------------------------------------------------------------
// disruptionsAllowed computed from the spec.

struct PdbCase {
  std::string_view name;
  PodDisruptionBudget pdb;
  int running;  // matching running pods
  int pending;  // matching pending pods
  int expected_allowed;
};

void PrintTo(const PdbCase& c, std::ostream* os) { *os << c.name; }

PodDisruptionBudget Pdb(PdbBuilder b) { return b.Selector("app", "x").Build(); }

const std::vector<PdbCase>& PdbCases() {
  static const std::vector<PdbCase> cases = {
      {"MinAvailableInt", Pdb(MakePdb("b").MinAvailable(2)), 3, 0, 1},
      {"MinAvailableAboveHealthyIsZeroNotNegative", Pdb(MakePdb("b").MinAvailable(5)), 3, 0, 0},
      {"MinAvailablePercentRoundsUp", Pdb(MakePdb("b").MinAvailablePercent(50)), 3, 0, 1},
      {"MinAvailableSmallPercentRoundsUp", Pdb(MakePdb("b").MinAvailablePercent(34)), 3, 0, 1},
      {"MinAvailableHundredPercent", Pdb(MakePdb("b").MinAvailablePercent(100)), 4, 0, 0},
      {"MinAvailableZeroPercent", Pdb(MakePdb("b").MinAvailablePercent(0)), 4, 0, 4},
      {"MaxUnavailableInt", Pdb(MakePdb("b").MaxUnavailable(1)), 3, 0, 1},
      {"MaxUnavailableZero", Pdb(MakePdb("b").MaxUnavailable(0)), 3, 0, 0},
      {"MaxUnavailablePercentRoundsUp", Pdb(MakePdb("b").MaxUnavailablePercent(50)), 3, 0, 2},
      {"MaxUnavailableSmallPercentRoundsUp", Pdb(MakePdb("b").MaxUnavailablePercent(10)), 3, 0, 1},
      {"PendingPodsAreExpectedButNotHealthy", Pdb(MakePdb("b").MaxUnavailable(1)), 2, 1, 0},
      {"PendingPodsDoNotCountTowardsMinAvailable", Pdb(MakePdb("b").MinAvailable(2)), 2, 1, 0},
      {"NoMatchingPods", Pdb(MakePdb("b").MinAvailable(1)), 0, 0, 0},
  };
  return cases;
}

class PdbDisruptionsAllowedTest : public ::testing::TestWithParam<PdbCase> {};

TEST_P(PdbDisruptionsAllowedTest, ComputedFromTheSpec) {
  const PdbCase& c = GetParam();
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("100").Pods(110).Build());
  for (int i = 0; i < c.running; ++i) {
    state.pods.push_back(Admitted(MakePod("run-" + std::to_string(i)).Node("n1").Label("app", "x").Build()));
  }
  for (int i = 0; i < c.pending; ++i) {
    state.pods.push_back(Admitted(MakePod("pend-" + std::to_string(i)).Label("app", "x").Build()));
  }
  state.pods.push_back(Admitted(MakePod("unrelated").Node("n1").Label("app", "y").Build()));
  PodDisruptionBudget pdb = c.pdb;
  pdb.meta.namespace_ = "default";
  state.pdbs.push_back(pdb);
  const ClusterModel model(state, EngineOptions{});
  EXPECT_EQ(model.pdb(0_pdb).DisruptionsAllowed(), c.expected_allowed);
}

INSTANTIATE_TEST_SUITE_P(Cases, PdbDisruptionsAllowedTest, ::testing::ValuesIn(PdbCases()),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// ----------------------------------------------------------------------------------------------
// Live PDB accounting.

class ClusterModelTest : public ::testing::Test {
 protected:
  // Setup: three running app=x pods owned by a ReplicaSet on n1, and `pdb`.
  void Build(PodDisruptionBudget pdb) {
    state_.nodes.push_back(MakeNode("n1").Cpu("100").Pods(110).Build());
    for (int i = 0; i < 3; ++i) {
      state_.pods.push_back(Admitted(
          MakePod("x-" + std::to_string(i)).Node("n1").Label("app", "x").Owner("ReplicaSet", "x").Build()));
    }
    pdb.meta.namespace_ = "default";
    state_.pdbs.push_back(pdb);
    model_.emplace(state_, EngineOptions{});
  }
  int Allowed() const { return model_->pdb(0_pdb).DisruptionsAllowed(); }

  ClusterState state_;
  std::optional<ClusterModel> model_;
};

TEST_F(ClusterModelTest, GivenDisruptionsAllowedIsTheStartingPoint) {
  // minAvailable 1 of 3 would allow 2; the snapshot's status says 0.
  Build(MakePdb("b").MinAvailable(1).DisruptionsAllowed(0).Selector("app", "x").Build());
  EXPECT_EQ(Allowed(), 0);
}

TEST_F(ClusterModelTest, GivenDisruptionsAllowedFollowsPodsComingAndGoing) {
  Build(MakePdb("b").MinAvailable(1).DisruptionsAllowed(1).Selector("app", "x").Build());
  EXPECT_EQ(Allowed(), 1);
  model_->MarkTerminating(0_pod, /*by_preemption=*/true);
  EXPECT_EQ(Allowed(), 0);
  model_->Remove(0_pod, SimTime{std::chrono::seconds(30)});
  EXPECT_EQ(Allowed(), 0);
  const PodId replacement = model_->AddReplacement(0_pod, "x-new", SimTime{std::chrono::seconds(30)});
  EXPECT_EQ(Allowed(), 0) << "a pending replacement is not healthy yet";
  model_->Bind(replacement, 0_node, SimTime{std::chrono::seconds(31)});
  EXPECT_EQ(Allowed(), 1);
}

TEST_F(ClusterModelTest, ComputedBudgetDropsWhileAReplacedVictimTerminates) {
  // maxUnavailable 1 of 3: one disruption allowed; the victim's replacement keeps the expected
  // count at 3 while the victim terminates, so no further disruption is allowed.
  Build(MakePdb("b").MaxUnavailable(1).Selector("app", "x").Build());
  EXPECT_EQ(Allowed(), 1);
  model_->MarkTerminating(0_pod, /*by_preemption=*/true);
  model_->AddReplacement(0_pod, "x-new", SimTime{});
  EXPECT_EQ(Allowed(), 0);
}

TEST_F(ClusterModelTest, EveryPdbChangeBumpsThePdbGeneration) {
  Build(MakePdb("b").MinAvailable(1).Selector("app", "x").Build());
  const std::uint64_t before = model_->pdb_generation();
  model_->MarkTerminating(1_pod, /*by_preemption=*/true);
  EXPECT_GT(model_->pdb_generation(), before);
}

// maxUnavailable 1 of 3: a victim that starts terminating leaves disruptionsAllowed at 1 (the
// expected count drops with it); its pending replacement takes it to 0, binding it back to 1.
// Expect: the PDB change log records the two changes only, and the PDB's pods include the
// replacement.
TEST_F(ClusterModelTest, PdbChangeLogRecordsChangesOfDisruptionsAllowedOnly) {
  Build(MakePdb("b").MaxUnavailable(1).Selector("app", "x").Build());
  const std::size_t start = model_->pdb_change_log().size();
  model_->MarkTerminating(0_pod, /*by_preemption=*/true);
  EXPECT_EQ(Allowed(), 1);
  EXPECT_EQ(model_->pdb_change_log().size(), start);
  const PodId replacement = model_->AddReplacement(0_pod, "x-new", SimTime{});
  EXPECT_EQ(Allowed(), 0);
  ASSERT_EQ(model_->pdb_change_log().size(), start + 1);
  EXPECT_EQ(model_->pdb_change_log().back(), 0_pdb);
  model_->Bind(replacement, 0_node, SimTime{std::chrono::seconds(1)});
  EXPECT_EQ(Allowed(), 1);
  EXPECT_EQ(model_->pdb_change_log().size(), start + 2);
  EXPECT_EQ(model_->pdb_pods(0_pdb), (std::vector<PodId>{0_pod, 1_pod, 2_pod, replacement}));
}

TEST(ClusterModelPdbMatchingTest, PdbSelectsPodsOfItsNamespaceWithLabelsOnly) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("100").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("same").Node("n1").Label("app", "x").Build()));
  state.pods.push_back(Admitted(MakePod("other-ns").Namespace("other").Node("n1").Label("app", "x").Build()));
  state.pods.push_back(Admitted(MakePod("bare").Node("n1").Build()));
  PodDisruptionBudget pdb = MakePdb("b").MinAvailable(1).Build();
  pdb.meta.namespace_ = "default";
  pdb.selector = LabelSelector{{}, {LabelSelectorRequirement{"app", SelectorOperator::kNotIn, {"y"}}}};
  state.pdbs.push_back(pdb);
  PodDisruptionBudget empty = MakePdb("empty").MinAvailable(1).Build();
  empty.meta.namespace_ = "default";
  empty.selector = LabelSelector{};
  state.pdbs.push_back(empty);
  const ClusterModel model(state, EngineOptions{});
  EXPECT_EQ(model.pod(0_pod).pdbs, std::vector<PdbId>{0_pdb});
  EXPECT_TRUE(model.pod(1_pod).pdbs.empty());
  EXPECT_TRUE(model.pod(2_pod).pdbs.empty()) << "pods without labels are never selected";
  EXPECT_EQ(model.pdb(0_pdb).healthy, 1);
  EXPECT_EQ(model.pdb(1_pdb).healthy, 0) << "an empty selector selects nothing";
}

// ----------------------------------------------------------------------------------------------
// Node order.

std::vector<std::string> OrderedNames(const ClusterModel& model) {
  std::vector<std::string> out;
  for (NodeId id : model.node_order()) out.push_back(model.node(id).name.string());
  return out;
}

Node InZone(std::string name, std::string region, std::string zone) {
  auto b = MakeNode(std::move(name)).Cpu("1").Pods(110);
  if (!region.empty()) b.Label("topology.kubernetes.io/region", std::move(region));
  if (!zone.empty()) b.Label("topology.kubernetes.io/zone", std::move(zone));
  return b.Build();
}

TEST(ClusterModelNodeOrderTest, TakesOneNodeOfEachZoneInTurn) {
  ClusterState state;
  for (const auto& [name, zone] : std::vector<std::pair<std::string, std::string>>{
           {"a1", "a"}, {"a2", "a"}, {"b1", "b"}, {"a3", "a"}, {"b2", "b"}, {"c1", "c"}}) {
    state.nodes.push_back(InZone(name, "r", zone));
  }
  const ClusterModel model(state, EngineOptions{});
  EXPECT_EQ(OrderedNames(model), (std::vector<std::string>{"a1", "b1", "c1", "a2", "b2", "a3"}));
  for (std::size_t pos = 0; pos < model.node_order().size(); ++pos) {
    EXPECT_EQ(model.order_position(model.node_order()[pos]), static_cast<std::int32_t>(pos));
  }
}

TEST(ClusterModelNodeOrderTest, SameZoneNameInAnotherRegionIsAnotherZone) {
  ClusterState state;
  state.nodes.push_back(InZone("r1-z-0", "r1", "z"));
  state.nodes.push_back(InZone("r1-z-1", "r1", "z"));
  state.nodes.push_back(InZone("r2-z-0", "r2", "z"));
  state.nodes.push_back(InZone("unzoned-0", "", ""));
  state.nodes.push_back(InZone("unzoned-1", "", ""));
  const ClusterModel model(state, EngineOptions{});
  EXPECT_EQ(OrderedNames(model),
            (std::vector<std::string>{"r1-z-0", "r2-z-0", "unzoned-0", "r1-z-1", "unzoned-1"}));
}

TEST(ClusterModelNodeOrderTest, WithoutZonesNodeOrderIsInputOrder) {
  ClusterState state;
  for (const char* name : {"c", "a", "b"}) state.nodes.push_back(InZone(name, "", ""));
  const ClusterModel model(state, EngineOptions{});
  EXPECT_EQ(OrderedNames(model), (std::vector<std::string>{"c", "a", "b"}));
}

// A Scenario step that applies `node` at `at_s` seconds.
TimedStep ApplyNodeStep(Node node, std::int64_t at_s) {
  TimedStep timed;
  timed.scenario = "s";
  timed.step.at_us = at_s * 1'000'000;
  timed.step.action = StepAction::kApply;
  Object object;
  object.kind = ObjectKind::kNode;
  object.value = std::move(node);
  timed.step.object = std::move(object);
  return timed;
}

TEST(ClusterModelNodeOrderTest, NodesAStepAddsAreAbsentUntilAddedThenJoinTheEndOfTheirZone) {
  ClusterState state;
  state.nodes.push_back(InZone("a1", "r", "a"));
  state.nodes.push_back(InZone("b1", "r", "b"));
  state.steps.push_back(ApplyNodeStep(InZone("a2", "r", "a"), 10));
  state.steps.push_back(ApplyNodeStep(InZone("c1", "r", "c"), 20));
  state.pods.push_back(Admitted(MakePod("early").Node("a2").Cpu("100m").Build()));
  ClusterModel model(state, EngineOptions{});
  ASSERT_EQ(model.nodes().size(), 4u) << "every node a step applies has an id from the start";
  EXPECT_EQ(OrderedNames(model), (std::vector<std::string>{"a1", "b1"}));
  EXPECT_FALSE(model.FindNode("a2").has_value()) << "an absent node is not in the cluster";
  ASSERT_TRUE(model.FindAnyNode("a2").has_value());
  EXPECT_EQ(model.pod(0_pod).node, kNoId) << "a pod bound to a node not there yet runs nowhere";

  const std::uint64_t set_generation = model.node_set_generation();
  model.AddNode(*model.FindAnyNode("c1"), InZone("c1", "r", "c"));
  EXPECT_EQ(OrderedNames(model), (std::vector<std::string>{"a1", "b1", "c1"}));
  model.AddNode(*model.FindAnyNode("a2"), InZone("a2", "r", "a"));
  EXPECT_EQ(OrderedNames(model), (std::vector<std::string>{"a1", "b1", "c1", "a2"}));
  EXPECT_GT(model.node_set_generation(), set_generation);
  EXPECT_EQ(model.pod(0_pod).node, *model.FindNode("a2")) << "its pods bound by spec.nodeName start on it";
  EXPECT_EQ(model.node(*model.FindNode("a2")).requested.milli_cpu, 100);
  for (std::size_t pos = 0; pos < model.node_order().size(); ++pos) {
    EXPECT_EQ(model.order_position(model.node_order()[pos]), static_cast<std::int32_t>(pos));
  }

  // Deleting b1 empties zone b: nodeTree drops the zone.
  const NodeId b1 = *model.FindNode("b1");
  model.RemoveNode(b1);
  EXPECT_EQ(OrderedNames(model), (std::vector<std::string>{"a1", "c1", "a2"}));
  EXPECT_EQ(model.order_position(b1), -1);
  EXPECT_FALSE(model.FindNode("b1").has_value());
  // Back again: zone b is now the last zone.
  model.AddNode(b1, InZone("b1", "r", "b"));
  EXPECT_EQ(OrderedNames(model), (std::vector<std::string>{"a1", "c1", "b1", "a2"}));
}

TEST(ClusterModelNodeOrderTest, ANodeWhoseZoneChangesMovesToTheEndOfItsNewZone) {
  ClusterState state;
  for (const auto& [name, zone] : std::vector<std::pair<std::string, std::string>>{
           {"a1", "a"}, {"a2", "a"}, {"b1", "b"}}) {
    state.nodes.push_back(InZone(name, "r", zone));
  }
  ClusterModel model(state, EngineOptions{});
  model.UpdateNode(*model.FindNode("a1"), InZone("a1", "r", "b"));
  EXPECT_EQ(OrderedNames(model), (std::vector<std::string>{"a2", "b1", "a1"}));
}

// ----------------------------------------------------------------------------------------------
// Pods and aggregates.

TEST(ClusterModelPodsTest, BoundPodsAddUpOnTheirNodeEvenWhenOverCommitted) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("1").Memory("1Gi").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("a").Node("n1").Cpu("800m").Memory("1Gi").Build()));
  state.pods.push_back(Admitted(MakePod("b").Node("n1").Cpu("800m").Build()));
  state.pods.push_back(Admitted(MakePod("pending").Cpu("1").Build()));
  ClusterModel model(state, EngineOptions{});
  const NodeInfo& n = model.node(0_node);
  EXPECT_EQ(n.requested.milli_cpu, 1600);
  EXPECT_EQ(n.requested.memory, std::int64_t{1} << 30);
  EXPECT_EQ(n.requested.pods, 2);
  EXPECT_EQ(n.pods, (std::vector<PodId>{0_pod, 1_pod}));
  EXPECT_EQ(model.pod(2_pod).state, PodState::kPending);
  model.Remove(0_pod, SimTime{});
  EXPECT_EQ(model.node(0_node).requested.milli_cpu, 800);
  EXPECT_EQ(model.node(0_node).requested.pods, 1);
}

TEST(ClusterModelPodsTest, DefaultsOfAPodInfo) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("1").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("plain").Build()));
  state.pods.push_back(Admitted(MakePod("graceful").Uid("u-1").GracePeriod(5).Cpu("250m").Build()));
  const ClusterModel model(state, EngineOptions{});
  const PodInfo& plain = model.pod(0_pod);
  EXPECT_EQ(plain.key, "default/plain");
  EXPECT_EQ(plain.uid(), "default/plain");
  EXPECT_EQ(plain.grace_us, 30'000'000) << "terminationGracePeriodSeconds defaults to 30";
  EXPECT_EQ(plain.request.pods, 1);
  EXPECT_EQ(plain.nonzero_cpu, 100) << "scoring counts a zero cpu request as 100m";
  EXPECT_EQ(plain.nonzero_memory, 200 * 1024 * 1024);
  const PodInfo& graceful = model.pod(1_pod);
  EXPECT_EQ(graceful.uid(), "u-1");
  EXPECT_EQ(graceful.grace_us, 5'000'000);
  EXPECT_EQ(graceful.nonzero_cpu, 250);
}

TEST(ClusterModelPodsTest, TerminalPodsAreGoneAndHoldNothing) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("1").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("done").Node("n1").Cpu("1").Phase("Succeeded").Build()));
  state.pods.push_back(Admitted(MakePod("failed").Node("n1").Cpu("1").Phase("Failed").Build()));
  const ClusterModel model(state, EngineOptions{});
  EXPECT_EQ(model.pod(0_pod).state, PodState::kDeleted);
  EXPECT_EQ(model.pod(1_pod).state, PodState::kDeleted);
  EXPECT_EQ(model.node(0_node).requested.milli_cpu, 0);
}

TEST(ClusterModelPodsTest, TerminatingInputPodsKnowWhetherPreemptionCausedIt) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("4").Pods(110).Build());
  state.pods.push_back(Admitted(TerminatingByPreemption(MakePod("victim").Node("n1").Cpu("1").Build())));
  Pod deleted = Admitted(MakePod("deleted").Node("n1").Cpu("1").Build());
  deleted.meta.deletion_timestamp = WallTime{kOriginUs};
  state.pods.push_back(deleted);
  const ClusterModel model(state, EngineOptions{});
  EXPECT_EQ(model.pod(0_pod).state, PodState::kTerminating);
  EXPECT_TRUE(model.pod(0_pod).terminating_by_preemption);
  EXPECT_EQ(model.pod(1_pod).state, PodState::kTerminating);
  EXPECT_FALSE(model.pod(1_pod).terminating_by_preemption);
  EXPECT_EQ(model.node(0_node).requested.milli_cpu, 2000) << "terminating pods hold their resources";
}

TEST(ClusterModelPodsTest, InputNominationsApplyToPendingPodsOnly) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("4").Pods(110).Build());
  state.nodes.push_back(MakeNode("n2").Cpu("4").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("pending").NominatedNode("n2").Build()));
  state.pods.push_back(Admitted(MakePod("bound").Node("n1").NominatedNode("n2").Build()));
  state.pods.push_back(Admitted(MakePod("unknown").NominatedNode("nowhere").Build()));
  ClusterModel model(state, EngineOptions{});
  EXPECT_EQ(model.pod(0_pod).nominated, 1_node);
  EXPECT_EQ(model.pod(1_pod).nominated, kNoId);
  EXPECT_EQ(model.pod(2_pod).nominated, kNoId);
  EXPECT_EQ(model.node(1_node).nominated, std::vector<PodId>{0_pod});
  // Moving and clearing a nomination keeps both sides current.
  const std::uint64_t generation = model.node(0_node).generation;
  model.SetNomination(0_pod, 0_node);
  EXPECT_EQ(model.node(0_node).nominated, std::vector<PodId>{0_pod});
  EXPECT_TRUE(model.node(1_node).nominated.empty());
  EXPECT_GT(model.node(0_node).generation, generation);
  EXPECT_EQ(model.pod(0_pod).nominated, 0_node);
  model.SetNomination(0_pod, kNoId);
  EXPECT_TRUE(model.node(0_node).nominated.empty());
  EXPECT_EQ(model.pod(0_pod).nominated, kNoId);
  // The api object stays as admitted: the model's fields are the live state.
  EXPECT_EQ(model.pod(0_pod).pod.status.nominated_node_name, "n2");
}

// Expect: a node's nominees mirror its nominated pods' priority and requests as nominations
// come and go; the lowest bound victim priority follows binds and removals.
TEST(ClusterModelPodsTest, NomineesAndLowestBoundPriorityFollowChanges) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("4").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("a").Priority(5).Cpu("1").NominatedNode("n1").Build()));
  state.pods.push_back(Admitted(MakePod("b").Priority(7).Cpu("2").NominatedNode("n1").Build()));
  state.pods.push_back(Admitted(MakePod("low").Priority(1).Cpu("100m").Build()));
  ClusterModel model(state, EngineOptions{});
  const NodeInfo& node = model.node(0_node);
  ASSERT_EQ(node.nominees.size(), 2u);
  EXPECT_EQ(node.nominees[0].priority, 5);
  EXPECT_EQ(node.nominees[1].request.milli_cpu, 2000);
  EXPECT_EQ(model.min_bound_victim_priority(), std::numeric_limits<std::int32_t>::max());
  model.Bind(0_pod, 0_node, SimTime{});
  ASSERT_EQ(node.nominees.size(), 1u);
  EXPECT_EQ(node.nominees[0].priority, 7);
  EXPECT_EQ(model.min_bound_victim_priority(), 5);
  model.Bind(2_pod, 0_node, SimTime{});
  EXPECT_EQ(model.min_bound_victim_priority(), 1);
  model.Remove(2_pod, SimTime{std::chrono::seconds(1)});
  EXPECT_EQ(model.min_bound_victim_priority(), 5);
}

TEST(ClusterModelPodsTest, BindingClearsTheNomination) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("4").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("p").NominatedNode("n1").Build()));
  ClusterModel model(state, EngineOptions{});
  model.Bind(0_pod, 0_node, SimTime{std::chrono::seconds(3)});
  EXPECT_EQ(model.pod(0_pod).nominated, kNoId);
  EXPECT_TRUE(model.node(0_node).nominated.empty());
  EXPECT_EQ(model.pod(0_pod).state, PodState::kRunning);
  EXPECT_EQ(model.pod(0_pod).scheduled_at, SimTime{std::chrono::seconds(3)});
}

TEST(ClusterModelPodsTest, PodBoundToAnUnknownNodeIsRunningNowhere) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("4").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("lost").Node("ghost").Cpu("1").Build()));
  const ClusterModel model(state, EngineOptions{});
  EXPECT_EQ(model.pod(0_pod).state, PodState::kRunning);
  EXPECT_EQ(model.pod(0_pod).node, kNoId);
  EXPECT_EQ(model.pod(0_pod).last_failure, "bound to node ghost, which is not in the input");
  EXPECT_EQ(model.node(0_node).requested.milli_cpu, 0);
}

TEST(ClusterModelPodsTest, PodBoundToANodeTemplateSaysSo) {
  // A Node of a dump annotated as a template is no node of the cluster; its pods keep its name.
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("4").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("on-template").Node("big").Cpu("1").Build()));
  state.pods.push_back(Admitted(MakePod("lost").Node("ghost").Cpu("1").Build()));
  EngineOptions options;
  options.node_template_names = {"small", "big"};
  const ClusterModel model(state, options);
  EXPECT_EQ(model.pod(0_pod).state, PodState::kRunning);
  EXPECT_EQ(model.pod(0_pod).node, kNoId);
  EXPECT_EQ(model.pod(0_pod).last_failure, "bound to node big, which is a node template, not a node of the cluster");
  EXPECT_EQ(model.pod(1_pod).last_failure, "bound to node ghost, which is not in the input");
}

TEST(ClusterModelPodsTest, ReplacementIsAPendingCopyWithoutNodeOrStatus) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("4").Pods(110).Build());
  state.pods.push_back(Admitted(
      MakePod("web-abc").Uid("u").Node("n1").Cpu("1").Label("app", "web").Owner("ReplicaSet", "web").Build()));
  ClusterModel model(state, EngineOptions{});
  model.MarkTerminating(0_pod, /*by_preemption=*/true);
  const PodId r = model.AddReplacement(0_pod, "web-xyz", SimTime{std::chrono::seconds(2)});
  const PodInfo& info = model.pod(r);
  EXPECT_EQ(info.key, "default/web-xyz");
  EXPECT_EQ(info.state, PodState::kPending);
  EXPECT_EQ(info.node, kNoId);
  EXPECT_EQ(info.replacement_of, 0_pod);
  EXPECT_FALSE(info.is_input);
  EXPECT_TRUE(info.owned);
  EXPECT_EQ(info.request.milli_cpu, 1000);
  EXPECT_EQ(info.uid(), "default/web-xyz");
  EXPECT_EQ(model.FindPod("default/web-xyz"), std::optional<PodId>(r));
  // Each PodInfo knows its own id (decision records and event aggregation read it).
  EXPECT_EQ(info.id, r);
  EXPECT_EQ(model.pod(0_pod).id, 0_pod);
}

// ----------------------------------------------------------------------------------------------
// Objects Scenario steps apply during a run.

// Expect: pods that named a PodGroup before it existed wait; AddGroup makes them members, gives
// them the group's (root's) victim priority, keeps the node's aggregates in step for a bound one,
// and links the group under the composite parent that exists.
TEST(ClusterModelStepsTest, AddedPodGroupGathersThePodsThatWaitedForIt) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("4").Pods(110).Build());
  state.pod_groups.push_back(MakeCompositePodGroup("top").Namespace("default").Priority(50).Build());
  state.pods.push_back(Admitted(MakePod("bound").Node("n1").Priority(5).Cpu("1").PodGroup("g").Build()));
  state.pods.push_back(Admitted(MakePod("pending").Priority(5).Cpu("1").PodGroup("g").Build()));
  state.pods.push_back(Admitted(MakePod("other").Priority(5).Cpu("1").PodGroup("h").Build()));
  EngineOptions options;
  options.gates.generic_workload = true;
  options.gates.composite_pod_group = true;
  ClusterModel model(state, options);
  ASSERT_TRUE(model.pod(0_pod).waits_for_group);
  EXPECT_EQ(model.min_bound_victim_priority(), 5);
  EXPECT_TRUE(model.HasGroup("default/top"));
  EXPECT_FALSE(model.HasGroup("default/g"));

  const std::uint64_t progress = model.progress_generation();
  const std::vector<PodId> joined = model.AddGroup(MakePodGroup("g").Namespace("default").Priority(7).Parent("top").Build());
  EXPECT_EQ(joined, (std::vector<PodId>{0_pod, 1_pod}));
  EXPECT_TRUE(model.HasGroup("default/g"));
  EXPECT_GT(model.progress_generation(), progress);
  const GroupId g = model.pod(0_pod).group;
  ASSERT_NE(g, kNoId);
  EXPECT_EQ(model.pod(1_pod).group, g);
  EXPECT_FALSE(model.pod(0_pod).waits_for_group);
  EXPECT_TRUE(model.pod(2_pod).waits_for_group);  // another group's pod still waits
  EXPECT_EQ(model.group(g).members, (std::vector<PodId>{0_pod, 1_pod}));
  EXPECT_EQ(model.group(model.group(g).root).key, "default/top");
  EXPECT_EQ(model.group(model.group(g).root).leaves, (std::vector<GroupId>{g}));
  // The root's priority is the members' victim priority, and the bound one's node sees it.
  EXPECT_EQ(model.pod(0_pod).victim_priority, 50);
  EXPECT_EQ(model.min_bound_victim_priority(), 50);
  EXPECT_EQ(model.node(0_node).requested.milli_cpu, 1000);
  EXPECT_EQ(model.node(0_node).pods, (std::vector<PodId>{0_pod}));
}

// Expect: an applied Namespace replaces the labels namespace selectors see (with
// kubernetes.io/metadata.name kept) and touches every node; a reference taken earlier stays valid.
TEST(ClusterModelStepsTest, AppliedNamespaceRelabelsAndTouchesEveryNode) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n1").Cpu("1").Build());
  state.nodes.push_back(MakeNode("n2").Cpu("1").Build());
  ClusterModel model(state, EngineOptions{});
  const Labels& data = model.NamespaceLabels("data");
  EXPECT_EQ(data, (Labels{{"kubernetes.io/metadata.name", "data"}}));
  for (int i = 0; i < 50; ++i) model.NamespaceLabels("ns-" + std::to_string(i));  // grows
  const std::uint64_t n1 = model.node(0_node).generation;
  const std::uint64_t n2 = model.node(1_node).generation;
  Namespace ns;
  ns.meta.name = "data";
  ns.meta.labels = Labels{{"team", "a"}};
  model.ApplyNamespace(ns);
  EXPECT_EQ(data, (Labels{{"kubernetes.io/metadata.name", "data"}, {"team", "a"}}));
  EXPECT_GT(model.node(0_node).generation, n1);
  EXPECT_GT(model.node(1_node).generation, n2);
}

// Expect: Services applied, replaced and deleted by ns/name; each change moves the generation.
TEST(ClusterModelStepsTest, ServicesFollowAppliesAndDeletes) {
  ClusterState state;
  Service web;
  web.meta.name = "web";
  web.meta.namespace_ = "default";
  web.selector = Labels{{"app", "web"}};
  state.services.push_back(web);
  ClusterModel model(state, EngineOptions{});
  ASSERT_EQ(model.services().size(), 1u);
  std::uint64_t generation = model.services_generation();
  web.selector = Labels{{"app", "web2"}};
  model.ApplyService(web);  // same name: replaced
  ASSERT_EQ(model.services().size(), 1u);
  EXPECT_EQ(model.services()[0].selector, std::optional<Labels>(Labels{{"app", "web2"}}));
  EXPECT_GT(model.services_generation(), generation);
  generation = model.services_generation();
  web.meta.namespace_ = "other";
  model.ApplyService(web);  // another namespace: added
  EXPECT_EQ(model.services().size(), 2u);
  EXPECT_FALSE(model.DeleteService("default", "nope"));
  EXPECT_TRUE(model.DeleteService("default", "web"));
  ASSERT_EQ(model.services().size(), 1u);
  EXPECT_EQ(model.services()[0].meta.namespace_, "other");
  EXPECT_GT(model.services_generation(), generation);
}

}  // namespace
}  // namespace kpsim::engine::test
