#pragma once

// The simulated clock every result and option is expressed in.

#include <chrono>
#include <cstdint>

namespace kpsim {

// The simulated clock. Time 0 is the simulation origin (see `EngineOptions::origin`).
struct SimClock {
  using rep = std::int64_t;
  using period = std::micro;
  using duration = std::chrono::duration<rep, period>;
  using time_point = std::chrono::time_point<SimClock>;
  static constexpr bool is_steady = true;
};
using SimTime = SimClock::time_point;
using SimDuration = SimClock::duration;

inline double ToSeconds(SimTime t) {
  return static_cast<double>(t.time_since_epoch().count()) / 1e6;
}

}  // namespace kpsim
