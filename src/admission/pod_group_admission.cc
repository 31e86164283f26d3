// PodGroup / CompositePodGroup admission (spec rule 2.5 and 15.1): the Priority plugin resolves
// priorityClassName as for pods (and, with the PodGroupPreemptionPolicy gate, preemptionPolicy);
// then validation: priority at most 1e9, gang minCount at least 1, at most one topology key, and
// on update the priority fields, disruptionMode and the parent are immutable.

#include <utility>

#include <fmt/format.h>

#include "admission/admitters.h"
#include "admission/validation.h"

namespace kpsim::admission {
namespace {

std::optional<std::string> PolicyText(const PodGroup& group) {
  if (group.preemption_policy_raw.has_value()) return group.preemption_policy_raw;
  if (group.preemption_policy.has_value()) {
    return std::string(PreemptionPolicyName(*group.preemption_policy));
  }
  return std::nullopt;
}

std::string_view DisruptionModeText(std::optional<DisruptionMode> mode) {
  return mode == DisruptionMode::kAll ? "all" : "single";
}

ObjectKind KindOf(const PodGroup& group) {
  return group.composite ? ObjectKind::kCompositePodGroup : ObjectKind::kPodGroup;
}

// The Priority plugin's resolution for a group being created.
Expected<PodGroup> ResolveGroupPriority(PodGroup group, const std::vector<PriorityClass>& classes,
                                        const FeatureGates& gates) {
  const auto forbidden = [&group](std::string_view detail) {
    return MakeError(ErrorCode::kForbidden,
                     ForbiddenMessage(QualifiedResource(KindOf(group)), group.meta.name, detail));
  };
  auto resolved = ResolvePriority(group.priority_class_name, classes);
  if (!resolved.ok()) return forbidden(resolved.error().message);
  group.priority_class_name = resolved->class_name;
  if (group.priority.has_value() && *group.priority != resolved->value) {
    return forbidden(fmt::format("the integer value of priority ({}) must not be provided in pod "
                                 "group spec; priority admission controller computed {} from the "
                                 "given PriorityClass name",
                                 *group.priority, resolved->value));
  }
  group.priority = resolved->value;
  if (gates.pod_group_preemption_policy) {
    const std::string_view computed = PreemptionPolicyName(resolved->preemption_policy);
    const std::optional<std::string> given = PolicyText(group);
    if (given.has_value() && *given != computed) {
      return forbidden(fmt::format("the string value of PreemptionPolicy ({}) must not be "
                                   "provided in pod group spec; priority admission controller "
                                   "computed {} from the given PriorityClass name",
                                   *given, computed));
    }
    group.preemption_policy = resolved->preemption_policy;
  }
  // With the gate off the field is not the plugin's business: it stays as given.
  group.preemption_policy_raw.reset();
  return group;
}

void ValidateGroupSpec(const PodGroup& group, FieldErrors* errors) {
  if (group.priority.has_value() && *group.priority > kHighestUserDefinablePriority) {
    errors->push_back(Invalid("spec.priority", *group.priority,
                              fmt::format("must be less than or equal to {}",
                                          kHighestUserDefinablePriority)));
  }
  if (!group.composite && group.scheduling_policy.gang && group.scheduling_policy.min_count < 1) {
    errors->push_back(Invalid("spec.schedulingPolicy.gang.minCount",
                              group.scheduling_policy.min_count,
                              "must be greater than or equal to 1"));
  }
  if (group.topology_keys.size() > 1) {
    errors->push_back(TooMany("spec.schedulingConstraints.topology",
                              static_cast<std::int64_t>(group.topology_keys.size()), 1));
  }
}

// Update: omitted fields keep their live values (as `kubectl apply` does), then immutability.
void ValidateGroupUpdate(PodGroup& group, const PodGroup& old, FieldErrors* errors) {
  if (group.priority_class_name.empty()) group.priority_class_name = old.priority_class_name;
  if (!group.priority.has_value()) group.priority = old.priority;
  if (!group.preemption_policy.has_value() && !group.preemption_policy_raw.has_value()) {
    group.preemption_policy = old.preemption_policy;
  }
  if (!group.disruption_mode.has_value()) group.disruption_mode = old.disruption_mode;
  const auto immutable = [errors](std::string field, std::string value) {
    errors->push_back(Invalid(std::move(field), std::move(value), "field is immutable"));
  };
  if (group.priority_class_name != old.priority_class_name) {
    immutable("spec.priorityClassName", GoQuote(group.priority_class_name));
  }
  if (group.priority != old.priority) {
    immutable("spec.priority", group.priority.has_value() ? std::to_string(*group.priority)
                                                          : std::string("null"));
  }
  if (PolicyText(group) != PolicyText(old)) {
    const auto text = PolicyText(group);
    immutable("spec.preemptionPolicy", text.has_value() ? GoQuote(*text) : std::string("null"));
  }
  if (DisruptionModeText(group.disruption_mode) != DisruptionModeText(old.disruption_mode)) {
    immutable("spec.disruptionMode", GoQuote(DisruptionModeText(group.disruption_mode)));
  }
  if (group.parent_composite_pod_group_name != old.parent_composite_pod_group_name) {
    immutable("spec.parentCompositePodGroupName", GoQuote(group.parent_composite_pod_group_name));
  }
}

}  // namespace

Expected<PodGroup> AdmitExistingPodGroup(PodGroup group) {
  if (group.preemption_policy_raw.has_value()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     InvalidMessage(QualifiedKind(KindOf(group)), group.meta.name,
                                    {NotSupported("spec.preemptionPolicy",
                                                  *group.preemption_policy_raw,
                                                  {"Never", "PreemptLowerPriority"})}));
  }
  FieldErrors errors;
  ValidateObjectMeta(group.meta, /*namespaced=*/true, NameRule::kDnsSubdomain, &errors);
  ValidateGroupSpec(group, &errors);
  if (!errors.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     InvalidMessage(QualifiedKind(KindOf(group)), group.meta.name, errors));
  }
  return group;
}

Expected<PodGroup> AdmitPodGroup(PodGroup group, const PodGroup* old,
                                 const std::vector<PriorityClass>& classes,
                                 const FeatureGates& gates) {
  FieldErrors errors;
  if (old == nullptr) {
    // 1) Mutating admission, then validation of the created object.
    KPSIM_ASSIGN_OR_RETURN(group, ResolveGroupPriority(std::move(group), classes, gates));
    ValidateObjectMeta(group.meta, /*namespaced=*/true, NameRule::kDnsSubdomain, &errors);
  } else {
    ValidateGroupUpdate(group, *old, &errors);
  }
  ValidateGroupSpec(group, &errors);
  if (!errors.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     InvalidMessage(QualifiedKind(KindOf(group)), group.meta.name, errors));
  }
  group.preemption_policy_raw.reset();
  return group;
}

}  // namespace kpsim::admission
