#pragma once

// What a preemption dry run produces (victims, units, candidates) and pickOneNodeForPreemption's
// tie-breakers as ONE table: the Evaluator's pick (TopCandidates) and the class index's candidate order
// (CandidateKey) are both derived from kTieBreakers, so they cannot disagree.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "framework/status.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

// A preemption victim pod as the dry run found it.
struct Victim {
  PodId pod = kNoId;
  bool pdb_violating = false;
  GroupId all_group = kNoId;  // the `all` group it goes with, if any
};

// A preemption unit: one pod, or every scheduled pod of a disruptionMode `all` hierarchy,
// which goes as one (workload-aware preemption).
struct VictimUnit {
  std::vector<PodId> pods;  // by pod id
  std::int32_t priority = 0;  // group-aware: the highest priority of the hierarchy
  int rank = 1;               // Pod 1, PodGroup 2, CompositePodGroup 3
  std::int64_t earliest_start = 0;
  GroupId all_group = kNoId;
  std::vector<bool> pod_violating;  // per pod, from ClassifyPdbViolations
  int violating_pods = 0;
};

// What preemption would do on one node (a candidate), with the scores of the tie-breakers.
struct Candidate {
  NodeId node = kNoId;
  std::vector<Victim> victims;
  int pdb_violations = 0;
  std::int64_t highest_priority = 0;
  std::int64_t priority_sum = 0;  // sum of (priority + 2^31)
  std::int64_t latest_start = 0;  // earliest start among the highest-priority victims
};

// The result of one dry run (SelectVictimsOnNode) on one node.
struct DryRunResult {
  Status status;  // Success: `candidate` is set
  std::optional<Candidate> candidate;
  bool time_dependent = false;  // a victim without a start time counted as starting now
  bool pdb_dependent = false;   // victims were classified against the PodDisruptionBudgets
};

// One row of pickOneNodeForPreemption's table: after each row only the candidates with the
// best value stay. `value` is the compared quantity itself, as the record shows it (the priority
// sum is upstream's, each term shifted by 2^31 so that it is >= 0); `lower_is_better` says which
// way it is compared.
struct TieBreaker {
  std::string_view id;     // stable camelCase key (PreemptionDecision::decided_by)
  std::string_view label;  // for people; explain's `decided_by`
  std::int64_t (*value)(const Candidate&);
  bool lower_is_better = true;
  bool is_time = false;

  // The row's score of `c`: larger is better.
  std::int64_t Score(const Candidate& c) const { return lower_is_better ? -value(c) : value(c); }
};

inline constexpr std::array<TieBreaker, 5> kTieBreakers{{
    {"pdbViolations", "fewest PDB violations",
     [](const Candidate& c) -> std::int64_t { return c.pdb_violations; }, true, false},
    {"highestPriority", "lowest highest-victim priority",
     [](const Candidate& c) { return c.highest_priority; }, true, false},
    {"prioritySum", "smallest sum of victim priorities",
     [](const Candidate& c) { return c.priority_sum; }, true, false},
    {"victims", "fewest victims",
     [](const Candidate& c) { return static_cast<std::int64_t>(c.victims.size()); }, true, false},
    {"latestStartTime", "latest start time of the highest-priority victims",
     [](const Candidate& c) { return c.latest_start; }, false, true},
}};

// A candidate's place in pickOneNodeForPreemption's order, as the class index keeps it:
// ascending = better, by the rows of kTieBreakers in turn; ties by node order (the first
// candidate wins).
struct CandidateKey {
  std::array<std::int64_t, kTieBreakers.size()> scores{};  // each row's score, larger is better
  std::int32_t pos = 0;

  static CandidateKey Of(const Candidate& c, std::int32_t pos) {
    CandidateKey key;
    for (std::size_t i = 0; i < kTieBreakers.size(); ++i) key.scores[i] = kTieBreakers[i].Score(c);
    key.pos = pos;
    return key;
  }
  bool operator<(const CandidateKey& o) const {
    for (std::size_t i = 0; i < scores.size(); ++i) {
      if (scores[i] != o.scores[i]) return scores[i] > o.scores[i];
    }
    return pos < o.pos;
  }
};

}  // namespace kpsim::engine
