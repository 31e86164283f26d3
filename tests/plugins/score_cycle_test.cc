// The score plugins through the real cycle: the registry's plugins with their weights, PreScore
// over the feasible nodes and SelectHost (Framework::Decide). Each test is built so that a wrong
// weight, a missing normalization or a normalization over the wrong nodes picks another node.
//
// Arithmetic shared by the tests (4 CPU / 8Gi nodes, a 100m / 100Mi incoming pod):
//   an empty node:            LeastAllocated 97, BalancedAllocation 99, TaintToleration 100 (x3);
//   a node with 2 CPU / 4Gi:  LeastAllocated 47, BalancedAllocation 99, TaintToleration 100 (x3).
// So the half-full node starts 50 points behind.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kpsim/engine.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

constexpr std::int64_t kMiB = 1024 * 1024;

class ScoreCycleTest : public ::testing::Test, public CycleHarness {
 protected:
  static kpsim::testing::NodeBuilder Node4(std::string name) {
    return std::move(MakeNode(std::move(name)).Cpu("4").Memory("8Gi").Pods(110));
  }
  // Half of `node`'s CPU and memory taken by a bound pod.
  void HalfFill(const std::string& node) {
    AddPod(MakePod("filler-" + node).Node(node).Cpu("2").Memory("4Gi").Build());
  }
  // The node chosen for `pod` with each of the seeds 1..10: a tie broken by chance shows up as
  // more than one node.
  std::vector<std::string> ChosenOverSeeds(const std::string& pod) {
    std::vector<std::string> chosen;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      options.seed = seed;
      const Decision d = Decide(pod);
      EXPECT_EQ(d.kind, Decision::Kind::kBind) << d.message;
      chosen.push_back(NodeName(d.node));
    }
    return chosen;
  }
  static std::vector<std::string> Times10(const std::string& node) {
    return std::vector<std::string>(10, node);
  }
  // Node `ssd` (labelled disk=ssd, half full) and node `cached` (empty, holding the 3000Mi image
  // registry.example.com/app:v1).
  void AddSsdAndCachedNodes() {
    AddNode(Node4("ssd").Label("disk", "ssd").Build());
    AddNode(Node4("cached").Image("registry.example.com/app:v1", 3000 * kMiB).Build());
    HalfFill("ssd");
  }
  // Pod `p` (100m, 100Mi) of that image, preferring disk=ssd with weight 1.
  static kpsim::testing::PodBuilder ImagePodPreferringSsd() {
    return std::move(MakePod("p")
                         .Cpu("100m")
                         .Memory("100Mi")
                         .Image("registry.example.com/app:v1")
                         .PreferNode(1, "disk", "ssd"));
  }
};

// Setup: five identical empty nodes, one labelled disk=ssd; the pod prefers disk=ssd (weight 1).
// Expect: the labelled node, whatever the seed (without NodeAffinity's score it is a 5-way tie).
TEST_F(ScoreCycleTest, NodeAffinityPreferredTermPicksTheMatchingNodeWhenResourcesTie) {
  for (const char* name : {"n1", "n2", "n3", "n4"}) AddNode(Node4(name).Build());
  AddNode(Node4("ssd").Label("disk", "ssd").Build());
  AddPod(MakePod("p").Cpu("100m").Memory("100Mi").PreferNode(1, "disk", "ssd").Build());
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("ssd"));
}

// Setup: node `ssd` matches the pod's only preferred term (weight 1) but is half full; node
// `cached` is empty and holds the pod's 3000Mi image (ImageLocality 100).
// Expect: `ssd`. 47 + 99 + 300 + 2 * 100 (NodeAffinity normalized to 100, weight 2) = 646 beats
// 97 + 99 + 300 + 1 * 100 (ImageLocality, weight 1) = 596. With NodeAffinity at weight 1,
// ImageLocality at weight 2, or the raw term weight (1) instead of the normalized 100, `cached`
// would win.
TEST_F(ScoreCycleTest, NodeAffinityWeightTwoOutweighsImageLocalityWeightOne) {
  AddSsdAndCachedNodes();
  AddPod(ImagePodPreferringSsd().Build());
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("ssd"));
}

// Setup: as above, plus node `gold`, which matches both preferred terms (weights 1 and 50) but
// has a NoSchedule taint the pod does not tolerate, so it is not feasible.
// Expect: still `ssd`: NormalizeScore ranges over the feasible nodes, where `ssd`'s 1 is the
// highest (100). Normalized over all nodes, `ssd` would get 100 * 1 / 51 = 1 and lose.
TEST_F(ScoreCycleTest, NodeAffinityNormalizesOverTheFeasibleNodesOnly) {
  AddSsdAndCachedNodes();
  AddNode(Node4("gold")
              .Label("disk", "ssd")
              .Label("tier", "gold")
              .Taint("dedicated", "x", TaintEffect::kNoSchedule)
              .Build());
  AddPod(ImagePodPreferringSsd().PreferNode(50, "tier", "gold").Build());
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("ssd"));
}

// Setup: five identical empty nodes; `cached` holds the pod's image (1000Mi, under its
// normalized name: the pod names it without a tag).
// Expect: `cached`, whatever the seed.
TEST_F(ScoreCycleTest, ImageLocalityBreaksATie) {
  for (const char* name : {"n1", "n2", "n3", "n4"}) AddNode(Node4(name).Build());
  AddNode(Node4("cached").Image("registry.example.com/app:latest", 1000 * kMiB).Build());
  AddPod(MakePod("p").Cpu("100m").Memory("100Mi").Image("registry.example.com/app").Build());
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("cached"));
}

// Setup: `cached` holds the pod's image but is half full (50 points behind on LeastAllocated).
// Expect: the emptier node: ImageLocality (at most 100, weight 1) scaled down by the image's
// spread (on 1 of 2 nodes: 1000Mi * 1/2 = 500Mi, score 100 * (500 - 23) / (1000 - 23) = 48)
// does not make up the 50 points.
TEST_F(ScoreCycleTest, ImageLocalityIsScaledByTheImagesSpread) {
  AddNode(Node4("cached").Image("registry.example.com/app:v1", 1000 * kMiB).Build());
  AddNode(Node4("empty").Build());
  HalfFill("cached");
  AddPod(MakePod("p").Cpu("100m").Memory("100Mi").Image("registry.example.com/app:v1").Build());
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("empty"));
}

// ----------------------------------------------------------------------------------------------
// InterPodAffinity.

constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kHostname = "kubernetes.io/hostname";

// Setup: zones z1 (nodes z1a, z1b) and z2 (z2a, z2b); a db pod runs on z2a. The pod prefers
// (weight 1) to be in the zone of app=db pods.
// Expect: z2b, whatever the seed: zone z2 scores 100 (x2); z2a is a little fuller than z2b. Without
// the score, z1a, z1b and z2b tie.
TEST_F(ScoreCycleTest, InterPodAffinityPreferredAffinityPullsIntoTheZone) {
  for (const char* name : {"z1a", "z1b", "z2a", "z2b"}) {
    AddNode(Node4(name).Label(kZone, std::string(name).substr(0, 2)).Label(kHostname, name).Build());
  }
  AddPod(MakePod("db").Node("z2a").Label("app", "db").Build());
  AddPod(MakePod("p").Cpu("100m").Memory("100Mi").PreferPods(1, "app", "db", kZone).Build());
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("z2b"));
}

// Setup: web pods run on n1 and n2, which also hold the pod's image (ImageLocality 100); n3 is
// 3.5 of its 4 CPUs full. The pod prefers (weight 1) not to share a host with app=web.
// Expect: n3. Without InterPodAffinity n1 = 95 + 99 + 300 + 100 = 594 and n3 = 54 + 55 + 300 = 409;
// the anti-affinity normalizes n3 to 100 and n1, n2 to 0, so n3 gets 409 + 2 * 100 = 609. At
// weight 1 (509) n1 or n2 would win.
TEST_F(ScoreCycleTest, InterPodAffinityPreferredAntiAffinityWeighsTwo) {
  for (const char* name : {"n1", "n2"}) {
    AddNode(Node4(name).Label(kHostname, name).Image("app:v1", 3000 * kMiB).Build());
    AddPod(MakePod(std::string("web-") + name).Node(name).Label("app", "web").Build());
  }
  AddNode(Node4("n3").Label(kHostname, "n3").Build());
  AddPod(MakePod("filler").Node("n3").Cpu("3500m").Memory("1Mi").Build());
  AddPod(MakePod("p")
             .Cpu("100m")
             .Memory("100Mi")
             .Image("app:v1")
             .PreferPods(1, "app", "web", kHostname, /*anti=*/true)
             .Build());
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("n3"));
}

// Setup: three empty nodes; on n2 runs a pod that REQUIRES app=cache pods on its host. The
// incoming pod is app=cache and has no affinity terms of its own.
// Expect: n2 (processExistingPod: the existing pod's required term counts with
// hardPodAffinityWeight 1, normalized to 100). PreScore must not skip just because the incoming
// pod has no preferred terms.
TEST_F(ScoreCycleTest, InterPodAffinityExistingRequiredAffinityAttractsTheMatchingPod) {
  for (const char* name : {"n1", "n2", "n3"}) AddNode(Node4(name).Label(kHostname, name).Build());
  AddPod(MakePod("app").Node("n2").RequirePods("app", "cache", kHostname).Build());
  AddPod(MakePod("p").Cpu("100m").Memory("100Mi").Label("app", "cache").Build());
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("n2"));
}

// Setup: n1 is empty, n2 and n3 half full; on n1 runs a pod that prefers (weight 10) not to
// share its host with app=noisy pods. The incoming pod is app=noisy.
// Expect: n2 or n3, never n1: n1's 50-point lead on LeastAllocated is less than the 2 * 100 the
// existing pod's preferred anti-affinity takes away. A pod in another namespace does not count:
// `other/p` (app=noisy too) goes to n1.
TEST_F(ScoreCycleTest, InterPodAffinityExistingPreferredAntiAffinityRepelsInItsNamespaceOnly) {
  for (const char* name : {"n1", "n2", "n3"}) AddNode(Node4(name).Label(kHostname, name).Build());
  HalfFill("n2");
  HalfFill("n3");
  AddPod(MakePod("quiet").Node("n1").PreferPods(10, "app", "noisy", kHostname, /*anti=*/true).Build());
  AddPod(MakePod("p").Cpu("100m").Memory("100Mi").Label("app", "noisy").Build());
  AddPod(MakePod("p").Namespace("other").Cpu("100m").Memory("100Mi").Label("app", "noisy").Build());
  for (const std::string& node : ChosenOverSeeds("p")) EXPECT_NE(node, "n1");
  EXPECT_EQ(ChosenOverSeeds("other/p"), Times10("n1"));
}

// Setup: a pod group (GenericWorkload) of two pods that prefer a host with app=g pods, on three
// empty nodes; both are placed in one group cycle, the second while the first is only Assume'd.
// Expect: both on the same node, whatever the seed: PreScore reads the Assume'd pod.
TEST_F(ScoreCycleTest, InterPodAffinitySeesPodsAssumedInAPodGroupCycle) {
  options.gates.generic_workload = true;
  for (const char* name : {"n1", "n2", "n3"}) AddNode(Node4(name).Label(kHostname, name).Build());
  PodGroup group = kpsim::testing::MakePodGroup("g").Priority(0).Build();
  group.meta.namespace_ = "default";
  state.pod_groups.push_back(group);
  for (const char* name : {"a", "b"}) {
    AddPod(MakePod(name)
               .PodGroup("g")
               .Cpu("100m")
               .Memory("100Mi")
               .Label("app", "g")
               .PreferPods(1, "app", "g", kHostname)
               .Build());
  }
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    options.seed = seed;
    const SimulationResult r = kpsim::Simulate(state, options);
    ASSERT_EQ(r.pods.size(), 2U);
    EXPECT_EQ(r.pods[0].state, PodState::kRunning);
    EXPECT_FALSE(r.pods[0].node.empty());
    EXPECT_EQ(r.pods[0].node, r.pods[1].node) << "seed " << seed;
  }
}

// PodTopologySpread's score. Shared setup (`WebOnN1`): n1 runs three app=web pods (100m / 100Mi
// each), n2 a 500m / 1Gi filler; the incoming web pod (app=web, controller ReplicaSet web-abc).
// Without the score n1 wins on resources (LeastAllocated 92 vs 85). With the default constraints
// (hostname maxSkew 3; no node has a zone) n1 scores round(3 * ln 4 + 2) = 6 and n2 2, which
// normalize to 33 and 100: n2 leads by 2 * 67.
class SpreadScoreCycleTest : public ScoreCycleTest {
 protected:
  void WebOnN1(const std::string& ns = "default") {
    for (const char* name : {"n1", "n2"}) AddNode(Node4(name).Label(kHostname, name).Build());
    for (int i = 0; i < 3; ++i) {
      AddPod(MakePod("web-" + std::to_string(i)).Namespace(ns).Node("n1").Cpu("100m").Memory("100Mi")
                 .Label("app", "web").Build());
    }
    AddPod(MakePod("filler").Node("n2").Cpu("500m").Memory("1Gi").Build());
    AddPod(MakePod("p").Cpu("100m").Memory("100Mi").Label("app", "web").Owner("ReplicaSet", "web-abc").Build());
  }
  void AddReplicaSet() {
    state.controllers.push_back({"ReplicaSet", "default", "web-abc", LabelSelector{{{"app", "web"}}, {}}});
  }
};

// Setup: WebOnN1, neither a Service nor the ReplicaSet known. Expect: n1 (nothing to spread by;
// this is the control for the tests below).
TEST_F(SpreadScoreCycleTest, WithoutASelectorResourcesDecide) {
  WebOnN1();
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("n1"));
}

// Setup: WebOnN1 with ReplicaSet web-abc (selector app=web). Expect: n2, away from its siblings.
TEST_F(SpreadScoreCycleTest, TheReplicaSetsSelectorSpreadsItsPodsByDefault) {
  WebOnN1();
  AddReplicaSet();
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("n2"));
}

// Setup: WebOnN1 with a Service selecting app=web instead of the ReplicaSet. Expect: n2.
TEST_F(SpreadScoreCycleTest, AServiceSelectingThePodSpreadsItByDefault) {
  WebOnN1();
  state.services.push_back(kpsim::testing::MakeService("web", "default", Labels{{"app", "web"}}));
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("n2"));
}

// Setup: WebOnN1 with the ReplicaSet, but the three web pods live in namespace `other`.
// Expect: n1: only pods of the incoming pod's namespace count.
TEST_F(SpreadScoreCycleTest, OnlyPodsOfThePodsNamespaceCount) {
  WebOnN1("other");
  AddReplicaSet();
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("n1"));
}

// Setup: WebOnN1 with the ReplicaSet; the pod has its own DoNotSchedule constraint (maxSkew 10,
// never violated). Expect: n1: a pod with constraints of its own gets no default ones, and a
// DoNotSchedule constraint does not score.
TEST_F(SpreadScoreCycleTest, OwnConstraintsReplaceTheDefaultsAndOnlyScheduleAnywayScores) {
  WebOnN1();
  AddReplicaSet();
  TopologySpreadConstraint c;
  c.max_skew = 10;
  c.topology_key = kHostname;
  c.when_unsatisfiable = UnsatisfiableConstraintAction::kDoNotSchedule;
  c.label_selector = LabelSelector{{{"app", "web"}}, {}};
  state.pods.back().spec.topology_spread_constraints.push_back(c);
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("n1"));
  // The same constraint as ScheduleAnyway scores (maxSkew 10: n1 round(3 ln 4 + 9) = 13, n2 9,
  // normalized 69 and 100): n2.
  state.pods.back().spec.topology_spread_constraints.back().when_unsatisfiable =
      UnsatisfiableConstraintAction::kScheduleAnyway;
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("n2"));
}

// Setup: WebOnN1 with the ReplicaSet, but n1's three web pods are being deleted
// (deletionTimestamp set, as preemption victims are). Expect: n1: terminating pods are not
// counted (both nodes score 2, normalized to 100 each), though they still hold their resources.
// Counted, they would send the pod to n2.
TEST_F(SpreadScoreCycleTest, TerminatingPodsAreNotCounted) {
  WebOnN1();
  AddReplicaSet();
  for (std::size_t i = 0; i < 3; ++i) state.pods[i].meta.deletion_timestamp = WallTime{kOriginUs};
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("n1"));
}

}  // namespace
}  // namespace kpsim::engine::test
