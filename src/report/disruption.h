#pragma once

// The disruption cost of a run (`disruption` in simulate's JSON, its text summary and its HTML
// panel): what the preemptions evicted against what their preemptors asked for, the
// PodDisruptionBudgets and pod groups they broke, how far the cascade went (a victim's
// replacement preempting in turn), how long until the cluster was quiet, who is still waiting,
// and per PriorityClass what was evicted, placed and waited. Computed from the result alone.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kpsim/results.h"

namespace kpsim::report {

struct DisruptionCost {
  std::int64_t evicted_pods = 0;        // distinct pods with a Preempted event
  std::int64_t preemptors = 0;          // distinct preemptors (pods, and pod groups as one each)
  std::int64_t pressure_evictions = 0;  // the kubelet's Evicted events
  ResourceList evicted;                 // the victims' requests, summed
  ResourceList requested;               // the preemptors' requests, summed
  // Victims' over preemptors' requests (cpu, memory); none when the preemptors ask for none.
  std::optional<double> cpu_ratio, memory_ratio;
  // A preemptor: a pod, or a pod group whose cycle preempted (its pods' requests summed).
  struct Preemptor {
    std::string name;
    bool group = false;
    std::int64_t victims = 0;
    ResourceList evicted, requested;
    std::optional<double> cpu_ratio;  // evicted over requested cpu; none when it asks for none
  };
  std::vector<Preemptor> by_preemptor;  // the kListed most evicting (cpu, then memory, then name)
  std::int64_t pdb_budget_consumed = 0;  // distinct (PDB, victim) pairs the decisions counted
  struct BrokenPdb {
    std::string pdb;
    std::vector<std::string> victims;  // the victims of the decisions that left it below zero
  };
  std::vector<BrokenPdb> pdbs_broken;  // in name order
  struct BrokenGroup {
    std::string group, state;
    int preempted = 0, placed = 0, min_count = 0;
  };
  // Pod groups preemption left below their minCount, or an `all` group torn down and not back.
  std::vector<BrokenGroup> groups_broken;
  int cascade_depth = 0;  // 0 without preemption; 1: no victim's replacement preempted again
  std::optional<double> time_to_quiet;  // first preemption to the last placement or deletion
  std::int64_t pending = 0;             // pods pending at the end
  struct Waiting {
    std::string pod;
    double waited = 0;  // seconds from its arrival to the end of the run
  };
  std::vector<Waiting> longest_waiting;  // the kListed longest
  struct PerClass {
    std::string priority_class;  // "" for pods without one
    std::int32_t priority = 0;   // the highest priority among its pods
    std::int64_t pods = 0, evicted = 0, placed = 0, pending = 0;
    std::int64_t waits = 0;  // pods that waited (arrived pending)
    double mean_wait = 0, max_wait = 0;
  };
  std::vector<PerClass> by_class;  // by priority, highest first, then name

  static constexpr std::size_t kListed = 20;
};

DisruptionCost ComputeDisruption(const SimulationResult& sim);

}  // namespace kpsim::report
