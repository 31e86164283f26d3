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
  bool Uniform() const override { return max_count_ <= 0; }

 private:
  const ClusterModel& model_;
  std::int64_t max_count_ = 0;  // over the feasible nodes of this cycle (NormalizeScore)
  // Per node, whether it has a PreferNoSchedule taint, as of the model's node spec generation:
  // where none has, no toleration matters and PreScore costs nothing.
  IdVector<NodeId, std::uint8_t> prefer_taints_;
  std::size_t nodes_with_prefer_taints_ = 0;
  std::uint64_t taints_generation_ = 0;
};

// countIntolerableTaintsPreferNoSchedule.
int IntolerablePreferNoSchedule(const Node& node, const std::vector<Toleration>& tolerations);

}  // namespace kpsim::engine
