#pragma once

// PodTopologySpread (filter, and score with weight 2 in the default profile): spreads pods that
// match a constraint's selector evenly across the constraint's topology domains.
// Mirrors pkg/scheduler/framework/plugins/podtopologyspread/: common.go
// (`filterTopologySpreadConstraints`, `matchNodeInclusionPolicies`,
// `nodeLabelsMatchSpreadConstraints`, `countPodsMatchSelector`), filtering.go (`PreFilter`,
// `calPreFilterState`, `updateWithPod`, `Filter`, `minMatchNum`) and scoring.go (`PreScore`,
// `initPreScoreState`, `Score`, `NormalizeScore`), with v1.37 semantics: node inclusion
// policies and minDomains are GA; match counts and critical paths are kept per constraint
// (older code keyed them by topology key); matchLabelKeys is merged into the selector here
// (v1.34+ apiservers merge it at creation already; merging twice ANDs the same requirement).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/api/types.h"
#include "plugins/filter_result.h"

namespace kpsim::plugins {

inline constexpr std::string_view kPodTopologySpreadName = "PodTopologySpread";
// Upstream `ErrReasonConstraintsNotMatch` and `ErrReasonNodeLabelNotMatch`.
inline constexpr std::string_view kErrReasonConstraintsNotMatch =
    "node(s) didn't match pod topology spread constraints";
inline constexpr std::string_view kErrReasonNodeLabelNotMatch =
    "node(s) didn't match pod topology spread constraints (missing required label)";
inline constexpr std::string_view kLabelHostname = "kubernetes.io/hostname";
inline constexpr std::string_view kLabelTopologyZone = "topology.kubernetes.io/zone";

// What the plugin reads of one node. `labels` is never null; `taints` may be (no taints).
struct SpreadNodeView {
  const Labels* labels = nullptr;
  const std::vector<Taint>* taints = nullptr;
  // Whether the incoming pod's nodeSelector and required node affinity match the node
  // (upstream `RequiredNodeAffinity.Match`); computed by the caller, per incoming pod.
  bool matches_node_affinity = true;
};

// What the plugin reads of one placed pod; pointers borrow from the caller.
struct SpreadPodView {
  std::string_view namespace_;
  const Labels* labels = nullptr;
  int node_index = -1;       // into `SpreadView::nodes`; out of range: ignored
  bool terminating = false;  // metadata.deletionTimestamp set: never counted
  // How many pods alike (same namespace and labels, none terminating) on this node the entry
  // stands for: lets a caller that keeps pods grouped pass each group once per node.
  std::int64_t count = 1;
};
SpreadPodView MakeSpreadPodView(const Pod& pod, int node_index);

struct SpreadView {
  std::vector<SpreadNodeView> nodes;
  std::vector<SpreadPodView> pods;
};

// A constraint after `filterTopologySpreadConstraints`: defaults applied (minDomains 1,
// nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore) and matchLabelKeys merged into the
// selector. An unset selector matches nothing.
struct SpreadConstraint {
  std::int32_t max_skew = 0;
  std::string topology_key;
  std::optional<LabelSelector> selector;
  std::int32_t min_domains = 1;
  NodeInclusionPolicy node_affinity_policy = NodeInclusionPolicy::kHonor;
  NodeInclusionPolicy node_taints_policy = NodeInclusionPolicy::kIgnore;
  bool Selects(const Labels& labels) const { return selector && selector->Matches(labels); }
};

// `filterTopologySpreadConstraints`: the pod's constraints with action `action`.
std::vector<SpreadConstraint> BuildSpreadConstraints(const Pod& pod,
                                                     UnsatisfiableConstraintAction action);

// `systemDefaultConstraints` (hostname maxSkew 3, zone maxSkew 5, both ScheduleAnyway) with
// `selector`, the one upstream's `helper.DefaultSelector` builds from the services, replication
// controllers, replica sets and stateful sets selecting the pod. None when `selector` is unset
// or empty (`buildDefaultConstraints`).
std::vector<SpreadConstraint> DefaultSpreadConstraints(
    const std::optional<LabelSelector>& selector);

// `helper.DefaultSelector`: the selectors of the Services of the pod's namespace that select it
// (an unset Service selector selects nothing, an empty one everything), merged, and the selector
// of the pod's controller (its ownerReference with controller: true) when that is an apps/v1
// ReplicaSet or StatefulSet of `controllers` in the pod's namespace. Unset when nothing selects
// the pod. ReplicationControllers are not modelled.
std::optional<LabelSelector> DefaultSpreadSelector(const Pod& pod,
                                                   const std::vector<const Service*>& services,
                                                   const std::vector<PodController>& controllers);

// `matchNodeInclusionPolicies` for the incoming pod (`tolerations`) and one node.
bool MatchNodeInclusionPolicies(const SpreadConstraint& constraint, const SpreadNodeView& node,
                                const std::vector<Toleration>& tolerations);

// Filter state (upstream `preFilterState`): per constraint, topology value -> number of
// matching pods over the eligible nodes, and the minimum of those counts.
struct SpreadFilterState {
  std::vector<SpreadConstraint> constraints;
  std::vector<std::map<std::string, std::int64_t, std::less<>>> tp_value_to_match_num;
  std::vector<std::int64_t> min_match_num;  // INT32_MAX when a constraint has no domain

  bool empty() const { return constraints.empty(); }
  // `updateWithPod` (PreFilterExtensions AddPod/RemovePod, used by preemption): counts
  // `pod` on `node` with `delta` (+1 added, -1 removed) for the `incoming` pod's constraints.
  void UpdateWithPod(const Pod& incoming, const SpreadPodView& pod, const SpreadNodeView& node,
                     int delta);
};

// `PreFilter` / `calPreFilterState`: counts, over every node that has all the constraints'
// topology keys and passes each constraint's inclusion policies, the non-terminating pods of
// the incoming pod's namespace its selector matches. Only DoNotSchedule constraints of the
// pod itself (the system defaults are all ScheduleAnyway); empty state: Filter passes.
SpreadFilterState PodTopologySpreadPreFilter(const Pod& incoming, const SpreadView& view);

// `Filter`: for each constraint, `kUnschedulableAndUnresolvable` with
// `kErrReasonNodeLabelNotMatch` when the node lacks the topology key; `kUnschedulable` with
// `kErrReasonConstraintsNotMatch` when matchNum + selfMatch - minMatch > maxSkew, where
// minMatch is 0 while fewer domains than minDomains exist (`minMatchNum`).
FilterResult PodTopologySpreadFilter(const SpreadFilterState& state, const Pod& incoming,
                                     const Labels& node_labels);

// Score state (upstream `preScoreState`).
struct SpreadScoreState {
  std::vector<SpreadConstraint> constraints;
  std::vector<bool> ignored;  // by node index: scored 0 (missing a topology key)
  // Per constraint: topology value -> matching pods (not for the hostname key).
  std::vector<std::map<std::string, std::int64_t, std::less<>>> tp_value_to_pod_counts;
  // Per hostname constraint: node index -> matching pods on that node.
  std::vector<std::vector<std::int64_t>> per_node_counts;
  std::vector<double> topology_normalizing_weight;
  bool empty() const { return constraints.empty(); }  // upstream returns Skip
};

// `PreScore` + `initPreScoreState`: the pod's ScheduleAnyway constraints, or, when it has no
// constraints at all, `DefaultSpreadConstraints(default_selector)`. `filtered_nodes` are the
// indices of the nodes that passed Filter. With explicit constraints (or `system_defaulted`
// false) nodes missing a topology key are ignored; the system defaults require none.
SpreadScoreState PodTopologySpreadPreScore(const Pod& incoming, const SpreadView& view,
                                           const std::vector<int>& filtered_nodes,
                                           const std::optional<LabelSelector>& default_selector,
                                           bool system_defaulted = true);

// `Score` for node `node_index`: round(sum over constraints the node has the key of
// count * log(domains + 2) + maxSkew - 1); 0 for an ignored node.
std::int64_t PodTopologySpreadScore(const SpreadScoreState& state, const SpreadView& view,
                                    int node_index);

// `NormalizeScore`: `scores[k]` belongs to `filtered_nodes[k]`. Ignored nodes get 0; if the
// highest score is 0 every other node gets 100; else 100 * (max + min - s) / max.
void PodTopologySpreadNormalizeScore(const SpreadScoreState& state,
                                     const std::vector<int>& filtered_nodes,
                                     std::vector<std::int64_t>& scores);

}  // namespace kpsim::plugins
