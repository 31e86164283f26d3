#include "plugins/taint_toleration.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace kpsim::engine {
namespace {

// The first NoSchedule/NoExecute taint not tolerated.
const Taint* FirstUntoleratedTaint(const std::vector<Taint>& taints,
                                   const std::vector<Toleration>& tolerations) {
  for (const Taint& taint : taints) {
    if (taint.effect == TaintEffect::kPreferNoSchedule) continue;
    bool tolerated = false;
    for (const Toleration& t : tolerations) {
      if (t.Tolerates(taint)) {
        tolerated = true;
        break;
      }
    }
    if (!tolerated) return &taint;
  }
  return nullptr;
}

}  // namespace

Status TaintToleration::Filter(const PodInfo& pod, const NodeInfo& node,
                               const FilterInput& /*in*/) const {
  const Taint* taint = FirstUntoleratedTaint(node.api->taints, pod.pod.spec.tolerations);
  if (taint == nullptr) return Status::Success();
  Status s(Code::kUnschedulableAndUnresolvable, PluginId::kTaintToleration);
  s.AddReason(reasons_.Intern(
      fmt::format("node(s) had untolerated taint {{{}: {}}}", taint->key, taint->value)));
  return s;
}

int IntolerablePreferNoSchedule(const Node& node, const std::vector<Toleration>& tolerations) {
  int count = 0;
  for (const Taint& taint : node.taints) {
    if (taint.effect != TaintEffect::kPreferNoSchedule) continue;
    bool tolerated = false;
    for (const Toleration& t : tolerations) {
      if ((!t.effect || *t.effect == TaintEffect::kPreferNoSchedule) && t.Tolerates(taint)) {
        tolerated = true;
        break;
      }
    }
    if (!tolerated) ++count;
  }
  return count;
}

void TaintTolerationScore::PreScore(const PodInfo& pod, std::span<const NodeId> feasible) {
  max_count_ = 0;
  if (taints_generation_ != model_.node_spec_generation() || prefer_taints_.size() != model_.nodes().size()) {
    prefer_taints_.assign(model_.nodes().size(), 0);
    nodes_with_prefer_taints_ = 0;
    for (NodeId id : model_.nodes().ids()) {
      const std::vector<Taint>& taints = model_.node(id).api->taints;
      prefer_taints_[id] = std::any_of(taints.begin(), taints.end(), [](const Taint& t) {
        return t.effect == TaintEffect::kPreferNoSchedule;
      });
      nodes_with_prefer_taints_ += prefer_taints_[id];
    }
    taints_generation_ = model_.node_spec_generation();
  }
  if (nodes_with_prefer_taints_ == 0) return;
  for (NodeId id : feasible) {
    if (prefer_taints_[id] == 0) continue;
    max_count_ = std::max<std::int64_t>(
        max_count_, IntolerablePreferNoSchedule(*model_.node(id).api,
                                                pod.pod.spec.tolerations));
  }
}

std::int64_t TaintTolerationScore::Score(const PodInfo& pod, NodeId /*node_id*/, const NodeInfo& node) const {
  // Reverse-normalized over the feasible nodes (DefaultNormalizeScore with reverse).
  if (max_count_ <= 0) return kMaxNodeScore;
  const std::int64_t count = IntolerablePreferNoSchedule(*node.api, pod.pod.spec.tolerations);
  return kMaxNodeScore - kMaxNodeScore * count / max_count_;
}

}  // namespace kpsim::engine
