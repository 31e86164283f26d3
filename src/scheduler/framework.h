#pragma once

// One scheduling cycle of the default profile, as a pure decision over the cluster model:
// Filter (with nominated pods), Score, and on failure PostFilter (DefaultPreemption). The
// simulator applies the decision; `explain` renders it. Nothing here mutates the model except
// the caches.

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "framework/filter_runner.h"
#include "framework/random.h"
#include "framework/plugin.h"
#include "framework/status.h"
#include "preemption/candidate.h"
#include "preemption/eligibility.h"
#include "preemption/evaluator.h"
#include "preemption/select_victims.h"
#include "scheduler/divisibility.h"
#include "kpsim/engine_options.h"
#include "kpsim/explain.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

class StatusTable;

struct Decision {
  enum class Kind : std::uint8_t { kBind, kPreempt, kFail };
  Kind kind = Kind::kFail;
  NodeId node = kNoId;           // kBind: where; kPreempt: the nominated node
  std::optional<Candidate> candidate;  // kPreempt
  std::string message;           // kPreempt / kFail: the FailedScheduling message
  bool clear_nomination = false;  // PostFilter returned Override-to-""
  PluginMask rejectors = 0;
  std::optional<PreemptionDecision> record;  // kPreempt: why (round and time set by the caller)
};

// One placement of a pod group's pending pods, computed tentatively and undone.
struct GroupPlacement {
  bool feasible = false;
  std::vector<std::pair<PodId, NodeId>> assigned;    // in scheduling order
  std::vector<std::pair<PodId, std::string>> failed;  // pods that did not fit, with why
  std::string message;  // why the group as a whole is unschedulable
  PluginMask rejectors = 0;
};

// What workload-aware preemption (PreemptGroup) decided for a group.
struct GroupPreemption {
  enum class Kind : std::uint8_t { kFail, kWait, kPreempt };
  Kind kind = Kind::kFail;
  std::string message;  // the PostFilter status text
  std::vector<Victim> victims;  // every pod of every victim unit
  int units = 0;
  std::vector<std::pair<PodId, NodeId>> assignments;  // nominations for the member pods
  std::optional<PreemptionDecision> record;  // kPreempt: why (round and time set by the caller)
};

class Framework {
 public:
  Framework(ClusterModel& model, const EngineOptions& options);
  ~Framework();
  Framework(const Framework&) = delete;
  Framework& operator=(const Framework&) = delete;

  // schedulePod and, on failure, PostFilter: what scheduling `pod` now does. With
  // `no_preemption` set, PostFilter does not run and its status is that text (pods scheduled
  // within a pod-group cycle). Changes the generator, the filter start index and the caches,
  // never the model.
  Decision Decide(PodId pod, const std::string* no_preemption = nullptr);

  // The read-only diagnosis of the cycle that decided `d` for `pod`, against the same state
  // (call it before the decision is applied): every node's filter verdict in node order, the
  // eligibility and, after a PostFilter, every potential node's dry run with its reprieve steps
  // (only the chosen node's with `chosen_only`). Changes nothing a later decision reads.
  void Diagnose(PodId pod, const Decision& d, bool chosen_only, ExplainResult& out);

  // Pod groups (GenericWorkload): the pending pods of root group `root` in scheduling order
  // (rule 17.2), the pre-cycle validation (rule 17.1), one tentative placement (rule 17.3, the
  // model is unchanged afterwards) and workload-aware preemption (§18).
  std::vector<PodId> PendingMembers(GroupId root) const;
  std::optional<std::string> ValidateGroup(GroupId root) const;
  GroupPlacement PlaceGroup(GroupId root, const std::vector<PodId>& pending);
  GroupPreemption PreemptGroup(GroupId root, const std::vector<PodId>& pending,
                               std::vector<ReprieveStep>* trace);

  // In-place resize preemption (InPlacePodVerticalScalingSchedulerPreemption, spec §19): `probe`
  // is the resizing pod as if pending with its new requests, its own pod detached from `node`
  // by the caller. Sets `filter` to its Filter verdict on `node`; when that is Unschedulable,
  // returns SelectVictimsOnNode there (the resize domain is its own node only).
  DryRunResult ResizeDryRun(const PodInfo& probe, NodeId node, Status& filter);
  // The read-only diagnosis of that attempt, as explain shows a placement's: every other node
  // rejected with "pod assigned to different node" (UnschedulableAndUnresolvable), the own node's
  // verdict and, when it is Unschedulable, its dry run with the reprieve steps. Same state as the
  // decision (the caller keeps the pod detached).
  void DiagnoseResize(const PodInfo& probe, NodeId node, const Status& filter, const DryRunResult& decided,
                      ExplainResult& out);

  // Statistics: dry runs asked for (cached or not), preemption attempts.
  std::int64_t dry_runs() const { return dry_runs_; }
  std::int64_t preemption_attempts() const { return preemption_attempts_; }

  // The simulated time of the cycle being decided (start times of unstarted victims).
  void SetNow(SimTime now) {
    now_ = now;
    victims_.SetNow(now);
    evaluator_.SetNow(now);
  }

  // The seeded generator shared by scoring ties, candidate sampling and replacement names.
  Mt19937_64& rng() { return rng_; }

  // Whether Decide keeps the feasible nodes it scored, for Diagnose's score table (only when
  // someone may ask for a diagnosis: the copy costs on every scored cycle).
  void KeepScoredNodes(bool keep) { keep_scored_ = keep; }

  // The run is over: frees the class indexes, the preemption caches and the cycle scratch, so
  // that the result is collected in their place (a run's memory peaks at its end, holding every
  // event and outcome). REQUIRES: no scheduling cycle afterwards.
  void ReleaseCaches();

 private:
  struct ClassIndex;  // class_index.h
  // The filter runner's (FilterRunner::FilterWithNominated, CachedFilter).
  Status FilterWithNominated(const PodInfo& pod, NodeId node, const ResourceList& requested,
                             const AffinityState* affinity, const PodInfo* exclude) {
    return filters_.FilterWithNominated(pod, node, requested, affinity, exclude);
  }
  Status CachedFilter(const PodInfo& pod, NodeId node, const AffinityState* affinity) {
    return filters_.CachedFilter(pod, node, affinity);
  }
  bool CachesUsable(const PodInfo& /*pod*/, const AffinityState* affinity) const {
    return filters_.CachesUsable(affinity);
  }
  // prioritizeNodes and selectHost over `feasible`. With the pod's class index, the node-local
  // plugins' scores come from its cache (kept per node generation).
  NodeId SelectHost(const PodInfo& pod, const std::vector<NodeId>& feasible, ClassIndex* index = nullptr);
  // The weighted sum of the node-local score plugins (ScorePlugin::NodeLocal) on `node`.
  std::int64_t NodeLocalScore(const PodInfo& pod, NodeId id, const NodeInfo& node) const;
  // Diagnose's score table of the nodes the last cycle scored (KeepScoredNodes).
  void ScoreTable(const PodInfo& pod, ExplainResult& out);
  // A diagnosis's `requests` and `filter_plugins`.
  void DescribeRequestAndChain(const PodInfo& pod, ExplainResult& out) const;

  // PostFilter: DefaultPreemption (the Evaluator's outcome as kube-scheduler's message).
  Decision Preempt(const PodInfo& pod, const NodeStatuses& statuses,
                   const std::string& fit_error, PluginMask rejectors,
                   const AffinityState* affinity);
  // Filter over the nodes in order from the start index, Score, and PostFilter: the per-node
  // path, and the reference the class index is checked against in debug builds.
  Decision DecidePlain(const PodInfo& pod, const AffinityState* affinity,
                       const std::string* no_preemption);
  std::optional<std::string> Ineligible(const PodInfo& pod, const NodeStatuses& statuses) const {
    return PodEligibleToPreemptOthers(model_, pod, statuses);
  }
  // True when PostFilter does not run for this failure: `no_preemption` names why (its text
  // follows the fit error), or the profile has no PostFilter (EngineOptions::preemption false:
  // the message is the fit error alone, as upstream's FitError without a PostFilter message).
  // Sets `d.message` then.
  bool SkipsPostFilter(const std::string& fit_error, const std::string* no_preemption, Decision& d) const;
  // PostFilter success: the preemptor is to be nominated to `best.node`.
  void SetPreemptionFound(Decision& d, const std::string& fit_error, const Candidate& best) const;

  std::string FitErrorText(std::size_t num_nodes, const NodeStatuses& statuses,
                           const std::string& absent_reason) const;
  // The same text from a reason histogram (`counts` by ReasonId) over `present` nodes.
  std::string FitErrorFromCounts(std::size_t num_nodes, const std::vector<int>& counts,
                                 std::size_t present, const std::string& absent_reason) const;

  // The class index (see `ClassIndex`).
  bool IndexUsable(const PodInfo& pod, const AffinityState* affinity) const;
  ClassIndex& IndexFor(const PodInfo& pod);
  void RefreshIndex(ClassIndex& index, const PodInfo& pod);
  void RefreshDryRuns(ClassIndex& index, const PodInfo& pod);
  // Candidate sampling: the class's sampling index, built at its first preemption attempt, and
  // DryRunPreemption's window and pick over its dry runs (sampling_index.h).
  void StartSampling(ClassIndex& index);
  Decision SampledDecision(const PodInfo& pod, ClassIndex& index, std::int64_t offset_rank,
                           const std::string& fit_error, Decision d);
  Decision DecideIndexed(const PodInfo& pod, ClassIndex& index, const std::string* no_preemption);
  // findNodesThatFitPod over the class index: the first numFeasibleNodesToFind feasible nodes in
  // circular node order from the start index, the nominated node (at `nominated_pos`, -1 for
  // none) in its place when `nominated_fits` on its own and skipped otherwise; advances the start
  // index past the last node examined. In a scratch vector, valid until the next call.
  const std::vector<NodeId>& FeasibleFromIndex(const ClassIndex& index, std::int32_t nominated_pos,
                                               bool nominated_fits);
  void AccountIndex(ClassIndex& index);  // its memory; evicts beyond the budget
  // The record of a preemption DecideIndexed decided: the class's best candidates, with
  // `nominated` (the pod's own nominated node's dry run, null if none) in place of its entry.
  PreemptionDecision IndexedDecision(const ClassIndex& index, const PodInfo& pod,
                                     std::int32_t nominated_pos, const Candidate* nominated,
                                     bool nominated_in_index, std::int64_t nodes_evaluated) const;

  // Pod groups.
  Status FilterOnNode(const PodInfo& pod, NodeId node);  // with its own affinity state
  int RunningMembers(const GroupInfo& leaf) const;
  int MembersOf(GroupId leaf, const std::vector<PodId>& pods) const;  // pods of `leaf`
  // One tentative placement of `pending`, on any node (`key` null) or within the nodes whose
  // label `key` equals `domain`; undone before returning.
  GroupPlacement PlaceInDomain(GroupId root, const std::vector<PodId>& pending,
                               const std::string* key, const std::string& domain,
                               const std::string& no_preemption);

  // Constant after construction.
  ClusterModel& model_;
  const EngineOptions& options_;
  ReasonId no_victims_reason_, not_helpful_reason_;

  // The rooms this cycle uses: the filter plugins with their caches, the score plugins, the
  // preemption dry runs (victim units, PDB budgets).
  FilterRunner filters_;
  ScorePlugins scores_;
  VictimSelector victims_;

  // State across cycles.
  Mt19937_64 rng_;
  std::size_t next_start_node_index_ = 0;
  SimTime now_{};
  std::int64_t dry_runs_ = 0;
  std::int64_t preemption_attempts_ = 0;

  // PostFilter on the per-node path (owns the per-node dry-run cache).
  Evaluator evaluator_;

  // The last cycle's scored nodes (KeepScoredNodes): the feasible nodes SelectHost ranked for
  // `scored_pod_`, which Decide resets.
  bool keep_scored_ = false;
  std::vector<std::int64_t> score_totals_;  // SelectHost's scratch, per feasible node
  DivisibilityTable divisibility_;          // SelectHost's reservoir draws
  std::vector<std::uint64_t> top_draws_;    // ... and PickAmongTop's scratch
  std::vector<std::int32_t> found_scratch_;  // DecideIndexed's feasible positions
  std::vector<NodeId> feasible_scratch_;     // and their nodes
  const PodInfo* scored_pod_ = nullptr;
  std::vector<NodeId> scored_nodes_;

  // The class indexes, valid while the model lives.
  std::vector<std::unique_ptr<ClassIndex>> indexes_;  // by equivalence class, null if none
  std::unique_ptr<StatusTable> status_table_;         // the indexes' interned statuses
  std::size_t index_bytes_ = 0;
  std::uint64_t index_clock_ = 0;
  std::uint64_t index_node_set_generation_ = 0;  // the model's node order the indexes were built on

  // Scratch, reused across cycles.
  NodeStatuses statuses_;             // per-cycle filter statuses
  mutable std::vector<int> reason_counts_;  // FitErrorText scratch, all zero between calls
  std::vector<PdbId> pdb_scratch_;          // RefreshIndex: the PDBs changed since the last look
};

// Whether two decisions agree (kind, node, message, nomination clearing, victims).
bool SameDecision(const Decision& a, const Decision& b);

// kube-scheduler's numFeasibleNodesToFind: `percentage` is the profile's
// percentageOfNodesToScore, 0 for the adaptive percentage.
std::size_t NumFeasibleNodesToFind(std::size_t num_all_nodes, std::int32_t percentage = 0);

}  // namespace kpsim::engine
