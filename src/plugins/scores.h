#pragma once

// Score constants shared by the score functions in src/plugins/.

#include <cstdint>

namespace kpsim::plugins {

// Upstream `framework.MaxNodeScore`: every normalized plugin score lies in 0..100.
inline constexpr std::int64_t kMaxNodeScore = 100;

}  // namespace kpsim::plugins
