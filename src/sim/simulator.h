#pragma once

// The `default` profile: kube-scheduler's queue, filters, scores and preemption on a simulated clock.

#include <string_view>

#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/expected.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"

namespace kpsim::engine {

// REQUIRES: options.profile == Profile::kDefault; `options.origin` is set.
SimulationResult Simulate(const ClusterState& state, const EngineOptions& options);

Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                std::string_view pod);

Expected<ExplainResult> ExplainGroup(const ClusterState& state, const EngineOptions& options,
                                     std::string_view group);

}  // namespace kpsim::engine
