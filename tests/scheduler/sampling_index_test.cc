// The sampling index's trees (src/scheduler/sampling_index.h) against plain arrays: the sampled
// preemption window is found by the counting tree's prefix sums, totals and selects alone (its
// lanes each as a tree of their own would count), and its ranking by the best-key tree's range
// queries alone.

#include "scheduler/sampling_index.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace kpsim::engine {
namespace {

// Setup: one lane, sizes 1 to 300 (powers of two and their neighbours among them, and a word's
// 64 positions and their neighbours), and sizes over several levels of the tree over the words
// (4095 to 4161 positions: 64 to 66 words), 400 random additions and removals of 0/1 counts at
// random positions, each size from its own seed.
// Expect: after each change, Total, every Prefix and every Select equal to the array's sums and
// k-th ones.
TEST(LaneCountsTest, OneLaneFollowsThePlainCounts) {
  std::vector<std::size_t> sizes;
  for (std::size_t n = 1; n <= 300; n += (n < 70 ? 1 : 23)) sizes.push_back(n);
  for (std::size_t n : {4095, 4096, 4097, 4160, 4161}) sizes.push_back(n);
  for (std::size_t n : sizes) {
    SCOPED_TRACE(n);
    std::mt19937_64 rng(n);
    LaneCounts<1> counts(n);
    std::vector<std::int32_t> plain(n, 0);
    for (int step = 0; step < 400; ++step) {
      const auto pos = static_cast<std::int32_t>(rng() % n);
      const std::int32_t delta = plain[static_cast<std::size_t>(pos)] == 0 ? +1 : -1;
      plain[static_cast<std::size_t>(pos)] += delta;
      counts.Add(pos, 0, delta);
      std::int64_t sum = 0;
      std::vector<std::int32_t> ones;
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(counts.Prefix(static_cast<std::int32_t>(i))[0], sum) << "prefix " << i;
        sum += plain[i];
        if (plain[i] != 0) ones.push_back(static_cast<std::int32_t>(i));
      }
      ASSERT_EQ(counts.Prefix(static_cast<std::int32_t>(n))[0], sum);
      ASSERT_EQ(counts.Total(0), sum);
      for (std::size_t k = 1; k <= ones.size(); ++k) {
        ASSERT_EQ(counts.Select(0, static_cast<std::int64_t>(k)), ones[k - 1]) << "select " << k;
      }
      ASSERT_EQ(counts.Select(0, static_cast<std::int64_t>(ones.size()) + 1), -1);
    }
  }
}

// Setup: sizes 1 to 200, 300 random changes each over four lanes of one tree: single-lane
// additions and paired ones (one walk changing two lanes, as a candidate's count and its
// clean or violating count change together), each lane's counts kept 0/1 per position.
// Expect: after each change, every lane's Total, Prefix (all lanes from one walk) and Select
// equal to the plain arrays' sums and k-th ones.
TEST(LaneCountsTest, EachLaneFollowsItsPlainCounts) {
  constexpr std::size_t kLanes = 4;
  for (std::size_t n = 1; n <= 200; n += (n < 40 ? 1 : 31)) {
    SCOPED_TRACE(n);
    std::mt19937_64 rng(500 + n);
    LaneCounts<kLanes> counts(n);
    std::vector<std::array<std::int32_t, kLanes>> plain(n, std::array<std::int32_t, kLanes>{});
    auto flip = [&](std::int32_t pos, std::size_t lane) {
      const std::int32_t delta = plain[static_cast<std::size_t>(pos)][lane] == 0 ? +1 : -1;
      plain[static_cast<std::size_t>(pos)][lane] += delta;
      return delta;
    };
    for (int step = 0; step < 300; ++step) {
      const auto pos = static_cast<std::int32_t>(rng() % n);
      const std::size_t lane = rng() % kLanes;
      if (rng() % 2 == 0) {
        counts.Add(pos, lane, flip(pos, lane));
      } else {
        const std::size_t other = (lane + 1 + rng() % (kLanes - 1)) % kLanes;
        const std::int32_t delta = flip(pos, lane);
        counts.Add(pos, lane, delta, other, flip(pos, other));
      }
      LaneCounts<kLanes>::Sums sum{};
      std::array<std::vector<std::int32_t>, kLanes> ones;
      for (std::size_t i = 0; i <= n; ++i) {
        ASSERT_EQ(counts.Prefix(static_cast<std::int32_t>(i)), sum) << "prefix " << i;
        if (i == n) break;
        for (std::size_t l = 0; l < kLanes; ++l) {
          sum[l] += plain[i][l];
          if (plain[i][l] != 0) ones[l].push_back(static_cast<std::int32_t>(i));
        }
      }
      for (std::size_t l = 0; l < kLanes; ++l) {
        ASSERT_EQ(counts.Total(l), sum[l]) << "lane " << l;
        for (std::size_t k = 1; k <= ones[l].size(); ++k) {
          ASSERT_EQ(counts.Select(l, static_cast<std::int64_t>(k)), ones[l][k - 1]) << "lane " << l << " select " << k;
        }
        ASSERT_EQ(counts.Select(l, static_cast<std::int64_t>(ones[l].size()) + 1), -1) << "lane " << l;
      }
    }
  }
}

// Setup: sizes 1 to 300, 600 random changes each: a position gets a key (scores drawn from a
// few values, so that keys tie on every score and only the position tells them apart) or
// loses it; a changed key may be better, worse or equal to its old one. Expect: after each
// change, the best key of the ranges [first, last) from position 0 and from five random
// firsts, to every last, equal to the least of the plain array's keys there by
// CandidateKey::operator< (absent when the range holds none).
TEST(BestKeysTest, BestOfEveryRangeFollowsThePlainKeys) {
  for (std::size_t n = 1; n <= 300; n += (n < 40 ? 1 : 37)) {
    SCOPED_TRACE(n);
    std::mt19937_64 rng(1000 + n);
    BestKeys keys(n);
    std::vector<std::optional<CandidateKey>> plain(n);
    for (int step = 0; step < 600; ++step) {
      const auto pos = static_cast<std::int32_t>(rng() % n);
      auto& slot = plain[static_cast<std::size_t>(pos)];
      if (slot && rng() % 3 == 0) {
        slot.reset();
        keys.Clear(pos);
      } else {
        CandidateKey key;
        auto draw = [&] { return static_cast<std::int32_t>(rng() % 3) - 1; };
        key.pdb_violations = draw();
        key.highest_priority = draw();
        key.priority_sum = draw();
        key.victims = draw();
        key.latest_start = draw();
        key.pos = pos;
        slot = key;
        keys.Set(pos, key);
      }
      for (int probe = 0; probe < 6; ++probe) {
        const std::size_t first = probe == 0 ? 0 : rng() % (n + 1);
        const CandidateKey* want = nullptr;
        for (std::size_t last = first; last <= n; ++last) {
          if (last > first && plain[last - 1] && (want == nullptr || *plain[last - 1] < *want)) {
            want = &*plain[last - 1];
          }
          const CandidateKey& got = keys.Best(static_cast<std::int32_t>(first), static_cast<std::int32_t>(last));
          if (want == nullptr) {
            ASSERT_TRUE(BestKeys::IsAbsent(got)) << "[" << first << ", " << last << ")";
          } else {
            ASSERT_FALSE(BestKeys::IsAbsent(got)) << "[" << first << ", " << last << ")";
            ASSERT_EQ(got.pos, want->pos) << "[" << first << ", " << last << ")";
            ASSERT_EQ(got, *want) << "[" << first << ", " << last << ")";
          }
        }
      }
    }
  }
}

// Setup: a tree of 1000 positions (not a power of two). Expect: no storage until the first key
// (clearing a position of an empty tree allocates none, and every range is absent); then a key
// per position and two per block of them, not two per position; a cleared tree answers absent.
TEST(BestKeysTest, AllocatesAKeyPerPositionAndTwoPerBlockAtTheFirstKey) {
  constexpr std::size_t kN = 1000;
  BestKeys keys(kN);
  EXPECT_EQ(keys.Bytes(), 0u);
  keys.Clear(17);
  EXPECT_EQ(keys.Bytes(), 0u);
  EXPECT_TRUE(BestKeys::IsAbsent(keys.Best(0, static_cast<std::int32_t>(kN))));
  CandidateKey key;
  key.victims = 2;
  key.pos = 999;
  keys.Set(999, key);
  static_assert(kN % BestKeys::kBlock == 0);
  EXPECT_EQ(keys.Bytes(), (kN + 2 * kN / BestKeys::kBlock) * sizeof(CandidateKey));
  EXPECT_EQ(keys.Best(0, static_cast<std::int32_t>(kN)), key);
  EXPECT_TRUE(BestKeys::IsAbsent(keys.Best(0, 999)));
  keys.Clear(999);
  EXPECT_TRUE(BestKeys::IsAbsent(keys.Best(0, static_cast<std::int32_t>(kN))));
}

// Setup: a sampling index whose candidates are all clean. Expect: the violating candidates'
// tree holds no storage, and the four counts follow the additions and removals.
TEST(SamplingIndexTest, KeepsNoViolatingTreeWithoutViolatingCandidates) {
  SamplingIndex s(100);
  for (std::int32_t pos = 0; pos < 100; pos += 7) {
    s.AddPotential(pos, +1);
    CandidateKey key;
    key.pos = pos;
    s.AddCandidate(pos, key, /*is_clean=*/true);
  }
  s.RemoveCandidate(14, /*is_clean=*/true);
  EXPECT_EQ(s.violating_keys.Bytes(), 0u);
  EXPECT_GT(s.clean_keys.Bytes(), 0u);
  EXPECT_EQ(s.counts.Total(SamplingIndex::kPotential), 15);
  EXPECT_EQ(s.counts.Total(SamplingIndex::kCandidates), 14);
  EXPECT_EQ(s.counts.Total(SamplingIndex::kClean), 14);
  EXPECT_EQ(s.counts.Total(SamplingIndex::kViolating), 0);
  EXPECT_EQ(s.clean_keys.Best(0, 100).pos, 0);
  EXPECT_EQ(s.clean_keys.Best(8, 22).pos, 21);  // 14 was removed
}

}  // namespace
}  // namespace kpsim::engine
