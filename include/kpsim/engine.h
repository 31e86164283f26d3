#pragma once

// The engine facade: run a scheduler profile over an admitted cluster on a simulated clock, or
// explain one pod's scheduling attempt. Pure functions of their inputs: same state and options,
// same result, byte for byte.

#include <cstddef>
#include <string_view>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/expected.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"

namespace kpsim {

// Explains one scheduling attempt of the run `Simulate` makes (the same decision, with every
// node's filter verdict and every candidate's reprieve trace): by default the first attempt of
// `query.pod` (or of pod group `query.group`), else the one in round `query.round` or the first
// at or after `query.at`. NotFound if there is no such pod or group; FailedPrecondition if the
// run has no such attempt (the message says why). The book profile explains the state at time 0.
Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                const ExplainQuery& query);

// Explain of the first attempt of pod group `group` ("ns/name"; GenericWorkload on).
Expected<ExplainResult> ExplainGroup(const ClusterState& state, const EngineOptions& options,
                                     std::string_view group);

// Runs `options.profile` over `state` until nothing more can happen or `options.until`.
SimulationResult Simulate(const ClusterState& state, const EngineOptions& options);

// The same run (byte for byte), also explaining its first `limit` attempts that did not bind a
// pod, compactly as the HTML report embeds them: the first `filter_rows` filter verdicts and
// only the chosen candidate's reprieve. Default profile only (the book profile adds none).
SimulationResult SimulateExplained(const ClusterState& state, const EngineOptions& options,
                                   std::size_t limit, std::size_t filter_rows,
                                   std::vector<ExplainResult>& explained);

// `simulate --scale-up`: the scale-up world. `world` is `state` with the autoscaler's new nodes
// as timed applies (Scenario "cluster-autoscaler"), `result` its run with preemption off (the
// run `Simulate(world, options with preemption false)` makes, byte for byte), `report` the
// decisions and the preempt world (`state` under `options`). Default profile only.
struct ScaleUpRun {
  ClusterState world;
  SimulationResult result;
  ScaleUpReport report;
};
ScaleUpRun SimulateScaleUp(const ClusterState& state, const EngineOptions& options,
                           const ScaleUpOptions& scale_up);

// Explain of the first attempt of `pod` ("ns/name", or "name" in namespace default).
Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                std::string_view pod);

}  // namespace kpsim
