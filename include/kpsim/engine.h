#pragma once

// The engine facade: run a scheduler profile over an admitted cluster on a simulated clock, or
// explain one pod's scheduling attempt. Pure functions of their inputs: same state and options,
// same result, byte for byte.

#include <string_view>

#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/expected.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"

namespace kpsim {

// Explains the cycle of pod group `group` ("ns/name") against the state at time 0 (default profile,
// GenericWorkload on). NotFound if there is no such group; FailedPrecondition if groups are off.
Expected<ExplainResult> ExplainGroup(const ClusterState& state, const EngineOptions& options,
                                     std::string_view group);

// Runs `options.profile` over `state` until nothing more can happen or `options.until`.
SimulationResult Simulate(const ClusterState& state, const EngineOptions& options);

// Explains the attempt `pod` ("ns/name", or "name" in namespace default) would make against
// the state at time 0, changing nothing. NotFound if there is no such pod.
Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                std::string_view pod);

}  // namespace kpsim
