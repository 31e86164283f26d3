#pragma once

// A run's settings as the command line spells them, turned into engine and reader options, and
// one simulate or explain run from them, rendered. Shared by the subcommands, `simulate --compare`
// and `kpsim serve`, so that a setting means the same wherever it is given and the server answers
// exactly what the command prints. Errors come back as values (the caller prints them or answers
// them over HTTP); nothing here writes to stdout or stderr.

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/expected.h"
#include "kpsim/io.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"

namespace kpsim::app {

struct CommonFlags {
  std::vector<std::string> files;
  std::string output = "text";
  std::string feature_gates;
  bool no_recursive = false;
  std::string max_input_size;  // a quantity: "4Gi", "1500M", bytes
};

// The engine's flags as text, parsed by MakeOptions. `*_set` mark a value given other than on
// the command line (a --compare setting, a serve request); the CLI11 options mark the flags.
struct EngineFlags {
  std::string profile = "default";
  std::string seed = "1";  // parsed in MakeOptions: CLI11 would wrap "-1" into a huge uint64
  std::string until;
  bool until_set = false;
  std::string candidate_sampling = "exact";
  bool candidate_sampling_set = false;
  int max_attempts = 1000000;
  bool max_attempts_set = false;
  std::string origin;
  bool disable_caches = false;
  bool disable_caches_set = false;
  std::string arrival = "together";
  // simulate --scale-up: the autoscaler's world instead of preemption (see kpsim::SimulateScaleUp).
  bool scale_up = false;
  std::vector<std::string> node_templates;  // --node-template: files of template Nodes
  // How messages name them, when not by the path opened (a sweep's, as its spec writes them, so
  // that its lines do not depend on the directory it runs from); empty: by node_templates.
  std::vector<std::string> node_template_names;
  // simulate --compare: the flags a compared run reads (FlagsReadByCompared), which the run as
  // given does not call ignored although it does not read them itself.
  std::vector<std::string> read_by_compared;
  std::string scale_up_delay = "2m";        // Go duration
  std::string scan_interval = "10s";        // Go duration
  std::string expander = "least-waste";
  int max_new_nodes = 1000;
};

// explain's own flags.
struct ExplainFlags {
  std::string pod;
  std::string group;
  std::int64_t attempt = 0;  // 0: not given
  std::string at;
  bool at_set = false;
};

// An InvalidArgument error: what the commands report as a usage error (exit status 2).
Error UsageError(std::string message);
// What a count (--max-attempts, --max-new-nodes, --attempt) says about a value it refuses, e.g.
// "must be a whole number, at least 1, got \"0\"".
std::string AtLeastOne(std::string_view value);
// A count as every command takes one (the count flags, their --compare and sweep settings,
// serve's options.attempt, sweep's --jobs, --shards and --parallelism): decimal digits alone (not
// "+1", " 1", "0x1" or "1.0"; "01" is 1), from 1 to `max`. The error says which, as AtLeastOne
// or "must be a whole number from 1 to MAX, got ...", with nothing before it.
Expected<std::int64_t> ParseCount(std::string_view text, std::int64_t max);
// An index as a count's rules take it (sweep's --shard, JOB_COMPLETION_INDEX): decimal digits
// alone, from 0 to `max`; nothing for any other text (the caller words the error).
std::optional<std::int64_t> ParseIndex(std::string_view text, std::int64_t max);

// A Go duration (90s, 5m, 1h30m) as simulated time, floored to the clock's microsecond. The
// error names `flag`.
Expected<SimDuration> ParseSimDuration(std::string_view flag, const std::string& text);

// The engine options the flags spell; the error names the flag ("--seed: invalid seed ...").
Expected<EngineOptions> MakeOptions(const CommonFlags& common, const EngineFlags& engine);
// The autoscaler's settings the flags spell (templates not yet: they come from the input and
// --node-template files when the run is prepared).
Expected<ScaleUpOptions> MakeScaleUpOptions(const EngineFlags& engine);
// The reader's options the flags spell.
Expected<io::ReadOptions> MakeReadOptions(const CommonFlags& common);

// Applies a KubeSchedulerConfiguration from the input to `options` (see the definition); flags
// given win. May add warnings to `read`.
void ApplySchedulerConfig(io::ReadResult& read, const EngineFlags& flags, EngineOptions& options);

// One setting `key=value`, keyed by the flag's name or its camelCase (`profile`, `seed`,
// `until`, `feature-gates`/`featureGates`, `candidate-sampling`/`candidateSampling`, `arrival`,
// `origin`, `max-attempts`/`maxAttempts`, `disable-caches`/`disableCaches`, `scale-up`/`scaleUp`,
// `scale-up-delay`/`scaleUpDelay`, `expander`, `max-new-nodes`/`maxNewNodes`), applied to the
// flags. InvalidArgument for an unknown key or a malformed setting; values are checked later by
// MakeOptions. No setting names a file: those that do are a sweep's own (SweepSettingPath), since
// the serve API must read no file of the server's.
Result ApplySetting(std::string_view setting, CommonFlags& common, EngineFlags& engine);
// The keys ApplySetting knows (camelCase), for messages: as a list, and joined by ", ".
std::span<const std::string_view> SettingKeyList();
std::string_view SettingKeys();

// The settings given that the chosen profile or mode does not read (IgnoredFlag warnings), but
// for those in `engine.read_by_compared`.
std::vector<Warning> IgnoredFlagWarnings(const CommonFlags& common, const EngineFlags& engine,
                                         const EngineOptions& options);
// simulate --compare: the flags the run as given ignores and at least one compared run reads (e.g.
// --node-template under --compare scaleUp=true, --candidate-sampling of a book run compared with
// profile=default). A flag is called ignored only when no run of the comparison reads it.
Expected<std::vector<std::string>> FlagsReadByCompared(
    const CommonFlags& common, const EngineFlags& engine,
    const std::vector<std::pair<CommonFlags, EngineFlags>>& compared);

// The reader's and admission's refusals as stderr lines ("error: ...", "rejected: ..."), appended
// to `lines`; returns how many.
int AddDiagnostics(const io::ReadResult& read, const AdmissionResult& admission,
                   std::vector<std::string>& lines);
// Each warning as a stderr line ("warning: <WarningText>"), appended to `lines`.
void AddWarnings(const std::vector<Warning>& warnings, std::vector<std::string>& lines);

// What a command prints: `output` for stdout (in `common.output`'s format), `diagnostics` for
// stderr (one line each: "error: ...", "rejected: ...", "warning: ..."), and `error` when the
// command failed as a usage error (exit status 2; `output` is then empty).
struct RunOutput {
  std::string output;
  std::vector<std::string> diagnostics;
  std::optional<Error> error;
  bool cancelled = false;  // EngineOptions::cancel stopped the run
  int rejected = 0;        // objects the reader or admission refused
};

// `simulate`: `read` (the input as read) under the flags. `cancel`: see EngineOptions::cancel.
RunOutput RunSimulate(io::ReadResult read, const CommonFlags& common, const EngineFlags& engine,
                      const std::atomic<bool>* cancel = nullptr);
// `explain`.
RunOutput RunExplain(io::ReadResult read, const CommonFlags& common, const EngineFlags& engine,
                     const ExplainFlags& explain, const std::atomic<bool>* cancel = nullptr);

}  // namespace kpsim::app
