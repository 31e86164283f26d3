#pragma once

// Builders of result values for the renderer tests (they render hand-made results, never run
// the engine).

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "kpsim/results.h"
#include "kpsim/sim_time.h"

namespace kpsim::report::testing {

inline SimTime Seconds(double s) { return SimTime(SimDuration(std::llround(s * 1e6))); }

inline SimEvent Event(double t, EventReason reason, std::string pod, std::string node,
                      std::string message = "") {
  SimEvent e;
  e.time = Seconds(t);
  e.reason = reason;
  e.pod = std::move(pod);
  e.node = std::move(node);
  e.message = std::move(message);
  return e;
}

inline PodOutcome PodAt(std::string pod, std::int32_t priority, PodState state, std::string node) {
  PodOutcome p;
  p.pod = std::move(pod);
  p.priority = priority;
  p.state = state;
  p.node = std::move(node);
  return p;
}

}  // namespace kpsim::report::testing
