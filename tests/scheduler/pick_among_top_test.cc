// PickAmongTop (src/scheduler/pick_among_top.h) must pick what selectHost's reservoir sampling
// picks and consume the same draws: seeded runs depend on both, bit for bit.

#include "scheduler/pick_among_top.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace kpsim::engine {
namespace {

// kube-scheduler's selectHost loop, one draw per tie, on the standard engine.
std::size_t Reservoir(const std::vector<std::int64_t>& scores, std::mt19937_64& rng) {
  std::size_t selected = 0;
  std::int64_t selected_score = scores[0];
  std::uint64_t count_of_max = 1;
  for (std::size_t i = 1; i < scores.size(); ++i) {
    if (scores[i] > selected_score) {
      selected_score = scores[i];
      selected = i;
      count_of_max = 1;
    } else if (scores[i] == selected_score) {
      ++count_of_max;
      if (rng() % count_of_max == 0) selected = i;
    }
  }
  return selected;
}

// Setup: 20,000 score lists of 1 to 3000 entries drawn from 1, 2, 3 or 50 distinct values, some
// rising (the top changes many times, each earlier top drawing for its own ties), all from one
// seeded stream that carries over between lists. Expect: the reservoir's index every time, and
// the generator where the reservoir leaves it (the next draw agrees).
TEST(PickAmongTopTest, PicksWhatTheReservoirPicksAndDrawsAsOften) {
  std::mt19937_64 shapes(5);
  std::mt19937_64 reference(77);
  Mt19937_64 ours(77);
  DivisibilityTable divisibility;
  std::vector<std::uint64_t> scratch;
  std::vector<std::int64_t> scores;
  int later_tie_picked = 0;    // the backward search stopped on a tie, not on the top's first
  int earlier_top_drew = 0;    // a top later overtaken drew for its own ties
  for (int round = 0; round < 20000; ++round) {
    const std::size_t count = 1 + shapes() % (round % 10 == 0 ? 3000 : 40);
    const std::int64_t values = std::vector<std::int64_t>{1, 2, 3, 50}[shapes() % 4];
    const bool rising = shapes() % 3 == 0;
    scores.clear();
    for (std::size_t i = 0; i < count; ++i) {
      const auto base = static_cast<std::int64_t>(shapes() % static_cast<std::uint64_t>(values));
      scores.push_back(rising ? base + static_cast<std::int64_t>(i / 7) : base);
    }
    const std::size_t want = Reservoir(scores, reference);
    const std::size_t got = PickAmongTop(scores.data(), scores.size(), ours, divisibility, scratch);
    ASSERT_EQ(got, want) << "round " << round << ", " << count << " scores";
    ASSERT_EQ(ours(), reference()) << "round " << round;
    std::int64_t top = scores[0];
    std::size_t first = 0;
    bool drew = false;
    for (std::size_t i = 1; i < count; ++i) {
      if (scores[i] == top) drew = true;
      if (scores[i] > top) {
        top = scores[i];
        first = i;
        earlier_top_drew += drew ? 1 : 0;
        drew = false;
      }
    }
    later_tie_picked += want > first ? 1 : 0;
  }
  EXPECT_GT(later_tie_picked, 1000);
  EXPECT_GT(earlier_top_drew, 1000);
}

// Setup: one score; all equal; a strictly rising list; the top only at the start. Expect: the
// reservoir's pick and draws in each.
TEST(PickAmongTopTest, EdgeShapes) {
  std::mt19937_64 reference(1);
  Mt19937_64 ours(1);
  DivisibilityTable divisibility;
  std::vector<std::uint64_t> scratch;
  const std::vector<std::vector<std::int64_t>> shapes = {
      {5}, std::vector<std::int64_t>(1000, 7), {1, 2, 3, 4, 5, 6}, {9, 1, 1, 1, 1, 1}, {3, 3, 9, 2, 9}};
  for (const std::vector<std::int64_t>& scores : shapes) {
    SCOPED_TRACE(scores.size());
    EXPECT_EQ(PickAmongTop(scores.data(), scores.size(), ours, divisibility, scratch), Reservoir(scores, reference));
    EXPECT_EQ(ours(), reference());
  }
  const std::vector<std::int64_t> rising = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(PickAmongTop(rising.data(), rising.size(), ours, divisibility, scratch), 5u);
  const std::vector<std::int64_t> first = {9, 1, 1, 1};
  EXPECT_EQ(PickAmongTop(first.data(), first.size(), ours, divisibility, scratch), 0u);
}

}  // namespace
}  // namespace kpsim::engine
