#include "plugins/node_ports.h"

namespace kpsim::plugins {

namespace {
constexpr std::string_view kDefaultBindAllHostIp = "0.0.0.0";  // upstream DefaultBindAllHostIP
constexpr std::string_view kDefaultProtocol = "TCP";
}  // namespace

// Mirrors `HostPortInfo.sanitize`.
UsedPorts::Key UsedPorts::Sanitize(const HostPort& port) {
  std::string ip = port.host_ip.empty() ? std::string(kDefaultBindAllHostIp) : port.host_ip;
  std::string protocol = port.protocol.empty() ? std::string(kDefaultProtocol) : port.protocol;
  return {std::move(ip), std::move(protocol), port.port};
}

// Mirrors `HostPortInfo.Add` (ports <= 0 are ignored).
void UsedPorts::Add(const HostPort& port) {
  if (port.port <= 0) return;
  ++entries_[Sanitize(port)];
}

// Mirrors `HostPortInfo.Remove`.
void UsedPorts::Remove(const HostPort& port) {
  if (port.port <= 0) return;
  auto it = entries_.find(Sanitize(port));
  if (it == entries_.end()) return;
  if (--it->second <= 0) entries_.erase(it);
}

void UsedPorts::AddPod(const PodSpec& spec) {
  for (const HostPort& port : spec.host_ports) Add(port);
}

void UsedPorts::RemovePod(const PodSpec& spec) {
  for (const HostPort& port : spec.host_ports) Remove(port);
}

// Mirrors `HostPortInfo.CheckConflict`.
bool UsedPorts::CheckConflict(const HostPort& port) const {
  if (port.port <= 0) return false;
  const auto [ip, protocol, number] = Sanitize(port);
  if (ip == kDefaultBindAllHostIp) {
    // Any address holding the same protocol and port conflicts.
    for (const auto& [key, holders] : entries_) {
      if (std::get<1>(key) == protocol && std::get<2>(key) == number) return true;
    }
    return false;
  }
  return entries_.contains(Key{std::string(kDefaultBindAllHostIp), protocol, number}) ||
         entries_.contains(Key{ip, protocol, number});
}

// Mirrors `fitsPorts` (node_ports.go).
bool FitsPorts(const std::vector<HostPort>& want, const UsedPorts& used) {
  for (const HostPort& port : want) {
    if (used.CheckConflict(port)) return false;
  }
  return true;
}

// Mirrors `NodePorts.Filter`.
FilterResult NodePortsFilter(const std::vector<HostPort>& want, const UsedPorts& used) {
  if (FitsPorts(want, used)) return {};
  return {FilterCode::kUnschedulable, kErrReasonNodePorts};
}

}  // namespace kpsim::plugins
