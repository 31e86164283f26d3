// `kpsim sweep` (sweep.h): the grid, one run as a JSON line, the thread pool that keeps run order,
// shard selection, merge, the summary table and the Indexed Job.

#include "app/sweep.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kpsim::app {
namespace {

// Key order is part of the contract: ordered_json keeps insertion order.
using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

Error UsageError(std::string message) {
  return MakeError(ErrorCode::kInvalidArgument, std::move(message));
}

// A compact dump that never throws (invalid UTF-8 is replaced).
std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

// A run's message without the flag it came from ("--profile: x not in ..." -> "x not in ...").
std::string WithoutFlag(const std::string& message) {
  if (message.starts_with("--")) {
    if (const std::size_t colon = message.find(": "); colon != std::string::npos) {
      return message.substr(colon + 2);
    }
  }
  return message;
}

// A strict whole number 0..max ("", "-1", "1.5", "0x1", " 1" refused).
std::optional<int> WholeNumber(std::string_view text, int max) {
  int n = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || n < 0 || n > max) {
    return std::nullopt;
  }
  return n;
}

// `more` read after `base`, as one ReadManifests call over both would have read them.
void AppendRead(io::ReadResult& base, const io::ReadResult& more) {
  const std::size_t offset = base.objects.size();
  base.objects.insert(base.objects.end(), more.objects.begin(), more.objects.end());
  base.errors.insert(base.errors.end(), more.errors.begin(), more.errors.end());
  base.ignored.insert(base.ignored.end(), more.ignored.begin(), more.ignored.end());
  base.file_errors.insert(base.file_errors.end(), more.file_errors.begin(), more.file_errors.end());
  base.warnings.insert(base.warnings.end(), more.warnings.begin(), more.warnings.end());
  if (more.scheduler_config) base.scheduler_config = more.scheduler_config;
  for (const Workload& w : more.workloads) {
    base.workloads.push_back(w);
    base.workloads.back().position += offset;  // its place among the objects read before it
  }
  base.scenarios.insert(base.scenarios.end(), more.scenarios.begin(), more.scenarios.end());
  base.pod_metrics.insert(base.pod_metrics.end(), more.pod_metrics.begin(), more.pod_metrics.end());
}

// The fields every line starts with.
Json LineHead(const SweepPlan& plan, const SweepRun& run) {
  Json j = Json::object();
  j["run"] = run.index;
  j["runs"] = plan.runs.size();
  j["input"] = plan.spec.inputs[run.input].name;
  j["overlay"] = plan.spec.overlays[run.overlay].name;
  j["profile"] = run.profile;
  j["featureGates"] = run.feature_gates;
  j["seed"] = run.seed;
  return j;
}

SweepLine ErrorLine(Json head, const std::string& message, std::vector<std::string> diagnostics) {
  head["status"] = "error";
  head["error"] = message;
  SweepLine line;
  line.json = Dump(head);
  line.diagnostics = std::move(diagnostics);
  line.ok = false;
  return line;
}

// Pods by state, the four states always present, others (should the engine gain one) after
// them in name order.
Json PodCounts(const Json& pods) {
  std::map<std::string, int> other;
  int total = 0;
  int running = 0;
  int pending = 0;
  int terminating = 0;
  int deleted = 0;
  if (pods.is_array()) {
    for (const Json& p : pods) {
      ++total;
      const std::string state = p.value("state", "");
      if (state == "Running") {
        ++running;
      } else if (state == "Pending") {
        ++pending;
      } else if (state == "Terminating") {
        ++terminating;
      } else if (state == "Deleted") {
        ++deleted;
      } else {
        std::string key = state;
        if (!key.empty()) key[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(key[0])));
        ++other[key];
      }
    }
  }
  Json out = Json::object();
  out["total"] = total;
  out["running"] = running;
  out["pending"] = pending;
  out["terminating"] = terminating;
  out["deleted"] = deleted;
  for (const auto& entry : other) out[entry.first] = entry.second;
  return out;
}

}  // namespace

std::vector<SweepRun> SweepGrid(const io::SweepSpec& spec) {
  std::vector<SweepRun> runs;
  for (std::size_t input = 0; input < spec.inputs.size(); ++input) {
    for (std::size_t overlay = 0; overlay < spec.overlays.size(); ++overlay) {
      for (const std::string& profile : spec.profiles) {
        for (const std::string& gates : spec.feature_gates) {
          for (const std::uint64_t seed : spec.seeds) {
            SweepRun run;
            run.index = static_cast<int>(runs.size());
            run.input = input;
            run.overlay = overlay;
            run.profile = profile;
            run.feature_gates = gates;
            run.seed = seed;
            runs.push_back(std::move(run));
          }
        }
      }
    }
  }
  return runs;
}

std::string SweepPath(const io::SweepSpec& spec, const std::string& path) {
  const fs::path p(path);
  if (p.is_absolute()) return path;
  const fs::path dir = fs::path(spec.file).parent_path();
  return dir.empty() ? path : (dir / p).string();
}

Expected<SweepPlan> PlanSweep(io::SweepSpec spec) {
  const std::string& file = spec.file;
  const auto field_error = [&file](const std::string& field, const std::string& message) {
    Error e = UsageError(fmt::format("{}: {}: {}", file, field, message));
    e.file = file;
    return e;
  };
  constexpr std::size_t kMaxRuns = 1000000;
  const std::size_t runs = spec.inputs.size() * spec.overlays.size() * spec.profiles.size() *
                           spec.feature_gates.size() * spec.seeds.size();
  if (runs > kMaxRuns) {
    return field_error("spec", fmt::format("{} runs; a sweep has at most {}", runs, kMaxRuns));
  }
  SweepPlan plan;
  // 1) Settings, applied once to every run; the grid's own axes are not settings.
  for (std::size_t i = 0; i < spec.settings.size(); ++i) {
    const std::string& setting = spec.settings[i];
    const std::string field = fmt::format("spec.settings[{}]", i);
    const std::string key = setting.substr(0, setting.find('='));
    if (key == "profile" || key == "seed" || key == "featureGates" || key == "feature-gates") {
      const std::string axis = key == "profile" ? "profiles" : key == "seed" ? "seeds" : "featureGates";
      return field_error(field, fmt::format("{} is an axis of the sweep; list its values in spec.{}", key, axis));
    }
    if (Result applied = ApplySetting(setting, plan.common, plan.engine); !applied.ok()) {
      return field_error(field, applied.error().message);
    }
  }
  // 2) Every combination of profile and gates must make options (the settings' values too).
  for (std::size_t p = 0; p < spec.profiles.size(); ++p) {
    EngineFlags engine = plan.engine;
    engine.profile = spec.profiles[p];
    if (auto options = MakeOptions(plan.common, engine); !options.ok()) {
      const std::string& message = options.error().message;
      if (message.starts_with("--profile")) {
        return field_error(fmt::format("spec.profiles[{}]", p), WithoutFlag(message));
      }
      return field_error("spec.settings", message);
    }
  }
  for (std::size_t g = 0; g < spec.feature_gates.size(); ++g) {
    CommonFlags common = plan.common;
    common.feature_gates = spec.feature_gates[g];
    if (auto options = MakeOptions(common, plan.engine); !options.ok()) {
      return field_error(fmt::format("spec.featureGates[{}]", g), WithoutFlag(options.error().message));
    }
  }
  // 3) The files: every path must exist; each input and each overlay's `add` is read once.
  const auto check_path = [&spec, &field_error](const std::string& field, const std::string& path) -> Result {
    if (path == "-") return field_error(field, "\"-\" (standard input) cannot be a sweep's file");
    std::error_code ec;
    if (!fs::exists(SweepPath(spec, path), ec)) {
      return field_error(field, fmt::format("{}: no such file or directory", SweepPath(spec, path)));
    }
    return {};
  };
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    std::vector<std::string> paths;
    for (std::size_t j = 0; j < spec.inputs[i].paths.size(); ++j) {
      const std::string& path = spec.inputs[i].paths[j];
      KPSIM_RETURN_IF_ERROR(check_path(fmt::format("spec.inputs[{}].paths[{}]", i, j), path));
      paths.push_back(SweepPath(spec, path));
    }
    plan.inputs.push_back(io::ReadManifests(paths));
  }
  for (std::size_t i = 0; i < spec.overlays.size(); ++i) {
    std::vector<std::string> paths;
    for (std::size_t j = 0; j < spec.overlays[i].add.size(); ++j) {
      const std::string& path = spec.overlays[i].add[j];
      KPSIM_RETURN_IF_ERROR(check_path(fmt::format("spec.overlays[{}].add[{}]", i, j), path));
      paths.push_back(SweepPath(spec, path));
    }
    plan.overlays.push_back(paths.empty() ? io::ReadResult{} : io::ReadManifests(paths));
  }
  plan.runs = SweepGrid(spec);
  plan.spec = std::move(spec);
  return plan;
}

Expected<SweepShard> ResolveSweepShard(int shards, const std::string* shard_flag, const char* env_index) {
  constexpr int kMaxShards = 100000;  // an Indexed Job's completions are limited to 100000
  if (shards < 1 || shards > kMaxShards) {
    return UsageError(fmt::format("--shards: {} is not from 1 to {}", shards, kMaxShards));
  }
  SweepShard out;
  out.shards = shards;
  const auto range = [shards] { return shards == 1 ? std::string("0") : fmt::format("0 to {}", shards - 1); };
  if (shard_flag != nullptr) {
    const std::optional<int> shard = WholeNumber(*shard_flag, kMaxShards);
    if (!shard || *shard >= shards) {
      return UsageError(fmt::format("--shard: \"{}\" is not a shard of --shards {} ({})", *shard_flag, shards, range()));
    }
    out.shard = *shard;
    return out;
  }
  if (env_index != nullptr) {
    const std::optional<int> shard = WholeNumber(env_index, kMaxShards);
    if (!shard || *shard >= shards) {
      return UsageError(fmt::format("JOB_COMPLETION_INDEX=\"{}\" is not a shard of --shards {} ({}); "
                                    "give --shard or the Job's completions as --shards",
                                    env_index, shards, range()));
    }
    out.shard = *shard;
    return out;
  }
  if (shards > 1) {
    return UsageError(fmt::format("--shards {} needs the shard to run: --shard I ({}) or the environment "
                                  "variable JOB_COMPLETION_INDEX (set in an Indexed Job's pods)",
                                  shards, range()));
  }
  return out;
}

SweepLine RunSweepOne(const SweepPlan& plan, const SweepRun& run) {
  Json head = LineHead(plan, run);
  try {
    const io::SweepOverlay& overlay = plan.spec.overlays[run.overlay];
    io::ReadResult read = plan.inputs[run.input];
    if (!overlay.add.empty()) AppendRead(read, plan.overlays[run.overlay]);
    for (const io::SweepScale& scale : overlay.scale) {
      int matched = 0;
      for (Workload& w : read.workloads) {
        if (w.kind != scale.kind || w.DisplayName() != scale.name) continue;
        if (w.kind == WorkloadKind::kJob) {
          w.parallelism = scale.replicas;
        } else {
          w.replicas = scale.replicas;
        }
        ++matched;
      }
      if (matched == 0) {
        return ErrorLine(std::move(head),
                         fmt::format("overlay {}: scale: input {} has no {} {}", overlay.name,
                                     plan.spec.inputs[run.input].name, WorkloadKindName(scale.kind), scale.name),
                         {});
      }
    }
    CommonFlags common = plan.common;
    common.output = "json";
    common.feature_gates = run.feature_gates;
    EngineFlags engine = plan.engine;
    engine.profile = run.profile;
    engine.seed = std::to_string(run.seed);
    RunOutput out = RunSimulate(std::move(read), common, engine);
    if (out.error) return ErrorLine(std::move(head), out.error->message, std::move(out.diagnostics));
    const Json result = Json::parse(out.output, nullptr, /*allow_exceptions=*/false);
    if (!result.is_object() || !result.contains("disruption")) {
      return ErrorLine(std::move(head), "the run's JSON has no disruption object", std::move(out.diagnostics));
    }
    head["status"] = "ok";
    head["pods"] = PodCounts(result.contains("pods") ? result["pods"] : Json());
    head["disruption"] = result["disruption"];
    SweepLine line;
    line.json = Dump(head);
    line.diagnostics = std::move(out.diagnostics);
    return line;
  } catch (const std::exception& e) {
    return ErrorLine(std::move(head), fmt::format("internal error: {}", e.what()), {});
  }
}

void RunSweep(const SweepPlan& plan, SweepShard shard, int jobs,
              const std::function<void(const SweepRun&, const SweepLine&)>& emit) {
  std::vector<const SweepRun*> mine;
  for (const SweepRun& run : plan.runs) {
    if (run.index % shard.shards == shard.shard) mine.push_back(&run);
  }
  const std::size_t workers = std::min(static_cast<std::size_t>(std::max(jobs, 1)), mine.size());
  if (workers <= 1) {
    for (const SweepRun* run : mine) emit(*run, RunSweepOne(plan, *run));
    return;
  }
  // Workers take runs in order and park each line in its slot; this thread hands the slots to
  // `emit` in order, so output order never depends on which run finished first.
  std::vector<std::optional<SweepLine>> done(mine.size());
  std::mutex mutex;
  std::condition_variable ready;
  std::size_t next = 0;
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (std::size_t w = 0; w < workers; ++w) {
    threads.emplace_back([&plan, &mine, &done, &mutex, &ready, &next] {
      for (;;) {
        std::size_t i = 0;
        {
          const std::lock_guard<std::mutex> lock(mutex);
          if (next == mine.size()) return;
          i = next++;
        }
        SweepLine line = RunSweepOne(plan, *mine[i]);
        {
          const std::lock_guard<std::mutex> lock(mutex);
          done[i] = std::move(line);
        }
        ready.notify_all();
      }
    });
  }
  for (std::size_t i = 0; i < mine.size(); ++i) {
    SweepLine line;
    {
      std::unique_lock<std::mutex> lock(mutex);
      ready.wait(lock, [&done, i] { return done[i].has_value(); });
      line = std::move(*done[i]);
      done[i].reset();
    }
    emit(*mine[i], line);
  }
  for (std::thread& t : threads) t.join();
}

// --- merge -------------------------------------------------------------------------------------

Expected<std::vector<std::string>> MergeSweepLines(const std::vector<SweepSource>& sources) {
  struct Seen {
    std::string text;
    std::string where;  // "file:line"
  };
  std::vector<std::optional<Seen>> runs;
  std::string runs_where;  // where `runs` was first read
  std::uint64_t total = 0;
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
      if (!whole("run") || !whole("runs") || j["runs"].get<std::uint64_t>() == 0) {
        return UsageError(fmt::format("{}: not a kpsim sweep line (a JSON object with \"run\" and \"runs\"): {}",
                                      where, std::string(line.substr(0, 80))));
      }
      const std::uint64_t run = j["run"].get<std::uint64_t>();
      const std::uint64_t of = j["runs"].get<std::uint64_t>();
      if (runs_where.empty()) {
        constexpr std::uint64_t kMaxRuns = 1000000;
        if (of > kMaxRuns) return UsageError(fmt::format("{}: \"runs\": {} is more than a sweep has", where, of));
        total = of;
        runs_where = where;
        runs.resize(static_cast<std::size_t>(of));
      } else if (of != total) {
        return UsageError(fmt::format("{}: \"runs\" is {}, but {} says {}: lines of different sweeps", where, of,
                                      runs_where, total));
      }
      if (run >= total) {
        return UsageError(fmt::format("{}: run {} is out of range (runs 0 to {})", where, run, total - 1));
      }
      std::optional<Seen>& slot = runs[static_cast<std::size_t>(run)];
      if (slot) return UsageError(fmt::format("{}: run {} appears twice (first at {})", where, run, slot->where));
      slot = Seen{std::string(line), where};
    }
  }
  if (runs_where.empty()) {
    std::string names;
    for (const SweepSource& s : sources) names += (names.empty() ? "" : ", ") + s.name;
    return UsageError(fmt::format("no sweep lines in {}", names.empty() ? "the input" : names));
  }
  std::vector<std::string> missing;
  std::size_t missing_count = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i]) continue;
    if (++missing_count <= 10) missing.push_back(std::to_string(i));
  }
  if (missing_count > 0) {
    std::string list;
    for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
    if (missing_count > missing.size()) list += fmt::format(", ... ({} in all)", missing_count);
    return UsageError(fmt::format("missing run{} {} of {}: a shard's output is incomplete or was not given",
                                  missing_count == 1 ? "" : "s", list, total));
  }
  std::vector<std::string> out;
  out.reserve(runs.size());
  for (std::optional<Seen>& r : runs) out.push_back(std::move(r->text));
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
  Table runs({"run", "input", "overlay", "profile", "gates", "seed", "evicted", "ratio", "PDBs broken",
              "groups broken", "cascade", "quiet", "pending", "status"},
             {true, false, false, false, false, true, true, true, true, true, true, true, true, false});
  // Per (input, overlay, profile, gates), in the order first seen (run order).
  struct Group {
    std::vector<std::string> key;
    int runs = 0;
    int errors = 0;
    Stat evicted, ratio, pdbs, groups, cascade, quiet, pending;
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
      runs.Row({run, key[0], key[1], key[2], Dash(key[3]), seed, "-", "-", "-", "-", "-", "-", "-",
                "error: " + text("error")});
      continue;
    }
    const Json& d = j["disruption"];
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
    runs.Row({run, key[0], key[1], key[2], Dash(key[3]), seed, evicted ? Num(*evicted) : "-",
              ratio ? Num(*ratio) : "-", std::to_string(pdbs), std::to_string(broken),
              cascade ? Num(*cascade) : "-", quiet ? Num(*quiet) + "s" : "-", pending ? Num(*pending) : "-", "ok"});
  }
  Table by({"input", "overlay", "profile", "gates", "runs", "errors", "evicted mean", "evicted min-max", "ratio mean",
            "ratio max", "PDBs broken max", "groups broken max", "cascade max", "quiet max", "pending mean",
            "pending max"},
           {false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true});
  for (const Group& g : groups) {
    by.Row({g.key[0], g.key[1], g.key[2], Dash(g.key[3]), std::to_string(g.runs), std::to_string(g.errors),
            g.evicted.Mean(), g.evicted.n == 0 ? "-" : g.evicted.Min() + "-" + g.evicted.Max(), g.ratio.Mean(),
            g.ratio.Max(), g.pdbs.Max(),
            g.groups.Max(), g.cascade.Max(), g.quiet.n == 0 ? "-" : g.quiet.Max() + "s", g.pending.Mean(),
            g.pending.Max()});
  }
  std::string out = fmt::format("Sweep: {} run{} shown of {}, {} failed\n\n", lines.size(),
                                lines.size() == 1 ? "" : "s", total, errors);
  out += runs.Render();
  out += "\nBy input, overlay, profile and gates, over seeds (quiet: time to quiet; ratio: evictionRatio):\n\n";
  out += by.Render();
  return out;
}

// --- --emit-job --------------------------------------------------------------------------------

namespace {

// A file the Job's pods need: where it lies here and where it goes under /sweep.
struct ShipFile {
  std::string local;
  fs::path rel;  // relative to the spec's directory, normalised (may start with "..")
};

// Lists a directory's manifest files as io::ReadManifests walks it: its .yaml/.yml/.json files in
// bytewise name order, then its subdirectories in bytewise name order, hidden entries skipped,
// each directory once.
Result ListDirectory(const fs::path& dir, const fs::path& rel, std::set<std::string>& visited,
                     std::vector<ShipFile>& out) {
  std::error_code ec;
  const std::string canonical = fs::canonical(dir, ec).string();
  if (ec) return UsageError(fmt::format("{}: {}", dir.string(), ec.message()));
  if (!visited.insert(canonical).second) return {};
  std::vector<std::string> files;
  std::vector<std::string> dirs;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code type_ec;
    if (it->is_directory(type_ec)) {
      dirs.push_back(name);
    } else if (const std::string ext = it->path().extension().string();
               it->is_regular_file(type_ec) && (ext == ".yaml" || ext == ".yml" || ext == ".json")) {
      files.push_back(name);
    }
  }
  if (ec) return UsageError(fmt::format("{}: {}", dir.string(), ec.message()));
  std::sort(files.begin(), files.end());
  std::sort(dirs.begin(), dirs.end());
  for (const std::string& f : files) out.push_back(ShipFile{(dir / f).string(), (rel / f).lexically_normal()});
  for (const std::string& d : dirs) KPSIM_RETURN_IF_ERROR(ListDirectory(dir / d, rel / d, visited, out));
  return {};
}

bool ValidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    if (c < 0x80) {
      n = 0;
    } else if ((c & 0xE0) == 0xC0 && c >= 0xC2) {
      n = 1;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
    } else if ((c & 0xF8) == 0xF0 && c <= 0xF4) {
      n = 3;
    } else {
      return false;
    }
    if (n > 0 && i + n >= s.size()) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n + 1;
  }
  return true;
}

// A YAML double-quoted scalar (a JSON string is one).
std::string Quote(std::string_view s) { return Dump(Json(std::string(s))); }

// A ConfigMap value: a literal block when the text reads back exactly as one (ends in one
// newline, no carriage returns or other control characters, no line of blanks only, first line
// not indented), else a double-quoted scalar. `indent`: the block's indentation.
std::string YamlText(const std::string& text, const std::string& indent) {
  bool block = !text.empty() && text.back() == '\n' && (text.size() < 2 || text[text.size() - 2] != '\n') &&
               text[0] != ' ' && text[0] != '\n';
  for (std::size_t i = 0; block && i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) block = false;
  }
  for (std::size_t start = 0; block && start < text.size();) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line(text.data() + start, end - start);
    if (!line.empty() && line.find_first_not_of(" \t") == std::string_view::npos) block = false;
    start = end + 1;
  }
  if (text.starts_with("\xEF\xBB\xBF")) block = false;
  if (!block) return Quote(text) + "\n";
  std::string out = "|\n";
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line(text.data() + start, end - start);
    out += line.empty() ? "\n" : indent + std::string(line) + "\n";
    start = end + 1;
  }
  return out;
}

// A ConfigMap key from a file name: [-._a-zA-Z0-9]+.
std::string Key(std::size_t index, const fs::path& rel) {
  std::string name = rel.filename().string();
  for (char& ch : name) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                    ch == '.' || ch == '_';
    if (!ok) ch = '_';
  }
  return fmt::format("f{:03}-{}", index, name.substr(0, 200));
}

bool Dns1123Label(std::string_view s) {
  if (s.empty() || s.size() > 63 || s.front() == '-' || s.back() == '-') return false;
  return std::all_of(s.begin(), s.end(), [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-'; });
}

}  // namespace

Expected<std::string> EmitSweepJob(const io::SweepSpec& spec, const SweepJobOptions& options) {
  const std::string base = "kpsim-sweep-" + spec.name;
  if (!Dns1123Label(spec.name) || base.size() > 52) {
    return UsageError(fmt::format("{}: metadata.name: \"{}\" cannot name the Job {}: use lowercase letters, digits "
                                  "and '-' (at most 40 characters)",
                                  spec.file, spec.name, base));
  }
  if (!spec.namespace_.empty() && !Dns1123Label(spec.namespace_)) {
    return UsageError(fmt::format("{}: metadata.namespace: \"{}\" is not a namespace name", spec.file, spec.namespace_));
  }
  if (options.image.empty()) return UsageError("--emit-job needs --image IMAGE (an image with kpsim on its PATH)");
  const int parallelism = options.parallelism > 0 ? options.parallelism : options.shards;
  // 1) The files: the spec, then each input's paths and each overlay's `add`, as the runs read them.
  std::vector<ShipFile> files;
  const auto add_path = [&spec, &files](const std::string& field, const std::string& path) -> Result {
    if (fs::path(path).is_absolute()) {
      return UsageError(fmt::format("{}: {}: \"{}\" is absolute; --emit-job ships files by their path relative to "
                                    "the spec: write it relative",
                                    spec.file, field, path));
    }
    const std::string local = SweepPath(spec, path);
    std::error_code ec;
    if (fs::is_directory(local, ec)) {
      // Each path walked on its own: a directory two paths reach under different names (a
      // symlink) must exist under both in the pods; the same file twice is placed once below.
      std::set<std::string> visited;
      return ListDirectory(local, fs::path(path), visited, files);
    }
    if (!fs::exists(local, ec)) return UsageError(fmt::format("{}: {}: {}: no such file or directory", spec.file, field, local));
    files.push_back(ShipFile{local, fs::path(path).lexically_normal()});
    return {};
  };
  const fs::path spec_name = fs::path(spec.file).filename();
  files.push_back(ShipFile{spec.file, spec_name});
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    for (std::size_t j = 0; j < spec.inputs[i].paths.size(); ++j) {
      KPSIM_RETURN_IF_ERROR(add_path(fmt::format("spec.inputs[{}].paths[{}]", i, j), spec.inputs[i].paths[j]));
    }
  }
  for (std::size_t i = 0; i < spec.overlays.size(); ++i) {
    for (std::size_t j = 0; j < spec.overlays[i].add.size(); ++j) {
      KPSIM_RETURN_IF_ERROR(add_path(fmt::format("spec.overlays[{}].add[{}]", i, j), spec.overlays[i].add[j]));
    }
  }
  // 2) Where they go: the spec's directory is /sweep/<up>, where <up> is as many of its own last
  // directory names as the paths climb out of it with "..", so that every path stays below /sweep.
  std::size_t climb = 0;
  for (const ShipFile& f : files) {
    std::size_t up = 0;
    for (const fs::path& part : f.rel) {
      if (part != "..") break;
      ++up;
    }
    climb = std::max(climb, up);
  }
  fs::path up;
  if (climb > 0) {
    std::error_code ec;
    const fs::path dir = fs::absolute(fs::path(spec.file), ec).parent_path().lexically_normal();
    std::vector<fs::path> parts(dir.begin(), dir.end());
    // parts[0] is the root "/"; the names above it are what "../" climbs over.
    if (ec || parts.size() < climb + 1) {
      return UsageError(fmt::format("{}: the paths climb above the root directory", spec.file));
    }
    for (std::size_t k = parts.size() - climb; k < parts.size(); ++k) up /= parts[k];
  }
  // 3) The ConfigMap's entries, each file once, and its size against the ConfigMap's limit.
  struct Entry {
    std::string key;
    std::string path;  // under /sweep
    std::string text;
  };
  std::vector<Entry> entries;
  std::set<std::string> placed;
  std::size_t bytes = 0;
  constexpr std::size_t kConfigMapLimit = std::size_t{1} << 20;  // 1 MiB: keys and values together
  for (const ShipFile& f : files) {
    const std::string path = (up / f.rel).lexically_normal().generic_string();
    if (!placed.insert(path).second) continue;
    std::ifstream in(f.local, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) return UsageError(fmt::format("{}: cannot be read", f.local));
    Entry e{Key(entries.size(), f.rel), path, text.str()};
    if (!ValidUtf8(e.text)) {
      return UsageError(fmt::format("{}: not UTF-8 text, which a ConfigMap's data holds; bake the files into the image instead", f.local));
    }
    bytes += e.key.size() + e.text.size();
    entries.push_back(std::move(e));
  }
  if (bytes > kConfigMapLimit) {
    return UsageError(fmt::format(
        "the spec and its {} files come to {} bytes, more than a ConfigMap holds ({} bytes); bake them into the "
        "image instead (copy the spec's directory into it and run kpsim sweep SPEC --shards N there as the Job's "
        "command)",
        entries.size(), bytes, kConfigMapLimit));
  }
  const std::string spec_path = "/sweep/" + (up / spec_name).generic_string();
  // 4) The YAML.
  std::string meta_ns = spec.namespace_.empty() ? "" : fmt::format("  namespace: {}\n", spec.namespace_);
  const std::string labels = fmt::format("    app.kubernetes.io/name: kpsim-sweep\n    kpsim.io/sweep: {}\n", spec.name);
  std::string out;
  out += fmt::format("# kpsim sweep --emit-job: sweep {} ({} runs) as {} shard{} of an Indexed Job.\n", spec.name,
                     SweepGrid(spec).size(), options.shards, options.shards == 1 ? "" : "s");
  out += options.results_claim.empty()
             ? "# Each pod prints its shard's lines: kubectl logs, then kpsim sweep merge (see the README).\n"
             : fmt::format("# Each pod writes /results/shard-<index>.jsonl on the claim {}; then kpsim sweep merge.\n",
                           options.results_claim);
  out += "apiVersion: v1\nkind: ConfigMap\nmetadata:\n";
  out += fmt::format("  name: {}\n", base) + meta_ns + "  labels:\n" + labels + "data:\n";
  for (const Entry& e : entries) out += fmt::format("  {}: {}", e.key, YamlText(e.text, "    "));
  out += "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n";
  out += fmt::format("  name: {}\n", base) + meta_ns + "  labels:\n" + labels;
  out += "spec:\n  completionMode: Indexed\n";
  out += fmt::format("  completions: {}\n  parallelism: {}\n", options.shards, parallelism);
  out += "  template:\n    metadata:\n      labels:\n" +
         fmt::format("        app.kubernetes.io/name: kpsim-sweep\n        kpsim.io/sweep: {}\n", spec.name);
  out += "    spec:\n      restartPolicy: Never\n      containers:\n      - name: kpsim\n";
  out += fmt::format("        image: {}\n", Quote(options.image));
  out += "        command: [\"kpsim\"]\n";
  std::vector<std::string> args{"sweep", spec_path, "--shards", std::to_string(options.shards), "--jobs", "1"};
  if (options.results_claim.empty()) {
    args.push_back("--quiet");  // stdout is the result: keep the log free of diagnostics
  } else {
    args.insert(args.end(), {"--results", "/results/shard-$(JOB_COMPLETION_INDEX).jsonl"});
  }
  std::string joined;
  for (const std::string& a : args) joined += (joined.empty() ? "" : ", ") + Quote(a);
  out += "        args: [" + joined + "]\n";
  out += "        env:\n        - name: JOB_COMPLETION_INDEX\n          valueFrom:\n            fieldRef:\n"
         "              fieldPath: metadata.annotations['batch.kubernetes.io/job-completion-index']\n";
  out += "        resources:\n          requests:\n            cpu: \"1\"\n";
  out += "        volumeMounts:\n        - name: sweep\n          mountPath: /sweep\n          readOnly: true\n";
  if (!options.results_claim.empty()) out += "        - name: results\n          mountPath: /results\n";
  out += "      volumes:\n      - name: sweep\n        configMap:\n";
  out += fmt::format("          name: {}\n          items:\n", base);
  for (const Entry& e : entries) out += fmt::format("          - key: {}\n            path: {}\n", e.key, Quote(e.path));
  if (!options.results_claim.empty()) {
    out += fmt::format("      - name: results\n        persistentVolumeClaim:\n          claimName: {}\n",
                       Quote(options.results_claim));
  }
  return out;
}

}  // namespace kpsim::app
