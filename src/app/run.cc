#include "app/run.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kpsim/api/duration.h"
#include "kpsim/engine.h"
#include "kpsim/feature_gates.h"
#include "kpsim/explain.h"
#include "kpsim/report.h"

namespace kpsim::app {
namespace {

void AddRunWarning(io::ReadResult& read, const io::SchedulerConfig& config, std::string code,
                   std::string message) {
  Warning w;
  w.source = config.source;
  w.object = "KubeSchedulerConfiguration";
  w.code = std::move(code);
  w.message = std::move(message);
  read.warnings.push_back(std::move(w));
}

}  // namespace

Error UsageError(std::string message) {
  return MakeError(ErrorCode::kInvalidArgument, std::move(message));
}

std::string AtLeastOne(std::string_view value) {
  return fmt::format("must be a whole number, at least 1, got \"{}\"", value);
}

namespace {
bool DecimalDigits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}
}  // namespace

std::optional<std::int64_t> ParseIndex(std::string_view text, std::int64_t max) {
  if (!DecimalDigits(text)) return std::nullopt;
  std::int64_t n = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || n > max) return std::nullopt;
  return n;
}

Expected<std::int64_t> ParseCount(std::string_view text, std::int64_t max) {
  if (!DecimalDigits(text)) return UsageError(AtLeastOne(text));
  const std::optional<std::int64_t> n = ParseIndex(text, max);
  if (n && *n >= 1) return *n;
  if (n) return UsageError(AtLeastOne(text));
  return UsageError(fmt::format("must be a whole number from 1 to {}, got \"{}\"", max, text));
}

// Go's time.ParseDuration counts nanoseconds; the clock ticks in microseconds, so the time is
// floored to a whole microsecond (events at t <= the bound happen: exact for any bound).
Expected<SimDuration> ParseSimDuration(std::string_view flag, const std::string& text) {
  auto ns = ParseGoDuration(text);
  if (!ns.ok()) return UsageError(fmt::format("{}: {}", flag, ns.error().message));
  if (*ns < 0) {
    return UsageError(
        fmt::format("{}: \"{}\" is negative; simulated time starts at 0", flag, text));
  }
  return SimDuration{FloorNanosToMicros(*ns)};
}

Expected<EngineOptions> MakeOptions(const CommonFlags& c, const EngineFlags& e) {
  EngineOptions options;
  auto gates = FeatureGates::Parse(c.feature_gates);
  if (!gates.ok()) return UsageError("--feature-gates: " + gates.error().message);
  options.gates = *gates;
  if (e.profile != "default" && e.profile != "book") {
    return UsageError(fmt::format("--profile: {} not in {{default, book}}", e.profile));
  }
  options.profile = e.profile == "book" ? Profile::kBook : Profile::kDefault;
  {
    // A whole number 0..2^64-1, decimal, nothing else ("-1", "1.5", "0x10", "" refused).
    std::uint64_t seed = 0;
    const char* end = e.seed.data() + e.seed.size();
    const auto [ptr, ec] = std::from_chars(e.seed.data(), end, seed);
    if (e.seed.empty() || ec != std::errc() || ptr != end) {
      return UsageError(fmt::format(
          "--seed: invalid seed \"{}\" (a whole number from 0 to 18446744073709551615)", e.seed));
    }
    options.seed = seed;
  }
  if (e.candidate_sampling != "exact" && e.candidate_sampling != "kubernetes") {
    return UsageError(fmt::format("--candidate-sampling: {} not in {{exact, kubernetes}}",
                                  e.candidate_sampling));
  }
  options.candidate_sampling = e.candidate_sampling == "kubernetes" ? CandidateSampling::kKubernetes
                                                                    : CandidateSampling::kExact;
  if (e.max_attempts <= 0) return UsageError("--max-attempts: " + AtLeastOne(std::to_string(e.max_attempts)));
  options.max_attempts = e.max_attempts;
  options.disable_caches = e.disable_caches;
  if (e.arrival != "together" && e.arrival != "sequential") {
    return UsageError(fmt::format("--arrival: {} not in {{together, sequential}}", e.arrival));
  }
  options.arrival = e.arrival == "sequential" ? Arrival::kSequential : Arrival::kTogether;
  if (e.until_set) {
    auto until = ParseSimDuration("--until", e.until);
    if (!until.ok()) return until.error();
    options.until = *until;
  }
  if (!e.origin.empty()) {
    auto t = WallTime::Parse(e.origin);
    if (!t.ok()) return UsageError("--origin: " + t.error().message);
    options.origin = *t;
  }
  if (e.scale_up) {
    if (auto scale = MakeScaleUpOptions(e); !scale.ok()) return scale.error();
    if (options.profile == Profile::kBook) {
      return UsageError("--scale-up: the book profile has no clock for new nodes to join on; use --profile default");
    }
  }
  return options;
}

Expected<ScaleUpOptions> MakeScaleUpOptions(const EngineFlags& e) {
  ScaleUpOptions out;
  auto delay = ParseSimDuration("--scale-up-delay", e.scale_up_delay);
  if (!delay.ok()) return delay.error();
  out.delay = *delay;
  auto scan = ParseSimDuration("--scan-interval", e.scan_interval);
  if (!scan.ok()) return scan.error();
  if (scan->count() <= 0) return UsageError("--scan-interval: must be positive");
  out.scan_interval = *scan;
  if (e.expander == "least-waste") {
    out.expander = Expander::kLeastWaste;
  } else if (e.expander == "most-pods") {
    out.expander = Expander::kMostPods;
  } else if (e.expander == "random") {
    out.expander = Expander::kRandom;
  } else {
    return UsageError(fmt::format("--expander: {} not in {{least-waste, most-pods, random}}", e.expander));
  }
  if (e.max_new_nodes <= 0) return UsageError("--max-new-nodes: " + AtLeastOne(std::to_string(e.max_new_nodes)));
  out.max_new_nodes = e.max_new_nodes;
  return out;
}

Expected<io::ReadOptions> MakeReadOptions(const CommonFlags& c) {
  io::ReadOptions options;
  options.recursive = !c.no_recursive;
  if (!c.max_input_size.empty()) {
    auto q = Quantity::Parse(c.max_input_size);
    if (!q.ok() || q->Value() <= 0) {
      return UsageError(fmt::format("--max-input-size: {} (a quantity such as 4Gi or 1500M)",
                                    q.ok() ? "must be positive" : q.error().message));
    }
    options.max_input_bytes = static_cast<std::size_t>(q->Value());
  }
  return options;
}

// Flags given win: with an explicit --candidate-sampling the configuration's DefaultPreemption
// arguments are only used under `kubernetes`; without it, DefaultPreemption arguments in the
// configuration select `kubernetes` sampling (as kube-scheduler samples). The book profile models
// none of it: a configuration there is a warning.
void ApplySchedulerConfig(io::ReadResult& read, const EngineFlags& flags, EngineOptions& options) {
  if (!read.scheduler_config) return;
  const io::SchedulerConfig& config = *read.scheduler_config;
  if (options.profile == Profile::kBook) {
    AddRunWarning(read, config, "IgnoredByProfile",
                  "the book profile does not read a KubeSchedulerConfiguration; ignored");
    return;
  }
  options.percentage_of_nodes_to_score = config.percentage_of_nodes_to_score;
  options.pod_initial_backoff = std::chrono::seconds(config.pod_initial_backoff_seconds);
  options.pod_max_backoff = std::chrono::seconds(config.pod_max_backoff_seconds);
  options.min_candidate_nodes_percentage = config.min_candidate_nodes_percentage;
  options.min_candidate_nodes_absolute = config.min_candidate_nodes_absolute;
  if (!config.preemption_args) return;
  if (!flags.candidate_sampling_set) {
    options.candidate_sampling = CandidateSampling::kKubernetes;
  } else if (options.candidate_sampling == CandidateSampling::kExact) {
    AddRunWarning(read, config, "OverriddenByFlag",
                  fmt::format("--candidate-sampling exact: every potential node is dry-run; the "
                              "configuration's minCandidateNodesPercentage {} / "
                              "minCandidateNodesAbsolute {} are not used",
                              config.min_candidate_nodes_percentage,
                              config.min_candidate_nodes_absolute));
  }
}

namespace {

constexpr auto kSettingKeys = std::to_array<std::string_view>(
    {"profile", "seed", "until", "featureGates", "candidateSampling", "arrival", "origin", "maxAttempts",
     "disableCaches", "scaleUp", "scaleUpDelay", "expander", "maxNewNodes"});

}  // namespace

std::span<const std::string_view> SettingKeyList() { return kSettingKeys; }

std::string_view SettingKeys() {
  static const std::string joined = fmt::format("{}", fmt::join(kSettingKeys, ", "));
  return joined;
}

namespace {

// A setting's count (ParseCount), its error named by the setting's key.
Expected<int> CountSetting(std::string_view key, const std::string& value) {
  auto n = ParseCount(value, std::numeric_limits<int>::max());
  if (!n.ok()) return UsageError(fmt::format("{}: {}", key, n.error().message));
  return static_cast<int>(*n);
}

}  // namespace

Result ApplySetting(std::string_view setting, CommonFlags& common, EngineFlags& engine) {
  const std::size_t eq = setting.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return UsageError(fmt::format("\"{}\" is not KEY=VALUE (keys: {})", setting, SettingKeys()));
  }
  const std::string_view key = setting.substr(0, eq);
  const std::string value(setting.substr(eq + 1));
  if (key == "profile") {
    engine.profile = value;
  } else if (key == "seed") {
    engine.seed = value;
  } else if (key == "until") {
    engine.until = value;
    engine.until_set = true;
  } else if (key == "feature-gates" || key == "featureGates") {
    common.feature_gates = value;
  } else if (key == "candidate-sampling" || key == "candidateSampling") {
    engine.candidate_sampling = value;
    engine.candidate_sampling_set = true;
  } else if (key == "arrival") {
    engine.arrival = value;
  } else if (key == "origin") {
    engine.origin = value;
  } else if (key == "max-attempts" || key == "maxAttempts") {
    auto n = CountSetting(key, value);
    if (!n.ok()) return n.error();
    engine.max_attempts = *n;
    engine.max_attempts_set = true;
  } else if (key == "disable-caches" || key == "disableCaches" || key == "scale-up" || key == "scaleUp") {
    if (value != "true" && value != "false") {
      return UsageError(fmt::format("{}: \"{}\" is not true or false", key, value));
    }
    if (key.starts_with("disable")) {
      engine.disable_caches = value == "true";
      engine.disable_caches_set = true;
    } else {
      engine.scale_up = value == "true";
    }
  } else if (key == "scale-up-delay" || key == "scaleUpDelay") {
    engine.scale_up_delay = value;
  } else if (key == "expander") {
    engine.expander = value;
  } else if (key == "max-new-nodes" || key == "maxNewNodes") {
    auto n = CountSetting(key, value);
    if (!n.ok()) return n.error();
    engine.max_new_nodes = *n;
  } else {
    return UsageError(fmt::format("unknown setting {} (keys: {})", key, SettingKeys()));
  }
  return {};
}

namespace {

// The settings given that the chosen profile or mode does not read: (flag, why).
std::vector<std::pair<std::string_view, std::string_view>> IgnoredFlags(const CommonFlags& common,
                                                                        const EngineFlags& engine,
                                                                        const EngineOptions& options) {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  if (options.profile == Profile::kBook) {
    if (engine.candidate_sampling_set) out.emplace_back("--candidate-sampling", "the book profile dry-runs every node");
    if (engine.disable_caches_set) out.emplace_back("--disable-caches", "the book profile has no caches");
    if (!common.feature_gates.empty()) {
      out.emplace_back("--feature-gates", "the book profile models no feature gates");
    }
  } else if (engine.max_attempts_set) {
    out.emplace_back("--max-attempts", "only the book profile caps its rounds");
  }
  if (!engine.scale_up && !engine.node_templates.empty()) {
    out.emplace_back("--node-template", "only --scale-up reads node templates");
  }
  return out;
}

}  // namespace

std::vector<Warning> IgnoredFlagWarnings(const CommonFlags& common, const EngineFlags& engine,
                                         const EngineOptions& options) {
  std::vector<Warning> out;
  for (const auto& [flag, why] : IgnoredFlags(common, engine, options)) {
    if (std::find(engine.read_by_compared.begin(), engine.read_by_compared.end(), flag) !=
        engine.read_by_compared.end()) {
      continue;
    }
    Warning w;
    w.code = "IgnoredFlag";
    w.message = fmt::format("{} is ignored: {}", flag, why);
    out.push_back(std::move(w));
  }
  return out;
}

Expected<std::vector<std::string>> FlagsReadByCompared(
    const CommonFlags& common, const EngineFlags& engine,
    const std::vector<std::pair<CommonFlags, EngineFlags>>& compared) {
  auto base = MakeOptions(common, engine);
  if (!base.ok()) return base.error();
  const auto ours = IgnoredFlags(common, engine, *base);
  if (ours.empty()) return std::vector<std::string>{};
  std::vector<bool> read(ours.size(), false);  // by some compared run; each run's list made once
  for (const auto& [c, e] : compared) {
    auto options = MakeOptions(c, e);
    if (!options.ok()) return options.error();
    const auto theirs = IgnoredFlags(c, e, *options);
    for (std::size_t i = 0; i < ours.size(); ++i) {
      const std::string_view flag = ours[i].first;
      if (std::none_of(theirs.begin(), theirs.end(), [&](const auto& t) { return t.first == flag; })) read[i] = true;
    }
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    if (read[i]) out.emplace_back(ours[i].first);
  }
  return out;
}

int AddDiagnostics(const io::ReadResult& read, const AdmissionResult& admission,
                   std::vector<std::string>& lines) {
  int rejected = 0;
  for (const Error& e : read.file_errors) {
    lines.push_back("error: " + e.ToString());
    ++rejected;
  }
  for (const io::DecodeError& e : read.errors) {
    lines.push_back("error: " + e.message);
    ++rejected;
  }
  for (const AdmissionOutcome& o : admission.outcomes) {
    if (o.admitted) continue;
    lines.push_back(fmt::format("rejected: {}: {} {}: {}", o.source.ToString(), ObjectKindName(o.kind),
                                o.name, o.message));
    ++rejected;
  }
  return rejected;
}

void AddWarnings(const std::vector<Warning>& warnings, std::vector<std::string>& lines) {
  for (const std::string& line : report::WarningLines(warnings)) lines.push_back("warning: " + line);
}

namespace {

// The steps simulate and explain share: options, the scheduler configuration, admission, and
// the input's diagnostics. Null after a usage error in `out`.
struct Prepared {
  EngineOptions options;
  AdmissionResult admission;
  std::vector<Node> templates;  // node-group templates (kNodeTemplateAnnotation, --node-template)
  std::vector<Warning> flag_warnings;
  std::vector<Warning> input_warnings;
};

// Takes the input's Nodes annotated kNodeTemplateAnnotation "true" out of `read` before admission
// (a DaemonSet makes no pod for them, a pod bound to one finds no node): they are node groups'
// templates, whatever the command. The workloads' places among the objects follow.
std::vector<Object> TakeTemplateObjects(io::ReadResult& read) {
  const auto is_template = [](const Object& o) {
    if (o.kind != ObjectKind::kNode) return false;
    const std::string* mark = FindLabel(o.meta().annotations, kNodeTemplateAnnotation);
    return mark != nullptr && *mark == "true";
  };
  if (std::none_of(read.objects.begin(), read.objects.end(), is_template)) return {};
  std::vector<Object> templates;
  std::vector<Object> kept;
  std::vector<std::size_t> removed_at;
  for (std::size_t i = 0; i < read.objects.size(); ++i) {
    if (is_template(read.objects[i])) {
      removed_at.push_back(i);
      templates.push_back(std::move(read.objects[i]));
    } else {
      kept.push_back(std::move(read.objects[i]));
    }
  }
  read.objects = std::move(kept);
  for (Workload& w : read.workloads) {
    w.position -= static_cast<std::size_t>(std::lower_bound(removed_at.begin(), removed_at.end(), w.position) -
                                           removed_at.begin());
  }
  return templates;
}

// Each place a template Node was given, by name, in reading order.
using TemplatePlaces = std::map<std::string, std::vector<SourceRef>>;

void NoteTemplatePlaces(const AdmissionResult& admitted, TemplatePlaces& places) {
  // The admitted Nodes only: a rejected one is no template (its error says why).
  for (const AdmissionOutcome& o : admitted.outcomes) {
    if (o.kind == ObjectKind::kNode && o.admitted) places[o.name].push_back(o.source);
  }
}

// A node group per template name, as the autoscaler keys its groups: a name given again (in one
// file, in two, or as an annotated Node and in a file) is one group, whose template is the last
// one given. Said, never silent (DuplicateNodeTemplate).
void KeepLastTemplateOfEachName(const TemplatePlaces& places, Prepared& p) {
  for (const auto& [name, at] : places) {
    if (at.size() < 2) continue;
    std::vector<std::string> given;
    for (const SourceRef& s : at) given.push_back(s.ToString());
    Warning w;
    w.source = at.back();
    w.object = "Node " + name;
    w.code = "DuplicateNodeTemplate";
    w.message = fmt::format("given {} times as a node template ({}): one node group, whose template is the last one",
                            at.size(), fmt::join(given, ", "));
    p.flag_warnings.push_back(std::move(w));
  }
  std::set<std::string> seen;
  std::vector<Node> kept;
  for (std::size_t i = p.templates.size(); i-- > 0;) {
    if (seen.insert(p.templates[i].meta.name).second) kept.push_back(std::move(p.templates[i]));
  }
  std::reverse(kept.begin(), kept.end());
  p.templates = std::move(kept);
}

// What --node-template files held besides Nodes: one NotANodeTemplate warning per file (a whole
// cluster dump given as a template file says so once, with what it held, not once per object).
void NoteNotNodes(const io::ReadResult& read, Prepared& p) {
  struct Held {
    SourceRef first;
    std::string first_object;
    std::map<std::string, int> kinds;  // how many of each kind
  };
  std::map<std::string, Held> by_file;
  std::vector<std::string> files;  // in the order first met
  const auto note = [&](const SourceRef& source, std::string kind, std::string object) {
    auto [it, inserted] = by_file.try_emplace(source.file);
    if (inserted) {
      files.push_back(source.file);
      it->second.first = source;
      it->second.first_object = std::move(object);
    }
    ++it->second.kinds[std::move(kind)];
  };
  // In reading order: a workload sits before the object at its `position`.
  std::size_t next_workload = 0;
  for (std::size_t i = 0; i <= read.objects.size(); ++i) {
    for (; next_workload < read.workloads.size() && read.workloads[next_workload].position <= i; ++next_workload) {
      const Workload& wl = read.workloads[next_workload];
      const std::string kind(WorkloadKindName(wl.kind));
      note(wl.source, kind, fmt::format("{} {}", kind, wl.DisplayName()));
    }
    if (i == read.objects.size() || read.objects[i].kind == ObjectKind::kNode) continue;
    const std::string kind(ObjectKindName(read.objects[i].kind));
    note(read.objects[i].source, kind, fmt::format("{} {}", kind, read.objects[i].DisplayName()));
  }
  for (const std::string& file : files) {
    const Held& held = by_file[file];
    int count = 0;
    for (const auto& [kind, n] : held.kinds) count += n;
    Warning w;
    w.source = held.first;
    w.code = "NotANodeTemplate";
    if (count == 1) {
      w.object = held.first_object;
      w.message = "--node-template files hold Nodes; ignored";
    } else {
      std::vector<std::string> kinds;
      for (const auto& [kind, n] : held.kinds) kinds.push_back(fmt::format("{} {}", n, kind));
      w.source.document = 0;  // the file's, from its first such object on
      w.message = fmt::format("--node-template files hold Nodes; {} other objects ignored ({}; the first is {})",
                              count, fmt::join(kinds, ", "), held.first_object);
    }
    p.flag_warnings.push_back(std::move(w));
  }
}

// A template as captured from a cordoned node (spec.unschedulable) makes nodes no pod is placed
// on: the autoscaler's template sanitizing (sanitizeTemplateNode) drops some taints but keeps the
// spec. Said, not changed.
void NoteCordonedTemplates(const TemplatePlaces& places, Prepared& p) {
  for (const Node& n : p.templates) {
    if (!n.unschedulable) continue;
    Warning w;
    if (const auto it = places.find(n.meta.name); it != places.end() && !it->second.empty()) {
      w.source = it->second.back();  // the template kept is the last given
    }
    w.object = "Node " + n.meta.name;
    w.code = "CordonedNodeTemplate";
    w.message = "spec.unschedulable: true: the nodes made from this template are cordoned, so no pod is "
                "placed on them (uncordon the template: delete spec.unschedulable)";
    p.flag_warnings.push_back(std::move(w));
  }
}

// The node-group templates: `objects` (the input's, TakeTemplateObjects) admitted and, under
// --scale-up, every Node of the --node-template files (their diagnostics join the run's); one
// template per name (KeepLastTemplateOfEachName).
void TakeTemplates(const CommonFlags& common, const EngineFlags& engine, const std::vector<Object>& objects,
                   Prepared& p, RunOutput& out) {
  TemplatePlaces places;
  if (!objects.empty()) {
    const AdmissionResult admitted =
        AdmitInput(objects, {}, p.options.gates, AdmissionMode::kExisting, p.options.seed);
    out.rejected += AddDiagnostics(io::ReadResult{}, admitted, out.diagnostics);
    NoteTemplatePlaces(admitted, places);
    p.templates = admitted.state.nodes;
    // Nodes of the input itself: a pod bound to one's name was on it (NoteBoundToTemplates).
    for (const Node& n : p.templates) p.options.node_template_names.push_back(n.meta.name);
    // Under --scale-up the templates are what the run is about (its scaleUp section lists them);
    // otherwise say where the nodes went.
    for (std::size_t i = 0; !engine.scale_up && i < p.templates.size(); ++i) {
      Warning w;
      w.object = "Node " + p.templates[i].meta.name;
      w.code = "NodeTemplate";
      w.message = fmt::format("annotated {}: a node group's template, not a node of the cluster (only "
                              "simulate --scale-up uses it)",
                              kNodeTemplateAnnotation);
      p.flag_warnings.push_back(std::move(w));
    }
  }
  if (!engine.scale_up || engine.node_templates.empty()) {
    KeepLastTemplateOfEachName(places, p);
    if (engine.scale_up) NoteCordonedTemplates(places, p);
    return;
  }
  auto read_options = MakeReadOptions(common);
  io::ReadResult read = io::ReadManifests(engine.node_templates, read_options.ok() ? *read_options : io::ReadOptions{});
  const AdmissionResult admitted =
      AdmitInput(read.objects, {}, p.options.gates, AdmissionMode::kExisting, p.options.seed);
  out.rejected += AddDiagnostics(read, admitted, out.diagnostics);
  for (const Warning& w : report::CollectWarnings(&read, &admitted)) p.flag_warnings.push_back(w);
  NoteNotNodes(read, p);
  for (const Node& n : admitted.state.nodes) p.templates.push_back(n);
  NoteTemplatePlaces(admitted, places);
  KeepLastTemplateOfEachName(places, p);
  NoteCordonedTemplates(places, p);
}

// A pod bound to the name of a Node of the input annotated as a template (TakeTemplates fills
// EngineOptions::node_template_names) is bound to no node of the cluster: the node left it, and
// its pods keep its name in spec.nodeName. Its pending reason (the engine's) and its
// BoundToMissingNode warning say that the node is a template, not that it is missing from the
// input. A --node-template file's Node is not among them: a node of that name was never in the
// input, and "not in the input" is true of it.
void NoteBoundToTemplates(Prepared& p) {
  const std::vector<std::string>& names = p.options.node_template_names;
  if (names.empty()) return;
  std::map<std::string, const std::string*> bound;  // "Pod ns/name" -> the template it names
  for (const Pod& pod : p.admission.state.pods) {
    if (std::find(names.begin(), names.end(), pod.spec.node_name) != names.end()) {
      bound.emplace(fmt::format("Pod {}/{}", pod.meta.namespace_, pod.meta.name), &pod.spec.node_name);
    }
  }
  for (Warning& w : p.admission.warnings) {
    if (w.code != "BoundToMissingNode") continue;
    if (auto it = bound.find(w.object); it != bound.end()) w.message = BoundToMissingNodeWarning(*it->second, true);
  }
}

std::optional<Prepared> Prepare(io::ReadResult& read, const CommonFlags& common,
                                const EngineFlags& engine, const std::atomic<bool>* cancel,
                                RunOutput& out) {
  auto options = MakeOptions(common, engine);
  if (!options.ok()) {
    out.error = options.error();
    return std::nullopt;
  }
  Prepared p;
  p.options = std::move(*options);
  p.options.cancel = cancel;
  ApplySchedulerConfig(read, engine, p.options);
  const std::vector<Object> templates = TakeTemplateObjects(read);
  p.admission = AdmitInput(read.objects, read.workloads, p.options.gates, AdmissionMode::kExisting,
                           p.options.seed, read.scenarios, read.pod_metrics);
  out.rejected = AddDiagnostics(read, p.admission, out.diagnostics);
  p.flag_warnings = IgnoredFlagWarnings(common, engine, p.options);
  TakeTemplates(common, engine, templates, p, out);
  NoteBoundToTemplates(p);
  p.input_warnings = report::CollectWarnings(&read, &p.admission, p.flag_warnings);
  return p;
}

// Under --scale-up, the autoscaler's world (kpsim::SimulateScaleUp); nullopt otherwise, or after
// a usage error in `out` (no templates).
std::optional<ScaleUpRun> ScaleUpWorld(const EngineFlags& engine, Prepared& p, RunOutput& out) {
  if (!engine.scale_up) return std::nullopt;
  if (p.templates.empty()) {
    // The warnings say what the template files held instead (NotANodeTemplate, rejected Nodes).
    AddWarnings(p.input_warnings, out.diagnostics);
    const std::string given =
        engine.node_templates.empty()
            ? std::string("no --node-template given")
            : fmt::format("none in {}", fmt::join(engine.node_template_names.size() == engine.node_templates.size()
                                                      ? engine.node_template_names
                                                      : engine.node_templates,
                                                  ", "));
    out.error = UsageError(fmt::format(
        "--scale-up: no node templates ({}): give --node-template FILE (Nodes; in a sweep, the setting "
        "nodeTemplate=FILE) or annotate Nodes of the input {}: \"true\"",
        given, kNodeTemplateAnnotation));
    return std::nullopt;
  }
  auto scale = MakeScaleUpOptions(engine);  // checked by MakeOptions already
  scale->templates = std::move(p.templates);
  return SimulateScaleUp(p.admission.state, p.options, *scale);
}

}  // namespace

RunOutput RunSimulate(io::ReadResult read, const CommonFlags& common, const EngineFlags& engine,
                      const std::atomic<bool>* cancel) {
  RunOutput out;
  std::optional<Prepared> p = Prepare(read, common, engine, cancel, out);
  if (!p) return out;
  // The HTML report embeds the explain of the first attempts that did not bind, for its markers.
  constexpr std::size_t kHtmlAttempts = 100;
  constexpr std::size_t kHtmlAttemptFilterRows = 50;
  std::vector<ExplainResult> attempts;
  std::optional<ScaleUpRun> scale_up = ScaleUpWorld(engine, *p, out);
  if (out.error) return out;
  // The scale-up world is run with preemption off; its report is that world's.
  EngineOptions world_options = p->options;
  if (scale_up) world_options.preemption = false;
  const ClusterState& world = scale_up ? scale_up->world : p->admission.state;
  const SimulationResult result =
      common.output == "html" ? SimulateExplained(world, world_options, kHtmlAttempts, kHtmlAttemptFilterRows, attempts)
      : scale_up              ? std::move(scale_up->result)
                              : Simulate(world, world_options);
  std::vector<Warning> all = p->input_warnings;
  all.insert(all.end(), result.warnings.begin(), result.warnings.end());
  AddWarnings(all, out.diagnostics);
  out.cancelled = result.end_reason == "cancelled";
  report::RunReport run{&read, &p->admission, &result, &world_options, p->flag_warnings, &attempts};
  if (scale_up) run.scale_up = &scale_up->report;
  out.output = common.output == "json"   ? report::RenderSimulationJson(run)
               : common.output == "html" ? report::RenderSimulationHtml(run)
                                         : report::RenderSimulationText(run);
  return out;
}

RunOutput RunExplain(io::ReadResult read, const CommonFlags& common, const EngineFlags& engine,
                     const ExplainFlags& explain, const std::atomic<bool>* cancel) {
  RunOutput out;
  if (explain.pod.empty() == explain.group.empty()) {
    out.error = UsageError("explain: exactly one of --pod or --group is required");
    return out;
  }
  ExplainQuery query;
  query.pod = explain.pod;
  query.group = explain.group;
  if (explain.attempt < 0) {
    out.error = UsageError("--attempt: " + AtLeastOne(std::to_string(explain.attempt)));
    return out;
  }
  if (explain.attempt > 0) query.round = explain.attempt;
  if (explain.at_set) {
    auto at = ParseSimDuration("--at", explain.at);
    if (!at.ok()) {
      out.error = at.error();
      return out;
    }
    query.at = *at;
  }
  if (query.round && query.at) {
    out.error = UsageError("--attempt and --at exclude each other");
    return out;
  }
  std::optional<Prepared> p = Prepare(read, common, engine, cancel, out);
  if (!p) return out;
  // A scale-up run's attempts are the scale-up world's (serve explains its pods so).
  std::optional<ScaleUpRun> scale_up = ScaleUpWorld(engine, *p, out);
  if (out.error) return out;
  EngineOptions world_options = p->options;
  if (scale_up) world_options.preemption = false;
  auto explained = Explain(scale_up ? scale_up->world : p->admission.state, world_options, query);
  // A cancel that came after the attempt was reached leaves a complete explain.
  out.cancelled = !explained.ok() && cancel != nullptr && cancel->load();
  if (!explained.ok()) {
    AddWarnings(p->input_warnings, out.diagnostics);
    Error e = explained.error();
    e.message = "explain: " + e.message;
    out.error = std::move(e);
    return out;
  }
  std::vector<Warning> all = p->input_warnings;
  all.insert(all.end(), explained->warnings.begin(), explained->warnings.end());
  AddWarnings(all, out.diagnostics);
  out.output = common.output == "json"   ? report::RenderExplainJson(*explained, p->input_warnings)
               : common.output == "html" ? report::RenderExplainHtml(*explained, p->input_warnings)
                                         : report::RenderExplainText(*explained, p->input_warnings);
  return out;
}

}  // namespace kpsim::app
