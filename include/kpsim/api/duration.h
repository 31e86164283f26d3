#pragma once

// Go duration strings ("90s", "1h30m", "1.5h", "500ns", "-2m"), parsed as Go's
// time.ParseDuration does (src/time/format.go), for flags such as `simulate --until`.

#include <cstdint>
#include <string_view>

#include "kpsim/expected.h"

namespace kpsim {

// Parses `text` into nanoseconds with Go's grammar `[-+]?([0-9]*(\.[0-9]*)?unit)+`, or "0" alone
// (optionally signed). Units: ns, us, µs (U+00B5), μs (U+03BC), ms, s, m, h. A number needs a digit
// before or after its point ("1.", ".5" are fine; "." is not); a number needs a unit except for a
// lone "0"; fraction digits past int64 precision are ignored, as in Go. Errors (InvalidArgument,
// message naming the text): empty text, a missing or unknown unit, a second point ("1.5.5s"), a
// sign after the start ("1s-2s"), and totals outside int64 nanoseconds (about ±292 years).
// One deliberate difference: Go sums unsigned and lets a total of exactly 2^64 ns wrap to 0
// ("9223372036854775808ns9223372036854775808ns" parses as 0s); here that is an overflow error.
Expected<std::int64_t> ParseGoDuration(std::string_view text);

// Nanoseconds to whole microseconds (the simulated clock's tick), rounding toward negative
// infinity: an event at tick t happens before a bound of `ns` exactly when t <= floor(ns / 1000),
// so `--until 1500ns` means the same as `--until 1us`, and `--until 500ns` as `--until 0`.
constexpr std::int64_t FloorNanosToMicros(std::int64_t ns) {
  const std::int64_t q = ns / 1000;
  return (ns % 1000 != 0 && ns < 0) ? q - 1 : q;
}

}  // namespace kpsim
