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

enum class Operation : std::uint8_t { kCreate, kUpdate };

// One admitted Scenario step (kpsim.io/v1alpha1): `step.object` of an apply is the object as the
// API server would store it at that time (defaulted, priority resolved against the classes that
// exist then, including those earlier steps applied).
struct TimedStep {
  std::string scenario;  // the Scenario's name
  ScenarioStep step;
  Operation operation = Operation::kCreate;  // apply: create or update
};

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
  std::vector<Service> services;
  std::vector<ResourceQuota> resource_quotas;
  // AdmissionConfigurations' ResourceQuota plugin configuration; the last one applies.
  std::vector<QuotaAdmissionConfig> quota_configs;
  // The ReplicaSets and StatefulSets selecting pods (`WorkloadExpansion::controllers`).
  std::vector<PodController> controllers;
  // Scenario steps, in the order they happen (by time; ties in input order).
  std::vector<TimedStep> steps;
  // What the metrics API reported (io::ReadResult::pod_metrics, through `AdmitInput`): the
  // kubelet's eviction ranking reads memory usage from it.
  std::vector<PodMetrics> pod_metrics;
};

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
  // Admitted as an existing object against what admission would compute (kExisting only).
  bool kept_against_admission = false;
};

struct AdmissionResult {
  ClusterState state;
  std::vector<AdmissionOutcome> outcomes;  // one per input object, in input order
  std::vector<Warning> warnings;           // kept against admission, not modelled, ...
};

// What the input stands for.
enum class AdmissionMode : std::uint8_t {
  // Every object is a create sent to the API server now (`validate`): a pod carrying
  // `spec.priority` that the Priority admission plugin would not compute is refused.
  kCreate,
  // The input is a cluster as it is (`simulate`, `explain`): a Pod, PodGroup or
  // CompositePodGroup that already carries `spec.priority` is an existing object. kube-scheduler
  // reads only `spec.priority` and `spec.preemptionPolicy`, so it keeps them whatever the classes
  // in the input; where admission would have computed something else, it is kept with a
  // `KeptAgainstAdmission` warning naming the admission message. Objects without `spec.priority`
  // are admitted as creates.
  kExisting,
};

// Admits `objects` in order. Never fails as a whole: a rejected object is reported in `outcomes`
// and left out of `state`; everything else still goes in.
// Then admits the Scenarios' steps in time order (`ClusterState::steps`): an apply is admitted as
// a create or update at its time (a rejected one is an outcome with Kubernetes' message, and the
// step is dropped); the other actions are checked when they run.
AdmissionResult Admit(const std::vector<Object>& objects, const FeatureGates& gates,
                      AdmissionMode mode = AdmissionMode::kCreate,
                      const std::vector<Scenario>& scenarios = {});

// ---------------------------------------------------------------------------------------------
// Workload expansion: the controllers' part, before admission.

// What one workload's controller did.
struct WorkloadOutcome {
  WorkloadKind kind = WorkloadKind::kDeployment;
  std::string name;  // "ns/name"
  SourceRef source;
  // The pods' controller: the workload itself, or for a Deployment its ReplicaSet
  // ("ReplicaSet ns/web-5c98d8bb6b").
  std::string controller;
  int desired = 0;   // pods the controller wants active (replicas, Job active, DaemonSet nodes)
  int existing = 0;  // active pods already in the input that belong to it
  std::vector<std::string> created;  // "ns/name" of the pods it created, in creation order
};

struct WorkloadExpansion {
  // The input objects with each workload's created pods inserted at the workload's place
  // (`Workload::position`), so admission sees them in apply order.
  std::vector<Object> objects;
  std::vector<WorkloadOutcome> outcomes;  // one per expanded workload, in input order
  std::vector<Warning> warnings;
  // The controllers owning pods, with their selectors: every ReplicaSet and StatefulSet of the
  // input, and the ReplicaSet each Deployment's pods belong to (selector: the Deployment's plus
  // `pod-template-hash`), once each, in input order.
  std::vector<PodController> controllers;
};

// Expands every workload into the pods its controller creates from its template, as the
// ReplicaSet (via a Deployment's ReplicaSet), StatefulSet, Job and DaemonSet controllers do:
// owned by it (ownerReferences with controller: true), labelled from the template plus the labels
// the controller adds, named `<owner>-<5 chars>` (StatefulSet `<name>-<ordinal>`) from a generator
// seeded by `seed` and the workload's identity. Pods already in `objects` that belong to a
// workload (its controller ownerReference, or for a Deployment one of its ReplicaSets) count
// towards it: only the missing pods are created. DaemonSets place one pod on every node in
// `objects` that `NodeShouldRunDaemonPod` selects. Never fails; deterministic.
WorkloadExpansion ExpandWorkloads(const std::vector<Object>& objects,
                                  const std::vector<Workload>& workloads, std::uint64_t seed);

// Workloads applied by Scenario steps: each such step (in time order, ties in input order) is
// followed by applies of the pods its controller creates at that time, as `ExpandWorkloads`
// expands it over `objects` (the expanded input) plus the pods earlier steps applied or created.
// A workload that exists already (in `workloads` or an earlier step) is an update: its controller
// creates the pods it lacks (a scale-up) and deletes none (a `NotModelled` warning says so when
// it has more than it wants). The workload step stays, with `expansion` saying what was created.
struct StepWorkloadExpansion {
  std::vector<Scenario> scenarios;
  std::vector<PodController> controllers;  // of the steps' workloads, not already in the input's
  std::vector<Warning> warnings;
};
StepWorkloadExpansion ExpandStepWorkloads(const std::vector<Object>& objects, const std::vector<Workload>& workloads,
                                          const std::vector<PodController>& controllers,
                                          const std::vector<Scenario>& scenarios, std::uint64_t seed);

// What the commands run: `ExpandWorkloads`, then `Admit` of the expanded objects and the
// Scenarios in `mode`; the expansion's warnings come first in the result's `warnings`, and the
// metrics go into the state as they are.
AdmissionResult AdmitInput(const std::vector<Object>& objects,
                           const std::vector<Workload>& workloads, const FeatureGates& gates,
                           AdmissionMode mode, std::uint64_t seed,
                           const std::vector<Scenario>& scenarios = {},
                           std::vector<PodMetrics> pod_metrics = {});

}  // namespace kpsim
