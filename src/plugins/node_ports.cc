#include "plugins/node_ports.h"

namespace kpsim::plugins {

// Mirrors `fitsPorts` (node_ports.go).
bool FitsPorts(const std::vector<HostPort>& want, const UsedPorts& used) {
  return !used.ConflictsWithAny(want);
}

// Mirrors `NodePorts.Filter`.
FilterResult NodePortsFilter(const std::vector<HostPort>& want, const UsedPorts& used) {
  if (FitsPorts(want, used)) return {};
  return {FilterCode::kUnschedulable, kErrReasonNodePorts};
}

}  // namespace kpsim::plugins

namespace kpsim::engine {

NodePorts::NodePorts(ReasonTable& reasons)
    : no_free_ports_(reasons.Intern(plugins::kErrReasonNodePorts)) {}

Status NodePorts::Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const {
  // PreFilter returns Skip for a pod without host ports.
  const std::vector<HostPort>& want = pod.pod.spec.host_ports;
  if (want.empty()) return Status::Success();
  const UsedPorts& used = in.ports != nullptr ? *in.ports : node.used_ports;
  if (plugins::FitsPorts(want, used)) return Status::Success();
  Status s(Code::kUnschedulable, PluginId::kNodePorts);
  s.AddReason(no_free_ports_);
  return s;
}

}  // namespace kpsim::engine
