// `kpsim sweep` on the command line (sweep_command.h): flags, files, stdout and stderr around
// app/sweep.h.

#include "cli/sweep_command.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/sweep.h"
#include "cli/count_flag.h"
#include "cli/suggest.h"
#include "kpsim/io.h"

namespace kpsim::cli {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;

int Usage(const std::string& message) {
  std::cerr << "kpsim: " << message << "\n";
  return kExitUsage;
}

bool Given(const CLI::App* cmd, const char* name) {
  const CLI::Option* opt = cmd->get_option_no_throw(name);
  return opt != nullptr && opt->count() > 0;
}

// A shard output for merge: a file or "-" (standard input).
std::optional<app::SweepSource> ReadSource(const std::string& name) {
  std::ostringstream text;
  if (name == "-") {
    text << std::cin.rdbuf();
    return app::SweepSource{name, text.str()};
  }
  std::error_code ec;
  if (std::filesystem::is_directory(name, ec)) {
    std::cerr << "kpsim: sweep merge: " << name << ": is a directory (give its files: DIR/*.jsonl)\n";
    return std::nullopt;
  }
  std::ifstream in(name, std::ios::binary);
  if (!in) {
    std::cerr << "kpsim: sweep merge: " << name << ": no such file or cannot be read\n";
    return std::nullopt;
  }
  text << in.rdbuf();
  return app::SweepSource{name, text.str()};
}

int RunMerge(const SweepCommand& cmd) {
  const SweepFlags& f = cmd.flags;
  // One file under two names (a.jsonl and ./a.jsonl, or a link to it): MergeSweepLines compares
  // the names, so each file's identity (device and inode, one stat per name) decides.
  std::map<std::pair<dev_t, ino_t>, const std::string*> files;
  for (const std::string& name : f.merge_files) {
    struct stat status {};
    if (name == "-" || ::stat(name.c_str(), &status) != 0) continue;  // ReadSource reports a missing file
    const auto [it, inserted] = files.emplace(std::pair{status.st_dev, status.st_ino}, &name);
    if (!inserted && *it->second != name) {
      return Usage(fmt::format("sweep merge: {}: given twice (as {})", name, *it->second));
    }
  }
  std::vector<app::SweepSource> sources;
  for (const std::string& name : f.merge_files) {
    std::optional<app::SweepSource> source = ReadSource(name);
    if (!source) return kExitUsage;
    sources.push_back(std::move(*source));
  }
  auto lines = app::MergeSweepLines(sources);
  if (!lines.ok()) return Usage("sweep merge: " + lines.error().message);
  if (f.merge_output == "text") {
    auto text = app::RenderSweepText(*lines);
    if (!text.ok()) return Usage("sweep merge: " + text.error().message);
    std::cout << *text;
  } else {
    for (const std::string& line : *lines) std::cout << line << "\n";
  }
  std::cout.flush();
  return kExitOk;
}

int RunEmitJob(const SweepCommand& cmd, const io::SweepSpec& spec) {
  const SweepFlags& f = cmd.flags;
  for (const char* flag : {"--results", "--shard", "--jobs", "--output", "--quiet"}) {
    if (Given(cmd.sweep, flag)) {
      return Usage(fmt::format("sweep: {} does not go with --emit-job (the Job's pods choose their own)", flag));
    }
  }
  // The checks `sweep` makes (settings, profiles, gates, paths, the run cap): a Job whose every
  // pod would exit 2 is not worth emitting.
  if (auto plan = app::PlanSweep(spec); !plan.ok()) return Usage("sweep: " + plan.error().message);
  app::SweepJobOptions options;
  options.image = f.image;
  options.shards = f.shards;
  options.parallelism = f.parallelism;
  options.results_claim = f.results_claim;
  auto yaml = app::EmitSweepJob(spec, options);
  if (!yaml.ok()) return Usage("sweep: " + yaml.error().message);
  const std::size_t runs = app::SweepRunCount(spec, app::kMaxSweepRuns);
  if (static_cast<std::size_t>(f.shards) > runs) {
    std::cerr << "kpsim: sweep: warning: " << f.shards << " shards for " << runs
              << " runs: the pods past index " << runs - 1 << " have nothing to run\n";
  }
  if (f.parallelism > f.shards) {
    // The Job controller never runs more pods than completions remain.
    std::cerr << "kpsim: sweep: warning: --parallelism " << f.parallelism << " is more than --shards " << f.shards
              << ": the Job runs at most " << f.shards << " pods at once\n";
  }
  std::cout << *yaml;
  return kExitOk;
}

}  // namespace

void AddSweepCommand(CLI::App& app, SweepCommand& cmd) {
  SweepFlags& f = cmd.flags;
  cmd.sweep = app.add_subcommand(
      "sweep", "Run a grid of simulations from a Sweep spec: one JSON line per run, shardable across processes");
  cmd.sweep->add_option("spec", f.spec, "The Sweep spec (YAML or JSON); or: kpsim sweep merge FILE...");
  cmd.sweep->add_option("-o,--output", f.output, "jsonl (one JSON line per run) or text (a summary table)")
      ->check(CLI::IsMember({"jsonl", "text"}))
      ->default_str("jsonl");
  cmd.sweep->add_option("--results", f.results,
                        "Also write the JSON lines to this file (stdout then gets the table unless -o jsonl)");
  // The counts are checked as they are read (CountFlag): --jobs 0 is a usage error, not "cores".
  cmd.sweep->add_option("--jobs", f.jobs, "Runs at once (default: the number of cores)")
      ->transform(CountFlag(std::numeric_limits<int>::max()));
  cmd.sweep->add_option("--shards", f.shards, "Split the runs into N shards (run i belongs to shard i % N)")
      ->transform(CountFlag(app::kMaxSweepShards))
      ->default_str("1");
  cmd.sweep->add_option("--shard", f.shard,
                        "The shard to run, 0-based (default: $JOB_COMPLETION_INDEX, set in an Indexed Job's pods)");
  cmd.sweep->add_flag("-q,--quiet", f.quiet, "No diagnostics on stderr (the runs' warnings, the failed count)");
  cmd.sweep->add_flag("--emit-job", f.emit_job,
                      "Print a ConfigMap and an Indexed Job (Kubernetes YAML) that run the sweep's shards");
  cmd.sweep->add_option("--image", f.image, "--emit-job: the container image (kpsim on its PATH)");
  cmd.sweep->add_option("--parallelism", f.parallelism, "--emit-job: pods at once (default: --shards)")
      ->transform(CountFlag(std::numeric_limits<int>::max()));
  cmd.sweep->add_option("--results-claim", f.results_claim,
                        "--emit-job: a PersistentVolumeClaim the pods write /results/shard-I.jsonl to");
  cmd.sweep->require_subcommand(0, 1);
  cmd.merge = cmd.sweep->add_subcommand(
      "merge", "Join shard outputs (files or - for stdin) into the lines, or table, one process would print");
  cmd.merge->add_option("files", f.merge_files, "Shard outputs (JSON lines), or - for standard input")->required();
  cmd.merge->add_option("-o,--output", f.merge_output, "jsonl or text")
      ->check(CLI::IsMember({"jsonl", "text"}))
      ->default_str("jsonl");
}

int RunSweepCommand(const SweepCommand& cmd) {
  const SweepFlags& f = cmd.flags;
  if (cmd.merge->parsed()) {
    for (const char* flag : {"spec", "--output", "--results", "--jobs", "--shards", "--shard", "--quiet",
                             "--emit-job", "--image", "--parallelism", "--results-claim"}) {
      if (!Given(cmd.sweep, flag)) continue;
      if (std::string(flag) == "spec") {
        return Usage(fmt::format("sweep: {}: a spec or merge, not both (kpsim sweep merge [-o jsonl|text] FILE...)", f.spec));
      }
      return Usage(fmt::format("sweep merge: {} before merge is a flag of sweep, not of merge (kpsim sweep merge "
                               "[-o jsonl|text] FILE...)",
                               flag));
    }
    return RunMerge(cmd);
  }
  if (f.spec.empty()) {
    return Usage("sweep: a Sweep spec is required: kpsim sweep SPEC [flags], or kpsim sweep merge FILE...");
  }
  if (!f.emit_job) {
    for (const char* flag : {"--image", "--parallelism", "--results-claim"}) {
      if (Given(cmd.sweep, flag)) return Usage(fmt::format("sweep: {} goes with --emit-job", flag));
    }
  }
  std::error_code ec;
  if (!std::filesystem::exists(f.spec, ec)) {
    const bool merge_typo = !Nearest(f.spec, {"merge"}).empty();
    return Usage(fmt::format("{}: no such file or directory{}", f.spec, merge_typo ? "; did you mean kpsim sweep merge?" : ""));
  }
  auto spec = io::ReadSweepSpec(f.spec);
  if (!spec.ok()) return Usage("sweep: " + spec.error().message);
  if (f.emit_job) return RunEmitJob(cmd, *spec);

  // Flags first: a usage error costs no reading.
  const std::string* shard_flag = Given(cmd.sweep, "--shard") ? &f.shard : nullptr;
  auto shard = app::ResolveSweepShard(f.shards, shard_flag, std::getenv("JOB_COMPLETION_INDEX"));
  if (!shard.ok()) return Usage("sweep: " + shard.error().message);
  // Each job holds one simulation in memory, and runs are CPU-bound: more jobs than cores would
  // add memory, not speed, so --jobs is capped at the cores (said on stderr).
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int jobs = f.jobs;
  if (Given(cmd.sweep, "--jobs")) {
    if (jobs > cores) {
      std::cerr << fmt::format("kpsim: sweep: --jobs {} is more than this machine's {} cores: running {} at once\n",
                               jobs, cores, cores);
      jobs = cores;
    }
  } else {
    jobs = cores;
  }
  auto plan = app::PlanSweep(std::move(*spec));
  if (!plan.ok()) return Usage("sweep: " + plan.error().message);
  // Shard I runs I, I+N, ...: with more shards than runs, the last ones have none. Not an error
  // (an Indexed Job may have more completions than runs), but said.
  if (static_cast<std::size_t>(shard->shard) >= plan->runs.size() && !f.quiet) {
    std::cerr << fmt::format("kpsim: sweep: shard {} of {} has no runs: the sweep has {} (merge needs no output "
                             "from it)\n",
                             shard->shard, shard->shards, plan->runs.size());
  }

  std::ofstream results;
  if (!f.results.empty()) {
    results.open(f.results, std::ios::binary | std::ios::trunc);
    if (!results) return Usage(fmt::format("sweep: --results: {}: cannot be written", f.results));
  }
  // stdout: the lines, unless -o text, or --results without an explicit -o (the table then).
  const bool text = f.output == "text" || (!f.results.empty() && !Given(cmd.sweep, "--output"));
  std::vector<std::string> lines;
  std::set<std::string> said;
  int repeated = 0;
  int failed = 0;
  app::RunSweep(*plan, *shard, jobs, [&](const app::SweepRun& run, const app::SweepLine& line) {
    if (!line.ok) ++failed;
    if (!f.quiet) {
      for (const std::string& d : line.diagnostics) {
        if (said.insert(d).second) {
          std::cerr << "kpsim: sweep: run " << run.index << ": " << d << "\n";
        } else {
          ++repeated;
        }
      }
    }
    if (results.is_open()) results << line.json << "\n";
    if (text) {
      lines.push_back(line.json);
    } else {
      std::cout << line.json << "\n";
    }
  });
  if (text) {
    auto table = app::RenderSweepText(lines);
    if (!table.ok()) return Usage("sweep: " + table.error().message);
    std::cout << *table;
  }
  std::cout.flush();
  if (results.is_open()) {
    results.close();
    if (!results) return Usage(fmt::format("sweep: --results: {}: write failed", f.results));
  }
  if (!f.quiet) {
    if (repeated > 0) {
      std::cerr << "kpsim: sweep: " << repeated << " diagnostic line(s) repeated by later runs not shown\n";
    }
    if (failed > 0) std::cerr << "kpsim: sweep: " << failed << " run(s) failed (\"status\":\"error\")\n";
  }
  return kExitOk;
}

}  // namespace kpsim::cli
