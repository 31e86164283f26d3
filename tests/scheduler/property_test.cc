// Property tests for the `default` profile: hundreds of seeded random clusters go through
// Admit -> Simulate, and the result must satisfy kube-scheduler's invariants whatever the cluster:
// nobody is preempted by an equal or lower priority pod, the scheduler never over-commits a node,
// every input pod is accounted for exactly once, and runs are reproducible (same seed, and with the
// engine's caches switched off).

#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"
#include "framework/observer.h"
#include "kpsim/explain.h"
#include "kpsim/report.h"
#include "sim/simulator.h"
#include "testing/builders.h"

namespace kpsim {
namespace {

using testing::MakeNode;
using testing::MakePdb;
using testing::MakePod;
using testing::MakePriorityClass;
using testing::ToObject;

constexpr int kClusters = 300;

struct Generated {
  std::vector<Object> objects;
};

// A random cluster from `seed`: 1-6 nodes of random capacity in two zones; running pods (which may
// over-commit their node, as real snapshots do) and pending pods with random priorities, requests,
// grace periods 0..30, app labels, some ReplicaSet owners, some host ports and zone spread
// constraints (pending pods only, so the input holds no port conflict); 0-2 PDBs; creation times
// spread over 20 s.
Generated MakeRandomCluster(std::uint32_t seed) {
  std::mt19937 rng(seed);
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Generated out;
  int doc = 0;
  auto add = [&out, &doc](const auto& value) { out.objects.push_back(ToObject(value, ++doc)); };

  // Classes: equal values across classes are deliberate (equal-priority pods must never preempt).
  static constexpr std::int32_t kValues[] = {-10, 0, 10, 10, 100, 500, 1000};
  std::vector<std::string> classes;
  for (std::size_t i = 0; i < std::size(kValues); ++i) {
    const std::string name = "class-" + std::to_string(i);
    add(MakePriorityClass(name).Value(kValues[i]).Build());
    classes.push_back(name);
  }
  add(MakePriorityClass("never").Value(700).PreemptionPolicy(PreemptionPolicy::kNever).Build());
  auto random_class = [&]() -> std::string {
    if (uniform(0, 12) == 0) return "never";
    return classes[static_cast<std::size_t>(uniform(0, static_cast<int>(classes.size()) - 1))];
  };

  const int node_count = uniform(1, 6);
  std::vector<std::string> nodes;
  for (int i = 0; i < node_count; ++i) {
    const std::string name = "node-" + std::to_string(i);
    auto node = MakeNode(name)
                    .Cpu(std::to_string(500 * uniform(2, 8)) + "m")
                    .Memory(std::to_string(uniform(2, 8)) + "Gi")
                    .Pods(uniform(0, 4) == 0 ? uniform(2, 4) : 110)
                    .Label("topology.kubernetes.io/zone", "zone-" + std::to_string(i % 2))
                    .Build();
    add(node);
    nodes.push_back(name);
  }

  static constexpr const char* kApps[] = {"a", "b", "c"};
  const auto base = WallTime::Parse("2024-05-01T12:00:00Z");
  int pod_idx = 0;
  auto random_pod = [&](bool running) {
    auto b = MakePod((running ? "run-" : "pend-") + std::to_string(pod_idx++))
                 .Namespace("default")
                 .PriorityClass(random_class())
                 .Cpu(std::to_string(100 * uniform(1, 15)) + "m")
                 .Label("app", kApps[uniform(0, 2)]);
    if (uniform(0, 3) != 0) b.Memory(std::to_string(64 * uniform(1, 16)) + "Mi");
    if (uniform(0, 2) != 0) b.GracePeriod(uniform(0, 30));
    if (uniform(0, 2) == 0) b.Owner("ReplicaSet", "rs-" + std::string(kApps[uniform(0, 2)]));
    if (running) {
      b.Node(nodes[static_cast<std::size_t>(uniform(0, node_count - 1))]).Phase("Running");
      if (base.ok() && uniform(0, 1) == 0) {
        b.StartTime(WallTime{base->unix_micros - std::int64_t{1'000'000} * uniform(1, 3600)});
      }
    } else {
      if (base.ok() && uniform(0, 1) == 0) {
        b.Created(WallTime{base->unix_micros + std::int64_t{1'000'000} * uniform(0, 20)});
      }
      // NodePorts: a fifth of the pending pods ask for a host port (replacements inherit it).
      if (uniform(0, 4) == 0) b.HostPort(uniform(0, 1) == 0 ? 80 : 443, uniform(0, 3) == 0 ? "UDP" : "TCP");
    }
    Pod pod = b.Build();
    // PodTopologySpread: a fifth of the pending pods spread their app over the zones.
    if (!running && uniform(0, 4) == 0) {
      TopologySpreadConstraint c;
      c.max_skew = uniform(1, 2);
      c.topology_key = "topology.kubernetes.io/zone";
      c.when_unsatisfiable = UnsatisfiableConstraintAction::kDoNotSchedule;
      c.label_selector = LabelSelector{{{"app", *FindLabel(pod.meta.labels, "app")}}, {}};
      pod.spec.topology_spread_constraints.push_back(std::move(c));
    }
    return pod;
  };

  const int running = uniform(0, 3 * node_count + 2);
  for (int i = 0; i < running; ++i) add(random_pod(true));
  const int pdbs = uniform(0, 2);
  for (int i = 0; i < pdbs; ++i) {
    auto b = MakePdb("pdb-" + std::to_string(i))
                 .Namespace("default")
                 .Selector("app", kApps[uniform(0, 2)]);
    if (uniform(0, 1) == 0) {
      b.MinAvailable(uniform(0, 2));
    } else {
      b.MaxUnavailable(uniform(0, 1));
    }
    if (uniform(0, 1) == 0) b.DisruptionsAllowed(uniform(0, 1));
    add(b.Build());
  }
  const int pending = uniform(1, 8);
  for (int i = 0; i < pending; ++i) add(random_pod(false));
  return out;
}

// A canonical dump of every field of a result, for byte-for-byte comparisons. `stats.dry_runs`
// counts work actually done, which caches exist to reduce, so it is left out when
// `include_dry_runs` is false.
std::string Dump(const SimulationResult& r, bool include_dry_runs = true) {
  std::ostringstream out;
  auto res = [&out](const ResourceList& l) {
    out << l.milli_cpu << "," << l.memory << "," << l.ephemeral_storage << "," << l.pods;
    for (const auto& [name, value] : l.scalar) out << "," << name << "=" << value;
  };
  out << "end " << r.end_time.time_since_epoch().count() << " " << r.end_reason << " "
      << r.attempt_cap_reached << " origin " << r.origin.unix_micros << "\n";
  for (const SimEvent& e : r.events) {
    out << "E " << e.time.time_since_epoch().count() << " " << EventReasonName(e.reason) << " "
        << e.pod << " " << e.node << " by=" << e.by << " " << e.by_group << " " << e.pdb_violation
        << " " << e.victim_group << " r" << e.round << " " << e.message << "\n";
  }
  for (const PodOutcome& p : r.pods) {
    out << "P " << p.pod << " " << p.priority << " " << PodStateName(p.state) << " " << p.node
        << " " << p.nominated_node << " " << p.replacement_of << " " << p.pod_group << " "
        << (p.scheduled_at ? p.scheduled_at->time_since_epoch().count() : -1) << " "
        << (p.deleted_at ? p.deleted_at->time_since_epoch().count() : -1) << " " << p.reason
        << "\n";
  }
  for (const NodeOutcome& n : r.nodes) {
    out << "N " << n.node << " ";
    res(n.allocatable);
    out << " ";
    res(n.requested);
    for (ResultIndex p : n.pods) out << " " << r.PodName(p);
    out << "\n";
  }
  out << "S " << r.stats.scheduling_attempts << " " << r.stats.preemption_attempts << " "
      << r.stats.pods_scheduled << " " << r.stats.victims << " "
      << (include_dry_runs ? r.stats.dry_runs : -1) << "\n";
  return out.str();
}

std::string Key(const Pod& pod) { return pod.meta.namespace_ + "/" + pod.meta.name; }

// One simulated random cluster.
struct SimulatedCluster {
  std::uint32_t seed = 0;
  AdmissionResult admission;
  EngineOptions options;
  SimulationResult result;
  std::map<std::string, const Pod*> input_pods;  // points into `admission.state`
};

// Builds and simulates the random cluster of every seed in [1, kClusters].
const std::vector<SimulatedCluster>& SimulatedClusters() {
  static const std::vector<SimulatedCluster>* runs = [] {
    auto* all = new std::vector<SimulatedCluster>(kClusters);
    for (std::uint32_t seed = 1; seed <= kClusters; ++seed) {
      SimulatedCluster& run = (*all)[seed - 1];
      run.seed = seed;
      run.admission = Admit(MakeRandomCluster(seed).objects, FeatureGates{});
      run.options.profile = Profile::kDefault;
      run.options.seed = seed;
      run.result = Simulate(run.admission.state, run.options);
      for (const Pod& pod : run.admission.state.pods) run.input_pods[Key(pod)] = &pod;
    }
    return all;
  }();
  return *runs;
}

// Expect: every Preempted event names a preemptor of strictly higher priority (spec 8.1).
TEST(DefaultProfilePropertyTest, NoPodIsPreemptedByAnEqualOrLowerPriorityPod) {
  for (const SimulatedCluster& run : SimulatedClusters()) {
    SCOPED_TRACE("seed " + std::to_string(run.seed));
    const SimulationResult& result = run.result;
    std::map<std::string, std::int32_t> priority;
    for (const PodOutcome& p : result.pods) priority[p.pod.string()] = p.priority;
    for (const SimEvent& e : result.events) {
      if (e.reason != EventReason::kPreempted) continue;
      ASSERT_TRUE(priority.count(e.pod.string())) << "victim " << e.pod.string() << " not in result.pods";
      ASSERT_TRUE(priority.count(e.by.string())) << "preemptor " << e.by.string() << " not in result.pods";
      EXPECT_LT(priority[e.pod.string()], priority[e.by.string()])
          << e.pod << " preempted by " << e.by << " at " << ToSeconds(e.time) << "s";
    }
  }
}

// Setup: replay the event log on per-node usage: input-bound pods start on their node, Scheduled
// adds a pod's requests, Deleted removes them. Expect: no Scheduled event leaves a resource the
// pod requests above the node's allocatable (only input-bound pods may over-commit, and a pod
// that requests none of an over-committed resource may still land, as in NodeResourcesFit).
TEST(DefaultProfilePropertyTest, SchedulerNeverOverCommitsANode) {
  for (const SimulatedCluster& run : SimulatedClusters()) {
    SCOPED_TRACE("seed " + std::to_string(run.seed));
    const AdmissionResult& admission = run.admission;
    const SimulationResult& result = run.result;
    const auto& input_pods = run.input_pods;
    std::map<std::string, ResourceList> allocatable;
    for (const Node& node : admission.state.nodes) allocatable[node.meta.name] = node.allocatable;
    // Requests by pod, created replacements included (they copy their victim's spec).
    std::map<std::string, ResourceList> requests;
    for (const auto& [key, pod] : input_pods) requests[key] = pod->spec.requests;
    for (const PodOutcome& p : result.pods) {
      if (!p.replacement_of.empty() && requests.count(p.replacement_of.string())) {
        requests[p.pod.string()] = requests[p.replacement_of.string()];
      }
    }
    std::map<std::string, ResourceList> used;
    std::map<std::string, std::string> placed;  // pod -> node
    auto with_pod = [&requests](const std::string& pod) {
      ResourceList r = requests[pod];
      r.pods += 1;
      return r;
    };
    for (const Pod& pod : admission.state.pods) {
      if (pod.spec.node_name.empty()) continue;
      used[pod.spec.node_name] += with_pod(Key(pod));
      placed[Key(pod)] = pod.spec.node_name;
    }
    for (const SimEvent& e : result.events) {
      if (e.reason == EventReason::kScheduled) {
        ASSERT_TRUE(allocatable.count(e.node.string())) << e.pod.string() << " scheduled on unknown node " << e.node.string();
        if (auto it = placed.find(e.pod.string()); it != placed.end()) {
          EXPECT_EQ(it->second, e.node) << e.pod << " scheduled twice on different nodes";
          continue;  // An input-bound pod reported at t=0, or a repeat: already counted.
        }
        ASSERT_TRUE(requests.count(e.pod.string())) << "unknown pod " << e.pod.string() << " scheduled";
        const ResourceList req = with_pod(e.pod.string());
        ResourceList& u = used[e.node.string()];
        u += req;
        placed[e.pod.string()] = e.node.string();
        const ResourceList& a = allocatable[e.node.string()];
        const std::string where =
            e.pod.string() + " on " + e.node.string() + " at " + std::to_string(ToSeconds(e.time));
        if (req.milli_cpu > 0) {
          EXPECT_LE(u.milli_cpu, a.milli_cpu) << "cpu over-committed: " << where;
        }
        if (req.memory > 0) {
          EXPECT_LE(u.memory, a.memory) << "memory over-committed: " << where;
        }
        if (req.ephemeral_storage > 0) {
          EXPECT_LE(u.ephemeral_storage, a.ephemeral_storage)
              << "storage over-committed: " << where;
        }
        EXPECT_LE(u.pods, a.pods) << "pod count over-committed: " << where;
      } else if (e.reason == EventReason::kDeleted) {
        if (auto it = placed.find(e.pod.string()); it != placed.end()) {
          used[it->second] -= with_pod(e.pod.string());
          placed.erase(it);
        }
      }
    }
  }
}

// Expect: the pods running on a node at the end never hold conflicting host ports (only pending
// pods ask for ports, so every holder was placed by the scheduler, which counts terminating pods'
// ports until they are gone).
TEST(DefaultProfilePropertyTest, NoTwoRunningPodsOfANodeHoldConflictingHostPorts) {
  int with_ports = 0;
  for (const SimulatedCluster& run : SimulatedClusters()) {
    std::map<std::string, std::vector<HostPort>> held;  // node -> ports of its running pods
    for (const PodOutcome& p : run.result.pods) {
      if (p.state != PodState::kRunning) continue;
      const auto it = run.input_pods.find(p.pod.string());
      const std::string owner = it != run.input_pods.end() ? p.pod.string() : p.replacement_of.string();
      const auto src = run.input_pods.find(owner);
      if (src == run.input_pods.end()) continue;
      for (const HostPort& port : src->second->spec.host_ports) {
        for (const HostPort& other : held[p.node.string()]) {
          EXPECT_FALSE(other.port == port.port && other.protocol == port.protocol)
              << "seed " << run.seed << ": " << p.pod << " shares " << port.port << "/" << port.protocol
              << " on " << p.node;
        }
        held[p.node.string()].push_back(port);
        ++with_ports;
      }
    }
  }
  EXPECT_GT(with_ports, 20) << "the generator should place pods with host ports";
}

// Expect: every run ends (the generator makes preemption loops: a spread preemptor's victims'
// replacements retake the space); a run that stops on a loop says so with a warning.
TEST(DefaultProfilePropertyTest, EveryRunEndsAndALoopSaysSo) {
  int loops = 0;
  for (const SimulatedCluster& run : SimulatedClusters()) {
    SCOPED_TRACE("seed " + std::to_string(run.seed));
    const SimulationResult& result = run.result;
    const bool warned = std::any_of(result.warnings.begin(), result.warnings.end(),
                                    [](const Warning& w) { return w.code == "PreemptionLoop"; });
    EXPECT_EQ(warned, result.end_reason == "preemption-loop");
    if (warned) ++loops;
    else EXPECT_EQ(result.end_reason, "quiescent");
  }
  EXPECT_GT(loops, 0) << "the generator should make a preemption loop (seed 28 does)";
}

// Expect: result.pods lists every admitted pod exactly once, in input order, before any pod the
// simulation created; created pods are unique too.
TEST(DefaultProfilePropertyTest, EveryInputPodAppearsExactlyOnce) {
  for (const SimulatedCluster& run : SimulatedClusters()) {
    SCOPED_TRACE("seed " + std::to_string(run.seed));
    const AdmissionResult& admission = run.admission;
    const SimulationResult& result = run.result;
    const std::vector<Pod>& input = admission.state.pods;
    ASSERT_GE(result.pods.size(), input.size());
    for (std::size_t i = 0; i < input.size(); ++i) {
      EXPECT_EQ(result.pods[i].pod, Key(input[i])) << "position " << i;
    }
    std::set<std::string> seen;
    for (const PodOutcome& p : result.pods) {
      EXPECT_TRUE(seen.insert(p.pod.string()).second) << p.pod.string() << " listed twice";
    }
    for (std::size_t i = input.size(); i < result.pods.size(); ++i) {
      EXPECT_FALSE(result.pods[i].replacement_of.empty())
          << result.pods[i].pod << " is neither an input pod nor a replacement";
    }
  }
}

// Expect: a victim was running on the node its Preempted event names, and is not running at the
// end.
TEST(DefaultProfilePropertyTest, VictimsRanWhereTheyWerePreemptedAndAreGone) {
  for (const SimulatedCluster& run : SimulatedClusters()) {
    SCOPED_TRACE("seed " + std::to_string(run.seed));
    const AdmissionResult& admission = run.admission;
    const SimulationResult& result = run.result;
    std::map<std::string, std::string> node_of;
    for (const Pod& pod : admission.state.pods) node_of[Key(pod)] = pod.spec.node_name;
    std::set<std::string> victims;
    for (const SimEvent& e : result.events) {
      if (e.reason == EventReason::kScheduled) node_of[e.pod.string()] = e.node.string();
      if (e.reason != EventReason::kPreempted) continue;
      EXPECT_EQ(node_of[e.pod.string()], e.node.string()) << e.pod.string() << " preempted on a node it did not run on";
      victims.insert(e.pod.string());
    }
    for (const PodOutcome& p : result.pods) {
      if (victims.count(p.pod.string())) {
        EXPECT_NE(p.state, PodState::kRunning) << p.pod << " was preempted but ends Running";
        EXPECT_NE(p.state, PodState::kPending) << p.pod << " was preempted but ends Pending";
      }
    }
  }
}

// Expect: the same state and options give the same result, field for field.
TEST(DefaultProfilePropertyTest, SameInputAndSeedGiveIdenticalResults) {
  for (const SimulatedCluster& run : SimulatedClusters()) {
    SCOPED_TRACE("seed " + std::to_string(run.seed));
    const AdmissionResult& admission = run.admission;
    const EngineOptions& options = run.options;
    const SimulationResult& result = run.result;
    EXPECT_EQ(Dump(result), Dump(Simulate(admission.state, options)));
  }
}

// Expect: the dry-run and filter caches change no decision, event or outcome; they only save
// dry runs.
TEST(DefaultProfilePropertyTest, DisablingCachesChangesNothing) {
  for (const SimulatedCluster& run : SimulatedClusters()) {
    SCOPED_TRACE("seed " + std::to_string(run.seed));
    EngineOptions no_caches = run.options;
    no_caches.disable_caches = true;
    const SimulationResult uncached = Simulate(run.admission.state, no_caches);
    EXPECT_EQ(Dump(run.result, /*include_dry_runs=*/false),
              Dump(uncached, /*include_dry_runs=*/false));
    EXPECT_LE(run.result.stats.dry_runs, uncached.stats.dry_runs);
  }
}

// Expect: admission accepted the whole generated cluster (else the properties test less).
TEST(DefaultProfilePropertyTest, GeneratedClusterIsAdmitted) {
  for (const SimulatedCluster& run : SimulatedClusters()) {
    SCOPED_TRACE("seed " + std::to_string(run.seed));
    const AdmissionResult& admission = run.admission;
    for (const AdmissionOutcome& o : admission.outcomes) {
      EXPECT_TRUE(o.admitted) << o.name << ": " << o.message;
    }
  }
}

// Expect: the generator exercises what the properties are about (preemption, PDB-violating
// evictions, replacements, pods left pending), so no property holds vacuously.
TEST(DefaultProfilePropertyTest, GeneratedClustersExercisePreemption) {
  int preempted = 0, violating = 0, replacements = 0, pending = 0;
  for (const SimulatedCluster& run : SimulatedClusters()) {
    for (const SimEvent& e : run.result.events) {
      preempted += e.reason == EventReason::kPreempted;
      violating += e.reason == EventReason::kPreempted && e.pdb_violation;
    }
    for (const PodOutcome& p : run.result.pods) {
      pending += p.state == PodState::kPending;
      replacements += !p.replacement_of.empty();
    }
  }
  std::printf("%d preemptions (%d PDB-violating), %d replacements, %d pods left pending\n",
              preempted, violating, replacements, pending);
  EXPECT_GE(preempted, kClusters / 2);
  EXPECT_GE(violating, 5);
  EXPECT_GE(replacements, 20);
  EXPECT_GE(pending, 50);
}

// Records the diagnosis of every attempt of a run.
class EveryAttempt final : public engine::CycleObserver {
 public:
  struct Seen {
    engine::Attempt::Outcome outcome;
    ExplainResult explained;
  };
  bool Observes(const engine::Attempt& /*attempt*/, engine::ExplainDetail& detail) override {
    detail = engine::ExplainDetail::kFull;
    return true;
  }
  void OnExplained(const engine::Attempt& attempt, ExplainResult explained) override {
    seen.push_back(Seen{attempt.outcome, std::move(explained)});
  }
  std::vector<Seen> seen;
};

// Expect: explaining every attempt of a run leaves the run as it is (the diagnosis changes no
// state a later decision reads), and each explained decision is the one the run applied: the
// node it bound the pod to, the victims it preempted and the node it nominated, or the
// FailedScheduling message it logged. And `explain --attempt N` of each round explains the same.
TEST(DefaultProfilePropertyTest, ExplainedDecisionIsTheSimulatedOne) {
  int explained_attempts = 0, explained_preemptions = 0;
  for (const SimulatedCluster& run : SimulatedClusters()) {
    SCOPED_TRACE("seed " + std::to_string(run.seed));
    EngineOptions options = run.options;
    options.origin = run.result.origin;
    EveryAttempt observer;
    const SimulationResult observed = engine::Simulate(run.admission.state, options, &observer);
    EXPECT_EQ(Dump(run.result), Dump(observed));
    for (const EveryAttempt::Seen& seen : observer.seen) {
      const ExplainResult& e = seen.explained;
      SCOPED_TRACE("round " + std::to_string(e.round) + " pod " + e.pod);
      ++explained_attempts;
      std::vector<std::string> preempted;
      std::string scheduled_on, nominated_to;
      bool logged = false;
      for (const SimEvent& ev : run.result.events) {
        if (ev.reason == EventReason::kPreempted && ev.round == e.round) preempted.push_back(ev.pod.string());
        if (ev.pod != e.pod) continue;
        if (ev.reason == EventReason::kScheduled && ev.round == e.round) scheduled_on = ev.node;
        if (ev.reason == EventReason::kNominated && ev.round == e.round) nominated_to = ev.node;
        // Repeated FailedScheduling events are aggregated into the first (EventCorrelate).
        if (ev.reason == EventReason::kFailedScheduling && ev.round <= e.round && ev.message == e.message) {
          logged = true;
        }
      }
      switch (seen.outcome) {
        case engine::Attempt::Outcome::kBind:
          ASSERT_TRUE(e.fits_node.has_value());
          EXPECT_EQ(*e.fits_node, scheduled_on);
          EXPECT_TRUE(preempted.empty());
          break;
        case engine::Attempt::Outcome::kPreempt: {
          ++explained_preemptions;
          ASSERT_TRUE(e.chosen.has_value());
          EXPECT_EQ(e.chosen->node, nominated_to);
          std::vector<std::string> chosen = e.chosen->victims;
          std::sort(chosen.begin(), chosen.end());
          std::sort(preempted.begin(), preempted.end());
          // Victims already terminating are not deleted again, so no Preempted event.
          EXPECT_TRUE(std::includes(chosen.begin(), chosen.end(), preempted.begin(), preempted.end()));
          EXPECT_TRUE(logged) << e.message;
          break;
        }
        case engine::Attempt::Outcome::kFail:
          EXPECT_FALSE(e.chosen.has_value());
          EXPECT_TRUE(preempted.empty());
          EXPECT_TRUE(logged) << e.message;
          break;
      }
      if (e.round % 3 == 0) {  // a third of the rounds through the public entry point
        ExplainQuery query;
        query.pod = e.pod;
        query.round = e.round;
        Expected<ExplainResult> again = Explain(run.admission.state, run.options, query);
        ASSERT_TRUE(again.ok()) << again.error().message;
        EXPECT_EQ(report::RenderExplainJson(*again, {}), report::RenderExplainJson(e, {}));
      }
    }
  }
  std::printf("%d attempts explained, %d of them preemptions\n", explained_attempts, explained_preemptions);
  EXPECT_GE(explained_preemptions, kClusters / 2);
}

}  // namespace
}  // namespace kpsim
