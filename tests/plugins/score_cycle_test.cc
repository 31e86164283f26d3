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
  AddNode(Node4("ssd").Label("disk", "ssd").Build());
  AddNode(Node4("cached").Image("registry.example.com/app:v1", 3000 * kMiB).Build());
  HalfFill("ssd");
  AddPod(MakePod("p")
             .Cpu("100m")
             .Memory("100Mi")
             .Image("registry.example.com/app:v1")
             .PreferNode(1, "disk", "ssd")
             .Build());
  EXPECT_EQ(ChosenOverSeeds("p"), Times10("ssd"));
}

// Setup: as above, plus node `gold`, which matches both preferred terms (weights 1 and 50) but
// has a NoSchedule taint the pod does not tolerate, so it is not feasible.
// Expect: still `ssd`: NormalizeScore ranges over the feasible nodes, where `ssd`'s 1 is the
// highest (100). Normalized over all nodes, `ssd` would get 100 * 1 / 51 = 1 and lose.
TEST_F(ScoreCycleTest, NodeAffinityNormalizesOverTheFeasibleNodesOnly) {
  AddNode(Node4("ssd").Label("disk", "ssd").Build());
  AddNode(Node4("cached").Image("registry.example.com/app:v1", 3000 * kMiB).Build());
  AddNode(Node4("gold")
              .Label("disk", "ssd")
              .Label("tier", "gold")
              .Taint("dedicated", "x", TaintEffect::kNoSchedule)
              .Build());
  HalfFill("ssd");
  AddPod(MakePod("p")
             .Cpu("100m")
             .Memory("100Mi")
             .Image("registry.example.com/app:v1")
             .PreferNode(1, "disk", "ssd")
             .PreferNode(50, "tier", "gold")
             .Build());
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

}  // namespace
}  // namespace kpsim::engine::test
