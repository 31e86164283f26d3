// The default profile's simulation: node-pressure eviction (the kubelet's eviction manager).

#include "sim/simulator_internal.h"

namespace kpsim::engine::internal {

namespace {

// The kubelet's eviction manager (eviction_manager.go): synchronize every monitoring interval;
// each pass under pressure evicts at most one pod, the first of the ranking that is not critical,
// with a 0s grace period (hard thresholds) and PodDisruptionBudgets ignored.
constexpr SimDuration kHousekeepingInterval = std::chrono::seconds(10);
// evictionPressureTransitionPeriod: how long a node keeps its pressure condition after the signal
// recovers.
constexpr SimDuration kPressureTransitionPeriod = std::chrono::minutes(5);

}  // namespace

void Simulator::StartPressure(const TimedStep& timed) {
  const ScenarioStep& step = timed.step;
  const std::optional<NodeId> id = model_.FindNode(step.name);
  const std::optional<EvictionSignal> signal = ParseEvictionSignal(step.signal);
  if (!id || !signal) {
    const std::string message = fmt::format("pressure: nodes \"{}\" not found; nothing changed", step.name);
    StepEvent(timed, EventReason::kScenarioStep, "", "", message);
    StepWarning(timed, "StepTargetNotFound", message);
    return;
  }
  Pressure p;
  p.step = &timed;
  p.node = *id;
  p.signal = *signal;
  if (step.available) p.available = step.available->Value();
  if (step.threshold) p.threshold = step.threshold->Value();
  if (!p.threshold) {
    std::optional<std::int64_t> capacity;
    if (EvictionResource(*signal) == "memory") capacity = model_.node(*id).allocatable.memory;
    if (EvictionResource(*signal) == "ephemeral-storage") capacity = model_.node(*id).allocatable.ephemeral_storage;
    p.threshold = DefaultEvictionThreshold(*signal, capacity);
  }
  const std::string resource(EvictionResource(*signal));
  std::string observed =
      p.available && p.threshold
          ? fmt::format("{} {} < threshold {}", step.signal, resource == "pids" ? std::to_string(*p.available) : FormatBinarySI(*p.available),
                        resource == "pids" ? std::to_string(*p.threshold) : FormatBinarySI(*p.threshold))
          : fmt::format("{} below its threshold", step.signal);
  if (p.available && p.threshold && *p.available >= *p.threshold) {
    StepEvent(timed, EventReason::kScenarioStep, "", step.name,
              fmt::format("pressure: node {} reports {} {}, not below its threshold: no pressure", step.name,
                          step.signal, step.available ? FormatBinarySI(*p.available) : ""));
    return;
  }
  // TaintNodesByCondition: the node lifecycle controller taints the node NoSchedule for the condition.
  Node api = *model_.node(*id).api;
  Taint taint;
  taint.key = std::string(PressureTaintKey(*signal));
  taint.effect = TaintEffect::kNoSchedule;
  const bool tainted = std::find(api.taints.begin(), api.taints.end(), taint) != api.taints.end();
  if (!tainted) {
    api.taints.push_back(taint);
    UpdateNode(*id, api);
  }
  StepEvent(timed, EventReason::kScenarioStep, "", step.name,
            fmt::format("pressure: node {} has {} ({}): {}=True, tainted {}:NoSchedule; the kubelet evicts one pod "
                        "per {}s housekeeping pass while it lasts",
                        step.name, PressureCondition(*signal), observed, PressureCondition(*signal), taint.key,
                        kHousekeepingInterval.count() / 1'000'000));
  pressures_.push_back(p);
  Housekeeping(pressures_.size() - 1);
}

void Simulator::Housekeeping(std::size_t index) {
  Pressure& p = pressures_[index];
  if (!p.active) return;
  const TimedStep& timed = *p.step;
  const NodeInfo& node = model_.node(p.node);
  std::vector<EvictionCandidate> candidates;
  std::vector<PodId> ids;
  for (PodId id : node.pods) {
    const PodInfo& pod = model_.pod(id);
    if (pod.IsTerminating()) continue;
    std::optional<std::int64_t> usage;
    for (const PodUsage& u : timed.step.usage) {
      if (u.pod == pod.key) usage = u.usage.Value();
    }
    const PodMetrics* metrics = nullptr;
    for (const PodMetrics& m : state_.pod_metrics) {
      if (m.meta.name == pod.pod.meta.name && m.meta.namespace_ == pod.pod.meta.namespace_) metrics = &m;
    }
    EvictionCandidate c = MakeEvictionCandidate(pod.pod, pod.priority, p.signal, metrics, usage);
    // The live requests (an actuated resize changed them), not the api object's.
    if (EvictionResource(p.signal) == "memory") c.request = pod.request.memory;
    if (EvictionResource(p.signal) == "ephemeral-storage") c.request = pod.request.ephemeral_storage;
    candidates.push_back(std::move(c));
    ids.push_back(id);
  }
  const std::vector<RankedPod> ranked = RankForEviction(p.signal, candidates);
  const RankedPod* chosen = nullptr;
  for (const RankedPod& r : ranked) {
    if (r.eviction_order) {
      chosen = &r;
      break;
    }
  }
  if (chosen == nullptr) {
    StepEvent(timed, EventReason::kScenarioStep, "", node.name,
              fmt::format("pressure: node {} has no pod left the kubelet may evict{}; the pressure stays", node.name,
                          ranked.empty() ? "" : " (only critical pods)"));
    p.active = false;
    return;
  }
  const auto at = std::find_if(ids.begin(), ids.end(), [&](PodId id) { return model_.pod(id).key == chosen->candidate.pod; });
  const PodId victim = *at;
  PodInfo& pod = model_.pod(victim);
  if (pod.replacement_of != kNoId &&
      std::find(p.evicted.begin(), p.evicted.end(), pod.replacement_of) != p.evicted.end()) {
    // The pod to evict replaces one this pressure evicted (it tolerates the pressure taint and
    // came back): the kubelet would evict and the controller recreate forever.
    p.active = false;
    const std::string message = fmt::format(
        "pressure: node {} would evict {}, the replacement of a pod it already evicted; the kubelet and its "
        "controller would repeat this forever, so kpsim ends this pressure here",
        node.name, pod.key);
    StepEvent(timed, EventReason::kScenarioStep, pod.key, node.name, message);
    StepWarning(timed, "EvictionLoop", message);
    return;
  }
  p.evicted.push_back(victim);
  Emit(EventReason::kEvicted, pod, node.name,
       fmt::format("{}(ranked first of {}: {})", chosen->message, ranked.size(), chosen->reason));
  result_.events.back().scenario = timed.scenario;
  result_.events.back().step_index = timed.step.index;
  result_.events.back().action = "pressure";
  ++result_.stats.evictions;
  DeletePod(victim, SimDuration{0});
  Replace(victim, "evicted pod");
  if (p.available && chosen->candidate.usage) *p.available += *chosen->candidate.usage;
  const bool relieved = !p.available || !p.threshold || *p.available >= *p.threshold;
  if (!relieved) {
    AddTimed(now_ + kHousekeepingInterval, TimedKind::kHousekeeping, kNoId, static_cast<std::int32_t>(index));
    return;
  }
  p.active = false;
  StepEvent(timed, EventReason::kScenarioStep, "", node.name,
            fmt::format("pressure: node {} recovered{}; {} stays True for the {}s evictionPressureTransitionPeriod", node.name,
                        p.available ? fmt::format(" ({} available)", FormatBinarySI(*p.available)) : std::string(),
                        PressureCondition(p.signal), kPressureTransitionPeriod.count() / 1'000'000));
  p.over_at = now_ + kPressureTransitionPeriod;
  AddTimed(p.over_at, TimedKind::kPressureOver, kNoId, static_cast<std::int32_t>(index));
}

void Simulator::EndPressure(std::size_t index) {
  const Pressure& p = pressures_[index];
  for (const Pressure& other : pressures_) {
    // Another pressure still holds the same condition's taint (memory.available and
    // allocatableMemory.available share one).
    if (&other == &p || other.node != p.node || PressureTaintKey(other.signal) != PressureTaintKey(p.signal)) continue;
    if (other.active || other.over_at > now_) return;
  }
  Node api = *model_.node(p.node).api;
  const std::string key(PressureTaintKey(p.signal));
  if (std::erase_if(api.taints, [&](const Taint& t) { return t.key == key; }) == 0) return;
  UpdateNode(p.node, api);
  StepEvent(*p.step, EventReason::kScenarioStep, "", model_.node(p.node).name,
            fmt::format("pressure: {}=False on node {}; taint {} removed", PressureCondition(p.signal),
                        model_.node(p.node).name, key));
}

}  // namespace kpsim::engine::internal
