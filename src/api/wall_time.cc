// RFC 3339 parsing and formatting for `WallTime` (as Go's time.Parse(time.RFC3339, ...) accepts:
// "T" separator, optional fraction of up to 9 digits, "Z" or a "+hh:mm" / "-hh:mm" offset).

#include <cstdint>
#include <string>
#include <string_view>

#include "fmt/format.h"
#include "kpsim/api/types.h"

namespace kpsim {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
std::int64_t DaysFromCivil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void CivilFromDays(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2 ? 1 : 0);
}

unsigned DaysInMonth(std::int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// Reads exactly `n` digits at `pos`.
bool Digits(std::string_view s, std::size_t pos, std::size_t n, unsigned& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<unsigned>(c - '0');
  }
  return true;
}

}  // namespace

Expected<WallTime> WallTime::Parse(std::string_view s) {
  const auto bad = [&] {
    return MakeError(
        ErrorCode::kInvalidArgument,
        fmt::format("parsing time \"{}\" as RFC 3339 (\"2006-01-02T15:04:05Z07:00\") failed", s));
  };
  unsigned year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!Digits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !Digits(s, 5, 2, month) ||
      s[7] != '-' || !Digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') ||
      !Digits(s, 11, 2, hour) || s[13] != ':' || !Digits(s, 14, 2, minute) || s[16] != ':' ||
      !Digits(s, 17, 2, second)) {
    return bad();
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || hour > 23 ||
      minute > 59 || second > 59) {
    return bad();
  }
  std::size_t pos = 19;
  std::int64_t micros = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::size_t n = 0;
    std::int64_t scale = 100000;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (n < 6) {
        micros += (s[pos] - '0') * scale;
        scale /= 10;
      }
      ++pos;
      ++n;
    }
    if (n == 0 || n > 9) return bad();
  }
  std::int64_t offset_seconds = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    unsigned oh = 0, om = 0;
    if (!Digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !Digits(s, pos + 4, 2, om) || oh > 23 || om > 59) {
      return bad();
    }
    offset_seconds = (static_cast<std::int64_t>(oh) * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return bad();
  }
  if (pos != s.size()) return bad();
  const std::int64_t days = DaysFromCivil(year, month, day);
  const std::int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  return WallTime{secs * 1000000 + micros};
}

std::string WallTime::ToRfc3339() const {
  // UTC with "Z"; the fraction is printed only when non-zero, without trailing zeros
  // (Go's time.RFC3339Nano shape).
  std::int64_t secs = unix_micros / 1000000;
  std::int64_t micros = unix_micros % 1000000;
  if (micros < 0) {
    micros += 1000000;
    secs -= 1;
  }
  std::int64_t days = secs / 86400;
  std::int64_t rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    days -= 1;
  }
  std::int64_t y = 0;
  unsigned m = 0, d = 0;
  CivilFromDays(days, y, m, d);
  std::string out = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", y, m, d, rem / 3600,
                                (rem / 60) % 60, rem % 60);
  if (micros != 0) {
    std::string frac = fmt::format("{:06}", micros);
    while (frac.back() == '0') frac.pop_back();
    out += '.';
    out += frac;
  }
  out += 'Z';
  return out;
}

}  // namespace kpsim
