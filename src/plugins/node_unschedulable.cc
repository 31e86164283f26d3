#include "plugins/node_unschedulable.h"

#include <algorithm>

namespace kpsim::engine {

NodeUnschedulable::NodeUnschedulable(ReasonTable& reasons)
    : unschedulable_(reasons.Intern("node(s) were unschedulable")) {}

Status NodeUnschedulable::Filter(const PodInfo& pod, const NodeInfo& node,
                                 const FilterInput& /*in*/) const {
  if (!node.api->unschedulable) return Status::Success();
  // Tolerating node.kubernetes.io/unschedulable:NoSchedule lifts it.
  const Taint t{"node.kubernetes.io/unschedulable", "", TaintEffect::kNoSchedule};
  const auto& tolerations = pod.pod.spec.tolerations;
  if (std::any_of(tolerations.begin(), tolerations.end(),
                  [&](const Toleration& tol) { return tol.Tolerates(t); })) {
    return Status::Success();
  }
  Status s(Code::kUnschedulableAndUnresolvable, PluginId::kNodeUnschedulable);
  s.AddReason(unschedulable_);
  return s;
}

}  // namespace kpsim::engine
