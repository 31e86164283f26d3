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
    case ClusterEvent::kNodeUpdate:
      // NodeUnschedulable and TaintToleration (UpdateNodeTaint), NodeAffinity and InterPodAffinity
      // (UpdateNodeLabel), NodeResourcesFit (UpdateNodeAllocatable), PodTopologySpread (labels,
      // taints).
      return MaskOf(PluginId::kNodeUnschedulable) | MaskOf(PluginId::kTaintToleration) |
             MaskOf(PluginId::kNodeAffinity) | MaskOf(PluginId::kInterPodAffinity) |
             MaskOf(PluginId::kNodeResourcesFit) | MaskOf(PluginId::kPodTopologySpread);
    case ClusterEvent::kNodeDelete:
      // PodTopologySpread alone registers Node/Delete: a domain gone can lower the skew.
      return MaskOf(PluginId::kPodTopologySpread);
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

std::int64_t SchedulingQueue::PriorityOf(QueueEntity entity) const {
  if (!entity.is_group()) return model_.pod(entity.pod()).priority;
  return model_.group(entity.group()).priority;
}

SchedulingQueue::Entry& SchedulingQueue::entry(QueueEntity entity) {
  const auto i = entity.slot();
  if (index_.size() <= i) index_.resize(i + 1, kNoEntry);
  if (index_[i] == kNoEntry) {
    index_[i] = static_cast<std::uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  return entries_[index_[i]];
}

SchedulingQueue::ActiveKey SchedulingQueue::KeyOf(QueueEntity entity) const {
  const Entry& e = at(entity);
  return {-PriorityOf(entity), e.timestamp, e.seq, entity};
}

SchedulingQueue::BackoffKey SchedulingQueue::BackoffKeyOf(QueueEntity entity) const {
  const Entry& e = at(entity);
  return {e.backoff_expiry, -PriorityOf(entity), e.timestamp, e.seq, entity};
}

SimDuration SchedulingQueue::BackoffDuration(QueueEntity entity, int attempts) const {
  if (attempts <= 0 || options_.max_backoff.count() == 0) return SimDuration{0};
  SimDuration cap = options_.max_backoff;
  if (entity.is_group()) {
    // Multi-entity entities: the cap grows with the square root of their size.
    std::size_t size = 0;
    for (GroupId leaf : model_.group(entity.group()).leaves) {
      size += model_.group(leaf).members.size();
    }
    cap = SimDuration{static_cast<std::int64_t>(static_cast<double>(cap.count()) *
                                                std::sqrt(static_cast<double>(std::max<std::size_t>(size, 1))))};
  }
  SimDuration d = options_.initial_backoff;
  for (int i = 1; i < attempts && d < cap; ++i) d *= 2;
  return std::min(d, cap);
}

void SchedulingQueue::Detach(QueueEntity entity) {
  Entry* found = Find(entity);
  if (found == nullptr) return;
  Entry& e = *found;
  switch (e.where) {
    case Where::kActive: active_.erase(KeyOf(entity)); break;
    case Where::kBackoff: BackoffOf(e).erase(BackoffKeyOf(entity)); break;
    case Where::kUnschedulable: PoolErase(entity); break;
    case Where::kNone: break;
  }
  e.where = Where::kNone;
  e.error = false;
}

void SchedulingQueue::Add(QueueEntity entity, SimTime now) {
  Detach(entity);
  Entry& e = entry(entity);
  e.timestamp = now;
  e.seq = next_seq_++;
  e.where = Where::kActive;
  active_.insert(KeyOf(entity));
}

void SchedulingQueue::Release() {
  index_ = {};
  entries_ = {};
  active_ = {};
  backoff_ = {};
  error_backoff_ = {};
  unschedulable_ = {};
}

std::optional<QueueEntity> SchedulingQueue::Pop() {
  if (!active_.empty()) {
    const QueueEntity entity = std::get<3>(*active_.begin());
    active_.erase(active_.begin());
    entry(entity).where = Where::kNone;
    return entity;
  }
  if (options_.pop_from_backoff_q && !backoff_.empty()) {
    const QueueEntity entity = std::get<4>(*backoff_.begin());
    backoff_.erase(backoff_.begin());
    entry(entity).where = Where::kNone;
    return entity;
  }
  return std::nullopt;
}

void SchedulingQueue::AddUnschedulable(QueueEntity entity, PluginMask rejectors, SimTime now) {
  Detach(entity);
  Entry& e = entry(entity);
  e.attempts += 1;
  e.timestamp = now;
  e.seq = next_seq_++;
  e.rejectors = rejectors;
  e.progress_seen = model_.progress_generation();
  SimTime expiry = now + BackoffDuration(entity, e.attempts);
  e.backoff_expiry = options_.pop_from_backoff_q ? FloorToSecond(expiry) : expiry;
  if (rejectors == 0) {
    // No plugin rejected it (an error, e.g. ErrNoNodesAvailable): queueAfterBackoff, in the
    // error backoffQ (determineSchedulingHintForInFlightPod).
    e.where = Where::kBackoff;
    e.error = true;
    error_backoff_.insert(BackoffKeyOf(entity));
    return;
  }
  e.where = Where::kUnschedulable;
  PoolInsert(entity);
}

void SchedulingQueue::Remove(QueueEntity entity) { Detach(entity); }

void SchedulingQueue::Activate(QueueEntity entity, SimTime now) {
  const Entry* e = Find(entity);
  const Where where = e != nullptr ? e->where : Where::kNone;
  if (where == Where::kNone) {
    Add(entity, now);
  } else if (where == Where::kUnschedulable) {
    MoveOut(entity, now);
  }
}

bool SchedulingQueue::IsUnschedulable(QueueEntity entity) const {
  const Entry* e = Find(entity);
  return e != nullptr && e->where == Where::kUnschedulable;
}

void SchedulingQueue::PoolInsert(QueueEntity entity) {
  unschedulable_.insert(PoolKeyOf(entity));
  const PluginMask rejectors = at(entity).rejectors;
  for (unsigned bit = 0; bit < pool_plugins_.size(); ++bit) {
    if (rejectors & (PluginMask{1} << bit)) {
      if (pool_plugins_[bit]++ == 0) pool_mask_ |= PluginMask{1} << bit;
    }
  }
}

void SchedulingQueue::PoolErase(QueueEntity entity) {
  unschedulable_.erase(PoolKeyOf(entity));
  const PluginMask rejectors = at(entity).rejectors;
  for (unsigned bit = 0; bit < pool_plugins_.size(); ++bit) {
    if (rejectors & (PluginMask{1} << bit)) {
      if (--pool_plugins_[bit] == 0) pool_mask_ &= ~(PluginMask{1} << bit);
    }
  }
}

void SchedulingQueue::MoveOut(QueueEntity entity, SimTime now) {
  PoolErase(entity);
  Entry& e = entry(entity);
  if (e.backoff_expiry > now) {
    e.where = Where::kBackoff;
    backoff_.insert(BackoffKeyOf(entity));
  } else {
    e.where = Where::kActive;
    active_.insert(KeyOf(entity));
  }
}

bool SchedulingQueue::Helps(QueueEntity entity, PluginMask rejectors, ClusterEvent event,
                            PodId subject) const {
  const PluginMask registered = rejectors & RegisteredFor(event);
  if (registered == 0) return false;
  // Pod groups, and events whose object is unknown: every registered plugin answers Queue.
  if (entity.is_group() || subject == kNoId || event == ClusterEvent::kNodeAdd || event == ClusterEvent::kNodeUpdate ||
      event == ClusterEvent::kNodeDelete) {
    return true;
  }
  const PodInfo& target = model_.pod(entity.pod());
  const PodInfo& other = model_.pod(subject);
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
  std::vector<QueueEntity> moving;
  for (const PoolKey& key : unschedulable_) {
    const QueueEntity entity = std::get<2>(key);
    if (Helps(entity, at(entity).rejectors, event, subject)) moving.push_back(entity);
  }
  for (QueueEntity entity : moving) MoveOut(entity, now);
}

void SchedulingQueue::Flush(SimTime now) {
  const SimTime flush_at = options_.pop_from_backoff_q ? now : FloorToSecond(now);
  for (std::set<BackoffKey>* queue : {&backoff_, &error_backoff_}) {
    while (!queue->empty() && std::get<0>(*queue->begin()) <= flush_at) {
      const QueueEntity entity = std::get<4>(*queue->begin());
      queue->erase(queue->begin());
      Entry& e = entry(entity);
      e.where = Where::kActive;
      e.error = false;
      active_.insert(KeyOf(entity));
    }
  }
  // flushUnschedulablePodsLeftover runs on every 30 s tick.
  const std::int64_t interval = options_.unschedulable_flush_interval.count();
  if (now.time_since_epoch().count() % interval != 0) return;
  std::vector<QueueEntity> moving;
  for (const PoolKey& key : unschedulable_) {
    const Entry& e = at(std::get<2>(key));
    if (now - e.timestamp <= options_.max_in_unschedulable) break;  // the rest is younger
    if (e.progress_seen != model_.progress_generation()) moving.push_back(std::get<2>(key));
  }
  for (QueueEntity entity : moving) MoveOut(entity, now);
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
    if (at(std::get<4>(key)).progress_seen == model_.progress_generation()) continue;
    consider_expiry(std::get<0>(key));
    break;
  }
  const std::int64_t interval = options_.unschedulable_flush_interval.count();
  for (const PoolKey& key : unschedulable_) {
    const Entry& e = at(std::get<2>(key));
    // A entity that has seen no progress since its attempt would fail again identically.
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
