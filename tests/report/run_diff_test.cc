// kpsim/diff.h: two runs compared through the JSON the simulate renderer writes (the runs are
// hand-made results rendered by RenderSimulationJson, so the diff reads the real output shape).

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kpsim/diff.h"
#include "kpsim/engine_options.h"
#include "kpsim/report.h"
#include "kpsim/results.h"
#include "report/render_test_util.h"

namespace kpsim::report {
namespace {

using testing::Event;
using testing::PodAt;
using testing::Seconds;

std::string Json(const SimulationResult& r) {
  EngineOptions options;
  options.profile = r.profile;
  RunReport report;
  report.simulation = &r;
  report.options = &options;
  return RenderSimulationJson(report);
}

SimEvent Preempted(double t, std::string victim, std::string node, std::string by, bool pdb = false) {
  SimEvent e = Event(t, EventReason::kPreempted, std::move(victim), std::move(node));
  e.by = std::move(by);
  e.pdb_violation = pdb;
  return e;
}

// web runs on n1; api arrives, preempts web at 0 and lands at 10; web's replacement (named by
// `replacement`) waits and lands on n2 at 30 after preempting batch.
SimulationResult Cascade(const std::string& replacement) {
  SimulationResult r;
  r.events.push_back(Event(0, EventReason::kFailedScheduling, "default/api", ""));
  r.events.push_back(Preempted(0, "default/web-abcde", "n1", "default/api"));
  r.events.push_back(Event(0, EventReason::kCreated, replacement, ""));
  r.events.push_back(Event(0, EventReason::kFailedScheduling, replacement, ""));
  r.events.push_back(Preempted(0, "default/batch", "n2", replacement));
  r.events.push_back(Event(10, EventReason::kScheduled, "default/api", "n1"));
  r.events.push_back(Event(30, EventReason::kScheduled, replacement, "n2"));
  r.pods.push_back(PodAt("default/web-abcde", 500, PodState::kDeleted, "n1"));
  r.pods.push_back(PodAt("default/batch", 100, PodState::kDeleted, "n2"));
  r.pods.push_back(PodAt("default/api", 1000, PodState::kRunning, "n1"));
  r.pods.back().scheduled_at = Seconds(10);
  r.pods.push_back(PodAt(replacement, 500, PodState::kRunning, "n2"));
  r.pods.back().replacement_of = "default/web-abcde";
  r.pods.back().scheduled_at = Seconds(30);
  r.end_time = Seconds(30);
  r.end_reason = "quiescent";
  return r;
}

TEST(DiffRunsTest, SameRunIsIdentical) {
  const std::string run = Json(Cascade("default/web-x1y2z"));
  auto diff = DiffRuns(run, "a.json", run, "b.json");
  ASSERT_TRUE(diff.ok()) << diff.error().message;
  EXPECT_TRUE(diff->identical());
  EXPECT_EQ(diff->a.victims, 2);
  EXPECT_EQ(diff->a.running, 2);
  EXPECT_EQ(diff->a.label, "a.json");
  EXPECT_EQ(diff->b.label, "b.json");
  EXPECT_NE(RenderDiffText(*diff).find("No differences"), std::string::npos);
}

TEST(DiffRunsTest, ReplacementsWithOtherRandomNamesMatchByWhatTheyReplace) {
  // Another seed names the replacement differently; nothing else changes.
  auto diff = DiffRuns(Json(Cascade("default/web-x1y2z")), "a", Json(Cascade("default/web-q9r8s")), "b");
  ASSERT_TRUE(diff.ok());
  EXPECT_TRUE(diff->identical());
  EXPECT_TRUE(diff->victims_only_a.empty());
  EXPECT_TRUE(diff->victims_only_b.empty());
}

TEST(DiffRunsTest, VictimPlacementAndWaitDifferencesAreListed) {
  SimulationResult a = Cascade("default/web-x1y2z");
  // B: api goes to n2 at once by preempting batch, with a PDB violation; web keeps running.
  SimulationResult b;
  b.events.push_back(Event(0, EventReason::kFailedScheduling, "default/api", ""));
  b.events.push_back(Preempted(0, "default/batch", "n2", "default/api", /*pdb=*/true));
  b.events.push_back(Event(2, EventReason::kScheduled, "default/api", "n2"));
  b.pods.push_back(PodAt("default/web-abcde", 500, PodState::kRunning, "n1"));
  b.pods.push_back(PodAt("default/batch", 100, PodState::kDeleted, "n2"));
  b.pods.push_back(PodAt("default/api", 1000, PodState::kRunning, "n2"));
  b.pods.back().scheduled_at = Seconds(2);
  b.end_time = Seconds(2);
  b.end_reason = "quiescent";
  b.profile = Profile::kBook;

  auto diff = DiffRuns(Json(a), "a", Json(b), "b");
  ASSERT_TRUE(diff.ok());
  EXPECT_FALSE(diff->identical());
  EXPECT_EQ(diff->b.profile, "book");
  EXPECT_EQ(diff->b.pdb_violations, 1);
  ASSERT_EQ(diff->victims_only_a.size(), 1U);
  EXPECT_EQ(diff->victims_only_a[0].pod, "default/web-abcde");
  EXPECT_EQ(diff->victims_only_a[0].by, "default/api");
  EXPECT_TRUE(diff->victims_only_b.empty());  // batch is a victim of both

  // web (Deleted vs Running), api (n1 vs n2), the replacement (A only).
  ASSERT_EQ(diff->placements.size(), 3U);
  EXPECT_EQ(diff->placements[0].a.name, "default/web-abcde");
  EXPECT_EQ(diff->placements[0].b.state, "Running");
  EXPECT_EQ(diff->placements[1].a.node, "n1");
  EXPECT_EQ(diff->placements[1].b.node, "n2");
  EXPECT_EQ(diff->placements[2].a.name, "default/web-x1y2z");
  EXPECT_TRUE(diff->placements[2].b.name.empty());

  // api waited 10 s in A and 2 s in B; web was bound from the start in both (no wait).
  ASSERT_EQ(diff->waits.size(), 1U);
  EXPECT_EQ(diff->waits[0].a.name, "default/api");
  EXPECT_DOUBLE_EQ(*diff->waits[0].a.wait, 10.0);
  EXPECT_DOUBLE_EQ(*diff->waits[0].b.wait, 2.0);

  const nlohmann::json j = nlohmann::json::parse(RenderDiffJson(*diff));
  EXPECT_FALSE(j["identical"].get<bool>());
  EXPECT_EQ(j["victimsOnlyInA"][0]["pod"], "default/web-abcde");
  EXPECT_TRUE(j["placements"][2]["b"].is_null());
  EXPECT_EQ(j["waits"][0]["b"]["wait"], 2.0);
  const std::string text = RenderDiffText(*diff);
  EXPECT_NE(text.find("Victims only in A (1):"), std::string::npos) << text;
  EXPECT_NE(text.find("default/web-x1y2z (A only)"), std::string::npos) << text;
  // HTML: the same lists as tables, the changed figures marked, the JSON embedded.
  const std::string html = RenderDiffHtml(*diff);
  EXPECT_NE(html.find("<tr class=\"changed-row\"><td>PDB violations</td><td>0</td><td>1</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><td>decisions</td>"), std::string::npos) << "equal figures are not marked";
  EXPECT_NE(html.find("Victims only in A (1):"), std::string::npos);
  EXPECT_NE(html.find("data-pod=\"default/web-x1y2z\">default/web-x1y2z</span> <span class=\"note\">(A only)"),
            std::string::npos);
  EXPECT_NE(html.find("<h3>Waits that differ (1)</h3>"), std::string::npos);
  EXPECT_NE(html.find("<td>10.000s</td><td>2.000s</td>"), std::string::npos);
  EXPECT_NE(html.find("data-kind=\"diff\""), std::string::npos);
}

TEST(DiffRunsTest, PendingPodsWaitUntilTheEnd) {
  SimulationResult a;
  a.events.push_back(Event(5, EventReason::kFailedScheduling, "default/big", ""));
  a.pods.push_back(PodAt("default/big", 10, PodState::kPending, ""));
  a.end_time = Seconds(65);
  SimulationResult b = a;
  b.end_time = Seconds(125);
  auto diff = DiffRuns(Json(a), "a", Json(b), "b");
  ASSERT_TRUE(diff.ok());
  ASSERT_EQ(diff->waits.size(), 1U);
  EXPECT_DOUBLE_EQ(*diff->waits[0].a.wait, 60.0);
  EXPECT_DOUBLE_EQ(*diff->waits[0].b.wait, 120.0);
  EXPECT_NE(RenderDiffText(*diff).find("120.000s (still pending)"), std::string::npos);
}

TEST(DiffRunsTest, WorkloadPodsWithRandomSuffixesMatchByStemInOrder) {
  // Pods a Deployment expands into carry seeded suffixes of utilrand's alphabet (no vowels).
  SimulationResult a;
  a.pods.push_back(PodAt("default/web-7d4f9-bbbbb", 1, PodState::kRunning, "n1"));
  a.pods.push_back(PodAt("default/web-7d4f9-ccccc", 1, PodState::kRunning, "n2"));
  SimulationResult b;
  b.pods.push_back(PodAt("default/web-7d4f9-ddddd", 1, PodState::kRunning, "n1"));
  b.pods.push_back(PodAt("default/web-7d4f9-fffff", 1, PodState::kPending, ""));
  auto diff = DiffRuns(Json(a), "a", Json(b), "b");
  ASSERT_TRUE(diff.ok());
  ASSERT_EQ(diff->placements.size(), 1U);
  EXPECT_EQ(diff->placements[0].a.name, "default/web-7d4f9-ccccc");
  EXPECT_EQ(diff->placements[0].b.name, "default/web-7d4f9-fffff");
  EXPECT_NE(RenderDiffText(*diff).find("default/web-7d4f9-ccccc (B: default/web-7d4f9-fffff)"),
            std::string::npos);
}

TEST(DiffRunsTest, HandNamedPodsAreNotTakenForGeneratedOnes) {
  // "front" and "admin" have vowels: not a generated suffix, so no pairing.
  SimulationResult a;
  a.pods.push_back(PodAt("default/web-front", 1, PodState::kRunning, "n1"));
  SimulationResult b;
  b.pods.push_back(PodAt("default/web-admin", 1, PodState::kRunning, "n1"));
  auto diff = DiffRuns(Json(a), "a", Json(b), "b");
  ASSERT_TRUE(diff.ok());
  ASSERT_EQ(diff->placements.size(), 2U);
  EXPECT_TRUE(diff->placements[0].b.name.empty());
  EXPECT_TRUE(diff->placements[1].a.name.empty());
}

TEST(DiffRunsTest, BrokenPdbsComeFromTheDecisions) {
  SimulationResult a;
  a.pods.push_back(PodAt("default/log", 1, PodState::kDeleted, "n1"));
  a.pods.push_back(PodAt("default/api", 9, PodState::kRunning, "n1"));
  a.nodes.push_back(NodeOutcome{});
  a.nodes.back().node = "n1";
  a.pdb_names = {"default/log-pdb"};
  PreemptionDecision d;
  d.preemptor = 1;
  d.node = 0;
  d.victims = {0};
  d.decided_by = "onlyCandidate";
  d.decided_by_label = "only candidate";
  d.pdbs.push_back(DecisionPdb{0, 0, -1, {0}});
  a.decisions.push_back(d);
  SimulationResult b = a;
  b.decisions.clear();
  auto diff = DiffRuns(Json(a), "a", Json(b), "b");
  ASSERT_TRUE(diff.ok());
  EXPECT_EQ(diff->a.pdbs_broken, std::vector<std::string>{"default/log-pdb"});
  EXPECT_TRUE(diff->b.pdbs_broken.empty());
  EXPECT_EQ(diff->a.decisions, 1);
  EXPECT_FALSE(diff->identical());
}

TEST(DiffRunsTest, RefusesWhatIsNotASimulateDocument) {
  const std::string run = Json(Cascade("default/web-x1y2z"));
  for (const char* bad : {"", "not json", "[]", "{\"events\": []}", "{\"profile\": \"default\", \"events\": 3, \"pods\": []}"}) {
    auto diff = DiffRuns(run, "a.json", bad, "b.json");
    ASSERT_FALSE(diff.ok()) << bad;
    EXPECT_EQ(diff.error().message.rfind("b.json: ", 0), 0U) << diff.error().message;
  }
  // Wrong types inside a document are skipped, not a crash.
  auto odd = DiffRuns(R"({"profile": 1, "events": [3, {"pod": 7, "reason": "Preempted"}], "pods": [1, {"pod": "x"}], "decisions": [{"pdbs": [1]}]})",
                      "odd", run, "b");
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(odd->a.victims, 1);
}

}  // namespace
}  // namespace kpsim::report
