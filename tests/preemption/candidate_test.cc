// The tie-breaker table (src/preemption/candidate.h): the class index's CandidateKey orders
// candidates exactly as pickOneNodeForPreemption's criteria in kTieBreakers do.

#include "preemption/candidate.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace kpsim::engine {
namespace {

Candidate Make(int pdb_violations, std::int64_t highest, std::int64_t sum, int victims,
               std::int64_t latest_start) {
  Candidate c;
  c.pdb_violations = pdb_violations;
  c.highest_priority = highest;
  c.priority_sum = sum;
  c.victims.resize(static_cast<std::size_t>(victims));
  c.latest_start = latest_start;
  return c;
}

TEST(CandidateTest, TieBreakersFollowPickOneNodeForPreemption) {
  std::vector<std::string> names;
  for (const TieBreaker& t : kTieBreakers) names.emplace_back(t.label);
  EXPECT_EQ(names, (std::vector<std::string>{"fewest PDB violations", "lowest highest-victim priority",
                                             "smallest sum of victim priorities", "fewest victims",
                                             "latest start time of the highest-priority victims"}));
}

TEST(CandidateTest, KeyOrdersByEachTieBreakerInTurn) {
  // Each pair differs first in the criterion named; the first of the pair is better.
  const std::vector<std::pair<Candidate, Candidate>> pairs = {
      {Make(0, 9, 9, 9, 0), Make(1, 0, 0, 1, 9)},  // fewer PDB violations wins over all else
      {Make(0, 1, 9, 9, 0), Make(0, 2, 0, 1, 9)},  // lower highest priority
      {Make(0, 1, 5, 9, 0), Make(0, 1, 6, 1, 9)},  // smaller priority sum
      {Make(0, 1, 5, 2, 0), Make(0, 1, 5, 3, 9)},  // fewer victims
      {Make(0, 1, 5, 2, 7), Make(0, 1, 5, 2, 6)},  // later start wins
  };
  for (const auto& [better, worse] : pairs) {
    EXPECT_TRUE(CandidateKey::Of(better, 1) < CandidateKey::Of(worse, 0));
    EXPECT_FALSE(CandidateKey::Of(worse, 0) < CandidateKey::Of(better, 1));
  }
  // Full ties: the first in node order.
  EXPECT_TRUE(CandidateKey::Of(Make(0, 1, 5, 2, 7), 0) < CandidateKey::Of(Make(0, 1, 5, 2, 7), 1));
}

// The key keeps each row at the width its range needs: a pod priority in 32 bits, a sum of
// shifted priorities and a time in 64. Setup: pairs that differ only at the ends of those ranges
// (the lowest and highest pod priorities, sums past 2^32, times past 2^31 microseconds, the
// latest start a candidate can have). Expect: the order of the table, not of a narrowed value.
TEST(CandidateTest, KeyOrdersTheFullRangeOfEachRow) {
  constexpr std::int64_t kMinPriority = std::numeric_limits<std::int32_t>::min();
  constexpr std::int64_t kMaxPriority = std::numeric_limits<std::int32_t>::max();
  constexpr std::int64_t kTwo32 = std::int64_t{1} << 32;
  constexpr std::int64_t kNoStart = std::numeric_limits<std::int64_t>::max();
  const std::vector<std::pair<Candidate, Candidate>> pairs = {
      {Make(0, kMinPriority, 1, 1, 0), Make(0, kMaxPriority, 1, 1, 0)},
      {Make(0, kMaxPriority - 1, 1, 1, 0), Make(0, kMaxPriority, 1, 1, 0)},
      {Make(0, 1, 3 * kTwo32, 9, 0), Make(0, 1, 3 * kTwo32 + 1, 1, 0)},
      {Make(0, 1, kTwo32, 9, 0), Make(0, 1, 2 * kTwo32, 1, 0)},
      {Make(0, 1, 5, 2, kNoStart), Make(0, 1, 5, 2, kNoStart - 1)},
      {Make(0, 1, 5, 2, kTwo32 + 1), Make(0, 1, 5, 2, kTwo32)},
  };
  for (const auto& [better, worse] : pairs) {
    const CandidateKey b = CandidateKey::Of(better, 1);
    const CandidateKey w = CandidateKey::Of(worse, 0);
    EXPECT_TRUE(b < w);
    EXPECT_FALSE(w < b);
    EXPECT_LT(b.CompareRows(w), 0);
    EXPECT_GT(w.CompareRows(b), 0);
  }
  // The rows' values come back as the table gives them.
  const CandidateKey k = CandidateKey::Of(Make(3, kMinPriority, 7 * kTwo32, 4, kNoStart), 9);
  EXPECT_EQ(k.pdb_violations, 3);
  EXPECT_EQ(k.highest_priority, kMinPriority);
  EXPECT_EQ(k.priority_sum, 7 * kTwo32);
  EXPECT_EQ(k.victims, 4);
  EXPECT_EQ(k.latest_start, kNoStart);
  EXPECT_EQ(k.pos, 9);
  EXPECT_EQ(k.CompareRows(CandidateKey::Of(Make(3, kMinPriority, 7 * kTwo32, 4, kNoStart), 0)), 0);
}

}  // namespace
}  // namespace kpsim::engine
