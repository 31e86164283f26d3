#pragma once

// The engine's cluster model: every node and pod under a dense id, with per-node aggregates
// (requested resources, bound pods, nominated pods, a generation counter) and live
// PodDisruptionBudget accounting. Built once from the admitted `ClusterState`; the simulator
// mutates it, dry runs never do (they work on `NodeView` copies).

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/api/quota.h"
#include "kpsim/api/types.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "kpsim/shared_string.h"
#include "kpsim/sim_time.h"
#include "snapshot/chunked_vector.h"
#include "snapshot/host_ports.h"
#include "snapshot/ids.h"
#include "snapshot/reason_table.h"

namespace kpsim::engine {

// Node-local scheduling constraints shared by many pods: pods with the same static class get the
// same NodeUnschedulable/NodeName/TaintToleration/NodeAffinity verdict on every node.
using StaticClassId = std::int32_t;

struct PodInfo {
  explicit PodInfo(const Pod& api) : pod(api) {}
  // The api object as admitted (an input pod in the ClusterState, a replacement in the model),
  // never changed: the live state (node, nomination, termination) is in the fields below.
  // (Fields are grouped by size within each part, so that a PodInfo carries little padding: a
  // run at 130,000 nodes keeps 650,000 of them.)
  const Pod& pod;
  SharedString key;  // "ns/name", shared with the timeline's events and the outcomes
  PodId id = kNoId;  // its own id in the model
  std::int32_t priority = 0;
  ResourceList request;          // effective requests plus pods=1
  std::int64_t nonzero_cpu = 0;  // scoring requests (100m / 200Mi defaults for zero requests)
  std::int64_t nonzero_memory = 0;
  std::int64_t grace_us = 30'000'000;
  std::vector<PdbId> pdbs;     // the PDBs selecting this pod, in order
  std::uint64_t bind_seq = 0;  // order of binding, keeps `NodeInfo::pods` in bind order
  StaticClassId static_class = 0;
  std::int32_t equivalence_class = 0;  // same class => same dry-run/filter result on a node
  PreemptionPolicy preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  bool has_pod_affinity = false;   // required pod affinity or anti-affinity terms
  bool owned = false;              // has ownerReferences: a controller replaces it when preempted
  bool is_input = true;
  bool replaced = false;           // a controller created a replacement for it
  bool replace_when_gone = false;  // deleted or evicted: a StatefulSet recreates it once gone
  bool waits_for_group = false;    // names a PodGroup that does not exist: never scheduled
  PodId replacement_of = kNoId;
  // Pod groups (GenericWorkload on): the leaf PodGroup, the priority the pod has as a victim (its
  // root group's), the highest `all` ancestor that makes it part of an atomic victim, and its
  // victim type rank in MoreImportantVictim (Pod 1, PodGroup 2).
  GroupId group = kNoId;
  std::int32_t victim_priority = 0;
  GroupId all_unit = kNoId;
  int type_rank = 1;

  // Live state.
  NodeId node = kNoId;
  NodeId nominated = kNoId;
  PodState state = PodState::kPending;
  bool terminating_by_preemption = false;
  bool in_queue = false;
  // Absent values are sentinels, not std::optional (which takes a second word each).
  static constexpr std::int64_t kNotStarted = std::numeric_limits<std::int64_t>::min();
  static constexpr SimTime kNever = SimTime::min();
  std::int64_t start_unix_us = kNotStarted;  // absolute, for the start-time tie-breakers
  SimTime scheduled_at = kNever;
  SimTime deleted_at = kNever;
  SharedString last_failure;  // the last FailedScheduling message

  // metadata.uid, or `key` when absent (MoreImportantVictim's last tie-break).
  std::string_view uid() const { return pod.meta.uid.empty() ? key.str() : std::string_view(pod.meta.uid); }
  bool IsBound() const { return node != kNoId; }
  bool IsTerminating() const { return state == PodState::kTerminating; }
};

struct NodeInfo {
  const Node* api = nullptr;
  SharedString name;  // shared with the timeline's events and the outcomes
  ResourceList allocatable;  // plus `pods` as given
  ResourceList requested;    // sum of bound pods' requests (running and terminating)
  std::int64_t nonzero_cpu = 0;
  std::int64_t nonzero_memory = 0;
  UsedPorts used_ports;          // host ports of bound pods (NodeInfo.UsedPorts)
  std::vector<PodId> pods;       // bound pods, in bind order
  std::vector<PodId> nominated;  // pods nominated to this node (always pending pods)
  // Parallel to `nominated`: what Filter reads of each, kept here so that filtering a node does
  // not touch the nominated pods' PodInfo.
  struct Nominee {
    std::int32_t priority = 0;
    ResourceList request;
  };
  std::vector<Nominee> nominees;
  std::uint64_t generation = 1;  // bumped on every change of pods or nominations
  // The lowest victim (group-aware) priority among `pods`, as of `min_victim_generation`: a dry
  // run for a pod of priority <= it has no victim, without touching the pods.
  std::uint64_t min_victim_generation = 0;
  std::int32_t min_victim_priority = 0;
  // In the cluster now. A node a Scenario step adds later is in the model from the start but
  // absent until then; a deleted node stays, absent, with its pods until the pod garbage
  // collector deletes them. Absent nodes are in no node order, so no cycle sees them.
  bool present = true;
  std::optional<SimTime> added_at, deleted_at;  // by Scenario steps (the last time of each)
};

// A PodGroup or CompositePodGroup (GenericWorkload on), with its place in the hierarchy.
struct GroupInfo {
  const PodGroup* api = nullptr;
  std::string key;  // "ns/name"
  bool composite = false;
  GroupId parent = kNoId;  // resolved parent CompositePodGroup (CompositePodGroup gate)
  GroupId root = kNoId;    // topmost resolved ancestor (itself when a root)
  std::int32_t priority = 0;
  DisruptionMode mode = DisruptionMode::kSingle;
  GroupId all_ancestor = kNoId;  // highest group with mode `all` on the way to the root
  bool gang = false;                  // gang policy enforced (GangScheduling gate)
  int min_count = 0;
  std::vector<GroupId> leaves;  // leaf PodGroups at or below this group
  std::vector<PodId> members;        // pods naming this PodGroup (leaves only)
  // Outcome bookkeeping.
  bool rejected = false;
  std::string message;
  int preempted = 0;
  bool preempted_whole = false;
};

struct PdbState {
  const PodDisruptionBudget* api = nullptr;
  std::string key;  // "ns/name"
  std::vector<std::string> disrupted_pods;  // pod names, sorted
  // `status.disruptionsAllowed` from the input, if any, and the counts it was taken at.
  std::optional<std::int32_t> given_allowed;
  std::int32_t healthy_at_start = 0;
  std::int32_t desired_at_start = 0;
  // Live counts of matching pods.
  bool deleted = false;       // a Scenario step deleted it: it selects nothing
  std::int32_t healthy = 0;   // running, not terminating
  std::int32_t expected = 0;  // existing, not terminating (pending or running)

  std::int32_t Desired() const;
  std::int32_t DisruptionsAllowed() const;
  // True iff status.disruptedPods already lists the pod: its eviction is counted in
  // disruptionsAllowed, so it consumes no budget again (filterPodsWithPDBViolation).
  bool ListsDisrupted(const std::string& pod_name) const {
    return std::binary_search(disrupted_pods.begin(), disrupted_pods.end(), pod_name);
  }
};

// The whole mutable cluster.
class ClusterModel {
 public:
  // Builds the model at time 0: pods with spec.nodeName are bound, the rest pending.
  ClusterModel(const ClusterState& state, const EngineOptions& options);
  // `state` must outlive the model (its pods, nodes and PDBs are referred to, not copied), and a
  // copy would refer to the original's replacements.
  ClusterModel(ClusterState&& state, const EngineOptions& options) = delete;
  ClusterModel(const ClusterModel&) = delete;
  ClusterModel& operator=(const ClusterModel&) = delete;
  ClusterModel(ClusterModel&&) = default;

  // One node, pod or pod group by its id (REQUIRES: a valid id).
  NodeInfo& node(NodeId id) { return nodes_[id]; }
  const NodeInfo& node(NodeId id) const { return nodes_[id]; }
  PodInfo& pod(PodId id) { return pods_[id]; }
  const PodInfo& pod(PodId id) const { return pods_[id]; }
  GroupInfo& group(GroupId id) { return groups_[id]; }
  const GroupInfo& group(GroupId id) const { return groups_[id]; }
  const PdbState& pdb(PdbId id) const { return pdbs_[id]; }
  using Nodes = IdVector<NodeId, NodeInfo>;
  using Pods = IdVector<PodId, PodInfo, ChunkedVector<PodInfo>>;  // references stay valid as it grows
  using Groups = IdVector<GroupId, GroupInfo>;
  using Pdbs = IdVector<PdbId, PdbState>;
  Nodes& nodes() { return nodes_; }
  const Nodes& nodes() const { return nodes_; }
  Pods& pods() { return pods_; }
  const Pods& pods() const { return pods_; }
  Pdbs& pdbs() { return pdbs_; }
  Groups& groups() { return groups_; }
  const Groups& groups() const { return groups_; }
  // Bound pods that belong to a disruptionMode `all` hierarchy: their victims span nodes, so
  // per-node caches are off while there are any.
  int bound_pods_in_all_units() const { return bound_in_all_units_; }
  // The lowest victim (group-aware) priority of any bound pod (INT32_MAX when none): a pod of
  // priority <= it has no preemption victim on any node.
  std::int32_t min_bound_victim_priority() const {
    return bound_victim_priorities_.empty() ? std::numeric_limits<std::int32_t>::max()
                                            : bound_victim_priorities_.begin()->first;
  }
  // All bound pods (running or terminating) of the leaves under group `ancestor`, by pod id.
  std::vector<PodId> BoundPodsUnder(GroupId ancestor) const;
  const Pdbs& pdbs() const { return pdbs_; }
  ReasonTable& reasons() { return reasons_; }
  const ReasonTable& reasons() const { return reasons_; }
  // Node order for filtering: kube-scheduler's node tree order (zones round-robin), present nodes
  // only (its size is the cluster's node count).
  const std::vector<NodeId>& node_order() const { return node_order_; }
  std::int64_t origin_unix_us() const { return origin_us_; }
  // "Now" for a pod without status.startTime at simulated time `now` (GetPodStartTime): later
  // than every creation and start the input recorded. Real kube-scheduler evaluates after all of
  // them, so such a pod never ties with the latest one, even when the origin (by default the
  // first pending pod's creation) is earlier. Pods bound during the run start at their bind time.
  std::int64_t NowUnixUs(SimTime now) const {
    return std::max(origin_us_ + now.time_since_epoch().count(), after_input_us_);
  }

  // A node in the cluster now (present).
  std::optional<NodeId> FindNode(std::string_view name) const;
  // Any node of the model: also one a Scenario step adds later, or one it deleted.
  std::optional<NodeId> FindAnyNode(std::string_view name) const;
  std::optional<PodId> FindPod(std::string_view key) const;

  // What `helper.DefaultSelector` looks up (PodTopologySpread's default constraints).
  // Services: the input's, then as Scenario steps applied or deleted them (`services_generation`
  // moves each time).
  const std::vector<Service>& services() const { return services_; }
  std::uint64_t services_generation() const { return services_generation_; }
  const std::vector<PodController>& controllers() const { return state_->controllers; }

  // Labels of a namespace (with kubernetes.io/metadata.name), for namespace selectors. The
  // reference stays valid for the model's life (its value changes when a step applies the namespace).
  const Labels& NamespaceLabels(const std::string& ns);

  // Mutations, each keeping aggregates, PDB counts and generations current.
  void Bind(PodId pod, NodeId node, SimTime now);
  void MarkTerminating(PodId pod, bool by_preemption);
  void Remove(PodId pod, SimTime now);  // a bound or pending pod is gone
  void SetNomination(PodId pod, NodeId node);  // kNoId clears
  // Tentative changes for pod-group cycles and workload-aware preemption, always undone before
  // the cycle ends: they move resources but not state, events or PDB counts.
  void Assume(PodId pod, NodeId node);  // a pending pod counts on `node`; its nomination hides
  void Forget(PodId pod);               // undoes Assume
  void Detach(PodId pod);               // a bound pod stops counting on its node
  void Reattach(PodId pod);             // undoes Detach
  // Creates the pending replacement for `victim` (its controller's new pod).
  PodId AddReplacement(PodId victim, std::string name, SimTime now);
  // The same in two halves, for a controller whose create the ResourceQuota plugin may refuse:
  // the new pod's api object, then adding it.
  Pod ReplacementPod(PodId victim, std::string name, SimTime now) const;
  PodId AddReplacement(PodId victim, Pod pod);
  // ResourceQuota usage of the pods that exist now (created pods counted, deleted ones not).
  const QuotaTracker& quotas() const { return quotas_; }

  // Scenario steps (kpsim.io/v1alpha1): objects that change during the run. The model keeps its
  // own copies of what they apply.
  // A pod created at `now` (pending; the caller binds one that names its node).
  PodId AddPod(const Pod& api, SimTime now);
  // A node's spec and status replaced (cordon, taint, an applied Node): its node-local verdicts
  // change, so `node_spec_generation()` moves.
  void UpdateNode(NodeId node, const Node& api);
  // A PodDisruptionBudget created or replaced: its pods are selected again and its budget counted
  // afresh, as the disruption controller would (a snapshot's status no longer applies).
  void ApplyPdb(const PodDisruptionBudget& api);
  // A PodDisruptionBudget deleted: it selects no pod any more. Returns false if there is none.
  bool DeletePdb(std::string_view key);
  // A ResourceQuota created or replaced: its usage is counted afresh over the pods that exist
  // now, as the quota controller would; deleted: it limits nothing (false if there is none).
  void ApplyQuota(const ResourceQuota& quota);
  bool DeleteQuota(std::string_view namespace_, std::string_view name) { return quotas_.DeleteQuota(namespace_, name); }
  // The ResourceQuota admission plugin's configuration replaced.
  void SetQuotaConfig(const QuotaAdmissionConfig& config) { quotas_.SetConfig(config); }
  // A Namespace created or updated: its labels from now on (every node's pod-dependent verdicts
  // may change, so every node is touched).
  void ApplyNamespace(const Namespace& ns);
  // A Service created, replaced or deleted (false if there is none): PodTopologySpread's default
  // selector reads them.
  void ApplyService(const Service& service);
  bool DeleteService(std::string_view namespace_, std::string_view name);
  // A PodGroup created (GenericWorkload on; its parent resolved against the composite groups that
  // exist): the pods that named it and waited join it. Returns those pods, for the caller to queue
  // the pending ones. REQUIRES: no leaf PodGroup of that key, not composite.
  std::vector<PodId> AddGroup(const PodGroup& api);
  // A PodGroup or CompositePodGroup "ns/name" exists.
  bool HasGroup(std::string_view key) const;
  bool generic_workload() const { return generic_workload_; }
  // An actuated in-place resize: the bound pod's requests become `requests` (plus pods=1).
  void ResizePod(PodId pod, const ResourceList& requests);
  // A node a Scenario step applies joins the cluster (nodeTree.addNode): it enters the node order,
  // and pods of the input bound to it by spec.nodeName start counting on it.
  // REQUIRES: the node is absent.
  void AddNode(NodeId node, const Node& api);
  // A node is deleted (nodeTree.removeNode): it leaves the node order; its pods stay bound to it
  // (the caller deletes them). REQUIRES: the node is present.
  void RemoveNode(NodeId node);
  // Bumped whenever the node order changes (a node added or deleted, or its zone changed):
  // what is kept by order position starts over.
  std::uint64_t node_set_generation() const { return node_set_generation_; }
  // Bumped by every UpdateNode, AddNode and RemoveNode: node-local caches start over.
  std::uint64_t node_spec_generation() const { return node_spec_generation_; }

  // Bumped whenever anything changes (pods, nominations).
  std::uint64_t generation() const { return generation_; }
  // Bumped when pods are bound, start terminating, leave or are created: a pod that failed
  // without preempting and has seen no progress since would fail again identically.
  std::uint64_t progress_generation() const { return progress_generation_; }
  // Bumped whenever a PDB's disruptionsAllowed may have changed.
  std::uint64_t pdb_generation() const { return pdb_generation_; }
  // Every PDB whose disruptionsAllowed changed, in order (with repeats), and the pods each
  // selects (by id, whatever their state): a dry run depends on the budgets of its node's pods'
  // PDBs only, so indexes invalidate just the nodes those pods are bound to.
  const std::vector<PdbId>& pdb_change_log() const { return pdb_change_log_; }
  const std::vector<PodId>& pdb_pods(PdbId pdb) const { return pdb_pods_[pdb]; }
  // Number of bound pods with required pod (anti-)affinity terms: when non-zero, filter results
  // depend on other nodes and the per-node caches are off.
  int bound_pods_with_affinity() const { return bound_with_affinity_; }

  // Every node whose generation was bumped, in order (with repeats): lets per-class indexes
  // catch up with what changed since they last looked.
  const std::vector<NodeId>& change_log() const { return change_log_; }
  // Position of each node in `node_order()`, and the node at a position.
  std::int32_t order_position(NodeId node) const { return order_pos_[node]; }
  NodeId node_at_position(std::int32_t pos) const { return node_order_[static_cast<std::size_t>(pos)]; }


 private:
  void Classify(PodInfo& info);
  void PlaceInTree(NodeId node, const Labels& labels);
  void TakeFromTree(NodeId node);
  void RebuildNodeOrder();
  void Touch(NodeId node);
  void BuildGroups(const ClusterState& state, const FeatureGates& gates);
  GroupInfo MakeGroupInfo(const PodGroup& api) const;
  GroupId ParentOf(const PodGroup& api) const;  // the resolved parent CompositePodGroup, or kNoId
  void LinkGroup(GroupId group);  // root, `all` ancestor and the leaves lists of its ancestors
  void JoinGroup(PodInfo& info, PodId id);
  void AddToNode(PodId pod, NodeId node);
  void RemoveFromNode(PodId pod);
  void AdjustPdbs(const PodInfo& info, int healthy_delta, int expected_delta);
  PodInfo MakePodInfo(const Pod& pod, bool is_input);
  // A pod created during the run (stored in replacement_pods_) joins the model, pending.
  PodId AddCreated(const Pod& pod, PodId replacement_of);

  const ClusterState* state_;  // outlives the model: nodes and PDBs point into it
  Nodes nodes_;
  Pods pods_;
  std::deque<Pod> replacement_pods_;  // the api objects of pods created during the run (`PodInfo::pod`)
  std::deque<Node> updated_nodes_;    // nodes as Scenario steps left them (`NodeInfo::api`)
  std::deque<PodDisruptionBudget> applied_pdbs_;  // PDBs as Scenario steps applied them
  std::uint64_t node_spec_generation_ = 1;
  QuotaTracker quotas_;
  Pdbs pdbs_;
  Groups groups_;
  std::unordered_map<std::string, GroupId> group_ids_;      // leaf PodGroups by "ns/name"
  std::unordered_map<std::string, GroupId> composite_ids_;  // CompositePodGroups by "ns/name"
  std::deque<PodGroup> applied_groups_;  // PodGroups Scenario steps created (`GroupInfo::api`)
  IdVector<PodId, NodeId> assumed_nomination_;          // for Assume/Forget
  bool generic_workload_ = false;
  bool gang_scheduling_ = false;
  bool composite_pod_group_ = false;
  int bound_in_all_units_ = 0;
  std::map<std::int32_t, int> bound_victim_priorities_;  // bound pods by victim priority
  std::uint64_t bind_counter_ = 0;
  std::vector<NodeId> node_order_;
  // The node tree: zones (region and zone labels) in the order they appeared, each with its
  // present nodes in the order they were added.
  std::vector<std::pair<std::string, std::vector<NodeId>>> zones_;
  std::uint64_t node_set_generation_ = 1;
  IdVector<NodeId, std::int32_t> order_pos_;
  std::vector<NodeId> change_log_;
  ReasonTable reasons_;
  std::map<std::string, Labels, std::less<>> namespace_labels_;  // a map: references stay valid
  std::vector<Service> services_;
  std::uint64_t services_generation_ = 1;
  // What makes two pods' filter and dry-run results equal on every node (`equivalence_class`).
  struct EquivalenceKey {
    std::string namespace_;
    std::int32_t priority = 0;
    std::int64_t milli_cpu = 0, memory = 0, ephemeral_storage = 0, pods = 0;
    StaticClassId static_class = 0;
    std::vector<std::pair<std::string, std::int64_t>> scalar;
    std::vector<HostPort> host_ports;
    std::string affinity_owner;  // the pod's key when it has required pod (anti-)affinity
    bool operator==(const EquivalenceKey&) const = default;
  };
  struct EquivalenceKeyHash {
    std::size_t operator()(const EquivalenceKey& k) const;
  };
  std::unordered_map<EquivalenceKey, std::int32_t, EquivalenceKeyHash> class_ids_;
  std::unordered_map<std::string, std::int32_t> static_class_ids_;  // static classes
  std::string static_key_;  // Classify's scratch
  std::string key_scratch_;  // MakePodInfo's
  StaticClassId unconstrained_class_ = -1;  // the static class of pods without constraints
  // Names to ids. The keys view the names' shared texts (PodInfo::key, NodeInfo::name), which
  // never change and outlive the maps, rather than holding a copy of each name.
  template <typename Id>
  using NameMap = std::unordered_map<std::string_view, Id>;
  NameMap<NodeId> node_ids_;
  NameMap<PodId> pod_ids_;
  std::uint64_t generation_ = 1;
  std::uint64_t pdb_generation_ = 1;
  std::vector<PdbId> pdb_change_log_;
  IdVector<PdbId, std::vector<PodId>> pdb_pods_;
  std::uint64_t progress_generation_ = 1;
  int bound_with_affinity_ = 0;
  std::int64_t origin_us_ = 0;
  // One microsecond after the latest creationTimestamp or status.startTime of any node or pod in
  // the input (INT64_MIN when there is none).
  std::int64_t after_input_us_ = std::numeric_limits<std::int64_t>::min();
};

}  // namespace kpsim::engine
