#pragma once

// Scheduling outcomes, mirroring kube-scheduler's framework.Status (house style G7): a code, the
// plugin that set it and its reasons. Reasons are interned ids so that filtering thousands of
// nodes allocates nothing.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "snapshot/ids.h"
#include "snapshot/reason_table.h"

namespace kpsim::engine {

enum class Code : std::uint8_t {
  kSuccess,
  kError,
  kUnschedulable,
  kUnschedulableAndUnresolvable,
  kWait,
  kSkip,
  kPending,
};
std::string_view CodeName(Code code);

// The filter plugins, in the default profile's order (kube-scheduler's default plugin set,
// restricted to the ones kpsim models).
enum class PluginId : std::uint8_t {
  kNone,
  kNodeUnschedulable,
  kNodeName,
  kTaintToleration,
  kNodeAffinity,
  kNodePorts,
  kNodeResourcesFit,
  kPodTopologySpread,
  kInterPodAffinity,
  kDefaultPreemption,
};
std::string_view PluginName(PluginId id);

// A set of plugins (those that rejected a pod), a bit per PluginId.
using PluginMask = std::uint32_t;
inline PluginMask MaskOf(PluginId id) { return PluginMask{1} << static_cast<unsigned>(id); }

class [[nodiscard]] Status {
 public:
  static constexpr int kMaxReasons = 8;  // more are dropped from the FitError histogram

  Status() = default;
  explicit Status(Code code, PluginId plugin = PluginId::kNone) : code_(code), plugin_(plugin) {}
  static Status Success() { return Status(); }

  Code code() const { return code_; }
  PluginId plugin() const { return plugin_; }
  bool IsSuccess() const { return code_ == Code::kSuccess; }
  bool IsRejected() const {
    return code_ == Code::kUnschedulable || code_ == Code::kUnschedulableAndUnresolvable;
  }
  int reason_count() const { return n_; }
  ReasonId reason(int i) const { return reasons_[static_cast<std::size_t>(i)]; }
  void AddReason(ReasonId id) {
    if (n_ < kMaxReasons) reasons_[static_cast<std::size_t>(n_++)] = id;
  }
  bool operator==(const Status& o) const {
    if (code_ != o.code_ || plugin_ != o.plugin_ || n_ != o.n_) return false;
    for (int i = 0; i < n_; ++i) {
      if (reasons_[static_cast<std::size_t>(i)] != o.reasons_[static_cast<std::size_t>(i)]) {
        return false;
      }
    }
    return true;
  }

 private:
  Code code_ = Code::kSuccess;
  PluginId plugin_ = PluginId::kNone;
  std::uint8_t n_ = 0;
  std::array<ReasonId, kMaxReasons> reasons_{};
};

// A cycle's filter (or dry-run) statuses, one per node.
using NodeStatuses = IdVector<NodeId, Status>;

}  // namespace kpsim::engine
