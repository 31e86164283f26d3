#pragma once

// Bound pods grouped into classes (pods a score plugin reads alike) with their count per node,
// caught up from the model's change log: what lets InterPodAffinity's and PodTopologySpread's
// scores match a selector once per class instead of once per pod. A cache of the model, never a
// source of truth; the plugins check it against their pure functions in debug builds.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kpsim/api/types.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

// The namespace and labels of a pod as one string (what `countPodsMatchSelector` and a term's
// selector read of it).
std::string NamespaceAndLabels(const Pod& pod);

class PodClasses {
 public:
  struct Class {
    PodId representative = kNoId;
    std::map<NodeId, std::int64_t> nodes;  // node -> counted pods of the class on it (> 0)
    std::int64_t total = 0;                // counted pods of the class on all nodes
    bool flagged = false;                  // `flag` of its pods
  };
  // `key`: pods with different keys are never alike; `alike`: among pods with the same key,
  // whether two are (null: always); `counts`: whether a bound pod is counted now (null: all);
  // `flag`: a property of a class's pods the caller wants counted over all classes (null: none).
  // The classification of a pod must not change while it exists; `counts` may.
  PodClasses(const ClusterModel& model, std::function<std::string(const Pod&)> key,
             std::function<bool(const Pod&, const Pod&)> alike,
             std::function<bool(const PodInfo&)> counts, std::function<bool(const Pod&)> flag);

  // Applies the changes the model's change log recorded since the last call; the first call
  // classifies every bound pod (nothing is built before a plugin needs it: most pods of most
  // clusters never do).
  void CatchUp();
  const std::vector<Class>& classes() const { return classes_; }
  // Counted pods whose class is flagged.
  std::int64_t flagged_total() const { return flagged_total_; }

 private:
  std::int32_t ClassOf(PodId pod);
  void Count(NodeId node, PodId pod, std::int64_t delta);
  std::vector<PodId> Counted(NodeId node) const;

  const ClusterModel& model_;
  std::function<std::string(const Pod&)> key_;
  std::function<bool(const Pod&, const Pod&)> alike_;
  std::function<bool(const PodInfo&)> counts_;
  std::function<bool(const Pod&)> flag_;
  std::int64_t flagged_total_ = 0;
  std::vector<Class> classes_;
  std::map<std::string, std::vector<std::int32_t>, std::less<>> classes_by_key_;
  IdVector<PodId, std::int32_t> class_of_pod_;    // -1: not classified yet
  IdVector<NodeId, std::vector<PodId>> counted_;  // the pods counted in `classes_`
  std::size_t log_pos_ = 0;                       // into `model_.change_log()`
  bool built_ = false;
};

}  // namespace kpsim::engine
