#include "plugins/node_resources_fit.h"

namespace kpsim::engine {

NodeResourcesFit::NodeResourcesFit(ReasonTable& reasons)
    : reasons_(reasons),
      too_many_pods_(reasons.Intern("Too many pods")),
      insufficient_cpu_(reasons.Intern("Insufficient cpu")),
      insufficient_memory_(reasons.Intern("Insufficient memory")),
      insufficient_ephemeral_(reasons.Intern("Insufficient ephemeral-storage")) {}

Status NodeResourcesFit::Filter(const PodInfo& pod, const NodeInfo& node,
                                const FilterInput& in) const {
  // Mirrors noderesources.fitsRequest.
  const ResourceList& requested = in.requested;
  const ResourceList& alloc = node.allocatable;
  const ResourceList& req = pod.request;
  Status s(Code::kUnschedulable, PluginId::kNodeResourcesFit);
  bool unresolvable = false;
  if (requested.pods + 1 > alloc.pods) s.AddReason(too_many_pods_);
  if (req.milli_cpu > 0 && req.milli_cpu > alloc.milli_cpu - requested.milli_cpu) {
    s.AddReason(insufficient_cpu_);
    unresolvable |= req.milli_cpu > alloc.milli_cpu;
  }
  if (req.memory > 0 && req.memory > alloc.memory - requested.memory) {
    s.AddReason(insufficient_memory_);
    unresolvable |= req.memory > alloc.memory;
  }
  if (req.ephemeral_storage > 0 &&
      req.ephemeral_storage > alloc.ephemeral_storage - requested.ephemeral_storage) {
    s.AddReason(insufficient_ephemeral_);
    unresolvable |= req.ephemeral_storage > alloc.ephemeral_storage;
  }
  for (const auto& [name, amount] : req.scalar) {
    const std::int64_t cap = alloc.Scalar(name);
    if (amount > 0 && amount > cap - requested.Scalar(name)) {
      s.AddReason(reasons_.Intern("Insufficient " + name));
      unresolvable |= amount > cap;
    }
  }
  if (s.reason_count() == 0) return Status::Success();
  if (unresolvable) {
    Status u(Code::kUnschedulableAndUnresolvable, PluginId::kNodeResourcesFit);
    for (int i = 0; i < s.reason_count(); ++i) u.AddReason(s.reason(i));
    return u;
  }
  return s;
}

}  // namespace kpsim::engine
