#include "framework/cycle_state.h"

#include <algorithm>

namespace kpsim::engine {

bool AllAffinityTermsMatch(ClusterModel& model, const PodInfo& owner, const PodInfo& other) {
  const auto& terms = owner.pod.spec.affinity.pod_affinity_required;
  if (terms.empty()) return false;
  for (const PodAffinityTerm& term : terms) {
    if (!TermMatches(model, term, owner, other)) return false;
  }
  return true;
}

bool TermMatches(ClusterModel& model, const PodAffinityTerm& term, const PodInfo& owner,
                 const PodInfo& other) {
  return term.Matches(owner.pod.meta.namespace_, other.pod.meta.namespace_, other.pod.meta.labels,
                      [&](std::string_view) -> const Labels& {
                        return model.NamespaceLabels(other.pod.meta.namespace_);
                      });
}

AffinityState::AffinityState(const AffinityState& other)
    : pod(other.pod),
      inter_pod(other.inter_pod),
      affinity_counts(other.affinity_counts),
      anti_affinity_counts(other.anti_affinity_counts),
      existing_anti_affinity(other.existing_anti_affinity),
      spread(other.spread ? other.spread->Clone() : nullptr) {}

AffinityState& AffinityState::operator=(const AffinityState& other) {
  if (this != &other) *this = AffinityState(other);
  return *this;
}

void AffinityState::AddPod(ClusterModel& model, const PodInfo& other, const NodeInfo& node,
                           int delta) {
  if (inter_pod) AddAffinityPod(model, other, node, delta);
  if (spread) spread->AddPod(other, node, delta);
}

void AffinityState::AddAffinityPod(ClusterModel& model, const PodInfo& other, const NodeInfo& node,
                                   int delta) {
  const Labels& node_labels = node.api->meta.labels;
  auto bump = [delta](std::map<TopologyPair, int>& counts, const std::string& key,
                      const std::string& value) {
    auto [it, inserted] = counts.try_emplace(TopologyPair{key, value}, 0);
    it->second += delta;
    if (it->second == 0) counts.erase(it);
  };
  // The incoming pod's own terms.
  if (AllAffinityTermsMatch(model, *pod, other)) {
    for (const PodAffinityTerm& term : pod->pod.spec.affinity.pod_affinity_required) {
      if (const std::string* v = FindLabel(node_labels, term.topology_key)) {
        bump(affinity_counts, term.topology_key, *v);
      }
    }
  }
  for (const PodAffinityTerm& term : pod->pod.spec.affinity.pod_anti_affinity_required) {
    if (!TermMatches(model, term, *pod, other)) continue;
    if (const std::string* v = FindLabel(node_labels, term.topology_key)) {
      bump(anti_affinity_counts, term.topology_key, *v);
    }
  }
  // The other pod's anti-affinity against the incoming pod (symmetry).
  for (const PodAffinityTerm& term : other.pod.spec.affinity.pod_anti_affinity_required) {
    if (!TermMatches(model, term, other, *pod)) continue;
    if (const std::string* v = FindLabel(node_labels, term.topology_key)) {
      bump(existing_anti_affinity, term.topology_key, *v);
    }
  }
}

}  // namespace kpsim::engine
