#include "snapshot/host_ports.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace kpsim::engine {

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
  if (port.port <= 0 || entries_.empty()) return false;
  const Key key = Sanitize(port);
  const auto& [ip, protocol, number] = key;
  if (ip == kDefaultBindAllHostIp) {
    // Any address holding the same protocol and port conflicts. (The lambda reads `key`, not the
    // bindings: clang before 16 cannot capture structured bindings.)
    return std::any_of(entries_.begin(), entries_.end(), [&key](const auto& entry) {
      return std::get<1>(entry.first) == std::get<1>(key) && std::get<2>(entry.first) == std::get<2>(key);
    });
  }
  return entries_.contains(Key{std::string(kDefaultBindAllHostIp), protocol, number}) || entries_.contains(key);
}

bool UsedPorts::ConflictsWithAny(const std::vector<HostPort>& want) const {
  return std::any_of(want.begin(), want.end(), [&](const HostPort& port) { return CheckConflict(port); });
}

}  // namespace kpsim::engine
