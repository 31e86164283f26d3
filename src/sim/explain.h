#pragma once

// `explain` for the default profile: the run's own decision for one attempt, with the diagnosis
// the simulator records through a CycleObserver (framework/observer.h).

#include <string>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/expected.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"
#include "scheduler/framework.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

// Runs the simulation until the attempt `query` names and returns its explanation; NotFound
// when no such pod or group exists, FailedPrecondition when the run has no such attempt (the
// message says why: a gated pod, another scheduler's pod, a pod that is not pending, ...).
Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                const ExplainQuery& query);

// Simulate, explaining the first `limit` attempts that did not bind (see kpsim::SimulateExplained).
SimulationResult SimulateExplained(const ClusterState& state, const EngineOptions& options,
                                   std::size_t limit, std::size_t filter_rows,
                                   std::vector<ExplainResult>& explained);

// The explanation of one pod-group cycle from what the cycle computed: the validation error
// (refused groups), else the placement and, when it failed, workload-aware preemption with its
// reprieve steps.
ExplainResult ExplainGroupAttempt(const ClusterModel& model, GroupId root,
                                  const std::vector<PodId>& pending, const std::string* validation_error,
                                  const GroupPlacement* placement, const GroupPreemption* wap,
                                  std::vector<ReprieveStep> reprieve);

}  // namespace kpsim::engine
