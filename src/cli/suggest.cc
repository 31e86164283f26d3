#include "cli/suggest.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kpsim::cli {
namespace {

std::string_view StripDashes(std::string_view s) {
  while (!s.empty() && s.front() == '-') s.remove_prefix(1);
  return s;
}

// "-1", "-0.5", "-5s": values, not flags (CLI11 hands them to the option before them).
bool LooksLikeNumber(std::string_view arg) {
  return arg.size() >= 2 && arg[0] == '-' &&
         (std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.');
}

// The dashed names of `cmd`'s options, in declaration order ("--until", "-o", "--output", ...).
std::vector<std::string> FlagNames(const CLI::App& cmd) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : cmd.get_options()) {
    for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

std::string UnknownFlag(const CLI::App& cmd, const CLI::App& app, std::string_view flag) {
  std::vector<std::string> names = FlagNames(cmd);
  // Compare without dashes, so "-output" finds "--output"; one-letter short names are too easy
  // to hit by chance to suggest for anything but a one-letter typo of themselves.
  std::vector<std::string> bare;
  for (const std::string& n : names) bare.emplace_back(StripDashes(n));
  const std::string near = Nearest(StripDashes(flag), bare);
  std::string where = cmd.get_parent() == nullptr ? "" : " for " + cmd.get_name();
  if (!near.empty()) {
    const auto it = std::find(bare.begin(), bare.end(), near);
    return "unknown flag " + std::string(flag) + "; did you mean " +
           names[static_cast<std::size_t>(it - bare.begin())] + "?";
  }
  // Exactly a flag of another subcommand ("validate --until").
  for (const CLI::App* other : app.get_subcommands({})) {
    if (other == &cmd) continue;
    const std::vector<std::string> theirs = FlagNames(*other);
    if (std::find(theirs.begin(), theirs.end(), std::string(flag)) != theirs.end()) {
      return "unknown flag " + std::string(flag) + where + " (it is a flag of " + other->get_name() +
             ")";
    }
  }
  return "unknown flag " + std::string(flag) + where + " (see kpsim " +
         (cmd.get_parent() == nullptr ? std::string() : cmd.get_name() + " ") + "--help)";
}

// Walks `args` as CLI11 would for `cmd`: known flags (skipping the value of those that take
// one), positionals, "--" ending flags. Returns the message for the first unknown flag, if any.
// `next_command`: set to the index of the first positional when `cmd` has subcommands.
std::string ScanFlags(const CLI::App& cmd, const CLI::App& app, const std::vector<std::string>& args,
                      std::size_t begin, std::size_t* next_command) {
  for (std::size_t i = begin; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") return "";
    if (arg.size() < 2 || arg[0] != '-' || LooksLikeNumber(arg)) {
      if (next_command != nullptr) {
        *next_command = i;
        return "";
      }
      continue;
    }
    const bool long_form = arg.starts_with("--");
    const std::size_t eq = arg.find('=');
    const std::string name = long_form ? arg.substr(0, eq) : arg.substr(0, 2);
    const CLI::Option* opt = cmd.get_option_no_throw(name);
    if (opt == nullptr) return UnknownFlag(cmd, app, long_form ? name : arg.substr(0, eq));
    const bool attached = long_form ? eq != std::string::npos : arg.size() > 2;
    if (opt->get_type_size_min() > 0 && !attached) ++i;  // its value
  }
  return "";
}

}  // namespace

int EditDistance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  // d[i][j]: distance between a[0, i) and b[0, j).
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::string Nearest(std::string_view typed, const std::vector<std::string>& candidates) {
  if (typed.empty() || typed.size() > 64) return "";
  int best = 3;  // worse than the largest accepted distance
  std::string best_name;
  for (const std::string& c : candidates) {
    int dist = EditDistance(typed, c);
    if (typed.size() >= 3 && c.starts_with(typed)) dist = std::min(dist, 1);
    if (dist >= static_cast<int>(typed.size())) continue;
    if (dist < best) {
      best = dist;
      best_name = c;
    }
  }
  return best_name;
}

std::string DiagnoseUnknown(const CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::size_t command_at = args.size();
  if (std::string top = ScanFlags(app, app, args, 0, &command_at); !top.empty()) return top;
  if (command_at >= args.size()) return "";
  const std::string& word = args[command_at];
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
  const CLI::App* cmd = nullptr;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name() == word) cmd = sub;
  }
  if (cmd == nullptr) {
    const std::string near = Nearest(word, commands);
    std::string list;
    for (const std::string& c : commands) list += (list.empty() ? "" : ", ") + c;
    return "unknown command \"" + word + "\"" +
           (near.empty() ? " (commands: " + list + ")" : "; did you mean " + near + "?");
  }
  return ScanFlags(*cmd, app, args, command_at + 1, nullptr);
}

}  // namespace kpsim::cli
