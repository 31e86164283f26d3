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
  // The filter plugin that rejected the pod (empty when it fits): the plugins before it in
  // ExplainResult::filter_plugins passed, the ones after it did not run (RunFilterPlugins stops
  // at the first rejection).
  std::string plugin;
};

// One score plugin's score of a node: `score` is after NormalizeScore, in [0, 100]; the node's
// total is the sum of score * weight.
struct PluginScore {
  std::string plugin;
  std::int64_t score = 0;
  std::int64_t weight = 0;
};

// A feasible node as the cycle scored it (prioritizeNodes), in the order the filter found it.
struct NodeScore {
  std::string node;
  std::vector<PluginScore> plugins;
  std::int64_t total = 0;
};

// A pod as a capacity strip draws it.
struct PodSlice {
  std::string pod;
  std::int32_t priority = 0;
  ResourceList requests;
};

// One step of "remove all lower, then reprieve".
struct ReprieveStep {
  std::string pod;
  std::int32_t priority = 0;
  bool pdb_violating = false;
  bool reprieved = false;   // true: put back (spared); false: stays a victim
  std::string why;          // e.g. "fits with it back", "Insufficient cpu"
  ResourceList free_after;  // node's free resources after this step
  ResourceList requests;    // what it requests on the node (a unit's pods there, summed)
};

struct CandidateOutcome {
  std::string node;
  std::vector<std::string> victims;
  int pdb_violations = 0;
  std::vector<std::string> reprieved;
  ResourceList free_after_removal;  // free resources with every lower-priority pod removed
  std::vector<ReprieveStep> steps;
  std::int32_t highest_victim_priority = 0;
  // For capacity strips: the node's allocatable and the pods on it preemption leaves alone
  // (priority at least the preemptor's), and for contrast the naive order the chapter warns
  // about: remove the least important pod first until the preemptor fits.
  ResourceList allocatable;
  std::vector<PodSlice> staying;
  std::vector<std::string> naive_victims;
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
  ResourceList requests;  // the pod's requests as the filters see them
  std::vector<std::string> filter_plugins;  // the filter chain, in the order it runs
  std::vector<FilterOutcome> filter;
  // When the pod fits on more than one node: every feasible node's scores (empty otherwise,
  // where kube-scheduler does not score: one feasible node, or the nominated node).
  std::vector<std::string> score_plugins;
  std::vector<NodeScore> scores;
  std::size_t filter_omitted = 0;  // verdicts left out of `filter` (the HTML report's copies)
  std::vector<CandidateOutcome> candidates;  // in evaluation order
  std::optional<ChosenCandidate> chosen;
  std::string message;  // kube-scheduler's FailedScheduling message, or "fits on node X"
  std::optional<std::string> fits_node;  // when the pod fits without preemption
  std::optional<GroupExplain> group;     // when the pod is scheduled through its pod group
  std::vector<Warning> warnings;         // what the engine did not model or took as given
};

}  // namespace kpsim
