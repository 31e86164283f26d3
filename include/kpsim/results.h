#pragma once

// What a simulation returns: the event timeline, the outcome of every pod, node and pod group,
// and the run's statistics. Plain values, rendered by kpsim/report.h.

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/engine_options.h"
#include "kpsim/sim_time.h"
#include "kpsim/shared_string.h"

namespace kpsim {

enum class EventReason : std::uint8_t {
  kScheduled,
  kFailedScheduling,
  kPreempted,
  kNominated,
  kDeleted,
  kCreated,
  kScenarioStep,  // a Scenario step ran (node changes, PDB changes, deletions, pressure)
  kEvicted,       // the kubelet evicted the pod under node pressure
  kFailedCreate,  // a controller's (or a step's) pod refused by the ResourceQuota admission plugin
  kResize,        // an in-place resize read from a snapshot pod's status: pending, actuated, preempted for
};
std::string_view EventReasonName(EventReason r);

struct SimEvent {
  SimTime time{};
  EventReason reason = EventReason::kScheduled;
  bool pdb_violation = false;  // Preempted only
  // ScenarioStep (and what a step caused: Created, Deleted, Evicted): the step's index in its
  // Scenario's spec.steps (see `scenario` and `action` below).
  int step_index = -1;
  // Names and messages share their text with the model's and with each other's copies (see
  // SharedString): a pod's name is held once however many events name it.
  SharedString pod;   // "ns/name"
  SharedString node;  // empty = none (null in JSON)
  // Preempted only.
  SharedString by;            // the preemptor "ns/name"
  SharedString by_group;      // the preemptor's pod group "ns/name", when group-caused
  SharedString victim_group;  // set when the victim went as part of a disruptionMode `all` group
  SharedString message;
  // ScenarioStep (and what a step caused): the Scenario's name and the step's action ("cordon", ...).
  SharedString scenario;
  SharedString action;
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
  SharedString pod;  // "ns/name", sharing the timeline's text
  std::int32_t priority = 0;
  PodState state = PodState::kPending;
  SharedString node;             // where it runs / ran; empty if never bound
  SharedString nominated_node;   // empty if none
  SharedString reason;           // for pending pods: why (the last FailedScheduling message)
  SharedString replacement_of;   // for pods created by a controller to replace a victim
  SharedString pod_group;        // "ns/name" of its PodGroup, if any
  std::optional<SimTime> scheduled_at;
  std::optional<SimTime> deleted_at;
  // The reason of a pending pod's PodScheduled condition when it is not the scheduler's
  // (kubectl's STATUS): "SchedulingGated" while spec.schedulingGates is not empty; else empty.
  SharedString condition;
  // For the disruption figures (not in the pods[] JSON): what it requests (pods=1 included) and
  // its spec.priorityClassName ("" without one).
  ResourceList requests;
  SharedString priority_class;
};

// A decision record (and a node's outcome) names pods, nodes, pod groups and PodDisruptionBudgets
// by their index in the SimulationResult that holds it (`pods`, `nodes`, `groups`, `pdb_names`),
// not by copies of their names: a long run keeps thousands of records, and a handful of
// allocations each (rather than one per name) keeps recording them cheap.
// `SimulationResult::PodName()` etc. resolve them.
using ResultIndex = std::int32_t;
inline constexpr ResultIndex kNoIndex = -1;

struct NodeOutcome {
  SharedString node;  // sharing the timeline's text
  ResourceList allocatable;
  ResourceList requested;  // by the pods still on it at the end (running and terminating)
  std::vector<ResultIndex> pods;  // the pods on it (SimulationResult::pods), in bind order
  // When a Scenario step added the node to the cluster or deleted it (the last time of each);
  // a node deleted and not added again since is no longer in the cluster at the end.
  std::optional<SimTime> added_at;
  std::optional<SimTime> deleted_at;
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

// One value a preemption candidate is compared on: a row of the engine's tie-breaker table
// (pickOneNodeForPreemption's, or the book's `better`), in the table's order.
struct TieBreakerValue {
  // Stable camelCase key: "pdbViolations", "highestPriority", "prioritySum", "victims",
  // "latestStartTime". Points into the engine's static table (never dangles).
  std::string_view id;
  std::int64_t value = 0;
  bool is_time = false;  // `value` is a start time in unix microseconds (rendered as RFC 3339)
  friend bool operator==(const TieBreakerValue&, const TieBreakerValue&) = default;
};

// Every tie-breaker id a decision record can carry: the default profile's table
// (pickOneNodeForPreemption) and the book's (`better`) use these.
inline constexpr std::array<std::string_view, 5> kTieBreakerIds = {
    "pdbViolations", "highestPriority", "prioritySum", "victims", "latestStartTime"};

// A candidate's tie-breaker values in its table's order: a small value (built on demand from
// the candidate's compact storage), iterable and indexable.
class TieBreakerValues {
 public:
  void push_back(TieBreakerValue v) { items_.at(size_++) = v; }
  const TieBreakerValue* begin() const { return items_.data(); }
  const TieBreakerValue* end() const { return items_.data() + size_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const TieBreakerValue& operator[](std::size_t i) const { return items_.at(i); }
  const TieBreakerValue& back() const { return items_.at(size_ - 1); }

 private:
  std::array<TieBreakerValue, kTieBreakerIds.size()> items_{};
  std::size_t size_ = 0;
};

// A node preemption could use, as the dry run (SelectVictimsOnNode) found it.
struct DecisionCandidate {
  static constexpr std::size_t kMaxTieBreakers = kTieBreakerIds.size();

  ResultIndex node = kNoIndex;       // SimulationResult::nodes
  std::int32_t pdb_violations = 0;
  std::vector<ResultIndex> victims;  // SimulationResult::pods, at most kDecisionVictimsShown
  std::int64_t victim_count = 0;     // all of them

  // The tie-breaker values in the table's order.
  TieBreakerValues tie_breakers() const {
    TieBreakerValues out;
    for (std::size_t i = 0; i < count_; ++i) {
      out.push_back({kTieBreakerIds.at(ids_[i]), values_[i], ((time_bits_ >> i) & 1U) != 0});
    }
    return out;
  }
  // Appends the next row's value. REQUIRES: fewer than kMaxTieBreakers so far; `value.id` is one
  // of kTieBreakerIds. Held compactly (an id index and the value): a 5000-node run keeps tens of
  // thousands of these.
  void AddTieBreaker(TieBreakerValue value) {
    const auto id = std::find(kTieBreakerIds.begin(), kTieBreakerIds.end(), value.id);
    assert(id != kTieBreakerIds.end() && "a tie-breaker id outside kTieBreakerIds");
    const std::size_t i = count_++;
    values_.at(i) = value.value;
    ids_.at(i) = static_cast<std::uint8_t>(id - kTieBreakerIds.begin());
    if (value.is_time) time_bits_ = static_cast<std::uint8_t>(time_bits_ | (1U << i));
  }
  // Replaces row `i`'s value. REQUIRES: i < tie_breakers().size().
  void SetTieBreakerValue(std::size_t i, std::int64_t value) { values_.at(i) = value; }

 private:
  std::array<std::int64_t, kMaxTieBreakers> values_{};
  std::array<std::uint8_t, kMaxTieBreakers> ids_{};  // into kTieBreakerIds
  std::uint8_t time_bits_ = 0;                         // bit i: row i is a start time
  std::uint8_t count_ = 0;
};

// A PodDisruptionBudget the chosen victims count against.
struct DecisionPdb {
  ResultIndex pdb = kNoIndex;       // SimulationResult::pdb_names
  std::int32_t allowed_before = 0;  // status.disruptionsAllowed before the preemption
  std::int32_t allowed_after = 0;   // after it (negative: the budget was broken)
  std::vector<ResultIndex> victims;  // the chosen victims it selects (SimulationResult::pods)
};

// A victim unit taken by a pod group's preemption (workload-aware preemption): one pod, or a
// disruptionMode `all` group that goes as one.
struct DecisionUnit {
  // The group (SimulationResult::groups; its kind is "PodGroup" or "CompositePodGroup"), or
  // kNoIndex for a single pod (kind "Pod", named by `pods[0]`).
  ResultIndex group = kNoIndex;
  std::vector<ResultIndex> pods;  // SimulationResult::pods
  std::int32_t priority = 0;
  std::string why;  // e.g. "needed: the group does not fit with it back"
};

// Why one preemption went the way it did: every PostFilter that nominated a node (or, for a pod
// group, took victims), with the best candidates and the tie-breaker that chose among them.
// Compact by design: the top candidates and counts, by index (see ResultIndex); `explain` has
// the full list.
struct PreemptionDecision {
  static constexpr std::size_t kCandidatesShown = 3;
  static constexpr std::size_t kDecisionVictimsShown = 20;

  std::int64_t round = 0;  // the scheduling attempt, as in SimEvent::round
  SimTime time{};
  // The preemptor: a pod (SimulationResult::pods), or kNoIndex when the decision is a pod
  // group's, which `pod_group` (its root group, SimulationResult::groups) then names.
  ResultIndex preemptor = kNoIndex;
  ResultIndex pod_group = kNoIndex;
  ResultIndex node = kNoIndex;       // the nominated node (kNoIndex for a group: see `nominations`)
  std::vector<ResultIndex> victims;  // every victim (SimulationResult::pods)
  // The deciding tie-breaker's id, "onlyCandidate" or "nodeOrder", and the same for people; both
  // point into the engine's static tables (never dangle).
  std::string_view decided_by;
  std::string_view decided_by_label;
  std::vector<DecisionCandidate> candidates;  // the chosen one first, then the runners-up in order
  std::int64_t candidate_count = 0;  // every candidate found
  std::int64_t nodes_evaluated = 0;  // dry runs made for this decision
  std::vector<DecisionPdb> pdbs;     // in name order
  std::vector<DecisionUnit> units;   // pod groups only, in the order they were taken
  std::vector<std::pair<ResultIndex, ResultIndex>> nominations;  // pod groups: pod -> node
};

struct SimulationStats {
  std::int64_t scheduling_attempts = 0;
  std::int64_t preemption_attempts = 0;
  std::int64_t pods_scheduled = 0;
  std::int64_t victims = 0;
  std::int64_t dry_runs = 0;
  std::int64_t evictions = 0;  // by the kubelet under node pressure (Scenario pressure steps)
};

// A ResourceQuota at the end of a run: its hard limits and what the namespace's pods use.
struct QuotaOutcome {
  std::string quota;  // "ns/name"
  std::vector<std::pair<std::string, std::string>> hard;  // resource name -> quantity, by name
  std::vector<std::pair<std::string, std::string>> used;
};

struct SimulationResult {
  Profile profile = Profile::kDefault;
  std::vector<SimEvent> events;   // in order of time, then of occurrence
  std::vector<PodOutcome> pods;   // input pods in input order, then created pods in creation order
  std::vector<NodeOutcome> nodes; // in input order
  std::vector<GroupOutcome> groups;
  std::vector<PreemptionDecision> decisions;  // one per preemption decision, in round order
  std::vector<QuotaOutcome> quotas;           // every ResourceQuota, in input order
  std::vector<std::string> pdb_names;  // every PodDisruptionBudget "ns/name", by the index the
                                       // decisions use (not rendered: the decisions name them)
  SimTime end_time{};
  std::string end_reason;  // "quiescent", "until", "max-attempts", "preemption-loop"
  bool attempt_cap_reached = false;
  SimulationStats stats;
  WallTime origin;
  std::vector<Warning> warnings;  // what the engine did not model or took as given

  // Reserves room for a run that starts with `pending` pods to place and `bound` pods bound: a
  // few events for each pending pod (failed, nominated, scheduled) and for the bound ones it may
  // evict, up to four per preemptor (a victim is preempted and deleted, its replacement created
  // and scheduled), and at most one preemption decision per pending pod (more grows as usual).
  // Growing by doubling from too small a start would copy the timeline and hold it twice at its
  // peak; a reservation larger than the run needs costs address space, not resident memory (the
  // pages it never writes are not touched).
  void ReserveFor(std::size_t pending, std::size_t bound) {
    events.reserve(pending * 6 + std::min(bound, pending * 4) * 4 + 64);
    decisions.reserve(pending);
  }

  // The names behind a decision record's indices (ResultIndex).
  // REQUIRES: a valid index of this result (not kNoIndex).
  const SharedString& PodName(ResultIndex pod) const { return pods.at(static_cast<std::size_t>(pod)).pod; }
  const SharedString& NodeName(ResultIndex node) const {
    return nodes.at(static_cast<std::size_t>(node)).node;
  }
  const std::string& GroupName(ResultIndex group) const {
    return groups.at(static_cast<std::size_t>(group)).group;
  }
  const std::string& PdbName(ResultIndex pdb) const { return pdb_names.at(static_cast<std::size_t>(pdb)); }
  // The preemptor's name: the pod, or for a pod group's decision the group.
  std::string_view PreemptorName(const PreemptionDecision& d) const {
    return d.preemptor != kNoIndex ? PodName(d.preemptor).str() : std::string_view(GroupName(d.pod_group));
  }
  // "Pod", "PodGroup" or "CompositePodGroup", and the unit's name.
  std::string_view UnitKind(const DecisionUnit& u) const {
    if (u.group == kNoIndex) return "Pod";
    return groups.at(static_cast<std::size_t>(u.group)).composite ? "CompositePodGroup" : "PodGroup";
  }
  std::string_view UnitName(const DecisionUnit& u) const {
    return u.group == kNoIndex ? PodName(u.pods.at(0)).str() : std::string_view(GroupName(u.group));
  }
};

// `simulate --scale-up` (kpsim::SimulateScaleUp): the Cluster Autoscaler's side of the chapter's
// trade-off on the same input. Preemption is off (DefaultPreemption disabled) and, each time pods
// stay pending, the autoscaler's loop estimates for every node group how many new nodes its
// pending pods need (binpacking with the scheduler's filters, as its BinpackingNodeEstimator),
// the expander picks one group, and the nodes join the cluster after the provisioning delay;
// the scheduler then places the pods as it would, and pods it still leaves pending start another
// round.
struct ScaleUpOption {
  std::string template_name;  // the node group
  int nodes = 0;              // new nodes the estimate opens
  int pods = 0;               // pending pods it packs onto them
  double waste = 0;           // least-waste's score: unused cpu fraction + unused memory fraction
};

struct ScaleUpAddition {
  SimTime decided_at{};  // the autoscaler's loop that chose it
  SimTime ready_at{};    // decided_at + the provisioning delay: the nodes join the cluster
  std::string template_name;
  std::vector<std::string> nodes;      // the new nodes' names
  std::vector<std::string> pods;       // the pending pods the estimate packed onto them
  std::vector<ScaleUpOption> options;  // every node group's estimate at that loop, template order
};

struct ScaleUpReport {
  Expander expander = Expander::kLeastWaste;
  SimDuration delay{};
  SimDuration scan_interval{};
  int max_new_nodes = 0;
  std::vector<std::string> templates;       // node group names, in the order given
  std::vector<ScaleUpAddition> additions;   // in decision order
  struct Unhelped {
    std::string pod;
    std::string reason;  // why no node group's empty node takes it (each group's filter verdict)
  };
  std::vector<Unhelped> no_template;  // pending pods no new node could take
  // Empty when every pod the autoscaler could help was placed; else why it stopped ("the
  // max-new-nodes cap (1000) is reached", "the scheduler placed none of ... on the new nodes").
  std::string stop;
  int worlds = 0;  // simulations of the scale-up world it took (one per round)
  // The same input with preemption (the first world), for the comparison.
  SimulationResult preempt;
};

}  // namespace kpsim
