#pragma once

// What a simulation returns: the event timeline, the outcome of every pod, node and pod group,
// and the run's statistics. Plain values, rendered by kpsim/report.h.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/engine_options.h"
#include "kpsim/sim_time.h"

namespace kpsim {

enum class EventReason : std::uint8_t {
  kScheduled,
  kFailedScheduling,
  kPreempted,
  kNominated,
  kDeleted,
  kCreated,
};
std::string_view EventReasonName(EventReason r);

struct SimEvent {
  SimTime time{};
  EventReason reason = EventReason::kScheduled;
  std::string pod;   // "ns/name"
  std::string node;  // empty = none (null in JSON)
  // Preempted only.
  std::string by;        // the preemptor "ns/name"
  std::string by_group;  // the preemptor's pod group "ns/name", when group-caused
  bool pdb_violation = false;
  std::string victim_group;  // set when the victim went as part of a disruptionMode `all` group
  std::string message;
  std::int64_t round = 0;  // the scheduling attempt (cycle) that produced it, 1-based; 0 = none
  // Aggregation, as the Events API does it (client-go's EventCorrelator): repeats of an identical
  // FailedScheduling event (same pod, node and message) bump `count` and `last_time` of the first
  // one, which keeps its place in the timeline (`time` is its first time).
  std::int64_t count = 1;
  SimTime last_time{};
};

enum class PodState : std::uint8_t { kPending, kRunning, kTerminating, kDeleted };
std::string_view PodStateName(PodState s);

struct PodOutcome {
  std::string pod;  // "ns/name"
  std::int32_t priority = 0;
  PodState state = PodState::kPending;
  std::string node;            // where it runs / ran; empty if never bound
  std::string nominated_node;  // empty if none
  std::string reason;          // for pending pods: why (the last FailedScheduling message)
  std::string replacement_of;  // for pods created by a controller to replace a victim
  std::string pod_group;       // "ns/name" of its PodGroup, if any
  std::optional<SimTime> scheduled_at;
  std::optional<SimTime> deleted_at;
  // The reason of a pending pod's PodScheduled condition when it is not the scheduler's
  // (kubectl's STATUS): "SchedulingGated" while spec.schedulingGates is not empty; else empty.
  std::string condition;
};

struct NodeOutcome {
  std::string node;
  ResourceList allocatable;
  ResourceList requested;  // by the pods still on it at the end (running and terminating)
  std::vector<std::string> pods;  // "ns/name", in bind order
};

// A PodGroup or CompositePodGroup as a unit (only with the GenericWorkload gate on).
struct GroupOutcome {
  std::string group;  // "ns/name"
  bool composite = false;
  std::string parent;  // "ns/name" of its parent CompositePodGroup, if any
  std::int32_t priority = 0;
  std::string disruption_mode;  // "Single" or "All"
  int pods = 0;       // member pods (all leaf groups below, for a CompositePodGroup)
  int placed = 0;     // running at the end
  int min_count = 0;  // gang minCount, 0 for basic
  int preempted = 0;  // member pods lost to preemption
  // "Scheduled" (every pod running), "Partial" (some running, minCount met or basic),
  // "WaitingForMinCount" (gang below minCount), "PreemptedWhole" (an `all` group preempted as one
  // victim and not back yet), "Rejected" (refused before scheduling, see `message`), "Pending".
  std::string state;
  std::string message;  // the group's last scheduling failure, verbatim
};

// One value a preemption candidate is compared on: a row of pickOneNodeForPreemption's
// tie-breaker table, in the table's order.
struct TieBreakerValue {
  std::string id;     // stable camelCase key: "pdbViolations", "highestPriority", "prioritySum",
                      // "victims", "latestStartTime"
  std::string label;  // for people, e.g. "fewest PDB violations"; set on a decision's first
                      // candidate only (the header), empty on the runners-up (a smaller record)
  std::int64_t value = 0;
  bool is_time = false;  // `value` is a start time in unix microseconds (rendered as RFC 3339)
};

// A node preemption could use, as the dry run (SelectVictimsOnNode) found it.
struct DecisionCandidate {
  std::string node;
  std::vector<std::string> victims;  // "ns/name", at most PreemptionDecision::kDecisionVictimsShown
  std::int64_t victim_count = 0;     // all of them
  int pdb_violations = 0;
  std::vector<TieBreakerValue> tie_breakers;
};

// A PodDisruptionBudget the chosen victims count against.
struct DecisionPdb {
  std::string name;  // "ns/name"
  std::int32_t allowed_before = 0;  // status.disruptionsAllowed before the preemption
  std::int32_t allowed_after = 0;   // after it (negative: the budget was broken)
  std::vector<std::string> victims;  // the chosen victims it selects
};

// A victim unit taken by a pod group's preemption (workload-aware preemption): one pod, or a
// disruptionMode `all` group that goes as one.
struct DecisionUnit {
  std::string kind;  // "Pod", "PodGroup" or "CompositePodGroup"
  std::string name;  // the pod or the group, "ns/name"
  std::vector<std::string> pods;
  std::int32_t priority = 0;
  std::string why;  // e.g. "needed: the group does not fit with it back"
};

// Why one preemption went the way it did: every PostFilter that nominated a node (or, for a pod
// group, took victims), with the best candidates and the tie-breaker that chose among them.
// Compact by design: the top candidates and counts; `explain` has the full list.
struct PreemptionDecision {
  static constexpr std::size_t kCandidatesShown = 3;
  static constexpr std::size_t kDecisionVictimsShown = 20;

  std::int64_t round = 0;  // the scheduling attempt, as in SimEvent::round
  SimTime time{};
  std::string preemptor;  // the pod "ns/name" (for a pod group: the group)
  std::string pod_group;  // the preemptor's root pod group, when the decision is a group's
  std::string node;       // the nominated node (empty for a group: see `nominations`)
  std::vector<std::string> victims;  // every victim, "ns/name"
  std::string decided_by;        // the deciding tie-breaker's id, "onlyCandidate" or "nodeOrder"
  std::string decided_by_label;  // the same for people
  std::vector<DecisionCandidate> candidates;  // the chosen one first, then the runners-up in order
  std::int64_t candidate_count = 0;  // every candidate found
  std::int64_t nodes_evaluated = 0;  // dry runs made for this decision
  std::vector<DecisionPdb> pdbs;     // in name order
  std::vector<DecisionUnit> units;   // pod groups only, in the order they were taken
  std::vector<std::pair<std::string, std::string>> nominations;  // pod groups: pod -> node
};

struct SimulationStats {
  std::int64_t scheduling_attempts = 0;
  std::int64_t preemption_attempts = 0;
  std::int64_t pods_scheduled = 0;
  std::int64_t victims = 0;
  std::int64_t dry_runs = 0;
};

struct SimulationResult {
  Profile profile = Profile::kDefault;
  std::vector<SimEvent> events;   // in order of time, then of occurrence
  std::vector<PodOutcome> pods;   // input pods in input order, then created pods in creation order
  std::vector<NodeOutcome> nodes; // in input order
  std::vector<GroupOutcome> groups;
  std::vector<PreemptionDecision> decisions;  // one per preemption decision, in round order
  SimTime end_time{};
  std::string end_reason;  // "quiescent", "until", "max-attempts", "preemption-loop"
  bool attempt_cap_reached = false;
  SimulationStats stats;
  WallTime origin;
  std::vector<Warning> warnings;  // what the engine did not model or took as given
};

}  // namespace kpsim
