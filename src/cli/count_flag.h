#pragma once

// The check of a count flag: app::ParseCount's rules, in CLI11's terms. CLI11's own
// PositiveNumber says "Value 0 not in range 0.000000 to 1.79...e+308" (300 digits) for 0, and
// its conversion takes "+0", " 0", "0x0" and "010" (as 8). The validator hands CLI11 the number
// as it was checked ("010" becomes "10"), so attach it with transform(): CLI11 discards what a
// check() validator writes and converts the text as given.

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "app/run.h"

namespace kpsim::cli {

inline CLI::Validator CountFlag(std::int64_t max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        const auto n = app::ParseCount(text, max);
        if (!n.ok()) return n.error().message;
        text = std::to_string(*n);
        return "";
      },
      "COUNT");
}

}  // namespace kpsim::cli
