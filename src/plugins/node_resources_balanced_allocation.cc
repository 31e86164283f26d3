#include "plugins/node_resources_balanced_allocation.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace kpsim::engine {

std::int64_t NodeResourcesBalancedAllocation::Score(const PodInfo& pod, NodeId /*node_id*/, const NodeInfo& node) const {
  const ResourceList& alloc = node.allocatable;
  std::array<double, 2> fractions{};
  std::size_t n = 0;
  auto add_fraction = [&](std::int64_t requested, std::int64_t allocatable) {
    if (allocatable == 0) return;
    double f = static_cast<double>(requested) / static_cast<double>(allocatable);
    fractions[n++] = std::min(f, 1.0);
  };
  add_fraction(node.requested.milli_cpu + pod.request.milli_cpu, alloc.milli_cpu);
  add_fraction(node.requested.memory + pod.request.memory, alloc.memory);
  const double stddev = n == 2 ? std::abs((fractions[0] - fractions[1]) / 2) : 0.0;
  return static_cast<std::int64_t>((1 - stddev) * static_cast<double>(kMaxNodeScore));
}

}  // namespace kpsim::engine
