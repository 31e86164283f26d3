// kpsim: the command line. Output goes to stdout, diagnostics to stderr.
// Exit status: 0 completed run, 1 rejected input under `validate`, 2 usage errors.

#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/suggest.h"
#include "kpsim/admission.h"
#include "kpsim/api/duration.h"
#include "kpsim/engine.h"
#include "kpsim/engine_options.h"
#include "kpsim/eviction.h"
#include "kpsim/feature_gates.h"
#include "kpsim/io.h"
#include "kpsim/report.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRejected = 1;
constexpr int kExitUsage = 2;

struct CommonFlags {
  std::vector<std::string> files;
  std::string output = "text";
  std::string feature_gates;
  bool no_recursive = false;
  std::string max_input_size;  // a quantity: "4Gi", "1500M", bytes
};

struct EngineFlags {
  std::string profile = "default";
  std::string seed = "1";  // parsed in MakeOptions: CLI11 would wrap "-1" into a huge uint64
  std::string until;
  CLI::Option* until_option = nullptr;  // set when given, even as "" (refused)
  std::string candidate_sampling = "exact";
  int max_attempts = 1000000;
  std::string origin;
  bool disable_caches = false;
  CLI::Option* candidate_sampling_option = nullptr;  // to tell a given flag from its default
  std::string arrival = "together";
};

void AddCommon(CLI::App* cmd, CommonFlags& f, bool html) {
  cmd->add_option("-o,--output", f.output, "Output format")
      ->check(CLI::IsMember(html ? std::vector<std::string>{"text", "json", "html"}
                                 : std::vector<std::string>{"text", "json"}))
      ->default_str("text");
  cmd->add_option("--feature-gates", f.feature_gates,
                  "Comma-separated Name=true|false pairs (GenericWorkload, CompositePodGroup, ...)");
  cmd->add_flag("--no-recursive", f.no_recursive,
               "Read only the files directly in a directory argument, not its subdirectories");
  cmd->add_option("--max-input-size", f.max_input_size,
                  "Refuse an input file (or stdin) larger than this (a quantity: 4Gi, 1500M)")
      ->default_str("1Gi");
  cmd->add_option("files", f.files, "Manifest files, directories, or - for standard input")
      ->required();
}

void AddEngine(CLI::App* cmd, EngineFlags& f, bool simulate) {
  cmd->add_option("--profile", f.profile, "Scheduler profile")
      ->check(CLI::IsMember({"default", "book"}))
      ->default_str("default");
  cmd->add_option("--seed", f.seed, "Seed for tie-breaks and sampling")->default_str("1");
  f.candidate_sampling_option = cmd->add_option("--candidate-sampling", f.candidate_sampling,
                  "Preemption candidate search: exact (every potential node) or kubernetes "
                  "(minCandidateNodesPercentage 10 / minCandidateNodesAbsolute 100)")
      ->check(CLI::IsMember({"exact", "kubernetes"}))
      ->default_str("exact");
  cmd->add_option("--origin", f.origin,
                  "Wall time (RFC 3339) of simulated time 0; default: the earliest pending pod's "
                  "creationTimestamp");
  cmd->add_flag("--disable-caches", f.disable_caches,
                "Turn off the engine's per-node caches (for checking they change nothing)");
  cmd->add_option("--arrival", f.arrival,
                  "Pods without creationTimestamp: together (all at time 0) or sequential (one "
                  "apply after another in input order, the scheduler settling in between)")
      ->check(CLI::IsMember({"together", "sequential"}))
      ->default_str("together");
  if (simulate) {
    f.until_option = cmd->add_option("--until", f.until, "Stop at this simulated time (Go duration: 90s, 5m, 1h30m)");
    cmd->add_option("--max-attempts", f.max_attempts, "book profile: cap on scheduling rounds")
        ->check(CLI::PositiveNumber)
        ->default_str("1000000");
  }
}

// Checks that every path exists (a usage error otherwise).
bool PathsExist(const std::vector<std::string>& files) {
  for (const std::string& f : files) {
    if (f == "-") continue;
    std::error_code ec;
    if (!std::filesystem::exists(f, ec)) {
      std::cerr << "kpsim: " << f << ": no such file or directory\n";
      return false;
    }
  }
  return true;
}

// Prints `warnings` on stderr, one `warning:` line each.
void ReportWarnings(const std::vector<kpsim::Warning>& warnings) {
  for (const kpsim::Warning& w : warnings) {
    std::cerr << "warning: " << kpsim::report::WarningText(w) << "\n";
  }
}

// Reports input problems on stderr, one line each.
int ReportDiagnostics(const kpsim::io::ReadResult& read, const kpsim::AdmissionResult& admission) {
  int rejected = 0;
  for (const kpsim::Error& e : read.file_errors) {
    std::cerr << "error: " << e.ToString() << "\n";
    ++rejected;
  }
  for (const kpsim::io::DecodeError& e : read.errors) {
    std::cerr << "error: " << e.message << "\n";
    ++rejected;
  }
  for (const kpsim::AdmissionOutcome& o : admission.outcomes) {
    if (o.admitted) continue;
    std::cerr << "rejected: " << o.source.ToString() << ": " << kpsim::ObjectKindName(o.kind) << " "
              << o.name << ": " << o.message << "\n";
    ++rejected;
  }
  return rejected;
}

// A simulated time given as a Go duration (90s, 5m, 1h30m). Go's time.ParseDuration counts
// nanoseconds; the clock ticks in microseconds, so the time is floored to a whole microsecond
// (events at t <= the bound happen: exact for any bound).
std::optional<kpsim::SimDuration> ParseSimDuration(std::string_view flag, const std::string& text) {
  auto ns = kpsim::ParseGoDuration(text);
  if (!ns.ok()) {
    std::cerr << "kpsim: " << flag << ": " << ns.error().message << "\n";
    return std::nullopt;
  }
  if (*ns < 0) {
    std::cerr << "kpsim: " << flag << ": \"" << text << "\" is negative; simulated time starts at 0\n";
    return std::nullopt;
  }
  return kpsim::SimDuration{kpsim::FloorNanosToMicros(*ns)};
}

std::optional<kpsim::EngineOptions> MakeOptions(const CommonFlags& c, const EngineFlags& e) {
  kpsim::EngineOptions options;
  auto gates = kpsim::FeatureGates::Parse(c.feature_gates);
  if (!gates.ok()) {
    std::cerr << "kpsim: --feature-gates: " << gates.error().message << "\n";
    return std::nullopt;
  }
  options.gates = *gates;
  options.profile = e.profile == "book" ? kpsim::Profile::kBook : kpsim::Profile::kDefault;
  {
    // A whole number 0..2^64-1, decimal, nothing else ("-1", "1.5", "0x10", "" refused).
    std::uint64_t seed = 0;
    const char* end = e.seed.data() + e.seed.size();
    const auto [ptr, ec] = std::from_chars(e.seed.data(), end, seed);
    if (e.seed.empty() || ec != std::errc() || ptr != end) {
      std::cerr << "kpsim: --seed: invalid seed \"" << e.seed
                << "\" (a whole number from 0 to 18446744073709551615)\n";
      return std::nullopt;
    }
    options.seed = seed;
  }
  options.candidate_sampling = e.candidate_sampling == "kubernetes"
                                   ? kpsim::CandidateSampling::kKubernetes
                                   : kpsim::CandidateSampling::kExact;
  options.max_attempts = e.max_attempts;
  options.disable_caches = e.disable_caches;
  options.arrival =
      e.arrival == "sequential" ? kpsim::Arrival::kSequential : kpsim::Arrival::kTogether;
  if (e.until_option != nullptr && e.until_option->count() > 0) {
    auto until = ParseSimDuration("--until", e.until);
    if (!until) return std::nullopt;
    options.until = *until;
  }
  if (!e.origin.empty()) {
    auto t = kpsim::WallTime::Parse(e.origin);
    if (!t.ok()) {
      std::cerr << "kpsim: --origin: " << t.error().message << "\n";
      return std::nullopt;
    }
    options.origin = *t;
  }
  return options;
}

// The reader's options from the flags; nullopt after a usage error on stderr.
std::optional<kpsim::io::ReadOptions> MakeReadOptions(const CommonFlags& c) {
  kpsim::io::ReadOptions options;
  options.recursive = !c.no_recursive;
  if (!c.max_input_size.empty()) {
    auto q = kpsim::Quantity::Parse(c.max_input_size);
    if (!q.ok() || q->Value() <= 0) {
      std::cerr << "kpsim: --max-input-size: " << (q.ok() ? "must be positive" : q.error().message)
                << " (a quantity such as 4Gi or 1500M)\n";
      return std::nullopt;
    }
    options.max_input_bytes = static_cast<std::size_t>(q->Value());
  }
  return options;
}

void AddRunWarning(kpsim::io::ReadResult& read, const kpsim::io::SchedulerConfig& config,
                   std::string code, std::string message) {
  kpsim::Warning w;
  w.source = config.source;
  w.object = "KubeSchedulerConfiguration";
  w.code = std::move(code);
  w.message = std::move(message);
  read.warnings.push_back(std::move(w));
}

// Applies a KubeSchedulerConfiguration from the input to the engine options. Flags given on the
// command line win: with an explicit --candidate-sampling the configuration's DefaultPreemption
// arguments are only used under `kubernetes`; without it, DefaultPreemption arguments in the
// configuration select `kubernetes` sampling (as kube-scheduler samples). The book profile models
// none of it: a configuration there is a warning.
void ApplySchedulerConfig(kpsim::io::ReadResult& read, const EngineFlags& flags,
                          kpsim::EngineOptions& options) {
  if (!read.scheduler_config) return;
  const kpsim::io::SchedulerConfig& config = *read.scheduler_config;
  if (options.profile == kpsim::Profile::kBook) {
    AddRunWarning(read, config, "IgnoredByProfile",
                  "the book profile does not read a KubeSchedulerConfiguration; ignored");
    return;
  }
  options.percentage_of_nodes_to_score = config.percentage_of_nodes_to_score;
  options.pod_initial_backoff = std::chrono::seconds(config.pod_initial_backoff_seconds);
  options.pod_max_backoff = std::chrono::seconds(config.pod_max_backoff_seconds);
  options.min_candidate_nodes_percentage = config.min_candidate_nodes_percentage;
  options.min_candidate_nodes_absolute = config.min_candidate_nodes_absolute;
  const bool flag_given =
      flags.candidate_sampling_option != nullptr && flags.candidate_sampling_option->count() > 0;
  if (!config.preemption_args) return;
  if (!flag_given) {
    options.candidate_sampling = kpsim::CandidateSampling::kKubernetes;
  } else if (options.candidate_sampling == kpsim::CandidateSampling::kExact) {
    AddRunWarning(read, config, "OverriddenByFlag",
                  fmt::format("--candidate-sampling exact: every potential node is dry-run; the "
                              "configuration's minCandidateNodesPercentage {} / "
                              "minCandidateNodesAbsolute {} are not used",
                              config.min_candidate_nodes_percentage,
                              config.min_candidate_nodes_absolute));
  }
}

// Flags given on the command line that the chosen profile does not read.
std::vector<kpsim::Warning> IgnoredFlagWarnings(const CLI::App* cmd,
                                                const kpsim::EngineOptions& options,
                                                const CommonFlags& common) {
  std::vector<kpsim::Warning> out;
  const auto given = [cmd](const char* name) {
    const CLI::Option* opt = cmd->get_option_no_throw(name);
    return opt != nullptr && opt->count() > 0;
  };
  const auto ignored = [&out](std::string_view flag, std::string_view why) {
    kpsim::Warning w;
    w.code = "IgnoredFlag";
    w.message = fmt::format("{} is ignored: {}", flag, why);
    out.push_back(std::move(w));
  };
  if (options.profile == kpsim::Profile::kBook) {
    if (given("--candidate-sampling")) {
      ignored("--candidate-sampling", "the book profile dry-runs every node");
    }
    if (given("--disable-caches")) ignored("--disable-caches", "the book profile has no caches");
    if (!common.feature_gates.empty()) {
      ignored("--feature-gates", "the book profile models no feature gates");
    }
  } else if (given("--max-attempts")) {
    ignored("--max-attempts", "only the book profile caps its rounds");
  }
  return out;
}

// `kpsim evict`: reads and admits the input (as simulate does, for the pods' priorities) and
// prints the kubelet's ranking of the node's pods.
int RunEvict(const CommonFlags& common, const std::string& node, const std::string& signal_name,
             const std::vector<std::string>& usage_flags, const kpsim::io::ReadOptions& read_options) {
  const std::optional<kpsim::EvictionSignal> signal = kpsim::ParseEvictionSignal(signal_name);
  if (!signal) {
    std::cerr << "kpsim: evict: --signal: unsupported eviction signal " << signal_name << " (one of "
              << kpsim::EvictionSignalNames() << ")\n";
    return kExitUsage;
  }
  std::vector<kpsim::PodUsage> usage;
  for (const std::string& flag : usage_flags) {
    const std::size_t eq = flag.find('=');
    kpsim::PodUsage u;
    u.pod = flag.substr(0, eq);
    if (u.pod.find('/') == std::string::npos) u.pod = "default/" + u.pod;
    auto q = eq == std::string::npos ? kpsim::Expected<kpsim::Quantity>(kpsim::MakeError(
                                           kpsim::ErrorCode::kInvalidArgument, "expected NS/NAME=QUANTITY"))
                                     : kpsim::Quantity::Parse(flag.substr(eq + 1));
    if (!q.ok()) {
      std::cerr << "kpsim: evict: --usage " << flag << ": " << q.error().message << "\n";
      return kExitUsage;
    }
    u.usage = *q;
    usage.push_back(std::move(u));
  }
  auto gates = kpsim::FeatureGates::Parse(common.feature_gates);
  if (!gates.ok()) {
    std::cerr << "kpsim: --feature-gates: " << gates.error().message << "\n";
    return kExitUsage;
  }
  const kpsim::io::ReadResult read = kpsim::io::ReadManifests(common.files, read_options);
  const kpsim::AdmissionResult admission =
      kpsim::AdmitInput(read.objects, read.workloads, *gates, kpsim::AdmissionMode::kExisting, 1);
  ReportDiagnostics(read, admission);
  bool known = false;
  for (const kpsim::Node& n : admission.state.nodes) known = known || n.meta.name == node;
  if (!known) {
    ReportWarnings(kpsim::report::CollectWarnings(&read, &admission));
    std::cerr << "kpsim: evict: node " << node << " is not in the input\n";
    return kExitUsage;
  }
  const kpsim::EvictionReport report =
      kpsim::RankNodeForEviction(admission.state.pods, node, *signal, read.pod_metrics, usage);
  std::vector<kpsim::Warning> more;
  for (const std::string& pod : report.unused_usage) {
    kpsim::Warning w;
    w.object = "Pod " + pod;
    w.code = "UsageForUnknownPod";
    w.message = fmt::format("--usage names no running pod of node {}; ignored", node);
    more.push_back(std::move(w));
  }
  const std::vector<kpsim::Warning> warnings = kpsim::report::CollectWarnings(&read, &admission, more);
  ReportWarnings(warnings);
  std::cout << (common.output == "json" ? kpsim::report::RenderEvictionJson(report, warnings)
                                        : kpsim::report::RenderEvictionText(report, warnings));
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kpsim: simulate Kubernetes Pod priority and preemption"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "kpsim 0.1.0");

  CommonFlags sim_common;
  EngineFlags sim_engine;
  CLI::App* simulate = app.add_subcommand("simulate", "Run the scheduler over the manifests");
  AddEngine(simulate, sim_engine, true);
  AddCommon(simulate, sim_common, /*html=*/true);

  CommonFlags val_common;
  CLI::App* validate =
      app.add_subcommand("validate", "Admission and validation only (like kubectl apply --dry-run=server)");
  AddCommon(validate, val_common, /*html=*/false);

  CommonFlags exp_common;
  EngineFlags exp_engine;
  std::string explain_pod;
  CLI::App* explain =
      app.add_subcommand("explain", "Explain one scheduling attempt of the run: every node's filter verdict, the candidates, the reprieve");
  std::string explain_group;
  CLI::Option* pod_opt =
      explain->add_option("--pod", explain_pod, "The pod, as NS/NAME (or NAME in namespace default)");
  CLI::Option* group_opt = explain->add_option(
      "--group", explain_group, "A PodGroup or CompositePodGroup, as NS/NAME (needs GenericWorkload=true)");
  pod_opt->excludes(group_opt);
  group_opt->excludes(pod_opt);
  std::int64_t explain_attempt = 0;
  std::string explain_at;
  CLI::Option* attempt_opt = explain->add_option(
      "--attempt", explain_attempt,
      "Explain the attempt of this round (the `round` of simulate's events) instead of the first");
  attempt_opt->check(CLI::PositiveNumber);
  CLI::Option* at_opt = explain->add_option(
      "--at", explain_at, "Explain the first attempt at or after this simulated time (Go duration: 90s, 5m)");
  attempt_opt->excludes(at_opt);
  at_opt->excludes(attempt_opt);
  AddEngine(explain, exp_engine, false);
  AddCommon(explain, exp_common, /*html=*/true);

  CommonFlags evict_common;
  std::string evict_node;
  std::string evict_signal = "memory.available";
  std::vector<std::string> evict_usage;
  CLI::App* evict = app.add_subcommand(
      "evict", "Rank a node's pods as the kubelet's node-pressure eviction does (no simulation)");
  evict->add_option("--node", evict_node, "The node under pressure")->required();
  evict->add_option("--signal", evict_signal, "The eviction signal: " + kpsim::EvictionSignalNames())
      ->default_str("memory.available");
  evict->add_option("--usage", evict_usage,
                    "A pod's usage of the signal's resource, as NS/NAME=QUANTITY (repeatable); "
                    "overrides its PodMetrics");
  AddCommon(evict, evict_common, /*html=*/false);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // A mistyped command or flag gets the nearest known spelling instead of CLI11's message.
    if (const std::string unknown = kpsim::cli::DiagnoseUnknown(app, argc, argv); !unknown.empty()) {
      std::cerr << "kpsim: " << unknown << "\n";
      return kExitUsage;
    }
    std::cerr << "kpsim: " << e.what() << "\n\n" << app.help();
    return kExitUsage;
  }

  const CommonFlags& common = simulate->parsed()   ? sim_common
                              : validate->parsed() ? val_common
                              : evict->parsed()    ? evict_common
                                                   : exp_common;
  if (!PathsExist(common.files)) return kExitUsage;
  const std::optional<kpsim::io::ReadOptions> read_options = MakeReadOptions(common);
  if (!read_options) return kExitUsage;

  if (validate->parsed()) {
    auto gates = kpsim::FeatureGates::Parse(common.feature_gates);
    if (!gates.ok()) {
      std::cerr << "kpsim: --feature-gates: " << gates.error().message << "\n";
      return kExitUsage;
    }
    const kpsim::io::ReadResult read = kpsim::io::ReadManifests(common.files, *read_options);
    const kpsim::AdmissionResult admission = kpsim::AdmitInput(read.objects, read.workloads, *gates,
                                                               kpsim::AdmissionMode::kCreate, 1, read.scenarios);
    const int rejected = ReportDiagnostics(read, admission);
    ReportWarnings(kpsim::report::CollectWarnings(&read, &admission));
    std::cout << (common.output == "json" ? kpsim::report::RenderValidateJson(read, admission)
                                          : kpsim::report::RenderValidateText(read, admission));
    const bool nothing_read =
        read.objects.empty() && read.ignored.empty() && !read.scheduler_config.has_value();
    return rejected > 0 || nothing_read ? kExitRejected : kExitOk;
  }

  if (evict->parsed()) return RunEvict(common, evict_node, evict_signal, evict_usage, *read_options);

  const EngineFlags& engine_flags = simulate->parsed() ? sim_engine : exp_engine;
  auto options = MakeOptions(common, engine_flags);
  if (!options) return kExitUsage;
  kpsim::io::ReadResult read = kpsim::io::ReadManifests(common.files, *read_options);
  ApplySchedulerConfig(read, engine_flags, *options);
  const kpsim::AdmissionResult admission =
      kpsim::AdmitInput(read.objects, read.workloads, options->gates, kpsim::AdmissionMode::kExisting,
                        options->seed, read.scenarios, read.pod_metrics);
  ReportDiagnostics(read, admission);
  const std::vector<kpsim::Warning> flag_warnings =
      IgnoredFlagWarnings(simulate->parsed() ? simulate : explain, *options, common);
  const std::vector<kpsim::Warning> input_warnings =
      kpsim::report::CollectWarnings(&read, &admission, flag_warnings);

  if (simulate->parsed()) {
    // The HTML report embeds the explain of the first attempts that did not bind, for its markers.
    constexpr std::size_t kHtmlAttempts = 100;
    constexpr std::size_t kHtmlAttemptFilterRows = 50;
    std::vector<kpsim::ExplainResult> attempts;
    const kpsim::SimulationResult result =
        common.output == "html"
            ? kpsim::SimulateExplained(admission.state, *options, kHtmlAttempts, kHtmlAttemptFilterRows, attempts)
            : kpsim::Simulate(admission.state, *options);
    std::vector<kpsim::Warning> all = input_warnings;
    all.insert(all.end(), result.warnings.begin(), result.warnings.end());
    ReportWarnings(all);
    kpsim::report::RunReport run{&read, &admission, &result, &*options, flag_warnings, &attempts};
    std::cout << (common.output == "json"   ? kpsim::report::RenderSimulationJson(run)
                  : common.output == "html" ? kpsim::report::RenderSimulationHtml(run)
                                            : kpsim::report::RenderSimulationText(run));
    return kExitOk;
  }
  if (explain_pod.empty() && explain_group.empty()) {
    std::cerr << "kpsim: explain: one of --pod or --group is required\n\n" << explain->help();
    return kExitUsage;
  }
  kpsim::ExplainQuery query;
  query.pod = explain_pod;
  query.group = explain_group;
  if (attempt_opt->count() > 0) query.round = explain_attempt;
  if (at_opt->count() > 0) {
    query.at = ParseSimDuration("--at", explain_at);
    if (!query.at) return kExitUsage;
  }
  auto explained = kpsim::Explain(admission.state, *options, query);
  if (!explained.ok()) {
    ReportWarnings(input_warnings);
    std::cerr << "kpsim: explain: " << explained.error().message << "\n";
    return kExitUsage;
  }
  std::vector<kpsim::Warning> all = input_warnings;
  all.insert(all.end(), explained->warnings.begin(), explained->warnings.end());
  ReportWarnings(all);
  std::cout << (common.output == "json"
                    ? kpsim::report::RenderExplainJson(*explained, input_warnings)
                : common.output == "html"
                    ? kpsim::report::RenderExplainHtml(*explained, input_warnings)
                    : kpsim::report::RenderExplainText(*explained, input_warnings));
  return kExitOk;
}
