#pragma once

// NodeAffinity (plugins/nodeaffinity) filter: spec.nodeSelector and the required node affinity
// terms, UnschedulableAndUnresolvable when they do not match the node.

#include "framework/plugin.h"
#include "framework/status.h"
#include "snapshot/cluster.h"
#include "snapshot/reason_table.h"

namespace kpsim::engine {

class NodeAffinity final : public FilterPlugin {
 public:
  explicit NodeAffinity(ReasonTable& reasons);
  PluginId id() const override { return PluginId::kNodeAffinity; }
  bool node_local() const override { return true; }
  Status Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const override;

 private:
  ReasonId node_affinity_;
};

}  // namespace kpsim::engine
