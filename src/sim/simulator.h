#pragma once

// The `default` profile: kube-scheduler's queue, filters, scores and preemption on a simulated clock.

#include "framework/observer.h"
#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"

namespace kpsim::engine {

// Runs the default profile. `observer` (may be null) is offered every attempt, decided and not
// yet applied, and may stop the run (CycleObserver::Done).
// REQUIRES: options.profile == Profile::kDefault; `options.origin` is set.
SimulationResult Simulate(const ClusterState& state, const EngineOptions& options,
                          CycleObserver* observer = nullptr);

}  // namespace kpsim::engine
