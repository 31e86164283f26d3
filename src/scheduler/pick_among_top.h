#pragma once

// selectHost's pick among the top scores (kube-scheduler's schedule_one.go): reservoir sampling,
// where each node whose score equals the best so far draws once and takes the pick when
// rand.Intn(cntOfMaxScore) == 0 (here: draw % cntOfMaxScore == 0), and a higher score restarts
// the count. At thousands of tied nodes that is a loop of dependent branches, one draw and one
// divisibility test per node. PickAmongTop answers the same in two passes that consume the same
// draws:
//  1. without a draw or a branch on the scores: the best score, where it first appears, and how
//     many draws the reservoir makes before it and after it;
//  2. the draws after it, read as a block, tested from the last tie backwards: the pick is the
//     last tie whose draw passes, so the first to pass going backwards ends the search (on
//     average half-way, since the pick is uniform over the ties).
// tests/scheduler/pick_among_top_test.cc holds it equal to the reservoir, index and generator.

#include "framework/random.h"
#include "scheduler/divisibility.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kpsim::engine {

// The index selectHost picks among scores[0, count), count >= 1; `rng` is left where the
// reservoir would leave it. `draws` is scratch.
inline std::size_t PickAmongTop(const std::int64_t* scores, std::size_t count, Mt19937_64& rng,
                                DivisibilityTable& divisibility, std::vector<std::uint64_t>& draws) {
  std::int64_t top = scores[0];
  std::size_t first = 0;               // where `top` first appears
  std::uint64_t drawn = 0;             // the reservoir's draws so far
  std::uint64_t drawn_before_top = 0;  // ... when `top` first appeared
  for (std::size_t i = 1; i < count; ++i) {
    const std::int64_t score = scores[i];
    const bool higher = score > top;
    drawn += score == top ? 1 : 0;
    first = higher ? i : first;
    drawn_before_top = higher ? drawn : drawn_before_top;
    top = higher ? score : top;
  }
  rng.Discard(drawn_before_top);
  const std::uint64_t ties = drawn - drawn_before_top;  // they draw with cntOfMaxScore 2 .. ties + 1
  if (ties == 0) return first;
  draws.resize(static_cast<std::size_t>(ties));
  rng.Generate(draws.data(), draws.size());
  const DivisibilityTable::Table divides = divisibility.Upto(ties + 1);
  std::uint64_t count_of_max = ties + 1;
  for (std::size_t i = count - 1; i > first; --i) {
    if (scores[i] != top) continue;
    if (divides.Divides(draws[static_cast<std::size_t>(count_of_max - 2)], count_of_max)) return i;
    --count_of_max;
  }
  return first;
}

}  // namespace kpsim::engine
