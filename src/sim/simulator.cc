// The default profile's simulation: the event loop, the scheduling cycle and what its decisions
// do (binds, nominations, preemption, replacements). The class and the files of its other parts:
// simulator_internal.h.

#include "sim/simulator.h"

#include "sim/simulator_internal.h"

namespace kpsim::engine {
namespace internal {
namespace {

// Kubernetes' name-suffix alphabet (k8s.io/apimachinery/pkg/util/rand).
constexpr std::string_view kSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";

// A StatefulSet pod: its controller recreates it under the same name, once the old one is gone.
bool IsStatefulSetPod(const PodInfo& pod) {
  for (const OwnerReference& ref : pod.pod.meta.owner_references) {
    if (ref.controller && ref.kind == "StatefulSet") return true;
  }
  return false;
}

}  // namespace

void Simulator::RecordDecision(std::optional<PreemptionDecision> record) {
  if (!record) return;
  record->round = round_;
  record->time = now_;
  result_.decisions.push_back(std::move(*record));
}

void Simulator::EmitFailure(PodInfo& pod, SharedString message) {
  pod.last_failure = message;
  Emit(EventReason::kFailedScheduling, pod, "", std::move(message));
}

void Simulator::Emit(EventReason reason, const PodInfo& pod, SharedString node, SharedString message) {
  if (reason == EventReason::kFailedScheduling) {
    // Mirrors EventCorrelator.EventCorrelate (client-go tools/record/events_cache.go): an event
    // whose key (object, reason, message, source) was recorded before updates that event's count
    // and lastTimestamp instead of creating a new one. The similar-event aggregation that
    // rewrites messages ("(combined from similar events)") is not modelled.
    const PodId id = pod.id;
    if (!failure_chain_.contains(id)) failure_chain_.resize(id.index() + 1, 0);
    for (std::uint32_t link = failure_chain_[id]; link != 0; link = failure_links_[link - 1].previous) {
      SimEvent& seen = result_.events[failure_links_[link - 1].event];
      if (seen.node == node && seen.message == message) {
        ++seen.count;
        seen.last_time = now_;
        return;
      }
    }
    failure_links_.push_back({static_cast<std::uint32_t>(result_.events.size()), failure_chain_[id]});
    failure_chain_[id] = static_cast<std::uint32_t>(failure_links_.size());
  }
  SharedString& last = last_message_.at(static_cast<std::size_t>(reason));
  if (last == message) {
    message = last;
  } else {
    last = message;
  }
  SimEvent e;
  e.last_time = now_;
  e.time = now_;
  e.reason = reason;
  e.pod = pod.key;
  e.node = std::move(node);
  e.message = std::move(message);
  e.round = round_;
  result_.events.push_back(std::move(e));
}


std::string Simulator::ReplacementName(const PodInfo& victim) {
  std::string prefix = victim.pod.meta.generate_name;
  if (prefix.empty()) {
    const OwnerReference* owner = &victim.pod.meta.owner_references.front();
    for (const OwnerReference& ref : victim.pod.meta.owner_references) {
      if (ref.controller) owner = &ref;
    }
    prefix = owner->name + "-";
  }
  for (;;) {
    std::string name = prefix;
    for (int i = 0; i < 5; ++i) {
      name += kSuffixAlphabet[framework_.rng()() % kSuffixAlphabet.size()];
    }
    if (!model_.FindPod(victim.pod.meta.namespace_ + "/" + name)) return name;
  }
}

void Simulator::PlanApplies(const std::vector<PodId>& pods) {
  std::string last_key;
  for (PodId id : pods) {
    const std::string key = ApplyGroupKey(model_.pod(id).pod);
    if (applies_.empty() || key.empty() || key != last_key) applies_.emplace_back();
    applies_.back().push_back(id);
    last_key = key;
  }
}

bool Simulator::ReleaseNextApply() {
  // Settled: nothing to attempt but pods parked unschedulable, and no termination in flight.
  if (next_apply_ >= applies_.size() || !queue_.Empty() || terminations_in_flight_ > 0) return false;
  const std::size_t number = ++next_apply_;
  for (PodId id : applies_[number - 1]) {
    PodInfo& pod = model_.pod(id);
    if (pod.state != PodState::kPending) continue;
    Emit(EventReason::kCreated, pod, "",
         fmt::format("applied (apply {} of {}, --arrival sequential); it enters the scheduling queue",
                     number, applies_.size()));
    Enqueue(id);
  }
  return true;
}

void Simulator::ProcessTimed(const Timed& t) {
  if (t.kind == TimedKind::kTerminationDone) --terminations_in_flight_;
  switch (t.kind) {
    case TimedKind::kStep:
      RunStep(state_.steps[static_cast<std::size_t>(t.index)]);
      return;
    case TimedKind::kHousekeeping:
      Housekeeping(static_cast<std::size_t>(t.index));
      return;
    case TimedKind::kPressureOver:
      EndPressure(static_cast<std::size_t>(t.index));
      return;
    default:
      break;
  }
  PodInfo& pod = model_.pod(t.pod);
  switch (t.kind) {
    case TimedKind::kStep:
    case TimedKind::kHousekeeping:
    case TimedKind::kPressureOver:
      return;
    case TimedKind::kArrival:
      if (pod.state != PodState::kPending) return;
      Emit(EventReason::kCreated, pod, "", "pod created; it enters the scheduling queue");
      Enqueue(t.pod);
      return;
    case TimedKind::kOrphanGc: {
      // PodGC's gcOrphaned: a pod still bound to a node that is not (back) in the cluster is
      // force-deleted, and its controller replaces it.
      if (pod.state == PodState::kDeleted || pod.node == kNoId || model_.node(pod.node).present) return;
      const SharedString node = model_.node(pod.node).name;
      model_.Remove(t.pod, now_);
      Emit(EventReason::kDeleted, pod, node,
           fmt::format("deleted by the pod garbage collector: its node {} was deleted (gcOrphaned)", node));
      RetryRefusedCreates();
      if (pod.owned && !pod.replaced) {
        if (IsStatefulSetPod(pod)) {
          CreateReplacement(t.pod, pod.pod.meta.name,
                            fmt::format("recreated by its StatefulSet under the same name, replacing deleted pod {}", pod.key));
        } else {
          Replace(t.pod, "deleted pod");
        }
      }
      RetryResizes();
      return;
    }
    case TimedKind::kTerminationDone: {
      if (pod.state != PodState::kTerminating) return;
      const SharedString node = pod.node != kNoId ? model_.node(pod.node).name : SharedString();
      model_.Remove(t.pod, now_);
      Emit(EventReason::kDeleted, pod, node,
           fmt::format("terminated after its grace period of {}s", pod.grace_us / 1'000'000));
      queue_.OnEvent(ClusterEvent::kAssignedPodDelete, t.pod, now_);
      RetryRefusedCreates();  // before a StatefulSet's recreate, which is tried once here
      if (pod.owned && (pod.terminating_by_preemption || pod.replace_when_gone) && !pod.replaced &&
          IsStatefulSetPod(pod)) {
        // The StatefulSet controller recreates pod <name>-<ordinal> once the old one is deleted.
        CreateReplacement(t.pod, pod.pod.meta.name,
                          fmt::format("recreated by its StatefulSet under the same name, replacing {} pod {}",
                                      pod.terminating_by_preemption ? "preempted" : "deleted", pod.key));
      }
      RetryResizes();
      return;
    }
  }
}

void Simulator::Enqueue(PodId pod_id) {
  PodInfo& pod = model_.pod(pod_id);
  if (pod.waits_for_group) {
    pod.last_failure = fmt::format("waiting for PodGroup {}/{}, which does not exist",
                                   pod.pod.meta.namespace_, pod.pod.spec.scheduling_group->pod_group_name);
    return;
  }
  const std::string& scheduler = pod.pod.spec.scheduler_name;
  if (pod.group == kNoId && !scheduler.empty() && scheduler != "default-scheduler") {
    // Another scheduler's pod: kube-scheduler's default profile never picks it up.
    pod.last_failure = fmt::format("schedulerName {} is not served by this profile", scheduler);
    return;
  }
  if (const std::vector<std::string>& gates = pod.pod.spec.scheduling_gates; !gates.empty()) {
    // SchedulingGates.PreEnqueue: UnschedulableAndUnresolvable "waiting for scheduling gates:
    // %v"; the pod never reaches activeQ (no attempt, no FailedScheduling event, never a
    // preemptor). Gates are only removed by an update, which a run does not make.
    std::string names;
    for (const std::string& gate : gates) names += (names.empty() ? "" : " ") + gate;
    pod.last_failure = fmt::format("waiting for scheduling gates: [{}]", names);
    return;
  }
  pod.in_queue = true;
  if (pod.group != kNoId) {
    queue_.Activate(QueueEntity::Group(model_.group(pod.group).root), now_);
  } else {
    queue_.Add(pod_id, now_);
  }
}

void Simulator::ClearLowerNominations(NodeId node_id, PodId preemptor, std::int32_t priority,
                                      std::string_view preemptor_key) {
  const NodeInfo& node = model_.node(node_id);
  std::vector<PodId> lower;
  for (PodId other : node.nominated) {
    if (other != preemptor && model_.pod(other).priority < priority) {
      lower.push_back(other);
    }
  }
  for (PodId other : lower) {
    model_.SetNomination(other, kNoId);
    Emit(EventReason::kNominated, model_.pod(other), "",
         fmt::format("nomination to node {} cleared: {} (priority {}) preempts there", node.name,
                     preemptor_key, priority));
  }
}

void Simulator::PreemptVictims(const std::vector<Victim>& victims, const PodInfo& by,
                               std::string_view by_group, std::string_view node_for_message) {
  SharedString by_pod_message;
  for (const Victim& v : victims) {
    PodInfo& victim = model_.pod(v.pod);
    if (victim.IsTerminating()) continue;  // already being deleted: no API call
    // The API server would set its deletionTimestamp and a DisruptionTarget condition; the
    // model's state (terminating by preemption, gone after its grace period) says the same.
    model_.MarkTerminating(v.pod, /*by_preemption=*/true);
    SimEvent e;
    e.time = now_;
    e.reason = EventReason::kPreempted;
    e.pod = victim.key;
    e.node = model_.node(victim.node).name;
    e.by = by.key;
    e.by_group = by_group;
    e.pdb_violation = v.pdb_violating;
    // A preemptor's victims share one message text (see SharedString).
    if (!by_group.empty()) {
      e.message = fmt::format("Preempted by pod group {} on node {}", by_group, e.node);
    } else {
      if (by_pod_message.empty()) {
        by_pod_message = fmt::format("Preempted by pod {} on node {}", by.key, node_for_message);
      }
      e.message = by_pod_message;
    }
    if (v.all_group != kNoId) {
      GroupInfo& all = model_.group(v.all_group);
      e.victim_group = all.key;
      e.message = fmt::format("{} (as part of pod group {}, disruptionMode All)", e.message, all.key);
      all.preempted_whole = true;
      for (GroupId leaf : all.leaves) model_.group(leaf).preempted_whole = true;
    }
    if (victim.group != kNoId) {
      // Count the loss on the leaf and every ancestor.
      for (GroupId g = victim.group; g != kNoId; g = model_.group(g).parent) {
        ++model_.group(g).preempted;
        if (g == model_.group(g).root) break;
      }
    }
    e.round = round_;
    result_.events.push_back(std::move(e));
    ++result_.stats.victims;
    AddTimed(now_ + SimDuration{victim.grace_us}, TimedKind::kTerminationDone, v.pod);
    Replace(v.pod, "preempted pod");
  }
}

void Simulator::Replace(PodId victim_id, const std::string& why) {
  const PodInfo& victim = model_.pod(victim_id);
  if (!victim.owned || victim.replaced || IsStatefulSetPod(victim)) return;
  CreateReplacement(victim_id, ReplacementName(victim),
                    fmt::format("created by its controller to replace {} {}", why, victim.key));
}

bool Simulator::CreateReplacement(PodId victim_id, std::string name, const std::string& message) {
  Pod pod = model_.ReplacementPod(victim_id, std::move(name), now_);
  if (std::optional<std::string> refused = model_.quotas().Check(pod)) {
    // The controller's create is refused (its FailedCreate event: "Error creating: ..."); it
    // tries again when the namespace's quota usage goes down.
    SimEvent e;
    e.time = now_;
    e.last_time = now_;
    e.reason = EventReason::kFailedCreate;
    e.pod = pod.meta.namespace_ + "/" + pod.meta.name;
    e.message = fmt::format("Error creating: pods \"{}\" is forbidden: {}", pod.meta.name, *refused);
    result_.events.push_back(std::move(e));
    if (std::find(refused_creates_.begin(), refused_creates_.end(), victim_id) == refused_creates_.end()) {
      refused_creates_.push_back(victim_id);
    }
    return false;
  }
  std::erase(refused_creates_, victim_id);
  const PodId replacement = model_.AddReplacement(victim_id, std::move(pod));
  Emit(EventReason::kCreated, model_.pod(replacement), "", message);
  Enqueue(replacement);
  return true;
}

void Simulator::RetryRefusedCreates() {
  if (refused_creates_.empty()) return;
  const std::vector<PodId> retry = refused_creates_;
  for (PodId victim : retry) {
    const PodInfo& v = model_.pod(victim);
    if (v.replaced) continue;
    const bool same_name = IsStatefulSetPod(v);
    CreateReplacement(victim, same_name ? v.pod.meta.name : ReplacementName(v),
                      fmt::format("created by its controller to replace {} (retried once its quota had room)", v.key));
  }
}


void Simulator::Actuate(PodId preemptor_id, const Decision& d) {
  // Mirrors the executor's async preemption (spec §12.3): clear lower nominations, then preempt
  // every victim; the preemptor is nominated.
  PodInfo& preemptor = model_.pod(preemptor_id);
  const SharedString node_name = model_.node(d.node).name;
  ClearLowerNominations(d.node, preemptor_id, preemptor.priority, preemptor.key);
  PreemptVictims(d.candidate->victims, preemptor, "", node_name);
  model_.SetNomination(preemptor_id, d.node);
  CountPreemption(preemptions_, preemptor_id, "Pod " + preemptor.key, node_name);
  Emit(EventReason::kNominated, preemptor, node_name,
       fmt::format("nominated to node {} while {} victim(s) terminate", node_name,
                   d.candidate->victims.size()));
}

void Simulator::ScheduleGroup(GroupId root) {
  // One pod-group cycle (scheduleOnePodGroup) and, when the group cannot be placed,
  // workload-aware preemption.
  ++round_;
  ++result_.stats.scheduling_attempts;
  const QueueEntity entity = QueueEntity::Group(root);
  GroupInfo& group = model_.group(root);
  const std::vector<PodId> pending = framework_.PendingMembers(root);
  if (pending.empty()) return;
  Attempt attempt;
  attempt.group = root;
  attempt.members = pending;
  if (auto error = framework_.ValidateGroup(root)) {
    attempt.outcome = Attempt::Outcome::kFail;
    Observe(attempt, [&](ExplainResult& out, bool) {
      out = ExplainGroupAttempt(model_, root, pending, &*error, nullptr, nullptr, {});
    });
    group.rejected = true;
    group.message = *error;
    const SharedString message = *error;
    for (PodId id : pending) EmitFailure(model_.pod(id), message);
    queue_.AddUnschedulable(entity, ~PluginMask{0}, now_);
    return;
  }
  group.rejected = false;
  GroupPlacement placement = framework_.PlaceGroup(root, pending);
  if (placement.feasible) {
    attempt.outcome = placement.failed.empty() ? Attempt::Outcome::kBind : Attempt::Outcome::kFail;
    Observe(attempt, [&](ExplainResult& out, bool) {
      out = ExplainGroupAttempt(model_, root, pending, nullptr, &placement, nullptr, {});
    });
    for (const auto& [id, node] : placement.assigned) {
      PodInfo& p = model_.pod(id);
      model_.Bind(id, node, now_);
      ++result_.stats.pods_scheduled;
      const SharedString& name = model_.node(node).name;
      Emit(EventReason::kScheduled, p, name, fmt::format("Successfully assigned {} to {}", p.key, name));
    }
    for (const auto& [id, message] : placement.failed) EmitFailure(model_.pod(id), message);
    group.message.clear();
    for (const auto& [id, node] : placement.assigned) {
      queue_.OnEvent(ClusterEvent::kAssignedPodAdd, id, now_);
    }
    if (!placement.failed.empty()) {
      queue_.AddUnschedulable(entity, placement.rejectors ? placement.rejectors : ~PluginMask{0}, now_);
    }
    return;
  }
  // The reprieve steps are recorded only when someone may ask for them.
  std::vector<ReprieveStep> reprieve;
  // Without PostFilter (EngineOptions::preemption false) the group fails with its placement's
  // message alone.
  GroupPreemption wap;
  if (options_.preemption) wap = framework_.PreemptGroup(root, pending, observer_ ? &reprieve : nullptr);
  const std::string suffix = options_.preemption ? ". pod group preemption: " + wap.message : "";
  attempt.outcome =
      wap.kind == GroupPreemption::Kind::kPreempt ? Attempt::Outcome::kPreempt : Attempt::Outcome::kFail;
  Observe(attempt, [&](ExplainResult& out, bool) {
    out = ExplainGroupAttempt(model_, root, pending, nullptr, &placement,
                              options_.preemption ? &wap : nullptr, std::move(reprieve));
  });
  group.message = placement.message + suffix;
  for (PodId id : pending) {
    PodInfo& p = model_.pod(id);
    std::string own = placement.message;
    for (const auto& [failed_id, message] : placement.failed) {
      if (failed_id == id) own = message;
    }
    EmitFailure(p, own + suffix);
  }
  if (wap.kind == GroupPreemption::Kind::kPreempt) {
    RecordDecision(std::move(wap.record));
    const PodInfo& by = model_.pod(
        wap.assignments.empty() ? pending.front() : wap.assignments.front().first);
    for (const auto& [id, node] : wap.assignments) ClearLowerNominations(node, id, group.priority, group.key);
    PreemptVictims(wap.victims, by, group.key, "");
    CountPreemption(group_preemptions_, root, "PodGroup " + group.key, "");
    for (const auto& [id, node] : wap.assignments) {
      PodInfo& p = model_.pod(id);
      model_.SetNomination(id, node);
      const SharedString& name = model_.node(node).name;
      Emit(EventReason::kNominated, p, name,
           fmt::format("nominated to node {} by workload-aware preemption for pod group {}", name, group.key));
    }
  }
  queue_.AddUnschedulable(entity, placement.rejectors ? placement.rejectors : ~PluginMask{0}, now_);
}

void Simulator::Schedule(QueueEntity entity) {
  // ScheduleOne: the skip checks first (skipPodSchedule), then one decision, which the observer
  // may diagnose before it is applied.
  framework_.SetNow(now_);
  if (entity.is_group()) {
    ScheduleGroup(entity.group());
    return;
  }
  const PodId pod_id = entity.pod();
  ++round_;
  ++result_.stats.scheduling_attempts;
  PodInfo& pod = model_.pod(pod_id);
  if (pod.state != PodState::kPending) return;
  if (pod.pod.meta.deletion_timestamp) {
    // A pod being deleted is skipped; it goes away.
    model_.Remove(pod_id, now_);
    Emit(EventReason::kDeleted, pod, "", "pod has a deletionTimestamp; the scheduler skips it");
    return;
  }
  Decision d = framework_.Decide(pod_id);
  Attempt attempt;
  attempt.pod = pod_id;
  attempt.outcome = d.kind == Decision::Kind::kBind      ? Attempt::Outcome::kBind
                    : d.kind == Decision::Kind::kPreempt ? Attempt::Outcome::kPreempt
                                                         : Attempt::Outcome::kFail;
  Observe(attempt, [&](ExplainResult& out, bool chosen_only) {
    framework_.Diagnose(pod_id, d, chosen_only, out);
  });
  switch (d.kind) {
    case Decision::Kind::kBind: {
      pod.in_queue = false;
      queue_.Remove(pod_id);
      model_.Bind(pod_id, d.node, now_);
      ++result_.stats.pods_scheduled;
      const SharedString& node = model_.node(d.node).name;
      Emit(EventReason::kScheduled, pod, node,
           fmt::format("Successfully assigned {} to {}", pod.key, node));
      queue_.OnEvent(ClusterEvent::kAssignedPodAdd, pod_id, now_);
      return;
    }
    case Decision::Kind::kPreempt:
      EmitFailure(pod, d.message);
      RecordDecision(std::move(d.record));
      Actuate(pod_id, d);
      break;
    case Decision::Kind::kFail:
      EmitFailure(pod, d.message);
      if (d.clear_nomination && pod.nominated != kNoId) {
        const SharedString old = model_.node(pod.nominated).name;
        model_.SetNomination(pod_id, kNoId);
        Emit(EventReason::kNominated, pod, "",
             fmt::format("nomination to node {} cleared: preemption found no candidate", old));
      }
      break;
  }
  queue_.AddUnschedulable(pod_id, d.rejectors, now_);
}

SimulationResult Simulator::Run() {
  result_.profile = Profile::kDefault;
  std::size_t pending = 0;
  std::size_t bound = 0;
  for (const PodInfo& p : model_.pods()) {
    pending += p.state == PodState::kPending ? 1 : 0;
    bound += p.IsBound() ? 1 : 0;
  }
  result_.ReserveFor(pending, bound);
  result_.origin = WallTime{model_.origin_unix_us()};
  // Pending pods enter the queue at their creationTimestamp (or at time 0), in input order;
  // with `--arrival sequential`, those without a creationTimestamp one apply at a time.
  std::vector<PodId> sequential;
  for (PodId id : model_.pods().ids()) {
    PodInfo& pod = model_.pod(id);
    if (pod.state != PodState::kPending) continue;
    SimTime at{};
    if (pod.pod.meta.creation_timestamp) {
      const std::int64_t rel = pod.pod.meta.creation_timestamp->unix_micros - model_.origin_unix_us();
      if (rel > 0) at = SimTime{SimDuration{rel}};
    }
    if (options_.arrival == Arrival::kSequential && !pod.pod.meta.creation_timestamp) {
      sequential.push_back(id);
    } else if (at == SimTime{}) {
      Enqueue(id);
    } else {
      AddTimed(at, TimedKind::kArrival, id);
    }
  }
  // Pods already terminating in the input go away at their deletionTimestamp.
  for (PodId id : model_.pods().ids()) {
    PodInfo& pod = model_.pod(id);
    if (pod.state != PodState::kTerminating) continue;
    std::int64_t rel = pod.pod.meta.deletion_timestamp->unix_micros - model_.origin_unix_us();
    AddTimed(SimTime{SimDuration{std::max<std::int64_t>(0, rel)}}, TimedKind::kTerminationDone, id);
  }

  for (std::size_t i = 0; i < state_.steps.size(); ++i) {
    AddTimed(SimTime{SimDuration{state_.steps[i].step.at_us}}, TimedKind::kStep, kNoId,
             static_cast<std::int32_t>(i));
  }
  PlanApplies(sequential);
  StartSnapshotResizes();
  result_.end_reason = "quiescent";
  for (;;) {
    while (!timed_.empty() && timed_.top().at <= now_) {
      Timed t = timed_.top();
      timed_.pop();
      ProcessTimed(t);
    }
    if (looping_) {  // a resize preemption reached the loop limit
      result_.end_reason = "preemption-loop";
      break;
    }
    if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) {
      result_.end_reason = "cancelled";
      break;
    }
    queue_.Flush(now_);
    if (auto entity = queue_.Pop()) {
      Schedule(*entity);
      if (stopped_) break;
      if (looping_) {
        result_.end_reason = "preemption-loop";
        break;
      }
      continue;
    }
    if (ReleaseNextApply()) continue;
    std::optional<SimTime> next;
    if (!timed_.empty()) next = timed_.top().at;
    if (auto flush = queue_.NextFlushTime(now_); flush && (!next || *flush < *next)) next = flush;
    if (!next) break;
    if (options_.until && *next > SimTime{*options_.until}) {
      now_ = SimTime{*options_.until};
      result_.end_reason = "until";
      break;
    }
    now_ = *next;
  }
  if (options_.until && result_.end_reason != "until" && now_ < SimTime{*options_.until}) {
    // Quiescent before the deadline: nothing more could happen.
  }
  result_.end_time = now_;
  return Collect();
}

}  // namespace internal

SimulationResult Simulate(const ClusterState& state, const EngineOptions& options,
                          CycleObserver* observer) {
  internal::Simulator sim(state, options, observer);
  return sim.Run();
}

}  // namespace kpsim::engine
