#pragma once

// What `explain` returns for one pod's (or one pod group's) scheduling attempt: the filter verdict
// per node, the preemption candidates with their reprieve trace, and the chosen candidate.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/engine_options.h"
#include "kpsim/sim_time.h"

namespace kpsim {

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

// Which attempt `explain` describes. With neither `round` nor `at`: the first attempt of `pod`
// (or of pod group `group`) in the run, including pods created during it (replacements).
struct ExplainQuery {
  std::string pod;    // "ns/name", or "name" in namespace default
  std::string group;  // a PodGroup or CompositePodGroup, "ns/name" (instead of `pod`)
  std::optional<std::int64_t> round;  // that attempt: the `round` of its events
  std::optional<SimDuration> at;      // the first attempt at or after this simulated time
};

struct ExplainResult {
  Profile profile = Profile::kDefault;
  // The attempt explained: its round (as simulate's events number them, 0 under the book
  // profile, which explains the state at time 0) and its simulated time.
  std::int64_t round = 0;
  SimTime time{};
  std::string pod;
  std::int32_t priority = 0;
  bool eligible = false;
  std::string eligibility_message;
  std::vector<FilterOutcome> filter;
  std::size_t filter_omitted = 0;  // verdicts left out of `filter` (the HTML report's copies)
  std::vector<CandidateOutcome> candidates;  // in evaluation order
  std::optional<ChosenCandidate> chosen;
  std::string message;  // kube-scheduler's FailedScheduling message, or "fits on node X"
  std::optional<std::string> fits_node;  // when the pod fits without preemption
  std::optional<GroupExplain> group;     // when the pod is scheduled through its pod group
  std::vector<Warning> warnings;         // what the engine did not model or took as given
};

}  // namespace kpsim
