#pragma once

// NodeResourcesFit's score with the LeastAllocated strategy (noderesources/least_allocated.go):
// cpu and memory with weight 1 each, on the non-zero requests (a pod without requests counts as
// 100m cpu and 200Mi memory), the emptier the node the higher.

#include <cstdint>
#include <string_view>

#include "framework/plugin.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

class NodeResourcesLeastAllocated final : public ScorePlugin {
 public:
  std::string_view name() const override { return "NodeResourcesFit"; }
  std::int64_t Score(const PodInfo& pod, NodeId node_id, const NodeInfo& node) const override;
  bool NodeLocal() const override { return true; }
};

// leastRequestedScore: (capacity - requested) * MaxNodeScore / capacity, 0 when over capacity.
std::int64_t LeastRequestedScore(std::int64_t requested, std::int64_t capacity);

}  // namespace kpsim::engine
