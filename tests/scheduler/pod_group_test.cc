// Unit tests for the pod-group parts of the default profile, derived from spec §9, §15-§18:
// the group hierarchy (roots, `all` ancestors, CompositePodGroup gate, missing parents, cycles,
// depth bound), group-aware victim priority (16.1) and victim units (16.2), the victim importance
// order (9.1), PDB accounting of units (16.3), tentative model changes, the group cycle
// (validation 17.1, member order 17.2, all-or-nothing 17.3), workload-aware preemption (18.2-18.7),
// `ExplainGroup` and the GroupOutcome states.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"
#include "scheduler/framework.h"
#include "kpsim/engine.h"
#include "sim/simulator.h"
#include "snapshot/cluster.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using namespace kpsim::engine::id_literals;  // NOLINT(google-build-using-namespace)

using kpsim::testing::MakeCompositePodGroup;
using kpsim::testing::MakePdb;
using kpsim::testing::MakePod;
using kpsim::testing::MakePodGroup;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using Names = std::vector<std::string>;

// A cycle harness with GenericWorkload on, plus a model and framework of its own for the
// group-level entry points (PendingMembers, ValidateGroup, PlaceGroup, PreemptGroup).
class PodGroupTest : public ::testing::Test, public CycleHarness {
 protected:
  PodGroupTest() { options.gates.generic_workload = true; }

  void AddGroup(PodGroup g) {
    if (g.meta.namespace_.empty()) g.meta.namespace_ = "default";
    state.pod_groups.push_back(std::move(g));
  }
  // (Re)builds the model and framework from `state` as it is now.
  ClusterModel& Build() {
    fw_.reset();
    own_ = std::make_unique<ClusterModel>(state, options);
    fw_ = std::make_unique<Framework>(*own_, options);
    return *own_;
  }
  ClusterModel& M() { return *own_; }
  Framework& F() { return *fw_; }
  GroupId G(const std::string& name) {
    const std::string key = "default/" + name;
    for (GroupId id : own_->groups().ids()) {
      if (own_->group(id).key == key) return id;
    }
    ADD_FAILURE() << "no group " << key;
    return GroupId(0);
  }
  const GroupInfo& GI(const std::string& name) { return own_->group(G(name)); }
  PodId P(const std::string& name) {
    const std::optional<PodId> id = own_->FindPod("default/" + name);
    EXPECT_TRUE(id.has_value()) << "no pod " << name;
    return id.value_or(PodId(0));
  }
  const PodInfo& PI(const std::string& name) { return own_->pod(P(name)); }
  Names Keys(const std::vector<PodId>& ids) {
    Names out;
    for (PodId id : ids) out.push_back(own_->pod(id).key.string());
    return out;
  }
  Names VictimKeys(const std::vector<Victim>& victims) {
    Names out;
    for (const Victim& v : victims) out.push_back(own_->pod(v.pod).key.string());
    std::sort(out.begin(), out.end());
    return out;
  }
  // A member pod of group `group` with the group's priority.
  static Pod Member(const std::string& name, const std::string& group, std::int32_t priority,
                    std::string_view cpu) {
    return MakePod(name).PodGroup(group).Priority(priority).Cpu(cpu).Build();
  }
  const GroupOutcome* Outcome(const SimulationResult& r, const std::string& key) {
    for (const GroupOutcome& g : r.groups) {
      if (g.group == key) return &g;
    }
    ADD_FAILURE() << "no group outcome " << key;
    return nullptr;
  }

 private:
  std::unique_ptr<ClusterModel> own_;
  std::unique_ptr<Framework> fw_;
};

// ----------------------------------------------------------------------------------------------
// Hierarchy (rule 15.4) and victim priority (rule 16.1).

TEST_F(PodGroupTest, CompositeGateOnMakesTheTopCompositeTheRootAndItsPriorityCounts) {
  options.gates.composite_pod_group = true;
  AddNode(NodeWithCpu("n1", "4").Build());
  AddGroup(MakeCompositePodGroup("top").Priority(500).Build());
  AddGroup(MakeCompositePodGroup("mid").Priority(300).Parent("top").Build());
  AddGroup(MakePodGroup("leaf").Priority(100).Parent("mid").Build());
  AddPod(MakePod("a").PodGroup("leaf").Priority(100).Node("n1").Cpu("1").Build());
  Build();
  EXPECT_EQ(GI("leaf").root, G("top"));
  EXPECT_EQ(GI("mid").root, G("top"));
  EXPECT_EQ(GI("top").root, G("top"));
  EXPECT_EQ(GI("leaf").parent, G("mid"));
  EXPECT_EQ(PI("a").victim_priority, 500);
  // The leaf is under every ancestor.
  EXPECT_THAT(GI("top").leaves, ::testing::ElementsAre(G("leaf")));
  EXPECT_THAT(GI("mid").leaves, ::testing::ElementsAre(G("leaf")));
}

TEST_F(PodGroupTest, CompositeGateOffUsesTheOwnPodGroupsPriority) {
  AddNode(NodeWithCpu("n1", "4").Build());
  AddGroup(MakeCompositePodGroup("top").Priority(500).Build());
  AddGroup(MakePodGroup("leaf").Priority(100).Parent("top").Build());
  AddPod(MakePod("a").PodGroup("leaf").Priority(7).Node("n1").Cpu("1").Build());
  Build();
  EXPECT_EQ(GI("leaf").root, G("leaf"));
  EXPECT_EQ(GI("leaf").parent, kNoId);
  EXPECT_EQ(PI("a").victim_priority, 100);
}

TEST_F(PodGroupTest, MissingParentStopsTheWalkAtTheLastResolvedGroup) {
  options.gates.composite_pod_group = true;
  AddNode(NodeWithCpu("n1", "4").Build());
  AddGroup(MakeCompositePodGroup("mid").Priority(300).Parent("absent").Build());
  AddGroup(MakePodGroup("leaf").Priority(100).Parent("mid").Build());
  AddPod(MakePod("a").PodGroup("leaf").Priority(100).Node("n1").Cpu("1").Build());
  Build();
  EXPECT_EQ(GI("leaf").root, G("mid"));
  EXPECT_EQ(PI("a").victim_priority, 300);
}

TEST_F(PodGroupTest, ParentCycleIsBrokenAndResolvesToAGroupOnTheCycle) {
  options.gates.composite_pod_group = true;
  AddNode(NodeWithCpu("n1", "4").Build());
  AddGroup(MakeCompositePodGroup("x").Priority(300).Parent("y").Build());
  AddGroup(MakeCompositePodGroup("y").Priority(400).Parent("x").Build());
  AddGroup(MakePodGroup("leaf").Priority(100).Parent("x").Build());
  AddPod(MakePod("a").PodGroup("leaf").Priority(100).Node("n1").Cpu("1").Build());
  Build();  // must terminate
  EXPECT_THAT(GI("leaf").root, AnyOf(G("x"), G("y")));
  EXPECT_THAT(PI("a").victim_priority, AnyOf(300, 400));
}

TEST_F(PodGroupTest, DepthBoundStopsLongChainsButNotShortOnes) {
  options.gates.composite_pod_group = true;
  AddNode(NodeWithCpu("n1", "4").Build());
  // Short chain: leaf-short -> s1 -> s2 -> s3 (top, priority 999).
  AddGroup(MakeCompositePodGroup("s3").Priority(999).Build());
  AddGroup(MakeCompositePodGroup("s2").Priority(2).Parent("s3").Build());
  AddGroup(MakeCompositePodGroup("s1").Priority(1).Parent("s2").Build());
  AddGroup(MakePodGroup("leaf-short").Priority(0).Parent("s1").Build());
  // Long chain of 25 composites above the leaf: c0 (under the leaf) ... c24 (top).
  for (int i = 0; i < 25; ++i) {
    auto b = MakeCompositePodGroup("c" + std::to_string(i)).Priority(i == 24 ? 999 : i);
    if (i < 24) b.Parent("c" + std::to_string(i + 1));
    AddGroup(b.Build());
  }
  AddGroup(MakePodGroup("leaf-long").Priority(0).Parent("c0").Build());
  AddPod(MakePod("short").PodGroup("leaf-short").Node("n1").Cpu("1").Build());
  AddPod(MakePod("long").PodGroup("leaf-long").Node("n1").Cpu("1").Build());
  Build();
  EXPECT_EQ(GI("leaf-short").root, G("s3"));
  EXPECT_EQ(PI("short").victim_priority, 999);
  // WorkloadMaxTreeDepth is 10: the walk never reaches c24.
  EXPECT_NE(GI("leaf-long").root, G("c24"));
  EXPECT_LT(PI("long").victim_priority, 24);
}

TEST_F(PodGroupTest, WithoutGenericWorkloadGroupsAreIgnoredAndThePodsOwnPriorityCounts) {
  options.gates.generic_workload = false;
  AddNode(NodeWithCpu("n1", "4").Build());
  AddGroup(MakePodGroup("g").Priority(100).DisruptionAll().Build());
  AddPod(MakePod("a").PodGroup("g").Priority(7).Node("n1").Cpu("1").Build());
  Build();
  EXPECT_TRUE(M().groups().empty());
  EXPECT_EQ(PI("a").victim_priority, 7);
  EXPECT_EQ(PI("a").type_rank, 1);
  EXPECT_EQ(PI("a").all_unit, kNoId);
}

TEST_F(PodGroupTest, MissingPodGroupFallsBackToThePodsOwnPriority) {
  AddNode(NodeWithCpu("n1", "4").Build());
  AddPod(MakePod("a").PodGroup("absent").Priority(7).Node("n1").Cpu("1").Build());
  Build();
  EXPECT_EQ(PI("a").victim_priority, 7);
}

TEST_F(PodGroupTest, NilGroupPriorityReadsAsZero) {
  AddNode(NodeWithCpu("n1", "4").Build());
  AddGroup(MakePodGroup("g").Build());
  AddPod(MakePod("a").PodGroup("g").Priority(7).Node("n1").Cpu("1").Build());
  Build();
  EXPECT_EQ(PI("a").victim_priority, 0);
}

TEST_F(PodGroupTest, SingleModeMemberRanksAsPodGroupAndAllAncestorIsTheHighest) {
  options.gates.composite_pod_group = true;
  AddNode(NodeWithCpu("n1", "4").Build());
  AddGroup(MakeCompositePodGroup("top").DisruptionAll().Build());
  AddGroup(MakeCompositePodGroup("mid").DisruptionAll().Parent("top").Build());
  AddGroup(MakePodGroup("leaf").DisruptionSingle().Parent("mid").Build());
  AddGroup(MakePodGroup("solo").Build());
  AddPod(MakePod("a").PodGroup("leaf").Node("n1").Cpu("1").Build());
  AddPod(MakePod("b").PodGroup("solo").Node("n1").Cpu("1").Build());
  AddPod(MakePod("c").Node("n1").Cpu("1").Build());
  Build();
  EXPECT_EQ(GI("leaf").all_ancestor, G("top"));
  EXPECT_EQ(PI("a").all_unit, G("top"));
  EXPECT_EQ(PI("b").all_unit, kNoId);
  EXPECT_EQ(PI("b").type_rank, 2);  // rule 9.3
  EXPECT_EQ(PI("c").type_rank, 1);
}

// A higher-priority single pod cannot preempt a pod whose composite root outranks it (16.1).
TEST_F(PodGroupTest, SinglePodPreemptionUsesTheRootsPriorityForGroupVictims) {
  options.gates.composite_pod_group = true;
  AddNode(NodeWithCpu("n1", "1").Build());
  AddGroup(MakeCompositePodGroup("top").Priority(500).Build());
  AddGroup(MakePodGroup("leaf").Priority(100).Parent("top").Build());
  AddPod(MakePod("a").PodGroup("leaf").Priority(100).Node("n1").Cpu("1").Build());
  AddPod(MakePod("p").Priority(300).Cpu("1").Build());
  EXPECT_EQ(Decide("p").kind, Decision::Kind::kFail);
  options.gates.composite_pod_group = false;  // now the leaf's 100 counts
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(Victims(d), Names{"default/a"});
}

TEST_F(PodGroupTest, WithoutGenericWorkloadSinglePodPreemptionUsesThePodsOwnPriority) {
  options.gates.generic_workload = false;
  AddNode(NodeWithCpu("n1", "1").Build());
  AddGroup(MakePodGroup("g").Priority(500).Build());
  AddPod(MakePod("a").PodGroup("g").Priority(100).Node("n1").Cpu("1").Build());
  AddPod(MakePod("p").Priority(300).Cpu("1").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(Victims(d), Names{"default/a"});
}

// ----------------------------------------------------------------------------------------------
// Victim units (rule 16.2) in single-pod preemption.

TEST_F(PodGroupTest, AllGroupVictimTakesEveryScheduledPodClusterWide) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddNode(NodeWithCpu("n3", "1").Build());
  AddGroup(MakePodGroup("g").Priority(1).DisruptionAll().Build());
  AddPod(Member("g1", "g", 1, "1"));
  state.pods.back().spec.node_name = "n1";
  AddPod(Member("g2", "g", 1, "1"));
  state.pods.back().spec.node_name = "n2";
  AddPod(Member("g3", "g", 1, "1"));  // pending: not part of the victim
  AddPod(MakePod("p").Priority(10).Cpu("1").NodeSelector("kubernetes.io/hostname", "n1").Build());
  state.nodes[0].meta.labels = {{"kubernetes.io/hostname", "n1"}};
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(NodeName(d.node), "n1");
  Names victims = Victims(d);
  std::sort(victims.begin(), victims.end());
  EXPECT_EQ(victims, (Names{"default/g1", "default/g2"}));
}

TEST_F(PodGroupTest, SingleModeGroupPodsGoOneByOne) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddGroup(MakePodGroup("g").Priority(1).Build());
  AddPod(Member("g1", "g", 1, "1"));
  state.pods.back().spec.node_name = "n1";
  AddPod(Member("g2", "g", 1, "1"));
  state.pods.back().spec.node_name = "n2";
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  EXPECT_EQ(Victims(d).size(), 1u);
}

TEST_F(PodGroupTest, HighestAllAncestorBringsPodsOfSiblingLeaves) {
  options.gates.composite_pod_group = true;
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "2").Build());
  AddGroup(MakeCompositePodGroup("job").Priority(1).DisruptionAll().Build());
  AddGroup(MakePodGroup("workers").Priority(1).DisruptionSingle().Parent("job").Build());
  AddGroup(MakePodGroup("driver").Priority(1).Parent("job").Build());
  AddPod(Member("w1", "workers", 1, "1"));
  state.pods.back().spec.node_name = "n1";
  AddPod(Member("w2", "workers", 1, "1"));
  state.pods.back().spec.node_name = "n2";
  AddPod(Member("d1", "driver", 1, "1"));
  state.pods.back().spec.node_name = "n2";
  state.nodes[0].meta.labels = {{"kubernetes.io/hostname", "n1"}};
  AddPod(MakePod("p").Priority(10).Cpu("1").NodeSelector("kubernetes.io/hostname", "n1").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  Names victims = Victims(d);
  std::sort(victims.begin(), victims.end());
  EXPECT_EQ(victims, (Names{"default/d1", "default/w1", "default/w2"}));
}

TEST_F(PodGroupTest, PdbViolationsCountEveryPodOfAnAllUnit) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  state.nodes[0].meta.labels = {{"kubernetes.io/hostname", "n1"}};
  AddGroup(MakePodGroup("g").Priority(1).DisruptionAll().Build());
  Pod g1 = Member("g1", "g", 1, "1");
  g1.spec.node_name = "n1";
  g1.meta.labels = {{"app", "x"}};
  Pod g2 = Member("g2", "g", 1, "1");
  g2.spec.node_name = "n2";
  g2.meta.labels = {{"app", "x"}};
  AddPod(g1);
  AddPod(g2);
  AddPdb(MakePdb("pdb").Selector("app", "x").DisruptionsAllowed(0).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").NodeSelector("kubernetes.io/hostname", "n1").Build());
  const Decision d = Decide("p");
  ASSERT_EQ(d.kind, Decision::Kind::kPreempt);
  ASSERT_TRUE(d.candidate.has_value());
  EXPECT_EQ(d.candidate->pdb_violations, 2);
  EXPECT_EQ(ViolatingVictims(d).size(), 2u);
}

// ----------------------------------------------------------------------------------------------
// Victim importance (rule 9.1), seen through the reprieve: node n1 has room for the preemptor
// and exactly one of two victims, so the more important one is reprieved and the other goes.

class VictimOrderTest : public PodGroupTest {
 protected:
  void SetUp() override {
    AddNode(NodeWithCpu("n1", "2").Label("pin", "n1").Build());
    AddPod(MakePod("p").Priority(100).Cpu("1").NodeSelector("pin", "n1").Build());
  }
  void AddVictim(Pod pod, std::string node = "n1") {
    pod.spec.node_name = std::move(node);
    AddPod(std::move(pod));
  }
  Names Preempted() {
    const Decision d = Decide("p");
    EXPECT_EQ(d.kind, Decision::Kind::kPreempt);
    return Victims(d);
  }
};

TEST_F(VictimOrderTest, HigherPriorityIsMoreImportant) {
  AddVictim(MakePod("hi").Priority(5).Cpu("1").Build());
  AddVictim(MakePod("lo").Priority(4).Cpu("1").Build());
  EXPECT_EQ(Preempted(), Names{"default/lo"});
}

TEST_F(VictimOrderTest, GroupPriorityDecidesOverThePodsOwn) {
  AddGroup(MakePodGroup("g").Priority(50).Build());
  AddVictim(MakePod("member").PodGroup("g").Priority(1).Cpu("1").Build());
  AddVictim(MakePod("plain").Priority(20).Cpu("1").Build());
  EXPECT_EQ(Preempted(), Names{"default/plain"});
}

TEST_F(VictimOrderTest, PodGroupMemberOutranksAStandalonePodOfEqualPriority) {
  AddGroup(MakePodGroup("g").Priority(5).Build());
  AddVictim(MakePod("a-plain").Priority(5).Cpu("1").Uid("a").Build());
  AddVictim(MakePod("z-member").PodGroup("g").Priority(5).Cpu("1").Uid("z").Build());
  EXPECT_EQ(Preempted(), Names{"default/a-plain"});
}

TEST_F(VictimOrderTest, CompositeAllUnitOutranksPodGroupAllUnitOfEqualSize) {
  options.gates.composite_pod_group = true;
  AddGroup(MakeCompositePodGroup("job").Priority(5).DisruptionAll().Build());
  AddGroup(MakePodGroup("leaf").Priority(5).Parent("job").Build());
  AddGroup(MakePodGroup("pg").Priority(5).DisruptionAll().Build());
  AddVictim(MakePod("a-pg").PodGroup("pg").Priority(5).Cpu("1").Uid("a").Build());
  AddVictim(MakePod("z-job").PodGroup("leaf").Priority(5).Cpu("1").Uid("z").Build());
  EXPECT_EQ(Preempted(), Names{"default/a-pg"});
}

TEST_F(VictimOrderTest, LargerUnitIsMoreImportant) {
  AddNode(NodeWithCpu("n2", "1").Build());
  AddGroup(MakePodGroup("big").Priority(5).DisruptionAll().Build());
  AddGroup(MakePodGroup("small").Priority(5).DisruptionAll().Build());
  AddVictim(MakePod("a-small").PodGroup("small").Priority(5).Cpu("1").Uid("a").Build());
  AddVictim(MakePod("z-big1").PodGroup("big").Priority(5).Cpu("1").Uid("z1").Build());
  AddVictim(MakePod("z-big2").PodGroup("big").Priority(5).Cpu("1").Uid("z2").Build(), "n2");
  EXPECT_EQ(Preempted(), Names{"default/a-small"});
}

TEST_F(VictimOrderTest, EarlierStartIsMoreImportant) {
  AddVictim(MakePod("a-new").Priority(5).Cpu("1").Uid("a").StartTime(SecondsBeforeOrigin(10)).Build());
  AddVictim(MakePod("z-old").Priority(5).Cpu("1").Uid("z").StartTime(SecondsBeforeOrigin(100)).Build());
  EXPECT_EQ(Preempted(), Names{"default/a-new"});
}

TEST_F(VictimOrderTest, SmallerUidIsMoreImportantOnFullTies) {
  AddVictim(MakePod("first").Priority(5).Cpu("1").Uid("uid-b").StartTime(SecondsBeforeOrigin(10)).Build());
  AddVictim(MakePod("second").Priority(5).Cpu("1").Uid("uid-a").StartTime(SecondsBeforeOrigin(10)).Build());
  EXPECT_EQ(Preempted(), Names{"default/first"});
}

// ----------------------------------------------------------------------------------------------
// Tentative changes leave the model as it was.

TEST_F(PodGroupTest, AssumeForgetDetachReattachRestoreTheModel) {
  AddNode(NodeWithCpu("n1", "8").Build());
  AddNode(NodeWithCpu("n2", "8").Build());
  AddPod(MakePod("a").Node("n1").Cpu("1").Build());
  AddPod(MakePod("b").Node("n1").Cpu("2").Build());
  AddPod(MakePod("c").Node("n1").Cpu("3").Build());
  AddPod(MakePod("p").Cpu("1").NominatedNode("n2").Build());
  AddPod(MakePod("q").Cpu("1").Build());
  Build();
  struct Snapshot {
    std::vector<ResourceList> requested;
    std::vector<std::vector<PodId>> pods, nominated;
    std::vector<NodeId> pod_nodes, pod_nominated;
    bool operator==(const Snapshot&) const = default;
  };
  auto snap = [&] {
    Snapshot s;
    for (const NodeInfo& n : M().nodes()) {
      s.requested.push_back(n.requested);
      s.pods.push_back(n.pods);
      std::vector<PodId> nom = n.nominated;
      std::sort(nom.begin(), nom.end());
      s.nominated.push_back(nom);
    }
    for (const PodInfo& p : M().pods()) {
      s.pod_nodes.push_back(p.node);
      s.pod_nominated.push_back(p.nominated);
    }
    return s;
  };
  const Snapshot before = snap();
  const std::uint64_t generation = M().generation();
  const NodeId n1 = *M().FindNode("n1");
  const NodeId n2 = *M().FindNode("n2");
  M().Assume(P("p"), n1);
  M().Assume(P("q"), n2);
  EXPECT_EQ(PI("p").nominated, kNoId);  // its nomination hides while assumed
  M().Detach(P("b"));
  M().Detach(P("a"));
  EXPECT_NE(snap(), before);
  M().Reattach(P("a"));
  M().Reattach(P("b"));
  M().Forget(P("q"));
  M().Forget(P("p"));
  EXPECT_EQ(snap(), before);
  EXPECT_EQ(M().node(n1).pods,
            (std::vector<PodId>{P("a"), P("b"), P("c")}));  // bind order
  EXPECT_GE(M().generation(), generation);
  EXPECT_EQ(PI("p").state, PodState::kPending);
}

// ----------------------------------------------------------------------------------------------
// Rule 17.1: validation.

TEST_F(PodGroupTest, ValidationAcceptsAConsistentGroup) {
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(Member("a", "g", 10, "1"));
  AddPod(Member("b", "g", 10, "1"));
  Build();
  EXPECT_EQ(F().ValidateGroup(G("g")), std::nullopt);
}

TEST_F(PodGroupTest, ValidationRefusesASchedulerNameMismatch) {
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(Member("a", "g", 10, "1"));
  Pod b = Member("b", "g", 10, "1");
  b.spec.scheduler_name = "other-scheduler";
  AddPod(b);
  Build();
  EXPECT_THAT(F().ValidateGroup(G("g")).value_or(""),
              AnyOf("all pods in a single pod group should have the same .spec.schedulerName set, "
                    "got: \"default-scheduler\" and \"other-scheduler\"",
                    "all pods in a single pod group should have the same .spec.schedulerName set, "
                    "got: \"other-scheduler\" and \"default-scheduler\""));
}

TEST_F(PodGroupTest, ValidationRefusesAPriorityOtherThanTheRootGroups) {
  options.gates.composite_pod_group = true;
  AddGroup(MakeCompositePodGroup("top").Priority(100).Build());
  AddGroup(MakePodGroup("g").Priority(10).Parent("top").Build());
  AddPod(Member("a", "g", 10, "1"));  // equals its own group, not the root
  Build();
  EXPECT_THAT(F().ValidateGroup(G("top")).value_or(""),
              AnyOf("all pods in a single pod group should have the same priority as the pod "
                    "group's priority, got 10 and 100",
                    "all pods in a single pod group should have the same priority as the pod "
                    "group's priority, got 100 and 10"));
}

TEST_F(PodGroupTest, ValidationWithPreemptionPolicyGateComparesWithTheGroupsPolicy) {
  options.gates.pod_group_preemption_policy = true;
  AddGroup(MakePodGroup("g").Priority(10).Build());  // nil policy -> PreemptLowerPriority
  Pod a = Member("a", "g", 10, "1");
  a.spec.preemption_policy = PreemptionPolicy::kNever;
  AddPod(a);
  Pod b = Member("b", "g", 10, "1");
  b.spec.preemption_policy = PreemptionPolicy::kNever;
  AddPod(b);
  Build();
  EXPECT_THAT(F().ValidateGroup(G("g")).value_or(""),
              AnyOf("all pods in a single pod group should have the same preemption policy as the "
                    "pod group's preemption policy, got Never and PreemptLowerPriority",
                    "all pods in a single pod group should have the same preemption policy as the "
                    "pod group's preemption policy, got PreemptLowerPriority and Never"));
}

TEST_F(PodGroupTest, ValidationWithoutPreemptionPolicyGateComparesThePodsWithEachOther) {
  AddGroup(MakePodGroup("g").Priority(10).PreemptionPolicy(PreemptionPolicy::kNever).Build());
  Pod a = Member("a", "g", 10, "1");
  a.spec.preemption_policy = PreemptionPolicy::kNever;
  AddPod(a);
  Pod b = Member("b", "g", 10, "1");
  b.spec.preemption_policy = PreemptionPolicy::kNever;
  AddPod(b);
  Build();
  // Pods agree with each other: the group's field does not matter with the gate off.
  EXPECT_EQ(F().ValidateGroup(G("g")), std::nullopt);
  state.pods.back().spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  Build();
  EXPECT_THAT(F().ValidateGroup(G("g")).value_or(""),
              AnyOf("all pods in a single pod group should have the same preemption policy, got "
                    "Never and PreemptLowerPriority",
                    "all pods in a single pod group should have the same preemption policy, got "
                    "PreemptLowerPriority and Never"));
}

TEST_F(PodGroupTest, ValidationRefusesAnUnknownProfile) {
  AddGroup(MakePodGroup("g").Priority(10).Build());
  Pod a = Member("a", "g", 10, "1");
  a.spec.scheduler_name = "other-scheduler";
  AddPod(a);
  Build();
  EXPECT_EQ(F().ValidateGroup(G("g")).value_or(""),
            "profile not found for scheduler name \"other-scheduler\"");
}

TEST_F(PodGroupTest, ValidationCountsAlreadyScheduledMembers) {
  AddNode(NodeWithCpu("n1", "4").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(Member("pending", "g", 10, "1"));
  Pod running = Member("running", "g", 3, "1");
  running.spec.node_name = "n1";
  AddPod(running);
  Build();
  EXPECT_THAT(F().ValidateGroup(G("g")).value_or(""),
              HasSubstr("should have the same priority as the pod group's priority"));
}

// ----------------------------------------------------------------------------------------------
// Rules 17.2 and 17.3: member order and the all-or-nothing placement.

TEST_F(PodGroupTest, PendingMembersByPriorityThenArrival) {
  AddNode(NodeWithCpu("n1", "4").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(MakePod("late").PodGroup("g").Priority(10).Created(SecondsBeforeOrigin(1)).Build());
  AddPod(MakePod("early").PodGroup("g").Priority(10).Created(SecondsBeforeOrigin(50)).Build());
  AddPod(MakePod("high").PodGroup("g").Priority(20).Created(SecondsBeforeOrigin(0)).Build());
  AddPod(MakePod("bound").PodGroup("g").Priority(30).Node("n1").Build());
  Build();
  EXPECT_EQ(Keys(F().PendingMembers(G("g"))),
            (Names{"default/high", "default/early", "default/late"}));
}

TEST_F(PodGroupTest, GangPlacesNothingUnlessMinCountFitsAndLeavesTheModelUnchanged) {
  options.gates.gang_scheduling = true;
  AddNode(NodeWithCpu("n1", "2").Build());
  AddGroup(MakePodGroup("g").Priority(10).Gang(3).Build());
  for (const char* name : {"a", "b", "c"}) AddPod(Member(name, "g", 10, "1"));
  Build();
  const ResourceList requested = M().node(0_node).requested;
  const GroupPlacement placement = F().PlaceGroup(G("g"), F().PendingMembers(G("g")));
  EXPECT_FALSE(placement.feasible);
  EXPECT_FALSE(placement.message.empty());
  EXPECT_EQ(M().node(0_node).requested, requested);
  EXPECT_TRUE(M().node(0_node).pods.empty());
}

TEST_F(PodGroupTest, GangWithEnoughRoomPlacesEveryPod) {
  options.gates.gang_scheduling = true;
  AddNode(NodeWithCpu("n1", "3").Build());
  AddGroup(MakePodGroup("g").Priority(10).Gang(3).Build());
  for (const char* name : {"a", "b", "c"}) AddPod(Member(name, "g", 10, "1"));
  Build();
  const GroupPlacement placement = F().PlaceGroup(G("g"), F().PendingMembers(G("g")));
  EXPECT_TRUE(placement.feasible);
  EXPECT_EQ(placement.assigned.size(), 3u);
  EXPECT_TRUE(M().node(0_node).pods.empty());  // tentative only
}

TEST_F(PodGroupTest, GangPolicyIsBasicWithoutTheGangSchedulingGate) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddGroup(MakePodGroup("g").Priority(10).Gang(3).Build());
  for (const char* name : {"a", "b", "c"}) AddPod(Member(name, "g", 10, "1"));
  Build();
  const GroupPlacement placement = F().PlaceGroup(G("g"), F().PendingMembers(G("g")));
  EXPECT_TRUE(placement.feasible);
  EXPECT_EQ(placement.assigned.size(), 2u);
  ASSERT_EQ(placement.failed.size(), 1u);
  EXPECT_EQ(M().pod(placement.failed[0].first).key, "default/c");
}

TEST_F(PodGroupTest, BasicGroupNeedsAtLeastOnePodPlaced) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(Member("a", "g", 10, "2"));
  AddPod(Member("b", "g", 10, "2"));
  Build();
  const GroupPlacement placement = F().PlaceGroup(G("g"), F().PendingMembers(G("g")));
  EXPECT_FALSE(placement.feasible);
  EXPECT_TRUE(placement.assigned.empty());
  EXPECT_EQ(placement.failed.size(), 2u);
}

TEST_F(PodGroupTest, InGroupPodDoesNotPreemptOnItsOwn) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("low").Priority(0).Node("n1").Cpu("1").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(Member("a", "g", 10, "1"));
  Build();
  const GroupPlacement placement = F().PlaceGroup(G("g"), F().PendingMembers(G("g")));
  ASSERT_EQ(placement.failed.size(), 1u);
  EXPECT_THAT(placement.failed[0].second,
              HasSubstr("preemption: not eligible due to workload aware preemption enabled"));
}

// ----------------------------------------------------------------------------------------------
// Workload-aware preemption (§18).

TEST_F(PodGroupTest, PolicyWithGateComesFromTheGroupField) {
  options.gates.pod_group_preemption_policy = true;
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("low").Priority(0).Node("n1").Cpu("1").Build());
  AddGroup(MakePodGroup("g").Priority(10).PreemptionPolicy(PreemptionPolicy::kNever).Build());
  AddPod(Member("a", "g", 10, "1"));  // PreemptLowerPriority: ignored with the gate on
  Build();
  const GroupPreemption wap = F().PreemptGroup(G("g"), F().PendingMembers(G("g")), nullptr);
  EXPECT_EQ(wap.kind, GroupPreemption::Kind::kFail);
  EXPECT_EQ(wap.message, "not eligible due to preemptionPolicy=Never.");
}

TEST_F(PodGroupTest, PolicyWithoutGateIsNeverWhenAnyMemberIsNever) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddPod(MakePod("low").Priority(0).Node("n1").Cpu("2").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(Member("a", "g", 10, "1"));
  Pod b = Member("b", "g", 10, "1");
  b.spec.preemption_policy = PreemptionPolicy::kNever;
  AddPod(b);
  Build();
  GroupPreemption wap = F().PreemptGroup(G("g"), F().PendingMembers(G("g")), nullptr);
  EXPECT_EQ(wap.message, "not eligible due to preemptionPolicy=Never.");
  // The group's own Never field does not count with the gate off.
  state.pods.back().spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  state.pod_groups.back().preemption_policy = PreemptionPolicy::kNever;
  Build();
  wap = F().PreemptGroup(G("g"), F().PendingMembers(G("g")), nullptr);
  EXPECT_EQ(wap.kind, GroupPreemption::Kind::kPreempt);
}

TEST_F(PodGroupTest, OngoingPreemptionOnANominatedNodeWaits) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(TerminatingByPreemption(MakePod("going").Priority(0).Node("n1").Cpu("1").Build()));
  AddGroup(MakePodGroup("g").Priority(10).Build());
  Pod a = Member("a", "g", 10, "1");
  a.status.nominated_node_name = "n1";
  AddPod(a);
  Build();
  const GroupPreemption wap = F().PreemptGroup(G("g"), F().PendingMembers(G("g")), nullptr);
  EXPECT_EQ(wap.kind, GroupPreemption::Kind::kWait);
  EXPECT_EQ(wap.message, "ongoing preemption on nominated nodes");
  EXPECT_TRUE(wap.victims.empty());
}

TEST_F(PodGroupTest, NoLowerPriorityPodsMeansNoVictims) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("equal").Priority(10).Node("n1").Cpu("1").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(Member("a", "g", 10, "1"));
  Build();
  const GroupPreemption wap = F().PreemptGroup(G("g"), F().PendingMembers(G("g")), nullptr);
  EXPECT_EQ(wap.kind, GroupPreemption::Kind::kFail);
  EXPECT_EQ(wap.message, "No preemption victims found for incoming preemptor");
}

// n1 has room for the member and one of two victims: the more important one is reprieved,
// unless the other violates a PDB (violating victims are tried first).
class ReprieveTest : public PodGroupTest {
 protected:
  void SetUp() override {
    AddNode(NodeWithCpu("n1", "2").Build());
    AddPod(MakePod("hi").Priority(5).Node("n1").Cpu("1").Label("app", "hi").Build());
    AddPod(MakePod("lo").Priority(1).Node("n1").Cpu("1").Label("app", "lo").Build());
    AddGroup(MakePodGroup("g").Priority(10).Build());
    AddPod(Member("a", "g", 10, "1"));
  }
};

TEST_F(ReprieveTest, MostImportantVictimIsReprievedFirst) {
  Build();
  std::vector<ReprieveStep> steps;
  const GroupPreemption wap = F().PreemptGroup(G("g"), F().PendingMembers(G("g")), &steps);
  ASSERT_EQ(wap.kind, GroupPreemption::Kind::kPreempt);
  EXPECT_EQ(VictimKeys(wap.victims), Names{"default/lo"});
  EXPECT_EQ(wap.message, "found a placement for podgroup, preempting 1 victims");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].pod, "default/hi");
  EXPECT_TRUE(steps[0].reprieved);
  EXPECT_EQ(steps[1].pod, "default/lo");
  EXPECT_FALSE(steps[1].reprieved);
  ASSERT_EQ(wap.assignments.size(), 1u);
  EXPECT_EQ(wap.assignments[0].first, P("a"));
  EXPECT_EQ(wap.assignments[0].second, *M().FindNode("n1"));
  // The model is as before.
  EXPECT_EQ(M().node(0_node).pods, (std::vector<PodId>{P("hi"), P("lo")}));
  EXPECT_EQ(PI("a").node, kNoId);
}

TEST_F(ReprieveTest, PdbViolatingVictimsAreReprievedFirst) {
  AddPdb(MakePdb("pdb").Selector("app", "lo").DisruptionsAllowed(0).Build());
  Build();
  std::vector<ReprieveStep> steps;
  const GroupPreemption wap = F().PreemptGroup(G("g"), F().PendingMembers(G("g")), &steps);
  ASSERT_EQ(wap.kind, GroupPreemption::Kind::kPreempt);
  EXPECT_EQ(VictimKeys(wap.victims), Names{"default/hi"});
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].pod, "default/lo");
  EXPECT_TRUE(steps[0].pdb_violating);
  EXPECT_TRUE(steps[0].reprieved);
}

// The placement found with every victim removed is fixed: the reprieve never moves a member to
// another node, even when another node would spare a victim.
TEST_F(PodGroupTest, ReprieveIsAgainstTheFixedPlacement) {
  AddNode(NodeWithCpu("n1", "2").Label("pin", "yes").Build());
  AddNode(NodeWithCpu("n2", "2").Label("pin", "yes").Build());
  AddPod(MakePod("v1").Priority(1).Node("n1").Cpu("2").Build());
  AddPod(MakePod("v2").Priority(2).Node("n2").Cpu("2").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(MakePod("a").PodGroup("g").Priority(10).Cpu("2").NodeSelector("pin", "yes").Build());
  Build();
  std::vector<ReprieveStep> steps;
  const GroupPreemption wap = F().PreemptGroup(G("g"), F().PendingMembers(G("g")), &steps);
  ASSERT_EQ(wap.kind, GroupPreemption::Kind::kPreempt);
  ASSERT_EQ(wap.assignments.size(), 1u);
  // Exactly the victim on the proposed node goes; the other is spared.
  const std::string proposed = M().node(wap.assignments[0].second).name.string();
  EXPECT_EQ(VictimKeys(wap.victims), Names{proposed == "n1" ? "default/v1" : "default/v2"});
}

// A group preemptor takes an `all` victim group whole, on every node, as one unit (16.3, 18.3).
TEST_F(PodGroupTest, GroupPreemptionTakesAnAllVictimGroupAsOneUnit) {
  AddNode(NodeWithCpu("n1", "1").Label("pin", "n1").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddGroup(MakePodGroup("v").Priority(1).DisruptionAll().Build());
  AddPod(MakePod("v1").PodGroup("v").Priority(1).Cpu("1").Node("n1").Build());
  AddPod(MakePod("v2").PodGroup("v").Priority(1).Cpu("1").Node("n2").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(MakePod("a").PodGroup("g").Priority(10).Cpu("1").NodeSelector("pin", "n1").Build());
  Build();
  const GroupPreemption wap = F().PreemptGroup(G("g"), F().PendingMembers(G("g")), nullptr);
  ASSERT_EQ(wap.kind, GroupPreemption::Kind::kPreempt);
  EXPECT_EQ(wap.units, 1);
  EXPECT_EQ(VictimKeys(wap.victims), (Names{"default/v1", "default/v2"}));
  EXPECT_EQ(wap.message, "found a placement for podgroup, preempting 1 victims");
}

// ----------------------------------------------------------------------------------------------
// ExplainGroup.

TEST_F(PodGroupTest, ExplainGroupUnknownGroupIsNotFound) {
  AddGroup(MakePodGroup("g").Priority(10).Build());
  const auto r = kpsim::ExplainGroup(state, options, "default/nope");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
}

TEST_F(PodGroupTest, ExplainGroupWithoutGenericWorkloadIsFailedPrecondition) {
  options.gates.generic_workload = false;
  AddGroup(MakePodGroup("g").Priority(10).Build());
  const auto r = kpsim::ExplainGroup(state, options, "default/g");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kFailedPrecondition);
}

TEST_F(ReprieveTest, ExplainGroupShowsReprieveStepsVictimsAndNominations) {
  const auto r = kpsim::ExplainGroup(state, options, "default/g");
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->group.has_value());
  const GroupExplain& g = *r->group;
  EXPECT_EQ(g.group, "default/g");
  EXPECT_EQ(g.priority, 10);
  EXPECT_EQ(g.members, Names{"default/a"});
  EXPECT_FALSE(g.placeable);
  ASSERT_EQ(g.reprieve.size(), 2u);
  EXPECT_EQ(g.reprieve[0].pod, "default/hi");
  EXPECT_TRUE(g.reprieve[0].reprieved);
  EXPECT_FALSE(g.reprieve[1].reprieved);
  EXPECT_EQ(g.victims, Names{"default/lo"});
  EXPECT_EQ(g.nominations, (std::vector<std::pair<std::string, std::string>>{{"default/a", "n1"}}));
  EXPECT_THAT(g.preemption_message, HasSubstr("found a placement for podgroup, preempting 1 victims"));
}

TEST_F(PodGroupTest, ExplainGroupReportsTheValidationError) {
  AddGroup(MakePodGroup("g").Priority(100).Build());
  AddPod(Member("a", "g", 10, "1"));
  const auto r = kpsim::ExplainGroup(state, options, "default/g");
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->group.has_value());
  EXPECT_THAT(r->group->validation_error,
              HasSubstr("should have the same priority as the pod group's priority"));
}

// ----------------------------------------------------------------------------------------------
// GroupOutcome states.

TEST_F(PodGroupTest, OutcomeScheduledWhenEveryPodRuns) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(Member("a", "g", 10, "1"));
  AddPod(Member("b", "g", 10, "1"));
  const SimulationResult r = kpsim::engine::Simulate(state, options);
  const GroupOutcome* g = Outcome(r, "default/g");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->state, "Scheduled");
  EXPECT_EQ(g->pods, 2);
  EXPECT_EQ(g->placed, 2);
}

TEST_F(PodGroupTest, OutcomePartialForABasicGroupThatPlacedSome) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  for (const char* name : {"a", "b", "c"}) AddPod(Member(name, "g", 10, "1"));
  const SimulationResult r = kpsim::engine::Simulate(state, options);
  const GroupOutcome* g = Outcome(r, "default/g");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->state, "Partial");
  EXPECT_EQ(g->placed, 2);
}

TEST_F(PodGroupTest, OutcomeWaitingForMinCountForAGangThatCannotFit) {
  options.gates.gang_scheduling = true;
  AddNode(NodeWithCpu("n1", "2").Build());
  AddGroup(MakePodGroup("g").Priority(10).Gang(3).Build());
  for (const char* name : {"a", "b", "c"}) AddPod(Member(name, "g", 10, "1"));
  const SimulationResult r = kpsim::engine::Simulate(state, options);
  const GroupOutcome* g = Outcome(r, "default/g");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->state, "WaitingForMinCount");
  EXPECT_EQ(g->placed, 0);
  EXPECT_EQ(g->min_count, 3);
}

TEST_F(PodGroupTest, OutcomeRejectedWithTheValidationMessage) {
  AddNode(NodeWithCpu("n1", "2").Build());
  AddGroup(MakePodGroup("g").Priority(100).Build());
  AddPod(Member("a", "g", 10, "1"));
  const SimulationResult r = kpsim::engine::Simulate(state, options);
  const GroupOutcome* g = Outcome(r, "default/g");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->state, "Rejected");
  EXPECT_THAT(g->message, HasSubstr("should have the same priority as the pod group's priority"));
  EXPECT_EQ(g->placed, 0);
}

TEST_F(PodGroupTest, OutcomePendingForABasicGroupThatPlacedNothing) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddGroup(MakePodGroup("g").Priority(10).Build());
  AddPod(Member("a", "g", 10, "2"));
  const SimulationResult r = kpsim::engine::Simulate(state, options);
  const GroupOutcome* g = Outcome(r, "default/g");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->state, "Pending");
  EXPECT_FALSE(g->message.empty());
}

TEST_F(PodGroupTest, OutcomePreemptedWholeForAnAllGroupTakenAsOneVictim) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddGroup(MakePodGroup("g").Priority(1).DisruptionAll().Build());
  AddPod(MakePod("g1").PodGroup("g").Priority(1).Cpu("1").Node("n1").Build());
  AddPod(MakePod("g2").PodGroup("g").Priority(1).Cpu("1").Node("n2").Build());
  AddPod(MakePod("p").Priority(100).Cpu("1").Build());
  const SimulationResult r = kpsim::engine::Simulate(state, options);
  const GroupOutcome* g = Outcome(r, "default/g");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->state, "PreemptedWhole");
  EXPECT_EQ(g->preempted, 2);
  EXPECT_EQ(g->placed, 0);
}

}  // namespace
}  // namespace kpsim::engine::test
