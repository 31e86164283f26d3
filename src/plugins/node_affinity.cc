#include "plugins/node_affinity.h"

namespace kpsim::engine {

NodeAffinity::NodeAffinity(ReasonTable& reasons)
    : node_affinity_(reasons.Intern("node(s) didn't match Pod's node affinity/selector")) {}

bool MatchesRequiredNodeAffinity(const PodSpec& spec, const NodeInfo& node) {
  const Labels& labels = node.api->meta.labels;
  for (const auto& [key, value] : spec.node_selector) {
    const std::string* v = FindLabel(labels, key);
    if (v == nullptr || *v != value) return false;
  }
  return !spec.affinity.node_affinity_required ||
         spec.affinity.node_affinity_required->Matches(node.name, labels);
}

Status NodeAffinity::Filter(const PodInfo& pod, const NodeInfo& node,
                            const FilterInput& /*in*/) const {
  if (MatchesRequiredNodeAffinity(pod.pod.spec, node)) return Status::Success();
  Status s(Code::kUnschedulableAndUnresolvable, PluginId::kNodeAffinity);
  s.AddReason(node_affinity_);
  return s;
}

}  // namespace kpsim::engine
