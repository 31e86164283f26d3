// The Engine facade: resolves the simulation origin and dispatches to the profile.

#include "kpsim/engine.h"

#include <algorithm>
#include <utility>

#include "book/book.h"
#include "engine/scheduler.h"

namespace kpsim {
namespace {

// The wall time of simulated time 0 (see `EngineOptions::origin`).
WallTime ResolveOrigin(const ClusterState& state, const EngineOptions& options) {
  if (options.origin) return *options.origin;
  std::optional<WallTime> earliest_pending;
  std::optional<WallTime> latest;
  auto note = [&](const std::optional<WallTime>& t) {
    if (t && (!latest || *latest < *t)) latest = t;
  };
  for (const Pod& pod : state.pods) {
    note(pod.meta.creation_timestamp);
    note(pod.status.start_time);
    if (pod.spec.node_name.empty() && pod.meta.creation_timestamp &&
        (!earliest_pending || *pod.meta.creation_timestamp < *earliest_pending)) {
      earliest_pending = pod.meta.creation_timestamp;
    }
  }
  for (const Node& node : state.nodes) note(node.meta.creation_timestamp);
  if (earliest_pending) return *earliest_pending;
  if (latest) return *latest;
  return WallTime{};
}

}  // namespace

SimulationResult Simulate(const ClusterState& state, const EngineOptions& options) {
  EngineOptions resolved = options;
  resolved.origin = ResolveOrigin(state, options);
  if (resolved.profile == Profile::kBook) return book::Simulate(state, resolved);
  return engine::Simulate(state, resolved);
}

Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                std::string_view pod) {
  EngineOptions resolved = options;
  resolved.origin = ResolveOrigin(state, options);
  if (resolved.profile == Profile::kBook) {
    Expected<ExplainResult> explained = book::Explain(state, resolved, pod);
    if (explained.ok() && resolved.arrival == Arrival::kSequential) {
      // The chapter's explain table is of the state at time 0 only.
      Warning warning;
      warning.code = "FlagIgnored";
      warning.message =
          "--arrival sequential is not applied by explain under --profile book: the table is of "
          "the state at time 0 (simulate --profile book does apply it)";
      explained->warnings.push_back(std::move(warning));
    }
    return explained;
  }
  return engine::Explain(state, resolved, pod);
}

Expected<ExplainResult> ExplainGroup(const ClusterState& state, const EngineOptions& options,
                                     std::string_view group) {
  if (options.profile == Profile::kBook) {
    return MakeError(ErrorCode::kInvalidArgument, "the book profile has no pod groups");
  }
  EngineOptions resolved = options;
  resolved.origin = ResolveOrigin(state, options);
  return engine::ExplainGroup(state, resolved, group);
}

}  // namespace kpsim
