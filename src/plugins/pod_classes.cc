#include "plugins/pod_classes.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace kpsim::engine {

std::string NamespaceAndLabels(const Pod& pod) {
  std::string key = pod.meta.namespace_;
  for (const auto& [name, value] : pod.meta.labels) {
    key += '\x1f';
    key += name;
    key += '=';
    key += value;
  }
  return key;
}

PodClasses::PodClasses(const ClusterModel& model, std::function<std::string(const Pod&)> key,
                       std::function<bool(const Pod&, const Pod&)> alike,
                       std::function<bool(const PodInfo&)> counts, std::function<bool(const Pod&)> flag)
    : model_(model),
      key_(std::move(key)),
      alike_(std::move(alike)),
      counts_(std::move(counts)),
      flag_(std::move(flag)) {}

std::vector<PodId> PodClasses::Counted(NodeId node) const {
  if (!model_.node(node).present) return {};  // no snapshot holds a deleted node's pods
  const std::vector<PodId>& pods = model_.node(node).pods;
  if (!counts_) return pods;
  std::vector<PodId> out;
  out.reserve(pods.size());
  for (PodId pod : pods) {
    if (counts_(model_.pod(pod))) out.push_back(pod);
  }
  return out;
}

std::int32_t PodClasses::ClassOf(PodId pod_id) {
  if (!class_of_pod_.contains(pod_id)) class_of_pod_.resize(model_.pods().size(), -1);
  std::int32_t& cls = class_of_pod_[pod_id];
  if (cls >= 0) return cls;
  const Pod& pod = model_.pod(pod_id).pod;
  std::vector<std::int32_t>& same_key = classes_by_key_[key_(pod)];
  for (std::int32_t candidate : same_key) {
    const PodId rep = classes_[static_cast<std::size_t>(candidate)].representative;
    if (!alike_ || alike_(model_.pod(rep).pod, pod)) return cls = candidate;
  }
  cls = static_cast<std::int32_t>(classes_.size());
  same_key.push_back(cls);
  classes_.push_back({pod_id, {}, 0, flag_ && flag_(pod)});
  return cls;
}

void PodClasses::Count(NodeId node, PodId pod, std::int64_t delta) {
  Class& cls = classes_[static_cast<std::size_t>(ClassOf(pod))];
  auto it = cls.nodes.try_emplace(node, 0).first;
  it->second += delta;
  if (it->second == 0) cls.nodes.erase(it);
  cls.total += delta;
  if (cls.flagged) flagged_total_ += delta;
}

void PodClasses::CatchUp() {
  const auto& log = model_.change_log();
  if (!built_) {
    // Every node once, then only the nodes the change log names.
    built_ = true;
    counted_.resize(model_.nodes().size());
    for (NodeId id : model_.nodes().ids()) {
      counted_[id] = Counted(id);
      for (PodId pod : counted_[id]) Count(id, pod, +1);
    }
    log_pos_ = log.size();
    return;
  }
  // Each node the log names since the last call, once (the log repeats a node for every
  // nomination and dry-run step).
  std::vector<NodeId> changed(log.begin() + static_cast<std::ptrdiff_t>(log_pos_), log.end());
  log_pos_ = log.size();
  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  for (const NodeId id : changed) {
    std::vector<PodId> now = Counted(id);
    std::vector<PodId>& counted = counted_[id];
    if (counted == now) continue;
    for (PodId pod : counted) Count(id, pod, -1);
    for (PodId pod : now) Count(id, pod, +1);
    counted = std::move(now);
  }
}

}  // namespace kpsim::engine
