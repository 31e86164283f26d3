#pragma once

// Small builders for admitted `ClusterState`s in the book profile's tests (house style G18).
// They fill the fields admission would: every pod has a namespace, a priority and a policy.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "kpsim/admission.h"
#include "kpsim/api/types.h"

namespace kpsim::book::testing {

class PodBuilder {
 public:
  explicit PodBuilder(std::string name) {
    pod_.meta.name = std::move(name);
    pod_.meta.namespace_ = "default";
    pod_.spec.priority = 0;
    pod_.spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  }
  PodBuilder& Namespace(std::string ns) {
    pod_.meta.namespace_ = std::move(ns);
    return *this;
  }
  PodBuilder& Priority(std::int32_t p) {
    pod_.spec.priority = p;
    return *this;
  }
  PodBuilder& Node(std::string node) {
    pod_.spec.node_name = std::move(node);
    return *this;
  }
  PodBuilder& MilliCpu(std::int64_t m) {
    pod_.spec.requests.milli_cpu = m;
    return *this;
  }
  PodBuilder& Memory(std::int64_t bytes) {
    pod_.spec.requests.memory = bytes;
    return *this;
  }
  PodBuilder& Scalar(std::string name, std::int64_t v) {
    pod_.spec.requests.scalar.emplace_back(std::move(name), v);
    return *this;
  }
  PodBuilder& Label(std::string key, std::string value) {
    pod_.meta.labels.emplace_back(std::move(key), std::move(value));
    std::sort(pod_.meta.labels.begin(), pod_.meta.labels.end());
    return *this;
  }
  PodBuilder& Created(std::int64_t unix_micros) {
    pod_.meta.creation_timestamp = WallTime{unix_micros};
    return *this;
  }
  Pod Build() const { return pod_; }

 private:
  Pod pod_;
};

inline PodBuilder MakePod(std::string name) { return PodBuilder(std::move(name)); }

inline Node MakeNode(std::string name, std::int64_t milli_cpu, std::int64_t memory = 0,
                     std::int64_t pods = 0) {
  Node node;
  node.meta.name = std::move(name);
  node.allocatable.milli_cpu = milli_cpu;
  node.allocatable.memory = memory;
  node.allocatable.pods = pods;
  return node;
}

// A PDB selecting `key=value` in `ns`; exactly one of min_available / max_unavailable is used.
inline PodDisruptionBudget MakePdb(std::string name, std::string key, std::string value,
                                   std::optional<IntOrString> min_available,
                                   std::optional<IntOrString> max_unavailable = std::nullopt,
                                   std::string ns = "default") {
  PodDisruptionBudget pdb;
  pdb.meta.name = std::move(name);
  pdb.meta.namespace_ = std::move(ns);
  pdb.min_available = min_available;
  pdb.max_unavailable = max_unavailable;
  LabelSelector selector;
  selector.match_labels.emplace_back(std::move(key), std::move(value));
  pdb.selector = selector;
  return pdb;
}

inline IntOrString Int(std::int32_t v) { return IntOrString{false, v}; }
inline IntOrString Percent(std::int32_t v) { return IntOrString{true, v}; }

}  // namespace kpsim::book::testing
