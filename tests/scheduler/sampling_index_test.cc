// The sampling index's counting trees (src/scheduler/sampling_index.h) against plain arrays: the
// sampled preemption window is found by their prefix sums, totals and selects alone.

#include "scheduler/sampling_index.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace kpsim::engine {
namespace {

// Setup: sizes 1 to 300 (powers of two and their neighbours among them), 400 random additions
// and removals of 0/1 counts at random positions, each size from its own seed. Expect: after
// each change, Total, every Prefix and every Select equal to the array's sums and k-th ones.
TEST(PositionCountsTest, PrefixTotalAndSelectFollowThePlainCounts) {
  for (std::size_t n = 1; n <= 300; n += (n < 70 ? 1 : 23)) {
    SCOPED_TRACE(n);
    std::mt19937_64 rng(n);
    PositionCounts counts(n);
    std::vector<std::int32_t> plain(n, 0);
    for (int step = 0; step < 400; ++step) {
      const auto pos = static_cast<std::int32_t>(rng() % n);
      const std::int32_t delta = plain[static_cast<std::size_t>(pos)] == 0 ? +1 : -1;
      plain[static_cast<std::size_t>(pos)] += delta;
      counts.Add(pos, delta);
      std::int64_t sum = 0;
      std::vector<std::int32_t> ones;
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(counts.Prefix(static_cast<std::int32_t>(i)), sum) << "prefix " << i;
        sum += plain[i];
        if (plain[i] != 0) ones.push_back(static_cast<std::int32_t>(i));
      }
      ASSERT_EQ(counts.Prefix(static_cast<std::int32_t>(n)), sum);
      ASSERT_EQ(counts.Total(), sum);
      for (std::size_t k = 1; k <= ones.size(); ++k) {
        ASSERT_EQ(counts.Select(static_cast<std::int64_t>(k)), ones[k - 1]) << "select " << k;
      }
      ASSERT_EQ(counts.Select(static_cast<std::int64_t>(ones.size()) + 1), -1);
    }
  }
}

}  // namespace
}  // namespace kpsim::engine
