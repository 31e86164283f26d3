// `kpsim sweep` (sweep.h): the grid, the plan, one run as a JSON line, the thread pool that keeps
// run order, and shard selection. Merge and the table are sweep_report.cc, the Job sweep_job.cc.

#include "app/sweep.h"
#include "app/run.h"
#include "app/sweep_json.h"

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
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


// A run's message without the flag it came from ("--profile: x not in ..." -> "x not in ...").
std::string WithoutFlag(const std::string& message) {
  if (message.starts_with("--")) {
    if (const std::size_t colon = message.find(": "); colon != std::string::npos) {
      return message.substr(colon + 2);
    }
  }
  return message;
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
  j["specDigest"] = plan.spec_digest;
  return j;
}

SweepLine ErrorLine(Json head, const std::string& message, std::vector<std::string> diagnostics) {
  head["status"] = "error";
  head["error"] = message;
  SweepLine line;
  line.json = DumpLine(head);
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

std::string SweepSpecDigest(const io::SweepSpec& spec) {
  Json overlays = Json::array();
  for (const io::SweepOverlay& o : spec.overlays) {
    Json scale = Json::array();
    for (const io::SweepScale& sc : o.scale) {
      scale.push_back(Json::array({static_cast<int>(sc.kind), sc.name, sc.replicas}));
    }
    overlays.push_back(Json::array({o.name, o.add, scale}));
  }
  Json inputs = Json::array();
  for (const io::SweepInput& in : spec.inputs) inputs.push_back(Json::array({in.name, in.paths}));
  const Json canonical = Json::array({spec.name, spec.namespace_, inputs, spec.seeds, spec.profiles,
                                      spec.feature_gates, overlays, spec.settings});
  std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a 64
  for (const char c : canonical.dump()) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", hash);
}

std::optional<std::string> SweepSettingPath(std::string_view setting) {
  const std::size_t eq = setting.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  const std::string_view key = setting.substr(0, eq);
  if (key != "nodeTemplate" && key != "node-template") return std::nullopt;
  return std::string(setting.substr(eq + 1));
}

std::size_t SweepRunCount(const io::SweepSpec& spec, std::size_t cap) {
  std::size_t runs = 1;
  for (const std::size_t axis : {spec.inputs.size(), spec.overlays.size(), spec.profiles.size(),
                                 spec.feature_gates.size(), spec.seeds.size()}) {
    runs = axis == 0 ? 0 : runs > cap / axis ? cap + 1 : runs * axis;
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
  const auto field_error = [&file, &spec](const std::string& field, const std::string& message) {
    // The field's line, or its nearest parent's (a field the spec leaves out has none).
    int line = 0;
    for (std::string f = field;;) {
      if (const auto it = spec.lines.find(f); it != spec.lines.end()) {
        line = it->second;
        break;
      }
      const std::size_t cut = f.find_last_of(".[");
      if (cut == std::string::npos || cut == 0) break;
      f.resize(cut);
    }
    Error e = UsageError(line > 0 ? fmt::format("{}:{}: {}: {}", file, line, field, message)
                                  : fmt::format("{}: {}: {}", file, field, message));
    e.file = file;
    e.line = line;
    return e;
  };
  if (SweepRunCount(spec, kMaxSweepRuns) > kMaxSweepRuns) {
    return field_error("spec", fmt::format("more than {} runs; a sweep has at most {}", kMaxSweepRuns, kMaxSweepRuns));
  }
  // Every file the spec names must exist (relative to the spec's directory).
  const auto check_path = [&spec, &field_error](const std::string& field, const std::string& path) -> Result {
    if (path == "-") return field_error(field, "\"-\" (standard input) cannot be a sweep's file");
    std::error_code ec;
    if (!fs::exists(SweepPath(spec, path), ec)) {
      return field_error(field, fmt::format("{}: no such file or directory", SweepPath(spec, path)));
    }
    return {};
  };
  SweepPlan plan;
  // 1) Settings, applied once to every run; the grid's own axes are not settings. A file a
  // setting names (nodeTemplate=FILE) is the spec's, like its inputs, and named in messages as the
  // spec writes it.
  std::string first_template_setting;  // the field of the first nodeTemplate setting
  for (std::size_t i = 0; i < spec.settings.size(); ++i) {
    const std::string& setting = spec.settings[i];
    const std::string field = fmt::format("spec.settings[{}]", i);
    const std::string key = setting.substr(0, setting.find('='));
    if (key == "profile" || key == "seed" || key == "featureGates" || key == "feature-gates") {
      const std::string axis = key == "profile" ? "profiles" : key == "seed" ? "seeds" : "featureGates";
      return field_error(field, fmt::format("{} is an axis of the sweep; list its values in spec.{}", key, axis));
    }
    if (const std::optional<std::string> path = SweepSettingPath(setting)) {
      if (path->empty()) return field_error(field, fmt::format("{}: give a file of template Nodes", key));
      KPSIM_RETURN_IF_ERROR(check_path(field, *path));
      plan.engine.node_templates.push_back(SweepPath(spec, *path));
      plan.engine.node_template_names.push_back(*path);
      if (first_template_setting.empty()) first_template_setting = field;
      continue;
    }
    if (Result applied = ApplySetting(setting, plan.common, plan.engine); !applied.ok()) {
      if (applied.error().message.starts_with("unknown setting")) {
        // simulate --compare's keys, less the grid's axes (refused above), and the sweep's own.
        std::vector<std::string_view> keys;
        for (const std::string_view k : SettingKeyList()) {
          if (k != "profile" && k != "seed" && k != "featureGates") keys.push_back(k);
        }
        keys.push_back("nodeTemplate");
        return field_error(field, fmt::format("unknown setting {} (keys: {}; profiles, seeds and featureGates are "
                                              "the sweep's axes, listed in the spec)",
                                              key, fmt::join(keys, ", ")));
      }
      return field_error(field, applied.error().message);
    }
  }
  if (!first_template_setting.empty() && !plan.engine.scale_up) {
    return field_error(first_template_setting,
                       "nodeTemplate is read only by scale-up runs: add \"scaleUp=true\" to spec.settings");
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
  // 3) The files: every path must exist; each overlay's `add` is read once, the inputs by their
  // runs (RunSweep).
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    std::vector<std::string> paths;
    for (std::size_t j = 0; j < spec.inputs[i].paths.size(); ++j) {
      const std::string& path = spec.inputs[i].paths[j];
      KPSIM_RETURN_IF_ERROR(check_path(fmt::format("spec.inputs[{}].paths[{}]", i, j), path));
      paths.push_back(SweepPath(spec, path));
    }
    plan.input_paths.push_back(std::move(paths));
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
  plan.spec_digest = SweepSpecDigest(spec);
  plan.spec = std::move(spec);
  return plan;
}

Expected<SweepShard> ResolveSweepShard(int shards, const std::string* shard_flag, const char* env_index) {
  if (shards < 1 || shards > kMaxSweepShards) {
    return UsageError(fmt::format("--shards: {} is not from 1 to {}", shards, kMaxSweepShards));
  }
  SweepShard out;
  out.shards = shards;
  const auto range = [shards] { return shards == 1 ? std::string("0") : fmt::format("0 to {}", shards - 1); };
  if (shard_flag != nullptr) {
    const std::optional<std::int64_t> shard = ParseIndex(*shard_flag, kMaxSweepShards);
    if (!shard || *shard >= shards) {
      return UsageError(fmt::format("--shard: \"{}\" is not a shard of --shards {} ({})", *shard_flag, shards, range()));
    }
    out.shard = static_cast<int>(*shard);  // at most kMaxSweepShards
    return out;
  }
  if (env_index != nullptr) {
    const std::optional<std::int64_t> shard = ParseIndex(env_index, kMaxSweepShards);
    if (!shard || *shard >= shards) {
      return UsageError(fmt::format("JOB_COMPLETION_INDEX=\"{}\" is not a shard of --shards {} ({}); "
                                    "give --shard or the Job's completions as --shards",
                                    env_index, shards, range()));
    }
    out.shard = static_cast<int>(*shard);  // at most kMaxSweepShards
    return out;
  }
  if (shards > 1) {
    return UsageError(fmt::format("--shards {} needs the shard to run: --shard I ({}) or the environment "
                                  "variable JOB_COMPLETION_INDEX (set in an Indexed Job's pods)",
                                  shards, range()));
  }
  return out;
}

namespace {

// Why a scale found no workload, when the input says: a dump that left the Deployment out but
// kept its ReplicaSet (whose ownerReferences name it), a workload of that name of another kind, or
// a dump of pods alone whose pods the workload owns.
std::string ScaleHint(const io::ReadResult& read, const io::SweepScale& scale) {
  const std::string_view kind = WorkloadKindName(scale.kind);
  for (const Workload& w : read.workloads) {
    const std::string ns = w.meta.namespace_.empty() ? "default" : w.meta.namespace_;
    for (const OwnerReference& owner : w.meta.owner_references) {
      if (owner.kind == kind && ns + "/" + owner.name == scale.name) {
        return fmt::format(" (it has {} {}, which that {} owns: scale the {} instead, or add the {} to the input)",
                           WorkloadKindName(w.kind), w.DisplayName(), kind, WorkloadKindName(w.kind), kind);
      }
    }
  }
  for (const Workload& w : read.workloads) {
    if (w.DisplayName() == scale.name) return fmt::format(" (it has {} {})", WorkloadKindName(w.kind), w.DisplayName());
  }
  // A dump of pods alone: pods whose controller is the workload (a Deployment's through a
  // ReplicaSet named "<deployment>-<hash>", no dash in the pod-template-hash), which is not in the
  // input.
  const std::string prefix = scale.name + "-";
  for (const Object& o : read.objects) {
    if (o.kind != ObjectKind::kPod) continue;
    const ObjectMeta& meta = o.meta();
    const std::string ns = meta.namespace_.empty() ? "default" : meta.namespace_;
    for (const OwnerReference& owner : meta.owner_references) {
      const std::string owner_name = ns + "/" + owner.name;
      const bool owned = scale.kind == WorkloadKind::kDeployment
                             ? owner.kind == "ReplicaSet" && owner_name.size() > prefix.size() &&
                                   owner_name.starts_with(prefix) &&
                                   owner_name.find('-', prefix.size()) == std::string::npos
                             : owner.kind == kind && owner_name == scale.name;
      if (owned) {
        return fmt::format(" (its pods are in the input, Pod {} owned by {} {}, but not the workloads: capture them "
                           "too, e.g. kubectl get deployments,replicasets,statefulsets,jobs -A -o yaml)",
                           o.DisplayName(), owner.kind, owner_name);
      }
    }
  }
  return "";
}

}  // namespace

SweepLine RunSweepOne(const SweepPlan& plan, const SweepRun& run, const io::ReadResult& input) {
  Json head = LineHead(plan, run);
  // A path the spec names that can no longer be opened (PlanSweep saw it, but the runs read it
  // later): the run would be of part of the input, so it is an error line, not an "ok" one. A file
  // inside a named directory that cannot be opened, or one that does not parse, is the run's
  // diagnostic and the rest runs, as under `simulate`. The line names no path (it does not depend
  // on where the files lie); the diagnostics do.
  const std::vector<std::string>& named = plan.input_paths[run.input];
  if (std::any_of(input.file_errors.begin(), input.file_errors.end(), [&named](const Error& e) {
        return e.code == ErrorCode::kNotFound && std::find(named.begin(), named.end(), e.file) != named.end();
      })) {
    std::vector<std::string> diagnostics;
    for (const Error& e : input.file_errors) diagnostics.push_back("error: " + e.ToString());
    return ErrorLine(std::move(head),
                     fmt::format("input {}: a file of it cannot be read (gone or unreadable since the sweep "
                                 "started; the run's diagnostics name it)",
                                 plan.spec.inputs[run.input].name),
                     std::move(diagnostics));
  }
  try {
    const io::SweepOverlay& overlay = plan.spec.overlays[run.overlay];
    io::ReadResult read = input;
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
                         fmt::format("overlay {}: scale: input {} has no {} {}{}", overlay.name,
                                     plan.spec.inputs[run.input].name, WorkloadKindName(scale.kind), scale.name,
                                     ScaleHint(read, scale)),
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
    if (result.contains("scaleUp") && result["scaleUp"].is_object()) {
      // The autoscaler's world (settings scaleUp=true): the nodes it added, by template, and the
      // pods no template could take.
      const Json& scale = result["scaleUp"];
      head["scaleUp"] = Json{{"nodesAdded", scale.value("nodesAdded", std::int64_t{0})},
                             {"byTemplate", scale.contains("byTemplate") ? scale["byTemplate"] : Json::array()},
                             {"podsNoTemplate", scale.contains("noTemplate") ? scale["noTemplate"].size() : std::size_t{0}},
                             {"stop", scale.contains("stop") ? scale["stop"] : Json(nullptr)}};
    }
    SweepLine line;
    line.json = DumpLine(head);
    line.diagnostics = std::move(out.diagnostics);
    return line;
  } catch (const std::exception& e) {
    return ErrorLine(std::move(head), fmt::format("internal error: {}", e.what()), {});
  }
}

namespace {

// A shard's inputs, each read when the first of its runs asks for it and let go when the last one
// is done. Thread-safe; an input being read makes only the runs of that input wait.
class ShardInputs {
 public:
  ShardInputs(const SweepPlan& plan, const std::vector<const SweepRun*>& mine)
      : plan_(plan), slots_(plan.input_paths.size()) {
    for (const SweepRun* run : mine) ++slots_[run->input].runs_left;
  }
  std::shared_ptr<const io::ReadResult> Acquire(std::size_t input) {
    Slot& slot = slots_[input];
    const std::lock_guard<std::mutex> lock(slot.mutex);
    if (!slot.read) slot.read = std::make_shared<const io::ReadResult>(io::ReadManifests(plan_.input_paths[input]));
    return slot.read;
  }
  void Release(std::size_t input) {
    Slot& slot = slots_[input];
    const std::lock_guard<std::mutex> lock(slot.mutex);
    if (--slot.runs_left == 0) slot.read.reset();
  }

 private:
  struct Slot {
    std::mutex mutex;
    std::size_t runs_left = 0;
    std::shared_ptr<const io::ReadResult> read;
  };
  const SweepPlan& plan_;
  std::vector<Slot> slots_;
};

// One run on its input, the input let go however the run ends. A failure to read it (out of
// memory) is the run's error line, as a failure inside the run is.
SweepLine RunWithInput(const SweepPlan& plan, const SweepRun& run, ShardInputs& inputs) {
  struct Releaser {
    ShardInputs& inputs;
    std::size_t input;
    ~Releaser() { inputs.Release(input); }
  } releaser{inputs, run.input};
  try {
    const std::shared_ptr<const io::ReadResult> input = inputs.Acquire(run.input);
    return RunSweepOne(plan, run, *input);
  } catch (const std::exception& e) {
    return ErrorLine(LineHead(plan, run), fmt::format("internal error: {}", e.what()), {});
  }
}

}  // namespace

void RunSweep(const SweepPlan& plan, SweepShard shard, int jobs,
              const std::function<void(const SweepRun&, const SweepLine&)>& emit) {
  std::vector<const SweepRun*> mine;
  for (const SweepRun& run : plan.runs) {
    if (run.index % shard.shards == shard.shard) mine.push_back(&run);
  }
  ShardInputs inputs(plan, mine);
  const std::size_t workers = std::min(static_cast<std::size_t>(std::max(jobs, 1)), mine.size());
  if (workers <= 1) {
    for (const SweepRun* run : mine) emit(*run, RunWithInput(plan, *run, inputs));
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
    threads.emplace_back([&plan, &mine, &inputs, &done, &mutex, &ready, &next] {
      for (;;) {
        std::size_t i = 0;
        {
          const std::lock_guard<std::mutex> lock(mutex);
          if (next == mine.size()) return;
          i = next++;
        }
        SweepLine line = RunWithInput(plan, *mine[i], inputs);
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

}  // namespace kpsim::app
