#include "kpsim/eviction.h"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

namespace kpsim {
namespace {

struct SignalFacts {
  EvictionSignal signal;
  std::string_view name;
  std::string_view resource;
  std::string_view condition;
  std::string_view taint;
  std::int64_t default_bytes;  // default hard threshold as a quantity (0 = none)
  int default_percent;         // or as a percentage of capacity (0 = none)
};

// evictionapi's signals with signalToResource, signalToNodeCondition and the node lifecycle
// controller's condition taints; the defaults are DefaultEvictionHard (Linux).
constexpr std::array<SignalFacts, 9> kSignals{{
    {EvictionSignal::kMemoryAvailable, "memory.available", "memory", "MemoryPressure",
     "node.kubernetes.io/memory-pressure", 100 * 1024 * 1024, 0},
    {EvictionSignal::kAllocatableMemoryAvailable, "allocatableMemory.available", "memory",
     "MemoryPressure", "node.kubernetes.io/memory-pressure", 0, 0},
    {EvictionSignal::kNodeFsAvailable, "nodefs.available", "ephemeral-storage", "DiskPressure",
     "node.kubernetes.io/disk-pressure", 0, 10},
    {EvictionSignal::kNodeFsInodesFree, "nodefs.inodesFree", "inodes", "DiskPressure",
     "node.kubernetes.io/disk-pressure", 0, 5},
    {EvictionSignal::kImageFsAvailable, "imagefs.available", "ephemeral-storage", "DiskPressure",
     "node.kubernetes.io/disk-pressure", 0, 15},
    {EvictionSignal::kImageFsInodesFree, "imagefs.inodesFree", "inodes", "DiskPressure",
     "node.kubernetes.io/disk-pressure", 0, 5},
    {EvictionSignal::kContainerFsAvailable, "containerfs.available", "ephemeral-storage",
     "DiskPressure", "node.kubernetes.io/disk-pressure", 0, 0},
    {EvictionSignal::kContainerFsInodesFree, "containerfs.inodesFree", "inodes", "DiskPressure",
     "node.kubernetes.io/disk-pressure", 0, 0},
    {EvictionSignal::kPidAvailable, "pid.available", "pids", "PIDPressure",
     "node.kubernetes.io/pid-pressure", 0, 0},
}};

const SignalFacts& Facts(EvictionSignal signal) {
  for (const SignalFacts& f : kSignals) {
    if (f.signal == signal) return f;
  }
  return kSignals[0];
}

bool IsPid(EvictionSignal s) { return s == EvictionSignal::kPidAvailable; }

std::string Amount(EvictionSignal signal, std::int64_t v) {
  const std::string_view resource = EvictionResource(signal);
  if (resource == "memory" || resource == "ephemeral-storage") return FormatBinarySI(v);
  return std::to_string(v);
}

// cmpBool: true first.
int CmpBool(bool a, bool b) {
  if (a == b) return 0;
  return a ? -1 : 1;
}

// The three keys of rankMemoryPressure / rankDiskPressureFunc, or the two of rankPIDPressure.
int Compare(EvictionSignal signal, const RankedPod& a, const RankedPod& b) {
  const EvictionCandidate& p1 = a.candidate;
  const EvictionCandidate& p2 = b.candidate;
  const bool found1 = p1.usage.has_value();
  const bool found2 = p2.usage.has_value();
  if (!IsPid(signal)) {
    // exceedMemoryRequests / exceedDiskRequests: no stats first, then usage above request.
    if (!found1 || !found2) {
      if (int c = CmpBool(!found1, !found2)) return c;
    } else if (int c = CmpBool(a.exceeds_request, b.exceeds_request)) {
      return c;
    }
  }
  // priority: lower first.
  if (p1.priority != p2.priority) return p1.priority < p2.priority ? -1 : 1;
  // memory / disk: the larger usage minus request first; process: more processes first.
  if (!found1 || !found2) return CmpBool(!found1, !found2);
  const std::int64_t d1 = *p1.usage - (IsPid(signal) ? 0 : p1.request);
  const std::int64_t d2 = *p2.usage - (IsPid(signal) ? 0 : p2.request);
  if (d1 != d2) return d1 > d2 ? -1 : 1;
  return 0;
}

std::string Reason(EvictionSignal signal, const RankedPod& r) {
  const EvictionCandidate& c = r.candidate;
  const std::string_view resource = EvictionResource(signal);
  std::string out;
  if (!c.usage && IsPid(signal)) {
    out = fmt::format("priority {}; no process stats (first among pods of its priority)", c.priority);
  } else if (!c.usage) {
    out = fmt::format("no {} stats: the kubelet ranks pods without stats first; priority {}", resource,
                      c.priority);
  } else if (IsPid(signal)) {
    out = fmt::format("priority {}; {} processes", c.priority, *c.usage);
  } else if (r.exceeds_request) {
    out = fmt::format("uses {} of {}, above its request of {} (by {}); priority {}", Amount(signal, *c.usage),
                      resource, Amount(signal, c.request), Amount(signal, *c.usage - c.request), c.priority);
  } else {
    out = fmt::format("uses {} of {}, within its request of {}; priority {}", Amount(signal, *c.usage), resource,
                      Amount(signal, c.request), c.priority);
  }
  if (c.critical) out += "; a critical pod: never evicted (\"cannot evict a critical pod\")";
  return out;
}

// evictionMessage: the node's low resource, then each container using more than it requests.
std::string Message(EvictionSignal signal, const EvictionCandidate& c) {
  const std::string_view resource = EvictionResource(signal);
  std::string out = fmt::format("The node was low on resource: {}. ", resource);
  if (!c.usage || (resource != "memory" && resource != "ephemeral-storage")) return out;
  for (const EvictionCandidate::Container& container : c.containers) {
    if (container.usage > container.request) {
      out += fmt::format("Container {} was using {}, which exceeds its request of {}. ", container.name,
                         Amount(signal, container.usage), Amount(signal, container.request));
    }
  }
  return out;
}

const std::string* Annotation(const Pod& pod, std::string_view key) { return FindLabel(pod.meta.annotations, key); }

}  // namespace

std::optional<EvictionSignal> ParseEvictionSignal(std::string_view name) {
  for (const SignalFacts& f : kSignals) {
    if (f.name == name) return f.signal;
  }
  return std::nullopt;
}

std::string_view EvictionSignalName(EvictionSignal signal) { return Facts(signal).name; }
std::string_view EvictionResource(EvictionSignal signal) { return Facts(signal).resource; }
std::string_view PressureCondition(EvictionSignal signal) { return Facts(signal).condition; }
std::string_view PressureTaintKey(EvictionSignal signal) { return Facts(signal).taint; }

std::optional<std::int64_t> DefaultEvictionThreshold(EvictionSignal signal,
                                                     std::optional<std::int64_t> capacity) {
  const SignalFacts& f = Facts(signal);
  if (f.default_bytes > 0) return f.default_bytes;
  if (f.default_percent > 0 && capacity) return *capacity * f.default_percent / 100;
  return std::nullopt;
}

std::string EvictionSignalNames() {
  std::string out;
  for (const SignalFacts& f : kSignals) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

bool IsCriticalPod(const Pod& pod, std::int32_t priority) {
  if (const std::string* source = Annotation(pod, "kubernetes.io/config.source"); source && *source != "api") {
    return true;  // IsStaticPod
  }
  if (Annotation(pod, "kubernetes.io/config.mirror") != nullptr) return true;  // IsMirrorPod
  return priority >= kSystemCriticalPriority;
}

EvictionCandidate MakeEvictionCandidate(const Pod& pod, std::int32_t priority, EvictionSignal signal,
                                        const PodMetrics* metrics, std::optional<std::int64_t> usage) {
  EvictionCandidate c;
  c.pod = pod.meta.namespace_ + "/" + pod.meta.name;
  c.priority = priority;
  c.critical = IsCriticalPod(pod, priority);
  const std::string_view resource = EvictionResource(signal);
  if (resource == "memory") c.request = pod.spec.requests.memory;
  if (resource == "ephemeral-storage") c.request = pod.spec.requests.ephemeral_storage;
  for (const ContainerRequest& container : pod.spec.containers) {
    if (container.init) continue;  // evictionMessage names the regular containers
    EvictionCandidate::Container out;
    out.name = container.name;
    out.request = resource == "memory" ? container.memory
                  : resource == "ephemeral-storage" ? container.ephemeral_storage
                                                    : 0;
    c.containers.push_back(std::move(out));
  }
  if (usage) {
    c.usage = *usage;
    // Per-container usage unknown: the whole pod's usage goes to a single container.
    if (c.containers.size() == 1) c.containers.front().usage = *usage;
    else c.containers.clear();
  } else if (metrics != nullptr && resource == "memory") {
    std::int64_t total = 0;
    for (const ContainerMetrics& m : metrics->containers) {
      total += m.usage.memory;
      for (EvictionCandidate::Container& container : c.containers) {
        if (container.name == m.name) container.usage = m.usage.memory;
      }
    }
    c.usage = total;
  }
  return c;
}

std::vector<RankedPod> RankForEviction(EvictionSignal signal, std::vector<EvictionCandidate> pods) {
  std::vector<RankedPod> ranked;
  ranked.reserve(pods.size());
  for (EvictionCandidate& c : pods) {
    RankedPod r;
    r.exceeds_request = c.usage && !IsPid(signal) && *c.usage > c.request;
    r.candidate = std::move(c);
    ranked.push_back(std::move(r));
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](const RankedPod& a, const RankedPod& b) { return Compare(signal, a, b) < 0; });
  int order = 0;
  for (RankedPod& r : ranked) {
    if (!r.candidate.critical) r.eviction_order = ++order;
    r.reason = Reason(signal, r);
    r.message = Message(signal, r.candidate);
  }
  return ranked;
}

EvictionReport RankNodeForEviction(const std::vector<Pod>& pods, std::string_view node, EvictionSignal signal,
                                   const std::vector<PodMetrics>& metrics, const std::vector<PodUsage>& usage) {
  EvictionReport report;
  report.node = std::string(node);
  report.signal = signal;
  std::vector<bool> used(usage.size(), false);
  std::vector<EvictionCandidate> candidates;
  for (const Pod& pod : pods) {
    if (pod.spec.node_name != node || pod.meta.deletion_timestamp) continue;
    if (pod.status.phase == "Succeeded" || pod.status.phase == "Failed") continue;
    const std::string key = pod.meta.namespace_ + "/" + pod.meta.name;
    std::optional<std::int64_t> given;
    for (std::size_t i = 0; i < usage.size(); ++i) {
      if (usage[i].pod != key) continue;
      used[i] = true;
      given = usage[i].usage.Value();
    }
    const PodMetrics* found = nullptr;
    for (const PodMetrics& m : metrics) {
      if (m.meta.name == pod.meta.name && m.meta.namespace_ == pod.meta.namespace_) found = &m;
    }
    candidates.push_back(MakeEvictionCandidate(pod, pod.spec.priority.value_or(0), signal, found, given));
  }
  for (std::size_t i = 0; i < usage.size(); ++i) {
    if (!used[i]) report.unused_usage.push_back(usage[i].pod);
  }
  report.ranking = RankForEviction(signal, std::move(candidates));
  return report;
}

}  // namespace kpsim
