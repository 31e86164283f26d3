#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "kpsim/api/duration.h"

namespace kpsim {
namespace {

constexpr std::int64_t kNs = 1;
constexpr std::int64_t kUs = 1000 * kNs;
constexpr std::int64_t kMs = 1000 * kUs;
constexpr std::int64_t kS = 1000 * kMs;
constexpr std::int64_t kMin = 60 * kS;
constexpr std::int64_t kHour = 60 * kMin;

struct GoodCase {
  std::string_view text;
  std::int64_t nanos;
};

// The accepted strings of Go's own ParseDuration tests (src/time/time_test.go), with their values.
constexpr GoodCase kGood[] = {
    // Simple, signed, zero.
    {"0", 0},
    {"5s", 5 * kS},
    {"30s", 30 * kS},
    {"1478s", 1478 * kS},
    {"-5s", -5 * kS},
    {"+5s", 5 * kS},
    {"-0", 0},
    {"+0", 0},
    // Decimals.
    {"5.0s", 5 * kS},
    {"5.6s", 5 * kS + 600 * kMs},
    {"5.s", 5 * kS},
    {".5s", 500 * kMs},
    {"1.0s", 1 * kS},
    {"1.00s", 1 * kS},
    {"1.004s", 1 * kS + 4 * kMs},
    {"1.0040s", 1 * kS + 4 * kMs},
    {"100.00100s", 100 * kS + 1 * kMs},
    // Every unit, both micro spellings.
    {"10ns", 10 * kNs},
    {"11us", 11 * kUs},
    {"12\u00b5s", 12 * kUs},
    {"12\u03bcs", 12 * kUs},
    {"13ms", 13 * kMs},
    {"14s", 14 * kS},
    {"15m", 15 * kMin},
    {"16h", 16 * kHour},
    {"1.5h", 90 * kMin},
    {"500ns", 500 * kNs},
    // Composites, in any unit order, with fractions anywhere.
    {"3h30m", 3 * kHour + 30 * kMin},
    {"10.5s4m", 4 * kMin + 10 * kS + 500 * kMs},
    {"-2m3.4s", -(2 * kMin + 3 * kS + 400 * kMs)},
    {"1h2m3s4ms5us6ns", 1 * kHour + 2 * kMin + 3 * kS + 4 * kMs + 5 * kUs + 6 * kNs},
    {"39h9m14.425s", 39 * kHour + 9 * kMin + 14 * kS + 425 * kMs},
    {"1s1s", 2 * kS},
    // Large values, exact to the nanosecond.
    {"52763797000ns", 52763797000 * kNs},
    {"0.3333333333333333333h", 20 * kMin},
    {"9007199254740993ns", (std::int64_t{1} << 53) + 1},
    {"9223372036854775807ns", std::numeric_limits<std::int64_t>::max()},
    {"9223372036854775.807us", std::numeric_limits<std::int64_t>::max()},
    {"9223372036854ms775us807ns", std::numeric_limits<std::int64_t>::max()},
    {"-9223372036854775808ns", std::numeric_limits<std::int64_t>::min()},
    {"-9223372036854775.808us", std::numeric_limits<std::int64_t>::min()},
    {"-9223372036854ms775us808ns", std::numeric_limits<std::int64_t>::min()},
    {"-2562047h47m16.854775808s", std::numeric_limits<std::int64_t>::min()},
    // Fraction digits beyond int64 precision are ignored, not an error.
    {"0.100000000000000000000h", 6 * kMin},
    {"0.830103483285477580700h", 49 * kMin + 48 * kS + 372539827 * kNs},
};

TEST(ParseGoDurationTest, AcceptsWhatGoAccepts) {
  for (const GoodCase& c : kGood) {
    auto d = ParseGoDuration(c.text);
    ASSERT_TRUE(d.ok()) << c.text << ": " << d.error().message;
    EXPECT_EQ(*d, c.nanos) << c.text;
  }
}

// Go's refused strings, plus the ones the issue names.
constexpr std::string_view kBad[] = {
    "",
    "3",        // no unit
    "00",       // only a lone 0 may omit the unit
    "-",
    "+",
    "s",
    ".",
    "-.",
    ".s",
    "+.s",
    "1d",       // no such unit
    "1S",       // units are case-sensitive
    "1.5.5s",   // a second point
    "1s-2s",    // a sign only at the start
    "--1s",
    "1s ",      // trailing space is part of the unit
    " 1s",
    "1e3s",     // no exponents
    "\x85\x85",
    "\xff" "ff",
    "hello \xff" "ff world",
    "9223372036854775808ns",         // 2^63 ns
    "9223372036854775.808us",
    "9223372036854ms775us808ns",
    "-9223372036854775809ns",
    "2562048h",                      // > 292 years
    "99999999999999999999s",         // the integer part itself overflows
    "9223372036854775808ns9223372036854775808ns",  // Go wraps this to 0; refused here
};

TEST(ParseGoDurationTest, RefusesWhatGoRefuses) {
  for (std::string_view text : kBad) {
    auto d = ParseGoDuration(text);
    EXPECT_FALSE(d.ok()) << "\"" << text << "\" parsed as " << (d.ok() ? *d : 0);
  }
}

TEST(ParseGoDurationTest, MessagesNameTheTextAndTheProblem) {
  auto missing = ParseGoDuration("1.5.5s");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(missing.error().message.find("\"1.5.5s\""), std::string::npos) << missing.error().message;
  EXPECT_NE(missing.error().message.find("missing unit"), std::string::npos) << missing.error().message;

  auto unknown = ParseGoDuration("3days");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown unit \"days\""), std::string::npos)
      << unknown.error().message;

  auto overflow = ParseGoDuration("3000000h");
  ASSERT_FALSE(overflow.ok());
  EXPECT_NE(overflow.error().message.find("overflow"), std::string::npos) << overflow.error().message;
}

TEST(FloorNanosToMicrosTest, RoundsTowardNegativeInfinity) {
  EXPECT_EQ(FloorNanosToMicros(0), 0);
  EXPECT_EQ(FloorNanosToMicros(1), 0);
  EXPECT_EQ(FloorNanosToMicros(500), 0);
  EXPECT_EQ(FloorNanosToMicros(999), 0);
  EXPECT_EQ(FloorNanosToMicros(1000), 1);
  EXPECT_EQ(FloorNanosToMicros(1500), 1);
  EXPECT_EQ(FloorNanosToMicros(90 * kS), 90'000'000);
  EXPECT_EQ(FloorNanosToMicros(-1), -1);
  EXPECT_EQ(FloorNanosToMicros(-1000), -1);
  EXPECT_EQ(FloorNanosToMicros(-1001), -2);
  EXPECT_EQ(FloorNanosToMicros(std::numeric_limits<std::int64_t>::max()), 9223372036854775);
  EXPECT_EQ(FloorNanosToMicros(std::numeric_limits<std::int64_t>::min()), -9223372036854776);
}

}  // namespace
}  // namespace kpsim
