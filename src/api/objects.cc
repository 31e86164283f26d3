// Names and provenance of api objects.

#include <string>
#include <string_view>
#include <variant>

#include "fmt/format.h"
#include "kpsim/api/types.h"

namespace kpsim {

std::string_view PreemptionPolicyName(PreemptionPolicy p) {
  switch (p) {
    case PreemptionPolicy::kPreemptLowerPriority:
      return "PreemptLowerPriority";
    case PreemptionPolicy::kNever:
      return "Never";
  }
  return "PreemptLowerPriority";
}

std::string_view ObjectKindName(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kNode:
      return "Node";
    case ObjectKind::kPod:
      return "Pod";
    case ObjectKind::kPriorityClass:
      return "PriorityClass";
    case ObjectKind::kPodDisruptionBudget:
      return "PodDisruptionBudget";
    case ObjectKind::kNamespace:
      return "Namespace";
    case ObjectKind::kPodGroup:
      return "PodGroup";
    case ObjectKind::kCompositePodGroup:
      return "CompositePodGroup";
    case ObjectKind::kService:
      return "Service";
    case ObjectKind::kResourceQuota:
      return "ResourceQuota";
    case ObjectKind::kAdmissionConfiguration:
      return "AdmissionConfiguration";
  }
  return "Unknown";
}

std::string ScopeRequirementText(const ScopeRequirement& r) {
  static constexpr std::string_view kOps[] = {"In", "NotIn", "Exists", "DoesNotExist"};
  std::string values;
  for (const std::string& v : r.values) values += (values.empty() ? "" : " ") + v;
  const std::string_view op = r.op_raw.empty() ? kOps[static_cast<int>(r.op)] : std::string_view(r.op_raw);
  return "{" + r.scope_name + " " + std::string(op) + " [" + values + "]}";
}

std::string_view TaintEffectName(TaintEffect effect) {
  switch (effect) {
    case TaintEffect::kNoSchedule: return "NoSchedule";
    case TaintEffect::kPreferNoSchedule: return "PreferNoSchedule";
    case TaintEffect::kNoExecute: return "NoExecute";
  }
  return "NoSchedule";
}

std::string_view StepActionName(StepAction action) {
  switch (action) {
    case StepAction::kApply: return "apply";
    case StepAction::kDelete: return "delete";
    case StepAction::kCordon: return "cordon";
    case StepAction::kUncordon: return "uncordon";
    case StepAction::kTaint: return "taint";
    case StepAction::kUntaint: return "untaint";
    case StepAction::kPressure: return "pressure";
    case StepAction::kResize: return "resize";
  }
  return "unknown";
}

bool IsClusterScoped(ObjectKind kind) {
  return kind == ObjectKind::kNode || kind == ObjectKind::kPriorityClass ||
         kind == ObjectKind::kNamespace || kind == ObjectKind::kAdmissionConfiguration;
}

std::string_view UnmodeledFieldName(UnmodeledField field) {
  switch (field) {
    case UnmodeledField::kVolumes:
      return "volumes (persistentVolumeClaim, ephemeral, csi, cloud disks)";
    case UnmodeledField::kResourceClaims:
      return "spec.resourceClaims";
  }
  return "";
}

std::string_view UnmodeledFieldPlugin(UnmodeledField field) {
  switch (field) {
    case UnmodeledField::kVolumes:
      return "VolumeBinding, VolumeRestrictions, VolumeZone and NodeVolumeLimits";
    case UnmodeledField::kResourceClaims:
      return "DynamicResources";
  }
  return "";
}

std::string SourceRef::ToString() const {
  if (line > 0) return fmt::format("{}:{}", file, line);
  if (document > 0) return fmt::format("{} (item {})", file, document);
  return file;
}

const ObjectMeta& Object::meta() const {
  return std::visit([](const auto& v) -> const ObjectMeta& { return v.meta; }, value);
}

std::string Object::DisplayName() const {
  const ObjectMeta& m = meta();
  if (IsClusterScoped(kind)) return m.name;
  // An unset namespace is shown as "default", the namespace admission will give the object.
  return fmt::format("{}/{}", m.namespace_.empty() ? "default" : m.namespace_, m.name);
}

std::string_view WorkloadKindName(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kDeployment:
      return "Deployment";
    case WorkloadKind::kReplicaSet:
      return "ReplicaSet";
    case WorkloadKind::kStatefulSet:
      return "StatefulSet";
    case WorkloadKind::kJob:
      return "Job";
    case WorkloadKind::kDaemonSet:
      return "DaemonSet";
  }
  return "Unknown";
}

std::string_view WorkloadApiVersion(WorkloadKind kind) {
  return kind == WorkloadKind::kJob ? "batch/v1" : "apps/v1";
}

std::string Workload::DisplayName() const {
  return fmt::format("{}/{}", meta.namespace_.empty() ? "default" : meta.namespace_, meta.name);
}

std::string ApplyGroupKey(const Pod& pod) {
  const OwnerReference* owner = nullptr;
  for (const OwnerReference& ref : pod.meta.owner_references) {
    if (ref.controller) owner = &ref;
  }
  if (owner == nullptr && !pod.meta.owner_references.empty()) owner = &pod.meta.owner_references.front();
  const std::string ns = pod.meta.namespace_.empty() ? std::string("default") : pod.meta.namespace_;
  if (owner != nullptr) return fmt::format("{} {}/{}", owner->kind, ns, owner->name);
  if (pod.spec.scheduling_group) {
    return fmt::format("PodGroup {}/{}", ns, pod.spec.scheduling_group->pod_group_name);
  }
  return {};
}

}  // namespace kpsim
