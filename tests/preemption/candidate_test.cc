// The tie-breaker table (src/preemption/candidate.h): the class index's CandidateKey orders
// candidates exactly as pickOneNodeForPreemption's criteria in kTieBreakers do.

#include "preemption/candidate.h"

#include <gtest/gtest.h>

#include <string>
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

}  // namespace
}  // namespace kpsim::engine
