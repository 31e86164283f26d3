// Names of the result enums declared in kpsim/engine.h, shared by every renderer and profile.

#include "kpsim/results.h"

namespace kpsim {

std::string_view EventReasonName(EventReason r) {
  switch (r) {
    case EventReason::kScheduled: return "Scheduled";
    case EventReason::kFailedScheduling: return "FailedScheduling";
    case EventReason::kPreempted: return "Preempted";
    case EventReason::kNominated: return "Nominated";
    case EventReason::kDeleted: return "Deleted";
    case EventReason::kCreated: return "Created";
    case EventReason::kScenarioStep: return "ScenarioStep";
    case EventReason::kEvicted: return "Evicted";
    case EventReason::kFailedCreate: return "FailedCreate";
    case EventReason::kResize: return "Resize";
  }
  return "Unknown";
}

std::string_view ExpanderName(Expander e) {
  switch (e) {
    case Expander::kLeastWaste: return "least-waste";
    case Expander::kMostPods: return "most-pods";
    case Expander::kRandom: return "random";
  }
  return "unknown";
}

std::string_view PodStateName(PodState s) {
  switch (s) {
    case PodState::kPending: return "Pending";
    case PodState::kRunning: return "Running";
    case PodState::kTerminating: return "Terminating";
    case PodState::kDeleted: return "Deleted";
  }
  return "Unknown";
}

}  // namespace kpsim
