#pragma once

// Admission: what the API server would do with each object, in order, like successive
// `kubectl apply` (PriorityClass validation, the Priority admission plugin, defaulting).
// Its output, `ClusterState`, is the only input the scheduling engine sees.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/feature_gates.h"

namespace kpsim {

// Admitted objects, defaulted and resolved. Vectors keep first-creation order; an update replaces
// the object in place. Every pod has `spec.priority` and `spec.preemption_policy` set and a
// non-empty namespace; every PriorityClass has `preemption_policy` set; the two built-in system
// classes are always present (first).
struct ClusterState {
  std::vector<PriorityClass> priority_classes;
  std::vector<Namespace> namespaces;
  std::vector<Node> nodes;
  std::vector<Pod> pods;
  std::vector<PodDisruptionBudget> pdbs;
  std::vector<PodGroup> pod_groups;  // PodGroups and CompositePodGroups, priority resolved
};

enum class Operation : std::uint8_t { kCreate, kUpdate };

// The fate of one input object.
struct AdmissionOutcome {
  ObjectKind kind = ObjectKind::kPod;
  std::string name;  // "ns/name", or "name" when cluster scoped
  SourceRef source;
  Operation operation = Operation::kCreate;
  bool admitted = false;
  std::string message;  // Kubernetes' message when rejected; empty when admitted
  // Set for admitted pods and pod groups.
  std::optional<std::int32_t> priority;
  std::string priority_class_name;
  std::optional<PreemptionPolicy> preemption_policy;
};

struct AdmissionResult {
  ClusterState state;
  std::vector<AdmissionOutcome> outcomes;  // one per input object, in input order
  std::vector<Warning> warnings;           // kept against admission, not modelled, ...
};

// Admits `objects` in order. Never fails as a whole: a rejected object is reported in `outcomes`
// and left out of `state`; everything else still goes in.
AdmissionResult Admit(const std::vector<Object>& objects, const FeatureGates& gates);

}  // namespace kpsim
