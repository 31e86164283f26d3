#pragma once

// The host ports in use on one node (upstream `NodeInfo.UsedPorts`, a `HostPortInfo` in
// pkg/scheduler/framework/types.go): address -> (protocol, port). Part of the cluster model
// because every bound pod's ports are counted on its node as it binds and leaves; the NodePorts
// filter (plugins/node_ports.h) and its queueing hint read it.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim::engine {

// Addresses and protocols are stored sanitized (`HostPortInfo.sanitize`): an empty address is
// "0.0.0.0", an empty protocol "TCP". Ports <= 0 are never stored.
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
  // True iff any of `want` conflicts (the negation of upstream's `fitsPorts`).
  bool ConflictsWithAny(const std::vector<HostPort>& want) const;

  bool empty() const { return entries_.empty(); }
  // Distinct (address, protocol, port) entries in use.
  std::size_t size() const { return entries_.size(); }

 private:
  // (address, protocol, port), sanitized.
  using Key = std::tuple<std::string, std::string, std::int32_t>;
  static Key Sanitize(const HostPort& port);
  std::map<Key, int> entries_;  // -> number of holders, always > 0
};

}  // namespace kpsim::engine
