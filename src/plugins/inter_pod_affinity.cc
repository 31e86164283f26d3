#include "plugins/inter_pod_affinity.h"

namespace kpsim::engine {

InterPodAffinity::InterPodAffinity(ClusterModel& model)
    : model_(model),
      affinity_rules_(model.reasons().Intern("node(s) didn't match pod affinity rules")),
      anti_affinity_rules_(model.reasons().Intern("node(s) didn't match pod anti-affinity rules")),
      existing_anti_affinity_(
          model.reasons().Intern("node(s) didn't satisfy existing pods anti-affinity rules")) {}

bool InterPodAffinity::PreFilter(const PodInfo& pod, AffinityState& state) {
  if (!pod.has_pod_affinity && model_.bound_pods_with_affinity() == 0) return false;
  state.pod = &pod;
  state.inter_pod = true;
  for (NodeId id : model_.node_order()) {
    const NodeInfo& node = model_.node(id);
    for (PodId other : node.pods) {
      const PodInfo& o = model_.pod(other);
      if (&o == &pod) continue;
      state.AddAffinityPod(model_, o, node, +1);
    }
  }
  return true;
}

Status InterPodAffinity::Filter(const PodInfo& /*pod*/, const NodeInfo& node,
                                const FilterInput& in) const {
  if (in.affinity == nullptr || !in.affinity->inter_pod) return Status::Success();
  const AffinityState& state = *in.affinity;
  const Labels& labels = node.api->meta.labels;
  const PodInfo& pod = *state.pod;
  // satisfyPodAffinity.
  const auto& affinity = pod.pod.spec.affinity.pod_affinity_required;
  if (!affinity.empty()) {
    bool pods_exist = true;
    bool keys_present = true;
    for (const PodAffinityTerm& term : affinity) {
      const std::string* v = FindLabel(labels, term.topology_key);
      if (v == nullptr) {
        keys_present = false;
        break;
      }
      auto it = state.affinity_counts.find({term.topology_key, *v});
      if (it == state.affinity_counts.end() || it->second <= 0) pods_exist = false;
    }
    bool ok = keys_present && pods_exist;
    if (keys_present && !pods_exist && state.affinity_counts.empty()) {
      // The first pod of a series with affinity to itself.
      ok = AllAffinityTermsMatch(model_, pod, pod);
    }
    if (!ok) {
      Status s(Code::kUnschedulableAndUnresolvable, PluginId::kInterPodAffinity);
      s.AddReason(affinity_rules_);
      return s;
    }
  }
  for (const PodAffinityTerm& term : pod.pod.spec.affinity.pod_anti_affinity_required) {
    const std::string* v = FindLabel(labels, term.topology_key);
    if (v == nullptr) continue;
    auto it = state.anti_affinity_counts.find({term.topology_key, *v});
    if (it != state.anti_affinity_counts.end() && it->second > 0) {
      Status s(Code::kUnschedulable, PluginId::kInterPodAffinity);
      s.AddReason(anti_affinity_rules_);
      return s;
    }
  }
  if (!state.existing_anti_affinity.empty()) {
    for (const auto& [key, value] : labels) {
      auto it = state.existing_anti_affinity.find({key, value});
      if (it != state.existing_anti_affinity.end() && it->second > 0) {
        Status s(Code::kUnschedulable, PluginId::kInterPodAffinity);
        s.AddReason(existing_anti_affinity_);
        return s;
      }
    }
  }
  return Status::Success();
}

}  // namespace kpsim::engine
