// Go's time.ParseDuration, step for step (see duration.h): consume an optional sign; "0" alone is
// zero; then repeat { leadingInt, optional `.` and leadingFraction, unit } with the same uint64
// overflow checks as upstream, so the same strings are accepted and refused.

#include "kpsim/api/duration.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace kpsim {
namespace {

constexpr std::uint64_t kTwo63 = std::uint64_t{1} << 63;

struct Unit {
  std::string_view name;
  std::uint64_t nanos;
};

// Go's unitMap.
constexpr Unit kUnits[] = {
    {"ns", 1},
    {"us", 1'000},
    {"\u00b5s", 1'000},  // micro sign
    {"\u03bcs", 1'000},  // Greek small letter mu
    {"ms", 1'000'000},
    {"s", 1'000'000'000},
    {"m", 60'000'000'000},
    {"h", 3'600'000'000'000},
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

Error Invalid(std::string_view orig, std::string_view why) {
  return MakeError(ErrorCode::kInvalidArgument, fmt::format("invalid duration \"{}\": {}", orig, why));
}

}  // namespace

Expected<std::int64_t> ParseGoDuration(std::string_view text) {
  const std::string_view orig = text;
  std::string_view s = text;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::int64_t{0};
  if (s.empty()) return Invalid(orig, "empty");

  std::uint64_t d = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || IsDigit(s[0]))) {
      return Invalid(orig, fmt::format("expected a number at \"{}\"", s));
    }
    // leadingInt: [0-9]*, refusing values above 2^63.
    std::uint64_t v = 0;
    std::size_t i = 0;
    for (; i < s.size() && IsDigit(s[i]); ++i) {
      if (v > kTwo63 / 10) return Invalid(orig, "overflows int64 nanoseconds");
      v = v * 10 + static_cast<std::uint64_t>(s[i] - '0');
      if (v > kTwo63) return Invalid(orig, "overflows int64 nanoseconds");
    }
    const bool pre = i > 0;
    s.remove_prefix(i);

    // leadingFraction: (\.[0-9]*)?, keeping digits while they fit and ignoring the rest.
    std::uint64_t f = 0;
    double scale = 1;
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      bool overflow = false;
      std::size_t j = 0;
      for (; j < s.size() && IsDigit(s[j]); ++j) {
        if (overflow) continue;
        if (f > (kTwo63 - 1) / 10) {
          overflow = true;
          continue;
        }
        const std::uint64_t y = f * 10 + static_cast<std::uint64_t>(s[j] - '0');
        if (y > kTwo63) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s.remove_prefix(j);
    }
    if (!pre && !post) return Invalid(orig, "a number needs a digit");

    // The unit: everything up to the next digit or point.
    std::size_t k = 0;
    while (k < s.size() && s[k] != '.' && !IsDigit(s[k])) ++k;
    if (k == 0) {
      return Invalid(orig, "missing unit (ns, us, µs, ms, s, m, h)");
    }
    const std::string_view unit_name = s.substr(0, k);
    s.remove_prefix(k);
    std::uint64_t unit = 0;
    for (const Unit& u : kUnits) {
      if (u.name == unit_name) unit = u.nanos;
    }
    if (unit == 0) {
      return Invalid(orig, fmt::format("unknown unit \"{}\" (ns, us, µs, ms, s, m, h)", unit_name));
    }
    if (v > kTwo63 / unit) return Invalid(orig, "overflows int64 nanoseconds");
    v *= unit;
    if (f > 0) {
      // As upstream: double is nanosecond-exact here, f/scale < 1 so the addend is below one unit.
      v += static_cast<std::uint64_t>(static_cast<double>(f) * (static_cast<double>(unit) / scale));
      if (v > kTwo63) return Invalid(orig, "overflows int64 nanoseconds");
    }
    if (v > kTwo63 - d) return Invalid(orig, "overflows int64 nanoseconds");  // d + v > 2^63
    d += v;
  }
  if (neg) {
    return d == kTwo63 ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(d);
  }
  if (d > kTwo63 - 1) return Invalid(orig, "overflows int64 nanoseconds");
  return static_cast<std::int64_t>(d);
}

}  // namespace kpsim
