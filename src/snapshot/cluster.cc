#include "snapshot/cluster.h"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"

namespace kpsim::engine {
namespace {

constexpr std::int64_t kDefaultMilliCpuRequest = 100;                 // 0.1 core
constexpr std::int64_t kDefaultMemoryRequest = 200LL * 1024 * 1024;  // 200 MB

// Appends a canonical text of the node-local constraints of `spec` (tolerations, node selector,
// required node affinity): pods with equal texts get equal verdicts from the node-local filters.
void AppendStaticKey(const PodSpec& spec, std::string& out) {
  out += "tol[";
  for (const Toleration& t : spec.tolerations) {
    fmt::format_to(std::back_inserter(out), "{}|{}|{}|{};", t.key, static_cast<int>(t.op), t.value,
                   t.effect ? static_cast<int>(*t.effect) : -1);
  }
  out += "]name[";
  out += spec.node_name;
  out += "]sel[";
  for (const auto& [k, v] : spec.node_selector) fmt::format_to(std::back_inserter(out), "{}={};", k, v);
  out += "]aff[";
  if (spec.affinity.node_affinity_required) {
    for (const NodeSelectorTerm& term : spec.affinity.node_affinity_required->terms) {
      out += "(";
      for (const auto* reqs : {&term.match_expressions, &term.match_fields}) {
        for (const NodeSelectorRequirement& r : *reqs) {
          fmt::format_to(std::back_inserter(out), "{}{}{};", r.key, static_cast<int>(r.op),
                         fmt::join(r.values, ","));
        }
        out += "|";
      }
      out += ")";
    }
  } else {
    out += "none";
  }
  out += "]";
}

std::int32_t Intern(std::unordered_map<std::string, std::int32_t>& ids, const std::string& key) {
  // Looked up first: most keys are there already, and the map copies a key only when it is new.
  if (auto it = ids.find(key); it != ids.end()) return it->second;
  return ids.emplace(key, static_cast<std::int32_t>(ids.size())).first->second;
}

std::string ZoneKey(const Labels& labels) {
  const std::string* region = FindLabel(labels, "topology.kubernetes.io/region");
  const std::string* zone = FindLabel(labels, "topology.kubernetes.io/zone");
  std::string key = region ? *region : "";
  key += ":\x00:";
  if (zone) key += *zone;
  return key;
}

// A namespace's labels as namespace selectors see them: with kubernetes.io/metadata.name, which
// the API server sets on every namespace.
Labels LabelsOf(const Namespace& ns) {
  Labels labels = ns.meta.labels;
  if (!FindLabel(labels, "kubernetes.io/metadata.name")) {
    labels.emplace_back("kubernetes.io/metadata.name", ns.meta.name);
    std::sort(labels.begin(), labels.end());
  }
  return labels;
}

std::int32_t ScaledCeil(std::int32_t percent, std::int32_t count) {
  return static_cast<std::int32_t>((static_cast<std::int64_t>(percent) * count + 99) / 100);
}

}  // namespace

std::int32_t PdbState::Desired() const {
  const PodDisruptionBudget& pdb = *api;
  if (pdb.max_unavailable) {
    const IntOrString& mu = *pdb.max_unavailable;
    std::int32_t unavailable = mu.is_percent ? ScaledCeil(mu.value, expected) : mu.value;
    return std::max(0, expected - unavailable);
  }
  if (pdb.min_available) {
    const IntOrString& ma = *pdb.min_available;
    return ma.is_percent ? ScaledCeil(ma.value, expected) : ma.value;
  }
  return 0;
}

std::int32_t PdbState::DisruptionsAllowed() const {
  if (given_allowed) {
    return std::max(0, *given_allowed + (healthy - healthy_at_start) -
                           (Desired() - desired_at_start));
  }
  return std::max(0, healthy - Desired());
}

GroupInfo ClusterModel::MakeGroupInfo(const PodGroup& api) const {
  GroupInfo g;
  g.api = &api;
  g.key = api.meta.namespace_ + "/" + api.meta.name;
  g.composite = api.composite;
  g.priority = api.priority.value_or(0);
  g.mode = api.disruption_mode.value_or(DisruptionMode::kSingle);
  g.gang = gang_scheduling_ && !api.composite && api.scheduling_policy.gang;
  g.min_count = g.gang ? api.scheduling_policy.min_count : 0;
  return g;
}

GroupId ClusterModel::ParentOf(const PodGroup& api) const {
  // The CompositePodGroup gate off: no group has a parent.
  const std::string& parent = api.parent_composite_pod_group_name;
  if (!composite_pod_group_ || parent.empty()) return kNoId;
  auto it = composite_ids_.find(api.meta.namespace_ + "/" + parent);
  return it == composite_ids_.end() ? kNoId : it->second;
}

void ClusterModel::LinkGroup(GroupId group_id) {
  // Root and `all` ancestor, walking up at most WorkloadMaxTreeDepth levels and breaking cycles.
  constexpr int kMaxTreeDepth = 10;
  std::vector<GroupId> path{group_id};
  for (int depth = 0; depth < kMaxTreeDepth; ++depth) {
    const GroupId parent = groups_[path.back()].parent;
    if (parent == kNoId || std::find(path.begin(), path.end(), parent) != path.end()) break;
    path.push_back(parent);
  }
  GroupInfo& g = groups_[group_id];
  g.root = path.back();
  for (GroupId id : path) {
    if (groups_[id].mode == DisruptionMode::kAll) g.all_ancestor = id;
  }
  if (!g.composite) {
    for (GroupId id : path) groups_[id].leaves.push_back(group_id);
  }
}

void ClusterModel::BuildGroups(const ClusterState& state, const FeatureGates& gates) {
  generic_workload_ = gates.generic_workload;
  gang_scheduling_ = gates.gang_scheduling;
  composite_pod_group_ = gates.composite_pod_group;
  if (!generic_workload_) return;
  for (const PodGroup& api : state.pod_groups) {
    if (api.composite && !composite_pod_group_) continue;  // the API is off
    GroupInfo g = MakeGroupInfo(api);
    const GroupId id = groups_.next_id();
    (api.composite ? composite_ids_ : group_ids_).emplace(g.key, id);
    groups_.push_back(std::move(g));
  }
  // Parents, then roots and `all` ancestors.
  for (GroupInfo& g : groups_) g.parent = ParentOf(*g.api);
  for (GroupId group_id : groups_.ids()) LinkGroup(group_id);
}

std::vector<PodId> ClusterModel::AddGroup(const PodGroup& api) {
  const PodGroup& stored = applied_groups_.emplace_back(api);
  GroupInfo g = MakeGroupInfo(stored);
  g.parent = ParentOf(stored);
  const GroupId id = groups_.next_id();
  group_ids_.emplace(g.key, id);
  const std::string key = g.key;
  groups_.push_back(std::move(g));
  LinkGroup(id);
  // The pods that named it before it existed join it now (a bound one leaves its node and comes
  // back, so that the node's aggregates see its group-aware victim priority).
  std::vector<PodId> joined;
  for (PodId pod_id : pods_.ids()) {
    PodInfo& pod = pods_[pod_id];
    if (!pod.waits_for_group || pod.state == PodState::kDeleted) continue;
    if (pod.pod.meta.namespace_ + "/" + pod.pod.spec.scheduling_group->pod_group_name != key) continue;
    pod.waits_for_group = false;
    const bool bound = pod.node != kNoId;
    if (bound) Detach(pod_id);
    JoinGroup(pod, pod_id);
    if (bound) Reattach(pod_id);
    joined.push_back(pod_id);
  }
  ++generation_;
  ++progress_generation_;
  return joined;
}

bool ClusterModel::HasGroup(std::string_view key) const {
  return group_ids_.contains(std::string(key)) || composite_ids_.contains(std::string(key));
}

void ClusterModel::JoinGroup(PodInfo& info, PodId id) {
  if (!generic_workload_ || !info.pod.spec.scheduling_group) return;
  auto it = group_ids_.find(info.pod.meta.namespace_ + "/" + info.pod.spec.scheduling_group->pod_group_name);
  if (it == group_ids_.end()) {
    info.waits_for_group = true;
    return;
  }
  GroupInfo& g = groups_[it->second];
  info.group = it->second;
  g.members.push_back(id);
  // Workload-aware preemption: the topmost resolved group's priority, and any group member
  // ranks as a PodGroup victim (MoreImportantVictim).
  info.victim_priority = groups_[g.root].priority;
  info.all_unit = g.all_ancestor;
  info.type_rank = 2;
}

PodInfo ClusterModel::MakePodInfo(const Pod& pod, bool is_input) {
  PodInfo info{pod};
  info.is_input = is_input;
  key_scratch_.clear();  // "ns/name" without the temporaries of operator+
  key_scratch_.append(pod.meta.namespace_).append(1, '/').append(pod.meta.name);
  info.key = std::string_view(key_scratch_);
  info.priority = pod.spec.priority.value_or(0);
  info.victim_priority = info.priority;
  info.preemption_policy =
      pod.spec.preemption_policy.value_or(PreemptionPolicy::kPreemptLowerPriority);
  info.request = pod.spec.requests;
  info.request.pods += 1;
  info.nonzero_cpu =
      pod.spec.requests.milli_cpu == 0 ? kDefaultMilliCpuRequest : pod.spec.requests.milli_cpu;
  info.nonzero_memory =
      pod.spec.requests.memory == 0 ? kDefaultMemoryRequest : pod.spec.requests.memory;
  info.has_pod_affinity = !pod.spec.affinity.pod_affinity_required.empty() ||
                          !pod.spec.affinity.pod_anti_affinity_required.empty();
  if (pod.spec.termination_grace_period_seconds) {
    info.grace_us = std::max<std::int64_t>(0, *pod.spec.termination_grace_period_seconds) * 1'000'000;
  }
  info.owned = !pod.meta.owner_references.empty();
  for (PdbId pdb_id : pdbs_.ids()) {
    const PdbState& pdb = pdbs_[pdb_id];
    if (pdb.api->meta.namespace_ != pod.meta.namespace_) continue;
    if (!pdb.api->selector || pdb.api->selector->IsEmpty() || pod.meta.labels.empty()) continue;
    if (pdb.api->selector->Matches(pod.meta.labels)) info.pdbs.push_back(pdb_id);
  }
  Classify(info);
  return info;
}

std::size_t ClusterModel::EquivalenceKeyHash::operator()(const EquivalenceKey& k) const {
  std::size_t h = std::hash<std::string>{}(k.namespace_);
  const auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 0x100000001B3ULL + (h >> 29); };
  mix(static_cast<std::uint64_t>(k.priority));
  mix(static_cast<std::uint64_t>(k.milli_cpu));
  mix(static_cast<std::uint64_t>(k.memory));
  mix(static_cast<std::uint64_t>(k.ephemeral_storage));
  mix(static_cast<std::uint64_t>(k.pods));
  mix(static_cast<std::uint64_t>(k.static_class));
  for (const auto& [name, value] : k.scalar) mix(std::hash<std::string>{}(name) ^ static_cast<std::uint64_t>(value));
  for (const HostPort& port : k.host_ports) mix(static_cast<std::uint64_t>(port.port));
  mix(std::hash<std::string>{}(k.affinity_owner));
  return h;
}

void ClusterModel::Classify(PodInfo& info) {
  const PodSpec& spec = info.pod.spec;
  if (spec.tolerations.empty() && spec.node_name.empty() && spec.node_selector.empty() &&
      !spec.affinity.node_affinity_required) {
    // No node-local constraint: the most common class, interned once.
    if (unconstrained_class_ == -1) {
      static_key_.clear();
      AppendStaticKey(spec, static_key_);
      unconstrained_class_ = Intern(static_class_ids_, static_key_);
    }
    info.static_class = unconstrained_class_;
  } else {
    // Every bound pod has one (its node's name is part of it): built in a buffer kept across
    // pods, which then grows only to the longest key.
    static_key_.clear();
    AppendStaticKey(spec, static_key_);
    info.static_class = Intern(static_class_ids_, static_key_);
  }
  EquivalenceKey key{info.pod.meta.namespace_, info.priority, info.request.milli_cpu,
                     info.request.memory, info.request.ephemeral_storage, info.request.pods,
                     info.static_class, info.request.scalar,
                     // NodePorts: the host ports asked for (in GetHostPorts order).
                     spec.host_ports,
                     // Required pod (anti-)affinity: never shares results.
                     info.has_pod_affinity ? info.key.string() : std::string()};
  auto [it, inserted] = class_ids_.try_emplace(std::move(key), static_cast<std::int32_t>(class_ids_.size()));
  info.equivalence_class = it->second;
}

ClusterModel::ClusterModel(const ClusterState& state, const EngineOptions& options) : state_(&state) {
  origin_us_ = options.origin ? options.origin->unix_micros : 0;
  const auto note_time = [this](const std::optional<WallTime>& t) {
    if (t) after_input_us_ = std::max(after_input_us_, t->unix_micros + 1);
  };
  for (const Node& node : state.nodes) note_time(node.meta.creation_timestamp);
  for (const Pod& pod : state.pods) {
    note_time(pod.meta.creation_timestamp);
    note_time(pod.status.start_time);
  }
  for (const Namespace& ns : state.namespaces) namespace_labels_[ns.meta.name] = LabelsOf(ns);
  services_ = state.services;

  nodes_.reserve(state.nodes.size());
  node_ids_.reserve(state.nodes.size());
  pod_ids_.reserve(state.pods.size());
  const auto add_info = [&](const Node& node, bool present) {
    NodeInfo info;
    info.api = &node;
    info.name = node.meta.name;
    info.allocatable = node.allocatable;
    info.present = present;
    const NodeId id = nodes_.next_id();
    node_ids_.emplace(info.name, id);
    nodes_.push_back(std::move(info));
    return id;
  };
  for (const Node& node : state.nodes) {
    PlaceInTree(add_info(node, true), node.meta.labels);
  }
  // Nodes Scenario steps add: in the model from the start (ids stay dense), absent until added.
  for (const TimedStep& timed : state.steps) {
    if (timed.step.action != StepAction::kApply || !timed.step.object) continue;
    const auto* node = std::get_if<Node>(&timed.step.object->value);
    if (node != nullptr && !node_ids_.contains(node->meta.name)) add_info(*node, false);
  }
  order_pos_.resize(nodes_.size());
  RebuildNodeOrder();

  for (const PodDisruptionBudget& pdb : state.pdbs) {
    PdbState s;
    s.api = &pdb;
    s.key = pdb.meta.namespace_ + "/" + pdb.meta.name;
    s.disrupted_pods = pdb.disrupted_pods;
    std::sort(s.disrupted_pods.begin(), s.disrupted_pods.end());
    s.given_allowed = pdb.disruptions_allowed;
    pdbs_.push_back(std::move(s));
  }

  pdb_pods_.resize(pdbs_.size());
  if (!state.quota_configs.empty()) quotas_.SetConfig(state.quota_configs.back());
  if (!state.resource_quotas.empty()) {
    std::vector<const Pod*> pods;
    for (const Pod& pod : state.pods) pods.push_back(&pod);
    for (const ResourceQuota& quota : state.resource_quotas) quotas_.ApplyQuota(quota, pods);
  }
  BuildGroups(state, options.gates);
  for (const Pod& pod : state.pods) {
    PodInfo info = MakePodInfo(pod, /*is_input=*/true);
    const PodId id = pods_.next_id();
    info.id = id;
    pod_ids_.emplace(info.key, id);
    JoinGroup(info, id);
    const bool terminal = pod.status.phase == "Succeeded" || pod.status.phase == "Failed";
    pods_.push_back(std::move(info));
    PodInfo& p = pods_.back();
    for (PdbId pdb : p.pdbs) pdb_pods_[pdb].push_back(id);
    if (terminal) {
      p.state = PodState::kDeleted;
      p.last_failure = fmt::format("phase {}: terminal pods hold no resources", pod.status.phase);
      continue;
    }
    for (PdbId pdb : p.pdbs) pdbs_[pdb].expected += 1;
    if (!pod.spec.node_name.empty()) {
      if (auto node = FindNode(pod.spec.node_name)) {
        Bind(id, *node, SimTime{});
        // Without status.startTime a victim counts as starting "now" at each evaluation
        // (GetPodStartTime).
        p.start_unix_us = pod.status.start_time ? pod.status.start_time->unix_micros : PodInfo::kNotStarted;
        if (pod.meta.deletion_timestamp) {
          bool by_preemption = false;
          for (const PodCondition& c : pod.status.conditions) {
            if (c.type == "DisruptionTarget") {
              by_preemption = c.status == "True" && c.reason == "PreemptionByScheduler";
              break;
            }
          }
          MarkTerminating(id, by_preemption);
        }
      } else {
        p.state = PodState::kRunning;
        const auto& templates = options.node_template_names;
        p.last_failure = BoundToMissingNodeReason(
            pod.spec.node_name, std::find(templates.begin(), templates.end(), pod.spec.node_name) != templates.end());
      }
    }
  }
  for (PdbState& pdb : pdbs_) {
    pdb.healthy_at_start = pdb.healthy;
    pdb.desired_at_start = pdb.Desired();
  }
  // Nominations from the input (status.nominatedNodeName of pending pods).
  for (PodId id : IdRange<PodId>(state.pods.size())) {  // the input pods come first
    const Pod& pod = pods_[id].pod;
    if (pod.spec.node_name.empty() && !pod.status.nominated_node_name.empty() &&
        pods_[id].state == PodState::kPending) {
      if (auto node = FindNode(pod.status.nominated_node_name)) {
        SetNomination(id, *node);
      }
    }
  }
}

std::optional<NodeId> ClusterModel::FindNode(std::string_view name) const {
  std::optional<NodeId> id = FindAnyNode(name);
  if (id && !nodes_[*id].present) return std::nullopt;
  return id;
}

std::optional<NodeId> ClusterModel::FindAnyNode(std::string_view name) const {
  auto it = node_ids_.find(name);
  if (it == node_ids_.end()) return std::nullopt;
  return it->second;
}

// nodeTree.addNode: the node joins the end of its zone, a new zone the end of the zones.
void ClusterModel::PlaceInTree(NodeId node, const Labels& labels) {
  const std::string zone = ZoneKey(labels);
  auto it = std::find_if(zones_.begin(), zones_.end(), [&](const auto& z) { return z.first == zone; });
  if (it == zones_.end()) it = zones_.insert(zones_.end(), {zone, {}});
  it->second.push_back(node);
}

// nodeTree.removeNode: an empty zone goes too.
void ClusterModel::TakeFromTree(NodeId node) {
  for (auto zone = zones_.begin(); zone != zones_.end(); ++zone) {
    if (std::erase(zone->second, node) == 0) continue;
    if (zone->second.empty()) zones_.erase(zone);
    return;
  }
}

// kube-scheduler's nodeTree.list(): one node of each zone in turn.
void ClusterModel::RebuildNodeOrder() {
  std::size_t count = 0;
  for (const auto& zone : zones_) count += zone.second.size();
  node_order_.clear();
  for (std::size_t index = 0; node_order_.size() < count; ++index) {
    for (const auto& zone : zones_) {
      if (index < zone.second.size()) node_order_.push_back(zone.second[index]);
    }
  }
  std::fill(order_pos_.begin(), order_pos_.end(), -1);
  for (std::size_t pos = 0; pos < node_order_.size(); ++pos) {
    order_pos_[node_order_[pos]] = static_cast<std::int32_t>(pos);
  }
  ++node_set_generation_;
}

std::optional<PodId> ClusterModel::FindPod(std::string_view key) const {
  auto it = pod_ids_.find(key);
  if (it == pod_ids_.end()) return std::nullopt;
  return it->second;
}

const Labels& ClusterModel::NamespaceLabels(const std::string& ns) {
  auto it = namespace_labels_.find(ns);
  if (it == namespace_labels_.end()) {
    it = namespace_labels_.emplace(ns, Labels{{"kubernetes.io/metadata.name", ns}}).first;
  }
  return it->second;
}

void ClusterModel::ApplyNamespace(const Namespace& ns) {
  namespace_labels_[ns.meta.name] = LabelsOf(ns);
  // An affinity term's namespaceSelector may now select other pods, on any node: every
  // pod-dependent verdict starts over.
  for (NodeId node : nodes_.ids()) Touch(node);
  ++generation_;
  ++progress_generation_;  // a pod it failed may fit now: the leftover flush retries it
}

void ClusterModel::ApplyService(const Service& service) {
  auto it = std::find_if(services_.begin(), services_.end(), [&](const Service& s) {
    return s.meta.namespace_ == service.meta.namespace_ && s.meta.name == service.meta.name;
  });
  if (it == services_.end()) {
    services_.push_back(service);
  } else {
    *it = service;
  }
  ++services_generation_;
  ++generation_;
}

bool ClusterModel::DeleteService(std::string_view namespace_, std::string_view name) {
  const std::size_t removed = std::erase_if(services_, [&](const Service& s) {
    return s.meta.namespace_ == namespace_ && s.meta.name == name;
  });
  if (removed == 0) return false;
  ++services_generation_;
  ++generation_;
  return true;
}

void ClusterModel::AdjustPdbs(const PodInfo& info, int healthy_delta, int expected_delta) {
  if (info.pdbs.empty()) return;
  for (PdbId pdb : info.pdbs) {
    PdbState& state = pdbs_[pdb];
    const std::int32_t allowed = state.DisruptionsAllowed();
    state.healthy += healthy_delta;
    state.expected += expected_delta;
    if (state.DisruptionsAllowed() != allowed) pdb_change_log_.push_back(pdb);
  }
  ++pdb_generation_;
}

void ClusterModel::Touch(NodeId node) {
  ++nodes_[node].generation;
  change_log_.push_back(node);
}

void ClusterModel::AddToNode(PodId pod_id, NodeId node_id) {
  PodInfo& pod = pods_[pod_id];
  NodeInfo& node = nodes_[node_id];
  pod.node = node_id;
  // Keep bind order (a reattached pod goes back where it was; a new bind is the latest).
  if (node.pods.empty() || pods_[node.pods.back()].bind_seq < pod.bind_seq) {
    node.pods.push_back(pod_id);
  } else {
    auto at = std::upper_bound(node.pods.begin(), node.pods.end(), pod.bind_seq,
                               [&](std::uint64_t seq, PodId other) {
                                 return seq < pods_[other].bind_seq;
                               });
    node.pods.insert(at, pod_id);
  }
  node.requested += pod.request;
  node.nonzero_cpu += pod.nonzero_cpu;
  node.nonzero_memory += pod.nonzero_memory;
  node.used_ports.AddPod(pod.pod.spec);
  Touch(node_id);
  ++generation_;
  if (!pod.pod.spec.affinity.pod_anti_affinity_required.empty()) ++bound_with_affinity_;
  if (pod.all_unit != kNoId) ++bound_in_all_units_;
  ++bound_victim_priorities_[pod.victim_priority];
}

void ClusterModel::RemoveFromNode(PodId pod_id) {
  PodInfo& pod = pods_[pod_id];
  NodeInfo& node = nodes_[pod.node];
  node.pods.erase(std::find(node.pods.begin(), node.pods.end(), pod_id));
  node.requested -= pod.request;
  node.nonzero_cpu -= pod.nonzero_cpu;
  node.nonzero_memory -= pod.nonzero_memory;
  node.used_ports.RemovePod(pod.pod.spec);
  Touch(pod.node);
  ++generation_;
  if (!pod.pod.spec.affinity.pod_anti_affinity_required.empty()) --bound_with_affinity_;
  if (pod.all_unit != kNoId) --bound_in_all_units_;
  const auto at = bound_victim_priorities_.find(pod.victim_priority);
  if (--at->second == 0) bound_victim_priorities_.erase(at);
}

void ClusterModel::Bind(PodId pod_id, NodeId node_id, SimTime now) {
  PodInfo& pod = pods_[pod_id];
  if (pod.nominated != kNoId) SetNomination(pod_id, kNoId);
  pod.bind_seq = ++bind_counter_;
  AddToNode(pod_id, node_id);
  pod.state = PodState::kRunning;
  pod.scheduled_at = now;
  pod.start_unix_us = origin_us_ + now.time_since_epoch().count();
  ++progress_generation_;
  AdjustPdbs(pod, 1, 0);  // a pending pod already counted as expected
}

void ClusterModel::Assume(PodId pod_id, NodeId node_id) {
  if (!assumed_nomination_.contains(pod_id)) assumed_nomination_.resize(pod_id.index() + 1, kNoId);
  PodInfo& pod = pods_[pod_id];
  assumed_nomination_[pod_id] = pod.nominated;
  if (pod.nominated != kNoId) SetNomination(pod_id, kNoId);
  pod.bind_seq = ++bind_counter_;
  AddToNode(pod_id, node_id);
}

void ClusterModel::Forget(PodId pod_id) {
  RemoveFromNode(pod_id);
  PodInfo& pod = pods_[pod_id];
  pod.node = kNoId;
  const NodeId nominated = assumed_nomination_[pod_id];
  if (nominated != kNoId) SetNomination(pod_id, nominated);
}

void ClusterModel::Detach(PodId pod_id) { RemoveFromNode(pod_id); }

void ClusterModel::Reattach(PodId pod_id) {
  AddToNode(pod_id, pods_[pod_id].node);
}

std::vector<PodId> ClusterModel::BoundPodsUnder(GroupId ancestor) const {
  std::vector<PodId> out;
  for (GroupId leaf : groups_[ancestor].leaves) {
    for (PodId id : groups_[leaf].members) {
      const PodInfo& p = pods_[id];
      if ((p.state == PodState::kRunning || p.state == PodState::kTerminating) && p.node != kNoId) {
        out.push_back(id);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void ClusterModel::MarkTerminating(PodId pod_id, bool by_preemption) {
  PodInfo& pod = pods_[pod_id];
  if (pod.state != PodState::kRunning) return;
  pod.state = PodState::kTerminating;
  pod.terminating_by_preemption = by_preemption;
  if (pod.node != kNoId) Touch(pod.node);
  ++generation_;
  ++progress_generation_;
  AdjustPdbs(pod, -1, -1);
}

void ClusterModel::Remove(PodId pod_id, SimTime now) {
  PodInfo& pod = pods_[pod_id];
  if (pod.state == PodState::kDeleted) return;
  if (pod.nominated != kNoId) SetNomination(pod_id, kNoId);
  if (pod.node != kNoId) RemoveFromNode(pod_id);
  if (pod.state == PodState::kRunning && pod.node != kNoId) {
    AdjustPdbs(pod, -1, -1);
  } else if (pod.state == PodState::kPending) {
    AdjustPdbs(pod, 0, -1);
  }
  pod.state = PodState::kDeleted;
  pod.deleted_at = now;
  quotas_.Remove(pod.pod);
  ++generation_;
  ++progress_generation_;
}

void ClusterModel::SetNomination(PodId pod_id, NodeId node_id) {
  PodInfo& pod = pods_[pod_id];
  if (pod.nominated == node_id) return;
  if (pod.nominated != kNoId) {
    NodeInfo& old = nodes_[pod.nominated];
    const auto at = std::find(old.nominated.begin(), old.nominated.end(), pod_id);
    old.nominees.erase(old.nominees.begin() + (at - old.nominated.begin()));
    old.nominated.erase(at);
    Touch(pod.nominated);
  }
  pod.nominated = node_id;
  if (node_id != kNoId) {
    NodeInfo& node = nodes_[node_id];
    node.nominated.push_back(pod_id);
    node.nominees.push_back(NodeInfo::Nominee{pod.priority, pod.request});
    Touch(node_id);
  }
  ++generation_;
}

Pod ClusterModel::ReplacementPod(PodId victim_id, std::string name, SimTime now) const {
  Pod pod = pods_[victim_id].pod;
  pod.meta.name = std::move(name);
  pod.meta.uid.clear();
  pod.meta.deletion_timestamp.reset();
  pod.meta.creation_timestamp = WallTime{origin_us_ + now.time_since_epoch().count()};
  pod.spec.node_name.clear();
  pod.status = PodStatus{};
  pod.status.phase = "Pending";
  return pod;
}

PodId ClusterModel::AddReplacement(PodId victim_id, std::string name, SimTime now) {
  return AddReplacement(victim_id, ReplacementPod(victim_id, std::move(name), now));
}

PodId ClusterModel::AddReplacement(PodId victim_id, Pod api) {
  pods_[victim_id].replaced = true;
  const Pod& pod = replacement_pods_.emplace_back(std::move(api));
  return AddCreated(pod, victim_id);
}

PodId ClusterModel::AddCreated(const Pod& pod, PodId replacement_of) {
  quotas_.Add(pod);
  PodInfo info = MakePodInfo(pod, /*is_input=*/false);
  info.replacement_of = replacement_of;
  const PodId id = pods_.next_id();
  info.id = id;
  pod_ids_[info.key] = id;  // a StatefulSet's replacement takes over its victim's name
  JoinGroup(info, id);
  pods_.push_back(std::move(info));
  for (PdbId pdb : pods_.back().pdbs) pdb_pods_[pdb].push_back(id);
  AdjustPdbs(pods_.back(), 0, 1);
  ++generation_;
  ++progress_generation_;
  return id;
}

PodId ClusterModel::AddPod(const Pod& api, SimTime now) {
  Pod& pod = replacement_pods_.emplace_back(api);
  if (!pod.meta.creation_timestamp) {
    pod.meta.creation_timestamp = WallTime{origin_us_ + now.time_since_epoch().count()};
  }
  return AddCreated(pod, kNoId);
}

void ClusterModel::ResizePod(PodId pod_id, const ResourceList& requests) {
  PodInfo& pod = pods_[pod_id];
  const bool bound = pod.node != kNoId;
  if (bound) Detach(pod_id);
  pod.request = requests;
  pod.request.pods = 1;
  pod.nonzero_cpu = requests.milli_cpu == 0 ? kDefaultMilliCpuRequest : requests.milli_cpu;
  pod.nonzero_memory = requests.memory == 0 ? kDefaultMemoryRequest : requests.memory;
  if (bound) Reattach(pod_id);
  ++progress_generation_;
}

void ClusterModel::AddNode(NodeId node_id, const Node& api) {
  NodeInfo& node = nodes_[node_id];
  assert(!node.present);
  node.present = true;
  node.api = &updated_nodes_.emplace_back(api);
  node.allocatable = api.allocatable;
  PlaceInTree(node_id, api.meta.labels);
  RebuildNodeOrder();
  // Pods bound to it by spec.nodeName ran nowhere so far: the kubelet admits them now.
  for (PodId id : pods_.ids()) {
    PodInfo& pod = pods_[id];
    if (pod.node != kNoId || pod.state != PodState::kRunning || pod.pod.spec.node_name != node.name) continue;
    pod.bind_seq = ++bind_counter_;
    AddToNode(id, node_id);
    pod.last_failure = SharedString();
    AdjustPdbs(pod, 1, 0);
  }
  ++node_spec_generation_;
  Touch(node_id);
  ++generation_;
  ++progress_generation_;
}

void ClusterModel::RemoveNode(NodeId node_id) {
  NodeInfo& node = nodes_[node_id];
  assert(node.present);
  node.present = false;
  TakeFromTree(node_id);
  RebuildNodeOrder();
  // Nominations to it go (nothing can run there now).
  const std::vector<PodId> nominated = node.nominated;
  for (PodId id : nominated) SetNomination(id, kNoId);
  ++node_spec_generation_;
  Touch(node_id);
  ++generation_;
  ++progress_generation_;
}

void ClusterModel::ApplyQuota(const ResourceQuota& quota) {
  std::vector<const Pod*> existing;
  for (const PodInfo& pod : pods_) {
    if (pod.state != PodState::kDeleted) existing.push_back(&pod.pod);
  }
  quotas_.ApplyQuota(quota, existing);
}

void ClusterModel::UpdateNode(NodeId node_id, const Node& api) {
  NodeInfo& node = nodes_[node_id];
  if (node.present && ZoneKey(api.meta.labels) != ZoneKey(node.api->meta.labels)) {
    // nodeTree.updateNode: a node whose zone changed leaves its zone and joins the new one.
    TakeFromTree(node_id);
    PlaceInTree(node_id, api.meta.labels);
    RebuildNodeOrder();
  }
  node.api = &updated_nodes_.emplace_back(api);
  node.allocatable = api.allocatable;
  ++node_spec_generation_;
  Touch(node_id);
  ++generation_;
  ++progress_generation_;
}

void ClusterModel::ApplyPdb(const PodDisruptionBudget& api) {
  const PodDisruptionBudget& stored = applied_pdbs_.emplace_back(api);
  const std::string key = api.meta.namespace_ + "/" + api.meta.name;
  auto it = std::find_if(pdbs_.begin(), pdbs_.end(), [&](const PdbState& p) { return p.key == key; });
  if (it == pdbs_.end()) {
    pdbs_.emplace_back();
    pdb_pods_.emplace_back();
    it = pdbs_.end() - 1;
  }
  const PdbId index = pdbs_.id_of(it);
  // The nodes of the pods it selected: their dry runs change.
  for (PodId id : pdb_pods_[index]) {
    PodInfo& pod = pods_[id];
    std::erase(pod.pdbs, index);
    if (pod.node != kNoId) Touch(pod.node);
  }
  pdb_pods_[index].clear();
  PdbState s;
  s.api = &stored;
  s.key = key;
  s.disrupted_pods = api.disrupted_pods;
  std::sort(s.disrupted_pods.begin(), s.disrupted_pods.end());
  const bool selects = api.selector && !api.selector->IsEmpty();
  for (PodId id : IdRange<PodId>(selects ? pods_.size() : 0)) {
    PodInfo& pod = pods_[id];
    if (pod.state == PodState::kDeleted || pod.pod.meta.namespace_ != api.meta.namespace_) continue;
    if (pod.pod.meta.labels.empty() || !api.selector->Matches(pod.pod.meta.labels)) continue;
    pod.pdbs.insert(std::upper_bound(pod.pdbs.begin(), pod.pdbs.end(), index), index);
    pdb_pods_[index].push_back(id);
    if (pod.state == PodState::kRunning) {
      s.healthy += pod.node != kNoId ? 1 : 0;
      s.expected += 1;
    } else if (pod.state == PodState::kPending) {
      s.expected += 1;
    }
    if (pod.node != kNoId) Touch(pod.node);
  }
  s.healthy_at_start = s.healthy;
  s.desired_at_start = s.Desired();
  *it = std::move(s);
  pdb_change_log_.push_back(index);
  ++pdb_generation_;
  ++generation_;
  ++progress_generation_;
}

bool ClusterModel::DeletePdb(std::string_view key) {
  auto it = std::find_if(pdbs_.begin(), pdbs_.end(), [&](const PdbState& p) { return p.key == key; });
  if (it == pdbs_.end() || it->deleted) return false;
  PodDisruptionBudget none = *it->api;
  none.selector.reset();  // selects nothing from now on
  ApplyPdb(none);
  std::find_if(pdbs_.begin(), pdbs_.end(), [&](const PdbState& p) { return p.key == key; })->deleted = true;
  return true;
}

}  // namespace kpsim::engine
