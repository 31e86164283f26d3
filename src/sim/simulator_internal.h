#pragma once

// The default profile's simulation (sim/simulator.h), as one class whose parts live in files by
// concern: simulator.cc (the event loop, the scheduling cycle's effects: binds, preemption,
// replacements), simulator_steps.cc (Scenario steps), simulator_resize.cc (in-place resizes),
// simulator_pressure.cc (the kubelet's node-pressure eviction) and simulator_collect.cc (the
// result). Internal to src/sim.

#include <array>
#include <algorithm>
#include <deque>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

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

namespace kpsim::engine::internal {

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
  void PreemptVictims(const std::vector<Victim>& victims, const PodInfo& by, std::string_view by_group,
                      std::string_view node_for_message);
  void ClearLowerNominations(NodeId node, PodId preemptor, std::int32_t priority,
                             std::string_view preemptor_key);
  // Queues a pending pod, or its root group when it is scheduled through its group.
  void Enqueue(PodId pod);
  // A timeline event. Its message shares the text of the last message of its reason when the two
  // are equal ("terminated after its grace period of 0s", a repeated failure), as `pod` and
  // `node` share the model's names.
  void Emit(EventReason reason, const PodInfo& pod, SharedString node, SharedString message);
  // A FailedScheduling event, whose message is also the pod's `last_failure` (one shared text).
  void EmitFailure(PodInfo& pod, SharedString message);
  void RecordDecision(std::optional<PreemptionDecision> record);  // into result_.decisions
  void AddTimed(SimTime at, TimedKind kind, PodId pod, std::int32_t index = -1) {
    if (kind == TimedKind::kTerminationDone) ++terminations_in_flight_;
    timed_.push(Timed{at, timed_seq_++, kind, pod, index});
  }
  // Scenario steps (kpsim.io/v1alpha1).
  void RunStep(const TimedStep& timed);
  void StepEvent(const TimedStep& timed, EventReason reason, SharedString pod, SharedString node,
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
  void ResizeEvent(const Resize& r, const PodInfo& pod, const SharedString& node, std::string message);
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
  void CountPreemption(IdVector<IdT, std::int32_t>& counts, IdT id, std::string_view who,
                       std::string_view node);
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
  // Each pod's FailedScheduling events, for aggregating repeats: a chain per pod, from its last
  // event (`failure_chain_`: 1 + an index into `failure_links_`, 0 = none) back to its first.
  // (Four bytes per pod and eight per such event, where a vector per pod took 24 and a block.)
  struct FailureLink {
    std::uint32_t event;     // index in result_.events
    std::uint32_t previous;  // the pod's previous link, as in failure_chain_
  };
  IdVector<PodId, std::uint32_t> failure_chain_;
  std::vector<FailureLink> failure_links_;
  std::array<SharedString, 16> last_message_;  // by EventReason, for Emit's sharing
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

// "cpu 500m, memory 1Gi": a resize's requests, as its events and the result print them.
std::string RequestsText(const ResourceList& r);

template <class IdT>
void Simulator::CountPreemption(IdVector<IdT, std::int32_t>& counts, IdT id, std::string_view who,
                                std::string_view node) {
  if (!counts.contains(id)) counts.resize(id.index() + 1, 0);
  if (++counts[id] < kPreemptionLoopLimit || looping_) return;
  looping_ = true;
  Warning w;
  w.object = std::string(who);
  w.code = "PreemptionLoop";
  w.message = fmt::format(
      "preempted {} times (the last time on {}): each time, pods placed while its victims "
      "terminated took the space back; kube-scheduler would repeat this forever, so the run stops "
      "at {:.3f}s",
      kPreemptionLoopLimit, node.empty() ? std::string("its group's nodes") : fmt::format("node {}", node),
      ToSeconds(now_));
  result_.warnings.push_back(std::move(w));
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

}  // namespace kpsim::engine::internal
