// Feature gate parsing with Kubernetes' wording (component-base `cliflag.MapStringBool.Set` then
// `featuregate.SetFromMap`): every pair's value is parsed first, then the names are checked.

#include "kpsim/feature_gates.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fmt/format.h"

namespace kpsim {
namespace {

struct GateEntry {
  std::string_view name;
  bool FeatureGates::*field;
};

// Sorted by name (`Describe` relies on it).
constexpr GateEntry kGates[] = {
    {"CompositePodGroup", &FeatureGates::composite_pod_group},
    {"GangScheduling", &FeatureGates::gang_scheduling},
    {"GenericWorkload", &FeatureGates::generic_workload},
    {"InPlacePodVerticalScalingSchedulerPreemption", &FeatureGates::in_place_pod_vertical_scaling_scheduler_preemption},
    {"PodGroupPreemptionPolicy", &FeatureGates::pod_group_preemption_policy},
    {"SchedulerAsyncPreemption", &FeatureGates::scheduler_async_preemption},
    {"SchedulerPopFromBackoffQ", &FeatureGates::scheduler_pop_from_backoff_q},
    {"TopologyAwareWorkloadScheduling", &FeatureGates::topology_aware_workload_scheduling},
    {"WorkloadAwarePreemption", &FeatureGates::workload_aware_preemption},
};

std::string_view Trim(std::string_view s) {
  const auto is_space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// strconv.ParseBool.
bool ParseBool(std::string_view v, bool& out) {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (v == t) {
      out = true;
      return true;
    }
  }
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (v == f) {
      out = false;
      return true;
    }
  }
  return false;
}

}  // namespace

Expected<FeatureGates> FeatureGates::Parse(std::string_view text) {
  std::vector<std::pair<std::string, bool>> pairs;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      return MakeError(ErrorCode::kInvalidArgument, "malformed pair, expect string=bool");
    }
    const std::string_view key = Trim(item.substr(0, eq));
    const std::string_view value = Trim(item.substr(eq + 1));
    bool b = false;
    if (!ParseBool(value, b)) {
      return MakeError(
          ErrorCode::kInvalidArgument,
          fmt::format("invalid value of {}={}, err: strconv.ParseBool: parsing \"{}\": "
                      "invalid syntax",
                      key, value, value));
    }
    pairs.emplace_back(std::string(key), b);
  }
  FeatureGates gates;
  for (const auto& [key, value] : pairs) {
    auto it = std::find_if(std::begin(kGates), std::end(kGates),
                           [&key = key](const GateEntry& g) { return g.name == key; });
    if (it == std::end(kGates)) {
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("unrecognized feature gate: {}", key));
    }
    gates.*(it->field) = value;
  }
  return gates;
}

std::vector<std::string> FeatureGates::Describe() const {
  std::vector<std::string> out;
  out.reserve(std::size(kGates));
  for (const GateEntry& g : kGates) {
    out.push_back(fmt::format("{}={}", g.name, this->*(g.field) ? "true" : "false"));
  }
  return out;
}

}  // namespace kpsim
