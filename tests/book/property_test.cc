// Property tests: `book::Simulate` against the naive transliteration of the chapter's Go model
// (reference_model.h) on hundreds of seeded random clusters, plus the model's invariants checked by
// replaying the event stream on a third, independent state.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "book/book.h"
#include "book/book_builders.h"
#include "book/reference_model.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"

namespace kpsim::book {
namespace {

using testing::Int;
using testing::MakeNode;
using testing::MakePdb;
using testing::MakePod;
using testing::Percent;
using testing::ReferenceModel;

struct RandomCase {
  ClusterState state;
  int max_attempts = 1000;
};

// A small random cluster. Names are shuffled so that name order, input order and creation order
// all differ; priorities include negative and equal values; some pods share a name across
// namespaces; nodes sometimes over-commit, declare a pod limit, or carry an extended resource.
// With `replicas`, pods come in sets of identical replicas (namespace, priority, requests, label
// and creation time), so that runs of preemptors with one key meet, in the runner, the candidate
// index that such runs keep (`CandidateIndex`), with PDBs over the replicas they preempt.
RandomCase MakeRandomCase(std::uint32_t seed, bool replicas = false) {
  std::mt19937 rng(seed);
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  RandomCase out;
  std::vector<std::string> node_names = {"node-a", "node-b", "node-c", "node-d",
                                         "node-e", "node-f", "node-g", "node-h"};
  std::shuffle(node_names.begin(), node_names.end(), rng);
  const int node_count = replicas ? uniform(2, 6) : uniform(1, 4);
  for (int i = 0; i < node_count; ++i) {
    Node node = MakeNode(node_names[static_cast<size_t>(i)], 100 * uniform(5, 16),
                         uniform(0, 1) == 1 ? 1024 * uniform(2, 8) : 0,
                         uniform(0, 3) == 0 ? uniform(1, 5) : 0);
    if (uniform(0, 4) == 0) node.allocatable.scalar.emplace_back("example.com/gpu", uniform(1, 2));
    out.state.nodes.push_back(node);
  }
  static constexpr int kPriorities[] = {-5, 0, 0, 10, 10, 10, 20, 50, 100, 100};
  static constexpr const char* kApps[] = {"a", "b", "c"};
  std::vector<std::string> pod_names;
  for (int i = 0; i < 16; ++i) pod_names.push_back("p" + std::to_string(10 + i));
  std::shuffle(pod_names.begin(), pod_names.end(), rng);
  std::set<std::string> used;
  if (replicas) {
    const int sets = uniform(3, 6);
    for (int set = 0; set < sets; ++set) {
      const std::string ns = uniform(0, 5) == 0 ? "team" : "default";
      const std::int32_t priority = kPriorities[uniform(0, 9)];
      const std::int64_t milli_cpu = 100 * uniform(1, 6);
      const std::int64_t memory = uniform(0, 2) == 0 ? 1024 * uniform(1, 3) : 0;
      const std::string app = kApps[uniform(0, 2)];
      const int created = uniform(0, 2) == 0 ? uniform(1, 5) : 0;
      const int count = uniform(2, 8);
      const int bound_in_four = uniform(0, 4);  // how many of four replicas start bound
      for (int i = 0; i < count; ++i) {
        auto pod = MakePod("r" + std::to_string(set) + "-" + std::to_string(i))
                       .Namespace(ns)
                       .Priority(priority)
                       .MilliCpu(milli_cpu)
                       .Label("app", app);
        if (memory > 0) pod.Memory(memory);
        if (created > 0) pod.Created(created);
        if (uniform(1, 4) <= bound_in_four) {
          pod.Node(out.state.nodes[static_cast<size_t>(uniform(0, node_count - 1))].meta.name);
        }
        out.state.pods.push_back(pod.Build());
      }
    }
  } else {
    const int pod_count = uniform(3, 16);
    for (int i = 0; i < pod_count; ++i) {
      const std::string ns = uniform(0, 3) == 0 ? "team" : "default";
      const std::string name = pod_names[static_cast<size_t>(uniform(0, 15))];
      if (!used.insert(ns + "/" + name).second) continue;
      auto pod = MakePod(name).Namespace(ns).Priority(kPriorities[uniform(0, 9)]);
      pod.MilliCpu(100 * uniform(uniform(0, 5) == 0 ? 0 : 1, 9));
      if (uniform(0, 2) == 0) pod.Memory(1024 * uniform(0, 4));
      if (uniform(0, 6) == 0) pod.Scalar("example.com/gpu", 1);
      if (uniform(0, 3) != 0) pod.Label("app", kApps[uniform(0, 2)]);
      if (uniform(0, 2) == 0) pod.Created(uniform(1, 5));
      if (uniform(0, 4) < 3) {
        pod.Node(out.state.nodes[static_cast<size_t>(uniform(0, node_count - 1))].meta.name);
      }
      out.state.pods.push_back(pod.Build());
    }
  }
  const int pdb_count = uniform(0, 3);
  for (int i = 0; i < pdb_count; ++i) {
    const std::string app = kApps[uniform(0, 2)];
    const std::string ns = uniform(0, 4) == 0 ? "team" : "default";
    switch (uniform(0, 2)) {
      case 0:
        out.state.pdbs.push_back(
            MakePdb("b" + std::to_string(i), "app", app, Int(uniform(1, 3)), std::nullopt, ns));
        break;
      case 1:
        out.state.pdbs.push_back(MakePdb("b" + std::to_string(i), "app", app,
                                         Percent(25 * uniform(1, 4)), std::nullopt, ns));
        break;
      default:
        out.state.pdbs.push_back(MakePdb("b" + std::to_string(i), "app", app, std::nullopt,
                                         uniform(0, 1) ? Int(uniform(0, 2)) : Percent(50), ns));
        break;
    }
  }
  out.max_attempts = uniform(0, 5) == 0 ? uniform(0, 6) : 200;
  return out;
}

SimulationResult RunBook(const RandomCase& c) {
  EngineOptions options;
  options.profile = Profile::kBook;
  options.max_attempts = c.max_attempts;
  options.origin = WallTime{};
  return book::Simulate(c.state, options);
}

// What a batch of random cases exercised: the comparison is only worth something if these all
// happen.
struct Coverage {
  int evictions = 0, violating = 0, cascades = 0, stuck = 0, capped = 0;
  // Preemptions that read the candidate index (the third or later preemption attempt in a row
  // with one (priority, requests): the second builds it), and those of them that took a node
  // whose victims a PDB selects (a node the index ranks anew at every attempt).
  int indexed = 0, indexed_pdb_node = 0;
};

// `book::Simulate` against the reference model on one case: the same evictions, placements, stuck
// pods, messages, cap and final nodes.
void ExpectSameAsReference(const RandomCase& c, Coverage& coverage) {
  const SimulationResult result = RunBook(c);
  ReferenceModel reference(c.state);
  reference.Run(c.max_attempts);

  std::vector<std::string> evictions, placements, stuck, messages;
  for (const SimEvent& e : result.events) {
    messages.push_back(e.message.string());
    if (e.reason == EventReason::kPreempted) {
      evictions.push_back(e.pod.string() + " by " + e.by.string() + " on " + e.node.string() +
                          (e.pdb_violation ? " violating" : ""));
    } else if (e.reason == EventReason::kScheduled) {
      placements.push_back(e.pod.string() + " on " + e.node.string());
    } else if (e.reason == EventReason::kFailedScheduling) {
      stuck.push_back(e.pod.string());
    }
  }
  std::vector<std::string> ref_evictions, ref_placements;
  for (const auto& e : reference.evictions) {
    ref_evictions.push_back(e.victim + " by " + e.by + " on " + e.node +
                            (e.violates ? " violating" : ""));
  }
  for (const auto& p : reference.placements) ref_placements.push_back(p.pod + " on " + p.node);
  ASSERT_EQ(evictions, ref_evictions);
  ASSERT_EQ(placements, ref_placements);
  ASSERT_EQ(stuck, reference.stuck);
  ASSERT_EQ(messages, reference.log);
  ASSERT_EQ(result.attempt_cap_reached, reference.cap_reached);
  for (const NodeOutcome& node : result.nodes) {
    std::vector<std::string> names;
    for (ResultIndex p : node.pods) names.push_back(result.PodName(p).string());
    ASSERT_EQ(names, reference.PodsOn(node.node.string())) << node.node.string();
  }
  coverage.evictions += static_cast<int>(evictions.size());
  coverage.stuck += static_cast<int>(stuck.size());
  coverage.capped += result.attempt_cap_reached ? 1 : 0;
  std::set<std::string> victims;
  for (const SimEvent& e : result.events) {
    if (e.reason != EventReason::kPreempted) continue;
    coverage.violating += e.pdb_violation ? 1 : 0;
    coverage.cascades += victims.count(e.by.string()) > 0 ? 1 : 0;
    victims.insert(e.pod.string());
  }
  // Every preemption attempt ends in a decision or a FailedScheduling event (which may also be a
  // memoised failure that never reached preempt: counting it as a break only undercounts).
  std::map<std::int64_t, const PreemptionDecision*> attempts;  // round -> decision, or null
  for (const PreemptionDecision& d : result.decisions) attempts[d.round] = &d;
  for (const SimEvent& e : result.events) {
    if (e.reason == EventReason::kFailedScheduling) attempts.emplace(e.round, nullptr);
  }
  const Pod* previous = nullptr;
  int run = 0;  // attempts in a row with `previous`'s key
  for (const auto& [round, decision] : attempts) {
    const Pod* pod = decision == nullptr ? nullptr : &c.state.pods[static_cast<size_t>(decision->preemptor)];
    const bool same = pod != nullptr && previous != nullptr && pod->spec.priority == previous->spec.priority &&
                      pod->spec.requests == previous->spec.requests;
    run = same ? run + 1 : 1;
    previous = pod;
    if (run < 3) continue;
    ++coverage.indexed;
    coverage.indexed_pdb_node += decision->pdbs.empty() ? 0 : 1;
  }
}

TEST(BookPropertyTest, MatchesTheChaptersModelOnRandomClusters) {
  Coverage coverage;
  for (std::uint32_t seed = 1; seed <= 800; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_NO_FATAL_FAILURE(ExpectSameAsReference(MakeRandomCase(seed), coverage));
  }
  EXPECT_GT(coverage.evictions, 400);
  EXPECT_GT(coverage.violating, 40);
  EXPECT_GT(coverage.cascades, 10);
  EXPECT_GT(coverage.stuck, 100);
  EXPECT_GT(coverage.capped, 10);
}

TEST(BookPropertyTest, MatchesTheChaptersModelOnReplicaSets) {
  Coverage coverage;
  for (std::uint32_t seed = 1; seed <= 1000; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_NO_FATAL_FAILURE(ExpectSameAsReference(MakeRandomCase(seed, /*replicas=*/true), coverage));
  }
  EXPECT_GT(coverage.evictions, 1200);
  EXPECT_GT(coverage.violating, 180);
  EXPECT_GT(coverage.indexed, 120);
  EXPECT_GT(coverage.indexed_pdb_node, 40);
}

// An independent replay state: the pods on each node and their requests, from the input.
class Replay {
 public:
  explicit Replay(const ClusterState& state) {
    for (const Node& n : state.nodes) nodes_[n.meta.name] = n.allocatable;
    for (const Pod& p : state.pods) {
      const std::string key = p.meta.namespace_ + "/" + p.meta.name;
      pods_[key] = &p;
      if (!p.spec.node_name.empty() && nodes_.count(p.spec.node_name) > 0) {
        on_node_[p.spec.node_name].insert(key);
      }
    }
  }

  // Whether `pod` fits on `node` with the extra pods `minus` removed and `plus` added.
  bool FitsWith(const std::string& pod, const std::string& node) const {
    const ResourceList& alloc = nodes_.at(node);
    ResourceList used;
    for (const std::string& key :
         on_node_.count(node) ? on_node_.at(node) : std::set<std::string>{}) {
      used += pods_.at(key)->spec.requests;
      used.pods += 1;
    }
    const ResourceList& req = pods_.at(pod)->spec.requests;
    auto ok = [](std::int64_t want, std::int64_t have) { return want <= 0 || want <= have; };
    if (alloc.pods > 0 && used.pods + 1 > alloc.pods) return false;
    if (!ok(req.milli_cpu, alloc.milli_cpu - used.milli_cpu)) return false;
    if (!ok(req.memory, alloc.memory - used.memory)) return false;
    if (!ok(req.ephemeral_storage, alloc.ephemeral_storage - used.ephemeral_storage)) return false;
    for (const auto& [name, value] : req.scalar) {
      if (!ok(value, alloc.Scalar(name) - used.Scalar(name))) return false;
    }
    return true;
  }

  void Add(const std::string& pod, const std::string& node) { on_node_[node].insert(pod); }
  void Remove(const std::string& pod, const std::string& node) { on_node_[node].erase(pod); }
  std::int32_t PriorityOf(const std::string& pod) const {
    return pods_.at(pod)->spec.priority.value_or(0);
  }
  bool IsOn(const std::string& pod, const std::string& node) const {
    return on_node_.count(node) > 0 && on_node_.at(node).count(pod) > 0;
  }

 private:
  std::map<std::string, ResourceList> nodes_;
  std::map<std::string, const Pod*> pods_;
  std::map<std::string, std::set<std::string>> on_node_;
};

TEST(BookPropertyTest, VictimsAreLowerPriorityAndMinimalForTheChosenNode) {
  for (std::uint32_t seed = 1; seed <= 800; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const RandomCase c = MakeRandomCase(seed);
    const SimulationResult result = RunBook(c);
    Replay replay(c.state);
    std::vector<std::pair<std::string, std::string>> batch;  // (victim, node) of one preemption
    for (const SimEvent& e : result.events) {
      if (e.reason == EventReason::kPreempted) {
        ASSERT_TRUE(replay.IsOn(e.pod.string(), e.node.string())) << e.pod.string();
        ASSERT_LT(replay.PriorityOf(e.pod.string()), replay.PriorityOf(e.by.string()))
            << e.by << " evicted an equal or higher priority pod " << e.pod;
        replay.Remove(e.pod.string(), e.node.string());
        batch.emplace_back(e.pod, e.node);
        continue;
      }
      if (e.reason != EventReason::kScheduled) continue;
      // With the whole batch gone the pod fits; putting any single victim back breaks the fit.
      ASSERT_TRUE(replay.FitsWith(e.pod.string(), e.node.string())) << e.pod.string() << " on " << e.node.string();
      for (const auto& [victim, node] : batch) {
        ASSERT_EQ(node, e.node);
        replay.Add(victim, node);
        EXPECT_FALSE(replay.FitsWith(e.pod.string(), e.node.string()))
            << "victim " << victim << " was not needed for " << e.pod;
        replay.Remove(victim, node);
      }
      batch.clear();
      replay.Add(e.pod.string(), e.node.string());
    }
    ASSERT_TRUE(batch.empty());
  }
}

}  // namespace
}  // namespace kpsim::book
