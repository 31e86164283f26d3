#include "plugins/node_affinity_score.h"

#include "plugins/scores.h"

namespace kpsim::plugins {

// Mirrors `PreferredSchedulingTerms.Score` (component-helpers/scheduling/corev1/nodeaffinity).
std::int64_t NodeAffinityScore(const Affinity& affinity, const Node& node) {
  std::int64_t score = 0;
  for (const PreferredSchedulingTerm& term : affinity.node_affinity_preferred) {
    if (term.weight == 0) continue;
    if (term.preference.Matches(node.meta.name, node.meta.labels)) score += term.weight;
  }
  return score;
}

// Mirrors `helper.DefaultNormalizeScore`.
void DefaultNormalizeScore(std::int64_t max_priority, bool reverse,
                           std::vector<std::int64_t>& scores) {
  std::int64_t max_count = 0;
  for (std::int64_t s : scores) {
    if (s > max_count) max_count = s;
  }
  if (max_count == 0) {
    if (reverse) {
      for (std::int64_t& s : scores) s = max_priority;
    }
    return;
  }
  for (std::int64_t& s : scores) {
    s = max_priority * s / max_count;
    if (reverse) s = max_priority - s;
  }
}

void NodeAffinityNormalizeScore(std::vector<std::int64_t>& scores) {
  DefaultNormalizeScore(kMaxNodeScore, false, scores);
}

}  // namespace kpsim::plugins

namespace kpsim::engine {

// Mirrors `NodeAffinity.PreScore` (Skip without preferred terms), `Score` per feasible node and
// `NormalizeScore` over them.
void NodeAffinityScore::PreScore(const PodInfo& pod, std::span<const NodeId> feasible) {
  const Affinity& affinity = pod.pod.spec.affinity;
  skip_ = affinity.node_affinity_preferred.empty();
  if (skip_) return;
  std::vector<std::int64_t> raw;
  raw.reserve(feasible.size());
  for (NodeId id : feasible) {
    raw.push_back(plugins::NodeAffinityScore(affinity, *model_.node(id).api));
  }
  plugins::NodeAffinityNormalizeScore(raw);
  scores_.resize(model_.nodes().size());
  for (std::size_t i = 0; i < feasible.size(); ++i) scores_[feasible[i]] = raw[i];
}

std::int64_t NodeAffinityScore::Score(const PodInfo& /*pod*/, NodeId node_id,
                                      const NodeInfo& /*node*/) const {
  return skip_ ? 0 : scores_[node_id];
}

}  // namespace kpsim::engine
