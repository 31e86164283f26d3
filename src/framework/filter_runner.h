#pragma once

// The filter runner: the filter plugins in the registry's order, run as RunFilterPlugins does (the
// chain stops at the first rejection), with the pods nominated to a node (RunFilterPluginsWithNominatedPods)
// and two caches: the node-local prefix of the chain per (static class, node), and the last
// verdict of each node per (equivalence class, node generation). In debug builds (NDEBUG unset)
// every cached verdict is checked against a fresh one, as DuckDB's optimizer verifies its passes.

#include <cstdint>
#include <vector>

#include "framework/cycle_state.h"
#include "framework/plugin.h"
#include "framework/status.h"
#include "kpsim/engine_options.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

class FilterRunner {
 public:
  // REQUIRES: the node-local plugins of `plugins` come first.
  FilterRunner(ClusterModel& model, const EngineOptions& options, FilterPlugins plugins);
  FilterRunner(const FilterRunner&) = delete;
  FilterRunner& operator=(const FilterRunner&) = delete;

  // PreFilter of every plugin that has one (InterPodAffinity): builds `state` for `pod` over the
  // current cluster, or returns false when no plugin has anything to check.
  bool PreFilter(const PodInfo& pod, AffinityState& state);

  // The whole chain against `requested` and `ports` (null: the node's own host ports).
  // `affinity` may be null (nothing to check).
  Status Run(const PodInfo& pod, NodeId node, const ResourceList& requested,
             const AffinityState* affinity, const UsedPorts* ports = nullptr);

  // Filter with nominated pods (addGENominatedPods): pods nominated to `node` with priority >=
  // the pod's (other than `exclude`) count as present; if any did, filter again without them.
  // `exclude` is the pod whose own nomination does not count (the pod itself; null when the
  // result stands for every pod of the class). `ports` as in Run.
  Status FilterWithNominated(const PodInfo& pod, NodeId node, const ResourceList& requested,
                             const AffinityState* affinity, const PodInfo* exclude,
                             const UsedPorts* ports = nullptr);

  // FilterWithNominated against the node's live requests, from the per-node verdict cache when
  // it is valid (same equivalence class, same node generation).
  Status CachedFilter(const PodInfo& pod, NodeId node, const AffinityState* affinity);

  // Whether results computed for one pod may be reused for its equivalence class: not with
  // inter-pod affinity or `all` group victims (a node's result then depends on other nodes), nor
  // with EngineOptions::disable_caches.
  bool CachesUsable(const AffinityState* affinity) const;

  const FilterPlugins& plugins() const { return plugins_; }

 private:
  // The node-local prefix of the chain, cached per (static class, node).
  Status NodeLocal(const PodInfo& pod, NodeId node);
  Status ComputeNodeLocal(const PodInfo& pod, const NodeInfo& node) const;

  // Constant after construction.
  ClusterModel& model_;
  const EngineOptions& options_;
  const FilterPlugins plugins_;
  std::size_t node_local_count_ = 0;  // plugins_[0, node_local_count_) are node-local

  // Caches, valid while the model lives.
  // node_local_cache_[class][node]: 0 = not computed, else 1 + index into node_local_results_.
  std::vector<IdVector<NodeId, std::int32_t>> node_local_cache_;
  std::vector<Status> node_local_results_;
  std::uint64_t node_spec_generation_ = 0;  // the model's, when node_local_cache_ was started
  struct FilterCacheEntry {
    std::int32_t cls = -1;
    std::uint64_t generation = 0;
    Status status;
  };
  IdVector<NodeId, FilterCacheEntry> filter_cache_;
};

}  // namespace kpsim::engine
