#pragma once

// Feature gates, with the defaults of the Kubernetes release the spec describes (v1.37).

#include <string>
#include <string_view>
#include <vector>

#include "kpsim/expected.h"

namespace kpsim {

struct FeatureGates {
  // Workloads (PodGroup / CompositePodGroup), spec §14.
  bool generic_workload = false;             // beta, off by default in 1.37
  bool composite_pod_group = false;          // alpha 1.37
  bool pod_group_preemption_policy = false;  // alpha 1.37
  bool workload_aware_preemption = false;    // alpha 1.36; merged into GenericWorkload in 1.37
  bool gang_scheduling = false;              // alpha
  bool topology_aware_workload_scheduling = false;  // alpha
  // In-place pod resize (spec §19): the scheduler preempts for a Deferred resize.
  bool in_place_pod_vertical_scaling_scheduler_preemption = false;  // alpha 1.37
  // Scheduler behaviour.
  bool scheduler_async_preemption = true;    // beta, on since 1.33
  bool scheduler_pop_from_backoff_q = true;  // beta, on since 1.33

  // Parses "A=true,B=false" on top of the defaults. Unknown gates and values other than
  // true/false are errors with Kubernetes' wording ("unrecognized feature gate: X").
  static Expected<FeatureGates> Parse(std::string_view text);

  // Whether workload-aware preemption is on: in 1.37 it follows GenericWorkload; the old
  // WorkloadAwarePreemption gate is still accepted and also turns it on.
  bool WorkloadAwarePreemptionEnabled() const { return generic_workload || workload_aware_preemption; }

  // "Name=true" for each gate, sorted by name (for output).
  std::vector<std::string> Describe() const;
};

}  // namespace kpsim
