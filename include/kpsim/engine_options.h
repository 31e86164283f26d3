#pragma once

// The options of a run: the profile, the seed, feature gates, the KubeSchedulerConfiguration
// settings kpsim models and the arrival of pending pods.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/feature_gates.h"
#include "kpsim/sim_time.h"

namespace kpsim {

enum class Profile : std::uint8_t { kDefault, kBook };

// How preemption picks the nodes it dry-runs.
enum class CandidateSampling : std::uint8_t {
  kExact,       // every potential node, in node order (default)
  kKubernetes,  // minCandidateNodesPercentage 10 / minCandidateNodesAbsolute 100, seeded offset
};

// How pending pods without a creationTimestamp arrive (pods with one keep their time).
enum class Arrival : std::uint8_t {
  kTogether,    // all at time 0, as one apply (default)
  kSequential,  // one apply after another in input order, the scheduler settling in between
};

struct EngineOptions {
  Profile profile = Profile::kDefault;
  std::uint64_t seed = 1;
  std::optional<SimDuration> until;  // stop the run at this simulated time
  FeatureGates gates;
  CandidateSampling candidate_sampling = CandidateSampling::kExact;
  int max_attempts = 1000000;  // book profile: the chapter's round cap (--max-attempts)
  // The wall time of simulated time 0. Unset: the earliest creationTimestamp among pending pods;
  // if none, the latest timestamp in the input; if none, the Unix epoch.
  std::optional<WallTime> origin;
  // Disables the engine's dry-run and filter caches (for testing that they change nothing).
  bool disable_caches = false;
  // PostFilter runs (DefaultPreemption enabled). false: no pod preempts, as with DefaultPreemption
  // disabled in the profile; a FailedScheduling message then ends with the fit error (upstream's
  // FitError carries no PostFilter message when no PostFilter plugin ran). `simulate --scale-up`
  // runs its world so (default profile only; the book profile always preempts).
  bool preemption = true;
  // KubeSchedulerConfiguration settings (default profile; the book profile ignores them). The
  // defaults are kube-scheduler's; a KubeSchedulerConfiguration in the input sets them.
  // percentageOfNodesToScore: 0 = adaptive (50 - nodes/125, at least 5), else 1..100.
  std::int32_t percentage_of_nodes_to_score = 0;
  // DefaultPreemptionArgs, used when `candidate_sampling` is kKubernetes.
  std::int32_t min_candidate_nodes_percentage = 10;
  std::int32_t min_candidate_nodes_absolute = 100;
  // podInitialBackoffSeconds / podMaxBackoffSeconds.
  SimDuration pod_initial_backoff = std::chrono::seconds(1);
  SimDuration pod_max_backoff = std::chrono::seconds(10);
  // `--arrival`: `kSequential` replays `kubectl apply` file by file. An apply is one pod, or the
  // consecutive pods of one controller or pod group (`ApplyGroupKey`). The next apply arrives when
  // the scheduler has settled: nothing left to attempt except pods parked unschedulable, and no
  // termination in flight.
  Arrival arrival = Arrival::kTogether;
  // Set (from another thread) to stop the run before its next scheduling attempt; the result then
  // ends with reason "cancelled". `kpsim serve` uses it for its run-time limit. Never read for a
  // decision: a run that is not cancelled is the same with or without it.
  const std::atomic<bool>* cancel = nullptr;
  // The names of the input's Nodes annotated kNodeTemplateAnnotation: node templates, not nodes of
  // the cluster. A pod bound to one's name says so in its reason (BoundToMissingNodeReason; the
  // book profile's reason too).
  std::vector<std::string> node_template_names;
};

// `simulate --scale-up`: how the Cluster Autoscaler picks among node groups (its `--expander`).
enum class Expander : std::uint8_t {
  kLeastWaste,  // least-waste: the least unused cpu and memory on the added nodes
  kMostPods,    // most-pods: the group whose nodes take the most pending pods
  kRandom,      // random, from EngineOptions::seed
};
std::string_view ExpanderName(Expander e);  // "least-waste", "most-pods", "random"

// The autoscaler kpsim runs in the scale-up world (kpsim::SimulateScaleUp).
struct ScaleUpOptions {
  // One node group each: the Node the group's new nodes are copies of (admitted; its name names
  // the group and prefixes the new nodes').
  std::vector<Node> templates;
  SimDuration delay = std::chrono::minutes(2);          // decision to node Ready (provisioning)
  SimDuration scan_interval = std::chrono::seconds(10); // the autoscaler's loop (--scan-interval)
  Expander expander = Expander::kLeastWaste;
  int max_new_nodes = 1000;  // nodes added at most (all groups), like --max-nodes-total
};

}  // namespace kpsim
