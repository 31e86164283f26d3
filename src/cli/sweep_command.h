#pragma once

// `kpsim sweep SPEC` and `kpsim sweep merge FILE...`: the flags (CLI11) and the printing around
// app/sweep.h. Kept out of main.cc so that the command is one declaration and one call there.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace kpsim::cli {

struct SweepFlags {
  std::string spec;
  std::string output = "jsonl";
  std::string results;
  int jobs = 0;  // 0: std::thread::hardware_concurrency()
  int shards = 1;
  std::string shard;
  bool quiet = false;
  bool emit_job = false;
  std::string image;
  int parallelism = 0;
  std::string results_claim;
  // merge
  std::vector<std::string> merge_files;
  std::string merge_output = "jsonl";
};

struct SweepCommand {
  CLI::App* sweep = nullptr;
  CLI::App* merge = nullptr;
  SweepFlags flags;
};

// Declares `sweep` and its `merge` subcommand on `app`, binding them to `cmd.flags`.
void AddSweepCommand(CLI::App& app, SweepCommand& cmd);

// Runs the parsed command; the exit status (0 done, 2 usage error). REQUIRES: cmd.sweep->parsed().
int RunSweepCommand(const SweepCommand& cmd);

}  // namespace kpsim::cli
