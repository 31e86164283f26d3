// `explain` for the default profile: one run of the simulator with an observer that waits for
// the attempt asked for, so that the decision explained is the decision simulate makes.

#include "sim/explain.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "framework/observer.h"
#include "kpsim/results.h"
#include "sim/simulator.h"

namespace kpsim::engine {
namespace {

std::string NormalizeKey(std::string_view key) {
  if (key.find('/') == std::string_view::npos) return "default/" + std::string(key);
  return std::string(key);
}

std::string Seconds(SimTime t) { return fmt::format("{}s", ToSeconds(t)); }

// Waits for the attempt a query names. Attempts of the target before it are remembered for the
// error message when none matches.
class AttemptFinder final : public CycleObserver {
 public:
  AttemptFinder(const ExplainQuery& query, std::string key, GroupId group_root)
      : query_(query), key_(std::move(key)), group_root_(group_root) {}

  bool Observes(const Attempt& attempt, ExplainDetail& detail) override {
    if (query_.round && attempt.round >= *query_.round) {
      past_round_ = true;  // rounds only grow: this attempt decides
      if (attempt.round == *query_.round && !IsTarget(attempt)) round_owner_ = Owner(attempt);
    }
    if (!IsTarget(attempt)) return false;
    const bool wanted = query_.round ? attempt.round == *query_.round
                        : query_.at  ? attempt.time >= SimTime{*query_.at}
                                     : true;
    if (!wanted) {
      seen_.emplace_back(attempt.round, attempt.time);
      return false;
    }
    detail = ExplainDetail::kFull;
    return true;
  }
  void OnExplained(const Attempt& attempt, ExplainResult explained) override {
    if (attempt.group != kNoId && !query_.pod.empty()) {
      // A pod scheduled through its group: the group's cycle, named after the pod asked for.
      const ClusterModel& model = *attempt.model;
      explained.pod = key_;
      for (PodId id : attempt.members) {
        if (model.pod(id).key == key_) {
          explained.priority = model.pod(id).priority;
        }
      }
    }
    found_ = std::move(explained);
  }
  bool Done() const override { return found_.has_value() || past_round_; }

  std::optional<ExplainResult>& found() { return found_; }
  const std::vector<std::pair<std::int64_t, SimTime>>& seen() const { return seen_; }
  const std::string& round_owner() const { return round_owner_; }

 private:
  bool IsTarget(const Attempt& attempt) const {
    const ClusterModel& model = *attempt.model;
    if (!query_.group.empty()) return attempt.group != kNoId && attempt.group == group_root_;
    if (attempt.pod != kNoId) return model.pod(attempt.pod).key == key_;
    return std::any_of(attempt.members.begin(), attempt.members.end(), [&](PodId id) {
      return model.pod(id).key == key_;
    });
  }
  static std::string Owner(const Attempt& attempt) {
    const ClusterModel& model = *attempt.model;
    if (attempt.pod != kNoId) return "pod " + model.pod(attempt.pod).key;
    return "pod group " + model.group(attempt.group).key;
  }

  const ExplainQuery& query_;
  std::string key_;
  GroupId group_root_;
  std::optional<ExplainResult> found_;
  bool past_round_ = false;
  std::string round_owner_;
  std::vector<std::pair<std::int64_t, SimTime>> seen_;
};

// Collects the compact explanation of every attempt that did not bind, up to a limit.
class FailedAttempts final : public CycleObserver {
 public:
  FailedAttempts(std::size_t limit, std::size_t filter_rows, std::vector<ExplainResult>& out)
      : limit_(limit), filter_rows_(filter_rows), out_(out) {}
  bool Observes(const Attempt& attempt, ExplainDetail& detail) override {
    if (attempt.outcome == Attempt::Outcome::kBind || out_.size() >= limit_) return false;
    detail = ExplainDetail::kChosenOnly;
    return true;
  }
  void OnExplained(const Attempt& /*attempt*/, ExplainResult explained) override {
    if (explained.filter.size() > filter_rows_) {
      explained.filter_omitted = explained.filter.size() - filter_rows_;
      explained.filter.resize(filter_rows_);
    }
    out_.push_back(std::move(explained));
  }
  bool ExplainsBinds() const override { return false; }

 private:
  std::size_t limit_;
  std::size_t filter_rows_;
  std::vector<ExplainResult>& out_;
};

// Why the run had no attempt matching the query.
Error NoSuchAttempt(const ExplainQuery& query, const std::string& what, const AttemptFinder& finder,
                    const SimulationResult& run) {
  std::string seen;
  for (const auto& [round, time] : finder.seen()) {
    seen += fmt::format("{}round {} at {}", seen.empty() ? "" : ", ", round, Seconds(time));
  }
  if (query.round) {
    std::string owner = finder.round_owner().empty()
                            ? fmt::format("the run has no attempt numbered {}", *query.round)
                            : fmt::format("round {} is the attempt of {}", *query.round, finder.round_owner());
    return MakeError(ErrorCode::kFailedPrecondition,
                     fmt::format("{} has no attempt in round {} ({}){}", what, *query.round, owner,
                                 seen.empty() ? "" : "; its attempts: " + seen));
  }
  if (query.at && !seen.empty()) {
    return MakeError(ErrorCode::kFailedPrecondition,
                     fmt::format("{} has no attempt at or after {} (its attempts: {})", what,
                                 Seconds(SimTime{*query.at}), seen));
  }
  if (!query.pod.empty()) {
    const std::string key = NormalizeKey(query.pod);
    for (const PodOutcome& pod : run.pods) {
      if (pod.pod != key) continue;
      if (pod.condition == "SchedulingGated") {
        return MakeError(ErrorCode::kFailedPrecondition,
                         fmt::format("pod {} is SchedulingGated ({}): kube-scheduler makes no attempt "
                                     "for it until its gates are removed",
                                     key, pod.reason));
      }
      if (pod.state == PodState::kPending && !pod.reason.empty()) {
        return MakeError(ErrorCode::kFailedPrecondition,
                         fmt::format("pod {} makes no scheduling attempt in the run: {}", key, pod.reason));
      }
      return MakeError(ErrorCode::kFailedPrecondition,
                       fmt::format("pod {} is not pending (it is {} on node {}); explain needs a pod "
                                   "that waits for scheduling",
                                   key, PodStateName(pod.state), pod.node));
    }
  }
  return MakeError(ErrorCode::kFailedPrecondition,
                   fmt::format("{} makes no scheduling attempt in the run", what));
}

}  // namespace

ExplainResult ExplainGroupAttempt(const ClusterModel& model, GroupId root,
                                  const std::vector<PodId>& pending, const std::string* validation_error,
                                  const GroupPlacement* placement, const GroupPreemption* wap,
                                  std::vector<ReprieveStep> reprieve) {
  ExplainResult result;
  result.profile = Profile::kDefault;
  const GroupInfo& group = model.group(root);
  GroupExplain g;
  g.group = group.key;
  g.priority = group.priority;
  result.pod = group.key;
  result.priority = group.priority;
  for (PodId id : pending) g.members.push_back(model.pod(id).key.string());
  if (validation_error != nullptr) {
    g.validation_error = *validation_error;
    result.eligible = false;
    result.eligibility_message = *validation_error;
    result.message = *validation_error;
    result.group = std::move(g);
    return result;
  }
  for (const auto& [id, node] : placement->assigned) {
    g.placement.emplace_back(model.pod(id).key,
                             model.node(node).name);
  }
  for (const auto& [id, why] : placement->failed) {
    g.placement.emplace_back(model.pod(id).key, why);
  }
  g.placeable = placement->feasible;
  g.placement_message = placement->message;
  result.eligible = true;
  if (placement->feasible) {
    result.message = fmt::format("the group fits without preemption: {} of {} pending pods placed",
                                 placement->assigned.size(), pending.size());
    result.group = std::move(g);
    return result;
  }
  g.reprieve = std::move(reprieve);
  g.preemption_message = "pod group preemption: " + wap->message;
  result.message = placement->message + ". " + g.preemption_message;
  if (wap->kind == GroupPreemption::Kind::kPreempt) {
    ChosenCandidate chosen;
    chosen.node = "cluster";
    for (const Victim& v : wap->victims) {
      const SharedString& key = model.pod(v.pod).key;
      chosen.victims.push_back(key.string());
      g.victims.push_back(key.string());
    }
    chosen.decided_by = "workload-aware preemption: remove every lower-priority victim, place the group "
                        "once, reprieve against that placement";
    result.chosen = std::move(chosen);
    for (const auto& [id, node] : wap->assignments) {
      g.nominations.emplace_back(model.pod(id).key,
                                 model.node(node).name);
    }
  } else if (wap->kind == GroupPreemption::Kind::kFail && wap->message.rfind("not eligible", 0) == 0) {
    result.eligible = false;
    result.eligibility_message = wap->message;
  }
  result.group = std::move(g);
  return result;
}

SimulationResult SimulateExplained(const ClusterState& state, const EngineOptions& options,
                                   std::size_t limit, std::size_t filter_rows,
                                   std::vector<ExplainResult>& explained) {
  FailedAttempts observer(limit, filter_rows, explained);
  return Simulate(state, options, limit > 0 ? &observer : nullptr);
}

Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                const ExplainQuery& query) {
  std::string key;
  std::string what;
  GroupId group_root = kNoId;
  if (!query.group.empty()) {
    if (!options.gates.generic_workload) {
      return MakeError(ErrorCode::kFailedPrecondition,
                       "pod groups are scheduled as groups only with --feature-gates GenericWorkload=true");
    }
    key = NormalizeKey(query.group);
    const ClusterModel model(state, options);
    for (const GroupInfo& g : model.groups()) {
      if (g.key == key) group_root = g.root;
    }
    if (group_root == kNoId) {
      return MakeError(ErrorCode::kNotFound, fmt::format("pod group {} not found in the input", key));
    }
    what = "pod group " + key;
  } else {
    key = NormalizeKey(query.pod);
    what = "pod " + key;
  }
  AttemptFinder finder(query, key, group_root);
  const SimulationResult run = Simulate(state, options, &finder);
  if (std::optional<ExplainResult>& found = finder.found()) return std::move(*found);
  if (!query.pod.empty() &&
      std::none_of(run.pods.begin(), run.pods.end(), [&](const PodOutcome& p) { return p.pod == key; })) {
    return MakeError(ErrorCode::kNotFound,
                     fmt::format("pod {} not found in the input, nor created during the run", key));
  }
  return NoSuchAttempt(query, what, finder, run);
}

}  // namespace kpsim::engine
