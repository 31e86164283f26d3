#pragma once

// NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go): on the actual requests
// of cpu and memory, (1 - the standard deviation of their requested fractions) * MaxNodeScore.

#include <cstdint>
#include <string_view>

#include "framework/plugin.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

class NodeResourcesBalancedAllocation final : public ScorePlugin {
 public:
  std::string_view name() const override { return "NodeResourcesBalancedAllocation"; }
  std::int64_t Score(const PodInfo& pod, NodeId node_id, const NodeInfo& node) const override;
  bool NodeLocal() const override { return true; }
};

}  // namespace kpsim::engine
