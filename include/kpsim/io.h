#pragma once

// Reading manifests into api objects, and rendering results. Only io/ includes YAML or JSON
// libraries; everything here exchanges plain kpsim types.

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

struct ReadResult {
  std::vector<Object> objects;        // decoded, in input order
  std::vector<DecodeError> errors;    // objects that could not be decoded
  std::vector<IgnoredObject> ignored;
  // Whole-file failures (missing file, YAML/JSON syntax error): the file's remaining
  // documents may be lost; the message names file and line.
  std::vector<Error> file_errors;
  // Kept, skipped or not modelled, in input order (see `Warning`).
  std::vector<Warning> warnings;
  // Deployments, ReplicaSets, StatefulSets, DaemonSets and Jobs, in input order; each one's
  // `position` places it among `objects`. `ExpandWorkloads` turns them into pods.
  std::vector<Workload> workloads;
};

// Reads files, directories (their .yaml/.yml/.json files in name order) and "-" (stdin), in
// the order given. Multi-document YAML, JSON objects and Lists (`kind: List` or typed lists
// such as `PodList` whose items lack `kind`) are all accepted. Never throws.
ReadResult ReadManifests(const std::vector<std::string>& paths);

// Same, from an in-memory text (for tests); `file` names it in messages.
ReadResult ReadManifestText(std::string_view text, const std::string& file);

// Renderers: pure functions of their inputs (house style G15).
struct RunReport {
  const ReadResult* read = nullptr;
  const AdmissionResult* admission = nullptr;
  const SimulationResult* simulation = nullptr;
  const EngineOptions* options = nullptr;
};
std::string RenderSimulationText(const RunReport& report);
std::string RenderSimulationJson(const RunReport& report);
std::string RenderValidateText(const ReadResult& read, const AdmissionResult& admission);
std::string RenderValidateJson(const ReadResult& read, const AdmissionResult& admission);
std::string RenderExplainText(const ExplainResult& explain);
std::string RenderExplainJson(const ExplainResult& explain);
// Self-contained HTML reports (`-o html`): the page embeds the exact output of the matching JSON
// renderer, the tables derived from it, and the template, script and style from web/. Works
// offline; identical input gives byte-identical pages.
std::string RenderSimulationHtml(const RunReport& report);
std::string RenderExplainHtml(const ExplainResult& explain);

}  // namespace kpsim::io
