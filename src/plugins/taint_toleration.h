#pragma once

// TaintToleration (plugins/tainttoleration): the filter rejects a node with a NoSchedule or
// NoExecute taint the pod does not tolerate (UnschedulableAndUnresolvable, naming the taint); the
// score counts the node's PreferNoSchedule taints the pod does not tolerate, reverse-normalized
// over the feasible nodes (fewer is better).

#include <cstdint>
#include <span>
#include <string_view>

#include "framework/plugin.h"
#include "framework/status.h"
#include "snapshot/cluster.h"
#include "snapshot/reason_table.h"

namespace kpsim::engine {

class TaintToleration final : public FilterPlugin {
 public:
  explicit TaintToleration(ReasonTable& reasons) : reasons_(reasons) {}
  PluginId id() const override { return PluginId::kTaintToleration; }
  bool node_local() const override { return true; }
  Status Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const override;

 private:
  ReasonTable& reasons_;  // the reason names the taint: interned when first met
};

class TaintTolerationScore final : public ScorePlugin {
 public:
  explicit TaintTolerationScore(const ClusterModel& model) : model_(model) {}
  std::string_view name() const override { return "TaintToleration"; }
  void PreScore(const PodInfo& pod, std::span<const NodeId> feasible) override;
  std::int64_t Score(const PodInfo& pod, NodeId node_id, const NodeInfo& node) const override;

 private:
  const ClusterModel& model_;
  std::int64_t max_count_ = 0;  // over the feasible nodes of this cycle (NormalizeScore)
};

// countIntolerableTaintsPreferNoSchedule.
int IntolerablePreferNoSchedule(const Node& node, const std::vector<Toleration>& tolerations);

}  // namespace kpsim::engine
