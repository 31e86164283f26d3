#pragma once

// The compact JSON a sweep writes (its lines, the Job's quoted strings): one line, keys in
// insertion order, never throwing (invalid UTF-8 is replaced).

#include <string>

#include <nlohmann/json.hpp>

namespace kpsim::app {

inline std::string DumpLine(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace kpsim::app
