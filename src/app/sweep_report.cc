// `kpsim sweep`'s output side (sweep.h): `merge` of shard outputs and the summary table.

#include "app/sweep.h"
#include "app/run.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>


namespace kpsim::app {
namespace {

// Key order is part of the contract: ordered_json keeps insertion order.
using Json = nlohmann::ordered_json;

}  // namespace

Expected<std::vector<std::string>> MergeSweepLines(const std::vector<SweepSource>& sources) {
  struct Seen {
    std::string text;
    std::string where;  // "file:line"
  };
  std::map<std::uint64_t, Seen> runs;  // by run: memory for the lines read, not the runs declared
  std::string runs_where;  // where `runs` (and `specDigest`) was first read
  std::uint64_t total = 0;
  std::string digest;  // "" for lines without one (written before kpsim gave them one)
  std::set<std::string_view> given;
  for (const SweepSource& source : sources) {
    // Each of its runs would be "twice" at the same file and line: say what happened instead.
    if (!given.insert(source.name).second) return UsageError(fmt::format("{}: given twice", source.name));
  }
  for (const SweepSource& source : sources) {
    std::size_t start = 0;
    int line_number = 0;
    while (start < source.text.size()) {
      std::size_t end = source.text.find('\n', start);
      if (end == std::string::npos) end = source.text.size();
      std::string_view line(source.text.data() + start, end - start);
      start = end + 1;
      ++line_number;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
      const std::string where = fmt::format("{}:{}", source.name, line_number);
      const Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
      const auto whole = [&j](const char* key) {
        return j.is_object() && j.contains(key) && j[key].is_number_unsigned();
      };
      if (j.is_discarded()) {
        return UsageError(fmt::format("{}: not a kpsim sweep line: not JSON (a line cut short, or text that is not a "
                                      "shard's output): {}",
                                      where, std::string(line.substr(0, 80))));
      }
      if (!whole("run") || !whole("runs") || j["runs"].get<std::uint64_t>() == 0) {
        return UsageError(fmt::format("{}: not a kpsim sweep line (a JSON object with \"run\" and \"runs\"): {}",
                                      where, std::string(line.substr(0, 80))));
      }
      const std::uint64_t run = j["run"].get<std::uint64_t>();
      const std::uint64_t of = j["runs"].get<std::uint64_t>();
      const std::string line_digest =
          j.contains("specDigest") && j["specDigest"].is_string() ? j["specDigest"].get<std::string>() : "";
      if (runs_where.empty()) {
        digest = line_digest;
        if (of > kMaxSweepRuns) return UsageError(fmt::format("{}: \"runs\": {} is more than a sweep has", where, of));
        total = of;
        runs_where = where;
      } else if (of != total) {
        return UsageError(fmt::format("{}: \"runs\" is {}, but {} says {}: lines of different sweeps", where, of,
                                      runs_where, total));
      }
      if (line_digest != digest) {
        const auto shown = [](const std::string& d) { return d.empty() ? std::string("none") : "\"" + d + "\""; };
        return UsageError(fmt::format("{}: \"specDigest\" is {}, but {} says {}: lines of different sweeps (their "
                                      "specs differ in a name, a path, an axis, an overlay or a setting)",
                                      where, shown(line_digest), runs_where, shown(digest)));
      }
      if (run >= total) {
        return UsageError(fmt::format("{}: run {} is out of range (runs 0 to {})", where, run, total - 1));
      }
      const auto [it, added] = runs.try_emplace(run, Seen{std::string(line), where});
      if (!added) return UsageError(fmt::format("{}: run {} appears twice (first at {})", where, run, it->second.where));
    }
  }
  if (runs_where.empty()) {
    std::string names;
    for (const SweepSource& s : sources) names += (names.empty() ? "" : ", ") + s.name;
    return UsageError(fmt::format("no sweep lines in {}", names.empty() ? "the input" : names));
  }
  if (const std::uint64_t missing_count = total - runs.size(); missing_count > 0) {
    // The first ten missing runs, from the gaps between the runs read.
    std::vector<std::string> missing;
    std::uint64_t next = 0;
    const auto add_gap = [&](std::uint64_t end) {
      for (; next < end && missing.size() < 10; ++next) missing.push_back(std::to_string(next));
    };
    for (const auto& entry : runs) {
      add_gap(entry.first);
      next = entry.first + 1;
    }
    add_gap(total);
    std::string list;
    for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
    if (missing_count > missing.size()) list += fmt::format(", ... ({} in all)", missing_count);
    return UsageError(fmt::format("missing run{} {} of {}: a shard's output is incomplete or was not given",
                                  missing_count == 1 ? "" : "s", list, total));
  }
  std::vector<std::string> out;
  out.reserve(runs.size());
  for (auto& entry : runs) out.push_back(std::move(entry.second.text));
  return out;
}

// --- the summary table ---------------------------------------------------------------------------

namespace {

// Columns padded to their widest cell (UTF-8 code points); numeric columns right-aligned.
class Table {
 public:
  Table(std::vector<std::string> header, std::vector<bool> right)
      : header_(std::move(header)), right_(std::move(right)) {}
  void Row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  // Removes the column headed `name` (header and cells): a column shown only when some row has a
  // value.
  void DropColumn(std::string_view name) {
    const auto at = std::find(header_.begin(), header_.end(), name);
    assert(at != header_.end() && "a column of the table");
    const auto c = static_cast<std::size_t>(at - header_.begin());
    header_.erase(header_.begin() + static_cast<std::ptrdiff_t>(c));
    right_.erase(right_.begin() + static_cast<std::ptrdiff_t>(c));
    for (auto& row : rows_) {
      if (c < row.size()) row.erase(row.begin() + static_cast<std::ptrdiff_t>(c));
    }
  }
  std::string Render() const {
    std::vector<std::size_t> width(header_.size(), 0);
    const auto measure = [&width](const std::vector<std::string>& row) {
      for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], Width(row[c]));
    };
    measure(header_);
    for (const auto& row : rows_) measure(row);
    std::string out;
    const auto line = [&](const std::vector<std::string>& row) {
      std::string text;
      for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
        const std::string pad(width[c] - Width(row[c]), ' ');
        if (c > 0) text += "  ";
        text += right_[c] ? pad + row[c] : row[c] + pad;
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      out += text + "\n";
    };
    line(header_);
    for (const auto& row : rows_) line(row);
    return out;
  }

 private:
  static std::size_t Width(const std::string& s) {
    std::size_t n = 0;
    for (const char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80 ? 1 : 0;
    return n;
  }
  std::vector<std::string> header_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

std::string Num(double v) {
  std::string s = fmt::format("{:.3f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

// A number of the disruption object, or nullopt (null, missing).
std::optional<double> Figure(const Json& d, const char* key) {
  if (!d.is_object() || !d.contains(key) || !d[key].is_number()) return std::nullopt;
  return d[key].get<double>();
}

std::size_t Count(const Json& d, const char* key) {
  return d.is_object() && d.contains(key) && d[key].is_array() ? d[key].size() : 0;
}

std::string Dash(const std::string& s) { return s.empty() ? "-" : s; }

struct Stat {
  double sum = 0;
  double min = 0;
  double max = 0;
  int n = 0;
  void Add(double v) {
    min = n == 0 ? v : std::min(min, v);
    max = n == 0 ? v : std::max(max, v);
    sum += v;
    ++n;
  }
  std::string Mean() const { return n == 0 ? "-" : fmt::format("{:.2f}", sum / n); }
  std::string Min() const { return n == 0 ? "-" : Num(min); }
  std::string Max() const { return n == 0 ? "-" : Num(max); }
};

}  // namespace

Expected<std::string> RenderSweepText(const std::vector<std::string>& lines) {
  // "new nodes" (the autoscaler's) is shown when runs scale up (the setting scaleUp=true).
  Table runs({"run", "input", "overlay", "profile", "gates", "seed", "evicted", "ratio", "PDBs broken",
              "groups broken", "cascade", "quiet", "pending", "new nodes", "status"},
             {true, false, false, false, false, true, true, true, true, true, true, true, true, true, false});
  bool scale_up = false;
  // Per (input, overlay, profile, gates), in the order first seen (run order).
  struct Group {
    std::vector<std::string> key;
    int runs = 0;
    int errors = 0;
    Stat evicted, ratio, pdbs, groups, cascade, quiet, pending, new_nodes;
  };
  std::vector<Group> groups;
  std::map<std::vector<std::string>, std::size_t> group_index;
  int errors = 0;
  std::size_t total = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Json j = Json::parse(lines[i], nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains("run") || !j.contains("status")) {
      return UsageError(fmt::format("line {}: not a kpsim sweep line", i + 1));
    }
    const auto text = [&j](const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string(); };
    total = j.value("runs", std::size_t{0});
    std::vector<std::string> key{text("input"), text("overlay"), text("profile"), text("featureGates")};
    auto [it, inserted] = group_index.emplace(key, groups.size());
    if (inserted) {
      groups.emplace_back();
      groups.back().key = key;
    }
    Group& g = groups[it->second];
    ++g.runs;
    const std::string seed = j.contains("seed") ? j["seed"].dump() : "-";
    const std::string run = j["run"].dump();
    if (text("status") != "ok") {
      ++errors;
      ++g.errors;
      runs.Row({run, key[0], key[1], key[2], Dash(key[3]), seed, "-", "-", "-", "-", "-", "-", "-", "-",
                "error: " + text("error")});
      continue;
    }
    static const Json kNone;  // a merged line without `disruption` (const operator[] on a missing key is UB)
    const Json& d = j.contains("disruption") ? j["disruption"] : kNone;
    const std::optional<double> evicted = Figure(d, "evictedPods");
    const std::optional<double> ratio = Figure(d, "evictionRatio");
    const std::optional<double> cascade = Figure(d, "cascadeDepth");
    const std::optional<double> quiet = Figure(d, "timeToQuiet");
    const std::size_t pdbs = Count(d, "pdbsBroken");
    const std::size_t broken = Count(d, "groupsBroken");
    std::optional<double> pending;
    if (d.is_object() && d.contains("pendingAtEnd")) pending = Figure(d["pendingAtEnd"], "count");
    if (evicted) g.evicted.Add(*evicted);
    if (ratio) g.ratio.Add(*ratio);
    if (cascade) g.cascade.Add(*cascade);
    if (quiet) g.quiet.Add(*quiet);
    if (pending) g.pending.Add(*pending);
    g.pdbs.Add(static_cast<double>(pdbs));
    g.groups.Add(static_cast<double>(broken));
    const std::optional<double> new_nodes = Figure(j.contains("scaleUp") ? j["scaleUp"] : kNone, "nodesAdded");
    if (new_nodes) {
      scale_up = true;
      g.new_nodes.Add(*new_nodes);
    }
    runs.Row({run, key[0], key[1], key[2], Dash(key[3]), seed, evicted ? Num(*evicted) : "-",
              ratio ? Num(*ratio) : "-", std::to_string(pdbs), std::to_string(broken),
              cascade ? Num(*cascade) : "-", quiet ? Num(*quiet) + "s" : "-", pending ? Num(*pending) : "-",
              new_nodes ? Num(*new_nodes) : "-", "ok"});
  }
  Table by({"input", "overlay", "profile", "gates", "runs", "errors", "evicted mean", "evicted min-max", "ratio mean",
            "ratio max", "PDBs broken max", "groups broken max", "cascade max", "quiet max", "pending mean",
            "pending max", "new nodes max"},
           {false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true});
  for (const Group& g : groups) {
    by.Row({g.key[0], g.key[1], g.key[2], Dash(g.key[3]), std::to_string(g.runs), std::to_string(g.errors),
            g.evicted.Mean(), g.evicted.n == 0 ? "-" : g.evicted.Min() + "-" + g.evicted.Max(), g.ratio.Mean(),
            g.ratio.Max(), g.pdbs.Max(),
            g.groups.Max(), g.cascade.Max(), g.quiet.n == 0 ? "-" : g.quiet.Max() + "s", g.pending.Mean(),
            g.pending.Max(), g.new_nodes.Max()});
  }
  if (!scale_up) {
    runs.DropColumn("new nodes");
    by.DropColumn("new nodes max");
  }
  std::string out = fmt::format("Sweep: {} run{} shown of {}, {} failed\n\n", lines.size(),
                                lines.size() == 1 ? "" : "s", total, errors);
  out += runs.Render();
  out += "\nBy input, overlay, profile and gates, over seeds (quiet: time to quiet; ratio: evictionRatio):\n\n";
  out += by.Render();
  return out;
}

}  // namespace kpsim::app
