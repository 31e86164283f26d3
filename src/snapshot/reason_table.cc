#include "snapshot/reason_table.h"

namespace kpsim::engine {

ReasonId ReasonTable::Intern(std::string_view text) {
  auto it = ids_.find(std::string(text));
  if (it != ids_.end()) return it->second;
  const auto id = static_cast<ReasonId>(texts_.size());
  texts_.emplace_back(text);
  ids_.emplace(std::string(text), id);
  return id;
}

}  // namespace kpsim::engine
