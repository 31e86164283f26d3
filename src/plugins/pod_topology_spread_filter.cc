#include "plugins/pod_topology_spread_filter.h"

#include <memory>
#include <utility>

#include "plugins/node_affinity.h"
#include "plugins/pod_topology_spread.h"

namespace kpsim::engine {

plugins::SpreadNodeView SpreadNodeViewOf(const PodInfo& incoming, const NodeInfo& node) {
  // A node not in the cluster has no labels here: without the constraints' topology keys it is
  // no domain, and its pods count nowhere.
  static const Labels kNoLabels;
  if (!node.present) return {&kNoLabels, nullptr, false};
  return {&node.api->meta.labels, &node.api->taints, MatchesRequiredNodeAffinity(incoming.pod.spec, node)};
}

namespace {

// A placed pod as the plugin counts it: a pod being deleted (a preemption victim terminating)
// is never counted (`countPodsMatchSelector` skips a set deletionTimestamp).
plugins::SpreadPodView PodView(const PodInfo& pod, NodeId node) {
  plugins::SpreadPodView view = plugins::MakeSpreadPodView(pod.pod, node.value());
  view.terminating = view.terminating || pod.IsTerminating();
  return view;
}

// The plugin's PreFilter state in the cycle state: the counts, branched with the cycle state and
// updated by `updateWithPod` as nominated pods are added and dry-run victims removed.
class SpreadCycleState final : public PluginCycleState {
 public:
  SpreadCycleState(const PodInfo& incoming, plugins::SpreadFilterState state)
      : incoming_(incoming), state_(std::move(state)) {}
  std::unique_ptr<PluginCycleState> Clone() const override {
    return std::make_unique<SpreadCycleState>(*this);
  }
  void AddPod(const PodInfo& other, const NodeInfo& node, int delta) override {
    state_.UpdateWithPod(incoming_.pod, PodView(other, other.node), SpreadNodeViewOf(incoming_, node), delta);
  }
  const plugins::SpreadFilterState& state() const { return state_; }

 private:
  const PodInfo& incoming_;
  plugins::SpreadFilterState state_;
};

}  // namespace

PodTopologySpread::PodTopologySpread(ClusterModel& model)
    : model_(model),
      constraints_not_match_(model.reasons().Intern(plugins::kErrReasonConstraintsNotMatch)),
      node_label_not_match_(model.reasons().Intern(plugins::kErrReasonNodeLabelNotMatch)) {}

bool PodTopologySpread::PreFilter(const PodInfo& pod, AffinityState& state) {
  const auto& constraints = pod.pod.spec.topology_spread_constraints;
  const bool any = std::any_of(constraints.begin(), constraints.end(), [](const TopologySpreadConstraint& c) {
    return c.when_unsatisfiable == UnsatisfiableConstraintAction::kDoNotSchedule;
  });
  if (!any) return false;
  // calPreFilterState over every node and the pods placed there (assumed pods included).
  plugins::SpreadView view;
  view.nodes.reserve(model_.nodes().size());
  for (NodeId n : model_.nodes().ids()) {
    const NodeInfo& node = model_.node(n);
    view.nodes.push_back(SpreadNodeViewOf(pod, node));
    for (PodId other : node.pods) {
      view.pods.push_back(PodView(model_.pod(other), n));
    }
  }
  state.pod = &pod;
  state.spread = std::make_unique<SpreadCycleState>(pod, plugins::PodTopologySpreadPreFilter(pod.pod, view));
  return true;
}

Status PodTopologySpread::Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const {
  if (in.affinity == nullptr || !in.affinity->spread) return Status::Success();
  // Only this plugin sets `spread`.
  const auto& spread = static_cast<const SpreadCycleState&>(*in.affinity->spread);
  const plugins::FilterResult r = plugins::PodTopologySpreadFilter(spread.state(), pod.pod, node.api->meta.labels);
  if (r.IsSuccess()) return Status::Success();
  const bool unresolvable = r.code == plugins::FilterCode::kUnschedulableAndUnresolvable;
  Status s(unresolvable ? Code::kUnschedulableAndUnresolvable : Code::kUnschedulable, PluginId::kPodTopologySpread);
  s.AddReason(unresolvable ? node_label_not_match_ : constraints_not_match_);
  return s;
}

}  // namespace kpsim::engine
