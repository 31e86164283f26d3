// Pod admission: the Priority admission plugin's `admitPod` (plugin/pkg/admission/priority),
// then object-meta validation on create, or `ValidatePodUpdate`'s spec immutability on update
// (pkg/apis/core/validation/validation.go).

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "admission/admitters.h"
#include "admission/validation.h"

namespace kpsim::admission {
namespace {

// The spec fields a pod update may change, exactly as `ValidatePodUpdate` lists them.
constexpr std::string_view kUpdatablePodSpecFields =
    "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
    "`spec.tolerations` (only additions to existing tolerations),"
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously "
    "negative)";

constexpr std::int64_t kDefaultTerminationGracePeriodSeconds = 30;

// The pod's preemptionPolicy as the API server sees it: the enum's name, or the raw spelling.
std::optional<std::string> PolicyText(const PodSpec& spec) {
  if (spec.preemption_policy_raw.has_value()) return spec.preemption_policy_raw;
  if (spec.preemption_policy.has_value()) {
    return std::string(PreemptionPolicyName(*spec.preemption_policy));
  }
  return std::nullopt;
}

std::string PodForbidden(const Pod& pod, std::string_view detail) {
  return ForbiddenMessage(QualifiedResource(ObjectKind::kPod), pod.meta.name, detail);
}

// Mirrors the create branch of `admitPod`.
Expected<Pod> ResolvePodPriority(Pod pod, const std::vector<PriorityClass>& classes) {
  auto resolved = ResolvePriority(pod.spec.priority_class_name, classes);
  if (!resolved.ok()) {
    return MakeError(ErrorCode::kForbidden, PodForbidden(pod, resolved.error().message));
  }
  pod.spec.priority_class_name = resolved->class_name;
  if (pod.spec.priority.has_value() && *pod.spec.priority != resolved->value) {
    return MakeError(ErrorCode::kForbidden,
                     PodForbidden(pod, fmt::format("the integer value of priority ({}) must not "
                                                   "be provided in pod spec; priority admission "
                                                   "controller computed {} from the given "
                                                   "PriorityClass name",
                                                   *pod.spec.priority, resolved->value)));
  }
  pod.spec.priority = resolved->value;
  const std::string_view computed = PreemptionPolicyName(resolved->preemption_policy);
  const std::optional<std::string> given = PolicyText(pod.spec);
  if (given.has_value() && *given != computed) {
    return MakeError(ErrorCode::kForbidden,
                     PodForbidden(pod, fmt::format("the string value of PreemptionPolicy ({}) "
                                                   "must not be provided in pod spec; priority "
                                                   "admission controller computed {} from the "
                                                   "given PriorityClass name",
                                                   *given, computed)));
  }
  pod.spec.preemption_policy = resolved->preemption_policy;
  pod.spec.preemption_policy_raw.reset();
  return pod;
}

bool SameTolerationExceptSeconds(const Toleration& a, const Toleration& b) {
  return a.key == b.key && a.op == b.op && a.value == b.value && a.effect == b.effect;
}

std::string RenderOptionalInt(const std::optional<std::int64_t>& v) {
  return v.has_value() ? fmt::format("&{}", *v) : "nil";
}

// A string map as field.Invalid renders a non-scalar value: its JSON, keys sorted.
std::string JsonStringMap(const Labels& map) {
  std::string out = "{";
  for (const auto& [key, value] : map) {
    if (out.size() > 1) out += ",";
    out += GoQuote(key) + ":" + GoQuote(value);
  }
  return out + "}";
}

// A short `cmp.Diff`-shaped rendering of the spec fields kpsim models that differ.
std::string SpecDiff(const PodSpec& old_spec, const PodSpec& new_spec) {
  std::string out = "  core.PodSpec{\n";
  const auto line = [&out](std::string_view field, const std::string& before,
                           const std::string& after) {
    out += fmt::format("- \t{0}: {1},\n+ \t{0}: {2},\n", field, before, after);
  };
  const auto opaque = [&line](std::string_view field) { line(field, "{...}", "{...} (changed)"); };
  if (old_spec.node_name != new_spec.node_name) {
    line("NodeName", GoQuote(old_spec.node_name), GoQuote(new_spec.node_name));
  }
  if (old_spec.scheduler_name != new_spec.scheduler_name) {
    line("SchedulerName", GoQuote(old_spec.scheduler_name), GoQuote(new_spec.scheduler_name));
  }
  if (old_spec.priority_class_name != new_spec.priority_class_name) {
    line("PriorityClassName", GoQuote(old_spec.priority_class_name),
         GoQuote(new_spec.priority_class_name));
  }
  if (old_spec.priority != new_spec.priority) {
    const auto as64 = [](const std::optional<std::int32_t>& p) {
      return p.has_value() ? std::optional<std::int64_t>(*p) : std::nullopt;
    };
    line("Priority", RenderOptionalInt(as64(old_spec.priority)),
         RenderOptionalInt(as64(new_spec.priority)));
  }
  if (PolicyText(old_spec) != PolicyText(new_spec)) {
    const auto text = [](const PodSpec& s) {
      const auto t = PolicyText(s);
      return t.has_value() ? "&" + GoQuote(*t) : std::string("nil");
    };
    line("PreemptionPolicy", text(old_spec), text(new_spec));
  }
  if (old_spec.termination_grace_period_seconds != new_spec.termination_grace_period_seconds) {
    line("TerminationGracePeriodSeconds",
         RenderOptionalInt(old_spec.termination_grace_period_seconds),
         RenderOptionalInt(new_spec.termination_grace_period_seconds));
  }
  if (old_spec.node_selector != new_spec.node_selector) opaque("NodeSelector");
  if (old_spec.affinity != new_spec.affinity) opaque("Affinity");
  if (old_spec.tolerations != new_spec.tolerations) opaque("Tolerations");
  if (old_spec.requests != new_spec.requests) opaque("Containers");
  if (old_spec.scheduling_group != new_spec.scheduling_group) opaque("SchedulingGroup");
  out += "  \t... // other fields unchanged\n  }\n";
  return out;
}

// Mirrors the update branch of `admitPod` (Rule 2.4.4), then `ValidatePodUpdate`'s spec rules.
Expected<Pod> AdmitPodUpdate(Pod pod, const Pod& old) {
  // 1) `kubectl apply` keeps what the new manifest omits; the plugin copies priority and
  //    preemptionPolicy explicitly.
  PodSpec& spec = pod.spec;
  if (!spec.priority.has_value()) spec.priority = old.spec.priority;
  if (!spec.preemption_policy.has_value() && !spec.preemption_policy_raw.has_value()) {
    spec.preemption_policy = old.spec.preemption_policy;
  }
  if (spec.priority_class_name.empty()) spec.priority_class_name = old.spec.priority_class_name;
  if (spec.scheduler_name.empty()) spec.scheduler_name = old.spec.scheduler_name;
  if (!spec.termination_grace_period_seconds.has_value()) {
    spec.termination_grace_period_seconds = old.spec.termination_grace_period_seconds;
  }
  // 2) Only additions to tolerations (tolerationSeconds may change).
  for (const Toleration& old_toleration : old.spec.tolerations) {
    const bool kept = std::any_of(spec.tolerations.begin(), spec.tolerations.end(),
                                  [&](const Toleration& t) {
                                    return SameTolerationExceptSeconds(t, old_toleration);
                                  });
    if (!kept) {
      return MakeError(ErrorCode::kInvalidArgument,
                       InvalidMessage(QualifiedKind(ObjectKind::kPod), pod.meta.name,
                                      {Forbidden("spec.tolerations",
                                                 "existing toleration can not be modified "
                                                 "except its tolerationSeconds")}));
    }
  }
  // 3) Scheduling gates may only be removed (validateOnlyDeletedSchedulingGates), and stay valid.
  {
    FieldErrors errors;
    ValidateSchedulingGates(spec.scheduling_gates, &errors);
    for (std::size_t i = 0; i < spec.scheduling_gates.size(); ++i) {
      const std::string& gate = spec.scheduling_gates[i];
      if (std::find(old.spec.scheduling_gates.begin(), old.spec.scheduling_gates.end(), gate) ==
          old.spec.scheduling_gates.end()) {
        errors.push_back(Forbidden(
            fmt::format("spec.schedulingGates[{}].name", i),
            fmt::format("only deletion is allowed, but found new scheduling gate '{}'", gate)));
      }
    }
    // While the pod was gated its nodeSelector may be narrowed: additions only
    // (validateNodeSelectorMutation).
    if (!old.spec.scheduling_gates.empty()) {
      for (const auto& old_entry : old.spec.node_selector) {
        const auto it = std::find_if(spec.node_selector.begin(), spec.node_selector.end(),
                                     [&](const auto& kv) { return kv.first == old_entry.first; });
        if (it == spec.node_selector.end() || it->second != old_entry.second) {
          errors.push_back(Invalid("spec.nodeSelector", JsonStringMap(spec.node_selector),
                                   "only additions to spec.nodeSelector are allowed (no "
                                   "mutations or deletions)"));
          break;
        }
      }
    }
    if (!errors.empty()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       InvalidMessage(QualifiedKind(ObjectKind::kPod), pod.meta.name, errors));
    }
  }
  // 4) Munge the updatable fields, then the rest must be equal.
  PodSpec munged = spec;
  munged.tolerations = old.spec.tolerations;
  munged.scheduling_gates = old.spec.scheduling_gates;
  if (!old.spec.scheduling_gates.empty()) munged.node_selector = old.spec.node_selector;
  const auto& old_grace = old.spec.termination_grace_period_seconds;
  if (old_grace.has_value() && *old_grace < 0 && munged.termination_grace_period_seconds == 1) {
    munged.termination_grace_period_seconds = old_grace;
  }
  // kpsim reads a later document that binds a pending pod as the binding (a newer snapshot);
  // moving a bound pod is refused, as Kubernetes refuses every nodeName change.
  if (old.spec.node_name.empty()) munged.node_name = old.spec.node_name;
  if (!(munged == old.spec)) {
    return MakeError(
        ErrorCode::kInvalidArgument,
        InvalidMessage(QualifiedKind(ObjectKind::kPod), pod.meta.name,
                       {Forbidden("spec", fmt::format("pod updates may not change fields other "
                                                      "than {}\n{}",
                                                      kUpdatablePodSpecFields,
                                                      SpecDiff(old.spec, munged)))}));
  }
  spec.preemption_policy_raw.reset();
  return pod;
}

}  // namespace

namespace {

// Defaulting (SetDefaults_PodSpec) and validation of the object's metadata, for a created pod.
Expected<Pod> DefaultAndValidateCreated(Pod pod) {
  if (!pod.spec.termination_grace_period_seconds.has_value()) {
    pod.spec.termination_grace_period_seconds = kDefaultTerminationGracePeriodSeconds;
  }
  FieldErrors errors;
  ValidateObjectMeta(pod.meta, /*namespaced=*/true, NameRule::kDnsSubdomain, &errors);
  // ValidatePodSpec's validateSchedulingGates, then ValidatePodCreate's nodeName rule.
  ValidateSchedulingGates(pod.spec.scheduling_gates, &errors);
  if (!pod.spec.node_name.empty() && !pod.spec.scheduling_gates.empty()) {
    errors.push_back(
        Forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared"));
  }
  if (!errors.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     InvalidMessage(QualifiedKind(ObjectKind::kPod), pod.meta.name, errors));
  }
  return pod;
}

}  // namespace

Expected<Pod> AdmitPod(Pod pod, const Pod* old, const std::vector<PriorityClass>& classes) {
  if (old != nullptr) return AdmitPodUpdate(std::move(pod), *old);
  // 1) Mutating admission (Priority plugin) runs before validation.
  KPSIM_ASSIGN_OR_RETURN(pod, ResolvePodPriority(std::move(pod), classes));
  // 2) Defaulting and validation.
  return DefaultAndValidateCreated(std::move(pod));
}

Expected<Pod> AdmitExistingPod(Pod pod) {
  // kube-scheduler reads `spec.preemptionPolicy` as `PodEligibleToPreemptOthers` does: unset
  // preempts (only an explicit Never does not).
  if (pod.spec.preemption_policy_raw.has_value()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     InvalidMessage(QualifiedKind(ObjectKind::kPod), pod.meta.name,
                                    {NotSupported("spec.preemptionPolicy",
                                                  *pod.spec.preemption_policy_raw,
                                                  {"Never", "PreemptLowerPriority"})}));
  }
  if (!pod.spec.preemption_policy.has_value()) {
    pod.spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  }
  return DefaultAndValidateCreated(std::move(pod));
}

}  // namespace kpsim::admission
