#include "framework/filter_runner.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <utility>

namespace kpsim::engine {

FilterRunner::FilterRunner(ClusterModel& model, const EngineOptions& options, FilterPlugins plugins)
    : model_(model), options_(options), plugins_(std::move(plugins)) {
  while (node_local_count_ < plugins_.size() && plugins_[node_local_count_]->node_local()) {
    ++node_local_count_;
  }
  assert(std::none_of(plugins_.begin() + static_cast<std::ptrdiff_t>(node_local_count_),
                      plugins_.end(), [](const auto& p) { return p->node_local(); }) &&
         "node-local filter plugins must come first in the registry");
  filter_cache_.resize(model_.nodes().size());
}

bool FilterRunner::PreFilter(const PodInfo& pod, AffinityState& state) {
  bool any = false;
  for (const auto& plugin : plugins_) any |= plugin->PreFilter(pod, state);
  return any;
}

Status FilterRunner::ComputeNodeLocal(const PodInfo& pod, const NodeInfo& node) const {
  const ResourceList& requested = node.requested;  // unused by node-local plugins
  for (std::size_t i = 0; i < node_local_count_; ++i) {
    Status s = plugins_[i]->Filter(pod, node, FilterInput{requested, nullptr});
    if (!s.IsSuccess()) return s;
  }
  return Status::Success();
}

Status FilterRunner::NodeLocal(const PodInfo& pod, NodeId node) {
  if (node_spec_generation_ != model_.node_spec_generation()) {
    // A node's spec changed (a Scenario step): every node-local verdict is recomputed.
    node_spec_generation_ = model_.node_spec_generation();
    node_local_cache_.clear();
  }
  const auto cls = static_cast<std::size_t>(pod.static_class);
  if (node_local_cache_.size() <= cls) node_local_cache_.resize(cls + 1);
  auto& row = node_local_cache_[cls];
  if (row.empty()) row.assign(model_.nodes().size(), 0);
  std::int32_t& slot = row[node];
  if (slot == 0) {
    Status s = ComputeNodeLocal(pod, model_.node(node));
    auto it = std::find(node_local_results_.begin(), node_local_results_.end(), s);
    if (it == node_local_results_.end()) {
      node_local_results_.push_back(s);
      it = node_local_results_.end() - 1;
    }
    slot = static_cast<std::int32_t>(it - node_local_results_.begin()) + 1;
  }
  const Status& cached = node_local_results_[static_cast<std::size_t>(slot - 1)];
  assert(cached == ComputeNodeLocal(pod, model_.node(node)) &&
         "a cached node-local verdict differs from a fresh one (a static-class key is missing)");
  return cached;
}

Status FilterRunner::Run(const PodInfo& pod, NodeId node_id, const ResourceList& requested,
                         const AffinityState* affinity, const UsedPorts* ports) {
  Status s = NodeLocal(pod, node_id);
  if (!s.IsSuccess()) return s;
  const NodeInfo& node = model_.node(node_id);
  const FilterInput in{requested, affinity, ports};
  for (std::size_t i = node_local_count_; i < plugins_.size(); ++i) {
    s = plugins_[i]->Filter(pod, node, in);
    if (!s.IsSuccess()) return s;
  }
  return Status::Success();
}

bool FilterRunner::CachesUsable(const AffinityState* affinity) const {
  // Inter-pod affinity and `all` group victims make a node's result depend on other nodes.
  return !options_.disable_caches && affinity == nullptr && model_.bound_pods_in_all_units() == 0;
}

Status FilterRunner::FilterWithNominated(const PodInfo& pod, NodeId node_id,
                                         const ResourceList& requested,
                                         const AffinityState* affinity, const PodInfo* exclude,
                                         const UsedPorts* ports) {
  const NodeInfo& node = model_.node(node_id);
  const bool wants_ports = !pod.pod.spec.host_ports.empty();
  bool added = false;
  std::optional<ResourceList> with_nominated;  // copied only when a nominated pod counts
  std::optional<AffinityState> affinity_with;
  std::optional<UsedPorts> ports_with;  // copied only when a counted nominee holds host ports
  for (std::size_t i = 0; i < node.nominated.size(); ++i) {
    const NodeInfo::Nominee& nominee = node.nominees[i];
    if (nominee.priority < pod.priority) continue;
    const PodInfo& other = model_.pod(node.nominated[i]);
    if (&other == exclude) continue;
    if (!with_nominated) with_nominated = requested;
    *with_nominated += nominee.request;
    if (affinity != nullptr) {
      if (!affinity_with) affinity_with = *affinity;
      affinity_with->AddPod(model_, other, node, +1);
    }
    if (wants_ports && !other.pod.spec.host_ports.empty()) {
      if (!ports_with) ports_with = ports != nullptr ? *ports : node.used_ports;
      ports_with->AddPod(other.pod.spec);
    }
    added = true;
  }
  if (!added) return Run(pod, node_id, requested, affinity, ports);
  Status first = Run(pod, node_id, *with_nominated, affinity_with ? &*affinity_with : nullptr,
                     ports_with ? &*ports_with : ports);
  // Without inter-pod affinity every filter (NodePorts included) is monotone in the pods
  // present, so the second pass (without the nominated pods) cannot fail.
  if (!first.IsSuccess() || affinity == nullptr) return first;
  return Run(pod, node_id, requested, affinity, ports);
}

Status FilterRunner::CachedFilter(const PodInfo& pod, NodeId node_id,
                                  const AffinityState* affinity) {
  const NodeInfo& node = model_.node(node_id);
  if (!CachesUsable(affinity) || pod.nominated == node_id) {
    return FilterWithNominated(pod, node_id, node.requested, affinity, &pod);
  }
  FilterCacheEntry& entry = filter_cache_[node_id];
  if (entry.cls != pod.equivalence_class || entry.generation != node.generation) {
    entry.cls = pod.equivalence_class;
    entry.generation = node.generation;
    entry.status = FilterWithNominated(pod, node_id, node.requested, affinity, &pod);
    return entry.status;
  }
  assert(entry.status == FilterWithNominated(pod, node_id, node.requested, affinity, &pod) &&
         "a cached verdict differs from a fresh one (an equivalence-class key is missing)");
  return entry.status;
}

}  // namespace kpsim::engine
