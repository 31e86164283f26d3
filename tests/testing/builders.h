#pragma once

// Builders for api objects in unit tests (house style G18, after Kubernetes' `st.MakePod()`):
//   MakePod("p1").Priority(100).Node("n1").Cpu("500m").Label("app", "foo").Build()
//   MakeNode("n1").Cpu("2").Memory("4Gi").Build()
//   MakePriorityClass("high").Value(1000).GlobalDefault().Build()
//   MakePdb("pdb").MinAvailable(1).Selector("app", "foo").Build()
//   MakePodGroup("g").Gang(3).DisruptionAll().Build()
// and `ToObject(x)` to wrap a value as an input `Object`. Header-only; quantities must parse
// (a bad literal in a test aborts with a message: it is a bug in the test).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim::testing {

// Parses a quantity literal or aborts.
inline Quantity Q(std::string_view text) {
  auto q = Quantity::Parse(text);
  if (!q.ok()) {
    std::fprintf(stderr, "builders.h: bad quantity literal '%.*s': %s\n",
                 static_cast<int>(text.size()), text.data(), q.error().message.c_str());
    std::abort();
  }
  return *q;
}

// Inserts or replaces `key` in sorted `labels`.
inline void SetLabel(Labels& labels, std::string key, std::string value) {
  for (auto& kv : labels) {
    if (kv.first == key) {
      kv.second = std::move(value);
      return;
    }
  }
  labels.emplace_back(std::move(key), std::move(value));
  std::sort(labels.begin(), labels.end());
}

class PodBuilder {
 public:
  explicit PodBuilder(std::string name) { pod_.meta.name = std::move(name); }
  PodBuilder& Namespace(std::string ns) { pod_.meta.namespace_ = std::move(ns); return *this; }
  PodBuilder& GenerateName(std::string g) { pod_.meta.generate_name = std::move(g); return *this; }
  PodBuilder& Uid(std::string uid) { pod_.meta.uid = std::move(uid); return *this; }
  PodBuilder& Label(std::string k, std::string v) {
    SetLabel(pod_.meta.labels, std::move(k), std::move(v));
    return *this;
  }
  PodBuilder& Priority(std::int32_t p) { pod_.spec.priority = p; return *this; }
  PodBuilder& PriorityClass(std::string name) {
    pod_.spec.priority_class_name = std::move(name);
    return *this;
  }
  PodBuilder& PreemptionPolicy(kpsim::PreemptionPolicy p) {
    pod_.spec.preemption_policy = p;
    return *this;
  }
  PodBuilder& PreemptionPolicyRaw(std::string raw) {
    pod_.spec.preemption_policy_raw = std::move(raw);
    return *this;
  }
  PodBuilder& Node(std::string node) { pod_.spec.node_name = std::move(node); return *this; }
  PodBuilder& NominatedNode(std::string node) {
    pod_.status.nominated_node_name = std::move(node);
    return *this;
  }
  PodBuilder& Cpu(std::string_view q) { pod_.spec.requests.Set(kResourceCpu, Q(q)); return *this; }
  PodBuilder& Memory(std::string_view q) {
    pod_.spec.requests.Set(kResourceMemory, Q(q));
    return *this;
  }
  PodBuilder& Request(std::string_view resource, std::string_view q) {
    pod_.spec.requests.Set(resource, Q(q));
    return *this;
  }
  PodBuilder& NodeSelector(std::string k, std::string v) {
    SetLabel(pod_.spec.node_selector, std::move(k), std::move(v));
    return *this;
  }
  PodBuilder& Toleration(kpsim::Toleration t) {
    pod_.spec.tolerations.push_back(std::move(t));
    return *this;
  }
  PodBuilder& SchedulingGate(std::string name) {
    pod_.spec.scheduling_gates.push_back(std::move(name));
    return *this;
  }
  PodBuilder& GracePeriod(std::int64_t seconds) {
    pod_.spec.termination_grace_period_seconds = seconds;
    return *this;
  }
  PodBuilder& SchedulerName(std::string name) {
    pod_.spec.scheduler_name = std::move(name);
    return *this;
  }
  PodBuilder& PodGroup(std::string group) {
    pod_.spec.scheduling_group = SchedulingGroup{std::move(group)};
    return *this;
  }
  PodBuilder& Owner(std::string kind, std::string name) {
    OwnerReference ref;
    ref.api_version = "apps/v1";
    ref.kind = std::move(kind);
    ref.name = std::move(name);
    ref.controller = true;
    pod_.meta.owner_references.push_back(std::move(ref));
    return *this;
  }
  // A host port as the reader leaves it (GetHostPorts: protocol defaulted to TCP).
  PodBuilder& HostPort(std::int32_t port, std::string protocol = "TCP", std::string ip = "") {
    pod_.spec.host_ports.push_back(kpsim::HostPort{port, std::move(protocol), std::move(ip)});
    return *this;
  }
  // A container image (`PodSpec::images`, ImageLocality).
  PodBuilder& Image(std::string image) {
    pod_.spec.images.push_back(std::move(image));
    return *this;
  }
  // A preferred node affinity term: `weight` on nodes labelled `key=value`.
  PodBuilder& PreferNode(std::int32_t weight, std::string key, std::string value) {
    NodeSelectorTerm term;
    term.match_expressions.push_back(
        NodeSelectorRequirement{std::move(key), NodeSelectorOperator::kIn, {std::move(value)}});
    pod_.spec.affinity.node_affinity_preferred.push_back({weight, std::move(term)});
    return *this;
  }
  // A preferred pod affinity (`anti` false) or anti-affinity term: `weight` for the topology
  // domains (`topology_key`) of pods labelled `key=value`.
  PodBuilder& PreferPods(std::int32_t weight, std::string key, std::string value,
                         std::string topology_key, bool anti = false) {
    PodAffinityTerm term;
    term.label_selector = LabelSelector{{{std::move(key), std::move(value)}}, {}};
    term.topology_key = std::move(topology_key);
    (anti ? pod_.spec.affinity.pod_anti_affinity_preferred
          : pod_.spec.affinity.pod_affinity_preferred)
        .push_back({weight, std::move(term)});
    return *this;
  }
  // A required pod affinity term: pods labelled `key=value` in the same `topology_key` domain.
  PodBuilder& RequirePods(std::string key, std::string value, std::string topology_key) {
    PodAffinityTerm term;
    term.label_selector = LabelSelector{{{std::move(key), std::move(value)}}, {}};
    term.topology_key = std::move(topology_key);
    pod_.spec.affinity.pod_affinity_required.push_back(std::move(term));
    return *this;
  }
  PodBuilder& Created(WallTime t) { pod_.meta.creation_timestamp = t; return *this; }
  PodBuilder& StartTime(WallTime t) { pod_.status.start_time = t; return *this; }
  PodBuilder& Phase(std::string phase) { pod_.status.phase = std::move(phase); return *this; }
  Pod Build() const { return pod_; }

 private:
  Pod pod_;
};

class NodeBuilder {
 public:
  explicit NodeBuilder(std::string name) { node_.meta.name = std::move(name); }
  NodeBuilder& Label(std::string k, std::string v) {
    SetLabel(node_.meta.labels, std::move(k), std::move(v));
    return *this;
  }
  NodeBuilder& Cpu(std::string_view q) { node_.allocatable.Set(kResourceCpu, Q(q)); return *this; }
  NodeBuilder& Memory(std::string_view q) {
    node_.allocatable.Set(kResourceMemory, Q(q));
    return *this;
  }
  NodeBuilder& Pods(std::int64_t n) { node_.allocatable.pods = n; return *this; }
  NodeBuilder& Resource(std::string_view resource, std::string_view q) {
    node_.allocatable.Set(resource, Q(q));
    return *this;
  }
  NodeBuilder& Taint(std::string key, std::string value, TaintEffect effect) {
    node_.taints.push_back(kpsim::Taint{std::move(key), std::move(value), effect});
    return *this;
  }
  NodeBuilder& Unschedulable() { node_.unschedulable = true; return *this; }
  // status.images[]: an image held under `name`, of `size_bytes`.
  NodeBuilder& Image(std::string name, std::int64_t size_bytes) {
    node_.images.push_back(ContainerImage{{std::move(name)}, size_bytes});
    return *this;
  }
  Node Build() const { return node_; }

 private:
  Node node_;
};

class PriorityClassBuilder {
 public:
  explicit PriorityClassBuilder(std::string name) { pc_.meta.name = std::move(name); }
  PriorityClassBuilder& Value(std::int32_t v) { pc_.value = v; return *this; }
  PriorityClassBuilder& GlobalDefault(bool on = true) { pc_.global_default = on; return *this; }
  PriorityClassBuilder& Description(std::string d) { pc_.description = std::move(d); return *this; }
  PriorityClassBuilder& PreemptionPolicy(kpsim::PreemptionPolicy p) {
    pc_.preemption_policy = p;
    return *this;
  }
  PriorityClassBuilder& PreemptionPolicyRaw(std::string raw) {
    pc_.preemption_policy_raw = std::move(raw);
    return *this;
  }
  kpsim::PriorityClass Build() const { return pc_; }

 private:
  kpsim::PriorityClass pc_;
};

class PdbBuilder {
 public:
  explicit PdbBuilder(std::string name) { pdb_.meta.name = std::move(name); }
  PdbBuilder& Namespace(std::string ns) { pdb_.meta.namespace_ = std::move(ns); return *this; }
  PdbBuilder& MinAvailable(std::int32_t n) { pdb_.min_available = IntOrString{false, n}; return *this; }
  PdbBuilder& MinAvailablePercent(std::int32_t p) {
    pdb_.min_available = IntOrString{true, p};
    return *this;
  }
  PdbBuilder& MaxUnavailable(std::int32_t n) {
    pdb_.max_unavailable = IntOrString{false, n};
    return *this;
  }
  PdbBuilder& MaxUnavailablePercent(std::int32_t p) {
    pdb_.max_unavailable = IntOrString{true, p};
    return *this;
  }
  // Adds a matchLabels entry (creating the selector).
  PdbBuilder& Selector(std::string k, std::string v) {
    if (!pdb_.selector.has_value()) pdb_.selector = LabelSelector{};
    SetLabel(pdb_.selector->match_labels, std::move(k), std::move(v));
    return *this;
  }
  PdbBuilder& DisruptionsAllowed(std::int32_t n) { pdb_.disruptions_allowed = n; return *this; }
  PodDisruptionBudget Build() const { return pdb_; }

 private:
  PodDisruptionBudget pdb_;
};

class PodGroupBuilder {
 public:
  explicit PodGroupBuilder(std::string name, bool composite = false) {
    group_.meta.name = std::move(name);
    group_.composite = composite;
  }
  PodGroupBuilder& Namespace(std::string ns) { group_.meta.namespace_ = std::move(ns); return *this; }
  PodGroupBuilder& Gang(std::int32_t min_count) {
    group_.scheduling_policy = PodGroupPolicy{true, min_count};
    return *this;
  }
  PodGroupBuilder& DisruptionAll() { group_.disruption_mode = DisruptionMode::kAll; return *this; }
  PodGroupBuilder& DisruptionSingle() {
    group_.disruption_mode = DisruptionMode::kSingle;
    return *this;
  }
  PodGroupBuilder& PriorityClass(std::string name) {
    group_.priority_class_name = std::move(name);
    return *this;
  }
  PodGroupBuilder& Priority(std::int32_t p) { group_.priority = p; return *this; }
  PodGroupBuilder& PreemptionPolicy(kpsim::PreemptionPolicy p) {
    group_.preemption_policy = p;
    return *this;
  }
  PodGroupBuilder& PreemptionPolicyRaw(std::string raw) {
    group_.preemption_policy_raw = std::move(raw);
    return *this;
  }
  PodGroupBuilder& Parent(std::string composite) {
    group_.parent_composite_pod_group_name = std::move(composite);
    return *this;
  }
  PodGroupBuilder& TopologyKey(std::string key) {
    group_.topology_keys.push_back(std::move(key));
    return *this;
  }
  kpsim::PodGroup Build() const { return group_; }

 private:
  kpsim::PodGroup group_;
};

inline PodBuilder MakePod(std::string name) { return PodBuilder(std::move(name)); }
inline NodeBuilder MakeNode(std::string name) { return NodeBuilder(std::move(name)); }
inline PriorityClassBuilder MakePriorityClass(std::string name) {
  return PriorityClassBuilder(std::move(name));
}
inline PdbBuilder MakePdb(std::string name) { return PdbBuilder(std::move(name)); }
inline PodGroupBuilder MakePodGroup(std::string name) { return PodGroupBuilder(std::move(name)); }
inline PodGroupBuilder MakeCompositePodGroup(std::string name) {
  return PodGroupBuilder(std::move(name), /*composite=*/true);
}
inline kpsim::Namespace MakeNamespace(std::string name) {
  kpsim::Namespace ns;
  ns.meta.name = std::move(name);
  return ns;
}

// Wraps a value as an input object from "test.yaml", document `document`.
inline Object ToObject(const Pod& v, int document = 0) {
  return Object{ObjectKind::kPod, SourceRef{"test.yaml", document, 0}, v};
}
inline Object ToObject(const Node& v, int document = 0) {
  return Object{ObjectKind::kNode, SourceRef{"test.yaml", document, 0}, v};
}
inline Object ToObject(const PriorityClass& v, int document = 0) {
  return Object{ObjectKind::kPriorityClass, SourceRef{"test.yaml", document, 0}, v};
}
inline Object ToObject(const PodDisruptionBudget& v, int document = 0) {
  return Object{ObjectKind::kPodDisruptionBudget, SourceRef{"test.yaml", document, 0}, v};
}
inline Object ToObject(const Namespace& v, int document = 0) {
  return Object{ObjectKind::kNamespace, SourceRef{"test.yaml", document, 0}, v};
}
inline Object ToObject(const Service& v, int document = 0) {
  return Object{ObjectKind::kService, SourceRef{"test.yaml", document, 0}, v};
}
// A Service `name` in namespace `ns` whose spec.selector is `selector` (nullopt: unset).
inline Service MakeService(std::string name, std::string ns, std::optional<Labels> selector) {
  Service s;
  s.meta.name = std::move(name);
  s.meta.namespace_ = std::move(ns);
  s.selector = std::move(selector);
  return s;
}
inline Object ToObject(const PodGroup& v, int document = 0) {
  return Object{v.composite ? ObjectKind::kCompositePodGroup : ObjectKind::kPodGroup,
                SourceRef{"test.yaml", document, 0}, v};
}

}  // namespace kpsim::testing
