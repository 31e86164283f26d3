#include "plugins/node_name.h"

namespace kpsim::engine {

NodeName::NodeName(ReasonTable& reasons)
    : node_name_(reasons.Intern("node(s) didn't match the requested node name")) {}

Status NodeName::Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& /*in*/) const {
  // Only meaningful for pods that name a node but are not bound yet.
  const std::string& name = pod.pod.spec.node_name;
  if (name.empty() || name == node.name) return Status::Success();
  Status s(Code::kUnschedulableAndUnresolvable, PluginId::kNodeName);
  s.AddReason(node_name_);
  return s;
}

}  // namespace kpsim::engine
