#pragma once

// A line-by-line C++ transliteration of the chapter's Go model (orchestration/preemption:
// `Run`, `sortQueue`, `place`, `selectVictims`, `violations`, `countApp`, `preempt`, `better`),
// deliberately naive: it re-sorts the queue every round, scans every pod of every node, and keys
// drop sets by name in a map. It exists only to check `kpsim::book::Simulate` against.
//
// The generalisations are the same as the profile's (see docs/book-profile.md): resources are
// every requested resource plus 1 pod against a declared `pods` allocatable; a pod's identity is
// "ns/name" and ties order by name, then namespace; a budget is a PDB with a label selector in its
// namespace, its minimum resolved against the pods it selects at the start.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/api/types.h"

namespace kpsim::book::testing {

class ReferenceModel {
 public:
  using Resources = std::map<std::string, std::int64_t>;

  struct RefPod {
    std::string ns;
    std::string name;
    std::string key;
    std::string display;
    std::int32_t priority = 0;
    Resources req;
    Labels labels;
  };
  struct Eviction {
    std::string victim;
    std::string by;
    std::string node;
    bool violates = false;
  };
  struct Placement {
    std::string pod;
    std::string node;
  };

  // Builds the cluster as `Submit` would: pods naming a node run there, the rest are queued in
  // input order stable-sorted by creationTimestamp (those without one last).
  explicit ReferenceModel(const ClusterState& state) {
    for (const Node& n : state.nodes) {
      RefNode node;
      node.name = n.meta.name;
      node.capacity = ToResources(n.allocatable);
      if (n.allocatable.pods > 0) node.capacity["pods"] = n.allocatable.pods;
      nodes_.push_back(node);
    }
    std::vector<std::pair<RefPod, std::optional<WallTime>>> pending;
    for (const Pod& p : state.pods) {
      RefPod pod;
      pod.ns = p.meta.namespace_;
      pod.name = p.meta.name;
      pod.key = pod.ns + "/" + pod.name;
      pod.display = pod.ns == "default" ? pod.name : pod.key;
      pod.priority = p.spec.priority.value_or(0);
      pod.req = ToResources(p.spec.requests);
      pod.req["pods"] = 1;
      pod.labels = p.meta.labels;
      if (!p.spec.node_name.empty()) {
        if (RefNode* n = ByName(p.spec.node_name)) n->pods.push_back(pod);
      } else {
        pending.emplace_back(pod, p.meta.creation_timestamp);
      }
    }
    std::stable_sort(pending.begin(), pending.end(), [](const auto& a, const auto& b) {
      if (a.second.has_value() != b.second.has_value()) return a.second.has_value();
      return a.second.has_value() && *a.second < *b.second;
    });
    for (const auto& [pod, created] : pending) {
      ++seq_;
      queue_.push_back({pod, seq_});
    }
    for (const PodDisruptionBudget& pdb : state.pdbs) {
      if (!pdb.selector.has_value() || pdb.selector->IsEmpty()) continue;
      if (!pdb.min_available.has_value() && !pdb.max_unavailable.has_value()) continue;
      Budget budget;
      budget.ns = pdb.meta.namespace_;
      budget.selector = *pdb.selector;
      int expected = 0;
      for (const Pod& p : state.pods) {
        if (p.meta.namespace_ == budget.ns && budget.selector.Matches(p.meta.labels)) ++expected;
      }
      auto scaled = [expected](const IntOrString& v) {
        if (!v.is_percent) return v.value;
        return (v.value * expected + 99) / 100;  // percentages round up
      };
      budget.min = pdb.min_available.has_value() ? scaled(*pdb.min_available)
                                                 : expected - scaled(*pdb.max_unavailable);
      budgets_.push_back(budget);
    }
  }

  // Run: one attempt per round until the queue is empty or `max_rounds` rounds ran.
  void Run(int max_rounds) {
    for (int i = 0; i < max_rounds && !queue_.empty(); i++) {
      SortQueue();
      Queued q = queue_[0];
      queue_.erase(queue_.begin());
      if (Place(q.pod)) continue;
      if (Preempt(q.pod)) continue;
      stuck.push_back(q.pod.key);
      Logf(q.pod.display + " cannot be placed anywhere (and has no one to preempt)");
    }
    cap_reached = !queue_.empty();
  }

  std::vector<Eviction> evictions;
  std::vector<Placement> placements;
  std::vector<std::string> stuck;
  std::vector<std::string> log;
  bool cap_reached = false;

  // The pods on `node` at the end, in bind order ("ns/name").
  std::vector<std::string> PodsOn(const std::string& node) {
    std::vector<std::string> out;
    for (const RefPod& p : ByName(node)->pods) out.push_back(p.key);
    return out;
  }

 private:
  struct RefNode {
    std::string name;
    Resources capacity;
    std::vector<RefPod> pods;

    // free: capacity minus the pods on it, ignoring those in `drop`.
    Resources Free(const std::map<std::string, bool>& drop) const {
      Resources out = capacity;
      for (const RefPod& p : pods) {
        if (drop.count(p.key) > 0 && drop.at(p.key)) continue;
        for (auto& [k, v] : out) {
          auto it = p.req.find(k);
          if (it != p.req.end()) v -= it->second;
        }
      }
      return out;
    }
    void Remove(const std::string& key) {
      for (size_t i = 0; i < pods.size(); i++) {
        if (pods[i].key == key) {
          pods.erase(pods.begin() + static_cast<std::ptrdiff_t>(i));
          return;
        }
      }
    }
  };
  struct Queued {
    RefPod pod;
    std::uint64_t seq = 0;
  };
  struct Budget {
    std::string ns;
    LabelSelector selector;
    int min = 0;
  };
  struct CandidateRef {
    RefNode* node = nullptr;
    std::vector<RefPod> victims;
    int violations = 0;
    std::int32_t top_victim = 0;
  };

  static Resources ToResources(const ResourceList& list) {
    Resources out;
    out["cpu"] = list.milli_cpu;
    out["memory"] = list.memory;
    out["ephemeral-storage"] = list.ephemeral_storage;
    for (const auto& [name, value] : list.scalar) out[name] = value;
    return out;
  }

  static bool Fits(const Resources& req, const Resources& free) {
    for (const auto& [k, v] : req) {
      if (v <= 0) continue;
      auto it = free.find(k);
      std::int64_t have = 0;
      if (it != free.end()) {
        have = it->second;
      } else if (k == "pods") {
        have = std::numeric_limits<std::int64_t>::max();
      }
      if (v > have) return false;
    }
    return true;
  }

  void Logf(std::string message) { log.push_back(std::move(message)); }

  void SortQueue() {
    std::stable_sort(queue_.begin(), queue_.end(), [](const Queued& a, const Queued& b) {
      if (a.pod.priority != b.pod.priority) return a.pod.priority > b.pod.priority;
      return a.seq < b.seq;
    });
  }

  RefNode* ByName(const std::string& name) {
    for (RefNode& n : nodes_) {
      if (n.name == name) return &n;
    }
    return nullptr;
  }

  bool Place(const RefPod& p) {
    std::vector<RefNode*> feasible;
    for (RefNode& n : nodes_) {
      if (Fits(p.req, n.Free({}))) feasible.push_back(&n);
    }
    if (feasible.empty()) return false;
    RefNode* best = feasible[0];
    for (size_t i = 1; i < feasible.size(); i++) {
      RefNode* n = feasible[i];
      const auto n_cpu = n->Free({}).at("cpu");
      const auto best_cpu = best->Free({}).at("cpu");
      if (n_cpu > best_cpu || (n_cpu == best_cpu && n->name < best->name)) best = n;
    }
    best->pods.push_back(p);
    placements.push_back({p.key, best->name});
    Logf(p.display + " (priority " + std::to_string(p.priority) + ") placed on " + best->name);
    return true;
  }

  std::pair<std::vector<RefPod>, bool> SelectVictims(RefNode* n, const RefPod& p) {
    std::map<std::string, bool> drop;
    std::vector<RefPod> lower;
    for (const RefPod& q : n->pods) {
      if (q.priority < p.priority) {
        lower.push_back(q);
        drop[q.key] = true;
      }
    }
    if (!Fits(p.req, n->Free(drop))) return {{}, false};
    std::stable_sort(lower.begin(), lower.end(), [](const RefPod& a, const RefPod& b) {
      if (a.priority != b.priority) return a.priority > b.priority;
      if (a.name != b.name) return a.name < b.name;
      return a.ns < b.ns;
    });
    std::vector<RefPod> victims;
    for (const RefPod& q : lower) {
      drop.erase(q.key);
      if (Fits(p.req, n->Free(drop))) continue;
      drop[q.key] = true;
      victims.push_back(q);
    }
    return {victims, true};
  }

  int Violations(const std::vector<RefPod>& victims) {
    std::map<size_t, int> killed;
    for (const RefPod& v : victims) {
      for (size_t b = 0; b < budgets_.size(); b++) {
        if (Selects(budgets_[b], v)) killed[b]++;
      }
    }
    int total = 0;
    for (const auto& [b, count] : killed) {
      const int left = CountApp(budgets_[b]) - count;
      if (left < budgets_[b].min) total += budgets_[b].min - left;
    }
    return total;
  }

  static bool Selects(const Budget& budget, const RefPod& p) {
    return p.ns == budget.ns && budget.selector.Matches(p.labels);
  }

  int CountApp(const Budget& budget) {
    int n = 0;
    for (const RefNode& nd : nodes_) {
      for (const RefPod& p : nd.pods) {
        if (Selects(budget, p)) n++;
      }
    }
    return n;
  }

  static bool Better(const CandidateRef& a, const CandidateRef& b) {
    if (a.violations != b.violations) return a.violations < b.violations;
    if (a.top_victim != b.top_victim) return a.top_victim < b.top_victim;
    if (a.victims.size() != b.victims.size()) return a.victims.size() < b.victims.size();
    return a.node->name < b.node->name;
  }

  bool Preempt(const RefPod& p) {
    std::optional<CandidateRef> best;
    for (RefNode& n : nodes_) {
      auto [victims, ok] = SelectVictims(&n, p);
      if (!ok || victims.empty()) continue;
      CandidateRef cand{&n, victims, Violations(victims), 0};
      for (const RefPod& v : victims) {
        if (v.priority > cand.top_victim) cand.top_victim = v.priority;
      }
      if (!best.has_value() || Better(cand, *best)) best = cand;
    }
    if (!best.has_value()) return false;
    for (const RefPod& v : best->victims) {
      const bool violates = Violations({v}) > 0;
      best->node->Remove(v.key);
      evictions.push_back({v.key, p.key, best->node->name, violates});
      std::string msg = p.display + " (priority " + std::to_string(p.priority) + ") preempted " +
                        v.display + " (priority " + std::to_string(v.priority) + ") from " +
                        best->node->name;
      if (violates) msg += ", breaking a PodDisruptionBudget";
      Logf(msg);
      seq_++;
      queue_.push_back({v, seq_});
    }
    best->node->pods.push_back(p);
    placements.push_back({p.key, best->node->name});
    Logf(p.display + " placed on " + best->node->name + " (on room made by preemption)");
    return true;
  }

  std::vector<RefNode> nodes_;
  std::vector<Queued> queue_;
  std::uint64_t seq_ = 0;
  std::vector<Budget> budgets_;
};

}  // namespace kpsim::book::testing
