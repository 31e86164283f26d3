// The Engine facade: resolves the simulation origin and dispatches to the profile.

#include "kpsim/engine.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <utility>

#include <fmt/format.h>

#include "book/book.h"
#include "kpsim/engine_options.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"
#include "sim/explain.h"
#include "sim/simulator.h"

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

// What the book's model leaves out that the default profile models, said once per feature with
// the pods counted: `uses(pod)` picks the pods, `field` and `consequence` finish the sentence.
struct BookIgnored {
  bool (*uses)(const Pod&);
  std::string_view field;
  std::string_view consequence;
};

constexpr std::array<BookIgnored, 3> kBookIgnored{{
    {[](const Pod& p) { return !p.spec.scheduling_gates.empty(); }, "spec.schedulingGates",
     "the book profile has no scheduling gates (its model queues every pod), so it schedules {} "
     "as if ungated; --profile default keeps gated pods pending (SchedulingGated)"},
    {[](const Pod& p) { return !p.spec.host_ports.empty(); }, "host ports (hostPort, hostNetwork)",
     "the book profile has no NodePorts filter (its model fits resources only), so it places {} "
     "as if no port were asked for; --profile default refuses nodes whose ports conflict"},
    {[](const Pod& p) {
       return p.spec.node_name.empty() && p.spec.preemption_policy == PreemptionPolicy::kNever;
     },
     "preemptionPolicy Never",
     "the book profile's model lets every pod preempt (it has no preemptionPolicy), so {} may "
     "preempt; --profile default keeps a Never pod waiting instead"},
}};

std::vector<Warning> BookWarnings(const ClusterState& state) {
  // One pass over the pods for every feature (a large input's pods do not stay in cache).
  std::array<int, kBookIgnored.size()> count{};
  std::array<const Pod*, kBookIgnored.size()> first{};
  for (const Pod& pod : state.pods) {
    for (std::size_t i = 0; i < kBookIgnored.size(); ++i) {
      if (!kBookIgnored[i].uses(pod)) continue;
      if (count[i]++ == 0) first[i] = &pod;
    }
  }
  std::vector<Warning> out;
  for (std::size_t i = 0; i < kBookIgnored.size(); ++i) {
    if (first[i] == nullptr) continue;
    Warning warning;
    warning.code = "IgnoredByProfile";
    warning.object = "Pod " + (first[i]->meta.namespace_.empty() ? std::string("default") : first[i]->meta.namespace_) +
                     "/" + first[i]->meta.name;
    warning.message = fmt::format(
        "{} {}: {}", count[i] == 1 ? std::string("uses") : fmt::format("the first of {} pods that use", count[i]),
        kBookIgnored[i].field, fmt::format(fmt::runtime(kBookIgnored[i].consequence), count[i] == 1 ? "it" : "them"));
    out.push_back(std::move(warning));
  }
  if (!state.steps.empty()) {
    Warning w;
    w.source = state.steps.front().step.source;
    w.object = "Scenario " + state.steps.front().scenario;
    w.code = "IgnoredByProfile";
    w.message = fmt::format(
        "the book profile runs no Scenario steps (its model has no clock for them), so {} step(s) are "
        "ignored; --profile default runs them",
        state.steps.size());
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace

SimulationResult Simulate(const ClusterState& state, const EngineOptions& options) {
  EngineOptions resolved = options;
  resolved.origin = ResolveOrigin(state, options);
  if (resolved.profile == Profile::kBook) {
    SimulationResult result = book::Simulate(state, resolved);
    for (Warning& w : BookWarnings(state)) result.warnings.push_back(std::move(w));
    return result;
  }
  return engine::Simulate(state, resolved);
}

SimulationResult SimulateExplained(const ClusterState& state, const EngineOptions& options,
                                   std::size_t limit, std::size_t filter_rows,
                                   std::vector<ExplainResult>& explained) {
  if (options.profile == Profile::kBook) return Simulate(state, options);
  EngineOptions resolved = options;
  resolved.origin = ResolveOrigin(state, options);
  return engine::SimulateExplained(state, resolved, limit, filter_rows, explained);
}

Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                const ExplainQuery& query) {
  EngineOptions resolved = options;
  resolved.origin = ResolveOrigin(state, options);
  if (resolved.profile != Profile::kBook) return engine::Explain(state, resolved, query);
  if (!query.group.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "the book profile has no pod groups");
  }
  Expected<ExplainResult> explained = book::Explain(state, resolved, query.pod);
  if (!explained.ok()) return explained;
  for (Warning& w : BookWarnings(state)) explained->warnings.push_back(std::move(w));
  auto ignored = [&](std::string_view flag) {
    // The chapter's explain table is of the state at time 0 only.
    Warning warning;
    warning.code = "FlagIgnored";
    warning.message = fmt::format(
        "{} is not applied by explain under --profile book: the table is of the state at time 0 "
        "(simulate --profile book does apply it)",
        flag);
    explained->warnings.push_back(std::move(warning));
  };
  if (resolved.arrival == Arrival::kSequential) ignored("--arrival sequential");
  if (query.round) ignored("--attempt");
  if (query.at) ignored("--at");
  return explained;
}

Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                std::string_view pod) {
  ExplainQuery query;
  query.pod = std::string(pod);
  return Explain(state, options, query);
}

Expected<ExplainResult> ExplainGroup(const ClusterState& state, const EngineOptions& options,
                                     std::string_view group) {
  ExplainQuery query;
  query.group = std::string(group);
  return Explain(state, options, query);
}

}  // namespace kpsim
