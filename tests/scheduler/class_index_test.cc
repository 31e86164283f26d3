// The class index (src/engine/class_index.h) must decide exactly what the per-node path decides.
// Each case runs the same cluster with `EngineOptions::disable_caches` false and true and compares
// the whole SimulationResult (minus the dry-run counter, which caches exist to change). The
// clusters target what the index handles specially: a pod's nomination to its own node among
// equal-class pods, PDB budgets moving while a class is cached, and clusters above 100 nodes
// where numFeasibleNodesToFind stops the search early from a rotating start index.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using kpsim::testing::MakePdb;
using kpsim::testing::MakePod;

// A canonical text of every decision-relevant field of a result.
std::string Dump(const SimulationResult& r) {
  std::ostringstream out;
  out << "end " << r.end_time.time_since_epoch().count() << " " << r.end_reason << "\n";
  for (const SimEvent& e : r.events) {
    out << "E " << e.time.time_since_epoch().count() << " " << EventReasonName(e.reason) << " "
        << e.pod << " " << e.node << " by=" << e.by << " " << e.pdb_violation << " r" << e.round
        << " " << e.message << "\n";
  }
  for (const PodOutcome& p : r.pods) {
    out << "P " << p.pod << " " << PodStateName(p.state) << " " << p.node << " "
        << p.nominated_node << " " << p.replacement_of << " "
        << (p.scheduled_at ? p.scheduled_at->time_since_epoch().count() : -1) << " "
        << (p.deleted_at ? p.deleted_at->time_since_epoch().count() : -1) << " " << p.reason << "\n";
  }
  for (const NodeOutcome& n : r.nodes) {
    out << "N " << n.node << " " << n.requested.milli_cpu << " " << n.requested.pods;
    for (ResultIndex p : n.pods) out << " " << r.PodName(p);
    out << "\n";
  }
  // The decision records: the ranked candidates, the counts and the deciding tie-breaker.
  for (const PreemptionDecision& d : r.decisions) {
    out << "D " << d.round << " " << d.preemptor << " " << d.node << " " << d.decided_by << " "
        << d.candidate_count << " " << d.nodes_evaluated << " :";
    for (const DecisionCandidate& c : d.candidates) out << " " << c.node << "/" << c.pdb_violations;
    out << "\n";
  }
  out << "S " << r.stats.scheduling_attempts << " " << r.stats.preemption_attempts << " "
      << r.stats.pods_scheduled << " " << r.stats.victims << "\n";
  return out.str();
}

// Runs `h`'s cluster on both paths. Expect: identical results. Returns the cached run.
SimulationResult ExpectPathsAgree(CycleHarness& h, const std::string& what) {
  h.options.disable_caches = false;
  const SimulationResult cached = kpsim::Simulate(h.state, h.options);
  h.options.disable_caches = true;
  const SimulationResult plain = kpsim::Simulate(h.state, h.options);
  EXPECT_EQ(Dump(cached), Dump(plain)) << what;
  return cached;
}

int Uniform(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

std::string MilliCpu(int milli) { return std::to_string(milli) + "m"; }

// Setup: 3-5 nodes with low-priority running pods; 6-10 pending pods of one equivalence class
// (same priority and requests), half of them nominated (from the snapshot) to random nodes,
// some to the same node. Expect: both paths agree.
TEST(ClassIndexAgreementTest, NominationsOnThePodsOwnNode) {
  int preemptions = 0;
  for (std::uint32_t seed = 1; seed <= 150; ++seed) {
    std::mt19937 rng(seed);
    CycleHarness h;
    h.options.seed = seed;
    const int nodes = Uniform(rng, 3, 5);
    for (int n = 0; n < nodes; ++n) {
      const std::string node = "node-" + std::to_string(n);
      h.AddNode(NodeWithCpu(node, "4").Build());
      const int running = Uniform(rng, 0, 3);
      for (int i = 0; i < running; ++i) {
        h.AddPod(MakePod(node + "-run-" + std::to_string(i))
                     .Node(node)
                     .Priority(Uniform(rng, 0, 2) * 5)
                     .Cpu(MilliCpu(500 * Uniform(rng, 1, 4)))
                     .GracePeriod(Uniform(rng, 0, 15))
                     .Build());
      }
    }
    const int pending = Uniform(rng, 6, 10);
    for (int i = 0; i < pending; ++i) {
      auto p = MakePod("same-" + std::to_string(i)).Priority(10).Cpu("1500m");
      if (Uniform(rng, 0, 1) == 0) p.NominatedNode("node-" + std::to_string(Uniform(rng, 0, nodes - 1)));
      h.AddPod(p.Build());
    }
    const SimulationResult r = ExpectPathsAgree(h, "seed " + std::to_string(seed));
    preemptions += static_cast<int>(r.stats.victims);
  }
  EXPECT_GT(preemptions, 0) << "the clusters should exercise preemption";
}

// Setup: every node runs app=x pods under one PDB (given status or computed); waves of
// identical preemptors arrive over time, so the budget changes while the class is indexed.
TEST(ClassIndexAgreementTest, PdbBudgetsChangingUnderTheIndex) {
  int violations = 0, clean = 0;
  for (std::uint32_t seed = 1; seed <= 150; ++seed) {
    std::mt19937 rng(seed);
    CycleHarness h;
    h.options.seed = seed;
    const int nodes = Uniform(rng, 2, 5);
    int guarded = 0;
    for (int n = 0; n < nodes; ++n) {
      const std::string node = "node-" + std::to_string(n);
      h.AddNode(NodeWithCpu(node, "2").Build());
      for (int i = 0; i < 2; ++i) {
        auto pod = MakePod(node + "-x-" + std::to_string(i))
                       .Node(node)
                       .Priority(Uniform(rng, 0, 3))
                       .Cpu("1")
                       .GracePeriod(Uniform(rng, 0, 20))
                       .StartTime(SecondsBeforeOrigin(Uniform(rng, 1, 100)));
        if (Uniform(rng, 0, 3) != 0) {
          pod.Label("app", "x");
          ++guarded;
        }
        if (Uniform(rng, 0, 1) == 0) pod.Owner("ReplicaSet", "x");
        h.AddPod(pod.Build());
      }
    }
    auto pdb = MakePdb("pdb").Selector("app", "x");
    if (Uniform(rng, 0, 1) == 0) {
      pdb.MinAvailable(Uniform(rng, 0, guarded));
    } else {
      pdb.MaxUnavailable(Uniform(rng, 0, 2));
    }
    if (Uniform(rng, 0, 1) == 0) pdb.DisruptionsAllowed(Uniform(rng, 0, 2));
    h.AddPdb(pdb.Build());
    const int waves = Uniform(rng, 2, 4);
    for (int w = 0; w < waves; ++w) {
      for (int i = 0; i < 2; ++i) {
        h.AddPod(MakePod("wave-" + std::to_string(w) + "-" + std::to_string(i))
                     .Priority(10)
                     .Cpu("1")
                     .Created(WallTime{kOriginUs + std::int64_t{7'000'000} * w})
                     .Build());
      }
    }
    const SimulationResult r = ExpectPathsAgree(h, "seed " + std::to_string(seed));
    for (const SimEvent& e : r.events) {
      if (e.reason == EventReason::kPreempted) ++(e.pdb_violation ? violations : clean);
    }
  }
  EXPECT_GT(violations, 0) << "the clusters should produce PDB-violating preemptions";
  EXPECT_GT(clean, 0) << "the clusters should produce non-violating preemptions";
}

// Setup: 12-20 nodes, each running two pods of one of several small apps, each app under its own
// PDB (so a budget change invalidates only the nodes of that app's pods, not a full pass), owned
// pods whose replacements come back at the lowest priority (no victim anywhere: the index keeps
// no dry runs), later low-priority pods that bind and give those classes victims again, and
// waves of preemptors. Expect: both paths agree.
TEST(ClassIndexAgreementTest, PerPdbInvalidationAndVictimlessClasses) {
  int violations = 0, preemptions = 0;
  for (std::uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    CycleHarness h;
    h.options.seed = seed;
    const int nodes = Uniform(rng, 12, 20);
    const int apps = Uniform(rng, 4, 7);
    for (int n = 0; n < nodes; ++n) {
      const std::string node = "node-" + std::to_string(n);
      h.AddNode(NodeWithCpu(node, "3").Build());
      for (int i = 0; i < 2; ++i) {
        const std::string app = "app-" + std::to_string(Uniform(rng, 0, apps - 1));
        h.AddPod(MakePod(node + "-" + std::to_string(i))
                     .Node(node)
                     .Priority(Uniform(rng, 1, 2) * 100)
                     .Cpu("1")
                     .Label("app", app)
                     .Owner("ReplicaSet", app)
                     .GracePeriod(Uniform(rng, 0, 15))
                     .StartTime(SecondsBeforeOrigin(Uniform(rng, 1, 100)))
                     .Build());
      }
    }
    for (int a = 0; a < apps; ++a) {
      auto pdb = MakePdb("pdb-" + std::to_string(a)).Selector("app", "app-" + std::to_string(a));
      pdb.MaxUnavailable(Uniform(rng, 0, 1));
      if (Uniform(rng, 0, 1) == 0) pdb.DisruptionsAllowed(Uniform(rng, 0, 1));
      h.AddPdb(pdb.Build());
    }
    const int waves = Uniform(rng, 2, 4);
    for (int w = 0; w < waves; ++w) {
      for (int i = 0; i < Uniform(rng, 2, 5); ++i) {
        h.AddPod(MakePod("wave-" + std::to_string(w) + "-" + std::to_string(i))
                     .Priority(1000)
                     .Cpu(MilliCpu(500 * Uniform(rng, 2, 4)))
                     .Created(WallTime{kOriginUs + std::int64_t{5'000'000} * w})
                     .Build());
      }
      if (Uniform(rng, 0, 1) == 0) {
        h.AddPod(MakePod("low-" + std::to_string(w))
                     .Priority(0)
                     .Cpu("500m")
                     .Created(WallTime{kOriginUs + std::int64_t{5'000'000} * w + 2'000'000})
                     .Build());
      }
    }
    const SimulationResult r = ExpectPathsAgree(h, "seed " + std::to_string(seed));
    for (const SimEvent& e : r.events) {
      if (e.reason != EventReason::kPreempted) continue;
      ++preemptions;
      violations += e.pdb_violation ? 1 : 0;
    }
  }
  EXPECT_GT(preemptions, 0) << "the clusters should exercise preemption";
  EXPECT_GT(violations, 0) << "the clusters should produce PDB-violating preemptions";
}

// Setup: 150-180 nodes (numFeasibleNodesToFind = 100) of varied sizes in 3 zones, and a few
// hundred pending pods of a few classes, so each cycle stops after 100 feasible nodes and the
// next one starts where it stopped. Expect: both paths agree, and pods land beyond the first
// 100 nodes of node order (the start index rotates).
TEST(ClassIndexAgreementTest, ManyNodesWithARotatingStartIndex) {
  for (std::uint32_t seed = 1; seed <= 4; ++seed) {
    std::mt19937 rng(seed);
    CycleHarness h;
    h.options.seed = seed;
    const int nodes = Uniform(rng, 150, 180);
    for (int n = 0; n < nodes; ++n) {
      const std::string node = "node-" + std::to_string(n);
      h.AddNode(NodeWithCpu(node, std::to_string(Uniform(rng, 2, 8)))
                    .Label("topology.kubernetes.io/zone", "z" + std::to_string(n % 3))
                    .Build());
      if (Uniform(rng, 0, 2) == 0) {
        h.AddPod(MakePod(node + "-run").Node(node).Priority(0).Cpu(MilliCpu(500 * Uniform(rng, 1, 3))).Build());
      }
    }
    const int pending = Uniform(rng, 250, 350);
    for (int i = 0; i < pending; ++i) {
      auto p = MakePod("pend-" + std::to_string(i))
                   .Priority(Uniform(rng, 0, 2) * 10)
                   .Cpu(MilliCpu(500 * Uniform(rng, 1, 3)));
      if (Uniform(rng, 0, 9) == 0) p.NominatedNode("node-" + std::to_string(Uniform(rng, 0, nodes - 1)));
      h.AddPod(p.Build());
    }
    const SimulationResult r = ExpectPathsAgree(h, "seed " + std::to_string(seed));
    // Node order is zones round-robin: node-i sits at position i (3 zones, nodes in order).
    std::set<std::string> used;
    for (const SimEvent& e : r.events) {
      if (e.reason == EventReason::kScheduled) used.insert(e.node.string());
    }
    bool beyond_first_hundred = false;
    for (int n = 100; n < nodes; ++n) beyond_first_hundred |= used.count("node-" + std::to_string(n)) > 0;
    EXPECT_TRUE(beyond_first_hundred) << "seed " << seed;
  }
}

// The same clusters with kube-scheduler's candidate sampling (seeded offset, early stop).
TEST(ClassIndexAgreementTest, KubernetesCandidateSampling) {
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    std::mt19937 rng(seed);
    CycleHarness h;
    h.options.seed = seed;
    h.options.candidate_sampling = CandidateSampling::kKubernetes;
    const int nodes = Uniform(rng, 120, 140);
    for (int n = 0; n < nodes; ++n) {
      const std::string node = "node-" + std::to_string(n);
      h.AddNode(NodeWithCpu(node, "2").Build());
      h.AddPod(MakePod(node + "-lo").Node(node).Priority(Uniform(rng, 0, 3)).Cpu("2").GracePeriod(Uniform(rng, 0, 5)).Build());
    }
    for (int i = 0; i < 40; ++i) h.AddPod(MakePod("hi-" + std::to_string(i)).Priority(10).Cpu("1500m").Build());
    ExpectPathsAgree(h, "seed " + std::to_string(seed));
  }
}

// Candidate sampling over the class index (sampling_index.h) against the Evaluator's visit. Setup:
// 30-70 nodes of 2 CPU, each running two 1-CPU pods of mixed priorities, some under PDBs with
// small budgets (candidates violating them or not, in any mix), a small minCandidateNodesAbsolute
// and percentage (so that windows end early, wrap around the node order, or run to the end for
// want of a clean candidate), and waves of preemptors of two classes. Expect: both paths agree,
// decision records included (ranked candidates, candidate counts, nodes evaluated).
TEST(ClassIndexAgreementTest, SampledWindowsOverTheIndex) {
  int found = 0, violating = 0, windows_short = 0;
  for (std::uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    CycleHarness h;
    h.options.seed = seed;
    h.options.candidate_sampling = CandidateSampling::kKubernetes;
    h.options.min_candidate_nodes_percentage = Uniform(rng, 0, 20);
    h.options.min_candidate_nodes_absolute = Uniform(rng, 1, 8);
    const int nodes = Uniform(rng, 30, 70);
    const int apps = Uniform(rng, 1, 4);
    for (int n = 0; n < nodes; ++n) {
      const std::string node = "node-" + std::to_string(n);
      h.AddNode(NodeWithCpu(node, "2").Build());
      for (int i = 0; i < 2; ++i) {
        auto pod = MakePod(node + "-" + std::to_string(i))
                       .Node(node)
                       .Priority(Uniform(rng, 0, 3))
                       .Cpu("1")
                       .GracePeriod(Uniform(rng, 0, 10))
                       .StartTime(SecondsBeforeOrigin(Uniform(rng, 1, 100)));
        if (Uniform(rng, 0, 2) != 0) pod.Label("app", "app-" + std::to_string(Uniform(rng, 0, apps - 1)));
        h.AddPod(pod.Build());
      }
    }
    for (int a = 0; a < apps; ++a) {
      auto pdb = MakePdb("pdb-" + std::to_string(a)).Selector("app", "app-" + std::to_string(a));
      pdb.MaxUnavailable(Uniform(rng, 0, 2));
      h.AddPdb(pdb.Build());
    }
    for (int w = 0; w < Uniform(rng, 2, 4); ++w) {
      for (int i = 0; i < Uniform(rng, 3, 8); ++i) {
        h.AddPod(MakePod("wave-" + std::to_string(w) + "-" + std::to_string(i))
                     .Priority(Uniform(rng, 0, 1) == 0 ? 10 : 20)
                     .Cpu(Uniform(rng, 0, 1) == 0 ? "1" : "2")
                     .Created(WallTime{kOriginUs + std::int64_t{5'000'000} * w})
                     .Build());
      }
    }
    const SimulationResult r = ExpectPathsAgree(h, "seed " + std::to_string(seed));
    for (const PreemptionDecision& d : r.decisions) {
      ++found;
      if (!d.candidates.empty() && d.candidates.front().pdb_violations > 0) ++violating;
      if (d.nodes_evaluated < nodes) ++windows_short;
    }
  }
  EXPECT_GT(found, 0) << "the clusters should preempt";
  EXPECT_GT(violating, 0) << "some picks should violate a PDB (no clean candidate in the window)";
  EXPECT_GT(windows_short, 0) << "some windows should end before the last potential node";
}

}  // namespace
}  // namespace kpsim::engine::test
