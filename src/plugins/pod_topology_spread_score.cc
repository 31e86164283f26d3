#include "plugins/pod_topology_spread_score.h"

#include <cassert>

#include "plugins/node_affinity.h"
#include "plugins/pod_topology_spread_filter.h"

namespace kpsim::engine {
namespace {

// A pod `countPodsMatchSelector` counts: not being deleted (a preemption victim terminating).
bool CountsForSpread(const PodInfo& pod) {
  return !pod.IsTerminating() && !pod.pod.meta.deletion_timestamp.has_value();
}

}  // namespace

PodTopologySpreadScore::PodTopologySpreadScore(ClusterModel& model)
    : model_(model), classes_(model, NamespaceAndLabels, nullptr, CountsForSpread, nullptr) {}

void PodTopologySpreadScore::IndexServices() {
  if (services_generation_ == model_.services_generation()) return;
  services_generation_ = model_.services_generation();
  services_by_namespace_.clear();
  for (const Service& service : model_.services()) {
    services_by_namespace_[service.meta.namespace_].push_back(&service);
  }
}

plugins::SpreadView PodTopologySpreadScore::View(
    const PodInfo& pod, const std::vector<plugins::SpreadConstraint>& constraints) const {
  plugins::SpreadView view;
  view.nodes.reserve(model_.nodes().size());
  for (const NodeInfo& node : model_.nodes()) view.nodes.push_back(SpreadNodeViewOf(pod, node));
  // Only pods of the pod's namespace count; a class no constraint selects counts for nothing.
  const std::string& ns = pod.pod.meta.namespace_;
  for (const PodClasses::Class& cls : classes_.classes()) {
    if (cls.total == 0) continue;
    const Pod& rep = model_.pod(cls.representative).pod;
    if (rep.meta.namespace_ != ns) continue;
    const bool selected = std::any_of(constraints.begin(), constraints.end(),
                                      [&](const plugins::SpreadConstraint& c) { return c.Selects(rep.meta.labels); });
    if (!selected) continue;
    for (const auto& [node, count] : cls.nodes) {
      view.pods.push_back({rep.meta.namespace_, &rep.meta.labels, node.value(), false, count});
    }
  }
  return view;
}

plugins::SpreadView PodTopologySpreadScore::FullView(const PodInfo& pod) const {
  plugins::SpreadView view = View(pod, {});
  for (NodeId n : model_.nodes().ids()) {
    for (PodId id : model_.node(n).pods) {
      const PodInfo& other = model_.pod(id);
      plugins::SpreadPodView p = plugins::MakeSpreadPodView(other.pod, n.value());
      p.terminating = !CountsForSpread(other);
      view.pods.push_back(p);
    }
  }
  return view;
}

// Mirrors `PodTopologySpread.PreScore` (`initPreScoreState` over the classes, see the header),
// then `Score` and `NormalizeScore` over the feasible nodes.
void PodTopologySpreadScore::PreScore(const PodInfo& pod, std::span<const NodeId> feasible) {
  skip_ = true;
  const Pod& incoming = pod.pod;
  const bool has_own = !incoming.spec.topology_spread_constraints.empty();
  std::optional<LabelSelector> default_selector;
  if (!has_own) {
    static const std::vector<const Service*> kNoServices;
    IndexServices();  // a Scenario step may have applied or deleted one
    auto it = services_by_namespace_.find(incoming.meta.namespace_);
    default_selector = plugins::DefaultSpreadSelector(
        incoming, it == services_by_namespace_.end() ? kNoServices : it->second, model_.controllers());
  }
  // `getConstraints`: the same constraints PodTopologySpreadPreScore will take.
  const std::vector<plugins::SpreadConstraint> constraints =
      has_own ? plugins::BuildSpreadConstraints(incoming, UnsatisfiableConstraintAction::kScheduleAnyway)
              : plugins::DefaultSpreadConstraints(default_selector);
  if (constraints.empty() || feasible.empty()) return;
  classes_.CatchUp();
  const plugins::SpreadView view = View(pod, constraints);
  std::vector<int> filtered;  // the pure functions' node indexes
  filtered.reserve(feasible.size());
  for (NodeId id : feasible) filtered.push_back(id.value());
  const plugins::SpreadScoreState state =
      plugins::PodTopologySpreadPreScore(incoming, view, filtered, default_selector);
  if (state.empty()) return;
  std::vector<std::int64_t> raw;
  raw.reserve(filtered.size());
  for (int n : filtered) raw.push_back(plugins::PodTopologySpreadScore(state, view, n));
  plugins::PodTopologySpreadNormalizeScore(state, filtered, raw);
#ifndef NDEBUG
  {
    // The classes are an optimisation of upstream's count over every pod, nothing else.
    const plugins::SpreadView full = FullView(pod);
    const plugins::SpreadScoreState full_state =
        plugins::PodTopologySpreadPreScore(incoming, full, filtered, default_selector);
    std::vector<std::int64_t> expected;
    for (int n : filtered) expected.push_back(plugins::PodTopologySpreadScore(full_state, full, n));
    plugins::PodTopologySpreadNormalizeScore(full_state, filtered, expected);
    assert(expected == raw && "the pod classes disagree with PodTopologySpreadPreScore over every pod");
  }
#endif
  scores_.resize(model_.nodes().size());
  for (std::size_t i = 0; i < feasible.size(); ++i) scores_[feasible[i]] = raw[i];
  skip_ = false;
}

std::int64_t PodTopologySpreadScore::Score(const PodInfo& /*pod*/, NodeId node_id,
                                           const NodeInfo& /*node*/) const {
  return skip_ ? 0 : scores_[node_id];
}

}  // namespace kpsim::engine
