// The default profile's simulation: in-place pod resizes (spec section 19).

#include "sim/simulator_internal.h"

namespace kpsim::engine::internal {

namespace {

// The first resource of `want` above `have` (cpu in millicores, the rest in units, as the kubelet
// prints them), or nullopt.
std::optional<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>> FirstShort(const ResourceList& want,
                                                                                        const ResourceList& have) {
  if (want.milli_cpu > have.milli_cpu) return std::pair{std::string("cpu"), std::pair{want.milli_cpu, have.milli_cpu}};
  if (want.memory > have.memory) return std::pair{std::string("memory"), std::pair{want.memory, have.memory}};
  if (want.ephemeral_storage > have.ephemeral_storage) {
    return std::pair{std::string("ephemeral-storage"), std::pair{want.ephemeral_storage, have.ephemeral_storage}};
  }
  for (const auto& [name, v] : want.scalar) {
    if (v > have.Scalar(name)) return std::pair{name, std::pair{v, have.Scalar(name)}};
  }
  return std::nullopt;
}

std::int64_t AmountOf(const ResourceList& r, std::string_view name) {
  if (name == "cpu") return r.milli_cpu;
  if (name == "memory") return r.memory;
  if (name == "ephemeral-storage") return r.ephemeral_storage;
  if (name == "pods") return r.pods;
  return r.Scalar(name);
}

}  // namespace

std::string RequestsText(const ResourceList& r) {
  return fmt::format("cpu {}m, memory {}", r.milli_cpu, FormatBinarySI(r.memory));
}

void Simulator::StartResize(const TimedStep& timed) {
  const std::optional<PodId> id = model_.FindPod(timed.step.name);
  if (!id || model_.pod(*id).state != PodState::kRunning || model_.pod(*id).node == kNoId) {
    const std::string message =
        fmt::format("resize: pod {} is not running on a node; nothing changed", timed.step.name);
    StepEvent(timed, EventReason::kScenarioStep, timed.step.name, "", message);
    StepWarning(timed, "StepTargetNotFound", message);
    return;
  }
  const PodInfo& pod = model_.pod(*id);
  const NodeInfo& node = model_.node(pod.node);
  Resize r;
  r.step = &timed;
  r.pod = *id;
  r.target = pod.request;
  r.allocated = pod.request;
  for (Resize& earlier : resizes_) {
    // spec.resources holds the latest desired value: a resize still waiting is superseded, and the
    // new one starts from what it asked for; the kubelet still holds what it held.
    if (earlier.pod != r.pod || earlier.done) continue;
    if (!earlier.infeasible) r.target = earlier.target;
    r.allocated = earlier.allocated;
    earlier.done = true;
  }
  for (const auto& [name, q] : timed.step.requests) r.target.Set(name, q);
  r.target.pods = 1;
  ResourceList capacity = node.allocatable;
  capacity.pods = 1;
  if (const auto short_of = FirstShort(r.target, capacity)) {
    // Infeasible: bigger than the node; never preempts (rule 19.1), and the scheduler counts what
    // the kubelet holds (determineContainerReqs).
    StepEvent(timed, EventReason::kScenarioStep, pod.key, node.name,
              fmt::format("resize: {} Infeasible (PodResizePending): Node didn't have enough capacity: {}, requested: "
                          "{}, capacity: {}",
                          pod.key, short_of->first, short_of->second.first, short_of->second.second));
    r.infeasible = true;
    if (!(pod.request == r.allocated)) model_.ResizePod(r.pod, r.allocated);
    resizes_.push_back(std::move(r));
    return;
  }
  StepEvent(timed, EventReason::kScenarioStep, pod.key, node.name,
            fmt::format("resize: {} asks for {} (was {})", pod.key, RequestsText(r.target), RequestsText(r.allocated)));
  Resize& added = resizes_.emplace_back(std::move(r));
  if (TryActuate(added)) return;
  DeferResize(added);
}

void Simulator::DeferResize(Resize& r) {
  const PodInfo& pod = model_.pod(r.pod);
  const NodeInfo& node = model_.node(pod.node);
  // Rule 19.4: while Deferred, the scheduler counts max(desired, allocated), so other pods see
  // the node as the resize will leave it.
  const ResourceList counted = ResourceList::Max(r.target, r.allocated);
  if (!(pod.request == counted)) model_.ResizePod(r.pod, counted);
  const ResourceList used = KubeletUsedBesides(r);
  ResourceList free = node.allocatable;
  free -= used;
  const auto short_of = FirstShort(r.target, free);
  const std::string what = short_of ? short_of->first : "pods";
  ResizeEvent(r, pod, node.name,
              fmt::format("resize: {} Deferred (PodResizePending): Node didn't have enough resource: {}, requested: {}, "
                          "used: {}, capacity: {}",
                          pod.key, what, AmountOf(r.target, what), AmountOf(used, what),
                          AmountOf(node.allocatable, what)));
  if (options_.gates.in_place_pod_vertical_scaling_scheduler_preemption && options_.preemption) ResizePreemption(r);
}

ResourceList Simulator::KubeletUsedBesides(const Resize& r) const {
  // The kubelet admits a resize against what it has allocated to the node's other pods
  // (`canResizePod`): their counted requests, less what their own pending resizes add.
  const PodInfo& pod = model_.pod(r.pod);
  ResourceList used = model_.node(pod.node).requested;
  used -= pod.request;
  for (const Resize& other : resizes_) {
    if (other.done || other.infeasible || other.pod == r.pod) continue;
    const PodInfo& o = model_.pod(other.pod);
    if (o.node != pod.node || o.state == PodState::kDeleted) continue;
    used -= o.request;
    used += other.allocated;
  }
  return used;
}

void Simulator::ResizeEvent(const Resize& r, const PodInfo& pod, const SharedString& node, std::string message) {
  if (r.step != nullptr) {
    StepEvent(*r.step, EventReason::kScenarioStep, pod.key, node, std::move(message));
    return;
  }
  Emit(EventReason::kResize, pod, node, std::move(message));
}

void Simulator::StartSnapshotResizes() {
  // Pods whose status shows a resize the kubelet has not actuated (PodResizePending, or specs
  // ahead of their status): the reader counted them as the scheduler does; the kubelet goes on.
  for (PodId id : model_.pods().ids()) {
    const PodInfo& pod = model_.pod(id);
    if (pod.state != PodState::kRunning || pod.node == kNoId || !pod.pod.status.resize) continue;
    const PendingResize& pending = *pod.pod.status.resize;
    Resize r;
    r.pod = id;
    r.target = pending.desired;
    r.target.pods = 1;
    r.allocated = pending.allocated;
    r.allocated.pods = 1;
    r.infeasible = pending.reason == "Infeasible";
    const SharedString node = model_.node(pod.node).name;
    const std::string state = pending.reason.empty() ? std::string("in progress") : pending.reason;
    Resize& added = resizes_.emplace_back(std::move(r));
    ResizeEvent(added, pod, node,
                fmt::format("resize: {} {} in its status (PodResizePending): asks for {}, the kubelet holds {}", pod.key,
                            state, RequestsText(added.target), RequestsText(added.allocated)));
    if (added.infeasible || TryActuate(added)) continue;
    DeferResize(added);
  }
}

bool Simulator::TryActuate(Resize& r) {
  PodInfo& pod = model_.pod(r.pod);
  if (pod.state != PodState::kRunning || pod.node == kNoId) {
    r.done = true;  // the pod went before the resize could be made
    return true;
  }
  const NodeInfo& node = model_.node(pod.node);
  ResourceList free = node.allocatable;
  free -= KubeletUsedBesides(r);
  if (FirstShort(r.target, free)) return false;
  const bool shrinks = r.target.milli_cpu < pod.request.milli_cpu || r.target.memory < pod.request.memory;
  const SharedString name = node.name;
  model_.ResizePod(r.pod, r.target);
  r.allocated = r.target;
  r.done = true;
  ResizeEvent(r, pod, name,
              fmt::format("resize: the kubelet actuated {}'s resize: requests now {}", pod.key, RequestsText(r.target)));
  // A scale-down frees room (AssignedPodUpdate, UpdatePodScaleDown): the pods NodeResourcesFit
  // rejected are asked again, as after a deletion.
  if (shrinks) queue_.OnEvent(ClusterEvent::kAssignedPodDelete, r.pod, now_);
  return true;
}

void Simulator::ResizePreemption(Resize& r) {
  PodInfo& pod = model_.pod(r.pod);
  const NodeId node_id = pod.node;
  const NodeInfo& node = model_.node(node_id);
  const auto say = [&](std::string message) { ResizeEvent(r, pod, node.name, std::move(message)); };
  if (std::any_of(r.victims.begin(), r.victims.end(),
                  [&](PodId v) { return model_.pod(v).state != PodState::kDeleted; })) {
    return;  // its victims are still terminating (as PodEligibleToPreemptOthers waits for them)
  }
  // Rule 19.3: the node opts out.
  if (!node.api->disable_resize_preemption.empty()) {
    say(fmt::format("resize preemption for {}: node had resize preemption disabled", pod.key));
    return;
  }
  if (pod.preemption_policy == PreemptionPolicy::kNever) {
    say(fmt::format("resize preemption for {}: not eligible due to preemptionPolicy=Never.", pod.key));
    return;
  }
  framework_.SetNow(now_);
  ++round_;
  ++result_.stats.scheduling_attempts;
  // Rule 19.4: the requested resources count as consumed; the pod is preempting for itself on its
  // own node (rule 19.2: every other node is "pod assigned to different node").
  PodInfo probe = pod;
  probe.request = ResourceList::Max(r.target, r.allocated);
  probe.state = PodState::kPending;
  probe.nominated = kNoId;
  model_.Detach(r.pod);
  Status filter;
  const DryRunResult dry = framework_.ResizeDryRun(probe, node_id, filter);
  Attempt attempt;
  attempt.pod = r.pod;
  attempt.outcome = filter.IsSuccess() ? Attempt::Outcome::kBind
                    : dry.candidate    ? Attempt::Outcome::kPreempt
                                       : Attempt::Outcome::kFail;
  Observe(attempt, [&](ExplainResult& out, bool /*chosen_only*/) {
    framework_.DiagnoseResize(probe, node_id, filter, dry, out);
  });
  model_.Reattach(r.pod);
  if (filter.IsSuccess()) {
    // Permit: "pod resize fits, waiting for Kubelet actuation"; the kubelet actuates it.
    TryActuate(r);
    return;
  }
  if (!dry.candidate) {
    say(fmt::format("resize preemption for {}: no victims on {} ({})", pod.key, node.name,
                    model_.reasons().Text(filter.reason_count() > 0 ? filter.reason(0) : ReasonId{0})));
    return;
  }
  say(fmt::format("resize preemption for {} on {}: preempting {} victim(s); no nominatedNodeName (the pod is bound)",
                  pod.key, node.name, dry.candidate->victims.size()));
  PreemptVictims(dry.candidate->victims, pod, "", node.name);
  for (const Victim& v : dry.candidate->victims) r.victims.push_back(v.pod);
  CountPreemption(preemptions_, r.pod, "Pod " + pod.key, node.name);
}

void Simulator::RetryResizes() {
  for (Resize& r : resizes_) {
    if (r.done || r.infeasible || TryActuate(r)) continue;
    if (options_.gates.in_place_pod_vertical_scaling_scheduler_preemption && options_.preemption) ResizePreemption(r);
  }
}

}  // namespace kpsim::engine::internal
