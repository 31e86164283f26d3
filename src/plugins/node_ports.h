#pragma once

// NodePorts (filter): a pod asking for a host port does not fit a node where another pod holds
// the same protocol and port on a conflicting address.
// Mirrors pkg/scheduler/framework/plugins/nodeports/node_ports.go; the ports in use per node
// (`HostPortInfo`) are the cluster model's `UsedPorts` (snapshot/host_ports.h).

#include <string_view>
#include <vector>

#include "framework/plugin.h"
#include "framework/status.h"
#include "kpsim/api/types.h"
#include "plugins/filter_result.h"
#include "snapshot/cluster.h"
#include "snapshot/host_ports.h"
#include "snapshot/reason_table.h"

namespace kpsim::plugins {

using engine::UsedPorts;

inline constexpr std::string_view kNodePortsName = "NodePorts";
// Upstream `nodeports.ErrReason`.
inline constexpr std::string_view kErrReasonNodePorts =
    "node(s) didn't have free ports for the requested pod ports";

// `fitsPorts`: true iff none of `want` conflicts with `used`. Conflicts among `want` themselves
// are not checked (API validation rejects them), as upstream.
bool FitsPorts(const std::vector<HostPort>& want, const UsedPorts& used);

// `NodePorts.Filter`: success when the ports fit, else `kUnschedulable` with
// `kErrReasonNodePorts` (preempting the pod holding the port can free it). A pod with no host
// ports always fits (upstream's PreFilter returns Skip for it).
FilterResult NodePortsFilter(const std::vector<HostPort>& want, const UsedPorts& used);

}  // namespace kpsim::plugins

namespace kpsim::engine {

// The NodePorts filter in the cycle. Not node-local: its verdict depends on the pods present,
// which the caller's view gives (`FilterInput::ports`: nominated pods added, dry-run victims
// removed; null means the node's own). Its part of the equivalence key is the pod's host ports
// (ClusterModel::Classify); its queueing hint is in queue/ (isSchedulableAfterPodDeleted).
class NodePorts final : public FilterPlugin {
 public:
  explicit NodePorts(ReasonTable& reasons);
  PluginId id() const override { return PluginId::kNodePorts; }
  Status Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const override;

 private:
  ReasonId no_free_ports_;
};

}  // namespace kpsim::engine
