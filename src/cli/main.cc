// kpsim: the command line. Output goes to stdout, diagnostics to stderr.
// Exit status: 0 completed run, 1 rejected input under `validate`, 2 usage errors.

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/suggest.h"
#include "kpsim/admission.h"
#include "kpsim/api/duration.h"
#include "kpsim/engine.h"
#include "kpsim/feature_gates.h"
#include "kpsim/io.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRejected = 1;
constexpr int kExitUsage = 2;

struct CommonFlags {
  std::vector<std::string> files;
  std::string output = "text";
  std::string feature_gates;
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
};

void AddCommon(CLI::App* cmd, CommonFlags& f, bool html) {
  cmd->add_option("-o,--output", f.output, "Output format")
      ->check(CLI::IsMember(html ? std::vector<std::string>{"text", "json", "html"}
                                 : std::vector<std::string>{"text", "json"}))
      ->default_str("text");
  cmd->add_option("--feature-gates", f.feature_gates,
                  "Comma-separated Name=true|false pairs (GenericWorkload, CompositePodGroup, ...)");
  cmd->add_option("files", f.files, "Manifest files, directories, or - for standard input")
      ->required();
}

void AddEngine(CLI::App* cmd, EngineFlags& f, bool simulate) {
  cmd->add_option("--profile", f.profile, "Scheduler profile")
      ->check(CLI::IsMember({"default", "book"}))
      ->default_str("default");
  cmd->add_option("--seed", f.seed, "Seed for tie-breaks and sampling")->default_str("1");
  cmd->add_option("--candidate-sampling", f.candidate_sampling,
                  "Preemption candidate search: exact (every potential node) or kubernetes "
                  "(minCandidateNodesPercentage 10 / minCandidateNodesAbsolute 100)")
      ->check(CLI::IsMember({"exact", "kubernetes"}))
      ->default_str("exact");
  cmd->add_option("--origin", f.origin,
                  "Wall time (RFC 3339) of simulated time 0; default: the earliest pending pod's "
                  "creationTimestamp");
  cmd->add_flag("--disable-caches", f.disable_caches,
                "Turn off the engine's per-node caches (for checking they change nothing)");
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
  if (e.until_option != nullptr && e.until_option->count() > 0) {
    // Go's time.ParseDuration syntax, in nanoseconds; the clock ticks in microseconds, so the
    // bound is floored to a whole microsecond (events at t <= until happen: exact for any bound).
    auto ns = kpsim::ParseGoDuration(e.until);
    if (!ns.ok()) {
      std::cerr << "kpsim: --until: " << ns.error().message << "\n";
      return std::nullopt;
    }
    if (*ns < 0) {
      std::cerr << "kpsim: --until: \"" << e.until << "\" is negative; simulated time starts at 0\n";
      return std::nullopt;
    }
    options.until = kpsim::SimDuration{kpsim::FloorNanosToMicros(*ns)};
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
      app.add_subcommand("explain", "Explain one pod's scheduling attempt against the state at time 0");
  std::string explain_group;
  CLI::Option* pod_opt =
      explain->add_option("--pod", explain_pod, "The pod, as NS/NAME (or NAME in namespace default)");
  CLI::Option* group_opt = explain->add_option(
      "--group", explain_group, "A PodGroup or CompositePodGroup, as NS/NAME (needs GenericWorkload=true)");
  pod_opt->excludes(group_opt);
  group_opt->excludes(pod_opt);
  AddEngine(explain, exp_engine, false);
  AddCommon(explain, exp_common, /*html=*/true);

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

  const CommonFlags& common = simulate->parsed() ? sim_common
                              : validate->parsed() ? val_common
                                                   : exp_common;
  if (!PathsExist(common.files)) return kExitUsage;

  if (validate->parsed()) {
    auto gates = kpsim::FeatureGates::Parse(common.feature_gates);
    if (!gates.ok()) {
      std::cerr << "kpsim: --feature-gates: " << gates.error().message << "\n";
      return kExitUsage;
    }
    const kpsim::io::ReadResult read = kpsim::io::ReadManifests(common.files);
    const kpsim::AdmissionResult admission = kpsim::Admit(read.objects, *gates);
    const int rejected = ReportDiagnostics(read, admission);
    std::cout << (common.output == "json" ? kpsim::io::RenderValidateJson(read, admission)
                                          : kpsim::io::RenderValidateText(read, admission));
    return rejected > 0 ? kExitRejected : kExitOk;
  }

  const EngineFlags& engine_flags = simulate->parsed() ? sim_engine : exp_engine;
  auto options = MakeOptions(common, engine_flags);
  if (!options) return kExitUsage;
  const kpsim::io::ReadResult read = kpsim::io::ReadManifests(common.files);
  const kpsim::AdmissionResult admission = kpsim::Admit(read.objects, options->gates);
  ReportDiagnostics(read, admission);

  if (simulate->parsed()) {
    const kpsim::SimulationResult result = kpsim::Simulate(admission.state, *options);
    kpsim::io::RunReport report{&read, &admission, &result, &*options};
    std::cout << (common.output == "json"   ? kpsim::io::RenderSimulationJson(report)
                  : common.output == "html" ? kpsim::io::RenderSimulationHtml(report)
                                            : kpsim::io::RenderSimulationText(report));
    return kExitOk;
  }
  if (explain_pod.empty() && explain_group.empty()) {
    std::cerr << "kpsim: explain: one of --pod or --group is required\n\n" << explain->help();
    return kExitUsage;
  }
  auto explained = explain_group.empty()
                       ? kpsim::Explain(admission.state, *options, explain_pod)
                       : kpsim::ExplainGroup(admission.state, *options, explain_group);
  if (!explained.ok()) {
    std::cerr << "kpsim: explain: " << explained.error().message << "\n";
    return kExitUsage;
  }
  std::cout << (common.output == "json"   ? kpsim::io::RenderExplainJson(*explained)
                : common.output == "html" ? kpsim::io::RenderExplainHtml(*explained)
                                          : kpsim::io::RenderExplainText(*explained));
  return kExitOk;
}
