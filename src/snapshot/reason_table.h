#pragma once

// Interned reason strings ("Insufficient cpu", "node(s) had untolerated taint {k: v}", ...): a
// scheduling `Status` carries 16-bit ids into this table, so filtering thousands of nodes
// allocates nothing. One table per cluster model (`ClusterModel::reasons()`).

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kpsim::engine {

using ReasonId = std::uint16_t;

class ReasonTable {
 public:
  ReasonId Intern(std::string_view text);
  const std::string& Text(ReasonId id) const { return texts_[id]; }
  std::size_t size() const { return texts_.size(); }

 private:
  std::vector<std::string> texts_;
  std::unordered_map<std::string, ReasonId> ids_;
};

}  // namespace kpsim::engine
