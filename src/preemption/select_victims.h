#pragma once

// One preemption dry run on one node (SelectVictimsOnNode, default_preemption.go) and the victim
// units it works with: every bound pod of lower (group-aware) priority is removed, the preemptor
// must fit, the units are sorted most important first (MoreImportantVictim), classified against
// the PodDisruptionBudgets (filterPodsWithPDBViolation) and reprieved, PDB-violating ones first.
// The live model is not changed: the dry run works on a copy of the node's requests and of the
// inter-pod affinity state.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "framework/cycle_state.h"
#include "framework/filter_runner.h"
#include "framework/status.h"
#include "kpsim/explain.h"
#include "kpsim/sim_time.h"
#include "preemption/candidate.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

class VictimSelector {
 public:
  VictimSelector(ClusterModel& model, FilterRunner& filters);
  VictimSelector(const VictimSelector&) = delete;
  VictimSelector& operator=(const VictimSelector&) = delete;

  // The simulated time of the cycle (the start time of a victim that has not started).
  void SetNow(SimTime now) { now_ = now; }

  // Frees the per-node and per-PDB caches (they are rebuilt on demand).
  void ReleaseCaches() {
    node_units_ = {};
    pdb_budgets_ = {};
  }

  // SelectVictimsOnNode for `pod` on `node`; `trace` (may be null) receives the reprieve steps.
  // `exclude` is the pod whose own nomination does not count (see FilterWithNominated).
  DryRunResult SelectVictimsOnNode(const PodInfo& pod, NodeId node, const AffinityState* affinity,
                                   CandidateOutcome* trace, const PodInfo* exclude);

  // GetPodStartTime: a pod that has not started counts as starting now (noted: the result then
  // depends on the time).
  std::int64_t StartTime(const PodInfo& pod) const;
  // Fills `unit` (reusing its storage) with the victim unit `encountering` belongs to.
  void MakeUnit(PodId encountering, VictimUnit& unit) const;
  // MoreImportantVictim over units.
  bool MoreImportantUnit(const VictimUnit& a, const VictimUnit& b) const;
  // filterPodsWithPDBViolation: budgets start at disruptionsAllowed and are consumed in
  // importance order. REQUIRES: `units` sorted by MoreImportantUnit.
  void ClassifyPdbViolations(std::span<VictimUnit> units) const;
  // The values pickOneNodeForPreemption compares. REQUIRES: victims not empty.
  void ScoreCandidate(Candidate& candidate) const;
  std::string UnitName(const VictimUnit& unit) const;
  // Appends the victim units of `pods` with group-aware priority below `below`, skipping members
  // of root group `skip_root` (kNoId: none); `seen_groups` dedupes `all` units across calls.
  // The units go to `units[count..]`, `count` advancing: elements past `count` are storage to
  // reuse (the dry runs keep one vector of units across calls), grown as needed.
  void AddVictimUnits(const std::vector<PodId>& pods, std::int32_t below, GroupId skip_root,
                      std::vector<VictimUnit>& units, std::size_t& count,
                      std::vector<GroupId>& seen_groups) const;
  std::string ReasonsText(const Status& s) const;  // "Insufficient cpu, Too many pods"

  ReasonId no_victims_reason() const { return no_victims_reason_; }

 private:
  DryRunResult SelectVictimsOnNodeImpl(const PodInfo& pod, NodeId node, const AffinityState* affinity,
                                       CandidateOutcome* trace, const PodInfo* exclude);

  // A dry run's copy of what the filters read of a node: its requests, the inter-pod affinity
  // state (wherever the pods are) and, for a preemptor asking for host ports, the node's ports.
  struct DryState {
    ResourceList requested;
    std::optional<AffinityState> state;
    std::optional<UsedPorts> ports;
  };
  DryState StartDry(const PodInfo& pod, const NodeInfo& node, const AffinityState* affinity) const;
  // Removes (`delta` -1) or puts back (+1) a unit's pods.
  void Shift(const VictimUnit& unit, NodeId node, int delta, DryState& dry) const;
  // FilterWithNominated against the dry run's copy.
  Status FilterDry(const PodInfo& pod, NodeId node, const DryState& dry, const PodInfo* exclude) const;
  ResourceList RequestsOnNode(const VictimUnit& unit, NodeId node) const;
  // For explain's capacity strips: the node's allocatable, the pods outside `units`, and the
  // naive order's victims (least important unit first until the preemptor fits).
  void TraceCapacity(const PodInfo& pod, NodeId node, std::span<const VictimUnit> units,
                     const AffinityState* affinity, const PodInfo* exclude, CandidateOutcome& trace);

  // Per node, while no bound pod is part of an `all` unit: every bound pod as its own victim unit,
  // most important first (MoreImportantVictim), as of a node generation (and of the time, when
  // an unstarted pod's start counted as now). Dry runs take the suffix below their priority.
  struct NodeUnits {
    std::uint64_t generation = 0;
    SimTime computed_at{};
    bool time_dependent = false;
    std::vector<VictimUnit> units;
  };
  NodeUnits& SortedUnits(NodeId node);

  // Constant after construction.
  ClusterModel& model_;
  FilterRunner& filters_;
  const ReasonId no_victims_reason_;

  // Set per cycle.
  SimTime now_{};
  mutable bool time_dependent_ = false;  // the dry run under way used StartTime's "now"

  // Caches, valid while the model lives.
  IdVector<NodeId, NodeUnits> node_units_;
  // ClassifyPdbViolations per PDB: disruptionsAllowed as of a PDB generation, and the budget
  // left in the classification numbered `stamp`.
  struct PdbBudget {
    std::uint64_t allowed_generation = 0;
    std::int32_t allowed = 0;
    std::uint64_t stamp = 0;
    std::int32_t left = 0;
  };
  mutable IdVector<PdbId, PdbBudget> pdb_budgets_;
  mutable std::uint64_t classify_stamp_ = 0;

  // Scratch reused across dry runs: units (with their pod vectors), the reprieve's chosen units
  // and the `all` groups met.
  std::vector<VictimUnit> unit_scratch_;
  std::vector<const VictimUnit*> chosen_scratch_;
  std::vector<GroupId> seen_groups_scratch_;
};

// The free resources of `node` given `requested`, for traces.
ResourceList FreeResources(const NodeInfo& node, const ResourceList& requested);

}  // namespace kpsim::engine
