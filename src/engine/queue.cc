#include "engine/queue.h"

#include <algorithm>
#include <cmath>

namespace kpsim::engine {
namespace {

constexpr std::int64_t kSecond = 1'000'000;

// The plugins whose queueing hints return Queue for an event (a coarse reading of
// kube-scheduler's EventsToRegister).
PluginMask InterestedIn(ClusterEvent event) {
  switch (event) {
    case ClusterEvent::kAssignedPodDelete:
      return MaskOf(PluginId::kNodeResourcesFit) | MaskOf(PluginId::kInterPodAffinity) |
             MaskOf(PluginId::kDefaultPreemption);
    case ClusterEvent::kAssignedPodAdd:
      return MaskOf(PluginId::kInterPodAffinity);
    case ClusterEvent::kNodeAdd:
      return ~PluginMask{0};
  }
  return 0;
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
    // Multi-pod entities: the cap grows with the square root of their size (rule 3.3).
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
    case Where::kBackoff: backoff_.erase(BackoffKeyOf(pod)); break;
    case Where::kUnschedulable: unschedulable_.erase(pod); break;
    case Where::kNone: break;
  }
  e.where = Where::kNone;
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
    // No plugin rejected it (an error): queue after backoff.
    e.where = Where::kBackoff;
    backoff_.insert(BackoffKeyOf(pod));
    return;
  }
  e.where = Where::kUnschedulable;
  unschedulable_.insert(pod);
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

void SchedulingQueue::MoveOut(PodId pod, SimTime now) {
  unschedulable_.erase(pod);
  Entry& e = entry(pod);
  if (e.backoff_expiry > now) {
    e.where = Where::kBackoff;
    backoff_.insert(BackoffKeyOf(pod));
  } else {
    e.where = Where::kActive;
    active_.insert(KeyOf(pod));
  }
}

void SchedulingQueue::OnEvent(ClusterEvent event, SimTime now) {
  const PluginMask interest = InterestedIn(event);
  std::vector<PodId> moving;
  for (PodId pod : unschedulable_) {
    if (entries_[Slot(pod)].rejectors & interest) moving.push_back(pod);
  }
  for (PodId pod : moving) MoveOut(pod, now);
}

void SchedulingQueue::Flush(SimTime now) {
  const SimTime flush_at = options_.pop_from_backoff_q ? now : FloorToSecond(now);
  while (!backoff_.empty() && std::get<0>(*backoff_.begin()) <= flush_at) {
    const PodId pod = std::get<4>(*backoff_.begin());
    backoff_.erase(backoff_.begin());
    Entry& e = entry(pod);
    e.where = Where::kActive;
    active_.insert(KeyOf(pod));
  }
  // flushUnschedulablePodsLeftover runs on every 30 s tick.
  const std::int64_t interval = options_.unschedulable_flush_interval.count();
  if (now.time_since_epoch().count() % interval != 0) return;
  std::vector<PodId> moving;
  for (PodId pod : unschedulable_) {
    const Entry& e = entries_[Slot(pod)];
    if (now - e.timestamp > options_.max_in_unschedulable &&
        e.progress_seen != model_.progress_generation()) {
      moving.push_back(pod);
    }
  }
  for (PodId pod : moving) MoveOut(pod, now);
}

std::optional<SimTime> SchedulingQueue::NextFlushTime(SimTime now) const {
  std::optional<SimTime> next;
  auto consider = [&](SimTime t) {
    if (t <= now) return;
    if (!next || t < *next) next = t;
  };
  if (!backoff_.empty()) {
    const SimTime expiry = std::get<0>(*backoff_.begin());
    consider(options_.pop_from_backoff_q ? expiry : CeilToSecond(expiry));
  }
  const std::int64_t interval = options_.unschedulable_flush_interval.count();
  for (PodId pod : unschedulable_) {
    const Entry& e = entries_[Slot(pod)];
    // A pod that has seen no progress since its attempt would fail again identically.
    if (e.progress_seen == model_.progress_generation()) continue;
    const std::int64_t due = (e.timestamp + options_.max_in_unschedulable).time_since_epoch().count();
    std::int64_t tick = (due / interval + 1) * interval;  // first tick strictly after `due`
    const std::int64_t now_us = now.time_since_epoch().count();
    if (tick <= now_us) tick = (now_us / interval + 1) * interval;
    consider(SimTime{SimDuration{tick}});
  }
  return next;
}

}  // namespace kpsim::engine
