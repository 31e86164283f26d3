#pragma once

// "Did you mean": the nearest subcommand or flag for a mistyped one. CLI11 only says "not
// expected"; this looks at the same argv against the CLI11 definitions and names the nearest
// known spelling (optimal string alignment distance, so a swapped pair of letters counts once).

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace kpsim::cli {

// Levenshtein distance where a transposition of two adjacent characters also costs 1.
int EditDistance(std::string_view a, std::string_view b);

// The first candidate nearest to `typed` if it is near enough (distance at most 2 and less than
// the length of `typed`, or `typed`, 3 characters or more, is a prefix of it); else empty.
std::string Nearest(std::string_view typed, const std::vector<std::string>& candidates);

// Scans argv for the first word `app` does not know: an unknown subcommand, or a flag that the
// chosen subcommand (or the top level) does not define. Returns one line for stderr, e.g.
// "unknown flag --unitl; did you mean --until?", or empty when every word is known (the caller
// then reports CLI11's own message).
std::string DiagnoseUnknown(const CLI::App& app, int argc, const char* const* argv);

}  // namespace kpsim::cli
