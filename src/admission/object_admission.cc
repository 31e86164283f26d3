// Admission of the kinds that only need API validation: PodDisruptionBudget
// (pkg/apis/policy/validation), Node and Namespace (object-meta name rules).

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "admission/admitters.h"
#include "admission/validation.h"

namespace kpsim::admission {
namespace {

// Go's `%#v` of an `intstr.IntOrString` value.
std::string GoIntOrString(const IntOrString& v) {
  if (v.is_percent) {
    return fmt::format("intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}",
                       GoQuote(fmt::format("{}%", v.value)));
  }
  return fmt::format("intstr.IntOrString{{Type:0, IntVal:{}, StrVal:\"\"}}", v.value);
}

std::string ShortIntOrString(const IntOrString& v) {
  return v.is_percent ? GoQuote(fmt::format("{}%", v.value)) : std::to_string(v.value);
}

// Mirrors `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent`.
void ValidateIntOrPercent(const IntOrString& v, const std::string& field, FieldErrors* errors) {
  if (v.is_percent) {
    if (v.value < 0) {
      errors->push_back(Invalid(field, GoIntOrString(v),
                                "a valid percent string must be a numeric string followed by an "
                                "ending '%' (e.g. '1%',  or '93%', regex used for validation is "
                                "'[0-9]+%')"));
    } else if (v.value > 100) {
      errors->push_back(Invalid(field, GoIntOrString(v), "must not be greater than 100%"));
    }
  } else if (v.value < 0) {
    errors->push_back(Invalid(field, v.value, "must be greater than or equal to 0"));
  }
}

template <typename T>
Expected<T> Finish(T object, ObjectKind kind, const FieldErrors& errors) {
  if (!errors.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     InvalidMessage(QualifiedKind(kind), object.meta.name, errors));
  }
  return object;
}

}  // namespace

Expected<PodDisruptionBudget> AdmitPodDisruptionBudget(PodDisruptionBudget pdb) {
  FieldErrors errors;
  ValidateObjectMeta(pdb.meta, /*namespaced=*/true, NameRule::kDnsSubdomain, &errors);
  // Mirrors `ValidatePodDisruptionBudgetSpec`. Go would print the spec struct with `%#v`
  // (pointer addresses included); kpsim prints the two values instead, deterministically.
  if (pdb.min_available.has_value() && pdb.max_unavailable.has_value()) {
    errors.push_back(Invalid("spec",
                             fmt::format("policy.PodDisruptionBudgetSpec{{MinAvailable:{}, "
                                         "MaxUnavailable:{}}}",
                                         ShortIntOrString(*pdb.min_available),
                                         ShortIntOrString(*pdb.max_unavailable)),
                             "minAvailable and maxUnavailable cannot be both set"));
  }
  if (pdb.min_available.has_value()) {
    ValidateIntOrPercent(*pdb.min_available, "spec.minAvailable", &errors);
  }
  if (pdb.max_unavailable.has_value()) {
    ValidateIntOrPercent(*pdb.max_unavailable, "spec.maxUnavailable", &errors);
  }
  return Finish(std::move(pdb), ObjectKind::kPodDisruptionBudget, errors);
}

Expected<Node> AdmitNode(Node node, const FeatureGates& gates) {
  FieldErrors errors;
  ValidateObjectMeta(node.meta, /*namespaced=*/false, NameRule::kDnsSubdomain, &errors);
  if (node.has_pod_preemption_policy && !gates.in_place_pod_vertical_scaling_scheduler_preemption) {
    errors.push_back(Forbidden("spec.podPreemptionPolicy",
                               "may not be set while the InPlacePodVerticalScalingSchedulerPreemption feature gate is "
                               "disabled"));
  }
  constexpr std::int64_t kMaxOwners = 20;
  const std::vector<std::string>& owners = node.disable_resize_preemption;
  if (static_cast<std::int64_t>(owners.size()) > kMaxOwners) {
    errors.push_back(TooMany("spec.podPreemptionPolicy.disableResizePreemption",
                             static_cast<std::int64_t>(owners.size()), kMaxOwners));
  }
  for (std::size_t i = 0; i < owners.size(); ++i) {
    for (std::string& msg : IsQualifiedName(owners[i])) {
      errors.push_back(Invalid(fmt::format("spec.podPreemptionPolicy.disableResizePreemption[{}]", i),
                               GoQuote(owners[i]), std::move(msg)));
    }
  }
  return Finish(std::move(node), ObjectKind::kNode, errors);
}

Expected<Namespace> AdmitNamespace(Namespace ns) {
  FieldErrors errors;
  ValidateObjectMeta(ns.meta, /*namespaced=*/false, NameRule::kDnsLabel, &errors);
  return Finish(std::move(ns), ObjectKind::kNamespace, errors);
}

namespace {

// ValidateResourceQuota's scope checks (pkg/apis/core/validation): scope names, and the values
// an operator needs.
void ValidateScopeRequirements(const std::vector<ScopeRequirement>& requirements, const std::string& path,
                               FieldErrors* errors) {
  const std::vector<std::string_view> scopes = {"BestEffort",     "CrossNamespacePodAffinity", "NotBestEffort",
                                                "NotTerminating", "PriorityClass",             "Terminating",
                                                "VolumeAttributesClass"};
  for (std::size_t i = 0; i < requirements.size(); ++i) {
    const ScopeRequirement& r = requirements[i];
    const std::string at = fmt::format("{}[{}]", path, i);
    if (std::find(scopes.begin(), scopes.end(), r.scope_name) == scopes.end()) {
      errors->push_back(NotSupported(at + ".scopeName", r.scope_name, scopes));
    }
    if (!r.op_raw.empty()) {
      errors->push_back(NotSupported(at + ".operator", r.op_raw, {"DoesNotExist", "Exists", "In", "NotIn"}));
      continue;
    }
    const bool needs_values = r.op == ScopeOperator::kIn || r.op == ScopeOperator::kNotIn;
    if (needs_values && r.values.empty()) {
      errors->push_back(Required(at + ".values",
                                 "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    } else if (!needs_values && !r.values.empty()) {
      errors->push_back(Invalid(at + ".values", fmt::format("[]string{{\"{}\"}}", r.values.front()),
                                "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
    }
  }
}

}  // namespace

Expected<ResourceQuota> AdmitResourceQuota(ResourceQuota quota) {
  FieldErrors errors;
  ValidateObjectMeta(quota.meta, /*namespaced=*/true, NameRule::kDnsSubdomain, &errors);
  ValidateScopeRequirements(quota.scope_selector, "spec.scopeSelector.matchExpressions", &errors);
  return Finish(std::move(quota), ObjectKind::kResourceQuota, errors);
}

Expected<QuotaAdmissionConfig> AdmitQuotaConfig(QuotaAdmissionConfig config) {
  FieldErrors errors;
  for (std::size_t i = 0; i < config.limited_resources.size(); ++i) {
    const LimitedResource& l = config.limited_resources[i];
    const std::string at = fmt::format("plugins[ResourceQuota].configuration.limitedResources[{}]", i);
    if (l.resource.empty()) errors.push_back(Required(at + ".resource", ""));
    ValidateScopeRequirements(l.match_scopes, at + ".matchScopes", &errors);
  }
  if (errors.empty()) return config;
  return MakeError(ErrorCode::kInvalidArgument,
                   InvalidMessage(QualifiedKind(ObjectKind::kAdmissionConfiguration), "", errors));
}

Expected<Service> AdmitService(Service service) {
  FieldErrors errors;
  ValidateObjectMeta(service.meta, /*namespaced=*/true, NameRule::kDns1035Label, &errors);
  return Finish(std::move(service), ObjectKind::kService, errors);
}

}  // namespace kpsim::admission
