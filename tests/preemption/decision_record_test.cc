// Unit tests for the decision record of each preemption (`PreemptionDecision`): the chosen node
// and the deciding tie-breaker on each criterion of pickOneNodeForPreemption, the candidates in
// table order, the PDBs with disruptionsAllowed before and after, the caps, the same record on
// the class-index and the per-node path, pod groups and the book profile.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "book/book.h"
#include "kpsim/api/types.h"
#include "kpsim/results.h"
#include "preemption/decision_record.h"
#include "scheduler/framework.h"
#include "sim/simulator.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using namespace kpsim::engine::id_literals;  // NOLINT(google-build-using-namespace)

using kpsim::testing::MakePdb;
using kpsim::testing::MakePod;
using kpsim::testing::MakePodGroup;
using Names = std::vector<std::string>;

// The names behind a record's indices (ResultIndex): a SimulationResult's (the public way), or
// the model's during a cycle (the engine's ids are the result's indices).
struct NameSource {
  std::function<std::string(ResultIndex)> pod, node, group, pdb;
  static NameSource Of(const SimulationResult& r) {
    return {[&r](ResultIndex i) { return r.PodName(i).string(); }, [&r](ResultIndex i) { return r.NodeName(i).string(); },
            [&r](ResultIndex i) { return r.GroupName(i); }, [&r](ResultIndex i) { return r.PdbName(i); }};
  }
  static NameSource Of(const ClusterModel& m) {
    // The record's indices are the model's ids; an unknown one fails the test, not the process.
    auto at = [](const auto& v, auto id) -> const auto& {
      if (!v.contains(id)) throw std::out_of_range("no such id in the model");
      return v[id];
    };
    return {[&m, at](ResultIndex i) { return at(m.pods(), PodId(i)).key.string(); },
            [&m, at](ResultIndex i) { return at(m.nodes(), NodeId(i)).name.string(); },
            [&m, at](ResultIndex i) { return at(m.groups(), GroupId(i)).key; },
            [&m, at](ResultIndex i) { return at(m.pdbs(), PdbId(i)).key; }};
  }
  std::string Node(ResultIndex i) const { return i == kNoIndex ? std::string() : node(i); }
  Names Pods(const std::vector<ResultIndex>& ids) const {
    Names out;
    for (ResultIndex id : ids) out.push_back(pod(id));
    return out;
  }
};

// A record with its names resolved, as the renderers show it.
struct Named {
  struct Candidate {
    std::string node;
    Names victims;
    std::int64_t victim_count = 0;
    int pdb_violations = 0;
    std::vector<TieBreakerValue> tie_breakers;
  };
  struct Pdb {
    std::string name;
    std::int32_t allowed_before = 0, allowed_after = 0;
    Names victims;
  };
  struct Unit {
    std::string kind, name;
    Names pods;
    std::int32_t priority = 0;
    std::string why;
  };
  std::int64_t round = 0;
  SimTime time{};
  std::string preemptor, pod_group, node;
  Names victims;
  std::string decided_by, decided_by_label;
  std::vector<Candidate> candidates;
  std::int64_t candidate_count = 0, nodes_evaluated = 0;
  std::vector<Pdb> pdbs;
  std::vector<Unit> units;
  std::vector<std::pair<std::string, std::string>> nominations;

  static Named Of(const PreemptionDecision& d, const NameSource& n) {
    Named out;
    out.round = d.round;
    out.time = d.time;
    out.preemptor = d.preemptor != kNoIndex ? n.pod(d.preemptor) : n.group(d.pod_group);
    if (d.pod_group != kNoIndex) out.pod_group = n.group(d.pod_group);
    out.node = n.Node(d.node);
    out.victims = n.Pods(d.victims);
    out.decided_by = std::string(d.decided_by);
    out.decided_by_label = std::string(d.decided_by_label);
    for (const DecisionCandidate& c : d.candidates) {
      const TieBreakerValues values = c.tie_breakers();
      out.candidates.push_back({n.node(c.node), n.Pods(c.victims), c.victim_count, c.pdb_violations,
                                {values.begin(), values.end()}});
    }
    out.candidate_count = d.candidate_count;
    out.nodes_evaluated = d.nodes_evaluated;
    for (const DecisionPdb& p : d.pdbs) {
      out.pdbs.push_back({n.pdb(p.pdb), p.allowed_before, p.allowed_after, n.Pods(p.victims)});
    }
    for (const DecisionUnit& u : d.units) {
      const Names pods = n.Pods(u.pods);
      out.units.push_back({"", u.group == kNoIndex ? pods.at(0) : n.group(u.group), pods, u.priority, u.why});
    }
    for (const auto& [pod, node] : d.nominations) out.nominations.emplace_back(n.pod(pod), n.node(node));
    return out;
  }
};

// Every field of a record, for comparing two records whole.
std::string Dump(const Named& d) {
  std::ostringstream out;
  out << d.round << ' ' << d.time.time_since_epoch().count() << ' ' << d.preemptor << ' '
      << d.pod_group << ' ' << d.node << " [";
  for (const auto& v : d.victims) out << v << ',';
  out << "] " << d.decided_by << '/' << d.decided_by_label << ' ' << d.candidate_count << ' '
      << d.nodes_evaluated << '\n';
  for (const Named::Candidate& c : d.candidates) {
    out << "  " << c.node << ' ' << c.victim_count << ' ' << c.pdb_violations << " [";
    for (const auto& v : c.victims) out << v << ',';
    out << "]";
    for (const TieBreakerValue& t : c.tie_breakers) out << ' ' << t.id << '=' << t.value << (t.is_time ? "t" : "");
    out << '\n';
  }
  for (const Named::Pdb& p : d.pdbs) {
    out << "  pdb " << p.name << ' ' << p.allowed_before << "->" << p.allowed_after << " [";
    for (const auto& v : p.victims) out << v << ',';
    out << "]\n";
  }
  for (const Named::Unit& u : d.units) {
    out << "  unit " << u.kind << ' ' << u.name << ' ' << u.priority << ' ' << u.why << '\n';
  }
  for (const auto& [pod, node] : d.nominations) out << "  nominate " << pod << ' ' << node << '\n';
  return out.str();
}

// The named record of a simulation's decision `i`, with the unit kinds the result gives.
Named NamedDecision(const SimulationResult& r, std::size_t i) {
  const PreemptionDecision& d = r.decisions.at(i);
  Named out = Named::Of(d, NameSource::Of(r));
  for (std::size_t u = 0; u < d.units.size(); ++u) out.units[u].kind = std::string(r.UnitKind(d.units[u]));
  return out;
}

class DecisionRecordTest : public EngineTest {
 protected:
  // The record of `p`'s cycle; expects a preemption on `node` decided by `decided_by`, with
  // `runner_up` (if any) as the second candidate.
  Named ExpectDecision(const std::string& node, const std::string& decided_by,
                       const std::string& runner_up = "") {
    const Decision d = Decide("p");
    EXPECT_EQ(d.kind, Decision::Kind::kPreempt) << d.message;
    EXPECT_TRUE(d.record.has_value());
    if (!d.record) return {};
    EXPECT_EQ(d.record->pod_group, kNoIndex);
    const Named r = Named::Of(*d.record, NameSource::Of(model()));
    EXPECT_EQ(r.preemptor, "default/p");
    EXPECT_EQ(r.node, node);
    EXPECT_EQ(NodeName(d.node), node);
    EXPECT_EQ(r.decided_by, decided_by);
    EXPECT_EQ(r.victims, Victims(d));
    EXPECT_FALSE(r.candidates.empty());
    if (r.candidates.empty()) return r;
    EXPECT_EQ(r.candidates[0].node, node);
    const std::size_t shown = std::min(r.victims.size(), PreemptionDecision::kDecisionVictimsShown);
    EXPECT_EQ(r.candidates[0].victims, Names(r.victims.begin(), r.victims.begin() + static_cast<std::ptrdiff_t>(shown)));
    for (const Named::Candidate& c : r.candidates) {
      EXPECT_EQ(c.tie_breakers.size(), kTieBreakers.size());
      for (std::size_t i = 0; i < kTieBreakers.size() && i < c.tie_breakers.size(); ++i) {
        EXPECT_EQ(c.tie_breakers[i].id, kTieBreakers[i].id);
      }
    }
    if (!runner_up.empty()) {
      EXPECT_GE(r.candidates.size(), 2u);
      if (r.candidates.size() >= 2) {
        EXPECT_EQ(r.candidates[1].node, runner_up);
      }
    }
    // The label is explain's decided_by.
    const ExplainResult trace = Trace("p");
    EXPECT_TRUE(trace.chosen.has_value());
    if (trace.chosen) {
      EXPECT_EQ(trace.chosen->decided_by, r.decided_by_label);
    }
    return r;
  }
  static std::int64_t ValueOf(const Named::Candidate& c, std::string_view id) {
    for (const TieBreakerValue& t : c.tie_breakers) {
      if (t.id == id) return t.value;
    }
    ADD_FAILURE() << "no tie-breaker " << id;
    return 0;
  }
};

TEST_F(DecisionRecordTest, OnlyCandidate) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddNode(NodeWithCpu("b", "1").Build());
  AddPod(MakePod("va").Node("a").Priority(100).Cpu("1").Build());
  AddPod(MakePod("vb").Node("b").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const Named r = ExpectDecision("b", "onlyCandidate");
  EXPECT_EQ(r.candidates.size(), 1u);
  EXPECT_EQ(r.candidate_count, 1);
  EXPECT_EQ(r.nodes_evaluated, 2);  // both nodes were dry-run; a's has no victim
  EXPECT_TRUE(r.pdbs.empty());
}

TEST_F(DecisionRecordTest, PdbViolationsDecide) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddNode(NodeWithCpu("b", "1").Build());
  AddPod(MakePod("va").Node("a").Priority(1).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("vb").Node("b").Priority(5).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  AddPdb(MakePdb("pdb").MinAvailable(1).Selector("app", "x").Build());
  const Named r = ExpectDecision("b", "pdbViolations", "a");
  ASSERT_EQ(r.candidates.size(), 2u);
  EXPECT_EQ(r.candidates[0].pdb_violations, 0);
  EXPECT_EQ(r.candidates[1].pdb_violations, 1);
  EXPECT_EQ(ValueOf(r.candidates[1], "pdbViolations"), 1);
  EXPECT_EQ(ValueOf(r.candidates[0], "highestPriority"), 5);
  EXPECT_TRUE(r.pdbs.empty());  // b's victim is under no PDB
}

TEST_F(DecisionRecordTest, HighestPriorityDecides) {
  AddNode(NodeWithCpu("a", "2").Build());
  AddNode(NodeWithCpu("b", "2").Build());
  AddPod(MakePod("va").Node("a").Priority(5).Cpu("2").Build());
  AddPod(MakePod("vb1").Node("b").Priority(3).Cpu("1").Build());
  AddPod(MakePod("vb2").Node("b").Priority(3).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  const Named r = ExpectDecision("b", "highestPriority", "a");
  EXPECT_EQ(ValueOf(r.candidates[0], "highestPriority"), 3);
  EXPECT_EQ(ValueOf(r.candidates[1], "highestPriority"), 5);
  EXPECT_EQ(ValueOf(r.candidates[0], "victims"), 2);
}

TEST_F(DecisionRecordTest, PrioritySumDecides) {
  AddNode(NodeWithCpu("a", "2").Build());
  AddNode(NodeWithCpu("b", "2").Build());
  AddPod(MakePod("va5").Node("a").Priority(5).Cpu("1").Build());
  AddPod(MakePod("va4").Node("a").Priority(4).Cpu("1").Build());
  AddPod(MakePod("vb5").Node("b").Priority(5).Cpu("1").Build());
  AddPod(MakePod("vb1").Node("b").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  const Named r = ExpectDecision("b", "prioritySum", "a");
  // Upstream's sum: each term shifted by 2^31.
  const std::int64_t shift = std::int64_t{1} << 31;
  EXPECT_EQ(ValueOf(r.candidates[0], "prioritySum"), 6 + 2 * shift);
  EXPECT_EQ(ValueOf(r.candidates[1], "prioritySum"), 9 + 2 * shift);
}

TEST_F(DecisionRecordTest, VictimCountDecides) {
  AddNode(NodeWithCpu("a", "2").Build());
  AddNode(NodeWithCpu("b", "2").Build());
  AddPod(MakePod("va0").Node("a").Priority(0).Cpu("1").Build());
  AddPod(MakePod("va-min").Node("a").Priority(std::numeric_limits<std::int32_t>::min()).Cpu("1").Build());
  AddPod(MakePod("vb0").Node("b").Priority(0).Cpu("2").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  const Named r = ExpectDecision("b", "victims", "a");
  EXPECT_EQ(r.candidates[0].victim_count, 1);
  EXPECT_EQ(r.candidates[1].victim_count, 2);
}

TEST_F(DecisionRecordTest, LatestStartTimeDecides) {
  AddNode(NodeWithCpu("a", "1").Build());
  AddNode(NodeWithCpu("b", "1").Build());
  AddPod(MakePod("va").Node("a").Priority(3).Cpu("1").StartTime(SecondsBeforeOrigin(100)).Build());
  AddPod(MakePod("vb").Node("b").Priority(3).Cpu("1").StartTime(SecondsBeforeOrigin(10)).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const Named r = ExpectDecision("b", "latestStartTime", "a");
  const Named::Candidate& best = r.candidates[0];
  ASSERT_EQ(best.tie_breakers.back().id, "latestStartTime");
  EXPECT_TRUE(best.tie_breakers.back().is_time);
  EXPECT_EQ(best.tie_breakers.back().value, kOriginUs - 10'000'000);
  EXPECT_EQ(r.candidates[1].tie_breakers.back().value, kOriginUs - 100'000'000);
}

TEST_F(DecisionRecordTest, FullTieIsDecidedByNodeOrder) {
  const WallTime start = SecondsBeforeOrigin(60);
  AddNode(NodeWithCpu("z1-a", "1").Label("topology.kubernetes.io/zone", "z1").Build());
  AddNode(NodeWithCpu("z1-b", "1").Label("topology.kubernetes.io/zone", "z1").Build());
  AddNode(NodeWithCpu("z2-a", "1").Label("topology.kubernetes.io/zone", "z2").Build());
  AddPod(MakePod("v-z1-a").Node("z1-a").Priority(100).Cpu("1").StartTime(start).Build());
  AddPod(MakePod("v-z1-b").Node("z1-b").Priority(3).Cpu("1").StartTime(start).Build());
  AddPod(MakePod("v-z2-a").Node("z2-a").Priority(3).Cpu("1").StartTime(start).Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  const Named r = ExpectDecision("z2-a", "nodeOrder", "z1-b");
  EXPECT_EQ(r.decided_by_label, "first in node order (all tie-breakers equal)");
}

TEST_F(DecisionRecordTest, PdbBeforeAndAfterOnAViolatingPreemption) {
  // Setup: the only node's two victims are under one PDB that allows one disruption; a third
  // pod under another PDB stays (higher priority). Taking both breaks the budget.
  AddNode(NodeWithCpu("a", "3").Build());
  AddPod(MakePod("v1").Node("a").Priority(1).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("v2").Node("a").Priority(2).Label("app", "x").Cpu("1").Build());
  AddPod(MakePod("keep").Node("a").Priority(50).Label("app", "y").Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  AddPdb(MakePdb("pdb-x").MinAvailable(1).Selector("app", "x").Build());
  AddPdb(MakePdb("pdb-y").MinAvailable(0).Selector("app", "y").Build());
  const Named r = ExpectDecision("a", "onlyCandidate");
  EXPECT_EQ(r.victims, (Names{"default/v2", "default/v1"}));
  EXPECT_EQ(r.candidates[0].pdb_violations, 1);
  ASSERT_EQ(r.pdbs.size(), 1u);
  EXPECT_EQ(r.pdbs[0].name, "default/pdb-x");
  EXPECT_EQ(r.pdbs[0].allowed_before, 1);
  EXPECT_EQ(r.pdbs[0].allowed_after, -1);
  EXPECT_EQ(r.pdbs[0].victims, (Names{"default/v2", "default/v1"}));
}

TEST_F(DecisionRecordTest, PdbsAreInNameOrder) {
  AddNode(NodeWithCpu("a", "2").Build());
  AddPod(MakePod("v1").Node("a").Priority(1).Label("app", "z").Cpu("1").Build());
  AddPod(MakePod("v2").Node("a").Priority(2).Label("app", "b").Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  AddPdb(MakePdb("zz").MinAvailable(0).Selector("app", "z").Build());
  AddPdb(MakePdb("aa").MinAvailable(0).Selector("app", "b").Build());
  const Named r = ExpectDecision("a", "onlyCandidate");
  ASSERT_EQ(r.pdbs.size(), 2u);
  EXPECT_EQ(r.pdbs[0].name, "default/aa");
  EXPECT_EQ(r.pdbs[0].victims, Names{"default/v2"});
  EXPECT_EQ(r.pdbs[0].allowed_before, 1);
  EXPECT_EQ(r.pdbs[0].allowed_after, 0);
  EXPECT_EQ(r.pdbs[1].name, "default/zz");
  EXPECT_EQ(r.pdbs[1].victims, Names{"default/v1"});
}

TEST_F(DecisionRecordTest, CandidatesAndVictimsAreCapped) {
  // Seven candidate nodes, the victims' priority rising with the node; node n0 has 25 victims.
  constexpr int kNodes = 7, kManyVictims = 25;
  AddNode(NodeWithCpu("n0", "25").Build());
  for (int i = 0; i < kManyVictims; ++i) {
    AddPod(MakePod("many-" + std::to_string(100 + i)).Node("n0").Priority(1).Cpu("1").Build());
  }
  for (int n = 1; n < kNodes; ++n) {
    AddNode(NodeWithCpu("n" + std::to_string(n), "25").Build());
    AddPod(MakePod("v" + std::to_string(n)).Node("n" + std::to_string(n)).Priority(1 + n).Cpu("25").Build());
  }
  AddPod(MakePod("p").Priority(100).Cpu("25").Build());
  const Named r = ExpectDecision("n0", "highestPriority", "n1");
  EXPECT_EQ(r.candidate_count, kNodes);
  ASSERT_EQ(r.candidates.size(), PreemptionDecision::kCandidatesShown);
  for (std::size_t i = 1; i < r.candidates.size(); ++i) {
    EXPECT_EQ(r.candidates[i].node, "n" + std::to_string(i));
  }
  EXPECT_EQ(r.victims.size(), static_cast<std::size_t>(kManyVictims));  // the full list
  EXPECT_EQ(r.candidates[0].victims.size(), PreemptionDecision::kDecisionVictimsShown);
  EXPECT_EQ(r.candidates[0].victim_count, kManyVictims);
}


// A run with many preemptions, some PDB-violating, some on nominated nodes again.
ClusterState Busy() {
  CycleHarness h;
  for (int n = 0; n < 12; ++n) {
    h.AddNode(NodeWithCpu("node-" + std::to_string(n), std::to_string(2 + n % 3)).Build());
    for (int k = 0; k < 2 + n % 3; ++k) {
      h.AddPod(MakePod("low-" + std::to_string(n) + "-" + std::to_string(k))
                   .Node("node-" + std::to_string(n))
                   .Priority((n * 7 + k * 3) % 5)
                   .Label("app", k % 2 == 0 ? "even" : "odd")
                   .StartTime(SecondsBeforeOrigin(10 + (n * 13 + k) % 7))
                   .Cpu("1")
                   .Build());
    }
  }
  h.AddPdb(MakePdb("even").MinAvailable(10).Selector("app", "even").Build());
  for (int i = 0; i < 10; ++i) {
    h.AddPod(MakePod("high-" + std::to_string(i)).Priority(10 + i % 3).Cpu(i % 2 ? "2" : "1").Build());
  }
  return h.state;
}

TEST(DecisionRecordSimulationTest, ClassIndexAndPerNodePathRecordTheSame) {
  CycleHarness h;
  const ClusterState state = Busy();
  EngineOptions indexed = h.options, plain = h.options;
  plain.disable_caches = true;
  const SimulationResult a = kpsim::engine::Simulate(state, indexed);
  const SimulationResult b = kpsim::engine::Simulate(state, plain);
  ASSERT_GE(a.decisions.size(), 5u);
  ASSERT_EQ(a.decisions.size(), b.decisions.size());
  bool some_pdb = false, some_runner_up = false;
  for (std::size_t i = 0; i < a.decisions.size(); ++i) {
    EXPECT_EQ(Dump(NamedDecision(a, i)), Dump(NamedDecision(b, i))) << "decision " << i;
    some_pdb = some_pdb || !a.decisions[i].pdbs.empty();
    some_runner_up = some_runner_up || a.decisions[i].candidates.size() > 1;
  }
  EXPECT_TRUE(some_pdb);
  EXPECT_TRUE(some_runner_up);
  // One record per preemption, at the round and time of the preemptor's Nominated event.
  std::size_t next = 0;
  for (const SimEvent& e : a.events) {
    if (e.reason != EventReason::kNominated || e.node.empty()) continue;
    ASSERT_LT(next, a.decisions.size());
    const Named d = NamedDecision(a, next++);
    EXPECT_EQ(d.preemptor, e.pod);
    EXPECT_EQ(d.node, e.node);
    EXPECT_EQ(d.round, e.round);
    EXPECT_EQ(d.time, e.time);
  }
  EXPECT_EQ(next, a.decisions.size());
  std::int64_t victims = 0;
  for (const PreemptionDecision& d : a.decisions) victims += static_cast<std::int64_t>(d.victims.size());
  // The result's name tables cover every index the records use.
  EXPECT_EQ(a.pdb_names, (Names{"default/even"}));
  EXPECT_EQ(victims, a.stats.victims);
}

TEST(DecisionRecordSimulationTest, PodGroupRecordsUnitsAndNominations) {
  CycleHarness h;
  h.options.gates.generic_workload = true;
  h.AddNode(NodeWithCpu("n1", "1").Label("pin", "n1").Build());
  h.AddNode(NodeWithCpu("n2", "1").Build());
  PodGroup victim = MakePodGroup("v").Priority(1).DisruptionAll().Build();
  victim.meta.namespace_ = "default";
  h.state.pod_groups.push_back(victim);
  h.AddPod(MakePod("v1").PodGroup("v").Priority(1).Cpu("1").Node("n1").Build());
  h.AddPod(MakePod("v2").PodGroup("v").Priority(1).Cpu("1").Node("n2").Build());
  PodGroup g = MakePodGroup("g").Priority(10).Build();
  g.meta.namespace_ = "default";
  h.state.pod_groups.push_back(g);
  h.AddPod(MakePod("a").PodGroup("g").Priority(10).Cpu("1").NodeSelector("pin", "n1").Build());
  const SimulationResult r = kpsim::engine::Simulate(h.state, h.options);
  ASSERT_EQ(r.decisions.size(), 1u);
  EXPECT_EQ(r.decisions[0].preemptor, kNoIndex);  // a group's decision: the group is the preemptor
  EXPECT_EQ(r.decisions[0].node, kNoIndex);
  const Named d = NamedDecision(r, 0);
  EXPECT_EQ(d.preemptor, "default/g");
  EXPECT_EQ(d.pod_group, "default/g");
  EXPECT_EQ(d.decided_by, "workloadAwarePreemption");
  EXPECT_TRUE(d.node.empty());
  EXPECT_EQ(d.victims, (Names{"default/v1", "default/v2"}));
  ASSERT_EQ(d.units.size(), 1u);
  EXPECT_EQ(d.units[0].kind, "PodGroup");
  EXPECT_EQ(d.units[0].name, "default/v");
  EXPECT_EQ(d.units[0].pods, (Names{"default/v1", "default/v2"}));
  EXPECT_EQ(d.units[0].priority, 1);
  EXPECT_NE(d.units[0].why.find("default/a no longer fits n1"), std::string::npos) << d.units[0].why;
  ASSERT_EQ(d.nominations.size(), 1u);
  EXPECT_EQ(d.nominations[0], (std::pair<std::string, std::string>{"default/a", "n1"}));
  EXPECT_GT(d.round, 0);
}

TEST(DecisionRecordSimulationTest, BookRecordsItsOwnCriteria) {
  // Setup: node a's victim is PDB-protected, b's has a higher priority, c's victims are two of
  // the lowest priority: c wins on the highest victim priority, b is the runner-up.
  CycleHarness h;
  h.options.profile = Profile::kBook;
  h.AddNode(NodeWithCpu("a", "2").Build());
  h.AddNode(NodeWithCpu("b", "2").Build());
  h.AddNode(NodeWithCpu("c", "2").Build());
  h.AddPod(MakePod("va").Node("a").Priority(1).Label("app", "x").Cpu("2").Build());
  h.AddPod(MakePod("vb").Node("b").Priority(5).Cpu("2").Build());
  h.AddPod(MakePod("vc1").Node("c").Priority(2).Cpu("1").Build());
  h.AddPod(MakePod("vc2").Node("c").Priority(2).Cpu("1").Build());
  h.AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  h.AddPdb(MakePdb("pdb").MinAvailable(1).Selector("app", "x").Build());
  const SimulationResult r = book::Simulate(h.state, h.options);
  ASSERT_FALSE(r.decisions.empty());
  const Named d = NamedDecision(r, 0);
  EXPECT_EQ(d.preemptor, "default/p");
  EXPECT_EQ(d.node, "c");
  EXPECT_EQ(d.decided_by, "highestPriority");
  EXPECT_EQ(d.candidate_count, 3);
  EXPECT_EQ(d.nodes_evaluated, 3);
  ASSERT_EQ(d.candidates.size(), 3u);
  EXPECT_EQ(d.candidates[0].node, "c");
  EXPECT_EQ(d.candidates[1].node, "b");
  EXPECT_EQ(d.candidates[2].node, "a");
  EXPECT_EQ(d.candidates[2].pdb_violations, 1);
  ASSERT_EQ(d.candidates[0].tie_breakers.size(), 3u);
  EXPECT_EQ(d.candidates[0].tie_breakers[1].id, "highestPriority");
  EXPECT_EQ(d.candidates[0].tie_breakers[1].value, 2);
  EXPECT_EQ(d.candidates[0].victim_count, 2);
  EXPECT_EQ(d.victims.size(), 2u);
  EXPECT_TRUE(d.pdbs.empty());
  EXPECT_GT(d.round, 0);
}

TEST(DecisionRecordSimulationTest, BookRecordsThePdbItBreaks) {
  CycleHarness h;
  h.options.profile = Profile::kBook;
  h.AddNode(NodeWithCpu("a", "2").Build());
  h.AddPod(MakePod("v1").Node("a").Priority(1).Label("app", "x").Cpu("1").Build());
  h.AddPod(MakePod("v2").Node("a").Priority(1).Label("app", "x").Cpu("1").Build());
  h.AddPod(MakePod("p").Priority(10).Cpu("2").Build());
  h.AddPdb(MakePdb("pdb").MinAvailable(1).Selector("app", "x").Build());
  const SimulationResult r = book::Simulate(h.state, h.options);
  ASSERT_FALSE(r.decisions.empty());
  const Named d = NamedDecision(r, 0);
  EXPECT_EQ(d.decided_by, "onlyCandidate");
  ASSERT_EQ(d.pdbs.size(), 1u);
  EXPECT_EQ(d.pdbs[0].name, "default/pdb");
  EXPECT_EQ(d.pdbs[0].allowed_before, 1);
  EXPECT_EQ(d.pdbs[0].allowed_after, -1);
  EXPECT_EQ(d.pdbs[0].victims.size(), 2u);
}

}  // namespace
}  // namespace kpsim::engine::test
