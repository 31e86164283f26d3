#pragma once

// Two runs side by side: what differs between two `simulate -o json` documents (`kpsim diff`,
// `simulate --compare`). Works on the saved JSON, so runs made by other kpsim versions, on other
// machines or with other settings compare alike.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/expected.h"

namespace kpsim::report {

// One run's headline figures.
struct RunFigures {
  std::string label;  // the file name, or the --compare setting
  std::string profile;
  std::string seed;  // as written (a uint64 may not fit a double)
  double end_time = 0;
  std::string end_reason;
  std::int64_t victims = 0;         // Preempted events
  std::int64_t pdb_violations = 0;  // Preempted events with pdbViolation
  std::int64_t evictions = 0;       // Evicted events (node pressure)
  std::int64_t decisions = 0;       // preemption decisions
  std::int64_t running = 0;         // pods running at the end
  std::int64_t pending = 0;         // pods pending at the end
  std::vector<std::string> pdbs_broken;  // PDBs some decision left below zero, in name order
};

// A pod preempted in one run and not in the other.
struct VictimOnlyIn {
  std::string pod;
  std::string node;
  std::string by;
  double time = 0;
  bool pdb_violation = false;
};

// One pod as each run left it. Pods are matched by name; pods a run created (replacements,
// workload pods) have seeded random names, so those left over are matched by what they replace
// (`replacementOf`) or, failing that, by their name without the random suffix, in order.
struct PodSide {
  std::string name;   // empty: the pod does not exist in this run
  std::string state;  // Pending, Running, Terminating, Deleted
  std::string node;   // empty: never bound
  // Seconds from the pod's arrival (its Created event or first attempt) to its scheduledAt (or,
  // still pending, to the run's end); none for a pod bound from the start.
  std::optional<double> wait;
};
struct PodChange {
  PodSide a;
  PodSide b;
};

struct RunDiff {
  RunFigures a;
  RunFigures b;
  std::vector<VictimOnlyIn> victims_only_a;
  std::vector<VictimOnlyIn> victims_only_b;
  std::vector<PodChange> placements;  // final node or state differs, or the pod exists in one run only
  std::vector<PodChange> waits;       // both runs have the pod and its wait differs
  bool identical() const;
};

// Compares run A with run B. InvalidArgument (naming the label) when a document is not the JSON
// `kpsim simulate -o json` prints.
Expected<RunDiff> DiffRuns(std::string_view a_json, std::string a_label, std::string_view b_json,
                           std::string b_label);

// Text: the disruption figures side by side, then each list of differences.
std::string RenderDiffText(const RunDiff& diff);
// JSON: `identical`, `a` and `b` (each `label`, `profile`, `seed`, `endTime`, `endReason`,
// `victims`, `pdbViolations`, `evictions`, `decisions`, `running`, `pending`, `pdbsBroken`),
// `victimsOnlyInA`, `victimsOnlyInB` (each `pod`, `node`, `by`, `time`, `pdbViolation`),
// `placements` and `waits` (each `a` and `b`: `pod`, `state`, `node`, `wait`; null where absent).
std::string RenderDiffJson(const RunDiff& diff);

// HTML: a self-contained page of the same tables (the JSON above embedded, as the report embeds
// its run's).
std::string RenderDiffHtml(const RunDiff& diff);

// `simulate --compare`: the base run (every diff's A) against each setting (their B), in order.
std::string RenderCompareText(std::span<const RunDiff> diffs);
// JSON: `base` (the figures of A) and `comparisons`, one `RenderDiffJson` object per setting.
std::string RenderCompareJson(std::span<const RunDiff> diffs);
// HTML: one section per setting, as RenderDiffHtml draws a diff.
std::string RenderCompareHtml(std::span<const RunDiff> diffs);

}  // namespace kpsim::report
