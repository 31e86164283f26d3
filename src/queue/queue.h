#pragma once

// kube-scheduler's scheduling queue (scheduling_queue.go) on the simulated clock: activeQ ordered by
// PrioritySort (priority, then queue timestamp), backoffQ ordered by backoff expiry, and the
// unschedulable pool, with cluster events moving pods out of the pool when a plugin that
// rejected them cares about the event.

#include <array>
#include <cassert>
#include <cstdint>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "framework/status.h"
#include "kpsim/sim_time.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

// Cluster events (framework.ClusterEvent) the simulator produces.
// kNodeUpdate: a node's spec changed (taints, unschedulable, labels, allocatable), from a
// Scenario step; every plugin that registers for Node/Update events answers Queue.
enum class ClusterEvent : std::uint8_t { kAssignedPodAdd, kAssignedPodDelete, kNodeAdd, kNodeUpdate, kNodeDelete };

struct QueueOptions {
  SimDuration initial_backoff = std::chrono::seconds(1);
  SimDuration max_backoff = std::chrono::seconds(10);
  SimDuration max_in_unschedulable = std::chrono::minutes(5);
  SimDuration unschedulable_flush_interval = std::chrono::seconds(30);
  bool pop_from_backoff_q = true;  // SchedulerPopFromBackoffQ
};

// What the queue orders: a pod, or a root pod group scheduled as one (scheduleOnePodGroup).
// Both are dense indexes of their own kind; the entity keeps which, so no id is ever negative or
// needs decoding. A PodId converts implicitly (pods are the common case); a group is named with
// QueueEntity::Group.
class QueueEntity {
 public:
  QueueEntity(PodId pod) : slot_(static_cast<std::uint32_t>(pod.value()) * 2) { assert(pod != kNoId); }  // NOLINT
  static QueueEntity Group(GroupId root) {
    assert(root != kNoId);
    QueueEntity e(PodId(0));
    e.slot_ = static_cast<std::uint32_t>(root.value()) * 2 + 1;
    return e;
  }
  bool is_group() const { return (slot_ & 1) != 0; }
  PodId pod() const {
    assert(!is_group());
    return PodId(slot_ / 2);
  }
  GroupId group() const {
    assert(is_group());
    return GroupId(slot_ / 2);
  }
  // Pods at even slots, groups at odd ones: one dense table serves both.
  std::size_t slot() const { return slot_; }
  friend auto operator<=>(const QueueEntity&, const QueueEntity&) = default;
  friend bool operator==(const QueueEntity&, const QueueEntity&) = default;

 private:
  std::uint32_t slot_;
};

class SchedulingQueue {
 public:
  SchedulingQueue(ClusterModel& model, QueueOptions options);

  // A new pod (or one moved by an event) enters activeQ with queue timestamp `now`.
  void Add(QueueEntity entity, SimTime now);
  // Pops the next pod to schedule: activeQ's head, or (SchedulerPopFromBackoffQ) backoffQ's
  // head when activeQ is empty. nullopt when neither has a pod.
  std::optional<QueueEntity> Pop();
  // The run is over: frees the queue's tables. REQUIRES: no call afterwards.
  void Release();
  // After a failed attempt: the pod goes to the unschedulable pool, remembering which plugins
  // rejected it and the cluster progress it saw.
  void AddUnschedulable(QueueEntity entity, PluginMask rejectors, SimTime now);
  // Makes sure `entity` will be attempted: adds it if it is not queued, moves it out of the
  // unschedulable pool if it is there (a pod group whose new member just arrived).
  void Activate(QueueEntity entity, SimTime now);
  // Forgets a pod (bound or deleted).
  void Remove(QueueEntity entity);

  // A cluster event: moves pods for which a plugin that rejected them returns Queue from its
  // queueing hint, to backoffQ or activeQ. `subject` is the pod that was added or deleted
  // (kNoId: unknown, every plugin registered for the event answers Queue).
  void OnEvent(ClusterEvent event, SimTime now) { OnEvent(event, kNoId, now); }
  void OnEvent(ClusterEvent event, PodId subject, SimTime now);
  // Moves backoffQ pods whose backoff expired by `now` to activeQ, and runs the periodic
  // unschedulable flush if `now` is one of its ticks.
  void Flush(SimTime now);
  // The next time at which Flush would move something, if any.
  std::optional<SimTime> NextFlushTime(SimTime now) const;

  bool Empty() const { return active_.empty() && backoff_.empty() && error_backoff_.empty(); }
  int attempts(QueueEntity entity) const { return at(entity).attempts; }
  bool IsUnschedulable(QueueEntity entity) const;
  // The entities ever queued: each holds one entry, kept for its attempts and backoff.
  std::size_t entity_count() const { return entries_.size(); }

 private:
  enum class Where : std::uint8_t { kNone, kActive, kBackoff, kUnschedulable };
  struct Entry {
    SimTime timestamp{};
    std::uint64_t seq = 0;
    std::uint64_t progress_seen = 0;
    SimTime backoff_expiry{};
    int attempts = 0;
    PluginMask rejectors = 0;
    Where where = Where::kNone;
    bool error = false;  // the last attempt failed with no rejecting plugin (an error)
  };
  using ActiveKey = std::tuple<std::int64_t, SimTime, std::uint64_t, QueueEntity>;  // -prio, ts, seq
  using BackoffKey = std::tuple<SimTime, std::int64_t, SimTime, std::uint64_t, QueueEntity>;

  Entry& entry(QueueEntity entity);  // made on first use
  // REQUIRES: `entity` was queued before.
  const Entry& at(QueueEntity entity) const { return entries_[index_[entity.slot()]]; }
  // The entity's place in `entries_`, kNoEntry if it was never queued.
  std::uint32_t IndexOf(QueueEntity entity) const {
    return entity.slot() < index_.size() ? index_[entity.slot()] : kNoEntry;
  }
  // The entity's entry, or null if it was never queued.
  Entry* Find(QueueEntity entity) {
    const std::uint32_t i = IndexOf(entity);
    return i != kNoEntry ? &entries_[i] : nullptr;
  }
  const Entry* Find(QueueEntity entity) const {
    const std::uint32_t i = IndexOf(entity);
    return i != kNoEntry ? &entries_[i] : nullptr;
  }
  ActiveKey KeyOf(QueueEntity entity) const;
  BackoffKey BackoffKeyOf(QueueEntity entity) const;
  SimDuration BackoffDuration(QueueEntity entity, int attempts) const;
  std::int64_t PriorityOf(QueueEntity entity) const;
  void MoveOut(QueueEntity entity, SimTime now);  // from the pool to backoffQ or activeQ
  void Detach(QueueEntity entity);
  std::set<BackoffKey>& BackoffOf(const Entry& e) { return e.error ? error_backoff_ : backoff_; }
  // isSchedulableAfter* of each plugin in `rejectors` for `entity` (QueueingHintFn).
  bool Helps(QueueEntity entity, PluginMask rejectors, ClusterEvent event, PodId subject) const;

  ClusterModel& model_;
  QueueOptions options_;
  // The entries of the entities ever queued, in the order they came, and per slot its entry's
  // index (kNoEntry: none). A table of entries over every slot would hold one for each of the
  // model's pods, though few of them ever wait: at 130,000 nodes, 1.3 million entries for 130,000
  // preemptors.
  static constexpr std::uint32_t kNoEntry = 0xFFFFFFFFu;
  std::vector<std::uint32_t> index_;
  std::vector<Entry> entries_;
  std::set<ActiveKey> active_;
  std::set<BackoffKey> backoff_;
  // Entities whose last attempt was an error (no rejecting plugin): the error backoffQ, which
  // SchedulerPopFromBackoffQ never pops early.
  std::set<BackoffKey> error_backoff_;
  // The unschedulable pool by (timestamp, seq): the leftover flush and NextFlushTime look at the
  // oldest entries only.
  using PoolKey = std::tuple<SimTime, std::uint64_t, QueueEntity>;
  void PoolInsert(QueueEntity entity);
  void PoolErase(QueueEntity entity);
  PoolKey PoolKeyOf(QueueEntity entity) const {
    const Entry& e = at(entity);
    return {e.timestamp, e.seq, entity};
  }
  std::set<PoolKey> unschedulable_;
  std::array<int, 32> pool_plugins_{};  // pool entities per rejecting plugin bit
  PluginMask pool_mask_ = 0;            // bits with a non-zero count
  std::uint64_t next_seq_ = 0;
};

}  // namespace kpsim::engine
