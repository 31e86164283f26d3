// Quantity parsing, mirroring Kubernetes' resource.ParseQuantity
// (k8s.io/apimachinery/pkg/api/resource/quantity.go): the same scanner (`parseQuantityString`), the
// same suffix table (`suffixHandler.interpret`) and the same rounding (non-zero values round up,
// away from zero, so "1n" is 1 milli). Unlike Kubernetes, which silently caps huge values, a value
// whose milli amount does not fit an int64 is an error.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim {
namespace {

constexpr std::string_view kErrFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kErrNumeric = "unable to parse numeric part of quantity";
constexpr std::string_view kErrSuffix = "unable to parse quantity's suffix";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

struct Scanned {
  bool positive = true;
  std::string_view num;    // integer digits, leading zeros stripped
  std::string_view denom;  // fraction digits
  std::string_view suffix;
  bool any_digit = false;
};

// Mirrors `parseQuantityString`. Returns false on ErrFormatWrong.
bool Scan(std::string_view s, Scanned& out) {
  std::size_t pos = 0;
  const std::size_t end = s.size();
  if (pos < end && (s[0] == '-' || s[0] == '+')) {
    out.positive = s[0] != '-';
    ++pos;
  }
  while (pos < end && s[pos] == '0') {
    ++pos;
    out.any_digit = true;
  }
  std::size_t start = pos;
  while (pos < end && IsDigit(s[pos])) ++pos;
  out.num = s.substr(start, pos - start);
  if (!out.num.empty()) out.any_digit = true;
  if (pos < end && s[pos] == '.') {
    ++pos;
    start = pos;
    while (pos < end && IsDigit(s[pos])) ++pos;
    out.denom = s.substr(start, pos - start);
    if (!out.denom.empty()) out.any_digit = true;
  }
  const std::size_t suffix_start = pos;
  while (pos < end && std::string_view("eEinumkKMGTP").find(s[pos]) != std::string_view::npos) {
    ++pos;
  }
  if (pos < end && (s[pos] == '-' || s[pos] == '+')) ++pos;
  while (pos < end && IsDigit(s[pos])) ++pos;
  if (pos != end) return false;
  out.suffix = s.substr(suffix_start);
  return true;
}

// Mirrors `suffixHandler.interpret`: base 10 or 2 and the exponent.
bool InterpretSuffix(std::string_view suffix, int& base, std::int64_t& exponent) {
  struct Entry {
    std::string_view text;
    int base;
    int exponent;
  };
  static constexpr Entry kTable[] = {
      {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"", 10, 0},   {"k", 10, 3},  {"M", 10, 6},
      {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18}, {"Ki", 2, 10}, {"Mi", 2, 20},
      {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50}, {"Ei", 2, 60},
  };
  for (const Entry& e : kTable) {
    if (e.text == suffix) {
      base = e.base;
      exponent = e.exponent;
      return true;
    }
  }
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    // strconv.ParseInt(suffix[1:], 10, 64).
    std::string_view digits = suffix.substr(1);
    bool negative = false;
    if (digits[0] == '+' || digits[0] == '-') {
      negative = digits[0] == '-';
      digits.remove_prefix(1);
    }
    if (digits.empty()) return false;
    std::int64_t value = 0;
    for (char c : digits) {
      if (!IsDigit(c)) return false;
      if (value > (std::numeric_limits<std::int64_t>::max() - (c - '0')) / 10) return false;
      value = value * 10 + (c - '0');
    }
    base = 10;
    exponent = negative ? -value : value;
    return true;
  }
  return false;
}

}  // namespace

Expected<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return MakeError(ErrorCode::kInvalidArgument, std::string(kErrFormatWrong));
  Scanned sc;
  if (!Scan(text, sc)) return MakeError(ErrorCode::kInvalidArgument, std::string(kErrFormatWrong));
  int base = 10;
  std::int64_t exponent = 0;
  if (!InterpretSuffix(sc.suffix, base, exponent)) {
    return MakeError(ErrorCode::kInvalidArgument, std::string(kErrSuffix));
  }
  // A number needs at least one digit ("Mi", ".", "-" are not quantities).
  if (!sc.any_digit) return MakeError(ErrorCode::kInvalidArgument, std::string(kErrNumeric));

  // value = digits * 10^e10 * 2^e2 milli-units, with digits = num + denom.
  std::string digits;
  digits.reserve(sc.num.size() + sc.denom.size());
  digits.append(sc.num);
  digits.append(sc.denom);
  std::int64_t e10 = 3 - static_cast<std::int64_t>(sc.denom.size());
  int e2 = 0;
  // Clamp absurd exponents: beyond this range the result is an overflow or one milli anyway.
  constexpr std::int64_t kExponentClamp = 1000000;
  if (exponent > kExponentClamp) exponent = kExponentClamp;
  if (exponent < -kExponentClamp) exponent = -kExponentClamp;
  if (base == 10) {
    e10 += exponent;
  } else {
    e2 = static_cast<int>(exponent);
  }
  // Normalise: strip leading zeros and move trailing zeros into the exponent.
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return Quantity{0};
  digits.erase(0, first);
  std::size_t last = digits.find_last_not_of('0');
  e10 += static_cast<std::int64_t>(digits.size() - 1 - last);
  digits.resize(last + 1);

  const auto overflow = [] {
    return MakeError(ErrorCode::kInvalidArgument,
                     "quantity too large: its milli-value does not fit in a 64-bit integer");
  };
  // Anything with 20 or more integer digits exceeds int64 (2^e2 only makes it larger).
  if (static_cast<std::int64_t>(digits.size()) + e10 > 19) return overflow();
  if (e10 < -static_cast<std::int64_t>(digits.size()) - 40) {
    // Far below one milli even after the binary multiplier: rounds up to the smallest unit.
    return Quantity{sc.positive ? 1 : -1};
  }

  // Big decimal in base-10 digits: multiply by 2^e2, then split at the decimal point.
  std::vector<std::uint8_t> d(digits.size());
  for (std::size_t i = 0; i < digits.size(); ++i) d[i] = static_cast<std::uint8_t>(digits[i] - '0');
  for (int i = 0; i < e2; ++i) {
    int carry = 0;
    for (std::size_t k = d.size(); k-- > 0;) {
      int v = d[k] * 2 + carry;
      d[k] = static_cast<std::uint8_t>(v % 10);
      carry = v / 10;
    }
    if (carry != 0) d.insert(d.begin(), static_cast<std::uint8_t>(carry));
  }
  const std::int64_t int_digits = static_cast<std::int64_t>(d.size()) + e10;
  if (int_digits > 19) return overflow();
  std::uint64_t integer = 0;  // at most 19 digits, so it fits
  bool fraction = false;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(d.size()); ++i) {
    if (i < int_digits) {
      integer = integer * 10 + d[static_cast<std::size_t>(i)];
    } else if (d[static_cast<std::size_t>(i)] != 0) {
      fraction = true;
    }
  }
  for (std::int64_t i = static_cast<std::int64_t>(d.size()); i < int_digits; ++i) integer *= 10;
  if (fraction) integer += 1;
  if (integer > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return overflow();
  }
  const auto milli = static_cast<std::int64_t>(integer);
  return Quantity{sc.positive ? milli : -milli};
}

std::int64_t Quantity::Value() const {
  // Rounds away from zero, as Kubernetes' `Value()` does.
  std::int64_t whole = milli / 1000;
  if (milli % 1000 != 0) whole += milli > 0 ? 1 : -1;
  return whole;
}

std::string FormatBinarySI(std::int64_t amount) {
  static constexpr std::pair<std::string_view, int> kSuffixes[] = {
      {"Ei", 60}, {"Pi", 50}, {"Ti", 40}, {"Gi", 30}, {"Mi", 20}, {"Ki", 10}};
  if (amount != 0) {
    for (const auto& [suffix, shift] : kSuffixes) {
      const std::int64_t unit = std::int64_t{1} << shift;
      if (amount % unit == 0) return std::to_string(amount / unit) + std::string(suffix);
    }
  }
  return std::to_string(amount);
}

}  // namespace kpsim
