#include "book/book_state.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string_view>

namespace kpsim::book::internal {
namespace {

// A node that declares no `pods` allocatable never limits the pod count.
constexpr std::int64_t kUnlimitedPods = std::numeric_limits<std::int64_t>::max() / 4;

// Kubernetes' `GetScaledValueFromIntOrPercent(value, total, roundUp=true)`.
int ScaledRoundUp(const IntOrString& value, int total) {
  if (!value.is_percent) return value.value;
  const std::int64_t scaled = static_cast<std::int64_t>(value.value) * total;
  return static_cast<int>((scaled + 99) / 100);
}

std::string NamespaceOf(const ObjectMeta& meta) {
  return meta.namespace_.empty() ? std::string("default") : meta.namespace_;
}

}  // namespace

BookState::BookState(const ClusterState& state) {
  // 1) Resource dimensions: the fixed four, then every extended resource named anywhere.
  std::set<std::string> scalars;
  for (const Node& node : state.nodes) {
    for (const auto& [name, value] : node.allocatable.scalar) scalars.insert(name);
  }
  for (const Pod& pod : state.pods) {
    for (const auto& [name, value] : pod.spec.requests.scalar) scalars.insert(name);
  }
  scalar_names_.assign(scalars.begin(), scalars.end());
  dims_ = kFixedDims + static_cast<int>(scalar_names_.size());
  auto to_amounts = [this](const ResourceList& list) {
    Amounts out(static_cast<size_t>(dims_), 0);
    out[kDimCpu] = list.milli_cpu;
    out[kDimMemory] = list.memory;
    out[kDimEphemeral] = list.ephemeral_storage;
    out[kDimPods] = list.pods;
    for (const auto& [name, value] : list.scalar) {
      auto it = std::lower_bound(scalar_names_.begin(), scalar_names_.end(), name);
      out[static_cast<size_t>(kFixedDims + (it - scalar_names_.begin()))] = value;
    }
    return out;
  };

  // 2) Nodes, with their rank by name.
  nodes_.reserve(state.nodes.size());
  std::map<std::string, int> node_by_name;
  for (const Node& node : state.nodes) {
    NodeRec rec;
    rec.name = node.meta.name;
    rec.allocatable = to_amounts(node.allocatable);
    if (rec.allocatable[kDimPods] <= 0) rec.allocatable[kDimPods] = kUnlimitedPods;
    rec.free = rec.allocatable;
    node_by_name.emplace(rec.name, static_cast<int>(nodes_.size()));
    nodes_.push_back(std::move(rec));
  }
  {
    int rank = 0;
    for (const auto& [name, idx] : node_by_name)
      nodes_[static_cast<size_t>(idx)].name_rank = rank++;
  }
  for (int node_idx = 0; node_idx < node_count(); ++node_idx) {
    const NodeRec& rec = nodes_[static_cast<size_t>(node_idx)];
    by_free_cpu_.emplace(std::make_pair(-rec.free[kDimCpu], rec.name_rank), node_idx);
  }

  // 3) Pods, with interned request classes.
  std::map<Amounts, int> classes;
  pods_.reserve(state.pods.size());
  for (const Pod& pod : state.pods) {
    PodRec rec;
    rec.ns = NamespaceOf(pod.meta);
    rec.name = pod.meta.name;
    rec.key = rec.ns + "/" + rec.name;
    rec.display = rec.ns == "default" ? rec.name : rec.key.str();
    rec.priority = pod.spec.priority.value_or(0);
    rec.request = to_amounts(pod.spec.requests);
    rec.request[kDimPods] = 1;
    rec.request_class =
        classes.emplace(rec.request, static_cast<int>(classes.size())).first->second;
    pods_.push_back(std::move(rec));
    pod_spec_node_.push_back(pod.spec.node_name);
    pod_created_.push_back(pod.meta.creation_timestamp);
  }

  // 4) PDBs: minimums resolved against the pods they select at the start (pending included).
  for (const PodDisruptionBudget& pdb : state.pdbs) {
    if (!pdb.selector.has_value() || pdb.selector->IsEmpty()) continue;  // policy/v1: none
    if (!pdb.min_available.has_value() && !pdb.max_unavailable.has_value()) continue;
    const int pdb_idx = static_cast<int>(pdbs_.size());
    const std::string ns = NamespaceOf(pdb.meta);
    int expected = 0;
    for (size_t pod_idx = 0; pod_idx < state.pods.size(); ++pod_idx) {
      if (pods_[pod_idx].ns != ns || !pdb.selector->Matches(state.pods[pod_idx].meta.labels)) {
        continue;
      }
      pods_[pod_idx].pdbs.push_back(pdb_idx);
      ++expected;
    }
    PdbRec rec;
    rec.key = ns + "/" + pdb.meta.name;
    rec.min_available = pdb.min_available.has_value()
                            ? ScaledRoundUp(*pdb.min_available, expected)
                            : expected - ScaledRoundUp(*pdb.max_unavailable, expected);
    pdbs_.push_back(std::move(rec));
  }

  // 5) Bind the pods that name a node.
  for (int pod_idx = 0; pod_idx < pod_count(); ++pod_idx) {
    const std::string& node_name = pod_spec_node_[static_cast<size_t>(pod_idx)];
    if (node_name.empty()) continue;
    auto it = node_by_name.find(node_name);
    if (it != node_by_name.end()) Bind(pod_idx, it->second);
  }
}

std::vector<int> BookState::InitialQueue() const {
  std::vector<int> queue;
  for (int pod_idx = 0; pod_idx < pod_count(); ++pod_idx) {
    if (!IsPrebound(pod_idx)) queue.push_back(pod_idx);
  }
  std::stable_sort(queue.begin(), queue.end(), [this](int a, int b) {
    const auto& ta = pod_created_[static_cast<size_t>(a)];
    const auto& tb = pod_created_[static_cast<size_t>(b)];
    if (ta.has_value() != tb.has_value()) return ta.has_value();
    return ta.has_value() && *ta < *tb;
  });
  return queue;
}

int BookState::FindPod(std::string_view ref) const {
  std::string key(ref);
  if (key.find('/') == std::string::npos) key = "default/" + key;
  for (int pod_idx = 0; pod_idx < pod_count(); ++pod_idx) {
    if (pods_[static_cast<size_t>(pod_idx)].key == key) return pod_idx;
  }
  return -1;
}

bool BookState::Fits(const Amounts& request, const Amounts& free) {
  for (size_t dim = 0; dim < request.size(); ++dim) {
    if (request[dim] > 0 && request[dim] > free[dim]) return false;
  }
  return true;
}

std::optional<std::string> BookState::FirstInsufficient(const Amounts& request,
                                                        const Amounts& free) const {
  // NodeResourcesFit's order: pods, cpu, memory, ephemeral-storage, extended.
  if (request[kDimPods] > free[kDimPods]) return std::string("Too many pods");
  static constexpr std::string_view kFixedNames[] = {"cpu", "memory", "ephemeral-storage"};
  for (int dim = 0; dim < dims_; ++dim) {
    if (dim == kDimPods) continue;
    const auto d = static_cast<size_t>(dim);
    if (request[d] > 0 && request[d] > free[d]) {
      const std::string name = dim < kFixedDims
                                   ? std::string(kFixedNames[d])
                                   : scalar_names_[static_cast<size_t>(dim - kFixedDims)];
      return "Insufficient " + name;
    }
  }
  return std::nullopt;
}

ResourceList BookState::ToResourceList(const Amounts& amounts) const {
  ResourceList out;
  out.milli_cpu = amounts[kDimCpu];
  out.memory = amounts[kDimMemory];
  out.ephemeral_storage = amounts[kDimEphemeral];
  // A node without a `pods` allocatable has an unlimited count: reported as 0 (untracked).
  out.pods = amounts[kDimPods] > kUnlimitedPods / 2 ? 0 : amounts[kDimPods];
  for (size_t idx = 0; idx < scalar_names_.size(); ++idx) {
    const std::int64_t value = amounts[kFixedDims + idx];
    if (value != 0) out.scalar.emplace_back(scalar_names_[idx], value);
  }
  return out;
}

int BookState::FindPlacement(int pod) const {
  // Mirrors `place`: most free CPU wins, ties by name; the index is in exactly that order, so the
  // first node that fits is the answer, and no node with less free CPU than requested can fit.
  const Amounts& request = pods_[static_cast<size_t>(pod)].request;
  for (const auto& [key, node_idx] : by_free_cpu_) {
    if (request[kDimCpu] > 0 && -key.first < request[kDimCpu]) break;
    if (Fits(request, nodes_[static_cast<size_t>(node_idx)].free)) return node_idx;
  }
  return -1;
}

Amounts BookState::FreeWithLowerRemoved(int node, std::int32_t priority) const {
  const NodeRec& rec = nodes_[static_cast<size_t>(node)];
  Amounts free = rec.free;
  for (const auto& [prio, sum] : rec.requests_by_priority) {
    if (prio >= priority) break;
    for (size_t dim = 0; dim < free.size(); ++dim) free[dim] += sum.first[dim];
  }
  return free;
}

VictimSelection BookState::SelectVictims(int node, int pod, std::vector<PutBackStep>* steps) const {
  // Mirrors `selectVictims` (orchestration/preemption): remove every lower-priority pod; if the
  // preemptor still does not fit the node is no candidate; otherwise put the pods back from the
  // highest priority down (ties by name), sparing each one that can go back.
  VictimSelection out;
  const PodRec& preemptor = pods_[static_cast<size_t>(pod)];
  Amounts free = FreeWithLowerRemoved(node, preemptor.priority);
  if (!Fits(preemptor.request, free)) return out;
  out.feasible = true;
  const NodeRec& rec = nodes_[static_cast<size_t>(node)];
  // `pods_by_priority` is in put-back order; the lower-priority pods are its tail.
  auto first_lower = std::partition_point(
      rec.pods_by_priority.begin(), rec.pods_by_priority.end(),
      [&](int q) { return pods_[static_cast<size_t>(q)].priority >= preemptor.priority; });
  for (auto it = first_lower; it != rec.pods_by_priority.end(); ++it) {
    const PodRec& q = pods_[static_cast<size_t>(*it)];
    for (size_t dim = 0; dim < free.size(); ++dim) free[dim] -= q.request[dim];
    PutBackStep step;
    step.pod = *it;
    if (Fits(preemptor.request, free)) {
      step.reprieved = true;
    } else {
      if (steps != nullptr) step.insufficient = FirstInsufficient(preemptor.request, free);
      for (size_t dim = 0; dim < free.size(); ++dim) free[dim] += q.request[dim];
      out.victims.push_back(*it);
      out.top_victim = std::max(out.top_victim, q.priority);
      out.touches_pdb = out.touches_pdb || !q.pdbs.empty();
    }
    if (steps != nullptr) {
      step.free_after = free;
      steps->push_back(std::move(step));
    }
  }
  return out;
}

int BookState::Violations(const std::vector<int>& victims) const {
  // Mirrors `violations`: per budget, its running pods minus its victims, below its minimum.
  std::vector<std::pair<int, int>> killed;  // (pdb, victims it selects); victims are few
  for (int victim : victims) {
    for (int pdb : pods_[static_cast<size_t>(victim)].pdbs) {
      auto it = std::find_if(killed.begin(), killed.end(),
                             [pdb](const auto& entry) { return entry.first == pdb; });
      if (it == killed.end()) {
        killed.emplace_back(pdb, 1);
      } else {
        ++it->second;
      }
    }
  }
  int total = 0;
  for (const auto& [pdb, count] : killed) {
    const PdbRec& rec = pdbs_[static_cast<size_t>(pdb)];
    const int left = rec.running - count;
    if (left < rec.min_available) total += rec.min_available - left;
  }
  return total;
}

bool BookState::VictimOrderLess(int a, int b) const {
  const PodRec& pa = pods_[static_cast<size_t>(a)];
  const PodRec& pb = pods_[static_cast<size_t>(b)];
  if (pa.priority != pb.priority) return pa.priority > pb.priority;
  if (pa.name != pb.name) return pa.name < pb.name;
  return pa.ns < pb.ns;
}

void BookState::ReindexFreeCpu(int node, std::int64_t old_free_cpu) {
  NodeRec& rec = nodes_[static_cast<size_t>(node)];
  by_free_cpu_.erase(std::make_pair(-old_free_cpu, rec.name_rank));
  by_free_cpu_.emplace(std::make_pair(-rec.free[kDimCpu], rec.name_rank), node);
}

void BookState::Bind(int pod, int node) {
  PodRec& p = pods_[static_cast<size_t>(pod)];
  NodeRec& rec = nodes_[static_cast<size_t>(node)];
  const std::int64_t old_free_cpu = rec.free[kDimCpu];
  for (size_t dim = 0; dim < rec.free.size(); ++dim) rec.free[dim] -= p.request[dim];
  auto pos = std::lower_bound(rec.pods_by_priority.begin(), rec.pods_by_priority.end(), pod,
                              [this](int a, int b) { return VictimOrderLess(a, b); });
  rec.pods_by_priority.insert(pos, pod);
  rec.bind_order.push_back(pod);
  auto& [sum, count] = rec.requests_by_priority[p.priority];
  if (sum.empty()) sum.assign(static_cast<size_t>(dims_), 0);
  for (size_t dim = 0; dim < sum.size(); ++dim) sum[dim] += p.request[dim];
  ++count;
  ++rec.version;
  p.node = node;
  for (int pdb : p.pdbs) ++pdbs_[static_cast<size_t>(pdb)].running;
  ReindexFreeCpu(node, old_free_cpu);
}

void BookState::Evict(int pod) {
  PodRec& p = pods_[static_cast<size_t>(pod)];
  const int node = p.node;
  NodeRec& rec = nodes_[static_cast<size_t>(node)];
  const std::int64_t old_free_cpu = rec.free[kDimCpu];
  for (size_t dim = 0; dim < rec.free.size(); ++dim) rec.free[dim] += p.request[dim];
  rec.pods_by_priority.erase(
      std::find(rec.pods_by_priority.begin(), rec.pods_by_priority.end(), pod));
  rec.bind_order.erase(std::find(rec.bind_order.begin(), rec.bind_order.end(), pod));
  auto entry = rec.requests_by_priority.find(p.priority);
  for (size_t dim = 0; dim < entry->second.first.size(); ++dim) {
    entry->second.first[dim] -= p.request[dim];
  }
  if (--entry->second.second == 0) rec.requests_by_priority.erase(entry);
  ++rec.version;
  p.node = -1;
  for (int pdb : p.pdbs) --pdbs_[static_cast<size_t>(pdb)].running;
  ++removal_generation_;
  ReindexFreeCpu(node, old_free_cpu);
}

}  // namespace kpsim::book::internal
