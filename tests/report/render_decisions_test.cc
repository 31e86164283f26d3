// The preemption decision records (SimulationResult::decisions) in simulate's three outputs: the
// JSON `decisions` array (field names are a contract), the text "Preemption decisions" section
// and the HTML "Decisions" panel with the timeline's links to it. Hand-built results only.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "kpsim/api/types.h"
#include "kpsim/report.h"
#include "kpsim/results.h"
#include "report/render_test_util.h"

namespace kpsim::report {
namespace {

using nlohmann::ordered_json;
using testing::Event;
using testing::PodAt;
using testing::Seconds;

// 2024-05-01T12:00:00.123456Z in unix microseconds.
constexpr std::int64_t kStartMicros = 1714564800123456;

// The index of a name in the result's tables (SimulationResult::pods, nodes, groups and
// pdb_names), added when missing: decision records name everything by index.
ResultIndex PodIndex(SimulationResult& sim, const std::string& pod) {
  for (std::size_t i = 0; i < sim.pods.size(); ++i) {
    if (sim.pods[i].pod == pod) return static_cast<ResultIndex>(i);
  }
  sim.pods.push_back(PodAt(pod, 0, PodState::kDeleted, ""));
  return static_cast<ResultIndex>(sim.pods.size() - 1);
}
std::vector<ResultIndex> PodIndices(SimulationResult& sim, const std::vector<std::string>& pods) {
  std::vector<ResultIndex> out;
  for (const std::string& pod : pods) out.push_back(PodIndex(sim, pod));
  return out;
}
ResultIndex NodeIndex(SimulationResult& sim, const std::string& node) {
  for (std::size_t i = 0; i < sim.nodes.size(); ++i) {
    if (sim.nodes[i].node == node) return static_cast<ResultIndex>(i);
  }
  NodeOutcome outcome;
  outcome.node = node;
  sim.nodes.push_back(std::move(outcome));
  return static_cast<ResultIndex>(sim.nodes.size() - 1);
}
ResultIndex GroupIndex(SimulationResult& sim, const std::string& group) {
  for (std::size_t i = 0; i < sim.groups.size(); ++i) {
    if (sim.groups[i].group == group) return static_cast<ResultIndex>(i);
  }
  GroupOutcome outcome;
  outcome.group = group;
  sim.groups.push_back(std::move(outcome));
  return static_cast<ResultIndex>(sim.groups.size() - 1);
}
ResultIndex PdbIndex(SimulationResult& sim, const std::string& pdb) {
  const auto it = std::find(sim.pdb_names.begin(), sim.pdb_names.end(), pdb);
  if (it != sim.pdb_names.end()) return static_cast<ResultIndex>(it - sim.pdb_names.begin());
  sim.pdb_names.push_back(pdb);
  return static_cast<ResultIndex>(sim.pdb_names.size() - 1);
}

DecisionCandidate Candidate(SimulationResult& sim, const std::string& node,
                            const std::vector<std::string>& victims, int pdb, std::int32_t highest,
                            std::int64_t start_micros) {
  DecisionCandidate c;
  c.node = NodeIndex(sim, node);
  c.victims = PodIndices(sim, victims);
  c.victim_count = static_cast<std::int64_t>(c.victims.size());
  c.pdb_violations = pdb;
  c.AddTieBreaker({"pdbViolations", pdb, false});
  c.AddTieBreaker({"highestPriority", highest, false});
  c.AddTieBreaker({"victims", c.victim_count, false});
  c.AddTieBreaker({"latestStartTime", start_micros, true});
  return c;
}

// Setup: in round 3 at 12.5 s, default/api preempts default/a and default/b on node-b; node-b
// beat node-a (fewer PDB violations) among 7 candidates found over 9 dry runs. Both victims count
// against default/web, whose budget goes from 1 to -1.
PreemptionDecision ApiDecision(SimulationResult& sim, std::int64_t round = 3) {
  PreemptionDecision d;
  d.round = round;
  d.time = Seconds(12.5);
  d.preemptor = PodIndex(sim, "default/api");
  d.node = NodeIndex(sim, "node-b");
  d.victims = PodIndices(sim, {"default/a", "default/b"});
  d.decided_by = "pdbViolations";
  d.decided_by_label = "fewest PDB violations";
  d.candidates = {Candidate(sim, "node-b", {"default/a", "default/b"}, 0, 10, kStartMicros),
                  Candidate(sim, "node-a", {"default/c"}, 1, 5, kStartMicros + 1000000)};
  d.candidates[1].victim_count = 3;  // more victims than shown
  d.candidate_count = 7;
  d.nodes_evaluated = 9;
  DecisionPdb pdb;
  pdb.pdb = PdbIndex(sim, "default/web");
  pdb.allowed_before = 1;
  pdb.allowed_after = -1;
  pdb.victims = PodIndices(sim, {"default/a", "default/b"});
  d.pdbs.push_back(pdb);
  return d;
}

// Setup: pod group ml/train (its first member ml/train-0 the preemptor) takes the disruptionMode
// `all` group ml/batch as one unit and nominates its two members.
PreemptionDecision GroupDecision(SimulationResult& sim) {
  PreemptionDecision d;
  d.round = 5;
  d.time = Seconds(40);
  d.pod_group = GroupIndex(sim, "ml/train");  // no preemptor pod: the group preempts
  d.victims = PodIndices(sim, {"ml/batch-0", "ml/batch-1"});
  // As the engine records a group's decision: no candidate nodes compared.
  d.decided_by = "workloadAwarePreemption";
  d.decided_by_label = "workload-aware preemption (pod group)";
  DecisionUnit unit;
  unit.group = GroupIndex(sim, "ml/batch");
  unit.pods = PodIndices(sim, {"ml/batch-0", "ml/batch-1"});
  unit.priority = 10;
  unit.why = "needed: the group does not fit with it back";
  d.units.push_back(unit);
  d.nominations = {{PodIndex(sim, "ml/train-0"), NodeIndex(sim, "n1")},
                   {PodIndex(sim, "ml/train-1"), NodeIndex(sim, "n2")}};
  return d;
}

// The events around ApiDecision: a failure, two Preempted events and the nomination of round 3,
// and an unrelated Scheduled event of round 4.
SimulationResult DecisionRun() {
  SimulationResult r;
  SimEvent failed = Event(12.5, EventReason::kFailedScheduling, "default/api", "", "no room");
  failed.round = 3;
  r.events.push_back(failed);
  for (const char* victim : {"default/a", "default/b"}) {
    SimEvent e = Event(12.5, EventReason::kPreempted, victim, "node-b");
    e.by = "default/api";
    e.pdb_violation = true;
    e.round = 3;
    r.events.push_back(e);
  }
  SimEvent nominated = Event(12.5, EventReason::kNominated, "default/api", "node-b");
  nominated.round = 3;
  r.events.push_back(nominated);
  SimEvent scheduled = Event(13, EventReason::kScheduled, "default/other", "node-a");
  scheduled.round = 4;
  r.events.push_back(scheduled);
  r.pods.push_back(PodAt("default/api", 100, PodState::kPending, ""));
  r.pods.back().nominated_node = "node-b";
  r.decisions.push_back(ApiDecision(r));
  r.end_time = Seconds(13);
  return r;
}

RunReport Report(const SimulationResult* sim) {
  RunReport report;
  report.simulation = sim;
  return report;
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos;
       pos = text.find(what, pos + what.size())) {
    ++n;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// JSON

TEST(DecisionCandidateTest, KeepsIdsValuesAndTimeFlagsInTableOrder) {
  DecisionCandidate c;
  c.AddTieBreaker({"victims", 3, false});
  c.AddTieBreaker({"latestStartTime", -1'700'000'000'000'000, true});
  c.AddTieBreaker({"pdbViolations", 0, false});
  const TieBreakerValues values = c.tie_breakers();
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0], (TieBreakerValue{"victims", 3, false}));
  EXPECT_EQ(values[1], (TieBreakerValue{"latestStartTime", -1'700'000'000'000'000, true}));
  EXPECT_EQ(values[2], (TieBreakerValue{"pdbViolations", 0, false}));
  c.SetTieBreakerValue(2, 7);
  EXPECT_EQ(c.tie_breakers()[2].value, 7);
  EXPECT_FALSE(c.tie_breakers()[2].is_time);
  EXPECT_TRUE(DecisionCandidate{}.tie_breakers().empty());
}

TEST(RenderDecisionsJsonTest, AlwaysPresentAsAnEmptyArrayWhenThereAreNone) {
  SimulationResult sim = DecisionRun();
  sim.decisions.clear();
  const auto j = ordered_json::parse(RenderSimulationJson(Report(&sim)));
  ASSERT_TRUE(j.contains("decisions"));
  EXPECT_TRUE(j["decisions"].is_array());
  EXPECT_TRUE(j["decisions"].empty());
  // No simulation at all (e.g. every object rejected): still there.
  const auto none = ordered_json::parse(RenderSimulationJson(Report(nullptr)));
  ASSERT_TRUE(none.contains("decisions"));
  EXPECT_TRUE(none["decisions"].is_array());
  EXPECT_TRUE(none["decisions"].empty());
}

TEST(RenderDecisionsJsonTest, ComesAfterGroupsAndBeforeRejected) {
  const SimulationResult sim = DecisionRun();
  const auto j = ordered_json::parse(RenderSimulationJson(Report(&sim)));
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  const auto at = [&](const std::string& k) {
    return std::find(keys.begin(), keys.end(), k) - keys.begin();
  };
  EXPECT_EQ(at("decisions"), at("groups") + 1);
  EXPECT_EQ(at("rejected"), at("decisions") + 1);
}

TEST(RenderDecisionsJsonTest, OneEntryPerDecisionWithTheContractsFieldsInOrder) {
  const SimulationResult sim = DecisionRun();
  const auto j = ordered_json::parse(RenderSimulationJson(Report(&sim)));
  ASSERT_EQ(j["decisions"].size(), 1u);
  const auto& d = j["decisions"][0];
  std::vector<std::string> keys;
  for (const auto& [key, value] : d.items()) keys.push_back(key);
  // podGroup is absent: the decision is a single pod's.
  const std::vector<std::string> contract = {
      "round",     "time",           "preemptor",  "node",           "victims",
      "decidedBy", "decidedByLabel", "candidates", "candidateCount", "nodesEvaluated",
      "pdbs",      "units",          "nominations"};
  EXPECT_EQ(keys, contract);
  EXPECT_EQ(d["round"], 3);
  // `time` as the events' time: simulated seconds.
  EXPECT_EQ(d["time"], 12.5);
  EXPECT_EQ(d["time"], j["events"][0]["time"]);
  EXPECT_EQ(d["preemptor"], "default/api");
  EXPECT_EQ(d["node"], "node-b");
  EXPECT_EQ(d["victims"], ordered_json::parse(R"(["default/a", "default/b"])"));
  EXPECT_EQ(d["decidedBy"], "pdbViolations");
  EXPECT_EQ(d["decidedByLabel"], "fewest PDB violations");
  EXPECT_EQ(d["candidateCount"], 7);
  EXPECT_EQ(d["nodesEvaluated"], 9);
  EXPECT_TRUE(d["units"].is_array() && d["units"].empty());
  EXPECT_TRUE(d["nominations"].is_array() && d["nominations"].empty());
}

TEST(RenderDecisionsJsonTest, CandidatesCarryVictimsCountsAndTieBreakersByIdInTableOrder) {
  const SimulationResult sim = DecisionRun();
  const auto j = ordered_json::parse(RenderSimulationJson(Report(&sim)));
  const auto& candidates = j["decisions"][0]["candidates"];
  ASSERT_EQ(candidates.size(), 2u);
  const auto& chosen = candidates[0];
  EXPECT_EQ(chosen["node"], "node-b");
  EXPECT_EQ(chosen["victims"], ordered_json::parse(R"(["default/a", "default/b"])"));
  EXPECT_EQ(chosen["victimCount"], 2);
  EXPECT_EQ(chosen["pdbViolations"], 0);
  std::vector<std::string> ids;
  for (const auto& [key, value] : chosen["tieBreakers"].items()) ids.push_back(key);
  EXPECT_EQ(ids, (std::vector<std::string>{"pdbViolations", "highestPriority", "victims",
                                           "latestStartTime"}));
  EXPECT_EQ(chosen["tieBreakers"]["highestPriority"], 10);
  EXPECT_TRUE(chosen["tieBreakers"]["highestPriority"].is_number_integer());
  const auto& runner_up = candidates[1];
  EXPECT_EQ(runner_up["node"], "node-a");
  EXPECT_EQ(runner_up["victims"].size(), 1u);  // the shown ones
  EXPECT_EQ(runner_up["victimCount"], 3);      // all of them
  EXPECT_EQ(runner_up["pdbViolations"], 1);
  EXPECT_EQ(runner_up["tieBreakers"]["pdbViolations"], 1);
}

TEST(RenderDecisionsJsonTest, TimeTieBreakersRenderAsRfc3339LikeTheOrigin) {
  SimulationResult sim = DecisionRun();
  sim.origin.unix_micros = kStartMicros;
  const auto j = ordered_json::parse(RenderSimulationJson(Report(&sim)));
  const auto& candidates = j["decisions"][0]["candidates"];
  EXPECT_EQ(candidates[0]["tieBreakers"]["latestStartTime"], "2024-05-01T12:00:00.123456Z");
  EXPECT_EQ(candidates[1]["tieBreakers"]["latestStartTime"], "2024-05-01T12:00:01.123456Z");
  // Exactly as the document's other wall time.
  EXPECT_EQ(candidates[0]["tieBreakers"]["latestStartTime"], j["origin"]);
  // A non-time value of the same magnitude stays a number.
  sim.decisions[0].candidates[0].SetTieBreakerValue(0, kStartMicros);
  const auto k = ordered_json::parse(RenderSimulationJson(Report(&sim)));
  EXPECT_EQ(k["decisions"][0]["candidates"][0]["tieBreakers"]["pdbViolations"], kStartMicros);
}

TEST(RenderDecisionsJsonTest, PdbsNameTheBudgetBeforeAfterAndItsVictims) {
  const SimulationResult sim = DecisionRun();
  const auto j = ordered_json::parse(RenderSimulationJson(Report(&sim)));
  const auto& pdbs = j["decisions"][0]["pdbs"];
  ASSERT_EQ(pdbs.size(), 1u);
  std::vector<std::string> keys;
  for (const auto& [key, value] : pdbs[0].items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "allowedBefore", "allowedAfter", "victims"}));
  EXPECT_EQ(pdbs[0]["name"], "default/web");
  EXPECT_EQ(pdbs[0]["allowedBefore"], 1);
  EXPECT_EQ(pdbs[0]["allowedAfter"], -1);
  EXPECT_EQ(pdbs[0]["victims"], ordered_json::parse(R"(["default/a", "default/b"])"));
}

TEST(RenderDecisionsJsonTest, PodGroupDecisionsHaveUnitsNominationsAndANullNode) {
  SimulationResult sim = DecisionRun();
  sim.decisions.push_back(GroupDecision(sim));
  const auto j = ordered_json::parse(RenderSimulationJson(Report(&sim)));
  ASSERT_EQ(j["decisions"].size(), 2u);
  const auto& d = j["decisions"][1];
  EXPECT_EQ(d["podGroup"], "ml/train");
  EXPECT_TRUE(d["node"].is_null());
  EXPECT_TRUE(d["candidates"].empty());
  ASSERT_EQ(d["units"].size(), 1u);
  EXPECT_EQ(d["units"][0], ordered_json::parse(R"({"kind": "PodGroup", "name": "ml/batch",
      "pods": ["ml/batch-0", "ml/batch-1"], "priority": 10,
      "why": "needed: the group does not fit with it back"})"));
  EXPECT_EQ(d["nominations"], ordered_json::parse(R"([{"pod": "ml/train-0", "node": "n1"},
      {"pod": "ml/train-1", "node": "n2"}])"));
}

TEST(RenderDecisionsJsonTest, StaysValidJsonWithHostileNamesAndIsDeterministic) {
  SimulationResult sim = DecisionRun();
  sim.pods[static_cast<std::size_t>(sim.decisions[0].preemptor)].pod = "default/\"quoted\"\\back\nline";
  sim.pdb_names[static_cast<std::size_t>(sim.decisions[0].pdbs[0].pdb)] = std::string("default/bad-\xff-utf8");
  const std::string out = RenderSimulationJson(Report(&sim));
  const auto j = ordered_json::parse(out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["decisions"][0]["preemptor"], "default/\"quoted\"\\back\nline");
  EXPECT_EQ(out, RenderSimulationJson(Report(&sim)));
}

// ---------------------------------------------------------------------------------------------
// Text

TEST(RenderDecisionsTextTest, SectionFollowsTheTimelineWithHeadlineTableAndPdbs) {
  const SimulationResult sim = DecisionRun();
  const std::string text = RenderSimulationText(Report(&sim));
  const std::size_t section = text.find("\nPreemption decisions (1):\n");
  ASSERT_NE(section, std::string::npos) << text;
  EXPECT_LT(text.find("Timeline:"), section);
  EXPECT_GT(text.find("\nNodes (requested/allocatable):"), section);
  EXPECT_NE(text.find("  [round 3, 12.500s] default/api -> node-b: victims default/a, default/b; "
                      "decided by fewest PDB violations\n"),
            std::string::npos)
      << text;
  // The candidate table: the chosen one first (starred), a column per tie-breaker, times as
  // RFC 3339.
  EXPECT_NE(text.find("NODE      pdbViolations  highestPriority  victims  latestStartTime\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("node-b *  0              10               2        "
                      "2024-05-01T12:00:00.123456Z\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("node-a    1              5                1        "
                      "2024-05-01T12:00:01.123456Z\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(7 candidates, 9 nodes evaluated)"), std::string::npos);
  EXPECT_NE(text.find("default/web: allowed 1 -> -1 (victims default/a, default/b)\n"),
            std::string::npos);
}

TEST(RenderDecisionsTextTest, NoSectionWithoutDecisions) {
  SimulationResult sim = DecisionRun();
  sim.decisions.clear();
  EXPECT_EQ(RenderSimulationText(Report(&sim)).find("Preemption decisions"), std::string::npos);
}

TEST(RenderDecisionsTextTest, PodGroupDecisionsListUnitsAndNominations) {
  SimulationResult sim = DecisionRun();
  sim.decisions = {GroupDecision(sim)};
  const std::string text = RenderSimulationText(Report(&sim));
  EXPECT_NE(text.find("  [round 5, 40.000s] ml/train: victims ml/batch-0, ml/batch-1; decided by "
                      "workload-aware preemption (pod group)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("took PodGroup ml/batch (priority 10, 2 pods): needed: the group does not "
                      "fit with it back\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("nominated ml/train-0 -> n1, ml/train-1 -> n2\n"), std::string::npos);
  // No node comparison to count.
  EXPECT_EQ(text.find(" evaluated)"), std::string::npos);
}

TEST(RenderDecisionsTextTest, LongRunsPrintTheFirstFiftyAndCountTheRest) {
  SimulationResult sim = DecisionRun();
  sim.decisions.clear();
  for (int round = 1; round <= 63; ++round) sim.decisions.push_back(ApiDecision(sim, round));
  // A decision with a huge victim list shows the first ones and a count.
  for (int i = 0; i < 25; ++i) {
    sim.decisions[0].victims.push_back(PodIndex(sim, "default/v" + std::to_string(i)));
  }
  const std::string text = RenderSimulationText(Report(&sim));
  const std::size_t section = text.find("Preemption decisions (63):");
  ASSERT_NE(section, std::string::npos);
  const std::string decisions = text.substr(section, text.find("\nNodes (requested/allocatable):") - section);
  EXPECT_NE(text.find("Preemption decisions (63):"), std::string::npos);
  EXPECT_NE(text.find("[round 50, "), std::string::npos);
  EXPECT_EQ(text.find("[round 51, "), std::string::npos);
  EXPECT_EQ(Count(text, "decided by fewest PDB violations"), 50u);
  EXPECT_NE(text.find("  ... and 13 more decisions (use -o json to see them all)\n"),
            std::string::npos);
  EXPECT_NE(decisions.find("default/v17 and 7 more; decided by"), std::string::npos) << text;
  EXPECT_EQ(decisions.find("default/v18"), std::string::npos);  // (the pods section lists it)
}

// ---------------------------------------------------------------------------------------------
// HTML

TEST(RenderDecisionsHtmlTest, PanelHasOneAnchoredBlockPerDecision) {
  SimulationResult sim = DecisionRun();
  sim.decisions.push_back(GroupDecision(sim));
  const std::string html = RenderSimulationHtml(Report(&sim));
  EXPECT_NE(html.find("<section id=\"decisions\">"), std::string::npos);
  EXPECT_EQ(Count(html, "<details class=\"decision\""), 2u);
  EXPECT_NE(html.find("<details class=\"decision\" id=\"decision-3\" open>"), std::string::npos);
  EXPECT_NE(html.find("<details class=\"decision\" id=\"decision-5\" open>"), std::string::npos);
  EXPECT_NE(html.find("decided by <b>fewest PDB violations</b>"), std::string::npos);
  // The tie-breaker columns and a time value as RFC 3339.
  EXPECT_NE(html.find("<th>latestStartTime</th>"), std::string::npos);
  EXPECT_NE(html.find("<td>2024-05-01T12:00:00.123456Z</td>"), std::string::npos);
  EXPECT_NE(html.find("7 candidates, 9 nodes evaluated; the best 2 shown."), std::string::npos);
  EXPECT_EQ(Count(html, " evaluated"), 1u);  // not for the pod group's decision
  EXPECT_NE(html.find("<td>default/web</td><td>1</td><td>-1 "), std::string::npos);
  // The group's unit and nominations.
  EXPECT_NE(html.find("<td>ml/batch</td><td>PodGroup</td><td>10</td>"), std::string::npos);
  EXPECT_NE(html.find("Nominated: <span class=\"pod\" data-pod=\"ml/train-0\">ml/train-0</span> "
                      "→ n1"),
            std::string::npos);
}

TEST(RenderDecisionsHtmlTest, PreemptedAndNominatedEventsLinkToTheirRoundsDecision) {
  const SimulationResult sim = DecisionRun();
  const std::string html = RenderSimulationHtml(Report(&sim));
  const std::string link = "<a class=\"decision-link\" href=\"#decision-3\">3</a>";
  // Event log: two Preempted and one Nominated of round 3; the FailedScheduling of the same round
  // and the Scheduled of round 4 are not linked. Preemptions table: the two victims again.
  EXPECT_EQ(Count(html, link), 5u);
  const std::size_t events = html.find("<section id=\"events\">");
  ASSERT_NE(events, std::string::npos);
  EXPECT_NE(html.find("<tr id=\"event-4\"><td>4</td><td>12.5s</td><td>" + link, events),
            std::string::npos);
  EXPECT_NE(html.find("<tr id=\"event-1\"><td>1</td><td>12.5s</td><td>3</td>", events),
            std::string::npos);
  EXPECT_NE(html.find("<tr id=\"event-5\"><td>5</td><td>13s</td><td>4</td>", events),
            std::string::npos);
  // The script links the timeline's markers to the same anchors.
  EXPECT_NE(html.find("'decision-' + e.round"), std::string::npos);
}

TEST(RenderDecisionsHtmlTest, NoPanelAndNoLinksWithoutDecisions) {
  SimulationResult sim = DecisionRun();
  sim.decisions.clear();
  const std::string html = RenderSimulationHtml(Report(&sim));
  EXPECT_EQ(html.find("<section id=\"decisions\">"), std::string::npos);
  EXPECT_EQ(html.find("href=\"#decision-"), std::string::npos);
}

TEST(RenderDecisionsHtmlTest, ManyDecisionsStartFoldedAndTheListIsCapped) {
  SimulationResult sim = DecisionRun();
  sim.decisions.clear();
  for (int round = 1; round <= 230; ++round) sim.decisions.push_back(ApiDecision(sim, round));
  const std::string html = RenderSimulationHtml(Report(&sim));
  EXPECT_EQ(Count(html, "<details class=\"decision\""), 200u);
  EXPECT_NE(html.find("<details class=\"decision\" id=\"decision-200\">"), std::string::npos);
  EXPECT_EQ(html.find("id=\"decision-201\""), std::string::npos);
  EXPECT_NE(html.find("… and 30 more decisions"), std::string::npos);
  // Round 3's events still link to round 3's block.
  EXPECT_NE(html.find("href=\"#decision-3\""), std::string::npos);
}

TEST(RenderDecisionsHtmlTest, HostileNamesAreEscapedInThePanel) {
  SimulationResult sim = DecisionRun();
  sim.pods[static_cast<std::size_t>(sim.decisions[0].preemptor)].pod = "default/<img onerror=x>";
  sim.pdb_names[static_cast<std::size_t>(sim.decisions[0].pdbs[0].pdb)] = "default/<b>";
  const std::string html = RenderSimulationHtml(Report(&sim));
  EXPECT_EQ(html.find("<img onerror"), std::string::npos);
  EXPECT_EQ(html.find("<td>default/<b></td>"), std::string::npos);
  EXPECT_NE(html.find("default/&lt;img onerror=x&gt;"), std::string::npos);
}

}  // namespace
}  // namespace kpsim::report
