// DivisibilityTable (src/scheduler/divisibility.h) must answer exactly what `x % d == 0` does:
// selectHost's tie-breaking draws depend on it bit for bit.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

#include "scheduler/divisibility.h"

namespace kpsim::engine {
namespace {

// Setup: divisors 1..5000 (odd, even, powers of two) against random 64-bit values, their
// multiples, neighbours of multiples, 0 and the largest value. Expect: the same answer as %.
TEST(DivisibilityTableTest, AgreesWithTheRemainder) {
  DivisibilityTable table;
  std::mt19937_64 rng(7);
  for (std::uint64_t d = 1; d <= 5000; ++d) {
    const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    for (std::uint64_t x : {std::uint64_t{0}, max, max - 1, d, d - 1, d + 1, max / d * d, max / d * d - 1}) {
      ASSERT_EQ(table.Divides(x, d), x % d == 0) << x << " / " << d;
    }
    for (int i = 0; i < 40; ++i) {
      const std::uint64_t x = rng();
      ASSERT_EQ(table.Divides(x, d), x % d == 0) << x << " / " << d;
      const std::uint64_t multiple = (x / d) * d;
      ASSERT_TRUE(table.Divides(multiple, d)) << multiple << " / " << d;
      if (d > 1) {
        ASSERT_FALSE(table.Divides(multiple + 1, d)) << multiple + 1 << " / " << d;
      }
    }
  }
}

// Setup: divisors asked in a jumping order (the table grows past several sizes at once).
// Expect: the answers stay exact.
TEST(DivisibilityTableTest, GrowsOnDemand) {
  DivisibilityTable table;
  EXPECT_TRUE(table.Divides(1'000'000, 1'000'000));
  EXPECT_FALSE(table.Divides(999'999, 1'000'000));
  EXPECT_TRUE(table.Divides(6, 3));
  EXPECT_TRUE(table.Divides(std::uint64_t{1} << 63, std::uint64_t{1} << 20));
  EXPECT_FALSE(table.Divides((std::uint64_t{1} << 63) + 2, std::uint64_t{1} << 20));
}

// Setup: a plain table for divisors up to 3000 taken from a table that held 64, then asked about
// every divisor up to that bound. Expect: the remainder's answers.
TEST(DivisibilityTableTest, PlainTableUptoAnswersEveryDivisorUpToItsBound) {
  DivisibilityTable table;
  EXPECT_TRUE(table.Divides(64, 32));
  const DivisibilityTable::Table upto = table.Upto(3000);
  std::mt19937_64 rng(11);
  for (std::uint64_t d = 1; d <= 3000; ++d) {
    const std::uint64_t x = rng();
    ASSERT_EQ(upto.Divides(x, d), x % d == 0) << x << " / " << d;
    ASSERT_TRUE(upto.Divides(x / d * d, d)) << d;
  }
}

}  // namespace
}  // namespace kpsim::engine
