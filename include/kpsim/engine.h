#pragma once

// The engine facade: run a scheduler profile over an admitted cluster on a simulated clock, or
// explain one pod's scheduling attempt. Pure functions of their inputs: same state and options,
// same result, byte for byte.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/api/types.h"
#include "kpsim/expected.h"
#include "kpsim/feature_gates.h"

namespace kpsim {

// The simulated clock. Time 0 is the simulation origin (see `EngineOptions::origin`).
struct SimClock {
  using rep = std::int64_t;
  using period = std::micro;
  using duration = std::chrono::duration<rep, period>;
  using time_point = std::chrono::time_point<SimClock>;
  static constexpr bool is_steady = true;
};
using SimTime = SimClock::time_point;
using SimDuration = SimClock::duration;

inline double ToSeconds(SimTime t) {
  return static_cast<double>(t.time_since_epoch().count()) / 1e6;
}

enum class Profile : std::uint8_t { kDefault, kBook };

// How preemption picks the nodes it dry-runs.
enum class CandidateSampling : std::uint8_t {
  kExact,       // every potential node, in node order (default)
  kKubernetes,  // minCandidateNodesPercentage 10 / minCandidateNodesAbsolute 100, seeded offset
};

// How pending pods without a creationTimestamp arrive (pods with one keep their time).
enum class Arrival : std::uint8_t {
  kTogether,    // all at time 0, as one apply (default)
  kSequential,  // one apply after another in input order, the scheduler settling in between
};

struct EngineOptions {
  Profile profile = Profile::kDefault;
  std::uint64_t seed = 1;
  std::optional<SimDuration> until;  // stop the run at this simulated time
  FeatureGates gates;
  CandidateSampling candidate_sampling = CandidateSampling::kExact;
  int max_attempts = 1000000;  // book profile: the chapter's round cap (--max-attempts)
  // The wall time of simulated time 0. Unset: the earliest creationTimestamp among pending pods;
  // if none, the latest timestamp in the input; if none, the Unix epoch.
  std::optional<WallTime> origin;
  // Disables the engine's dry-run and filter caches (for testing that they change nothing).
  bool disable_caches = false;
  // KubeSchedulerConfiguration settings (default profile; the book profile ignores them). The
  // defaults are kube-scheduler's; a KubeSchedulerConfiguration in the input sets them.
  // percentageOfNodesToScore: 0 = adaptive (50 - nodes/125, at least 5), else 1..100.
  std::int32_t percentage_of_nodes_to_score = 0;
  // DefaultPreemptionArgs, used when `candidate_sampling` is kKubernetes.
  std::int32_t min_candidate_nodes_percentage = 10;
  std::int32_t min_candidate_nodes_absolute = 100;
  // podInitialBackoffSeconds / podMaxBackoffSeconds.
  SimDuration pod_initial_backoff = std::chrono::seconds(1);
  SimDuration pod_max_backoff = std::chrono::seconds(10);
  // `--arrival`: `kSequential` replays `kubectl apply` file by file. An apply is one pod, or the
  // consecutive pods of one controller or pod group (`ApplyGroupKey`). The next apply arrives when
  // the scheduler has settled: nothing left to attempt except pods parked unschedulable, and no
  // termination in flight.
  Arrival arrival = Arrival::kTogether;
};

// ---------------------------------------------------------------------------------------------
// Simulation results.

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
  SimTime end_time{};
  std::string end_reason;  // "quiescent", "until", "max-attempts"
  bool attempt_cap_reached = false;
  SimulationStats stats;
  WallTime origin;
  std::vector<Warning> warnings;  // what the engine did not model or took as given
};

// ---------------------------------------------------------------------------------------------
// Explain results.

struct FilterOutcome {
  std::string node;
  bool fits = false;
  std::string code;  // "Success", "Unschedulable", "UnschedulableAndUnresolvable"
  std::vector<std::string> reasons;
};

// One step of "remove all lower, then reprieve".
struct ReprieveStep {
  std::string pod;
  std::int32_t priority = 0;
  bool pdb_violating = false;
  bool reprieved = false;   // true: put back (spared); false: stays a victim
  std::string why;          // e.g. "fits with it back", "Insufficient cpu"
  ResourceList free_after;  // node's free resources after this step
};

struct CandidateOutcome {
  std::string node;
  std::vector<std::string> victims;
  int pdb_violations = 0;
  std::vector<std::string> reprieved;
  ResourceList free_after_removal;  // free resources with every lower-priority pod removed
  std::vector<ReprieveStep> steps;
  std::int32_t highest_victim_priority = 0;
};

struct ChosenCandidate {
  std::string node;
  std::vector<std::string> victims;
  std::string decided_by;  // the tie-breaker that decided, e.g. "fewest PDB violations"
};

// A pod group's cycle (GenericWorkload): its placement and, when it cannot be placed,
// workload-aware preemption with the reprieve trace against the fixed placement.
struct GroupExplain {
  std::string group;  // the root group "ns/name"
  std::int32_t priority = 0;
  std::vector<std::string> members;  // pending pods, in scheduling order
  std::string validation_error;       // rule 17.1, when the group is refused
  bool placeable = false;             // the cycle places the group without preemption
  std::vector<std::pair<std::string, std::string>> placement;  // pod -> node, or pod -> why not
  std::string placement_message;     // why the group as a whole is unschedulable
  std::string preemption_message;    // workload-aware preemption's status text
  std::vector<ReprieveStep> reprieve;  // one step per victim unit, in reprieve order
  std::vector<std::string> victims;    // pods that would be preempted
  std::vector<std::pair<std::string, std::string>> nominations;  // pod -> proposed node
};

struct ExplainResult {
  Profile profile = Profile::kDefault;
  std::string pod;
  std::int32_t priority = 0;
  bool eligible = false;
  std::string eligibility_message;
  std::vector<FilterOutcome> filter;
  std::vector<CandidateOutcome> candidates;  // in evaluation order
  std::optional<ChosenCandidate> chosen;
  std::string message;  // kube-scheduler's FailedScheduling message, or "fits on node X"
  std::optional<std::string> fits_node;  // when the pod fits without preemption
  std::optional<GroupExplain> group;     // when the pod is scheduled through its pod group
  std::vector<Warning> warnings;         // what the engine did not model or took as given
};

// Explains the cycle of pod group `group` ("ns/name") against the state at time 0 (default profile,
// GenericWorkload on). NotFound if there is no such group; FailedPrecondition if groups are off.
Expected<ExplainResult> ExplainGroup(const ClusterState& state, const EngineOptions& options,
                                     std::string_view group);

// Runs `options.profile` over `state` until nothing more can happen or `options.until`.
SimulationResult Simulate(const ClusterState& state, const EngineOptions& options);

// Explains the attempt `pod` ("ns/name", or "name" in namespace default) would make against
// the state at time 0, changing nothing. NotFound if there is no such pod.
Expected<ExplainResult> Explain(const ClusterState& state, const EngineOptions& options,
                                std::string_view pod);

}  // namespace kpsim
