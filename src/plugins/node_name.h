#pragma once

// NodeName (plugins/nodename): a pod that names a node (spec.nodeName, not bound yet) fits only
// there, UnschedulableAndUnresolvable elsewhere.

#include "framework/plugin.h"
#include "framework/status.h"
#include "snapshot/cluster.h"
#include "snapshot/reason_table.h"

namespace kpsim::engine {

class NodeName final : public FilterPlugin {
 public:
  explicit NodeName(ReasonTable& reasons);
  PluginId id() const override { return PluginId::kNodeName; }
  bool node_local() const override { return true; }
  Status Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const override;

 private:
  ReasonId node_name_;
};

}  // namespace kpsim::engine
