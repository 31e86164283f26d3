// The sampling index's trees (src/scheduler/sampling_index.h) against plain arrays: the sampled
// preemption window is found by the counting trees' prefix sums, totals and selects alone, and
// its ranking by the best-key tree's range queries alone.

#include "scheduler/sampling_index.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
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
        for (auto& score : key.scores) score = static_cast<std::int64_t>(rng() % 3) - 1;
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
            ASSERT_EQ(got.scores, want->scores) << "[" << first << ", " << last << ")";
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace kpsim::engine
