#pragma once

// The kubelet's node-pressure eviction ranking (pkg/kubelet/eviction: helpers.go's rank functions,
// eviction_manager.go's synchronize and evictPod). Not preemption: it ignores PodDisruptionBudgets
// and grace periods, but it is priority-aware. `kpsim evict` prints the ranking; `simulate` runs it
// for a Scenario's pressure step.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim {

// The eviction signals (evictionapi.Signal) and what each one measures a pod by.
enum class EvictionSignal : std::uint8_t {
  kMemoryAvailable,             // memory.available
  kAllocatableMemoryAvailable,  // allocatableMemory.available
  kNodeFsAvailable,             // nodefs.available
  kNodeFsInodesFree,            // nodefs.inodesFree
  kImageFsAvailable,            // imagefs.available
  kImageFsInodesFree,           // imagefs.inodesFree
  kContainerFsAvailable,        // containerfs.available
  kContainerFsInodesFree,       // containerfs.inodesFree
  kPidAvailable,                // pid.available
};

// The signal named `name`, or nullopt (the kubelet's "unsupported eviction signal").
std::optional<EvictionSignal> ParseEvictionSignal(std::string_view name);
std::string_view EvictionSignalName(EvictionSignal signal);
// The resource a pod's usage and request are compared in: "memory", "ephemeral-storage",
// "inodes" or "pids" (signalToResource).
std::string_view EvictionResource(EvictionSignal signal);
// The node condition the signal raises ("MemoryPressure", "DiskPressure", "PIDPressure") and the
// NoSchedule taint the node lifecycle controller puts on for it (TaintNodesByCondition).
std::string_view PressureCondition(EvictionSignal signal);
std::string_view PressureTaintKey(EvictionSignal signal);
// The kubelet's default hard threshold for the signal (memory.available<100Mi, nodefs.available<10%,
// nodefs.inodesFree<5%, imagefs.available<15%; none for the others): a quantity, or a percentage
// of `capacity` when known. nullopt when there is no default.
std::optional<std::int64_t> DefaultEvictionThreshold(EvictionSignal signal, std::optional<std::int64_t> capacity);
// The list of names, for messages: "memory.available, nodefs.available, ...".
std::string EvictionSignalNames();

// kubelettypes.IsCriticalPod: a static pod (annotation kubernetes.io/config.source other than
// "api"), a mirror pod (annotation kubernetes.io/config.mirror), or priority >= 2000000000
// (system-cluster-critical). The eviction manager never evicts one ("cannot evict a critical pod").
bool IsCriticalPod(const Pod& pod, std::int32_t priority);

// One pod of the node, as the ranking sees it.
struct EvictionCandidate {
  std::string pod;  // "ns/name"
  std::int32_t priority = 0;
  bool critical = false;
  std::int64_t request = 0;           // of the signal's resource; 0 for pids
  std::optional<std::int64_t> usage;  // of the signal's resource; nullopt = no stats
  // Per container, for the eviction message (memory and ephemeral-storage only).
  struct Container {
    std::string name;
    std::int64_t usage = 0;
    std::int64_t request = 0;
  };
  std::vector<Container> containers;
};

// A candidate at its place in the ranking.
struct RankedPod {
  EvictionCandidate candidate;
  bool exceeds_request = false;  // usage above request (false without stats, and for pids)
  std::optional<int> eviction_order;  // 1-based among the pods the kubelet would evict; none if critical
  std::string reason;   // why it is at this place, for a person
  std::string message;  // the Evicted event's message (evictionMessage)
};

// Orders `pods` as the kubelet does for `signal`: memory (rankMemoryPressure) and disk
// (rankDiskPressureFunc): pods without stats first, then usage above request, then lower priority,
// then the larger usage minus request; pid (rankPIDPressure): lower priority, then more processes.
// Go's sort.Sort is not stable; kpsim keeps input order among equal pods.
std::vector<RankedPod> RankForEviction(EvictionSignal signal, std::vector<EvictionCandidate> pods);

// The candidate for `pod` (of priority `priority`) under `signal`, its usage from `metrics` (a
// metrics API PodMetrics; nullptr = no stats) or from `usage` when given (a Scenario step's).
EvictionCandidate MakeEvictionCandidate(const Pod& pod, std::int32_t priority, EvictionSignal signal,
                                        const PodMetrics* metrics, std::optional<std::int64_t> usage);

// A node's ranking, what `kpsim evict` prints.
struct EvictionReport {
  std::string node;
  EvictionSignal signal = EvictionSignal::kMemoryAvailable;
  std::vector<RankedPod> ranking;
  std::vector<std::string> unused_usage;  // PodUsage entries naming no pod of the node
};

// The pods the eviction manager considers on `node` (bound to it, not terminating, not Succeeded
// or Failed; `spec.priority` as admitted), ranked under `signal`. Usage: `usage` entries first
// ("ns/name"), else the pod's PodMetrics (memory signals only), else none.
EvictionReport RankNodeForEviction(const std::vector<Pod>& pods, std::string_view node, EvictionSignal signal,
                                   const std::vector<PodMetrics>& metrics, const std::vector<PodUsage>& usage);

}  // namespace kpsim
