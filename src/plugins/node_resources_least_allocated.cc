#include "plugins/node_resources_least_allocated.h"

namespace kpsim::engine {

std::int64_t LeastRequestedScore(std::int64_t requested, std::int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return (capacity - requested) * kMaxNodeScore / capacity;
}

std::int64_t NodeResourcesLeastAllocated::Score(const PodInfo& pod, NodeId /*node_id*/, const NodeInfo& node) const {
  const ResourceList& alloc = node.allocatable;
  return (LeastRequestedScore(node.nonzero_cpu + pod.nonzero_cpu, alloc.milli_cpu) +
          LeastRequestedScore(node.nonzero_memory + pod.nonzero_memory, alloc.memory)) /
         2;
}

}  // namespace kpsim::engine
