// PriorityClass validation (pkg/apis/scheduling/validation/validation.go) and the Priority
// admission plugin's PriorityClass checks and class lookups (plugin/pkg/admission/priority).

#include <utility>

#include <fmt/format.h>

#include "admission/admitters.h"
#include "admission/validation.h"

namespace kpsim::admission {
namespace {

constexpr std::string_view kSystemPriorityClassPrefix = "system-";

// Applies `SetDefaults_PriorityClass` and folds a valid raw spelling into the enum. Returns the
// field errors of an invalid spelling (mirrors `ValidatePreemptionPolicy`).
void DefaultAndValidatePolicy(std::optional<PreemptionPolicy>& policy,
                              std::optional<std::string>& raw, const std::string& field,
                              FieldErrors* errors) {
  if (raw.has_value()) {
    if (*raw == "PreemptLowerPriority") {
      policy = PreemptionPolicy::kPreemptLowerPriority;
    } else if (*raw == "Never") {
      policy = PreemptionPolicy::kNever;
    } else if (raw->empty()) {
      errors->push_back(Required(field, ""));
    } else {
      errors->push_back(NotSupported(field, *raw, {"Never", "PreemptLowerPriority"}));
    }
  }
  if (!policy.has_value()) policy = PreemptionPolicy::kPreemptLowerPriority;
}

// Mirrors `IsKnownSystemPriorityClass` (pkg/apis/scheduling/v1/helpers.go): the error text, or
// empty when `pc` is exactly one of the built-in classes.
std::string SystemClassError(const PriorityClass& pc) {
  for (const PriorityClass& builtin : BuiltInPriorityClasses()) {
    if (builtin.meta.name != pc.meta.name) continue;
    if (builtin.value != pc.value) {
      return fmt::format("value of {} PriorityClass must be {}", builtin.meta.name, builtin.value);
    }
    if (builtin.global_default != pc.global_default) {
      return fmt::format("globalDefault of {} PriorityClass must be {}", builtin.meta.name,
                         builtin.global_default);
    }
    return "";
  }
  return fmt::format("{} is not a known system priority class", pc.meta.name);
}

}  // namespace

std::vector<PriorityClass> BuiltInPriorityClasses() {
  PriorityClass cluster;
  cluster.meta.name = std::string(kSystemClusterCritical);
  cluster.value = kSystemCriticalPriority;
  cluster.description =
      "Used for system critical pods that must run in the cluster, but can be moved to another "
      "node if necessary.";
  cluster.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  PriorityClass node;
  node.meta.name = std::string(kSystemNodeCritical);
  node.value = kSystemCriticalPriority + 1000;
  node.description = "Used for system critical pods that must not be moved from their current node.";
  node.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  return {cluster, node};
}

const PriorityClass* FindPriorityClass(const std::vector<PriorityClass>& classes,
                                       std::string_view name) {
  for (const PriorityClass& pc : classes) {
    if (pc.meta.name == name) return &pc;
  }
  return nullptr;
}

const PriorityClass* DefaultPriorityClass(const std::vector<PriorityClass>& classes) {
  // Mirrors `getDefaultPriorityClass`: several defaults can exist after a race; the lowest wins.
  const PriorityClass* best = nullptr;
  for (const PriorityClass& pc : classes) {
    if (pc.global_default && (best == nullptr || best->value > pc.value)) best = &pc;
  }
  return best;
}

Expected<ResolvedPriority> ResolvePriority(std::string_view class_name,
                                           const std::vector<PriorityClass>& classes) {
  ResolvedPriority resolved;
  const PriorityClass* pc = nullptr;
  if (class_name.empty()) {
    pc = DefaultPriorityClass(classes);
    if (pc == nullptr) return resolved;  // "", 0, PreemptLowerPriority.
  } else {
    pc = FindPriorityClass(classes, class_name);
    if (pc == nullptr) {
      return MakeError(ErrorCode::kNotFound,
                       fmt::format("no PriorityClass with name {} was found", class_name));
    }
  }
  resolved.class_name = pc->meta.name;
  resolved.value = pc->value;
  resolved.preemption_policy =
      pc->preemption_policy.value_or(PreemptionPolicy::kPreemptLowerPriority);
  return resolved;
}

Expected<PriorityClass> AdmitPriorityClass(PriorityClass pc, const PriorityClass* old,
                                           const std::vector<PriorityClass>& classes) {
  const std::string_view kind = QualifiedKind(ObjectKind::kPriorityClass);
  FieldErrors errors;
  // 1) Defaulting (SetDefaults_PriorityClass), then API validation of the object.
  if (old == nullptr) {
    // ValidatePriorityClass.
    ValidateObjectMeta(pc.meta, /*namespaced=*/false, NameRule::kDnsSubdomain, &errors);
    if (pc.meta.name.starts_with(kSystemPriorityClassPrefix)) {
      const std::string system_error = SystemClassError(pc);
      if (!system_error.empty()) {
        errors.push_back(Forbidden("metadata.name",
                                   "priority class names with 'system-' prefix are reserved for "
                                   "system use only. error: " + system_error));
      }
    } else if (pc.value > kHighestUserDefinablePriority) {
      errors.push_back(Forbidden("value",
                                 fmt::format("maximum allowed value of a user defined priority "
                                             "is {}", kHighestUserDefinablePriority)));
    }
    DefaultAndValidatePolicy(pc.preemption_policy, pc.preemption_policy_raw, "preemptionPolicy",
                             &errors);
  } else {
    // ValidatePriorityClassUpdate: value and preemptionPolicy are immutable (an unsupported
    // spelling is simply a change).
    if (pc.value != old->value) {
      errors.push_back(Forbidden("value", "may not be changed in an update."));
    }
    FieldErrors policy_errors;
    DefaultAndValidatePolicy(pc.preemption_policy, pc.preemption_policy_raw, "preemptionPolicy",
                             &policy_errors);
    const std::string new_policy = policy_errors.empty()
                                       ? std::string(PreemptionPolicyName(*pc.preemption_policy))
                                       : pc.preemption_policy_raw.value_or("");
    if (!policy_errors.empty() || pc.preemption_policy != old->preemption_policy) {
      errors.push_back(Invalid("preemptionPolicy", GoQuote(new_policy), "field is immutable"));
    }
  }
  pc.preemption_policy_raw.reset();
  if (!errors.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, InvalidMessage(kind, pc.meta.name, errors));
  }
  // 2) Validating admission: at most one globalDefault (spec rule 2.3.1).
  if (pc.global_default) {
    const PriorityClass* current = DefaultPriorityClass(classes);
    if (current != nullptr && (old == nullptr || current->meta.name != pc.meta.name)) {
      return MakeError(ErrorCode::kForbidden,
                       ForbiddenMessage(QualifiedResource(ObjectKind::kPriorityClass),
                                        pc.meta.name,
                                        fmt::format("PriorityClass {} is already marked as "
                                                    "default. Only one default can exist",
                                                    current->meta.name)));
    }
  }
  return pc;
}

}  // namespace kpsim::admission
