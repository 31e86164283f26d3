#pragma once

// The Kubernetes API objects kpsim understands, as plain values (house style G4).
// Field names mirror Kubernetes. Optional fields are `std::optional`. These types do no I/O and no
// defaulting: `io/` decodes manifests into them, `admission/` defaults and resolves them.

#include <compare>
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "kpsim/expected.h"

namespace kpsim {

// ---------------------------------------------------------------------------------------------
// Quantities and resources.

// A Kubernetes resource quantity, held exactly in milli-units ("100m" = 100, "1" = 1000,
// "1Gi" = 1073741824000). Parsed once (`Parse`), never re-read from strings.
struct Quantity {
  std::int64_t milli = 0;

  // Parses Kubernetes' quantity grammar: decimal numbers with optional exponent (`1e3`, `1.5E-1`),
  // decimal SI suffixes (n u m "" k M G T P E), binary suffixes (Ki Mi Gi Ti Pi Ei). Sub-milli
  // precision is rounded up (as Kubernetes' MilliValue does). Errors on bad syntax or overflow.
  static Expected<Quantity> Parse(std::string_view text);

  // Integer value rounded up (Kubernetes `Value()`), e.g. bytes for memory.
  std::int64_t Value() const;
  std::int64_t MilliValue() const { return milli; }

  friend bool operator==(const Quantity&, const Quantity&) = default;
  friend auto operator<=>(const Quantity&, const Quantity&) = default;
};

// An integer amount as Kubernetes prints a BinarySI quantity (Quantity.String): the largest
// binary suffix that divides it exactly ("3Gi", "512Mi"), else the plain number ("1500000000").
std::string FormatBinarySI(std::int64_t amount);

// Well-known resource names.
inline constexpr std::string_view kResourceCpu = "cpu";
inline constexpr std::string_view kResourceMemory = "memory";
inline constexpr std::string_view kResourceEphemeralStorage = "ephemeral-storage";
inline constexpr std::string_view kResourcePods = "pods";

// A set of resource amounts in the units kube-scheduler's NodeResourcesFit compares: milli-CPU,
// bytes of memory and ephemeral storage, a pod count, and integer amounts of extended ("scalar")
// resources such as `nvidia.com/gpu` (sorted by name, no duplicates, no zero entries).
// Resource vectors are only partially ordered, so there is no `<`; use `Fits`.
struct ResourceList {
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::int64_t ephemeral_storage = 0;
  std::int64_t pods = 0;
  std::vector<std::pair<std::string, std::int64_t>> scalar;

  // Sets one resource by its Kubernetes name; `cpu` takes the milli value, the rest `Value()`.
  void Set(std::string_view name, const Quantity& q);
  // Returns the amount of a scalar resource, 0 if absent.
  std::int64_t Scalar(std::string_view name) const;
  void SetScalar(std::string_view name, std::int64_t value);

  ResourceList& operator+=(const ResourceList& other);
  ResourceList& operator-=(const ResourceList& other);
  friend ResourceList operator+(ResourceList a, const ResourceList& b) { return a += b; }
  friend ResourceList operator-(ResourceList a, const ResourceList& b) { return a -= b; }
  // Component-wise max (used for init containers).
  static ResourceList Max(const ResourceList& a, const ResourceList& b);
  // True iff every component of `request` is <= the same component of *this.
  bool Fits(const ResourceList& request) const;
  bool IsZero() const;

  friend bool operator==(const ResourceList&, const ResourceList&) = default;
};

// ---------------------------------------------------------------------------------------------
// Labels and selectors.

// Labels as a sorted vector of (key, value); keys unique.
using Labels = std::vector<std::pair<std::string, std::string>>;

// Returns the value for `key`, or nullptr.
const std::string* FindLabel(const Labels& labels, std::string_view key);

// metav1.LabelSelector operators.
enum class SelectorOperator : std::uint8_t { kIn, kNotIn, kExists, kDoesNotExist };

struct LabelSelectorRequirement {
  std::string key;
  SelectorOperator op = SelectorOperator::kIn;
  std::vector<std::string> values;
  friend bool operator==(const LabelSelectorRequirement&, const LabelSelectorRequirement&) = default;
};

// metav1.LabelSelector. An empty selector (no labels, no expressions) matches everything when used
// by pod affinity, and nothing when used by a PodDisruptionBudget (callers decide; see `IsEmpty`).
struct LabelSelector {
  Labels match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;

  bool IsEmpty() const { return match_labels.empty() && match_expressions.empty(); }
  bool Matches(const Labels& labels) const;
  friend bool operator==(const LabelSelector&, const LabelSelector&) = default;
};

// core/v1 NodeSelectorOperator.
enum class NodeSelectorOperator : std::uint8_t { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt };

struct NodeSelectorRequirement {
  std::string key;
  NodeSelectorOperator op = NodeSelectorOperator::kIn;
  std::vector<std::string> values;
  friend bool operator==(const NodeSelectorRequirement&, const NodeSelectorRequirement&) = default;
};

// A term matches when all its expressions and fields match. `match_fields` supports only
// `metadata.name` (as Kubernetes).
struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;
  // One term as `NodeSelector::Matches` reads it (an empty or invalid term matches nothing).
  bool Matches(std::string_view node_name, const Labels& node_labels) const;
  friend bool operator==(const NodeSelectorTerm&, const NodeSelectorTerm&) = default;
};

// requiredDuringSchedulingIgnoredDuringExecution: the terms are ORed.
struct NodeSelector {
  std::vector<NodeSelectorTerm> terms;
  bool Matches(std::string_view node_name, const Labels& node_labels) const;
  friend bool operator==(const NodeSelector&, const NodeSelector&) = default;
};

// ---------------------------------------------------------------------------------------------
// Object metadata.

// Wall-clock time from a manifest (RFC 3339), in microseconds since the Unix epoch.
struct WallTime {
  std::int64_t unix_micros = 0;
  // Parses "2024-05-01T12:00:00Z", "2024-05-01T12:00:00.123456Z", "...+02:00".
  static Expected<WallTime> Parse(std::string_view rfc3339);
  std::string ToRfc3339() const;
  friend bool operator==(const WallTime&, const WallTime&) = default;
  friend auto operator<=>(const WallTime&, const WallTime&) = default;
};

struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  bool controller = false;
  friend bool operator==(const OwnerReference&, const OwnerReference&) = default;
};

// A Node annotated `kpsim.io/node-template: "true"` is no node of the cluster but a node group's
// template for `simulate --scale-up` (the autoscaler's new nodes are copies of it).
inline constexpr std::string_view kNodeTemplateAnnotation = "kpsim.io/node-template";

// The pending reason of a pod whose spec.nodeName names no node of the cluster: one not in the
// input, or a node template's name (a Node of a dump annotated as a template leaves the cluster,
// and its pods stay bound to its name). The BoundToMissingNode warning starts with it.
inline std::string BoundToMissingNodeReason(std::string_view node, bool is_template) {
  std::string out = "bound to node ";
  out += node;
  out += is_template ? ", which is a node template, not a node of the cluster" : ", which is not in the input";
  return out;
}
// The BoundToMissingNode warning's message: the reason and what follows from it.
inline std::string BoundToMissingNodeWarning(std::string_view node, bool is_template) {
  std::string out = BoundToMissingNodeReason(node, is_template);
  out += ": it holds no node's resources and is never a victim";
  if (is_template) out += " (to keep the node in the cluster, give the template as a copy under another name)";
  return out;
}

struct ObjectMeta {
  std::string name;
  std::string generate_name;
  std::string namespace_;  // empty for cluster-scoped objects; pods default to "default" in admission
  std::string uid;
  Labels labels;
  // Only the annotations kpsim reads (kubernetes.io/config.source and kubernetes.io/config.mirror,
  // which make a pod static or mirror; kNodeTemplateAnnotation); the rest are not kept.
  Labels annotations;
  std::vector<OwnerReference> owner_references;
  std::optional<WallTime> creation_timestamp;
  std::optional<WallTime> deletion_timestamp;
  friend bool operator==(const ObjectMeta&, const ObjectMeta&) = default;
};

// ---------------------------------------------------------------------------------------------
// PriorityClass (scheduling.k8s.io/v1).

enum class PreemptionPolicy : std::uint8_t { kPreemptLowerPriority, kNever };
std::string_view PreemptionPolicyName(PreemptionPolicy p);  // "PreemptLowerPriority" / "Never"

struct PriorityClass {
  ObjectMeta meta;
  std::int32_t value = 0;
  bool global_default = false;
  std::string description;
  // Unset until admission defaults it. `preemption_policy_raw` keeps an unsupported spelling
  // so admission can report it with Kubernetes' NotSupported message.
  std::optional<PreemptionPolicy> preemption_policy;
  std::optional<std::string> preemption_policy_raw;
  friend bool operator==(const PriorityClass&, const PriorityClass&) = default;
};

// Built-in classes (spec rule 1.2/1.3).
inline constexpr std::int32_t kHighestUserDefinablePriority = 1000000000;
inline constexpr std::int32_t kSystemCriticalPriority = 2000000000;
inline constexpr std::string_view kSystemClusterCritical = "system-cluster-critical";
inline constexpr std::string_view kSystemNodeCritical = "system-node-critical";

// ---------------------------------------------------------------------------------------------
// Node (core/v1).

enum class TaintEffect : std::uint8_t { kNoSchedule, kPreferNoSchedule, kNoExecute };

std::string_view TaintEffectName(TaintEffect effect);  // "NoSchedule", ...

struct Taint {
  std::string key;
  std::string value;
  TaintEffect effect = TaintEffect::kNoSchedule;
  friend bool operator==(const Taint&, const Taint&) = default;
};

// status.images[]: an image the node holds, under each of its names (ImageLocality).
struct ContainerImage {
  std::vector<std::string> names;
  std::int64_t size_bytes = 0;
  friend bool operator==(const ContainerImage&, const ContainerImage&) = default;
};

struct Node {
  ObjectMeta meta;
  bool unschedulable = false;
  std::vector<Taint> taints;
  // status.allocatable, falling back per resource to status.capacity (decided in io/).
  ResourceList allocatable;
  std::vector<ContainerImage> images;
  // spec.podPreemptionPolicy.disableResizePreemption (InPlacePodVerticalScalingSchedulerPreemption):
  // non-empty refuses preemption for resizes of its pods.
  std::vector<std::string> disable_resize_preemption;
  bool has_pod_preemption_policy = false;  // spec.podPreemptionPolicy is set at all
  friend bool operator==(const Node&, const Node&) = default;
};

// ---------------------------------------------------------------------------------------------
// Pod (core/v1).

enum class TolerationOperator : std::uint8_t { kEqual, kExists };

struct Toleration {
  std::string key;  // empty with kExists tolerates every key
  TolerationOperator op = TolerationOperator::kEqual;
  std::string value;
  std::optional<TaintEffect> effect;  // unset tolerates every effect
  std::optional<std::int64_t> toleration_seconds;
  // Mirrors `Toleration.ToleratesTaint` (k8s.io/api/core/v1/toleration.go).
  bool Tolerates(const Taint& taint) const;
  friend bool operator==(const Toleration&, const Toleration&) = default;
};

struct PodAffinityTerm {
  std::optional<LabelSelector> label_selector;  // unset matches nothing
  std::vector<std::string> namespaces;          // empty + no namespace_selector = the pod's namespace
  std::optional<LabelSelector> namespace_selector;
  std::string topology_key;

  // AffinityTerm.Matches, with the namespaces of GetNamespacesFromPodAffinityTerm: a pod in
  // `target_namespace` with `target_labels` is selected by this term as written in the spec of a
  // pod in `owner_namespace`. `namespace_labels(name)` returns a namespace's labels (a const
  // Labels&); it is asked only when the namespaceSelector decides.
  template <typename NamespaceLabels>
  bool Matches(std::string_view owner_namespace, std::string_view target_namespace,
               const Labels& target_labels, NamespaceLabels&& namespace_labels) const {
    bool namespace_ok = false;
    if (namespaces.empty() && !namespace_selector) {
      namespace_ok = target_namespace == owner_namespace;
    } else {
      namespace_ok =
          std::find(namespaces.begin(), namespaces.end(), target_namespace) != namespaces.end();
      if (!namespace_ok && namespace_selector) {
        namespace_ok = namespace_selector->Matches(namespace_labels(target_namespace));
      }
    }
    return namespace_ok && label_selector && label_selector->Matches(target_labels);
  }
  friend bool operator==(const PodAffinityTerm&, const PodAffinityTerm&) = default;
};

// preferredDuringSchedulingIgnoredDuringExecution of node affinity: a weight (1-100) earned on
// nodes the preference matches (NodeAffinity's Score).
struct PreferredSchedulingTerm {
  std::int32_t weight = 0;
  NodeSelectorTerm preference;
  friend bool operator==(const PreferredSchedulingTerm&, const PreferredSchedulingTerm&) = default;
};

// preferredDuringSchedulingIgnoredDuringExecution of pod (anti-)affinity (InterPodAffinity's
// Score).
struct WeightedPodAffinityTerm {
  std::int32_t weight = 0;
  PodAffinityTerm term;
  friend bool operator==(const WeightedPodAffinityTerm&, const WeightedPodAffinityTerm&) = default;
};

struct Affinity {
  std::optional<NodeSelector> node_affinity_required;
  std::vector<PodAffinityTerm> pod_affinity_required;
  std::vector<PodAffinityTerm> pod_anti_affinity_required;
  std::vector<PreferredSchedulingTerm> node_affinity_preferred;
  std::vector<WeightedPodAffinityTerm> pod_affinity_preferred;
  std::vector<WeightedPodAffinityTerm> pod_anti_affinity_preferred;
  friend bool operator==(const Affinity&, const Affinity&) = default;
};

// A host port a container asks for (containers[].ports[] with hostPort set; with hostNetwork,
// every containerPort, as API defaulting makes it). Mirrors what NodePorts reads.
struct HostPort {
  std::int32_t port = 0;      // hostPort
  std::string protocol;       // "TCP" (the default), "UDP" or "SCTP"
  std::string host_ip;        // empty: every address (0.0.0.0)
  friend bool operator==(const HostPort&, const HostPort&) = default;
};

enum class UnsatisfiableConstraintAction : std::uint8_t { kDoNotSchedule, kScheduleAnyway };
enum class NodeInclusionPolicy : std::uint8_t { kHonor, kIgnore };

// spec.topologySpreadConstraints[] (PodTopologySpread).
struct TopologySpreadConstraint {
  std::int32_t max_skew = 0;
  std::string topology_key;
  UnsatisfiableConstraintAction when_unsatisfiable = UnsatisfiableConstraintAction::kDoNotSchedule;
  std::optional<LabelSelector> label_selector;
  std::optional<std::int32_t> min_domains;
  std::optional<NodeInclusionPolicy> node_affinity_policy;  // unset: Honor
  std::optional<NodeInclusionPolicy> node_taints_policy;    // unset: Ignore
  std::vector<std::string> match_label_keys;
  friend bool operator==(const TopologySpreadConstraint&,
                         const TopologySpreadConstraint&) = default;
};

struct SchedulingGroup {
  std::string pod_group_name;  // spec.schedulingGroup.podGroupName (same namespace)
  friend bool operator==(const SchedulingGroup&, const SchedulingGroup&) = default;
};

struct PodCondition {
  std::string type;
  std::string status;  // "True" / "False" / "Unknown"
  std::string reason;
  std::string message;
  friend bool operator==(const PodCondition&, const PodCondition&) = default;
};

// Pod fields that kube-scheduler plugins read and kpsim does not model: the decoder notes them
// (a bit each in `PodSpec::unmodeled`) so the run can say how many pods use each.
enum class UnmodeledField : std::uint8_t {
  kVolumes,            // PVC, ephemeral, CSI and cloud-disk volumes (Volume* plugins)
  kResourceClaims,     // spec.resourceClaims (DynamicResources)
};
inline constexpr int kUnmodeledFieldCount = 2;
// The field as a person reads it in a manifest, and the kube-scheduler plugin that reads it.
std::string_view UnmodeledFieldName(UnmodeledField field);
std::string_view UnmodeledFieldPlugin(UnmodeledField field);

// A container's name, the requests the kubelet's eviction messages compare its usage with
// (evictionMessage), and which cpu/memory requests and limits it declares
// (ResourceQuota's `must specify` check), for regular and init containers.
struct ContainerRequest {
  static constexpr std::uint8_t kRequestsCpu = 1, kRequestsMemory = 2, kLimitsCpu = 4, kLimitsMemory = 8;
  std::string name;
  std::int64_t memory = 0;             // bytes
  std::int64_t ephemeral_storage = 0;  // bytes
  std::uint8_t declared = 0;           // which of requests/limits cpu/memory it declares (limits imply requests)
  bool init = false;                   // an init container (sidecars included)
  friend bool operator==(const ContainerRequest&, const ContainerRequest&) = default;
};

struct PodSpec {
  std::string node_name;
  std::string scheduler_name;  // empty = "default-scheduler"
  std::optional<std::int32_t> priority;
  std::string priority_class_name;
  std::optional<PreemptionPolicy> preemption_policy;
  std::optional<std::string> preemption_policy_raw;  // an unsupported spelling, for admission
  Labels node_selector;
  Affinity affinity;
  std::vector<Toleration> tolerations;
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
  // Host ports of the containers and of the sidecars (restartable init containers), as
  // kube-scheduler's GetHostPorts collects them; ports without a host port are left out.
  std::vector<HostPort> host_ports;
  // Images of the init containers, then of the containers, as written (ImageLocality).
  std::vector<std::string> images;
  std::optional<std::int64_t> termination_grace_period_seconds;
  // Effective requests, combined from containers, initContainers (sidecars included) and overhead
  // as Kubernetes' `resourcehelper.PodRequests` does. Does not include the implicit 1 "pods".
  // A container whose status reports resources (in-place resize) counts, for cpu and memory, the
  // larger of its spec, actuated and allocated values (only the last two when its resize is
  // Infeasible): PodRequests with UseStatusResources, as kube-scheduler accounts a bound pod.
  ResourceList requests;
  std::vector<ContainerRequest> containers;  // spec.containers, then spec.initContainers, in order
  // Limits combined as `PodLimits` does (for ResourceQuota's limits.*); 0 where none is set.
  ResourceList limits;
  bool active_deadline = false;  // spec.activeDeadlineSeconds is set (quota scope Terminating)
  std::optional<SchedulingGroup> scheduling_group;
  // spec.schedulingGates[].name, in order: while any is left the SchedulingGates PreEnqueue
  // plugin keeps the pod out of the scheduling queue.
  std::vector<std::string> scheduling_gates;
  // Bit `1 << UnmodeledField` set when the manifest uses that field (see `UnmodeledField`).
  std::uint32_t unmodeled = 0;
  bool Uses(UnmodeledField field) const {
    return (unmodeled >> static_cast<unsigned>(field)) & 1U;
  }
  void NoteUse(UnmodeledField field) { unmodeled |= 1U << static_cast<unsigned>(field); }
  friend bool operator==(const PodSpec&, const PodSpec&) = default;
};

// A resize the kubelet has not actuated yet, as a snapshot shows it: spec.containers[].resources
// asks for more (or less) than status reports. Filled in by the reader from the two.
struct PendingResize {
  ResourceList desired;    // the pod's requests as its spec asks (PodRequests without status)
  // What the pod holds on its node now: per container max(actuated, allocatedResources) where
  // the status reports them, the spec's values elsewhere.
  ResourceList allocated;
  // The PodResizePending condition's reason: "Deferred", "Infeasible", or empty while the resize
  // is in progress (no such condition).
  std::string reason;
  friend bool operator==(const PendingResize&, const PendingResize&) = default;
};

struct PodStatus {
  std::string phase;
  std::optional<WallTime> start_time;
  std::string nominated_node_name;
  std::vector<PodCondition> conditions;
  std::optional<PendingResize> resize;
  friend bool operator==(const PodStatus&, const PodStatus&) = default;
};

struct Pod {
  ObjectMeta meta;
  PodSpec spec;
  PodStatus status;
  friend bool operator==(const Pod&, const Pod&) = default;
};

// ---------------------------------------------------------------------------------------------
// PodDisruptionBudget (policy/v1).

// An int or a percentage ("50%").
struct IntOrString {
  bool is_percent = false;
  std::int32_t value = 0;  // the int, or the percentage number
  friend bool operator==(const IntOrString&, const IntOrString&) = default;
};

struct PodDisruptionBudget {
  ObjectMeta meta;
  std::optional<IntOrString> min_available;
  std::optional<IntOrString> max_unavailable;
  std::optional<LabelSelector> selector;  // unset or empty matches nothing (policy/v1 semantics)
  // status as given in a snapshot; kpsim keeps it current while simulating.
  std::optional<std::int32_t> disruptions_allowed;
  std::vector<std::string> disrupted_pods;  // pod names (status.disruptedPods keys)
  friend bool operator==(const PodDisruptionBudget&, const PodDisruptionBudget&) = default;
};

// ---------------------------------------------------------------------------------------------
// Namespace (core/v1).

struct Namespace {
  ObjectMeta meta;
  friend bool operator==(const Namespace&, const Namespace&) = default;
};

// ---------------------------------------------------------------------------------------------
// Service (core/v1): only what kube-scheduler reads of it, the pods it selects
// (`helper.DefaultSelector` via `GetPodServices`, for PodTopologySpread's default constraints).

struct Service {
  ObjectMeta meta;
  // spec.selector. Unset selects no pod ("services with nil selectors match nothing"); an empty
  // map selects every pod of the namespace.
  std::optional<Labels> selector;
  friend bool operator==(const Service&, const Service&) = default;
};

// A controller that selects its pods, as `helper.DefaultSelector` looks it up through a pod's
// controller ownerReference: a ReplicaSet or StatefulSet (apps/v1), from the input or created by
// a Deployment's expansion.
struct PodController {
  std::string kind;  // "ReplicaSet" or "StatefulSet"
  std::string namespace_;
  std::string name;
  std::optional<LabelSelector> selector;  // spec.selector
  friend bool operator==(const PodController&, const PodController&) = default;
};

// ---------------------------------------------------------------------------------------------
// PodGroup / CompositePodGroup (scheduling.k8s.io v1alpha2, v1alpha3, v1beta1).

enum class DisruptionMode : std::uint8_t { kSingle, kAll };

struct PodGroupPolicy {
  bool gang = false;                     // `gang: {minCount}`; false = `basic: {}`
  std::int32_t min_count = 0;            // only with gang
  friend bool operator==(const PodGroupPolicy&, const PodGroupPolicy&) = default;
};

// Both PodGroup and CompositePodGroup; `composite` tells which.
struct PodGroup {
  ObjectMeta meta;
  bool composite = false;
  PodGroupPolicy scheduling_policy;      // PodGroup only
  std::optional<DisruptionMode> disruption_mode;  // unset = single
  std::string priority_class_name;
  std::optional<std::int32_t> priority;
  std::optional<PreemptionPolicy> preemption_policy;
  std::optional<std::string> preemption_policy_raw;
  std::string parent_composite_pod_group_name;  // empty = root
  std::vector<std::string> topology_keys;       // schedulingConstraints.topology[].key
  friend bool operator==(const PodGroup&, const PodGroup&) = default;
};

// ---------------------------------------------------------------------------------------------
// ResourceQuota (v1) and the ResourceQuota admission plugin's configuration: what kpsim reads for
// pods (kpsim/api/quota.h does the arithmetic).

enum class ScopeOperator : std::uint8_t { kIn, kNotIn, kExists, kDoesNotExist };

// A ScopedResourceSelectorRequirement: `scopeName` (PriorityClass, BestEffort, ...), `operator`,
// `values`.
struct ScopeRequirement {
  std::string scope_name;
  ScopeOperator op = ScopeOperator::kIn;
  std::string op_raw;  // as written when not one of the four (admission refuses it)
  std::vector<std::string> values;
  friend bool operator==(const ScopeRequirement&, const ScopeRequirement&) = default;
};
// As Go's %v prints the struct: "{PriorityClass In [high low]}".
std::string ScopeRequirementText(const ScopeRequirement& r);

struct ResourceQuota {
  ObjectMeta meta;
  std::vector<std::pair<std::string, Quantity>> hard;  // spec.hard, in input order
  std::vector<std::string> scopes;                     // spec.scopes
  std::vector<ScopeRequirement> scope_selector;        // spec.scopeSelector.matchExpressions
  friend bool operator==(const ResourceQuota&, const ResourceQuota&) = default;
};

// ResourceQuotaConfiguration.limitedResources (apiserver.config.k8s.io/v1), from an
// AdmissionConfiguration's ResourceQuota plugin.
struct LimitedResource {
  std::string api_group;
  std::string resource;  // "pods"
  std::vector<std::string> match_contains;
  std::vector<ScopeRequirement> match_scopes;
  friend bool operator==(const LimitedResource&, const LimitedResource&) = default;
};
struct QuotaAdmissionConfig {
  ObjectMeta meta;  // name "ResourceQuota" (the plugin), for messages
  std::vector<LimitedResource> limited_resources;
  friend bool operator==(const QuotaAdmissionConfig&, const QuotaAdmissionConfig&) = default;
};

// ---------------------------------------------------------------------------------------------
// A decoded manifest object with its provenance.

enum class ObjectKind : std::uint8_t {
  kNode,
  kPod,
  kPriorityClass,
  kPodDisruptionBudget,
  kNamespace,
  kPodGroup,
  kCompositePodGroup,
  kService,
  kResourceQuota,
  kAdmissionConfiguration,  // its ResourceQuota plugin's configuration (QuotaAdmissionConfig)
};
std::string_view ObjectKindName(ObjectKind kind);  // "Node", "Pod", ...
bool IsClusterScoped(ObjectKind kind);

// Where an object came from.
struct SourceRef {
  std::string file;   // path as given, or "-" for stdin
  int document = 0;   // 1-based YAML document, or 1-based item of a List; 0 = whole file
  int line = 0;       // 1-based, 0 = unknown (JSON)
  std::string ToString() const;  // "file:line" / "file (item N)"
  friend bool operator==(const SourceRef&, const SourceRef&) = default;
};

// Something kpsim kept, skipped, changed or does not model, said out loud (never silently):
// an object kept against admission, a skipped file, a field kpsim ignores. Warnings never stop a
// run. Every stage appends its own (`ReadResult`, `AdmissionResult`, `SimulationResult`) and the
// CLI prints them all: a `warnings` array in JSON, a Warnings section in text and HTML, and
// `warning:` lines on stderr.
struct Warning {
  SourceRef source;     // where the object or file came from; empty file when not tied to input
  std::string object;   // "Pod ns/name", "Node n1", or empty for a file or run-wide warning
  std::string code;     // stable CamelCase identifier, e.g. "KeptAgainstAdmission"
  std::string message;  // one sentence for a person, without the location (renderers add it)
  friend bool operator==(const Warning&, const Warning&) = default;
};

struct Object {
  ObjectKind kind = ObjectKind::kPod;
  SourceRef source;
  // The alternative matching `kind` (PodGroup serves kPodGroup and kCompositePodGroup).
  std::variant<Node, Pod, PriorityClass, PodDisruptionBudget, Namespace, PodGroup, Service, ResourceQuota,
               QuotaAdmissionConfig>
      value;

  const ObjectMeta& meta() const;
  // "ns/name" for namespaced kinds, "name" for cluster-scoped ones.
  std::string DisplayName() const;
};

// ---------------------------------------------------------------------------------------------
// PodMetrics (metrics.k8s.io/v1beta1): what the metrics API reports a pod's containers use, as
// `kubectl get --raw /apis/metrics.k8s.io/v1beta1/namespaces/NS/pods` prints it. Observations,
// not cluster objects: the kubelet's eviction ranking reads them (kpsim/eviction.h).

struct ContainerMetrics {
  std::string name;
  ResourceList usage;  // cpu and memory
  friend bool operator==(const ContainerMetrics&, const ContainerMetrics&) = default;
};

struct PodMetrics {
  ObjectMeta meta;
  SourceRef source;
  std::vector<ContainerMetrics> containers;
  friend bool operator==(const PodMetrics&, const PodMetrics&) = default;
};

// ---------------------------------------------------------------------------------------------
// Workloads (apps/v1 Deployment, ReplicaSet, StatefulSet, DaemonSet; batch/v1 Job).
//
// kpsim does not run these objects: a stage before admission (`ExpandWorkloads`,
// kpsim/admission.h) turns each into the pods its controller would create from `pod_template`.

enum class WorkloadKind : std::uint8_t { kDeployment, kReplicaSet, kStatefulSet, kJob, kDaemonSet };
std::string_view WorkloadKindName(WorkloadKind kind);        // "Deployment", ...
std::string_view WorkloadApiVersion(WorkloadKind kind);      // "apps/v1" or "batch/v1"

struct Workload {
  WorkloadKind kind = WorkloadKind::kDeployment;
  SourceRef source;
  ObjectMeta meta;
  // Deployment, ReplicaSet, StatefulSet: spec.replicas (unset = 1, as API defaulting).
  std::optional<std::int32_t> replicas;
  std::optional<LabelSelector> selector;  // spec.selector (Job: only with manualSelector)
  // spec.template: its metadata and spec, decoded as a Pod (status empty).
  Pod pod_template;
  bool host_network = false;  // spec.template.spec.hostNetwork (DaemonSet tolerations)
  // StatefulSet.
  std::string service_name;
  std::string pod_management_policy;  // "OrderedReady" (default) or "Parallel"
  std::int32_t ordinals_start = 0;    // spec.ordinals.start
  // Job.
  std::optional<std::int32_t> parallelism;
  std::optional<std::int32_t> completions;
  bool indexed = false;  // spec.completionMode: Indexed
  bool suspend = false;
  bool manual_selector = false;
  std::int32_t succeeded = 0;  // status.succeeded
  // How many `Object`s of the same read came before it: its place in input order.
  std::size_t position = 0;

  // "ns/name" (an unset namespace shown as "default").
  std::string DisplayName() const;
  friend bool operator==(const Workload&, const Workload&) = default;
};

// ---------------------------------------------------------------------------------------------
// Scenario (kpsim.io/v1alpha1, kpsim's own kind): things that happen to the cluster at chosen
// times of a run. It lives beside the cluster it acts on, in the same files and directories.
//
//   apiVersion: kpsim.io/v1alpha1
//   kind: Scenario
//   metadata: {name: drain-and-burst}
//   spec:
//     steps:
//     - at: 30s                     # a Go duration after the run's time 0
//       cordon: node-1              # exactly one action per step
//     - at: 45s
//       apply: {apiVersion: v1, kind: Pod, ...}

enum class StepAction : std::uint8_t {
  kApply,     // create or update an object (Pod, Node, PodDisruptionBudget, PriorityClass, ...)
  kDelete,    // delete an object by kind, namespace and name
  kCordon,    // node.spec.unschedulable = true
  kUncordon,  // node.spec.unschedulable = false
  kTaint,     // add (or replace) a taint on a node
  kUntaint,   // remove a node's taint by key and effect
  kPressure,  // a node crosses a kubelet eviction threshold, with its pods' usage
  kResize,    // an in-place resize request: a running pod's new requests
};
std::string_view StepActionName(StepAction action);  // "apply", "delete", ...

struct PodUsage {
  std::string pod;  // "ns/name" (a bare name means namespace "default")
  Quantity usage;
  friend bool operator==(const PodUsage&, const PodUsage&) = default;
};

struct ScenarioStep {
  int index = 0;  // 0-based position in spec.steps
  SourceRef source;
  std::int64_t at_us = 0;  // microseconds after time 0
  StepAction action = StepAction::kApply;
  std::optional<Object> object;  // apply of an object kpsim models
  // apply of a Deployment, ReplicaSet, StatefulSet, DaemonSet or Job: admission turns it into
  // applies of the pods its controller creates at the step's time (`ExpandStepWorkloads`).
  std::optional<Workload> workload;
  std::string expansion;  // a workload apply: what its controller created (ExpandStepWorkloads)
  // delete: the target; kind as written ("Pod", "Node", "PodDisruptionBudget", ...).
  std::string kind;
  std::string namespace_;
  std::string name;                              // delete's object, or the node of node actions
  std::optional<std::int64_t> grace_period_seconds;  // delete of a pod (default: the pod's own)
  Taint taint;                                   // taint, untaint
  bool any_effect = false;                       // untaint without an effect: every effect
  // pressure: the eviction signal ("memory.available", "nodefs.available", "pid.available", ...),
  // the observed availability and the threshold (both optional, see the README), and the pods'
  // usage of the signal's resource (pods left out have no stats).
  std::string signal;
  std::optional<Quantity> available;
  std::optional<Quantity> threshold;
  std::vector<PodUsage> usage;
  // resize: the pod ("ns/name", in `name`) and its requests after the resize (the resources
  // named; the others keep their value).
  std::vector<std::pair<std::string, Quantity>> requests;
};

struct Scenario {
  ObjectMeta meta;
  SourceRef source;
  std::vector<ScenarioStep> steps;
};

// The apply a pod arrives with under `--arrival sequential`: consecutive pods with the same
// non-empty key (their controller, e.g. "ReplicaSet ns/web-5c98d8bb6b", or their pod group) arrive
// together; an empty key is an apply of its own.
std::string ApplyGroupKey(const Pod& pod);

}  // namespace kpsim
