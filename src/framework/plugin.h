#pragma once

// The plugin interface of the default profile (kube-scheduler's framework.FilterPlugin and
// ScorePlugin, reduced to what kpsim models). A plugin carries its name (`id`, PluginName), interns
// its reason strings into the model's ReasonTable when it is constructed, and says which part of
// the pod its verdict depends on: a node-local filter (`node_local`) depends only on the pod's
// static class (tolerations, nodeName, nodeSelector, required node affinity) and the node, so the
// filter runner computes it once per (class, node). The plugins themselves and their order are in
// plugins/registry.cc.

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "framework/cycle_state.h"
#include "framework/status.h"
#include "kpsim/api/types.h"
#include "snapshot/cluster.h"
#include "snapshot/host_ports.h"

namespace kpsim::engine {

// What a filter sees besides the pod and the node: the node's requests as the caller sees them
// (pods included in `requested.pods`; nominated pods added or dry-run victims removed),
// InterPodAffinity's PreFilter state (null: nothing to check), and the host ports in use as the
// caller sees them (null: the node's own `used_ports`; set only for a pod that asks for host
// ports, when nominated pods or dry-run victims change them).
struct FilterInput {
  const ResourceList& requested;
  const AffinityState* affinity = nullptr;
  const UsedPorts* ports = nullptr;
};

class FilterPlugin {
 public:
  virtual ~FilterPlugin() = default;
  virtual PluginId id() const = 0;
  // True iff the verdict is a function of the pod's static class and the node alone. Node-local
  // plugins come first in the registry (the runner caches that prefix of the chain).
  virtual bool node_local() const { return false; }
  // PreFilter: builds this plugin's part of the cycle state for `pod`; false when the plugin has
  // nothing to check this cycle. Only InterPodAffinity has one.
  virtual bool PreFilter(const PodInfo& /*pod*/, AffinityState& /*state*/) { return false; }
  virtual Status Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const = 0;
};

class ScorePlugin {
 public:
  virtual ~ScorePlugin() = default;
  virtual std::string_view name() const = 0;
  // PreScore over the feasible nodes (the nodes `Score` will be asked about, and the ones
  // NormalizeScore ranges over). A plugin whose upstream PreScore returns Skip for `pod` scores
  // every node 0 this cycle (it contributes nothing).
  virtual void PreScore(const PodInfo& /*pod*/, std::span<const NodeId> /*feasible*/) {}
  // The score of node `node_id` (`node` is its NodeInfo), already normalized to
  // [0, MaxNodeScore]. REQUIRES: `node_id` was among the feasible nodes of the last PreScore.
  virtual std::int64_t Score(const PodInfo& pod, NodeId node_id, const NodeInfo& node) const = 0;
  // True when, after the last PreScore, every feasible node scores the same (upstream's Skip, or
  // a normalization over equal raw scores): the plugin cannot change selectHost's pick nor its
  // ties, so the cycle does not ask it per node. Score still answers (explain's table).
  virtual bool Uniform() const { return false; }
  // True iff PreScore does nothing and Score is a function of the pod's requests (its
  // equivalence class with its non-zero requests) and the node's pods alone, so that it holds
  // while the node's generation does: the cycle may keep it per class and node.
  virtual bool NodeLocal() const { return false; }
};

inline constexpr std::int64_t kMaxNodeScore = 100;

// A score plugin with its weight in the profile.
struct WeightedScorePlugin {
  std::unique_ptr<ScorePlugin> plugin;
  std::int64_t weight = 1;
};

using FilterPlugins = std::vector<std::unique_ptr<FilterPlugin>>;
using ScorePlugins = std::vector<WeightedScorePlugin>;

}  // namespace kpsim::engine
