#pragma once

// Reading manifests into api objects (rendering is kpsim/report.h). Only io/ includes YAML or JSON
// libraries; everything here exchanges plain kpsim types.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/expected.h"

namespace kpsim::io {

// An object that could not be decoded (bad field type, bad quantity, unknown enum value, ...).
struct DecodeError {
  std::string kind;  // as written in the manifest ("Pod"); may be empty if unreadable
  std::string name;  // "ns/name" or "name"; may be empty
  SourceRef source;
  std::string field;    // e.g. "spec.containers[0].resources.requests.cpu"
  std::string message;  // full message naming file, document/line, object and field
};

// An object of a kind kpsim does not model (Service, ConfigMap, ...): listed, not an error.
struct IgnoredObject {
  std::string kind;
  std::string api_version;
  std::string name;
  SourceRef source;
};

// A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) read from the input, on its own
// or as a kube-scheduler-simulator export's `schedulerConfig`, validated as kube-scheduler does.
// Holds what kpsim models, resolved for the default-scheduler profile; kube-scheduler's defaults
// where the configuration leaves a field unset.
struct SchedulerConfig {
  SourceRef source;
  std::int32_t percentage_of_nodes_to_score = 0;  // the profile's, else the top-level value
  std::int32_t min_candidate_nodes_percentage = 10;
  std::int32_t min_candidate_nodes_absolute = 100;
  bool preemption_args = false;  // DefaultPreemption args were given in pluginConfig
  std::int64_t pod_initial_backoff_seconds = 1;
  std::int64_t pod_max_backoff_seconds = 10;
};

struct ReadResult {
  std::vector<Object> objects;        // decoded, in input order
  std::vector<DecodeError> errors;    // objects that could not be decoded
  std::vector<IgnoredObject> ignored;
  // Whole-file failures (missing file, YAML/JSON syntax error): the file's remaining
  // documents may be lost; the message names file and line.
  std::vector<Error> file_errors;
  // Kept, skipped or not modelled, in input order (see `Warning`).
  std::vector<Warning> warnings;
  // The last valid KubeSchedulerConfiguration in the input, if any (an invalid one is an entry
  // of `errors` and applies nothing).
  std::optional<SchedulerConfig> scheduler_config;
  // Deployments, ReplicaSets, StatefulSets, DaemonSets and Jobs, in input order; each one's
  // `position` places it among `objects`. `ExpandWorkloads` turns them into pods.
  std::vector<Workload> workloads;
  // kpsim.io/v1alpha1 Scenarios (timed steps), in input order.
  std::vector<Scenario> scenarios;
  // metrics.k8s.io/v1beta1 PodMetrics (and the items of PodMetricsList), in input order.
  std::vector<PodMetrics> pod_metrics;
};

struct ReadOptions {
  // Directories: descend into subdirectories (default). false: only the directory's own files.
  bool recursive = true;
  // Bytes read from one input (file or stdin) before it is refused; 0 keeps the default cap
  // (1 GiB). `--max-input-size` sets it.
  std::size_t max_input_bytes = 0;
};

// Reads files, directories and "-" (stdin), in the order given. A directory is walked depth
// first: its .yaml/.yml/.json files in bytewise name order, then its subdirectories in bytewise
// name order (`ReadOptions::recursive`); hidden entries (".git") and other files are skipped with
// a warning; a directory reached twice (symlinks) is read once. Multi-document YAML, JSON objects
// and Lists (`kind: List` or typed lists such as `PodList` whose items lack `kind`), objects
// without `kind` in files named after their resource (`pods.json`), kube-scheduler-simulator
// exports and KubeSchedulerConfiguration documents are all accepted. Never throws.
ReadResult ReadManifests(const std::vector<std::string>& paths);
ReadResult ReadManifests(const std::vector<std::string>& paths, const ReadOptions& options);

// Same, from an in-memory text (for tests); `file` names it in messages.
ReadResult ReadManifestText(std::string_view text, const std::string& file);

// Several in-memory files read in order as one input, as ReadManifests reads several paths
// (`kpsim serve`'s uploads). `name` stands for the file in messages and, like a file name,
// gives the kind of items without one (`pods.json`). Each text counts against
// `options.max_input_bytes` as a file does.
struct NamedText {
  std::string name;
  std::string text;
};
ReadResult ReadManifestTexts(const std::vector<NamedText>& texts, const ReadOptions& options = {});

// ---------------------------------------------------------------------------------------------
// A Sweep (kpsim.io/v1alpha1, `kpsim sweep`): a grid of runs. Not a manifest: the reader skips a
// Sweep found among manifests with a `SweepSpec` warning. Paths are kept as written (relative
// ones are relative to the spec file's directory); what they name is checked by the caller.

// One `spec.inputs[]` entry: a named input, read as `kpsim simulate PATH...` reads its files.
struct SweepInput {
  std::string name;
  std::vector<std::string> paths;
};

// One `spec.overlays[].scale[]` entry: set a workload's replicas (Deployment, ReplicaSet,
// StatefulSet) or parallelism (Job).
struct SweepScale {
  WorkloadKind kind = WorkloadKind::kDeployment;
  std::string name;  // "ns/name" (a bare name is in namespace "default")
  std::int32_t replicas = 0;
  int line = 0;  // of the entry in the spec
};

// One `spec.overlays[]` entry: manifests appended to the input (`add`), then scales.
struct SweepOverlay {
  std::string name;
  std::vector<std::string> add;
  std::vector<SweepScale> scale;
};

struct SweepSpec {
  std::string file;  // as given (messages name it)
  std::string name;  // metadata.name
  std::string namespace_;  // metadata.namespace, may be empty
  std::vector<SweepInput> inputs;
  std::vector<std::uint64_t> seeds;         // default {1}
  std::vector<std::string> profiles;        // default {"default"}; values checked by the caller
  std::vector<std::string> feature_gates;   // default {""}; values checked by the caller
  std::vector<SweepOverlay> overlays;       // default: one overlay "none" that changes nothing
  std::vector<std::string> settings;        // KEY=VALUE, as `simulate --compare` spells them
  // The line of every field and item, by its path as messages spell it ("spec.profiles[1]",
  // "spec.inputs[0].paths[2]"): the caller's checks name the line too.
  std::map<std::string, int> lines;
};

// Decodes a Sweep from YAML or JSON text (one document). Unknown fields, wrong types, missing or
// repeated names are InvalidArgument errors whose message reads "FILE:LINE: FIELD: problem".
Expected<SweepSpec> ParseSweepSpec(std::string_view text, const std::string& file);
// Reads and decodes the spec file `path` (at most 16 MiB).
Expected<SweepSpec> ReadSweepSpec(const std::string& path);

}  // namespace kpsim::io
