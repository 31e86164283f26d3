#pragma once

// Rendering results: validate, simulate and explain as text, JSON and self-contained HTML. The
// renderers are pure functions of the results they are given (house style G15); they read no
// input and run no engine.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/api/types.h"
#include "kpsim/engine_options.h"
#include "kpsim/eviction.h"
#include "kpsim/explain.h"
#include "kpsim/io.h"
#include "kpsim/results.h"

namespace kpsim::report {

// Every warning of a run in pipeline order: the reader's, admission's, then `more` (the engine's,
// the command line's). Null stages are skipped.
std::vector<Warning> CollectWarnings(const io::ReadResult* read, const AdmissionResult* admission,
                                     std::span<const Warning> more = {});
// One warning on one line, location first: "file:12 (document 2): Pod ns/p: message [Code]".
std::string WarningText(const Warning& warning);
// The warnings as people read them (stderr, the text reports): WarningText each, but at most
// `per_code` of one code, then a line per such code saying how many more it has (and, when not
// empty, `where_all`: where the rest can be read), in the order the codes were first met. A dump
// captured without its PriorityClasses warns once per pod.
inline constexpr std::size_t kWarningsShownPerCode = 10;
std::vector<std::string> WarningLines(std::span<const Warning> warnings, std::string_view where_all = {},
                                      std::size_t per_code = kWarningsShownPerCode);

// Renderers: pure functions of their inputs (house style G15).
struct RunReport {
  const io::ReadResult* read = nullptr;
  const AdmissionResult* admission = nullptr;
  const SimulationResult* simulation = nullptr;
  const EngineOptions* options = nullptr;
  // Warnings of the command line itself (a flag the profile ignores, ...), after the reader's,
  // admission's and the simulation's own, which the renderers collect themselves.
  std::vector<Warning> extra_warnings;
  // The HTML report's explained attempts (kpsim::SimulateExplained), linked from the timeline's
  // markers; null or empty: none.
  const std::vector<ExplainResult>* attempts = nullptr;
  // `simulate --scale-up`: the autoscaler's decisions and the preempt world; `simulation` is then
  // the scale-up world. Null: a plain run.
  const ScaleUpReport* scale_up = nullptr;
};
std::string RenderSimulationText(const RunReport& report);
std::string RenderSimulationJson(const RunReport& report);
std::string RenderValidateText(const io::ReadResult& read, const AdmissionResult& admission);
std::string RenderValidateJson(const io::ReadResult& read, const AdmissionResult& admission);
// `input_warnings` are the reader's and admission's (see `CollectWarnings`); the explain's own
// follow them.
std::string RenderExplainText(const ExplainResult& explain,
                              std::span<const Warning> input_warnings = {});
std::string RenderExplainJson(const ExplainResult& explain,
                              std::span<const Warning> input_warnings = {});
// `kpsim evict`: a node's eviction ranking (JSON: `node`, `signal`, `resource`, `ranking` in
// ranked order, each `pod`, `priority`, `usage`, `request`, `exceedsRequest`, `critical`,
// `evictionOrder`, `reason`, `message`; then `warnings`).
std::string RenderEvictionText(const EvictionReport& report, std::span<const Warning> warnings = {});
std::string RenderEvictionJson(const EvictionReport& report, std::span<const Warning> warnings = {});
// Self-contained HTML reports (`-o html`): the page embeds the exact output of the matching JSON
// renderer, the tables derived from it, and the template, script and style from web/. Works
// offline; identical input gives byte-identical pages.
std::string RenderSimulationHtml(const RunReport& report);
std::string RenderExplainHtml(const ExplainResult& explain,
                              std::span<const Warning> input_warnings = {});

}  // namespace kpsim::report
