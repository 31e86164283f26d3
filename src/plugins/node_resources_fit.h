#pragma once

// NodeResourcesFit (plugins/noderesources/fit.go) filter: the pod's requests against the node's
// allocatable minus what is requested there (the caller's view: nominated pods added, dry-run
// victims removed). A request above the node's whole allocatable cannot be fixed by preemption
// (UnschedulableAndUnresolvable); otherwise Unschedulable. Its score strategy, LeastAllocated, is
// in node_resources_least_allocated.h.

#include "framework/plugin.h"
#include "framework/status.h"
#include "snapshot/cluster.h"
#include "snapshot/reason_table.h"

namespace kpsim::engine {

class NodeResourcesFit final : public FilterPlugin {
 public:
  explicit NodeResourcesFit(ReasonTable& reasons);
  PluginId id() const override { return PluginId::kNodeResourcesFit; }
  Status Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const override;

 private:
  ReasonTable& reasons_;  // "Insufficient <extended resource>" is interned when first met
  ReasonId too_many_pods_, insufficient_cpu_, insufficient_memory_, insufficient_ephemeral_;
};

}  // namespace kpsim::engine
