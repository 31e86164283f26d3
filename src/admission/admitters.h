#pragma once

// One admission function per kind: what the API server does with a create (old == nullptr) or an
// update (old != nullptr) of one object, given the state built so far. Each returns the object to
// store (defaulted and resolved) or an `Error` whose message is the API server's full message.
// REQUIRES: namespaced objects have a non-empty namespace, cluster-scoped ones an empty one, and a
// `generateName` has already been turned into a name (see `GenerateName`).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/expected.h"
#include "kpsim/feature_gates.h"

namespace kpsim::admission {

// FNV-1a, 64 bit: a stable hash for seeding generated names (std::hash is not specified across
// implementations).
inline std::uint64_t Fnv1a(std::string_view data, std::uint64_t h = 14695981039346656037ULL) {
  for (const char c : data) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

// The two classes the API server creates at start (spec rule 1.3), system-cluster-critical first.
std::vector<PriorityClass> BuiltInPriorityClasses();

// Returns the class named `name`, or nullptr.
const PriorityClass* FindPriorityClass(const std::vector<PriorityClass>& classes,
                                       std::string_view name);

// Returns the global default class: the one with the lowest value when several are marked
// (spec rule 2.3.2; ties go to the first in `classes`), or nullptr.
const PriorityClass* DefaultPriorityClass(const std::vector<PriorityClass>& classes);

// What the Priority admission plugin computes for an object naming `class_name`.
struct ResolvedPriority {
  std::string class_name;  // the default class's name when `class_name` was empty
  std::int32_t value = 0;
  PreemptionPolicy preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
};

// Mirrors the class lookup of `admitPod` (plugin/pkg/admission/priority/admission.go): an empty
// name takes the default class, else priority 0 and PreemptLowerPriority. On failure the error
// message is the bare detail ("no PriorityClass with name gold was found"), code kNotFound.
Expected<ResolvedPriority> ResolvePriority(std::string_view class_name,
                                           const std::vector<PriorityClass>& classes);

Expected<PriorityClass> AdmitPriorityClass(PriorityClass pc, const PriorityClass* old,
                                           const std::vector<PriorityClass>& classes);
Expected<Pod> AdmitPod(Pod pod, const Pod* old, const std::vector<PriorityClass>& classes);
Expected<PodGroup> AdmitPodGroup(PodGroup group, const PodGroup* old,
                                 const std::vector<PriorityClass>& classes,
                                 const FeatureGates& gates);
// An object that already carries `spec.priority`, as kube-scheduler sees it in a running cluster
// (`AdmissionMode::kExisting`): priority and preemptionPolicy kept as given, whatever the classes;
// an unset pod preemptionPolicy reads as PreemptLowerPriority. Metadata and spec are still
// validated and defaulted as on create. REQUIRES: `spec.priority` is set.
Expected<Pod> AdmitExistingPod(Pod pod);
Expected<PodGroup> AdmitExistingPodGroup(PodGroup group);
Expected<PodDisruptionBudget> AdmitPodDisruptionBudget(PodDisruptionBudget pdb);
// With `spec.podPreemptionPolicy`: refused while the InPlacePodVerticalScalingSchedulerPreemption
// gate is off; each disableResizePreemption entry a qualified name, at most 20.
Expected<Node> AdmitNode(Node node, const FeatureGates& gates = FeatureGates{});
Expected<Namespace> AdmitNamespace(Namespace ns);
// Mirrors `ValidateService` for what kpsim reads: its metadata (the name a DNS-1035 label).
Expected<Service> AdmitService(Service service);
// ValidateResourceQuota for what kpsim reads: the name, the scope selector's names and values.
Expected<ResourceQuota> AdmitResourceQuota(ResourceQuota quota);
// The ResourceQuota plugin's limitedResources: each names a resource, its matchScopes are valid.
Expected<QuotaAdmissionConfig> AdmitQuotaConfig(QuotaAdmissionConfig config);

// Kubernetes' name generator (`names.SimpleNameGenerator`) made deterministic: `base` cut to 58
// characters followed by 5 characters of the alphabet "bcdfghjklmnpqrstvwxz2456789" drawn from
// `seed` (callers hash the document position into it).
std::string GenerateName(std::string_view base, std::uint64_t seed);

// A Scenario step's place: `scenarios[scenario].steps[step]`, at `at_us`.
struct StepRef {
  std::int64_t at_us;
  std::size_t scenario;
  std::size_t step;
};
// Every step of `scenarios` in the order a run takes them: by time, ties in input order.
std::vector<StepRef> StepsInTimeOrder(const std::vector<Scenario>& scenarios);

}  // namespace kpsim::admission
