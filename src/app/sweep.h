#pragma once

// `kpsim sweep`: a grid of simulate runs from a Sweep spec (kpsim/io.h's `SweepSpec`), one JSON
// line per run, split into shards that separate processes (a Kubernetes Indexed Job's pods) run,
// and joined again by `merge`. Everything here returns values; the command line (src/cli) prints
// them. A run's line depends on the spec and the files alone, never on the thread that ran it,
// the shard, the wall clock or where the files lie, so shards merge into exactly the lines one
// process writes.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/run.h"
#include "kpsim/expected.h"
#include "kpsim/io.h"

namespace kpsim::app {

// One run of the grid.
struct SweepRun {
  int index = 0;
  std::size_t input = 0;    // into SweepSpec::inputs
  std::size_t overlay = 0;  // into SweepSpec::overlays
  std::string profile;
  std::string feature_gates;
  std::uint64_t seed = 1;
};

// The grid in run order: inputs x overlays x profiles x featureGates x seeds, seed innermost.
std::vector<SweepRun> SweepGrid(const io::SweepSpec& spec);
// The file a sweep setting names (`nodeTemplate=FILE`, a file of template Nodes for scale-up
// runs), as the spec writes it: relative to the spec, checked by PlanSweep, shipped by --emit-job.
// nullopt for any other setting (those are simulate --compare's, ApplySetting).
std::optional<std::string> SweepSettingPath(std::string_view setting);
// How many runs the grid has, or `cap + 1` past `cap` (the product is taken step by step, so that
// five long axes cannot wrap it).
std::size_t SweepRunCount(const io::SweepSpec& spec, std::size_t cap);
// The most runs a sweep has (PlanSweep refuses more).
inline constexpr std::size_t kMaxSweepRuns = 1000000;

// A path of the spec as the process opens it: relative paths are relative to the spec file's
// directory.
std::string SweepPath(const io::SweepSpec& spec, const std::string& path);

// What a spec asks of its runs (metadata.name and namespace, the inputs and their paths, the
// axes, the overlays, the settings; not the spec file's name or its lines), as 16 hex digits of a
// 64-bit FNV-1a over a canonical JSON text: every line of a sweep carries it (`specDigest`), and
// `merge` refuses lines whose digests differ. Files the spec names are not read into it.
std::string SweepSpecDigest(const io::SweepSpec& spec);

// A spec ready to run: its grid, each overlay's `add` files read once, and each input's paths.
struct SweepPlan {
  io::SweepSpec spec;
  std::string spec_digest;  // SweepSpecDigest(spec)
  std::vector<SweepRun> runs;
  // Per spec.inputs: its files, resolved against the spec's directory. They are read by the runs
  // that need them (RunSweep), not here: a process holds only the inputs of its runs in flight,
  // and a shard reads none that it has no run of.
  std::vector<std::vector<std::string>> input_paths;
  std::vector<io::ReadResult> overlays;  // per spec.overlays: its `add` files (empty without)
  CommonFlags common;                    // spec.settings applied
  EngineFlags engine;
};

// Checks what the decoder leaves to the run (every profile, feature gate set and setting must be
// one `simulate` accepts; settings may not name an axis of the grid; every path must exist),
// then reads the overlays' files (the inputs are read by their runs). InvalidArgument naming the
// spec file and the field.
Expected<SweepPlan> PlanSweep(io::SweepSpec spec);

// An Indexed Job's completions are limited to 100000: so are a sweep's shards.
inline constexpr int kMaxSweepShards = 100000;

// Which runs a process runs: those whose index % shards == shard.
struct SweepShard {
  int shards = 1;
  int shard = 0;
};

// The shard the flags and the environment name: `--shard` when given (`shard_flag`, nullptr when
// not), else JOB_COMPLETION_INDEX (`env_index`, nullptr when unset; Kubernetes sets it in an
// Indexed Job's pods), else 0 when there is one shard. InvalidArgument when out of range,
// malformed or missing.
Expected<SweepShard> ResolveSweepShard(int shards, const std::string* shard_flag,
                                       const char* env_index);

// One run's outcome: its JSON line (no newline) and its stderr lines.
struct SweepLine {
  std::string json;
  std::vector<std::string> diagnostics;
  bool ok = true;  // false: "status":"error"
};

// Runs one run of the plan on `input`, the read of its input's files. Thread-safe: many runs of
// one plan may run at once.
SweepLine RunSweepOne(const SweepPlan& plan, const SweepRun& run, const io::ReadResult& input);

// Runs the shard's runs on `jobs` threads and calls `emit` from the calling thread for each, in
// run order, as soon as it and every run before it are done. Each input is read once, when the
// first of the shard's runs of it starts, and let go when the last one ends (the grid's runs of
// one input are consecutive), so a shard holds at most about `jobs` inputs at a time.
// REQUIRES: jobs >= 1.
void RunSweep(const SweepPlan& plan, SweepShard shard, int jobs,
              const std::function<void(const SweepRun&, const SweepLine&)>& emit);

// One shard's output for `merge`: `name` (a file, or "-") names it in messages.
struct SweepSource {
  std::string name;
  std::string text;
};

// The lines of `sources` (blank lines skipped) in run order, each as it was written. Every run
// 0..runs-1 must appear exactly once, with the same `runs` everywhere; InvalidArgument naming the
// file and line of a malformed or duplicate line, or the runs missing.
Expected<std::vector<std::string>> MergeSweepLines(const std::vector<SweepSource>& sources);

// The summary of JSON lines in run order: a row per run, then a row per (input, overlay,
// profile, gates) over its seeds. InvalidArgument for a line that is not a sweep line.
Expected<std::string> RenderSweepText(const std::vector<std::string>& lines);

// `--emit-job`: a ConfigMap with the spec and every file it names, and an Indexed Job whose pod
// `i` runs shard `i` of the sweep from them.
struct SweepJobOptions {
  std::string image;
  int shards = 1;
  int parallelism = 0;        // 0: as many as shards
  std::string results_claim;  // a PersistentVolumeClaim for the results; empty: stdout
};
// The Kubernetes YAML; InvalidArgument when the files cannot ship in a ConfigMap (more than
// 1 MiB, an absolute path, not UTF-8) or metadata.name cannot name the objects.
Expected<std::string> EmitSweepJob(const io::SweepSpec& spec, const SweepJobOptions& options);

}  // namespace kpsim::app
