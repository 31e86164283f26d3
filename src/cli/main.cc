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

#include "kpsim/admission.h"
#include "kpsim/engine.h"
#include "kpsim/feature_gates.h"
#include "kpsim/io.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRejected = 1;
constexpr int kExitUsage = 2;

// Parses a Go duration ("90s", "5m", "1h30m", "1.5s", "500ms", "0").
std::optional<kpsim::SimDuration> ParseDuration(std::string_view text) {
  if (text == "0") return kpsim::SimDuration{0};
  if (text.empty()) return std::nullopt;
  double total_us = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = i;
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.')) ++j;
    if (j == i) return std::nullopt;
    double value = 0;
    try {
      value = std::stod(std::string(text.substr(i, j - i)));
    } catch (...) {
      return std::nullopt;
    }
    std::size_t k = j;
    while (k < text.size() && std::isalpha(static_cast<unsigned char>(text[k]))) ++k;
    const std::string_view unit = text.substr(j, k - j);
    double scale = 0;
    if (unit == "h") scale = 3600e6;
    else if (unit == "m") scale = 60e6;
    else if (unit == "s") scale = 1e6;
    else if (unit == "ms") scale = 1e3;
    else if (unit == "us" || unit == "µs") scale = 1;
    else return std::nullopt;
    total_us += value * scale;
    i = k;
  }
  return kpsim::SimDuration{static_cast<std::int64_t>(total_us + 0.5)};
}

struct CommonFlags {
  std::vector<std::string> files;
  std::string output = "text";
  std::string feature_gates;
};

struct EngineFlags {
  std::string profile = "default";
  std::uint64_t seed = 1;
  std::string until;
  std::string candidate_sampling = "exact";
  int max_attempts = 1000000;
  std::string origin;
  bool disable_caches = false;
  std::string arrival = "together";
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
  cmd->add_option("--arrival", f.arrival,
                  "Pods without creationTimestamp: together (all at time 0) or sequential (one "
                  "apply after another in input order, the scheduler settling in between)")
      ->check(CLI::IsMember({"together", "sequential"}))
      ->default_str("together");
  if (simulate) {
    cmd->add_option("--until", f.until, "Stop at this simulated time (Go duration: 90s, 5m, 1h30m)");
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

// Expands the workloads into their controllers' pods (`ExpandWorkloads`), then admits everything
// in input order. The expansion's warnings come first among the admission warnings.
kpsim::AdmissionResult AdmitExpanded(const kpsim::io::ReadResult& read, const kpsim::FeatureGates& gates,
                                     std::uint64_t seed) {
  kpsim::WorkloadExpansion expansion = kpsim::ExpandWorkloads(read.objects, read.workloads, seed);
  kpsim::AdmissionResult admission = kpsim::Admit(expansion.objects, gates);
  admission.warnings.insert(admission.warnings.begin(), expansion.warnings.begin(),
                            expansion.warnings.end());
  return admission;
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
  options.seed = e.seed;
  options.candidate_sampling = e.candidate_sampling == "kubernetes"
                                   ? kpsim::CandidateSampling::kKubernetes
                                   : kpsim::CandidateSampling::kExact;
  options.max_attempts = e.max_attempts;
  options.disable_caches = e.disable_caches;
  options.arrival =
      e.arrival == "sequential" ? kpsim::Arrival::kSequential : kpsim::Arrival::kTogether;
  if (!e.until.empty()) {
    auto d = ParseDuration(e.until);
    if (!d) {
      std::cerr << "kpsim: --until: invalid duration \"" << e.until
                << "\" (use Go syntax: 90s, 5m, 1h30m)\n";
      return std::nullopt;
    }
    options.until = *d;
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
    const kpsim::AdmissionResult admission = AdmitExpanded(read, *gates, 1);
    const int rejected = ReportDiagnostics(read, admission);
    std::cout << (common.output == "json" ? kpsim::io::RenderValidateJson(read, admission)
                                          : kpsim::io::RenderValidateText(read, admission));
    return rejected > 0 ? kExitRejected : kExitOk;
  }

  const EngineFlags& engine_flags = simulate->parsed() ? sim_engine : exp_engine;
  auto options = MakeOptions(common, engine_flags);
  if (!options) return kExitUsage;
  const kpsim::io::ReadResult read = kpsim::io::ReadManifests(common.files);
  const kpsim::AdmissionResult admission = AdmitExpanded(read, options->gates, options->seed);
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
