#pragma once

// The book model's cluster state, built once from an admitted `ClusterState` and then mutated by
// the chapter's rounds (place, preempt, evict). It keeps the aggregates that let the model answer
// exactly as the chapter's Go code (`orchestration/preemption`) without its full scans:
// - per node: free resources, the pods sorted by (priority desc, name, namespace), and the sum of
//   requests per priority, so "free with every lower-priority pod removed" costs O(distinct
//   priorities);
// - per PodDisruptionBudget: the number of running pods it selects, kept current on every bind and
//   eviction, so `Violations` costs O(victims);
// - an index of nodes by (free CPU desc, node name), so `place` stops at the first node that fits.
//
// The chapter's model has no node affinity, taints, ports or any filter but resources: a pod fits
// a node iff every resource it requests is free there. kpsim keeps that simplification (see
// docs/book-profile.md).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/api/types.h"
#include "kpsim/shared_string.h"

namespace kpsim::book::internal {

// Resource amounts over the cluster's dimensions: 0 cpu (milli), 1 memory, 2 ephemeral-storage,
// 3 pods, then extended resources in name order.
using Amounts = std::vector<std::int64_t>;

inline constexpr int kDimCpu = 0;
inline constexpr int kDimMemory = 1;
inline constexpr int kDimEphemeral = 2;
inline constexpr int kDimPods = 3;
inline constexpr int kFixedDims = 4;

struct PodRec {
  std::string ns;
  std::string name;
  SharedString key;     // "ns/name", the name in events and outcomes (their shared text)
  std::string display;  // "name" in namespace default, else "ns/name": the name in messages
  std::int32_t priority = 0;
  Amounts request;        // includes the implicit 1 at `kDimPods`
  int request_class = 0;  // equal requests share a class (dense id)
  std::vector<int> pdbs;  // indices of the PDBs selecting this pod
  int node = -1;          // the node it runs on, -1 when not running
};

struct NodeRec {
  SharedString name;  // shared with the events and outcomes that name it
  int name_rank = 0;  // rank of `name` among all node names (the chapter's tie-breaker)
  Amounts allocatable;
  Amounts free;  // allocatable minus the requests of the pods on it (negative when over-committed)
  // INVARIANT: sorted by `VictimOrderLess` (priority desc, name, namespace).
  std::vector<int> pods_by_priority;
  std::vector<int> bind_order;  // the pods on it, in the order they were bound
  // Sum of requests and number of pods per priority, over the pods on the node.
  std::map<std::int32_t, std::pair<Amounts, int>> requests_by_priority;
  std::uint64_t version = 0;  // bumped on every change of its pods
};

struct PdbRec {
  std::string key;  // "ns/name"
  int min_available = 0;
  int running = 0;  // running pods it selects, on every node
};

// The outcome of the chapter's `selectVictims` for one node.
struct VictimSelection {
  bool feasible = false;        // fits with every lower-priority pod removed
  std::vector<int> victims;     // in the order they were chosen (priority desc, name, namespace)
  std::int32_t top_victim = 0;  // the chapter's topVictim: starts at 0
  bool touches_pdb = false;     // some victim is selected by a PDB
};

// One step of the put-back loop (for explain).
struct PutBackStep {
  int pod = -1;
  bool reprieved = false;
  Amounts free_after;
  std::optional<std::string> insufficient;  // why it could not be put back
};

class BookState {
 public:
  // Builds the state at time 0: pods with `spec.node_name` on a known node are bound there (in
  // input order, over-commit allowed); PDB minimums are resolved against the matching pods.
  explicit BookState(const ClusterState& state);

  int pod_count() const { return static_cast<int>(pods_.size()); }
  int node_count() const { return static_cast<int>(nodes_.size()); }
  int pdb_count() const { return static_cast<int>(pdbs_.size()); }
  const PodRec& pod(int idx) const { return pods_[static_cast<size_t>(idx)]; }
  const NodeRec& node(int idx) const { return nodes_[static_cast<size_t>(idx)]; }
  const PdbRec& pdb(int idx) const { return pdbs_[static_cast<size_t>(idx)]; }
  // Whether input pod `idx` named a node (bound from the start, never queued).
  bool IsPrebound(int idx) const { return !pod_spec_node_[static_cast<size_t>(idx)].empty(); }
  const std::string& SpecNodeName(int idx) const {
    return pod_spec_node_[static_cast<size_t>(idx)];
  }
  // The pending pods in the chapter's entry order: input order, stable-sorted by
  // creationTimestamp (pods without one after those with one).
  std::vector<int> InitialQueue() const;
  // Returns the pod index for "ns/name" or "name" (namespace default), or -1.
  int FindPod(std::string_view ref) const;
  int resource_dims() const { return dims_; }
  // Number of resource removals so far (evictions); used to memoise failed attempts.
  std::uint64_t removal_generation() const { return removal_generation_; }

  // True iff every resource `request` asks for (> 0) is at most `free`.
  static bool Fits(const Amounts& request, const Amounts& free);
  // Kubernetes-style reason for the first resource that does not fit ("Too many pods",
  // "Insufficient cpu", ...), or nullopt when it fits.
  std::optional<std::string> FirstInsufficient(const Amounts& request, const Amounts& free) const;
  ResourceList ToResourceList(const Amounts& amounts) const;

  // The chapter's `place`: among nodes where `pod` fits, the one with most free CPU, ties by node
  // name. Returns -1 when it fits nowhere.
  int FindPlacement(int pod) const;
  // The chapter's `selectVictims(n, p)`. Fills `steps` (when not null) with the put-back trace.
  VictimSelection SelectVictims(int node, int pod, std::vector<PutBackStep>* steps = nullptr) const;
  // Free resources on `node` with every pod of priority < `priority` removed.
  Amounts FreeWithLowerRemoved(int node, std::int32_t priority) const;
  // The chapter's `violations(victims)`, against the current running counts.
  int Violations(const std::vector<int>& victims) const;

  void Bind(int pod, int node);
  void Evict(int pod);

 private:
  bool VictimOrderLess(int a, int b) const;
  void ReindexFreeCpu(int node, std::int64_t old_free_cpu);

  int dims_ = kFixedDims;
  std::vector<std::string> scalar_names_;  // dims kFixedDims.. in order
  std::vector<PodRec> pods_;
  std::vector<std::string> pod_spec_node_;
  std::vector<std::optional<WallTime>> pod_created_;
  std::vector<NodeRec> nodes_;
  std::vector<PdbRec> pdbs_;
  // (-free cpu, name rank) -> node index: nodes by free CPU desc, then name.
  std::map<std::pair<std::int64_t, int>, int> by_free_cpu_;
  std::uint64_t removal_generation_ = 0;
};

}  // namespace kpsim::book::internal
