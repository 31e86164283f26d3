#pragma once

// NodeAffinity's score (weight 2 in the default profile): the sum of the weights of the pod's
// preferred node affinity terms the node matches, normalized to 0..100 against the best node.
// Mirrors `NodeAffinity.Score` / `NormalizeScore` (pkg/scheduler/framework/plugins/nodeaffinity/
// node_affinity.go) and `helper.DefaultNormalizeScore` (plugins/helper/normalize_score.go).
// The plugin's `addedAffinity` argument is not modeled (the default profile sets none).

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "framework/plugin.h"
#include "kpsim/api/types.h"
#include "snapshot/cluster.h"

namespace kpsim::plugins {

inline constexpr std::string_view kNodeAffinityName = "NodeAffinity";

// `NodeAffinity.Score` before normalization: the sum of `weight` over the terms of
// `Affinity::node_affinity_preferred` that match `node` (`PreferredSchedulingTerms.Score`).
// Terms with weight 0 are dropped, as `NewPreferredSchedulingTerms` does; an empty or invalid
// term matches nothing (upstream rejects an invalid one in PreScore; API validation stops it
// earlier, so kpsim never sees it from a valid manifest).
std::int64_t NodeAffinityScore(const Affinity& affinity, const Node& node);

// `helper.DefaultNormalizeScore(maxPriority, reverse, scores)`: scales `scores` in place so the
// highest becomes `max_priority` (integer division, as upstream); with `reverse`, each becomes
// `max_priority - score`. When every score is <= 0 they are left alone, or all set to
// `max_priority` with `reverse`.
void DefaultNormalizeScore(std::int64_t max_priority, bool reverse,
                           std::vector<std::int64_t>& scores);

// `NodeAffinity.NormalizeScore`: `DefaultNormalizeScore(100, false, scores)`.
void NodeAffinityNormalizeScore(std::vector<std::int64_t>& scores);

}  // namespace kpsim::plugins

namespace kpsim::engine {

// NodeAffinity's score in the cycle (weight 2): `plugins::NodeAffinityScore` of every feasible
// node, normalized over them (`NodeAffinityNormalizeScore`). Mirrors `NodeAffinity.PreScore`:
// a pod without preferred node affinity terms is skipped (every node scores 0).
class NodeAffinityScore final : public ScorePlugin {
 public:
  explicit NodeAffinityScore(const ClusterModel& model) : model_(model) {}
  std::string_view name() const override { return plugins::kNodeAffinityName; }
  void PreScore(const PodInfo& pod, std::span<const NodeId> feasible) override;
  std::int64_t Score(const PodInfo& pod, NodeId node_id, const NodeInfo& node) const override;
  bool Uniform() const override { return skip_; }

 private:
  const ClusterModel& model_;
  bool skip_ = true;                  // this cycle's PreScore returned Skip
  IdVector<NodeId, std::int64_t> scores_;  // normalized (feasible nodes only)
};

}  // namespace kpsim::engine
