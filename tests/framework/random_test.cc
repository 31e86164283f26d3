// Mt19937_64 draws std::mt19937_64's stream, so seeded runs keep their answers.

#include "framework/random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace kpsim::engine {
namespace {

TEST(Mt19937_64Test, DrawsTheStandardStreamAcrossManyTwists) {
  for (const std::uint64_t seed :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{42}, std::uint64_t{5489},
        std::uint64_t{0x9E3779B97F4A7C15ULL}, std::numeric_limits<std::uint64_t>::max()}) {
    SCOPED_TRACE(seed);
    std::mt19937_64 reference(seed);
    Mt19937_64 ours(seed);
    for (int i = 0; i < 100000; ++i) ASSERT_EQ(ours(), reference()) << "draw " << i;
  }
}

TEST(Mt19937_64Test, DefaultSeedMatchesTheStandardsTenThousandthDraw) {
  // [rand.predef]: the 10000th consecutive invocation of a default-constructed mt19937_64.
  Mt19937_64 ours;
  std::uint64_t value = 0;
  for (int i = 0; i < 10000; ++i) value = ours();
  EXPECT_EQ(value, 9981545732273789042ULL);
}

TEST(Mt19937_64Test, DistributionsAndShufflesSeeTheSameNumbers) {
  std::mt19937_64 reference(7);
  Mt19937_64 ours(7);
  std::uniform_int_distribution<int> dist(0, 999);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(dist(ours), dist(reference));
  std::vector<int> a(500), b(500);
  for (int i = 0; i < 500; ++i) a[static_cast<std::size_t>(i)] = b[static_cast<std::size_t>(i)] = i;
  std::shuffle(a.begin(), a.end(), ours);
  std::shuffle(b.begin(), b.end(), reference);
  EXPECT_EQ(a, b);
}

TEST(Mt19937_64Test, CopiesCompareEqualUntilOneDraws) {
  Mt19937_64 a(3);
  a();
  Mt19937_64 b = a;
  EXPECT_TRUE(a == b);
  b();
  EXPECT_FALSE(a == b);
  a();
  EXPECT_TRUE(a == b);
  a.Seed(3);
  EXPECT_FALSE(a == b);
}

// Setup: skips and block reads of lengths 0, 1, one short of a block, a block, a block and one,
// several blocks, from positions at the start, middle and end of a block. Expect: the standard
// stream, and the generator left where as many single draws would leave it.
TEST(Mt19937_64Test, DiscardAndGenerateFollowTheStream) {
  std::mt19937_64 reference(2024);
  Mt19937_64 ours(2024);
  std::vector<std::uint64_t> block;
  for (const std::size_t n : {0, 1, 311, 312, 313, 1000, 5, 624, 2, 937}) {
    SCOPED_TRACE(n);
    ours.Discard(n);
    reference.discard(n);
    ASSERT_EQ(ours(), reference());
    block.assign(n + 1, 0);
    ours.Generate(block.data(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(block[i], reference()) << i;
    ASSERT_EQ(block[n], 0u);  // nothing past the n asked for
    ASSERT_EQ(ours(), reference());
  }
}

}  // namespace
}  // namespace kpsim::engine
