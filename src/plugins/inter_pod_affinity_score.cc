#include "plugins/inter_pod_affinity_score.h"

#include <algorithm>
#include <cassert>

#include "plugins/scores.h"

namespace kpsim::plugins {

namespace {

const Labels kNoLabels;

// Mirrors `scoreMap.processTerm`: adds `weight * multiplier` to the topology value of
// `node_labels` when `target` matches `term`.
void ProcessTerm(TopologyScore& score, const PodAffinityTerm& term, std::string_view owner_ns,
                 std::int64_t weight, const AffinityPodView& target, const Labels& node_labels,
                 std::int64_t multiplier, const NamespaceLabelsFn& namespace_labels) {
  if (node_labels.empty()) return;
  const std::string* value = FindLabel(node_labels, term.topology_key);
  if (value == nullptr) return;
  if (!AffinityTermMatches(term, owner_ns, target, namespace_labels)) return;
  auto key = score.find(term.topology_key);
  if (key == score.end()) key = score.try_emplace(term.topology_key).first;
  key->second[*value] += weight * multiplier;
}

void ProcessWeightedTerms(TopologyScore& score, const std::vector<WeightedPodAffinityTerm>& terms,
                          std::string_view owner_ns, const AffinityPodView& target,
                          const Labels& node_labels, std::int64_t multiplier,
                          const NamespaceLabelsFn& namespace_labels) {
  for (const WeightedPodAffinityTerm& weighted : terms) {
    ProcessTerm(score, weighted.term, owner_ns, weighted.weight, target, node_labels, multiplier,
                namespace_labels);
  }
}

}  // namespace

AffinityPodView MakeAffinityPodView(const Pod& pod, int node_index) {
  return {pod.meta.namespace_, &pod.meta.labels, &pod.spec.affinity, node_index};
}

bool AffinityTermMatches(const PodAffinityTerm& term, std::string_view owner_namespace,
                         const AffinityPodView& target, const NamespaceLabelsFn& namespace_labels) {
  return term.Matches(owner_namespace, target.namespace_, *target.labels,
                      [&](std::string_view name) -> const Labels& {
                        const Labels* labels = namespace_labels ? namespace_labels(name) : nullptr;
                        return labels ? *labels : kNoLabels;
                      });
}

// Mirrors `InterPodAffinity.PreScore` + `processExistingPod`.
TopologyScore InterPodAffinityPreScore(const AffinityPodView& incoming,
                                       const InterPodAffinityView& view,
                                       std::int32_t hard_pod_affinity_weight) {
  TopologyScore score;
  const Affinity& mine = *incoming.affinity;
  for (const AffinityPodView& existing : view.pods) {
    if (existing.node_index < 0 ||
        static_cast<std::size_t>(existing.node_index) >= view.node_labels.size()) {
      continue;
    }
    const Labels& node_labels = *view.node_labels[static_cast<std::size_t>(existing.node_index)];
    const Affinity& theirs = *existing.affinity;
    // 1) and 2): the incoming pod's preferred terms against the existing pod.
    ProcessWeightedTerms(score, mine.pod_affinity_preferred, incoming.namespace_, existing,
                         node_labels, 1, view.namespace_labels);
    ProcessWeightedTerms(score, mine.pod_anti_affinity_preferred, incoming.namespace_, existing,
                         node_labels, -1, view.namespace_labels);
    // 3) The existing pod's required affinity terms against the incoming pod.
    if (hard_pod_affinity_weight > 0) {
      for (const PodAffinityTerm& term : theirs.pod_affinity_required) {
        ProcessTerm(score, term, existing.namespace_, hard_pod_affinity_weight, incoming,
                    node_labels, 1, view.namespace_labels);
      }
    }
    // 4) and 5): the existing pod's preferred terms against the incoming pod.
    ProcessWeightedTerms(score, theirs.pod_affinity_preferred, existing.namespace_, incoming,
                         node_labels, 1, view.namespace_labels);
    ProcessWeightedTerms(score, theirs.pod_anti_affinity_preferred, existing.namespace_, incoming,
                         node_labels, -1, view.namespace_labels);
  }
  return score;
}

// Mirrors `InterPodAffinity.Score`.
std::int64_t InterPodAffinityScore(const TopologyScore& topology_score, const Labels& node_labels) {
  std::int64_t score = 0;
  for (const auto& [key, values] : topology_score) {
    const std::string* value = FindLabel(node_labels, key);
    if (value == nullptr) continue;
    auto it = values.find(*value);
    if (it != values.end()) score += it->second;
  }
  return score;
}

// Mirrors `InterPodAffinity.NormalizeScore`.
void InterPodAffinityNormalizeScore(const TopologyScore& topology_score,
                                    std::vector<std::int64_t>& scores) {
  if (topology_score.empty()) return;
  std::int64_t max_count = 0;
  std::int64_t min_count = 0;
  for (std::int64_t s : scores) {
    max_count = std::max(max_count, s);
    min_count = std::min(min_count, s);
  }
  const std::int64_t diff = max_count - min_count;
  for (std::int64_t& s : scores) {
    double f = 0;
    if (diff > 0) {
      f = static_cast<double>(kMaxNodeScore) *
          (static_cast<double>(s - min_count) / static_cast<double>(diff));
    }
    s = static_cast<std::int64_t>(f);
  }
}

}  // namespace kpsim::plugins

namespace kpsim::engine {

namespace {

bool HasPodAffinityTerms(const Affinity& a) {
  return !a.pod_affinity_required.empty() || !a.pod_anti_affinity_required.empty() ||
         !a.pod_affinity_preferred.empty() || !a.pod_anti_affinity_preferred.empty();
}

}  // namespace

InterPodAffinityScore::InterPodAffinityScore(ClusterModel& model)
    : model_(model),
      classes_(
          model, NamespaceAndLabels,
          [](const Pod& a, const Pod& b) { return a.spec.affinity == b.spec.affinity; }, nullptr,
          [](const Pod& pod) { return HasPodAffinityTerms(pod.spec.affinity); }) {
  namespace_labels_ = [this](std::string_view ns) -> const Labels* {
    return &model_.NamespaceLabels(std::string(ns));
  };
  // Pods created later are replacements, copies of existing pods' specs.
  any_affinity_ = std::any_of(model_.pods().begin(), model_.pods().end(),
                              [](const PodInfo& p) { return HasPodAffinityTerms(p.pod.spec.affinity); });
}

void InterPodAffinityScore::AddTerm(const PodClasses::Class& cls, const PodAffinityTerm& term,
                                    std::int64_t weight, std::int64_t multiplier) {
  for (const auto& [node_id, count] : cls.nodes) {
    const Labels& node_labels = model_.node(node_id).api->meta.labels;
    if (node_labels.empty()) continue;  // processExistingPod: a node without labels counts nothing
    const std::string* value = FindLabel(node_labels, term.topology_key);
    if (value == nullptr) continue;
    auto key = topology_score_.find(term.topology_key);
    if (key == topology_score_.end()) key = topology_score_.try_emplace(term.topology_key).first;
    key->second[*value] += weight * multiplier * count;
  }
}

// Mirrors `InterPodAffinity.PreScore` with `processExistingPod` per class (see the class comment),
// then `Score` and `NormalizeScore` over the feasible nodes.
void InterPodAffinityScore::PreScore(const PodInfo& pod, std::span<const NodeId> feasible) {
  topology_score_.clear();
  const Affinity& mine = pod.pod.spec.affinity;
  const bool has_constraints =
      !mine.pod_affinity_preferred.empty() || !mine.pod_anti_affinity_preferred.empty();
  skip_ = !has_constraints && !any_affinity_;
  if (skip_) return;
  classes_.CatchUp();
  skip_ = !has_constraints && classes_.flagged_total() == 0;
  if (skip_) return;
  const plugins::AffinityPodView incoming = plugins::MakeAffinityPodView(pod.pod);
  for (const PodClasses::Class& cls : classes_.classes()) {
    if (cls.nodes.empty() || (!has_constraints && !cls.flagged)) continue;
    const Pod& existing = model_.pod(cls.representative).pod;
    const plugins::AffinityPodView theirs_view = plugins::MakeAffinityPodView(existing);
    // 1) and 2): the incoming pod's preferred terms against the existing pods.
    for (const WeightedPodAffinityTerm& t : mine.pod_affinity_preferred) {
      if (plugins::AffinityTermMatches(t.term, incoming.namespace_, theirs_view, namespace_labels_)) {
        AddTerm(cls, t.term, t.weight, 1);
      }
    }
    for (const WeightedPodAffinityTerm& t : mine.pod_anti_affinity_preferred) {
      if (plugins::AffinityTermMatches(t.term, incoming.namespace_, theirs_view, namespace_labels_)) {
        AddTerm(cls, t.term, t.weight, -1);
      }
    }
    if (!cls.flagged) continue;
    // 3) The existing pods' required affinity terms, with hardPodAffinityWeight.
    const Affinity& theirs = existing.spec.affinity;
    for (const PodAffinityTerm& term : theirs.pod_affinity_required) {
      if (plugins::AffinityTermMatches(term, existing.meta.namespace_, incoming, namespace_labels_)) {
        AddTerm(cls, term, plugins::kDefaultHardPodAffinityWeight, 1);
      }
    }
    // 4) and 5): the existing pods' preferred terms against the incoming pod.
    for (const WeightedPodAffinityTerm& t : theirs.pod_affinity_preferred) {
      if (plugins::AffinityTermMatches(t.term, existing.meta.namespace_, incoming, namespace_labels_)) {
        AddTerm(cls, t.term, t.weight, 1);
      }
    }
    for (const WeightedPodAffinityTerm& t : theirs.pod_anti_affinity_preferred) {
      if (plugins::AffinityTermMatches(t.term, existing.meta.namespace_, incoming, namespace_labels_)) {
        AddTerm(cls, t.term, t.weight, -1);
      }
    }
  }
#ifndef NDEBUG
  {
    // The classes are an optimisation of upstream's walk over every pod, nothing else.
    plugins::InterPodAffinityView view;
    for (const NodeInfo& node : model_.nodes()) view.node_labels.push_back(&node.api->meta.labels);
    for (NodeId id : model_.node_order()) {
      for (PodId p : model_.node(id).pods) {
        view.pods.push_back(plugins::MakeAffinityPodView(model_.pod(p).pod, id.value()));
      }
    }
    view.namespace_labels = namespace_labels_;
    assert(plugins::InterPodAffinityPreScore(incoming, view) == topology_score_ &&
           "the pod classes disagree with InterPodAffinityPreScore over every pod");
  }
#endif
  skip_ = topology_score_.empty();
  if (skip_) return;
  std::vector<std::int64_t> raw;
  raw.reserve(feasible.size());
  for (NodeId id : feasible) {
    raw.push_back(plugins::InterPodAffinityScore(
        topology_score_, model_.node(id).api->meta.labels));
  }
  plugins::InterPodAffinityNormalizeScore(topology_score_, raw);
  scores_.resize(model_.nodes().size());
  for (std::size_t i = 0; i < feasible.size(); ++i) scores_[feasible[i]] = raw[i];
}

std::int64_t InterPodAffinityScore::Score(const PodInfo& /*pod*/, NodeId node_id,
                                          const NodeInfo& /*node*/) const {
  return skip_ ? 0 : scores_[node_id];
}

}  // namespace kpsim::engine
