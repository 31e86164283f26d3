#include "plugins/node_affinity.h"

namespace kpsim::engine {

NodeAffinity::NodeAffinity(ReasonTable& reasons)
    : node_affinity_(reasons.Intern("node(s) didn't match Pod's node affinity/selector")) {}

Status NodeAffinity::Filter(const PodInfo& pod, const NodeInfo& node,
                            const FilterInput& /*in*/) const {
  const Node& api = *node.api;
  const PodSpec& spec = pod.pod.spec;
  bool affinity_ok = true;
  for (const auto& [key, value] : spec.node_selector) {
    const std::string* v = FindLabel(api.meta.labels, key);
    if (v == nullptr || *v != value) {
      affinity_ok = false;
      break;
    }
  }
  if (affinity_ok && spec.affinity.node_affinity_required) {
    affinity_ok = spec.affinity.node_affinity_required->Matches(node.name, api.meta.labels);
  }
  if (affinity_ok) return Status::Success();
  Status s(Code::kUnschedulableAndUnresolvable, PluginId::kNodeAffinity);
  s.AddReason(node_affinity_);
  return s;
}

}  // namespace kpsim::engine
