#include "preemption/eligibility.h"

namespace kpsim::engine {

std::optional<std::string> PodEligibleToPreemptOthers(const ClusterModel& model, const PodInfo& pod,
                                                      const NodeStatuses& statuses) {
  // Mirrors PodEligibleToPreemptOthers (default_preemption.go).
  if (pod.preemption_policy == PreemptionPolicy::kNever) {
    return std::string("not eligible due to preemptionPolicy=Never.");
  }
  if (pod.nominated != kNoId) {
    const Status& s = statuses[pod.nominated];
    if (s.code() == Code::kUnschedulableAndUnresolvable) return std::nullopt;
    for (PodId other_id : model.node(pod.nominated).pods) {
      const PodInfo& other = model.pod(other_id);
      if (other.victim_priority < pod.priority && other.IsTerminating() &&
          other.terminating_by_preemption) {
        return std::string("not eligible due to a terminating pod on the nominated node.");
      }
    }
  }
  return std::nullopt;
}

}  // namespace kpsim::engine
