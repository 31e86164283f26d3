#pragma once

// DefaultPreemption's PostFilter for one pod on the per-node path: Evaluator.Preempt
// (pkg/scheduler/framework/preemption/preemption.go) steps 1) PodEligibleToPreemptOthers,
// 2) DryRunPreemption on every potential node (SelectVictimsOnNode, each node's last dry run
// cached while its pods, the PDBs and the class stay the same), 3) pickOneNodeForPreemption
// over the tie-breaker table. Step 4, actuation, is the simulator's. The cycle (scheduler/)
// turns the outcome into kube-scheduler's message; the class index has its own step 2 over its
// aggregates and shares steps 1 and 3.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "framework/filter_runner.h"
#include "framework/random.h"
#include "framework/status.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"
#include "preemption/candidate.h"
#include "preemption/select_victims.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

struct PreemptionOutcome {
  enum class Kind : std::uint8_t {
    kIneligible,  // step 1 said no: `ineligible` says why
    kNotHelpful,  // no potential node gave a candidate: `dry_statuses` says why, by NodeId
    kFound,       // `best` and its `record`
  };
  Kind kind = Kind::kIneligible;
  std::string ineligible;
  NodeStatuses dry_statuses;  // kNotHelpful: one per node (success where none ran)
  std::optional<Candidate> best;
  std::optional<PreemptionDecision> record;  // round and time are the caller's
  std::int64_t dry_runs = 0;                 // dry runs asked for (cached or not)
};

class Evaluator {
 public:
  // `filters` says when the caches may be used; `victims` runs the dry runs; `rng` picks the
  // sampling offset (--candidate-sampling kubernetes).
  Evaluator(const ClusterModel& model, const EngineOptions& options, const FilterRunner& filters,
            VictimSelector& victims, Mt19937_64& rng);

  // Evaluator.Preempt for `pod`, whose Filter verdicts by NodeId are `statuses`.
  PreemptionOutcome Preempt(const PodInfo& pod, const NodeStatuses& statuses,
                            const AffinityState* affinity);

  // The simulated time (a dry run whose victims have not started ages with it).
  void SetNow(SimTime now) { now_ = now; }

  // Frees the per-node dry-run cache. REQUIRES: no Preempt afterwards (the run is over).
  void ReleaseCaches() { cache_ = {}; }

 private:
  // The dry run of `node`, from the cache when valid; uncached results live in `scratch`.
  const DryRunResult& CachedDryRun(const PodInfo& pod, NodeId node, const AffinityState* affinity,
                                   std::deque<DryRunResult>& scratch);

  const ClusterModel& model_;
  const EngineOptions& options_;
  const FilterRunner& filters_;
  VictimSelector& victims_;
  Mt19937_64& rng_;
  SimTime now_{};

  // The last dry run of each node, valid for the same class, node generation, PDB generation
  // and (when a victim without a start time counted as starting now) simulated time.
  struct CacheEntry {
    std::int32_t cls = -1;
    std::uint64_t generation = 0;
    std::uint64_t pdb_generation = 0;
    SimTime computed_at{};
    DryRunResult result;
  };
  IdVector<NodeId, CacheEntry> cache_;
};

}  // namespace kpsim::engine
