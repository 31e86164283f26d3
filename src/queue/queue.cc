#include "queue/queue.h"

#include "framework/cycle_state.h"
#include "kpsim/sim_time.h"

#include <algorithm>
#include <cmath>

namespace kpsim::engine {
namespace {

constexpr std::int64_t kSecond = 1'000'000;

// The plugins that register for `event` (EventsToRegister), answering Queue when the event's
// object is unknown.
PluginMask RegisteredFor(ClusterEvent event) {
  switch (event) {
    case ClusterEvent::kAssignedPodDelete:
      return MaskOf(PluginId::kNodePorts) | MaskOf(PluginId::kNodeResourcesFit) |
             MaskOf(PluginId::kPodTopologySpread) | MaskOf(PluginId::kInterPodAffinity) |
             MaskOf(PluginId::kDefaultPreemption);
    case ClusterEvent::kAssignedPodAdd:
      return MaskOf(PluginId::kPodTopologySpread) | MaskOf(PluginId::kInterPodAffinity);
    case ClusterEvent::kNodeAdd:
      return ~PluginMask{0};
  }
  return 0;
}

// podLabelsMatchSpreadConstraints (podtopologyspread/plugin.go) for the target's DoNotSchedule
// constraints: `other` is in the target's namespace and some constraint's selector, with its
// matchLabelKeys taken from the target's labels, selects it.
bool MatchesSpreadConstraint(const PodInfo& target, const PodInfo& other) {
  if (other.pod.meta.namespace_ != target.pod.meta.namespace_) return false;
  for (const TopologySpreadConstraint& c : target.pod.spec.topology_spread_constraints) {
    if (c.when_unsatisfiable != UnsatisfiableConstraintAction::kDoNotSchedule || !c.label_selector) continue;
    if (!c.label_selector->Matches(other.pod.meta.labels)) continue;
    const bool keys_match = std::all_of(c.match_label_keys.begin(), c.match_label_keys.end(), [&](const std::string& key) {
      const std::string* own = FindLabel(target.pod.meta.labels, key);
      if (own == nullptr) return true;  // a key the target lacks is ignored
      const std::string* theirs = FindLabel(other.pod.meta.labels, key);
      return theirs != nullptr && *theirs == *own;
    });
    if (keys_match) return true;
  }
  return false;
}

// podMatchesAllAffinityTerms (interpodaffinity/plugin.go): false without terms.
bool MatchesAllTerms(ClusterModel& model, const std::vector<PodAffinityTerm>& terms,
                     const PodInfo& owner, const PodInfo& other) {
  if (terms.empty()) return false;
  return std::all_of(terms.begin(), terms.end(), [&](const PodAffinityTerm& term) {
    return TermMatches(model, term, owner, other);
  });
}

SimTime FloorToSecond(SimTime t) {
  const std::int64_t us = t.time_since_epoch().count();
  return SimTime{SimDuration{us - us % kSecond}};
}

SimTime CeilToSecond(SimTime t) {
  const std::int64_t us = t.time_since_epoch().count();
  const std::int64_t rem = us % kSecond;
  return SimTime{SimDuration{rem == 0 ? us : us - rem + kSecond}};
}

}  // namespace

SchedulingQueue::SchedulingQueue(ClusterModel& model, QueueOptions options)
    : model_(model), options_(options) {}

std::size_t SchedulingQueue::Slot(PodId entity) {
  // Pods at even slots, groups (negative ids) at odd ones.
  return entity >= 0 ? static_cast<std::size_t>(entity) * 2
                     : static_cast<std::size_t>(-static_cast<std::int64_t>(entity) - 1) * 2 + 1;
}

std::int64_t SchedulingQueue::PriorityOf(PodId entity) const {
  if (entity >= 0) return model_.pods()[static_cast<std::size_t>(entity)].priority;
  return model_.groups()[static_cast<std::size_t>(GroupOf(entity))].priority;
}

SchedulingQueue::Entry& SchedulingQueue::entry(PodId pod) {
  const auto i = Slot(pod);
  if (entries_.size() <= i) entries_.resize(i + 1);
  return entries_[i];
}

SchedulingQueue::ActiveKey SchedulingQueue::KeyOf(PodId pod) const {
  const Entry& e = entries_[Slot(pod)];
  return {-PriorityOf(pod), e.timestamp, e.seq, pod};
}

SchedulingQueue::BackoffKey SchedulingQueue::BackoffKeyOf(PodId pod) const {
  const Entry& e = entries_[Slot(pod)];
  return {e.backoff_expiry, -PriorityOf(pod), e.timestamp, e.seq, pod};
}

SimDuration SchedulingQueue::BackoffDuration(PodId entity, int attempts) const {
  if (attempts <= 0 || options_.max_backoff.count() == 0) return SimDuration{0};
  SimDuration cap = options_.max_backoff;
  if (entity < 0) {
    // Multi-pod entities: the cap grows with the square root of their size.
    std::size_t size = 0;
    for (std::int32_t leaf : model_.groups()[static_cast<std::size_t>(GroupOf(entity))].leaves) {
      size += model_.groups()[static_cast<std::size_t>(leaf)].members.size();
    }
    cap = SimDuration{static_cast<std::int64_t>(static_cast<double>(cap.count()) *
                                                std::sqrt(static_cast<double>(std::max<std::size_t>(size, 1))))};
  }
  SimDuration d = options_.initial_backoff;
  for (int i = 1; i < attempts && d < cap; ++i) d *= 2;
  return std::min(d, cap);
}

void SchedulingQueue::Detach(PodId pod) {
  Entry& e = entry(pod);
  switch (e.where) {
    case Where::kActive: active_.erase(KeyOf(pod)); break;
    case Where::kBackoff: BackoffOf(e).erase(BackoffKeyOf(pod)); break;
    case Where::kUnschedulable: PoolErase(pod); break;
    case Where::kNone: break;
  }
  e.where = Where::kNone;
  e.error = false;
}

void SchedulingQueue::Add(PodId pod, SimTime now) {
  Detach(pod);
  Entry& e = entry(pod);
  e.timestamp = now;
  e.seq = next_seq_++;
  e.where = Where::kActive;
  active_.insert(KeyOf(pod));
}

std::optional<PodId> SchedulingQueue::Pop() {
  if (!active_.empty()) {
    const PodId pod = std::get<3>(*active_.begin());
    active_.erase(active_.begin());
    entry(pod).where = Where::kNone;
    return pod;
  }
  if (options_.pop_from_backoff_q && !backoff_.empty()) {
    const PodId pod = std::get<4>(*backoff_.begin());
    backoff_.erase(backoff_.begin());
    entry(pod).where = Where::kNone;
    return pod;
  }
  return std::nullopt;
}

void SchedulingQueue::AddUnschedulable(PodId pod, PluginMask rejectors, SimTime now) {
  Detach(pod);
  Entry& e = entry(pod);
  e.attempts += 1;
  e.timestamp = now;
  e.seq = next_seq_++;
  e.rejectors = rejectors;
  e.progress_seen = model_.progress_generation();
  SimTime expiry = now + BackoffDuration(pod, e.attempts);
  e.backoff_expiry = options_.pop_from_backoff_q ? FloorToSecond(expiry) : expiry;
  if (rejectors == 0) {
    // No plugin rejected it (an error, e.g. ErrNoNodesAvailable): queueAfterBackoff, in the
    // error backoffQ (determineSchedulingHintForInFlightPod).
    e.where = Where::kBackoff;
    e.error = true;
    error_backoff_.insert(BackoffKeyOf(pod));
    return;
  }
  e.where = Where::kUnschedulable;
  PoolInsert(pod);
}

void SchedulingQueue::Remove(PodId pod) { Detach(pod); }

void SchedulingQueue::Activate(PodId entity, SimTime now) {
  const Where where = entry(entity).where;
  if (where == Where::kNone) {
    Add(entity, now);
  } else if (where == Where::kUnschedulable) {
    MoveOut(entity, now);
  }
}

bool SchedulingQueue::IsUnschedulable(PodId pod) const {
  const auto i = Slot(pod);
  return i < entries_.size() && entries_[i].where == Where::kUnschedulable;
}

void SchedulingQueue::PoolInsert(PodId pod) {
  unschedulable_.insert(PoolKeyOf(pod));
  const PluginMask rejectors = entries_[Slot(pod)].rejectors;
  for (unsigned bit = 0; bit < pool_plugins_.size(); ++bit) {
    if (rejectors & (PluginMask{1} << bit)) {
      if (pool_plugins_[bit]++ == 0) pool_mask_ |= PluginMask{1} << bit;
    }
  }
}

void SchedulingQueue::PoolErase(PodId pod) {
  unschedulable_.erase(PoolKeyOf(pod));
  const PluginMask rejectors = entries_[Slot(pod)].rejectors;
  for (unsigned bit = 0; bit < pool_plugins_.size(); ++bit) {
    if (rejectors & (PluginMask{1} << bit)) {
      if (--pool_plugins_[bit] == 0) pool_mask_ &= ~(PluginMask{1} << bit);
    }
  }
}

void SchedulingQueue::MoveOut(PodId pod, SimTime now) {
  PoolErase(pod);
  Entry& e = entry(pod);
  if (e.backoff_expiry > now) {
    e.where = Where::kBackoff;
    backoff_.insert(BackoffKeyOf(pod));
  } else {
    e.where = Where::kActive;
    active_.insert(KeyOf(pod));
  }
}

bool SchedulingQueue::Helps(PodId entity, PluginMask rejectors, ClusterEvent event,
                            PodId subject) const {
  const PluginMask registered = rejectors & RegisteredFor(event);
  if (registered == 0) return false;
  // Pod groups, and events whose object is unknown: every registered plugin answers Queue.
  if (entity < 0 || subject == kNoId || event == ClusterEvent::kNodeAdd) return true;
  const PodInfo& target = model_.pods()[static_cast<std::size_t>(entity)];
  const PodInfo& other = model_.pods()[static_cast<std::size_t>(subject)];
  if (registered & MaskOf(PluginId::kDefaultPreemption)) return true;
  if ((registered & MaskOf(PluginId::kNodeResourcesFit)) && event == ClusterEvent::kAssignedPodDelete) {
    // Fit.isSchedulableAfterPodEvent: any deletion of a scheduled pod may free what it needs.
    return true;
  }
  if ((registered & MaskOf(PluginId::kNodePorts)) && event == ClusterEvent::kAssignedPodDelete) {
    // NodePorts.isSchedulableAfterPodDeleted: the deleted scheduled pod held a host port that
    // conflicts with one the target asks for.
    UsedPorts freed;
    freed.AddPod(other.pod.spec);
    if (freed.ConflictsWithAny(target.pod.spec.host_ports)) return true;
  }
  if ((registered & MaskOf(PluginId::kPodTopologySpread)) && MatchesSpreadConstraint(target, other)) {
    // PodTopologySpread.isSchedulableAfterPodChange: a matching pod added or removed changes the
    // counts of its domain.
    return true;
  }
  if (registered & MaskOf(PluginId::kInterPodAffinity)) {
    // InterPodAffinity.isSchedulableAfterPodChange: an added scheduled pod helps when it matches
    // all of the target's required affinity terms; a deleted one when it matches all of its
    // required anti-affinity terms.
    const auto& affinity = target.pod.spec.affinity;
    ClusterModel& model = model_;
    if (event == ClusterEvent::kAssignedPodAdd) {
      return MatchesAllTerms(model, affinity.pod_affinity_required, target, other);
    }
    return MatchesAllTerms(model, affinity.pod_anti_affinity_required, target, other);
  }
  return false;
}

void SchedulingQueue::OnEvent(ClusterEvent event, PodId subject, SimTime now) {
  // No pooled entity was rejected by a plugin registered for the event: nothing to ask.
  if ((pool_mask_ & RegisteredFor(event)) == 0) return;
  std::vector<PodId> moving;
  for (const PoolKey& key : unschedulable_) {
    const PodId pod = std::get<2>(key);
    if (Helps(pod, entries_[Slot(pod)].rejectors, event, subject)) moving.push_back(pod);
  }
  for (PodId pod : moving) MoveOut(pod, now);
}

void SchedulingQueue::Flush(SimTime now) {
  const SimTime flush_at = options_.pop_from_backoff_q ? now : FloorToSecond(now);
  for (std::set<BackoffKey>* queue : {&backoff_, &error_backoff_}) {
    while (!queue->empty() && std::get<0>(*queue->begin()) <= flush_at) {
      const PodId pod = std::get<4>(*queue->begin());
      queue->erase(queue->begin());
      Entry& e = entry(pod);
      e.where = Where::kActive;
      e.error = false;
      active_.insert(KeyOf(pod));
    }
  }
  // flushUnschedulablePodsLeftover runs on every 30 s tick.
  const std::int64_t interval = options_.unschedulable_flush_interval.count();
  if (now.time_since_epoch().count() % interval != 0) return;
  std::vector<PodId> moving;
  for (const PoolKey& key : unschedulable_) {
    const Entry& e = entries_[Slot(std::get<2>(key))];
    if (now - e.timestamp <= options_.max_in_unschedulable) break;  // the rest is younger
    if (e.progress_seen != model_.progress_generation()) moving.push_back(std::get<2>(key));
  }
  for (PodId pod : moving) MoveOut(pod, now);
}

std::optional<SimTime> SchedulingQueue::NextFlushTime(SimTime now) const {
  std::optional<SimTime> next;
  auto consider = [&](SimTime t) {
    if (t <= now) return;
    if (!next || t < *next) next = t;
  };
  auto consider_expiry = [&](SimTime expiry) {
    consider(options_.pop_from_backoff_q ? expiry : CeilToSecond(expiry));
  };
  if (!backoff_.empty()) consider_expiry(std::get<0>(*backoff_.begin()));
  for (const BackoffKey& key : error_backoff_) {
    // An error retry that has seen no progress since its attempt would fail again identically:
    // it is no reason for the clock to advance (else pods with no nodes retry forever).
    if (entries_[Slot(std::get<4>(key))].progress_seen == model_.progress_generation()) continue;
    consider_expiry(std::get<0>(key));
    break;
  }
  const std::int64_t interval = options_.unschedulable_flush_interval.count();
  for (const PoolKey& key : unschedulable_) {
    const Entry& e = entries_[Slot(std::get<2>(key))];
    // A pod that has seen no progress since its attempt would fail again identically.
    if (e.progress_seen == model_.progress_generation()) continue;
    const std::int64_t due = (e.timestamp + options_.max_in_unschedulable).time_since_epoch().count();
    std::int64_t tick = (due / interval + 1) * interval;  // first tick strictly after `due`
    const std::int64_t now_us = now.time_since_epoch().count();
    if (tick <= now_us) tick = (now_us / interval + 1) * interval;
    consider(SimTime{SimDuration{tick}});
    break;  // later entries are younger: their ticks are no earlier
  }
  return next;
}

}  // namespace kpsim::engine
