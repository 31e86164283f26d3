#include "sim/simulator.h"

#include <algorithm>
#include <optional>
#include <queue>
#include <tuple>

#include <fmt/format.h>

#include "kpsim/engine_options.h"
#include "kpsim/eviction.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"
#include "framework/observer.h"
#include "kpsim/sim_time.h"
#include "queue/queue.h"
#include "scheduler/framework.h"
#include "sim/explain.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {
namespace {

// Kubernetes' name-suffix alphabet (k8s.io/apimachinery/pkg/util/rand).
constexpr std::string_view kSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";

// kStep: `ClusterState::steps[index]`; kHousekeeping: the kubelet's eviction manager on
// `pressures_[index]`; kPressureOver: that pressure's condition and taint end.
enum class TimedKind : std::uint8_t { kArrival, kTerminationDone, kStep, kHousekeeping, kPressureOver, kOrphanGc };

struct Timed {
  SimTime at;
  std::uint64_t seq;
  TimedKind kind;
  PodId pod;
  std::int32_t index = -1;
  bool operator>(const Timed& o) const { return std::tie(at, seq) > std::tie(o.at, o.seq); }
};

// The default profile's simulation: the event loop around the scheduling cycle.
class Simulator {
 public:
  Simulator(const ClusterState& state, const EngineOptions& options, CycleObserver* observer)
      : state_(state),
        options_(options),
        observer_(observer),
        model_(state, options),
        framework_(model_, options),
        queue_(model_, MakeQueueOptions(options)) {
    framework_.KeepScoredNodes(observer != nullptr && observer->ExplainsBinds());
  }

  SimulationResult Run();

 private:
  static QueueOptions MakeQueueOptions(const EngineOptions& options) {
    QueueOptions q;
    q.pop_from_backoff_q = options.gates.scheduler_pop_from_backoff_q;
    q.initial_backoff = options.pod_initial_backoff;  // podInitialBackoffSeconds
    q.max_backoff = options.pod_max_backoff;          // podMaxBackoffSeconds
    return q;
  }

  void Schedule(QueueEntity entity);  // a pod's cycle, or its root group's
  void ScheduleGroup(GroupId root);
  void Actuate(PodId preemptor, const Decision& decision);
  // Marks `victims` as preempted by `by` (and `by_group`), with graceful termination and
  // replacements for owned pods.
  void PreemptVictims(const std::vector<Victim>& victims, const PodInfo& by, const std::string& by_group,
                      const std::string& node_for_message);
  void ClearLowerNominations(NodeId node, PodId preemptor, std::int32_t priority,
                             const std::string& preemptor_key);
  // Queues a pending pod, or its root group when it is scheduled through its group.
  void Enqueue(PodId pod);
  void Emit(EventReason reason, const PodInfo& pod, std::string node, std::string message);
  void RecordDecision(std::optional<PreemptionDecision> record);  // into result_.decisions
  void AddTimed(SimTime at, TimedKind kind, PodId pod, std::int32_t index = -1) {
    if (kind == TimedKind::kTerminationDone) ++terminations_in_flight_;
    timed_.push(Timed{at, timed_seq_++, kind, pod, index});
  }
  // Scenario steps (kpsim.io/v1alpha1).
  void RunStep(const TimedStep& timed);
  void StepEvent(const TimedStep& timed, EventReason reason, const std::string& pod, const std::string& node,
                 std::string message);
  void StepWarning(const TimedStep& timed, std::string code, std::string message);
  void ApplyStep(const TimedStep& timed);
  void ApplyPodGroup(const TimedStep& timed, const PodGroup& group, bool create);
  void DeleteStep(const TimedStep& timed);
  void ChangeNode(const TimedStep& timed);
  void UpdateNode(NodeId node, const Node& api);
  // A running pod deleted with `grace` (a delete step, or the kubelet's eviction with 0):
  // terminating until then; its controller replaces an owned pod.
  void DeletePod(PodId pod, SimDuration grace);
  // The controller's new pod for `victim` (ReplicaSet, Job, ...; a StatefulSet's waits until the
  // old one is gone).
  void Replace(PodId victim, const std::string& why);
  // Creates the replacement for `victim` under `name` unless the ResourceQuota plugin refuses it
  // (a FailedCreate event; retried by RetryRefusedCreates when a pod goes). True if created.
  bool CreateReplacement(PodId victim, std::string name, const std::string& message);
  void RetryRefusedCreates();
  // Node-pressure eviction (the kubelet's eviction manager): what a pressure step started.
  struct Pressure {
    const TimedStep* step = nullptr;
    NodeId node = kNoId;
    EvictionSignal signal = EvictionSignal::kMemoryAvailable;
    std::optional<std::int64_t> available;  // observed, raised by each eviction's usage
    std::optional<std::int64_t> threshold;
    bool active = true;
    std::vector<PodId> evicted;
    SimTime over_at{};  // when its condition (and taint) ends, once recovered
  };
  void StartPressure(const TimedStep& timed);
  // In-place resizes (spec §19): a resize the kubelet could not fit yet is Deferred; it is
  // actuated when its node has room, and with InPlacePodVerticalScalingSchedulerPreemption on the
  // scheduler preempts on the pod's own node for it.
  struct Resize {
    const TimedStep* step = nullptr;  // null for a resize read from a snapshot pod's status
    PodId pod = kNoId;
    ResourceList target;          // the pod's requests after the resize (pods=1 included)
    // What the kubelet holds for the pod until it actuates the resize. Meanwhile the scheduler
    // counts max(target, allocated) (rule 19.4), unless the resize is Infeasible.
    ResourceList allocated;
    std::vector<PodId> victims;   // preempted for it, maybe still terminating
    bool done = false;
    bool infeasible = false;      // bigger than the node: never actuated, never preempts
  };
  void StartResize(const TimedStep& timed);
  void StartSnapshotResizes();
  // A resize that does not fit yet: counted at max(desired, allocated), then preempted for.
  void DeferResize(Resize& r);
  // What the kubelet has allocated on `r`'s node to pods other than r's.
  ResourceList KubeletUsedBesides(const Resize& r) const;
  // A resize's event: the step's when a step asked for it, a Resize event otherwise.
  void ResizeEvent(const Resize& r, const PodInfo& pod, const std::string& node, std::string message);
  bool TryActuate(Resize& r);
  void ResizePreemption(Resize& r);
  void RetryResizes();
  void Housekeeping(std::size_t index);
  void EndPressure(std::size_t index);
  // `--arrival sequential`: the applies still to come, and releasing the next one.
  void PlanApplies(const std::vector<PodId>& pods);
  bool ReleaseNextApply();
  void ProcessTimed(const Timed& t);
  // Hands `attempt` to the observer, if it wants it, with the diagnosis `diagnose` fills in
  // (`chosen_only`: the observer's detail).
  template <typename Diagnose>
  void Observe(Attempt attempt, Diagnose&& diagnose);
  std::string ReplacementName(const PodInfo& victim);
  // Counts a preemption by a pod (or a pod group) and stops the run when it
  // has preempted kPreemptionLoopLimit times: see the constant.
  // `counts` is preemptions_ (by pod) or group_preemptions_ (by root group).
  template <class IdT>
  void CountPreemption(IdVector<IdT, std::int32_t>& counts, IdT id, const std::string& who,
                       const std::string& node);
  SimulationResult Collect();

  const ClusterState& state_;
  const EngineOptions& options_;
  CycleObserver* observer_;  // may be null
  ClusterModel model_;
  Framework framework_;
  SchedulingQueue queue_;
  std::priority_queue<Timed, std::vector<Timed>, std::greater<>> timed_;
  std::uint64_t timed_seq_ = 0;
  int terminations_in_flight_ = 0;
  std::vector<std::vector<PodId>> applies_;
  std::size_t next_apply_ = 0;
  bool stopped_ = false;  // the observer has what it wants
  bool looping_ = false;  // a preemption loop was detected (CountPreemption)
  IdVector<PodId, std::int32_t> preemptions_;          // preemptions each pod made
  IdVector<GroupId, std::int32_t> group_preemptions_;  // preemptions each root group made
  SimTime now_{};
  std::int64_t round_ = 0;
  SimulationResult result_;
  // The indexes in `result_.events` of each pod's FailedScheduling events, for aggregating
  // repeats.
  IdVector<PodId, std::vector<std::size_t>> failures_;
  std::vector<Pressure> pressures_;
  std::vector<PodId> refused_creates_;  // victims whose controller's create the quota refused
  std::deque<Resize> resizes_;          // deque: StartResize keeps a reference while it adds
};

// A pod that has preempted this many times is in a preemption loop: each time its victims
// terminated, pods placed meanwhile (typically the victims' own replacements, which a nomination
// does not keep out when the preemptor needs more than resources, e.g. a topology spread) took
// the space back. kube-scheduler would go on preempting forever, so the run ends there, says so
// (end reason "preemption-loop", warning PreemptionLoop) and keeps everything up to that point.
constexpr std::int32_t kPreemptionLoopLimit = 10;

template <class IdT>
void Simulator::CountPreemption(IdVector<IdT, std::int32_t>& counts, IdT id, const std::string& who,
                                const std::string& node) {
  if (!counts.contains(id)) counts.resize(id.index() + 1, 0);
  if (++counts[id] < kPreemptionLoopLimit || looping_) return;
  looping_ = true;
  Warning w;
  w.object = who;
  w.code = "PreemptionLoop";
  w.message = fmt::format(
      "preempted {} times (the last time on {}): each time, pods placed while its victims "
      "terminated took the space back; kube-scheduler would repeat this forever, so the run stops "
      "at {:.3f}s",
      kPreemptionLoopLimit, node.empty() ? std::string("its group's nodes") : "node " + node,
      ToSeconds(now_));
  result_.warnings.push_back(std::move(w));
}

void Simulator::RecordDecision(std::optional<PreemptionDecision> record) {
  if (!record) return;
  record->round = round_;
  record->time = now_;
  result_.decisions.push_back(std::move(*record));
}

void Simulator::Emit(EventReason reason, const PodInfo& pod, std::string node, std::string message) {
  std::vector<std::size_t>* failures = nullptr;
  if (reason == EventReason::kFailedScheduling) {
    // Mirrors EventCorrelator.EventCorrelate (client-go tools/record/events_cache.go): an event
    // whose key (object, reason, message, source) was recorded before updates that event's count
    // and lastTimestamp instead of creating a new one. The similar-event aggregation that
    // rewrites messages ("(combined from similar events)") is not modelled.
    const PodId id = pod.id;
    if (!failures_.contains(id)) failures_.resize(id.index() + 1);
    failures = &failures_[id];
    for (std::size_t index : *failures) {
      SimEvent& seen = result_.events[index];
      if (seen.node == node && seen.message == message) {
        ++seen.count;
        seen.last_time = now_;
        return;
      }
    }
    failures->push_back(result_.events.size());
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

// A StatefulSet pod: its controller recreates it under the same name, once the old one is gone.
bool IsStatefulSetPod(const PodInfo& pod) {
  for (const OwnerReference& ref : pod.pod.meta.owner_references) {
    if (ref.controller && ref.kind == "StatefulSet") return true;
  }
  return false;
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
      const std::string node = model_.node(pod.node).name;
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
      const std::string node = pod.node != kNoId ? model_.node(pod.node).name : std::string();
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

template <typename Diagnose>
void Simulator::Observe(Attempt attempt, Diagnose&& diagnose) {
  if (observer_ == nullptr) return;
  attempt.round = round_;
  attempt.time = now_;
  attempt.model = &model_;
  ExplainDetail detail = ExplainDetail::kFull;
  if (!observer_->Observes(attempt, detail)) {
    stopped_ = observer_->Done();
    return;
  }
  ExplainResult explained;
  diagnose(explained, detail == ExplainDetail::kChosenOnly);
  explained.round = round_;
  explained.time = now_;
  observer_->OnExplained(attempt, std::move(explained));
  if (observer_->Done()) stopped_ = true;
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
                                      const std::string& preemptor_key) {
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
                               const std::string& by_group, const std::string& node_for_message) {
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
    e.message = by_group.empty()
                    ? fmt::format("Preempted by pod {} on node {}", by.key, node_for_message)
                    : fmt::format("Preempted by pod group {} on node {}", by_group, e.node);
    if (v.all_group != kNoId) {
      GroupInfo& all = model_.group(v.all_group);
      e.victim_group = all.key;
      e.message += fmt::format(" (as part of pod group {}, disruptionMode All)", all.key);
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

// ---------------------------------------------------------------------------------------------
// Scenario steps.

void Simulator::StepEvent(const TimedStep& timed, EventReason reason, const std::string& pod,
                          const std::string& node, std::string message) {
  SimEvent e;
  e.time = now_;
  e.last_time = now_;
  e.reason = reason;
  e.pod = pod;
  e.node = node;
  e.message = std::move(message);
  e.scenario = timed.scenario;
  e.step_index = timed.step.index;
  e.action = std::string(StepActionName(timed.step.action));
  result_.events.push_back(std::move(e));
}

void Simulator::StepWarning(const TimedStep& timed, std::string code, std::string message) {
  Warning w;
  w.source = timed.step.source;
  w.object = fmt::format("Scenario {} step {}", timed.scenario, timed.step.index);
  w.code = std::move(code);
  w.message = std::move(message);
  result_.warnings.push_back(std::move(w));
}

void Simulator::RunStep(const TimedStep& timed) {
  switch (timed.step.action) {
    case StepAction::kApply:
      ApplyStep(timed);
      return;
    case StepAction::kDelete:
      DeleteStep(timed);
      return;
    case StepAction::kCordon:
    case StepAction::kUncordon:
    case StepAction::kTaint:
    case StepAction::kUntaint:
      ChangeNode(timed);
      return;
    case StepAction::kPressure:
      StartPressure(timed);
      return;
    case StepAction::kResize:
      StartResize(timed);
      return;
  }
}

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

void Simulator::ResizeEvent(const Resize& r, const PodInfo& pod, const std::string& node, std::string message) {
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
    const std::string node = model_.node(pod.node).name;
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
  const std::string name = node.name;
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

void Simulator::UpdateNode(NodeId node, const Node& api) {
  model_.UpdateNode(node, api);
  queue_.OnEvent(ClusterEvent::kNodeUpdate, kNoId, now_);
}

std::string TaintText(const Taint& t) {
  return t.value.empty() ? fmt::format("{}:{}", t.key, TaintEffectName(t.effect))
                         : fmt::format("{}={}:{}", t.key, t.value, TaintEffectName(t.effect));
}

void Simulator::ChangeNode(const TimedStep& timed) {
  const ScenarioStep& step = timed.step;
  const std::string_view action = StepActionName(step.action);
  const std::optional<NodeId> id = model_.FindNode(step.name);
  if (!id) {
    const std::string message = fmt::format("{}: nodes \"{}\" not found; nothing changed", action, step.name);
    StepEvent(timed, EventReason::kScenarioStep, "", "", message);
    StepWarning(timed, "StepTargetNotFound", message);
    return;
  }
  Node api = *model_.node(*id).api;
  std::string message;
  switch (step.action) {
    case StepAction::kCordon:
    case StepAction::kUncordon: {
      const bool cordon = step.action == StepAction::kCordon;
      message = api.unschedulable == cordon
                    ? fmt::format("{}: node {} already {}", action, step.name, cordon ? "cordoned" : "schedulable")
                    : fmt::format("{}: node {} is {}", action, step.name,
                                  cordon ? "unschedulable (spec.unschedulable=true)" : "schedulable again");
      api.unschedulable = cordon;
      break;
    }
    case StepAction::kTaint: {
      std::erase_if(api.taints, [&](const Taint& t) { return t.key == step.taint.key && t.effect == step.taint.effect; });
      api.taints.push_back(step.taint);
      message = fmt::format("taint: node {} tainted {}", step.name, TaintText(step.taint));
      break;
    }
    case StepAction::kUntaint: {
      const std::size_t removed = std::erase_if(api.taints, [&](const Taint& t) {
        return t.key == step.taint.key && (step.any_effect || t.effect == step.taint.effect);
      });
      message = removed == 0 ? fmt::format("untaint: node {} has no taint {}; nothing changed", step.name, step.taint.key)
                             : fmt::format("untaint: removed {} taint(s) {} from node {}", removed, step.taint.key, step.name);
      break;
    }
    default:
      return;
  }
  UpdateNode(*id, api);
  StepEvent(timed, EventReason::kScenarioStep, "", step.name, std::move(message));
}

void Simulator::ApplyStep(const TimedStep& timed) {
  if (!timed.step.object) {
    // A workload: its controller's pods are the applies that follow at the same time.
    StepEvent(timed, EventReason::kScenarioStep, "", "", timed.step.expansion);
    return;
  }
  const Object& object = *timed.step.object;
  const std::string kind(ObjectKindName(object.kind));
  const std::string name = object.DisplayName();
  const bool create = timed.operation == Operation::kCreate;
  const auto not_modelled = [&](const std::string& what) {
    const std::string message = fmt::format("apply {} {}: {} during a run is not modelled; nothing changed", kind,
                                            name, what);
    StepEvent(timed, EventReason::kScenarioStep, "", "", message);
    StepWarning(timed, "NotModelled", message);
  };
  if (const auto* pod = std::get_if<Pod>(&object.value)) {
    if (!create) {
      not_modelled("updating a pod (kpsim models creating and deleting pods)");
      return;
    }
    if (std::optional<std::string> refused = model_.quotas().Check(*pod)) {
      StepEvent(timed, EventReason::kFailedCreate, name, "",
                fmt::format("Error creating: pods \"{}\" is forbidden: {}", pod->meta.name, *refused));
      return;
    }
    const PodId id = model_.AddPod(*pod, now_);
    PodInfo& info = model_.pod(id);
    Emit(EventReason::kCreated, info, "",
         fmt::format("created by Scenario {} step {}; it enters the scheduling queue", timed.scenario, timed.step.index));
    result_.events.back().scenario = timed.scenario;
    result_.events.back().step_index = timed.step.index;
    result_.events.back().action = "apply";
    if (!pod->spec.node_name.empty()) {
      if (const std::optional<NodeId> node = model_.FindNode(pod->spec.node_name)) {
        // spec.nodeName: the kubelet runs it without the scheduler.
        model_.Bind(id, *node, now_);
        Emit(EventReason::kScheduled, info, pod->spec.node_name,
             fmt::format("bound by spec.nodeName to {} (not scheduled)", pod->spec.node_name));
        queue_.OnEvent(ClusterEvent::kAssignedPodAdd, id, now_);
      } else {
        info.last_failure = fmt::format("bound to node {}, which does not exist", pod->spec.node_name);
      }
      return;
    }
    Enqueue(id);
    return;
  }
  if (const auto* pdb = std::get_if<PodDisruptionBudget>(&object.value)) {
    model_.ApplyPdb(*pdb);
    const auto& pdbs = model_.pdbs();
    const std::string key = pdb->meta.namespace_ + "/" + pdb->meta.name;
    auto it = std::find_if(pdbs.begin(), pdbs.end(), [&](const PdbState& p) { return p.key == key; });
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply PodDisruptionBudget {}: {}; it selects {} pod(s), disruptionsAllowed {}", name,
                          create ? "created" : "updated", model_.pdb_pods(pdbs.id_of(it)).size(),
                          it->DisruptionsAllowed()));
    return;
  }
  if (const auto* node = std::get_if<Node>(&object.value)) {
    // The model holds every node a step applies, absent until it is added.
    const std::optional<NodeId> id = model_.FindAnyNode(node->meta.name);
    if (!id) {
      not_modelled("adding a node");
      return;
    }
    NodeInfo& info = model_.node(*id);
    if (!info.present) {
      const std::size_t before = info.pods.size();
      model_.AddNode(*id, *node);
      info.added_at = now_;
      queue_.OnEvent(ClusterEvent::kNodeAdd, kNoId, now_);
      std::string message = fmt::format("apply Node {}: added to the cluster", name);
      if (info.pods.size() > before) {
        message += fmt::format("; {} pod(s) bound to it by spec.nodeName run there now", info.pods.size() - before);
      }
      StepEvent(timed, EventReason::kScenarioStep, "", node->meta.name, message);
      return;
    }
    UpdateNode(*id, *node);
    StepEvent(timed, EventReason::kScenarioStep, "", node->meta.name,
              fmt::format("apply Node {}: updated (labels, taints, unschedulable, allocatable)", name));
    return;
  }
  if (const auto* quota = std::get_if<ResourceQuota>(&object.value)) {
    model_.ApplyQuota(*quota);
    const auto& all = model_.quotas().quotas();
    const auto it = std::find_if(all.begin(), all.end(), [&](const QuotaStatus& q) {
      return q.quota.meta.namespace_ == quota->meta.namespace_ && q.quota.meta.name == quota->meta.name;
    });
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply ResourceQuota {}: {}; hard {}, used {} by the pods that exist now", name,
                          create ? "created" : "updated", FormatQuotaAmounts(it->hard), FormatQuotaAmounts(it->used)));
    RetryRefusedCreates();  // a raised limit may admit a refused create
    return;
  }
  if (const auto* config = std::get_if<QuotaAdmissionConfig>(&object.value)) {
    model_.SetQuotaConfig(*config);
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply {}: the ResourceQuota admission plugin's configuration replaced (limitedResources)", name));
    RetryRefusedCreates();
    return;
  }
  if (const auto* pc = std::get_if<PriorityClass>(&object.value)) {
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply PriorityClass {}: {} (value {}); objects created from now on resolve against it", name,
                          create ? "created" : "updated", pc->value));
    return;
  }
  if (const auto* ns = std::get_if<Namespace>(&object.value)) {
    // Its labels feed namespaceSelectors (InterPodAffinity). No plugin requeues on a Namespace
    // event: a pod it would now admit waits for its next retry.
    model_.ApplyNamespace(*ns);
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply Namespace {}: {}; affinity terms' namespaceSelectors see its labels from now on", name,
                          create ? "created" : "updated"));
    return;
  }
  if (const auto* service = std::get_if<Service>(&object.value)) {
    model_.ApplyService(*service);
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply Service {}: {}; PodTopologySpread's default constraints select by it from now on",
                          name, create ? "created" : "updated"));
    return;
  }
  if (const auto* group = std::get_if<PodGroup>(&object.value)) {
    ApplyPodGroup(timed, *group, create);
    return;
  }
  not_modelled(create ? "creating one" : "updating one");
}

void Simulator::ApplyPodGroup(const TimedStep& timed, const PodGroup& group, bool create) {
  const std::string kind(group.composite ? "CompositePodGroup" : "PodGroup");
  const std::string name = group.meta.namespace_ + "/" + group.meta.name;
  const auto not_modelled = [&](const std::string& why) {
    const std::string message = fmt::format("apply {} {}: {}; nothing changed", kind, name, why);
    StepEvent(timed, EventReason::kScenarioStep, "", "", message);
    StepWarning(timed, "NotModelled", message);
  };
  if (!model_.generic_workload()) {
    not_modelled("the GenericWorkload feature gate is off, so kube-scheduler does not read PodGroups");
    return;
  }
  if (group.composite) {
    not_modelled("creating or updating a CompositePodGroup during a run is not modelled (put it in the input)");
    return;
  }
  if (!create || model_.HasGroup(name)) {
    not_modelled("updating a PodGroup during a run is not modelled (kpsim creates them)");
    return;
  }
  const std::vector<PodId> joined = model_.AddGroup(group);
  std::size_t queued = 0;
  for (PodId id : joined) {
    if (model_.pod(id).state != PodState::kPending) continue;
    Enqueue(id);
    ++queued;
  }
  StepEvent(timed, EventReason::kScenarioStep, "", "",
            joined.empty() ? fmt::format("apply PodGroup {}: created; no pod names it yet", name)
                           : fmt::format("apply PodGroup {}: created; {} pod(s) that named it join it, {} of them "
                                         "pending and queued as the group",
                                         name, joined.size(), queued));
}

// PodGC (gc_controller.go): a pod bound to a node that no longer exists is deleted once the node
// has been missing for quarantineTime.
constexpr SimDuration kPodGcQuarantine = std::chrono::seconds(40);

void Simulator::DeletePod(PodId id, SimDuration grace) {
  PodInfo& pod = model_.pod(id);
  model_.MarkTerminating(id, /*by_preemption=*/false);
  pod.replace_when_gone = true;
  AddTimed(now_ + grace, TimedKind::kTerminationDone, id);
}

void Simulator::DeleteStep(const TimedStep& timed) {
  const ScenarioStep& step = timed.step;
  const std::string ns = step.namespace_.empty() ? std::string("default") : step.namespace_;
  const auto not_found = [&](std::string_view resource) {
    const std::string message =
        fmt::format("delete {}: {} \"{}\" not found; nothing changed", step.kind, resource, step.name);
    StepEvent(timed, EventReason::kScenarioStep, "", "", message);
    StepWarning(timed, "StepTargetNotFound", message);
  };
  if (step.kind == "Pod") {
    const std::optional<PodId> id = model_.FindPod(ns + "/" + step.name);
    if (!id || model_.pod(*id).state == PodState::kDeleted) {
      not_found("pods");
      return;
    }
    PodInfo& pod = model_.pod(*id);
    const std::string node = pod.node != kNoId ? model_.node(pod.node).name : std::string();
    if (pod.state == PodState::kPending || pod.node == kNoId) {
      // Nothing to terminate on a node (a pending pod, or one bound to a node not in the input).
      pod.in_queue = false;
      if (pod.state == PodState::kPending) queue_.Remove(*id);
      model_.Remove(*id, now_);
      Emit(EventReason::kDeleted, pod, "", fmt::format("deleted by Scenario {} step {}", timed.scenario, step.index));
      Replace(*id, "deleted pod");
      RetryRefusedCreates();
      return;
    }
    if (pod.IsTerminating()) {
      StepEvent(timed, EventReason::kScenarioStep, pod.key, node,
                fmt::format("delete Pod {}: already terminating", pod.key));
      return;
    }
    const std::int64_t grace_us = step.grace_period_seconds ? *step.grace_period_seconds * 1'000'000 : pod.grace_us;
    StepEvent(timed, EventReason::kScenarioStep, pod.key, node,
              fmt::format("delete Pod {}: terminating, gone after its grace period of {}s", pod.key, grace_us / 1'000'000));
    DeletePod(*id, SimDuration{grace_us});
    Replace(*id, "deleted pod");
    return;
  }
  if (step.kind == "Node") {
    const std::optional<NodeId> id = model_.FindNode(step.name);
    if (!id) {
      not_found("nodes");
      return;
    }
    NodeInfo& node = model_.node(*id);
    model_.RemoveNode(*id);
    node.deleted_at = now_;
    queue_.OnEvent(ClusterEvent::kNodeDelete, kNoId, now_);
    // The scheduler forgets the node at once; its pods stay until the pod garbage collector
    // finds them orphaned (gcOrphaned, after its quarantine).
    for (PodId pod : node.pods) AddTimed(now_ + kPodGcQuarantine, TimedKind::kOrphanGc, pod);
    StepEvent(timed, EventReason::kScenarioStep, "", step.name,
              fmt::format("delete Node {}: it leaves the cluster; the pod garbage collector deletes its {} pod(s) "
                          "after {}s (gcOrphaned) and the controllers of those that have one replace them",
                          step.name, node.pods.size(), kPodGcQuarantine.count() / 1'000'000));
    return;
  }
  if (step.kind == "ResourceQuota") {
    if (!model_.DeleteQuota(ns, step.name)) {
      not_found("resourcequotas");
      return;
    }
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("delete ResourceQuota {}/{}: it limits nothing from then on", ns, step.name));
    RetryRefusedCreates();
    return;
  }
  if (step.kind == "Service") {
    if (!model_.DeleteService(ns, step.name)) {
      not_found("services");
      return;
    }
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("delete Service {}/{}: PodTopologySpread's default constraints no longer select by it", ns,
                          step.name));
    return;
  }
  if (step.kind == "PodDisruptionBudget") {
    if (!model_.DeletePdb(ns + "/" + step.name)) {
      not_found("poddisruptionbudgets.policy");
      return;
    }
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("delete PodDisruptionBudget {}/{}: it protects no pod any more", ns, step.name));
    return;
  }
  const std::string message = fmt::format(
      "delete {} {}: deleting a {} during a run is not modelled (kpsim deletes Pods, Nodes, PodDisruptionBudgets, ResourceQuotas and Services); "
      "nothing changed",
      step.kind, step.name, step.kind);
  StepEvent(timed, EventReason::kScenarioStep, "", "", message);
  StepWarning(timed, "NotModelled", message);
}

// The kubelet's eviction manager (eviction_manager.go): synchronize every monitoring interval;
// each pass under pressure evicts at most one pod, the first of the ranking that is not critical,
// with a 0s grace period (hard thresholds) and PodDisruptionBudgets ignored.
constexpr SimDuration kHousekeepingInterval = std::chrono::seconds(10);
// evictionPressureTransitionPeriod: how long a node keeps its pressure condition after the signal
// recovers.
constexpr SimDuration kPressureTransitionPeriod = std::chrono::minutes(5);

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

void Simulator::Actuate(PodId preemptor_id, const Decision& d) {
  // Mirrors the executor's async preemption (spec §12.3): clear lower nominations, then preempt
  // every victim; the preemptor is nominated.
  PodInfo& preemptor = model_.pod(preemptor_id);
  const std::string node_name = model_.node(d.node).name;
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
    for (PodId id : pending) {
      PodInfo& p = model_.pod(id);
      p.last_failure = *error;
      Emit(EventReason::kFailedScheduling, p, "", *error);
    }
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
      const std::string& name = model_.node(node).name;
      Emit(EventReason::kScheduled, p, name, fmt::format("Successfully assigned {} to {}", p.key, name));
    }
    for (const auto& [id, message] : placement.failed) {
      PodInfo& p = model_.pod(id);
      p.last_failure = message;
      Emit(EventReason::kFailedScheduling, p, "", message);
    }
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
    p.last_failure = own + suffix;
    Emit(EventReason::kFailedScheduling, p, "", p.last_failure);
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
      const std::string& name = model_.node(node).name;
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
      const std::string& node = model_.node(d.node).name;
      Emit(EventReason::kScheduled, pod, node,
           fmt::format("Successfully assigned {} to {}", pod.key, node));
      queue_.OnEvent(ClusterEvent::kAssignedPodAdd, pod_id, now_);
      return;
    }
    case Decision::Kind::kPreempt:
      pod.last_failure = d.message;
      Emit(EventReason::kFailedScheduling, pod, "", d.message);
      RecordDecision(std::move(d.record));
      Actuate(pod_id, d);
      break;
    case Decision::Kind::kFail:
      pod.last_failure = d.message;
      Emit(EventReason::kFailedScheduling, pod, "", d.message);
      if (d.clear_nomination && pod.nominated != kNoId) {
        const std::string old = model_.node(pod.nominated).name;
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

SimulationResult Simulator::Collect() {
  result_.stats.preemption_attempts = framework_.preemption_attempts();
  result_.stats.dry_runs = framework_.dry_runs();
  result_.pods.reserve(model_.pods().size());
  result_.nodes.reserve(model_.nodes().size());
  for (PodInfo& pod : model_.pods()) {
    PodOutcome& out = result_.pods.emplace_back();
    out.pod = pod.key;
    out.priority = pod.priority;
    out.state = pod.state;
    if (pod.node != kNoId) out.node = model_.node(pod.node).name;
    else if (pod.state == PodState::kRunning) out.node = pod.pod.spec.node_name;
    if (pod.nominated != kNoId) {
      out.nominated_node = model_.node(pod.nominated).name;
    }
    if (pod.state == PodState::kPending || (pod.node == kNoId && !pod.last_failure.empty())) {
      out.reason = std::move(pod.last_failure);  // the model is done with it
      if (out.reason.empty() && pod.state == PodState::kPending) {
        out.reason = pod.in_queue ? "not attempted before the run ended" : "not scheduled";
      }
    }
    if (pod.state == PodState::kPending && !pod.pod.spec.scheduling_gates.empty()) {
      out.condition = "SchedulingGated";
    }
    if (pod.replacement_of != kNoId) {
      out.replacement_of = model_.pod(pod.replacement_of).key;
    }
    if (pod.pod.spec.scheduling_group) {
      out.pod_group = pod.pod.meta.namespace_ + "/" + pod.pod.spec.scheduling_group->pod_group_name;
    }
    out.scheduled_at = pod.scheduled_at;
    out.deleted_at = pod.deleted_at;
    out.requests = pod.request;
    out.priority_class = pod.pod.spec.priority_class_name;
  }
  for (const GroupInfo& g : model_.groups()) {
    const GroupInfo& root = model_.group(g.root);
    GroupOutcome out;
    out.group = g.key;
    out.composite = g.composite;
    if (g.parent != kNoId) out.parent = model_.group(g.parent).key;
    out.priority = g.priority;
    out.disruption_mode = g.mode == DisruptionMode::kAll ? "All" : "Single";
    out.min_count = g.min_count;
    out.preempted = g.preempted;
    for (GroupId leaf : g.leaves) {
      for (PodId id : model_.group(leaf).members) {
        const PodInfo& p = model_.pod(id);
        if (p.replaced) continue;  // its replacement counts instead
        ++out.pods;
        out.placed += p.state == PodState::kRunning ? 1 : 0;
      }
    }
    out.message = root.message;
    if (root.rejected) {
      out.state = "Rejected";
    } else if (out.pods > 0 && out.placed == out.pods) {
      out.state = "Scheduled";
    } else if (out.placed > 0) {
      out.state = g.gang && out.placed < g.min_count ? "WaitingForMinCount" : "Partial";
    } else if (g.preempted_whole) {
      out.state = "PreemptedWhole";
    } else {
      out.state = g.gang ? "WaitingForMinCount" : "Pending";
    }
    if (out.state == "Scheduled") out.message.clear();
    result_.groups.push_back(std::move(out));
  }
  for (const Resize& r : resizes_) {
    // A resize still Deferred at the end: the pod's PodResizePending condition.
    if (r.done) continue;
    PodOutcome& out = result_.pods[r.pod.index()];
    if (model_.pod(r.pod).state != PodState::kRunning) continue;
    out.condition = "PodResizePending";
    out.reason = fmt::format("resize {}: asks for {}", r.infeasible ? "Infeasible" : "Deferred", RequestsText(r.target));
  }
  for (const QuotaStatus& q : model_.quotas().quotas()) {
    QuotaOutcome out;
    out.quota = q.quota.meta.namespace_ + "/" + q.quota.meta.name;
    for (const auto& [name, v] : q.hard) out.hard.emplace_back(name, FormatQuotaAmount(name, v));
    for (const auto& [name, v] : q.used) out.used.emplace_back(name, FormatQuotaAmount(name, v));
    result_.quotas.push_back(std::move(out));
  }
  result_.pdb_names.reserve(model_.pdbs().size());
  for (const PdbState& pdb : model_.pdbs()) result_.pdb_names.push_back(pdb.key);
  for (const NodeInfo& node : model_.nodes()) {
    // Nodes a step was to add but the run ended first (they come last: steps add in time order).
    if (!node.present && !node.deleted_at) continue;
    NodeOutcome out;
    out.node = node.name;
    out.added_at = node.added_at;
    out.deleted_at = node.deleted_at;
    out.allocatable = node.allocatable;
    out.requested = node.requested;
    for (PodId p : node.pods) out.pods.push_back(model_.pod(p).key);
    result_.nodes.push_back(std::move(out));
  }
  return std::move(result_);
}

}  // namespace

SimulationResult Simulate(const ClusterState& state, const EngineOptions& options,
                          CycleObserver* observer) {
  Simulator sim(state, options, observer);
  return sim.Run();
}

}  // namespace kpsim::engine
