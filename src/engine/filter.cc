#include "engine/filter.h"

#include <algorithm>

#include <fmt/format.h>

namespace kpsim::engine {
namespace {

bool AllAffinityTermsMatch(ClusterModel& model, const PodInfo& owner, const PodInfo& other) {
  const auto& terms = owner.pod.spec.affinity.pod_affinity_required;
  if (terms.empty()) return false;
  for (const PodAffinityTerm& term : terms) {
    if (!TermMatches(model, term, owner, other)) return false;
  }
  return true;
}

// Mirrors TaintToleration's filter: the first NoSchedule/NoExecute taint not tolerated.
const Taint* FirstUntoleratedTaint(const std::vector<Taint>& taints,
                                   const std::vector<Toleration>& tolerations) {
  for (const Taint& taint : taints) {
    if (taint.effect == TaintEffect::kPreferNoSchedule) continue;
    bool tolerated = false;
    for (const Toleration& t : tolerations) {
      if (t.Tolerates(taint)) {
        tolerated = true;
        break;
      }
    }
    if (!tolerated) return &taint;
  }
  return nullptr;
}

}  // namespace

bool TermMatches(ClusterModel& model, const PodAffinityTerm& term, const PodInfo& owner,
                 const PodInfo& other) {
  const std::string& ns = other.pod.meta.namespace_;
  bool ns_ok = false;
  if (term.namespaces.empty() && !term.namespace_selector) {
    ns_ok = ns == owner.pod.meta.namespace_;
  } else {
    ns_ok = std::find(term.namespaces.begin(), term.namespaces.end(), ns) != term.namespaces.end();
    if (!ns_ok && term.namespace_selector) {
      ns_ok = term.namespace_selector->Matches(model.NamespaceLabels(ns));
    }
  }
  if (!ns_ok) return false;
  if (!term.label_selector) return false;
  return term.label_selector->Matches(other.pod.meta.labels);
}

void AffinityState::AddPod(ClusterModel& model, const PodInfo& other, const NodeInfo& node,
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

Filters::Filters(ClusterModel& model) : model_(model) {
  ReasonTable& r = model_.reasons();
  too_many_pods_ = r.Intern("Too many pods");
  insufficient_cpu_ = r.Intern("Insufficient cpu");
  insufficient_memory_ = r.Intern("Insufficient memory");
  insufficient_ephemeral_ = r.Intern("Insufficient ephemeral-storage");
  unschedulable_ = r.Intern("node(s) were unschedulable");
  node_name_ = r.Intern("node(s) didn't match the requested node name");
  node_affinity_ = r.Intern("node(s) didn't match Pod's node affinity/selector");
  affinity_rules_ = r.Intern("node(s) didn't match pod affinity rules");
  anti_affinity_rules_ = r.Intern("node(s) didn't match pod anti-affinity rules");
  existing_anti_affinity_ = r.Intern("node(s) didn't satisfy existing pods anti-affinity rules");
}

bool Filters::PreFilterAffinity(const PodInfo& pod, AffinityState& state) {
  if (!pod.has_pod_affinity && model_.bound_pods_with_affinity() == 0) return false;
  state = AffinityState{};
  state.pod = &pod;
  for (const NodeInfo& node : model_.nodes()) {
    for (PodId other : node.pods) {
      const PodInfo& o = model_.pods()[static_cast<std::size_t>(other)];
      if (&o == &pod) continue;
      state.AddPod(model_, o, node, +1);
    }
  }
  return true;
}

Status Filters::ComputeStatic(const PodInfo& pod, const NodeInfo& node) {
  const Node& api = *node.api;
  const PodSpec& spec = pod.pod.spec;
  // NodeUnschedulable: tolerating node.kubernetes.io/unschedulable:NoSchedule lifts it.
  if (api.unschedulable) {
    Taint t{"node.kubernetes.io/unschedulable", "", TaintEffect::kNoSchedule};
    bool tolerated = std::any_of(spec.tolerations.begin(), spec.tolerations.end(),
                                 [&](const Toleration& tol) { return tol.Tolerates(t); });
    if (!tolerated) {
      Status s(Code::kUnschedulableAndUnresolvable, PluginId::kNodeUnschedulable);
      s.AddReason(unschedulable_);
      return s;
    }
  }
  // NodeName: only meaningful for pods that name a node but are not bound yet.
  if (!spec.node_name.empty() && spec.node_name != node.name) {
    Status s(Code::kUnschedulableAndUnresolvable, PluginId::kNodeName);
    s.AddReason(node_name_);
    return s;
  }
  if (const Taint* taint = FirstUntoleratedTaint(api.taints, spec.tolerations)) {
    Status s(Code::kUnschedulableAndUnresolvable, PluginId::kTaintToleration);
    s.AddReason(model_.reasons().Intern(
        fmt::format("node(s) had untolerated taint {{{}: {}}}", taint->key, taint->value)));
    return s;
  }
  bool affinity_ok = true;
  for (const auto& [key, value] : spec.node_selector) {
    const std::string* v = FindLabel(api.meta.labels, key);
    if (v == nullptr || *v != value) {
      affinity_ok = false;
      break;
    }
  }
  if (affinity_ok && spec.affinity.node_affinity_required) {
    affinity_ok = spec.affinity.node_affinity_required->Matches(node.name, api.meta.labels);
  }
  if (!affinity_ok) {
    Status s(Code::kUnschedulableAndUnresolvable, PluginId::kNodeAffinity);
    s.AddReason(node_affinity_);
    return s;
  }
  return Status::Success();
}

Status Filters::Static(const PodInfo& pod, NodeId node) {
  const auto cls = static_cast<std::size_t>(pod.static_class);
  if (static_cache_.size() <= cls) static_cache_.resize(cls + 1);
  auto& row = static_cache_[cls];
  if (row.empty()) row.assign(model_.nodes().size(), 0);
  std::int32_t& slot = row[static_cast<std::size_t>(node)];
  if (slot == 0) {
    Status s = ComputeStatic(pod, model_.nodes()[static_cast<std::size_t>(node)]);
    auto it = std::find(static_results_.begin(), static_results_.end(), s);
    if (it == static_results_.end()) {
      static_results_.push_back(s);
      it = static_results_.end() - 1;
    }
    slot = static_cast<std::int32_t>(it - static_results_.begin()) + 1;
  }
  return static_results_[static_cast<std::size_t>(slot - 1)];
}

Status Filters::Fit(const PodInfo& pod, const NodeInfo& node, const ResourceList& requested) {
  // Mirrors noderesources.fitsRequest: a request above the node's whole allocatable cannot be
  // fixed by preemption (UnschedulableAndUnresolvable); otherwise Unschedulable.
  const ResourceList& alloc = node.allocatable;
  const ResourceList& req = pod.request;
  Status s(Code::kUnschedulable, PluginId::kNodeResourcesFit);
  bool unresolvable = false;
  if (requested.pods + 1 > alloc.pods) s.AddReason(too_many_pods_);
  if (req.milli_cpu > 0 && req.milli_cpu > alloc.milli_cpu - requested.milli_cpu) {
    s.AddReason(insufficient_cpu_);
    unresolvable |= req.milli_cpu > alloc.milli_cpu;
  }
  if (req.memory > 0 && req.memory > alloc.memory - requested.memory) {
    s.AddReason(insufficient_memory_);
    unresolvable |= req.memory > alloc.memory;
  }
  if (req.ephemeral_storage > 0 &&
      req.ephemeral_storage > alloc.ephemeral_storage - requested.ephemeral_storage) {
    s.AddReason(insufficient_ephemeral_);
    unresolvable |= req.ephemeral_storage > alloc.ephemeral_storage;
  }
  for (const auto& [name, amount] : req.scalar) {
    const std::int64_t cap = alloc.Scalar(name);
    if (amount > 0 && amount > cap - requested.Scalar(name)) {
      s.AddReason(model_.reasons().Intern("Insufficient " + name));
      unresolvable |= amount > cap;
    }
  }
  if (s.reason_count() == 0) return Status::Success();
  if (unresolvable) {
    Status u(Code::kUnschedulableAndUnresolvable, PluginId::kNodeResourcesFit);
    for (int i = 0; i < s.reason_count(); ++i) u.AddReason(s.reason(i));
    return u;
  }
  return s;
}

Status Filters::Affinity(const AffinityState& state, const NodeInfo& node) {
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

Status Filters::Run(const PodInfo& pod, NodeId node_id, const ResourceList& requested,
                    const AffinityState* affinity) {
  Status s = Static(pod, node_id);
  if (!s.IsSuccess()) return s;
  const NodeInfo& node = model_.nodes()[static_cast<std::size_t>(node_id)];
  s = Fit(pod, node, requested);
  if (!s.IsSuccess()) return s;
  if (affinity != nullptr) return Affinity(*affinity, node);
  return Status::Success();
}

}  // namespace kpsim::engine
