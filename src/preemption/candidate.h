#pragma once

// What a preemption dry run produces (victims, units, candidates) and pickOneNodeForPreemption's
// tie-breakers as ONE table: the Evaluator's pick (TopCandidates) and the class index's candidate order
// (CandidateKey) are both derived from kTieBreakers (the key's rows checked against the table at
// compile time), so they cannot disagree.

#include <array>
#include <cassert>
#include <cstdint>
#include <limits>
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
// candidate wins). Each row's value is kept at the width its range needs (a count or one pod's
// priority in 32 bits, a sum of priorities or a time in 64): 32 bytes, where an array of the
// five scores took 48. The exact search's set holds one per candidate, the sampled search's
// best-key tree two per node position.
struct CandidateKey {
  std::int64_t priority_sum = 0;
  std::int64_t latest_start = 0;
  std::int32_t pdb_violations = 0;
  std::int32_t highest_priority = 0;
  std::int32_t victims = 0;
  std::int32_t pos = 0;

  static CandidateKey Of(const Candidate& c, std::int32_t pos) {
    auto narrow = [](std::int64_t v) {
      assert(v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max());
      return static_cast<std::int32_t>(v);
    };
    CandidateKey key;
    key.pdb_violations = narrow(kTieBreakers[0].value(c));
    key.highest_priority = narrow(kTieBreakers[1].value(c));  // one pod's priority
    key.priority_sum = kTieBreakers[2].value(c);
    key.victims = narrow(kTieBreakers[3].value(c));
    key.latest_start = kTieBreakers[4].value(c);
    key.pos = pos;
    return key;
  }
  // By the rows alone: < 0 when this key is the better, 0 on a full tie.
  int CompareRows(const CandidateKey& o) const {
    static_assert(kTieBreakers[0].id == "pdbViolations" && kTieBreakers[0].lower_is_better);
    static_assert(kTieBreakers[1].id == "highestPriority" && kTieBreakers[1].lower_is_better);
    static_assert(kTieBreakers[2].id == "prioritySum" && kTieBreakers[2].lower_is_better);
    static_assert(kTieBreakers[3].id == "victims" && kTieBreakers[3].lower_is_better);
    static_assert(kTieBreakers[4].id == "latestStartTime" && !kTieBreakers[4].lower_is_better);
    static_assert(kTieBreakers.size() == 5);
    if (pdb_violations != o.pdb_violations) return pdb_violations < o.pdb_violations ? -1 : 1;
    if (highest_priority != o.highest_priority) return highest_priority < o.highest_priority ? -1 : 1;
    if (priority_sum != o.priority_sum) return priority_sum < o.priority_sum ? -1 : 1;
    if (victims != o.victims) return victims < o.victims ? -1 : 1;
    if (latest_start != o.latest_start) return latest_start > o.latest_start ? -1 : 1;
    return 0;
  }
  bool operator<(const CandidateKey& o) const {
    const int rows = CompareRows(o);
    return rows != 0 ? rows < 0 : pos < o.pos;
  }
  bool operator==(const CandidateKey& o) const = default;
};
static_assert(sizeof(CandidateKey) == 32);

}  // namespace kpsim::engine
