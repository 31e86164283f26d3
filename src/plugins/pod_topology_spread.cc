#include "plugins/pod_topology_spread.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "plugins/scores.h"

namespace kpsim::plugins {

namespace {

constexpr std::int64_t kNoDomainMin = std::numeric_limits<std::int32_t>::max();

bool ValidNode(const SpreadView& view, int node_index) {
  return node_index >= 0 && static_cast<std::size_t>(node_index) < view.nodes.size();
}

// Mirrors `nodeLabelsMatchSpreadConstraints`: the node has every constraint's topology key.
bool HasAllTopologyKeys(const Labels& labels, const std::vector<SpreadConstraint>& constraints) {
  return std::all_of(constraints.begin(), constraints.end(), [&](const SpreadConstraint& c) {
    return FindLabel(labels, c.topology_key) != nullptr;
  });
}

// Mirrors `countPodsMatchSelector` for one pod: not terminating, same namespace, selected.
bool CountsFor(const SpreadConstraint& c, const SpreadPodView& pod, std::string_view ns) {
  return !pod.terminating && pod.namespace_ == ns && c.Selects(*pod.labels);
}

// The pods of `view` grouped by node index.
std::vector<std::vector<const SpreadPodView*>> PodsByNode(const SpreadView& view) {
  std::vector<std::vector<const SpreadPodView*>> by_node(view.nodes.size());
  for (const SpreadPodView& pod : view.pods) {
    if (ValidNode(view, pod.node_index)) {
      by_node[static_cast<std::size_t>(pod.node_index)].push_back(&pod);
    }
  }
  return by_node;
}

std::int64_t CountOnNode(const SpreadConstraint& c, const std::vector<const SpreadPodView*>& pods,
                         std::string_view ns) {
  std::int64_t count = 0;
  for (const SpreadPodView* pod : pods) {
    if (CountsFor(c, *pod, ns)) count += pod->count;
  }
  return count;
}

std::int64_t MinOf(const std::map<std::string, std::int64_t, std::less<>>& counts) {
  std::int64_t min = kNoDomainMin;
  for (const auto& [value, count] : counts) min = std::min(min, count);
  return min;
}

SpreadConstraint Convert(const TopologySpreadConstraint& c, const Labels& pod_labels) {
  SpreadConstraint out;
  out.max_skew = c.max_skew;
  out.topology_key = c.topology_key;
  out.selector = c.label_selector;
  out.min_domains = c.min_domains.value_or(1);
  out.node_affinity_policy = c.node_affinity_policy.value_or(NodeInclusionPolicy::kHonor);
  out.node_taints_policy = c.node_taints_policy.value_or(NodeInclusionPolicy::kIgnore);
  // `mergeLabelSetWithSelector`: each matchLabelKeys key the pod has becomes `key In (value)`;
  // an unset selector (labels.Nothing) stays unset.
  if (out.selector) {
    for (const std::string& key : c.match_label_keys) {
      if (const std::string* value = FindLabel(pod_labels, key)) {
        out.selector->match_expressions.push_back({key, SelectorOperator::kIn, {*value}});
      }
    }
  }
  return out;
}

}  // namespace

SpreadPodView MakeSpreadPodView(const Pod& pod, int node_index) {
  return {pod.meta.namespace_, &pod.meta.labels, node_index,
          pod.meta.deletion_timestamp.has_value()};
}

// Mirrors `filterTopologySpreadConstraints`.
std::vector<SpreadConstraint> BuildSpreadConstraints(const Pod& pod,
                                                     UnsatisfiableConstraintAction action) {
  std::vector<SpreadConstraint> out;
  for (const TopologySpreadConstraint& c : pod.spec.topology_spread_constraints) {
    if (c.when_unsatisfiable == action) out.push_back(Convert(c, pod.meta.labels));
  }
  return out;
}

// Mirrors `buildDefaultConstraints` over `systemDefaultConstraints`.
std::vector<SpreadConstraint> DefaultSpreadConstraints(
    const std::optional<LabelSelector>& selector) {
  if (!selector || selector->IsEmpty()) return {};
  SpreadConstraint hostname;
  hostname.max_skew = 3;
  hostname.topology_key = std::string(kLabelHostname);
  hostname.selector = selector;
  SpreadConstraint zone = hostname;
  zone.max_skew = 5;
  zone.topology_key = std::string(kLabelTopologyZone);
  return {hostname, zone};
}

// Mirrors `helper.DefaultSelector` (pkg/scheduler/framework/plugins/helper/spread.go) with
// `GetPodServices`: the Services' selectors merge into one label set; a ReplicaSet's or
// StatefulSet's selector adds its requirements (`selector.Add`), its matchLabels as `In`.
std::optional<LabelSelector> DefaultSpreadSelector(const Pod& pod,
                                                   const std::vector<const Service*>& services,
                                                   const std::vector<PodController>& controllers) {
  LabelSelector out;
  for (const Service* service : services) {
    if (service->meta.namespace_ != pod.meta.namespace_ || !service->selector) continue;
    const LabelSelector selects{*service->selector, {}};
    if (!selects.Matches(pod.meta.labels)) continue;
    for (const auto& label : *service->selector) {
      auto it = std::find_if(out.match_labels.begin(), out.match_labels.end(),
                             [&](const auto& have) { return have.first == label.first; });
      if (it == out.match_labels.end()) {
        out.match_labels.push_back(label);
      } else {
        it->second = label.second;  // labels.Merge: the later Service wins (both match the pod)
      }
    }
  }
  std::sort(out.match_labels.begin(), out.match_labels.end());
  // metav1.GetControllerOfNoCopy: the first ownerReference with controller: true.
  const auto owner = std::find_if(pod.meta.owner_references.begin(), pod.meta.owner_references.end(),
                                  [](const OwnerReference& ref) { return ref.controller; });
  if (owner != pod.meta.owner_references.end() && owner->api_version == "apps/v1") {
    for (const PodController& c : controllers) {
      if (c.kind != owner->kind || c.name != owner->name || c.namespace_ != pod.meta.namespace_) continue;
      // A nil selector is labels.Nothing(), whose requirements are not added.
      if (c.selector) {
        for (const auto& [key, value] : c.selector->match_labels) {
          out.match_expressions.push_back({key, SelectorOperator::kIn, {value}});
        }
        out.match_expressions.insert(out.match_expressions.end(),
                                     c.selector->match_expressions.begin(),
                                     c.selector->match_expressions.end());
      }
      break;
    }
  }
  if (out.IsEmpty()) return std::nullopt;
  return out;
}

// Mirrors `topologySpreadConstraint.matchNodeInclusionPolicies` (taints: NoSchedule and
// NoExecute, as `helper.DoNotScheduleTaintsFilterFunc`).
bool MatchNodeInclusionPolicies(const SpreadConstraint& constraint, const SpreadNodeView& node,
                                const std::vector<Toleration>& tolerations) {
  if (constraint.node_affinity_policy == NodeInclusionPolicy::kHonor &&
      !node.matches_node_affinity) {
    return false;
  }
  if (constraint.node_taints_policy == NodeInclusionPolicy::kHonor && node.taints != nullptr) {
    for (const Taint& taint : *node.taints) {
      if (taint.effect == TaintEffect::kPreferNoSchedule) continue;
      const bool tolerated = std::any_of(tolerations.begin(), tolerations.end(),
                                         [&](const Toleration& t) { return t.Tolerates(taint); });
      if (!tolerated) return false;
    }
  }
  return true;
}

// Mirrors `preFilterState.updateWithPod` (one pod: `pod.count` is not read).
void SpreadFilterState::UpdateWithPod(const Pod& incoming, const SpreadPodView& pod,
                                      const SpreadNodeView& node, int delta) {
  if (pod.namespace_ != incoming.meta.namespace_) return;
  if (!HasAllTopologyKeys(*node.labels, constraints)) return;
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    const SpreadConstraint& c = constraints[i];
    if (!c.Selects(*pod.labels)) continue;
    if (!MatchNodeInclusionPolicies(c, node, incoming.spec.tolerations)) continue;
    const std::string& value = *FindLabel(*node.labels, c.topology_key);
    tp_value_to_match_num[i][value] += delta;
    min_match_num[i] = MinOf(tp_value_to_match_num[i]);
  }
}

// Mirrors `PodTopologySpread.PreFilter` / `calPreFilterState`.
SpreadFilterState PodTopologySpreadPreFilter(const Pod& incoming, const SpreadView& view) {
  SpreadFilterState state;
  state.constraints =
      BuildSpreadConstraints(incoming, UnsatisfiableConstraintAction::kDoNotSchedule);
  if (state.constraints.empty()) return state;
  state.tp_value_to_match_num.resize(state.constraints.size());
  const auto by_node = PodsByNode(view);
  for (std::size_t n = 0; n < view.nodes.size(); ++n) {
    const SpreadNodeView& node = view.nodes[n];
    if (!HasAllTopologyKeys(*node.labels, state.constraints)) continue;
    for (std::size_t i = 0; i < state.constraints.size(); ++i) {
      const SpreadConstraint& c = state.constraints[i];
      if (!MatchNodeInclusionPolicies(c, node, incoming.spec.tolerations)) continue;
      const std::string& value = *FindLabel(*node.labels, c.topology_key);
      // A domain with no matching pod still counts (0) as a domain.
      state.tp_value_to_match_num[i][value] += CountOnNode(c, by_node[n], incoming.meta.namespace_);
    }
  }
  for (const auto& counts : state.tp_value_to_match_num)
    state.min_match_num.push_back(MinOf(counts));
  return state;
}

// Mirrors `PodTopologySpread.Filter` with `minMatchNum`.
FilterResult PodTopologySpreadFilter(const SpreadFilterState& state, const Pod& incoming,
                                     const Labels& node_labels) {
  for (std::size_t i = 0; i < state.constraints.size(); ++i) {
    const SpreadConstraint& c = state.constraints[i];
    const std::string* value = FindLabel(node_labels, c.topology_key);
    if (value == nullptr) {
      return {FilterCode::kUnschedulableAndUnresolvable, kErrReasonNodeLabelNotMatch};
    }
    const std::int64_t self_match = c.Selects(incoming.meta.labels) ? 1 : 0;
    const auto& counts = state.tp_value_to_match_num[i];
    std::int64_t min_match = state.min_match_num[i];
    if (static_cast<std::int64_t>(counts.size()) < c.min_domains) min_match = 0;
    auto it = counts.find(*value);
    const std::int64_t match_num = it == counts.end() ? 0 : it->second;
    if (match_num + self_match - min_match > c.max_skew) {
      return {FilterCode::kUnschedulable, kErrReasonConstraintsNotMatch};
    }
  }
  return {};
}

// Mirrors `PodTopologySpread.PreScore` + `initPreScoreState` (`topologyNormalizingWeight`).
SpreadScoreState PodTopologySpreadPreScore(const Pod& incoming, const SpreadView& view,
                                           const std::vector<int>& filtered_nodes,
                                           const std::optional<LabelSelector>& default_selector,
                                           bool system_defaulted) {
  SpreadScoreState state;
  const bool has_own = !incoming.spec.topology_spread_constraints.empty();
  state.constraints =
      has_own ? BuildSpreadConstraints(incoming, UnsatisfiableConstraintAction::kScheduleAnyway)
              : DefaultSpreadConstraints(default_selector);
  if (state.constraints.empty() || filtered_nodes.empty() || view.nodes.empty()) {
    state.constraints.clear();
    return state;
  }
  const bool require_all_topologies = has_own || !system_defaulted;
  const std::size_t k = state.constraints.size();
  state.ignored.assign(view.nodes.size(), false);
  state.tp_value_to_pod_counts.resize(k);
  state.per_node_counts.resize(k);
  // 1) Register the domains of the filtered nodes; ignore nodes missing a key.
  std::size_t ignored_count = 0;
  for (int n : filtered_nodes) {
    if (!ValidNode(view, n)) continue;
    const Labels& labels = *view.nodes[static_cast<std::size_t>(n)].labels;
    if (require_all_topologies && !HasAllTopologyKeys(labels, state.constraints)) {
      if (!state.ignored[static_cast<std::size_t>(n)]) ++ignored_count;
      state.ignored[static_cast<std::size_t>(n)] = true;
      continue;
    }
    for (std::size_t i = 0; i < k; ++i) {
      const SpreadConstraint& c = state.constraints[i];
      if (c.topology_key == kLabelHostname) continue;  // counted per node in Score
      // As upstream's `node.Labels[key]`, a node without the key (possible only under the
      // system defaults) registers the empty value: it widens the topology's weight, and the
      // node itself still scores nothing for that key.
      const std::string* value = FindLabel(labels, c.topology_key);
      state.tp_value_to_pod_counts[i].try_emplace(value ? *value : std::string(), 0);
    }
  }
  for (std::size_t i = 0; i < k; ++i) {
    const SpreadConstraint& c = state.constraints[i];
    const std::size_t size = c.topology_key == kLabelHostname
                                 ? filtered_nodes.size() - ignored_count
                                 : state.tp_value_to_pod_counts[i].size();
    state.topology_normalizing_weight.push_back(std::log(static_cast<double>(size + 2)));
  }
  // 2) Count matching pods over all nodes (`processAllNode`), in registered domains only;
  // hostname constraints count the pods on each node itself, as `Score` does.
  const auto by_node = PodsByNode(view);
  for (std::size_t n = 0; n < view.nodes.size(); ++n) {
    const SpreadNodeView& node = view.nodes[n];
    for (std::size_t i = 0; i < k; ++i) {
      const SpreadConstraint& c = state.constraints[i];
      if (c.topology_key != kLabelHostname) continue;
      if (state.per_node_counts[i].empty()) state.per_node_counts[i].assign(view.nodes.size(), 0);
      state.per_node_counts[i][n] = CountOnNode(c, by_node[n], incoming.meta.namespace_);
    }
    if (require_all_topologies && !HasAllTopologyKeys(*node.labels, state.constraints)) continue;
    for (std::size_t i = 0; i < k; ++i) {
      const SpreadConstraint& c = state.constraints[i];
      if (c.topology_key == kLabelHostname) continue;
      if (!MatchNodeInclusionPolicies(c, node, incoming.spec.tolerations)) continue;
      const std::string* value = FindLabel(*node.labels, c.topology_key);
      auto it = state.tp_value_to_pod_counts[i].find(value ? *value : std::string());
      if (it == state.tp_value_to_pod_counts[i].end()) continue;
      it->second += CountOnNode(c, by_node[n], incoming.meta.namespace_);
    }
  }
  return state;
}

// Mirrors `PodTopologySpread.Score` with `scoreForCount`.
std::int64_t PodTopologySpreadScore(const SpreadScoreState& state, const SpreadView& view,
                                    int node_index) {
  if (state.empty() || !ValidNode(view, node_index)) return 0;
  const auto n = static_cast<std::size_t>(node_index);
  if (state.ignored[n]) return 0;
  const Labels& labels = *view.nodes[n].labels;
  double score = 0;
  for (std::size_t i = 0; i < state.constraints.size(); ++i) {
    const SpreadConstraint& c = state.constraints[i];
    const std::string* value = FindLabel(labels, c.topology_key);
    if (value == nullptr) continue;
    std::int64_t count = 0;
    if (c.topology_key == kLabelHostname) {
      count = state.per_node_counts[i][n];
    } else {
      auto it = state.tp_value_to_pod_counts[i].find(*value);
      if (it != state.tp_value_to_pod_counts[i].end()) count = it->second;
    }
    score += static_cast<double>(count) * state.topology_normalizing_weight[i] +
             (static_cast<double>(c.max_skew) - 1);
  }
  return static_cast<std::int64_t>(std::round(score));
}

// Mirrors `PodTopologySpread.NormalizeScore`.
void PodTopologySpreadNormalizeScore(const SpreadScoreState& state,
                                     const std::vector<int>& filtered_nodes,
                                     std::vector<std::int64_t>& scores) {
  if (state.empty()) return;
  auto is_ignored = [&](std::size_t k) {
    if (k >= filtered_nodes.size()) return false;
    const int n = filtered_nodes[k];
    return n >= 0 && static_cast<std::size_t>(n) < state.ignored.size() &&
           state.ignored[static_cast<std::size_t>(n)];
  };
  std::int64_t min_score = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_score = 0;
  for (std::size_t k = 0; k < scores.size(); ++k) {
    if (is_ignored(k)) continue;
    min_score = std::min(min_score, scores[k]);
    max_score = std::max(max_score, scores[k]);
  }
  for (std::size_t k = 0; k < scores.size(); ++k) {
    if (is_ignored(k)) {
      scores[k] = 0;
    } else if (max_score == 0) {
      scores[k] = kMaxNodeScore;
    } else {
      scores[k] = kMaxNodeScore * (max_score + min_score - scores[k]) / max_score;
    }
  }
}

}  // namespace kpsim::plugins
