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
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "framework/plugin.h"
#include "kpsim/api/types.h"
#include "plugins/pod_classes.h"
#include "snapshot/cluster.h"

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

namespace kpsim::engine {

// InterPodAffinity's score in the cycle (weight 2). PreScore builds upstream's topology score
// over the pods on the model's nodes as they are now (pods Assume'd in a pod-group cycle
// included), Score sums it per node, NormalizeScore ranges over the feasible nodes.
//
// Upstream walks every pod of every node when the incoming pod has preferred terms, else the
// pods with affinity (`HavePodsWithAffinityList`), on every cycle. We keep the bound pods grouped
// into classes of what `processExistingPod` reads of them (namespace, labels, pod (anti-)affinity
// terms) with their count per node, caught up from the model's change log: a term is matched
// once per class and added `count` times per node, which sums to the same topology score.
// The classes are a cache of the model (rebuilt from its change log, never a source of truth);
// with NDEBUG unset every topology score is checked against `InterPodAffinityPreScore` over
// every pod.
class InterPodAffinityScore final : public ScorePlugin {
 public:
  explicit InterPodAffinityScore(ClusterModel& model);
  std::string_view name() const override { return plugins::kInterPodAffinityName; }
  // Mirrors `InterPodAffinity.PreScore`: Skip (every node 0) when the pod has no preferred
  // (anti-)affinity terms and no bound pod has pod (anti-)affinity terms, or when no term
  // counts anywhere (an empty topology score).
  void PreScore(const PodInfo& pod, std::span<const NodeId> feasible) override;
  std::int64_t Score(const PodInfo& pod, NodeId node_id, const NodeInfo& node) const override;
  bool Uniform() const override { return skip_; }

 private:
  // `processTerm` for every node of `cls`: adds `weight * multiplier` per pod of the class to
  // the node's value of the term's topology key, when `matches`.
  void AddTerm(const PodClasses::Class& cls, const PodAffinityTerm& term, std::int64_t weight,
               std::int64_t multiplier);

  ClusterModel& model_;
  plugins::NamespaceLabelsFn namespace_labels_;
  // Bound pods alike for `processExistingPod` (same namespace, labels and affinity), flagged
  // when they have pod (anti-)affinity terms (upstream `podWithAffinity`).
  PodClasses classes_;
  bool any_affinity_ = false;  // some pod of the model has pod (anti-)affinity terms
  // This cycle.
  bool skip_ = true;
  plugins::TopologyScore topology_score_;
  IdVector<NodeId, std::int64_t> scores_;  // normalized (feasible nodes only)
};

}  // namespace kpsim::engine
