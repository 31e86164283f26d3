// numFeasibleNodesToFind with percentageOfNodesToScore (from a KubeSchedulerConfiguration).

#include <gtest/gtest.h>

#include "scheduler/framework.h"

namespace kpsim::engine {
namespace {

TEST(NumFeasibleNodesToFindTest, AdaptivePercentageWhenUnset) {
  EXPECT_EQ(NumFeasibleNodesToFind(50), 50u);      // fewer than 100 nodes: all
  EXPECT_EQ(NumFeasibleNodesToFind(1000), 420u);   // 50 - 1000/125 = 42 %
  EXPECT_EQ(NumFeasibleNodesToFind(6000), 300u);   // floor of 5 %
  EXPECT_EQ(NumFeasibleNodesToFind(1000, 0), 420u);
}

TEST(NumFeasibleNodesToFindTest, ConfiguredPercentage) {
  EXPECT_EQ(NumFeasibleNodesToFind(1000, 30), 300u);
  EXPECT_EQ(NumFeasibleNodesToFind(1000, 100), 1000u);
  EXPECT_EQ(NumFeasibleNodesToFind(1000, 1), 100u);  // at least minFeasibleNodesToFind
  EXPECT_EQ(NumFeasibleNodesToFind(50, 10), 50u);     // small clusters: every node
}

}  // namespace
}  // namespace kpsim::engine
