#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "kpsim/api/types.h"

namespace kpsim {
namespace {

struct ParseCase {
  std::string_view name;
  std::string_view text;
  std::int64_t milli;
};

constexpr ParseCase kParseCases[] = {
    {"PlainInteger", "2", 2000},
    {"Zero", "0", 0},
    {"LeadingZeros", "007", 7000},
    {"Milli", "100m", 100},
    {"Decimal", "0.5", 500},
    {"DecimalWithoutLeadingDigit", ".5", 500},
    {"TrailingDot", "1.", 1000},
    {"TrailingDotWithSuffix", "1.G", 1000000000000},
    {"PositiveSign", "+3", 3000},
    {"NegativeSign", "-3", -3000},
    {"NegativeMilli", "-1.5m", -2},
    {"Kilo", "1k", 1000000},
    {"Mega", "1M", 1000000000},
    {"Giga", "1G", 1000000000000},
    {"Tera", "2T", 2000000000000000},
    {"Peta", "1P", 1000000000000000000},
    {"Kibi", "1Ki", 1024000},
    {"Mebi", "500Mi", 500LL * 1024 * 1024 * 1000},
    {"Gibi", "1Gi", 1073741824000},
    {"Tebi", "1Ti", 1099511627776000},
    {"FractionalGibi", "1.5Gi", 1610612736000},
    {"Exponent", "1e3", 1000000},
    {"ExponentPlus", "1e+3", 1000000},
    {"UpperExponentNegative", "1E-2", 10},
    {"ExponentOnDecimal", "1.5e1", 15000},
    {"NanoRoundsUpToOneMilli", "1n", 1},
    {"MicroRoundsUpToOneMilli", "1u", 1},
    {"SubMilliRoundsUp", "1.0001m", 2},
    {"ExactMilliNotRounded", "1000u", 1},
    {"NegativeNanoRoundsAwayFromZero", "-1n", -1},
    {"TinyExponentRoundsUp", "1e-30", 1},
    {"ZeroWithSuffix", "0Gi", 0},
    {"ZeroDecimal", "0.000", 0},
    {"NinePetaFits", "9P", 9000000000000000000},
    {"SmallBinaryFraction", "0.5Ki", 512000},
    {"SubMilliBinaryFractionRoundsUp", "0.0001Ki", 103},
};

class QuantityParseTest : public testing::TestWithParam<ParseCase> {};

TEST_P(QuantityParseTest, ParsesToMilliUnits) {
  const ParseCase& c = GetParam();
  Expected<Quantity> q = Quantity::Parse(c.text);
  ASSERT_TRUE(q.ok()) << c.text << ": " << q.error().message;
  EXPECT_EQ(q->milli, c.milli) << c.text;
}

INSTANTIATE_TEST_SUITE_P(Grammar, QuantityParseTest, testing::ValuesIn(kParseCases),
                         [](const auto& p) { return std::string(p.param.name); });

struct BadCase {
  std::string_view name;
  std::string_view text;
  std::string_view message_part;
};

constexpr BadCase kBadCases[] = {
    {"Empty", "", "regular expression"},
    {"TwoDots", "1.5.5", "regular expression"},
    {"SuffixOnly", "Mi", "numeric"},
    {"DotOnly", ".", "numeric"},
    {"SignOnly", "-", "numeric"},
    {"LowercaseMi", "1mi", "suffix"},
    {"UnknownLetters", "abc", "regular expression"},
    {"Hex", "0x10", "regular expression"},
    {"SpaceInside", "1 Gi", "regular expression"},
    {"DoubleSuffix", "1MM", "suffix"},
    {"BareExponent", "1e", "suffix"},
    {"TrailingSignedGarbage", "1e-x", "regular expression"},
    {"OverflowPeta", "10P", "too large"},
    {"OverflowExa", "1E", "too large"},
    {"OverflowBinary", "8Ei", "too large"},
    {"OverflowDigits", "99999999999999999999", "too large"},
    {"OverflowHugeExponent", "1e9223372036854775807", "too large"},
};

class QuantityRejectTest : public testing::TestWithParam<BadCase> {};

TEST_P(QuantityRejectTest, RejectsWithKubernetesMessage) {
  const BadCase& c = GetParam();
  Expected<Quantity> q = Quantity::Parse(c.text);
  ASSERT_FALSE(q.ok()) << c.text << " parsed as " << q->milli;
  EXPECT_EQ(q.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(q.error().message.find(c.message_part), std::string::npos) << q.error().message;
}

INSTANTIATE_TEST_SUITE_P(Grammar, QuantityRejectTest, testing::ValuesIn(kBadCases),
                         [](const auto& p) { return std::string(p.param.name); });

TEST(QuantityTest, FormatErrorQuotesKubernetesRegex) {
  Expected<Quantity> q = Quantity::Parse("1.5.5");
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.error().message,
            "quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
}

TEST(QuantityTest, ValueRoundsUpAwayFromZero) {
  EXPECT_EQ(Quantity{1500}.Value(), 2);
  EXPECT_EQ(Quantity{2000}.Value(), 2);
  EXPECT_EQ(Quantity{1}.Value(), 1);
  EXPECT_EQ(Quantity{0}.Value(), 0);
  EXPECT_EQ(Quantity{-1500}.Value(), -2);
  EXPECT_EQ(Quantity::Parse("1Gi")->Value(), 1073741824);
}

TEST(QuantityTest, OrdersByMilliValue) {
  EXPECT_LT(*Quantity::Parse("500m"), *Quantity::Parse("1"));
  EXPECT_EQ(*Quantity::Parse("1000m"), *Quantity::Parse("1"));
}

}  // namespace
}  // namespace kpsim
