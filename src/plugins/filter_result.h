#pragma once

// The outcome of a filter function in src/plugins/: a code with kube-scheduler's meaning and
// the reason string upstream puts in the Status. Kept here, free of src/engine, so the plugin
// logic can be tested alone; the engine maps it onto its own Status when it wires a plugin.

#include <string_view>

namespace kpsim::plugins {

// The subset of `framework.Code` a Filter returns.
enum class FilterCode {
  kSuccess,
  // The node may fit after preemption removes pods (upstream `framework.Unschedulable`).
  kUnschedulable,
  // Preemption cannot help (upstream `framework.UnschedulableAndUnresolvable`).
  kUnschedulableAndUnresolvable,
};

struct FilterResult {
  FilterCode code = FilterCode::kSuccess;
  std::string_view reason;  // empty on success; points at a constant of the plugin
  bool IsSuccess() const { return code == FilterCode::kSuccess; }
  friend bool operator==(const FilterResult&, const FilterResult&) = default;
};

}  // namespace kpsim::plugins
