#pragma once

// NodeAffinity (plugins/nodeaffinity) filter: spec.nodeSelector and the required node affinity
// terms, UnschedulableAndUnresolvable when they do not match the node.

#include "framework/plugin.h"
#include "framework/status.h"
#include "snapshot/cluster.h"
#include "snapshot/reason_table.h"

namespace kpsim::engine {

// `RequiredNodeAffinity.Match` (component-helpers nodeaffinity): the pod's nodeSelector and its
// required node affinity terms hold on the node. PodTopologySpread's inclusion policy reads it too.
bool MatchesRequiredNodeAffinity(const PodSpec& spec, const NodeInfo& node);

class NodeAffinity final : public FilterPlugin {
 public:
  explicit NodeAffinity(ReasonTable& reasons);
  PluginId id() const override { return PluginId::kNodeAffinity; }
  bool node_local() const override { return true; }
  Status Filter(const PodInfo& pod, const NodeInfo& node, const FilterInput& in) const override;

 private:
  ReasonId node_affinity_;
};

}  // namespace kpsim::engine
