#pragma once

// Reading manifests into api objects, and rendering results. Only io/ includes YAML or JSON
// libraries; everything here exchanges plain kpsim types.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/api/types.h"
#include "kpsim/engine.h"

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

// Every warning of a run in pipeline order: the reader's, admission's, then `more` (the engine's,
// the command line's). Null stages are skipped.
std::vector<Warning> CollectWarnings(const ReadResult* read, const AdmissionResult* admission,
                                     std::span<const Warning> more = {});
// One warning on one line, location first: "file:12 (document 2): Pod ns/p: message [Code]".
std::string WarningText(const Warning& warning);

// Renderers: pure functions of their inputs (house style G15).
struct RunReport {
  const ReadResult* read = nullptr;
  const AdmissionResult* admission = nullptr;
  const SimulationResult* simulation = nullptr;
  const EngineOptions* options = nullptr;
  // Warnings of the command line itself (a flag the profile ignores, ...), after the reader's,
  // admission's and the simulation's own, which the renderers collect themselves.
  std::vector<Warning> extra_warnings;
};
std::string RenderSimulationText(const RunReport& report);
std::string RenderSimulationJson(const RunReport& report);
std::string RenderValidateText(const ReadResult& read, const AdmissionResult& admission);
std::string RenderValidateJson(const ReadResult& read, const AdmissionResult& admission);
// `input_warnings` are the reader's and admission's (see `CollectWarnings`); the explain's own
// follow them.
std::string RenderExplainText(const ExplainResult& explain,
                              std::span<const Warning> input_warnings = {});
std::string RenderExplainJson(const ExplainResult& explain,
                              std::span<const Warning> input_warnings = {});
// Self-contained HTML reports (`-o html`): the page embeds the exact output of the matching JSON
// renderer, the tables derived from it, and the template, script and style from web/. Works
// offline; identical input gives byte-identical pages.
std::string RenderSimulationHtml(const RunReport& report);
std::string RenderExplainHtml(const ExplainResult& explain,
                              std::span<const Warning> input_warnings = {});

}  // namespace kpsim::io
