// kpsim: the command line. Output goes to stdout, diagnostics to stderr.
// Exit status: 0 completed run, 1 rejected input under `validate`, 2 usage errors.

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/huge_pages.h"
#include "app/run.h"
#include "app/server.h"
#include "cli/count_flag.h"
#include "cli/suggest.h"
#include "cli/sweep_command.h"
#include "kpsim/diff.h"
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

// Counts the engine keeps as an int (--max-attempts, --max-new-nodes).
const CLI::Validator kIntCount = kpsim::cli::CountFlag(std::numeric_limits<int>::max());

constexpr int kExitOk = 0;
constexpr int kExitRejected = 1;
constexpr int kExitUsage = 2;

using kpsim::app::CommonFlags;
using kpsim::app::EngineFlags;

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
        ->transform(kIntCount)
        ->default_str("1000000");
    cmd->add_flag("--scale-up", f.scale_up,
                  "Answer with the Cluster Autoscaler instead of preemption: add nodes from the node "
                  "templates until the pending pods run, and compare with the run that preempts");
    cmd->add_option("--node-template", f.node_templates,
                    "--scale-up: a file (or directory) of Nodes, each a node group's template (repeatable; "
                    "Nodes of the input annotated kpsim.io/node-template: \"true\" are templates too)")
        ->allow_extra_args(false);
    cmd->add_option("--scale-up-delay", f.scale_up_delay,
                    "--scale-up: from the autoscaler's decision to the new nodes being Ready (Go duration)")
        ->default_str("2m");
    cmd->add_option("--scan-interval", f.scan_interval, "--scale-up: the autoscaler's loop period (Go duration)")
        ->default_str("10s");
    cmd->add_option("--expander", f.expander, "--scale-up: how the autoscaler picks a node group")
        ->check(CLI::IsMember({"least-waste", "most-pods", "random"}))
        ->default_str("least-waste");
    cmd->add_option("--max-new-nodes", f.max_new_nodes, "--scale-up: nodes added at most, all groups together")
        ->transform(kIntCount)
        ->default_str("1000");
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
  std::vector<std::string> lines;
  kpsim::app::AddWarnings(warnings, lines);
  for (const std::string& line : lines) std::cerr << line << "\n";
}

// Reports input problems on stderr, one line each; returns how many.
int ReportDiagnostics(const kpsim::io::ReadResult& read, const kpsim::AdmissionResult& admission) {
  std::vector<std::string> lines;
  const int rejected = kpsim::app::AddDiagnostics(read, admission, lines);
  for (const std::string& line : lines) std::cerr << line << "\n";
  return rejected;
}

// Marks the engine flags the command line gave (CLI11 keeps defaults and given values alike).
void MarkGiven(const CLI::App* cmd, EngineFlags& f) {
  const auto given = [cmd](const char* name) {
    const CLI::Option* opt = cmd->get_option_no_throw(name);
    return opt != nullptr && opt->count() > 0;
  };
  f.until_set = given("--until");
  f.candidate_sampling_set = given("--candidate-sampling");
  f.max_attempts_set = given("--max-attempts");
  f.disable_caches_set = given("--disable-caches");
}

// Prints a command's stderr lines, then its output or its usage error.
int Finish(const kpsim::app::RunOutput& run) {
  for (const std::string& line : run.diagnostics) std::cerr << line << "\n";
  if (run.error) {
    std::cerr << "kpsim: " << run.error->message << "\n";
    return kExitUsage;
  }
  std::cout << run.output;
  return kExitOk;
}

// Reads a whole file (at most `max_bytes`); nullopt after a message on stderr.
std::optional<std::string> ReadWholeFile(const std::string& path, std::size_t max_bytes,
                                         std::string_view limit_flag = "--max-input-size") {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    std::cerr << "kpsim: " << path << ": " << ec.message() << "\n";
    return std::nullopt;
  }
  if (size > max_bytes) {
    std::cerr << "kpsim: " << path << ": " << size << " bytes, more than " << limit_flag << "\n";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cerr << "kpsim: " << path << ": cannot be read\n";
    return std::nullopt;
  }
  return text.str();
}

// `kpsim diff A.json B.json`: what differs between two saved `simulate -o json` runs.
int RunDiff(const std::vector<std::string>& files, const std::string& output,
            const kpsim::io::ReadOptions& read_options) {
  constexpr std::size_t kDefaultMax = std::size_t{1} << 30;
  const std::size_t max_bytes = read_options.max_input_bytes > 0 ? read_options.max_input_bytes : kDefaultMax;
  const std::optional<std::string> a = ReadWholeFile(files[0], max_bytes);
  if (!a) return kExitUsage;
  const std::optional<std::string> b = ReadWholeFile(files[1], max_bytes);
  if (!b) return kExitUsage;
  auto diff = kpsim::report::DiffRuns(*a, files[0], *b, files[1]);
  if (!diff.ok()) {
    std::cerr << "kpsim: diff: " << diff.error().message << "\n";
    return kExitUsage;
  }
  std::cout << (output == "json"   ? kpsim::report::RenderDiffJson(*diff)
                : output == "html" ? kpsim::report::RenderDiffHtml(*diff)
                                   : kpsim::report::RenderDiffText(*diff));
  return kExitOk;
}

// `simulate --compare SETTING...`: the run as the flags give it (A) against one run per setting
// (B), each a space-separated list of KEY=VALUE (see app::ApplySetting). The base run's
// diagnostics go to stderr as a plain simulate's would.
int RunCompare(const kpsim::io::ReadResult& read, const CommonFlags& common, const EngineFlags& engine,
               const std::vector<std::string>& settings) {
  CommonFlags as_json = common;
  as_json.output = "json";
  std::vector<std::pair<CommonFlags, EngineFlags>> variants;
  for (const std::string& setting : settings) {
    CommonFlags c = as_json;
    EngineFlags e = engine;
    std::istringstream words(setting);
    std::string word;
    bool any = false;
    while (words >> word) {
      if (auto applied = kpsim::app::ApplySetting(word, c, e); !applied.ok()) {
        std::cerr << "kpsim: --compare '" << setting << "': " << applied.error().message << "\n";
        return kExitUsage;
      }
      any = true;
    }
    if (!any) {
      std::cerr << "kpsim: --compare: empty setting (KEY=VALUE, keys: " << kpsim::app::SettingKeys() << ")\n";
      return kExitUsage;
    }
    if (auto options = kpsim::app::MakeOptions(c, e); !options.ok()) {
      std::cerr << "kpsim: --compare '" << setting << "': " << options.error().message << "\n";
      return kExitUsage;
    }
    variants.emplace_back(std::move(c), std::move(e));
  }
  EngineFlags base_engine = engine;
  if (auto read_elsewhere = kpsim::app::FlagsReadByCompared(as_json, engine, variants); read_elsewhere.ok()) {
    base_engine.read_by_compared = std::move(*read_elsewhere);
  }  // else the base run reports the options' error itself
  const kpsim::app::RunOutput base = kpsim::app::RunSimulate(read, as_json, base_engine);
  for (const std::string& line : base.diagnostics) std::cerr << line << "\n";
  if (base.error) {
    std::cerr << "kpsim: " << base.error->message << "\n";
    return kExitUsage;
  }
  std::vector<kpsim::report::RunDiff> diffs;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const kpsim::app::RunOutput run = kpsim::app::RunSimulate(read, variants[i].first, variants[i].second);
    if (run.error) {
      std::cerr << "kpsim: --compare '" << settings[i] << "': " << run.error->message << "\n";
      return kExitUsage;
    }
    auto diff = kpsim::report::DiffRuns(base.output, "as given", run.output, settings[i]);
    if (!diff.ok()) {
      std::cerr << "kpsim: --compare: " << diff.error().message << "\n";
      return kExitUsage;
    }
    diffs.push_back(std::move(*diff));
  }
  std::cout << (common.output == "json"   ? kpsim::report::RenderCompareJson(diffs)
                : common.output == "html" ? kpsim::report::RenderCompareHtml(diffs)
                                          : kpsim::report::RenderCompareText(diffs));
  return kExitOk;
}

// `kpsim serve`'s flags.
struct ServeFlags {
  std::string addr = "127.0.0.1:8080";
  std::string max_body = "16Mi";
  std::string run_timeout = "60s";
  int threads = 8;
  std::vector<std::string> files;
};

// Lists a directory's manifest files the way the reader walks it (io::ReadManifests): its own
// .yaml/.yml/.json files in bytewise name order, then its subdirectories in bytewise name order,
// hidden entries skipped, each directory once (symlinks). False after a message on stderr.
bool ListManifests(const std::filesystem::path& dir, std::set<std::string>& visited,
                   std::vector<std::string>& out) {
  std::error_code ec;
  const std::string canonical = std::filesystem::canonical(dir, ec).string();
  if (ec) {
    std::cerr << "kpsim: serve: " << dir.string() << ": " << ec.message() << "\n";
    return false;
  }
  if (!visited.insert(canonical).second) return true;
  std::vector<std::filesystem::path> files;
  std::vector<std::filesystem::path> dirs;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code type_ec;
    if (it->is_directory(type_ec)) {
      dirs.push_back(it->path());
    } else if (const std::string ext = it->path().extension().string();
               it->is_regular_file(type_ec) && (ext == ".yaml" || ext == ".yml" || ext == ".json")) {
      files.push_back(it->path());
    }
  }
  if (ec) {
    std::cerr << "kpsim: serve: " << dir.string() << ": " << ec.message() << "\n";
    return false;
  }
  std::sort(files.begin(), files.end());
  std::sort(dirs.begin(), dirs.end());
  for (const auto& f : files) out.push_back(f.string());
  for (const auto& d : dirs) {
    if (!ListManifests(d, visited, out)) return false;
  }
  return true;
}

// The files and directories given to `serve`, as the texts its editor starts from, in the order
// `kpsim simulate` reads the same arguments. Together they must fit one request (`max_bytes`):
// the page sends them back with every run.
std::optional<std::vector<kpsim::io::NamedText>> ServeFiles(const std::vector<std::string>& args,
                                                            std::size_t max_bytes) {
  std::vector<kpsim::io::NamedText> out;
  std::set<std::string> visited;
  std::size_t total = 0;
  for (const std::string& arg : args) {
    std::vector<std::string> paths;
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      if (!ListManifests(arg, visited, paths)) return std::nullopt;
    } else {
      paths.push_back(arg);
    }
    for (const std::string& path : paths) {
      std::optional<std::string> text = ReadWholeFile(path, max_bytes, "--max-body");
      if (!text) return std::nullopt;
      total += text->size();
      if (total > max_bytes) {
        std::cerr << "kpsim: serve: the files given come to more than --max-body (" << max_bytes
                  << " bytes), and the page sends them with every run; raise --max-body\n";
        return std::nullopt;
      }
      out.push_back(kpsim::io::NamedText{path, std::move(*text)});
    }
  }
  return out;
}

int RunServe(const ServeFlags& flags) {
  kpsim::app::ServeOptions options;
  // HOST:PORT, [IPv6]:PORT or :PORT (loopback).
  const std::size_t colon = flags.addr.rfind(':');
  std::string host = colon == std::string::npos ? std::string() : flags.addr.substr(0, colon);
  const std::string port = colon == std::string::npos ? std::string() : flags.addr.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  int port_number = -1;
  const auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), port_number);
  if (port.empty() || ec != std::errc() || ptr != port.data() + port.size() || port_number < 0 ||
      port_number > 65535) {
    std::cerr << "kpsim: serve: --addr: \"" << flags.addr << "\" is not HOST:PORT (e.g. 127.0.0.1:8080; port 0 picks a free one)\n";
    return kExitUsage;
  }
  options.host = host.empty() ? "127.0.0.1" : host;
  options.port = port_number;
  auto body = kpsim::Quantity::Parse(flags.max_body);
  if (!body.ok() || body->Value() <= 0) {
    std::cerr << "kpsim: serve: --max-body: " << (body.ok() ? "must be positive" : body.error().message) << "\n";
    return kExitUsage;
  }
  options.limits.max_body_bytes = static_cast<std::size_t>(body->Value());
  auto timeout = kpsim::ParseGoDuration(flags.run_timeout);
  if (!timeout.ok() || *timeout <= 0) {
    std::cerr << "kpsim: serve: --run-timeout: " << (timeout.ok() ? "must be positive" : timeout.error().message) << "\n";
    return kExitUsage;
  }
  options.limits.run_timeout = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::nanoseconds(*timeout));
  if (options.limits.run_timeout.count() == 0) options.limits.run_timeout = std::chrono::milliseconds(1);
  options.threads = static_cast<std::size_t>(flags.threads);
  if (!PathsExist(flags.files)) return kExitUsage;
  auto files = ServeFiles(flags.files, options.limits.max_body_bytes);
  if (!files) return kExitUsage;
  options.files = std::move(*files);
  return kpsim::app::Serve(options);
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
  kpsim::app::UseHugePages(argv);  // may run this program again, with huge pages: first of all
  CLI::App app{"kpsim: simulate Kubernetes Pod priority and preemption"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "kpsim 0.1.0");

  CommonFlags sim_common;
  EngineFlags sim_engine;
  CLI::App* simulate = app.add_subcommand("simulate", "Run the scheduler over the manifests");
  AddEngine(simulate, sim_engine, true);
  AddCommon(simulate, sim_common, /*html=*/true);
  std::vector<std::string> compare_settings;
  simulate->add_option("--compare", compare_settings,
                       "Run again with these settings (KEY=VALUE ..., e.g. 'profile=book' or "
                       "'seed=2 until=5m'; repeatable) and print what differs from the run as given")
      ->allow_extra_args(false);

  CommonFlags val_common;
  CLI::App* validate =
      app.add_subcommand("validate", "Admission and validation only (like kubectl apply --dry-run=server)");
  AddCommon(validate, val_common, /*html=*/false);

  CommonFlags exp_common;
  EngineFlags exp_engine;
  kpsim::app::ExplainFlags explain_flags;
  CLI::App* explain =
      app.add_subcommand("explain", "Explain one scheduling attempt of the run: every node's filter verdict, the candidates, the reprieve");
  CLI::Option* pod_opt =
      explain->add_option("--pod", explain_flags.pod, "The pod, as NS/NAME (or NAME in namespace default)");
  CLI::Option* group_opt = explain->add_option(
      "--group", explain_flags.group, "A PodGroup or CompositePodGroup, as NS/NAME (needs GenericWorkload=true)");
  pod_opt->excludes(group_opt);
  group_opt->excludes(pod_opt);
  CLI::Option* attempt_opt = explain->add_option(
      "--attempt", explain_flags.attempt,
      "Explain the attempt of this round (the `round` of simulate's events) instead of the first");
  attempt_opt->transform(kpsim::cli::CountFlag(std::numeric_limits<std::int64_t>::max()));
  CLI::Option* at_opt = explain->add_option(
      "--at", explain_flags.at, "Explain the first attempt at or after this simulated time (Go duration: 90s, 5m)");
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

  ServeFlags serve_flags;
  CLI::App* serve = app.add_subcommand(
      "serve", "A local web app: edit the input, run, compare runs, explain attempts (JSON API under /api)");
  serve->add_option("--addr", serve_flags.addr, "HOST:PORT to listen on (loopback unless told otherwise)")
      ->default_str("127.0.0.1:8080");
  serve->add_option("--max-body", serve_flags.max_body, "Refuse request bodies larger than this (a quantity)")
      ->default_str("16Mi");
  serve->add_option("--run-timeout", serve_flags.run_timeout,
                    "Cancel a run that takes longer than this wall time (Go duration)")
      ->default_str("60s");
  serve->add_option("--threads", serve_flags.threads, "Requests handled at once")->transform(kIntCount)->default_str("8");
  serve->add_option("files", serve_flags.files, "Manifest files or directories to start the editor with");

  std::vector<std::string> diff_files;
  std::string diff_output = "text";
  CLI::App* diff_cmd = app.add_subcommand(
      "diff", "Compare two saved runs (simulate -o json): victims, placements, waits, PDB violations");
  diff_cmd->add_option("-o,--output", diff_output, "Output format")
      ->check(CLI::IsMember(std::vector<std::string>{"text", "json", "html"}))
      ->default_str("text");
  diff_cmd->add_option("runs", diff_files, "Two files written by kpsim simulate -o json (A, then B)")
      ->required()
      ->expected(2);

  kpsim::cli::SweepCommand sweep_cmd;
  kpsim::cli::AddSweepCommand(app, sweep_cmd);

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

  if (sweep_cmd.sweep->parsed()) return kpsim::cli::RunSweepCommand(sweep_cmd);
  if (serve->parsed()) return RunServe(serve_flags);
  if (diff_cmd->parsed()) {
    if (!PathsExist(diff_files)) return kExitUsage;
    return RunDiff(diff_files, diff_output, kpsim::io::ReadOptions{});
  }
  MarkGiven(simulate, sim_engine);
  MarkGiven(explain, exp_engine);

  const CommonFlags& common = simulate->parsed()   ? sim_common
                              : validate->parsed() ? val_common
                              : evict->parsed()    ? evict_common
                                                   : exp_common;
  if (!PathsExist(common.files)) return kExitUsage;
  if (simulate->parsed() && !PathsExist(sim_engine.node_templates)) return kExitUsage;
  const auto read_options = kpsim::app::MakeReadOptions(common);
  if (!read_options.ok()) {
    std::cerr << "kpsim: " << read_options.error().message << "\n";
    return kExitUsage;
  }

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
  // Flags first: a usage error costs no reading.
  if (auto options = kpsim::app::MakeOptions(common, engine_flags); !options.ok()) {
    std::cerr << "kpsim: " << options.error().message << "\n";
    return kExitUsage;
  }
  if (explain->parsed() && explain_flags.pod.empty() && explain_flags.group.empty()) {
    std::cerr << "kpsim: explain: one of --pod or --group is required\n\n" << explain->help();
    return kExitUsage;
  }
  kpsim::io::ReadResult read = kpsim::io::ReadManifests(common.files, *read_options);
  if (simulate->parsed() && !compare_settings.empty()) {
    return RunCompare(read, common, engine_flags, compare_settings);
  }
  if (simulate->parsed()) return Finish(kpsim::app::RunSimulate(std::move(read), common, engine_flags));
  explain_flags.at_set = at_opt->count() > 0;
  return Finish(kpsim::app::RunExplain(std::move(read), common, engine_flags, explain_flags));
}
