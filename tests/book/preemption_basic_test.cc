// PreemptionBasic (scheduler_perf's shape, issue 2) under the book profile: the answers at scale.
// Setup: N nodes of 4 CPU / 32Gi / 110 pods, each running four p0 pods of 900m/500Mi; 5000 pending
// p10 pods of 3 CPU/500Mi (N = 5000 as in the issue; fewer nodes here keep the Debug run short).
// Expect: every node is a candidate with 3 victims (the first p0 pod by name is put back), all
// tie on (0 violations, topVictim 0, 3 victims), so the node name decides; each preemptor lands on
// the next node by name; the victims then find no room and no lower pod: stuck.
// The timing is measured by hand in a Release build (docs/book-profile.md), not asserted here.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "book/book.h"
#include "book/book_builders.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"

namespace kpsim::book {
namespace {

using testing::MakeNode;
using testing::MakePod;

ClusterState PreemptionBasic(int nodes, int pending) {
  constexpr std::int64_t kMi = 1024 * 1024;
  ClusterState state;
  for (int node_idx = 0; node_idx < nodes; ++node_idx) {
    char name[32];
    std::snprintf(name, sizeof(name), "node-%05d", node_idx);
    state.nodes.push_back(MakeNode(name, 4000, 32 * 1024 * kMi, 110));
    for (int pod_idx = 0; pod_idx < 4; ++pod_idx) {
      state.pods.push_back(MakePod(std::string("low-") + name + "-" + std::to_string(pod_idx))
                               .Priority(0)
                               .MilliCpu(900)
                               .Memory(500 * kMi)
                               .Node(name)
                               .Build());
    }
  }
  for (int pod_idx = 0; pod_idx < pending; ++pod_idx) {
    state.pods.push_back(MakePod("high-" + std::to_string(pod_idx))
                             .Priority(10)
                             .MilliCpu(3000)
                             .Memory(500 * kMi)
                             .Build());
  }
  return state;
}

TEST(BookPreemptionBasicTest, EachPreemptorTakesTheNextNodeByNameAndVictimsGetStuck) {
  constexpr int kNodes = 1000;
  const ClusterState state = PreemptionBasic(kNodes, kNodes);
  EngineOptions options;
  options.profile = Profile::kBook;
  options.origin = WallTime{};
  const SimulationResult result = book::Simulate(state, options);
  EXPECT_EQ(result.end_reason, "quiescent");
  EXPECT_EQ(result.stats.victims, 3 * kNodes);
  EXPECT_EQ(result.stats.scheduling_attempts, 4 * kNodes);
  int scheduled = 0, stuck = 0;
  for (const SimEvent& e : result.events) {
    if (e.reason == EventReason::kScheduled) {
      char expected[32];
      std::snprintf(expected, sizeof(expected), "node-%05d", scheduled);
      ASSERT_EQ(e.node, expected) << e.pod;
      ++scheduled;
    }
    stuck += e.reason == EventReason::kFailedScheduling ? 1 : 0;
  }
  EXPECT_EQ(scheduled, kNodes);
  EXPECT_EQ(stuck, 3 * kNodes);
  // The pod put back on every node is the first by name.
  EXPECT_EQ(result.PodName(result.nodes[0].pods.front()), "default/low-node-00000-0");
  EXPECT_EQ(result.nodes[0].pods.size(), 2u);
}

}  // namespace
}  // namespace kpsim::book
