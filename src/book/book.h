#pragma once

// The `book` profile: the simplified preemption model of the chapter
// (../shared/seeds/000_fa2cf7ad8b8efd30.txt, Go package `orchestration/preemption`), reproduced
// exactly, but without its per-round re-sort and full scans.

#include <string_view>

#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/expected.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"

namespace kpsim::book {

// REQUIRES: options.profile == Profile::kBook; `options.origin` is set.
SimulationResult Simulate(const ClusterState& state, const EngineOptions& options);

// The chapter's "remove all, then put back" table for `pod` against the state at time 0.
Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                std::string_view pod);

}  // namespace kpsim::book
