#pragma once

// NodeUnschedulable (plugins/nodeunschedulable): a node with spec.unschedulable rejects pods that do not
// tolerate node.kubernetes.io/unschedulable:NoSchedule, as UnschedulableAndUnresolvable.

#include "framework/plugin.h"
#include "framework/status.h"
#include "snapshot/cluster.h"
#include "snapshot/reason_table.h"

namespace kpsim::engine {

class NodeUnschedulable final : public FilterPlugin {
 public:
  explicit NodeUnschedulable(ReasonTable& reasons);
  PluginId id() const override { return PluginId::kNodeUnschedulable; }
  bool node_local() const override { return true; }
  Status Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const override;

 private:
  ReasonId unschedulable_;
};

}  // namespace kpsim::engine
