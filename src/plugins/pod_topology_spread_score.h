#pragma once

// PodTopologySpread's score in the cycle (weight 2 in the default profile; upstream
// podtopologyspread/scoring.go): the pod's ScheduleAnyway constraints, or, when it has no
// constraints at all, the cluster-default ones (`systemDefaultConstraints`: hostname maxSkew 3,
// zone maxSkew 5) over `helper.DefaultSelector` (the Services selecting the pod and its
// ReplicaSet's or StatefulSet's selector). The counting, Score and NormalizeScore are the pure
// functions of plugins/pod_topology_spread.h.
//
// Upstream counts the matching pods of every node on every cycle. We keep the non-terminating
// bound pods grouped into classes of what `countPodsMatchSelector` reads (namespace and labels)
// with their count per node (`PodClasses`), and pass the pure functions
// one entry per (class, node) for the classes a constraint selects: the same counts. With NDEBUG
// unset every cycle's scores are checked against the pure functions over every pod.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "framework/plugin.h"
#include "kpsim/api/types.h"
#include "plugins/pod_classes.h"
#include "plugins/pod_topology_spread.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

class PodTopologySpreadScore final : public ScorePlugin {
 public:
  explicit PodTopologySpreadScore(ClusterModel& model);
  std::string_view name() const override { return plugins::kPodTopologySpreadName; }
  // Mirrors `PodTopologySpread.PreScore`: Skip (every node 0) when the pod has neither
  // ScheduleAnyway constraints nor (having no constraints) a default selector.
  void PreScore(const PodInfo& pod, std::span<const NodeId> feasible) override;
  std::int64_t Score(const PodInfo& pod, NodeId node_id, const NodeInfo& node) const override;
  bool Uniform() const override { return skip_; }

 private:
  // The nodes as the pure functions read them, and the classes a constraint selects, one entry
  // per (class, node).
  plugins::SpreadView View(const PodInfo& pod,
                           const std::vector<plugins::SpreadConstraint>& constraints) const;
  plugins::SpreadView FullView(const PodInfo& pod) const;  // every pod: the debug check's

  void IndexServices();  // services_by_namespace_ as the model has them now

  ClusterModel& model_;
  std::map<std::string, std::vector<const Service*>, std::less<>> services_by_namespace_;
  std::uint64_t services_generation_ = 0;  // the model's, when services_by_namespace_ was built
  // Bound, non-terminating pods alike for `countPodsMatchSelector`: same namespace and labels.
  PodClasses classes_;
  // This cycle.
  bool skip_ = true;
  IdVector<NodeId, std::int64_t> scores_;  // normalized (feasible nodes only)
};

}  // namespace kpsim::engine
