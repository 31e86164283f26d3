#pragma once

// InterPodAffinity's score (weight 2 in the default profile): nodes in the topology of pods the
// incoming pod prefers (or pods that require or prefer it) score up, nodes near pods it prefers
// to avoid (or that prefer to avoid it) score down; then min-max normalization to 0..100.
// Mirrors pkg/scheduler/framework/plugins/interpodaffinity/scoring.go: `PreScore` with
// `processExistingPod` / `processTerm`, `Score`, `NormalizeScore`. The plugin argument
// `ignorePreferredTermsOfExistingPods` is not modeled (its default, false, is what we do).

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim::plugins {

inline constexpr std::string_view kInterPodAffinityName = "InterPodAffinity";
// Upstream `InterPodAffinityArgs.HardPodAffinityWeight` default.
inline constexpr std::int32_t kDefaultHardPodAffinityWeight = 1;

// The labels of a namespace by name, or nullptr when unknown (read as no labels). Resolves
// `PodAffinityTerm::namespace_selector`.
using NamespaceLabelsFn = std::function<const Labels*(std::string_view namespace_name)>;

// What the plugin reads of one pod. The pointers borrow from the caller's objects and must
// outlive every call that takes the view; `labels` and `affinity` are never null.
struct AffinityPodView {
  std::string_view namespace_;
  const Labels* labels = nullptr;
  const Affinity* affinity = nullptr;
  int node_index = -1;  // into `InterPodAffinityView::node_labels`; -1 for the incoming pod
};
AffinityPodView MakeAffinityPodView(const Pod& pod, int node_index = -1);

// The cluster as the plugin sees it: each node's labels (by node index) and the pods placed on
// nodes (any order; a pod whose `node_index` is out of range is ignored).
struct InterPodAffinityView {
  std::vector<const Labels*> node_labels;
  std::vector<AffinityPodView> pods;
  NamespaceLabelsFn namespace_labels;  // may be empty: every namespace has no labels
};

// `AffinityTerm.Matches`: `target` is in the term's namespaces (the `owner_namespace` when the
// term names none and has no namespace selector; else the listed ones, or those the
// namespace selector matches) and its labels match the term's label selector (unset matches
// nothing, empty matches everything).
bool AffinityTermMatches(const PodAffinityTerm& term, std::string_view owner_namespace,
                         const AffinityPodView& target, const NamespaceLabelsFn& namespace_labels);

// upstream `scoreMap`: topology key -> topology value -> score. Ordered, so deterministic.
using TopologyScore = std::map<std::string, std::map<std::string, std::int64_t>, std::less<>>;

// `InterPodAffinity.PreScore`: for every existing pod on node N, (1) each preferred affinity
// term of `incoming` that the pod matches adds its weight to N's topology value, (2) each
// preferred anti-affinity term subtracts it, (3) each required affinity term of the existing
// pod that `incoming` matches adds `hard_pod_affinity_weight` (when > 0), (4) its preferred
// affinity terms matching `incoming` add their weight and (5) its preferred anti-affinity terms
// subtract it. A term counts only when N has labels and the term's topology key among them.
TopologyScore InterPodAffinityPreScore(
    const AffinityPodView& incoming, const InterPodAffinityView& view,
    std::int32_t hard_pod_affinity_weight = kDefaultHardPodAffinityWeight);

// `InterPodAffinity.Score`: the sum, over the topology keys of `topology_score` that the node
// has, of the score of the node's value.
std::int64_t InterPodAffinityScore(const TopologyScore& topology_score, const Labels& node_labels);

// `InterPodAffinity.NormalizeScore`: with an empty `topology_score`, `scores` are left alone
// (they are all 0); else each becomes 100 * (s - min) / (max - min) truncated, where max and
// min start at 0 (so an all-negative list still has max 0), and 0 when max == min.
void InterPodAffinityNormalizeScore(const TopologyScore& topology_score,
                                    std::vector<std::int64_t>& scores);

}  // namespace kpsim::plugins
