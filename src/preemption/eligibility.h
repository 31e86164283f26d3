#pragma once

// Whether a pod may preempt at all (PodEligibleToPreemptOthers, default_preemption.go).

#include <optional>
#include <string>
#include <vector>

#include "framework/status.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

// Why `pod` may not preempt others (the text after "preemption: "), or nullopt when it may.
// `statuses` are this cycle's filter statuses by node id.
std::optional<std::string> PodEligibleToPreemptOthers(const ClusterModel& model, const PodInfo& pod,
                                                      const NodeStatuses& statuses);

}  // namespace kpsim::engine
