#pragma once

// NodePorts (filter): a pod asking for a host port does not fit a node where another pod holds
// the same protocol and port on a conflicting address.
// Mirrors pkg/scheduler/framework/plugins/nodeports/node_ports.go and `HostPortInfo`
// (pkg/scheduler/framework/types.go).

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kpsim/api/types.h"
#include "plugins/filter_result.h"

namespace kpsim::plugins {

inline constexpr std::string_view kNodePortsName = "NodePorts";
// Upstream `nodeports.ErrReason`.
inline constexpr std::string_view kErrReasonNodePorts =
    "node(s) didn't have free ports for the requested pod ports";

// The host ports in use on one node (upstream `NodeInfo.UsedPorts`, a `HostPortInfo`): address
// -> (protocol, port). Addresses and protocols are stored sanitized (`HostPortInfo.sanitize`):
// an empty address is "0.0.0.0", an empty protocol "TCP". Ports <= 0 are never stored.
//
// Unlike upstream's set, each entry counts the pods holding it, so removing one of two pods
// that (bound around the scheduler) share a port keeps the port in use. Iteration is ordered.
class UsedPorts {
 public:
  // `HostPortInfo.Add` / `Remove` for one port.
  void Add(const HostPort& port);
  void Remove(const HostPort& port);
  // `NodeInfo.updateUsedPorts`: every host port of a pod (`PodSpec::host_ports`).
  void AddPod(const PodSpec& spec);
  void RemovePod(const PodSpec& spec);

  // `HostPortInfo.CheckConflict`: true iff `port` conflicts with a port in use. "0.0.0.0"
  // conflicts with every address holding the same protocol and port; a specific address
  // conflicts with itself and with "0.0.0.0". A port <= 0 never conflicts.
  bool CheckConflict(const HostPort& port) const;

  bool empty() const { return entries_.empty(); }
  // Distinct (address, protocol, port) entries in use.
  std::size_t size() const { return entries_.size(); }

 private:
  // (address, protocol, port), sanitized.
  using Key = std::tuple<std::string, std::string, std::int32_t>;
  static Key Sanitize(const HostPort& port);
  std::map<Key, int> entries_;  // -> number of holders, always > 0
};

// `fitsPorts`: true iff none of `want` conflicts with `used`. Conflicts among `want` themselves
// are not checked (API validation rejects them), as upstream.
bool FitsPorts(const std::vector<HostPort>& want, const UsedPorts& used);

// `NodePorts.Filter`: success when the ports fit, else `kUnschedulable` with
// `kErrReasonNodePorts` (preempting the pod holding the port can free it). A pod with no host
// ports always fits (upstream's PreFilter returns Skip for it).
FilterResult NodePortsFilter(const std::vector<HostPort>& want, const UsedPorts& used);

}  // namespace kpsim::plugins
