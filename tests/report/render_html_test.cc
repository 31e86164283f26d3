// The HTML report: it must embed the JSON renderer's exact output, be byte-identical for
// identical input, keep hostile names and messages inside their elements, and show the tables
// (pods, FailedScheduling, preemptions, rejected/ignored objects, pod groups; explain's filter,
// reprieve steps and decision) without running any script.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "kpsim/explain.h"
#include "kpsim/io.h"
#include "kpsim/report.h"
#include "kpsim/results.h"
#include "report/deflate.h"
#include "report/render_test_util.h"

namespace kpsim::report {
namespace {

using nlohmann::ordered_json;

constexpr std::string_view kDataOpen = "<script type=\"application/json\" id=\"kpsim-data\">";

using testing::Event;
using testing::PodAt;
using testing::Seconds;

// Setup: batch (p50) runs on node-a from the start; api (p100) fails, preempts batch (violating
// its PDB), is nominated and lands at 30 s; the replacement of batch stays pending.
SimulationResult Cascade(
    const std::string& api = "default/api",
    const std::string& failure = "0/1 nodes are available: 1 Insufficient cpu.") {
  SimulationResult r;
  r.events.push_back(Event(0, EventReason::kFailedScheduling, api, "", failure));
  SimEvent preempted = Event(0, EventReason::kPreempted, "default/batch", "node-a",
                             "Preempted by pod " + api + " on node node-a");
  preempted.by = api;
  preempted.pdb_violation = true;
  r.events.push_back(preempted);
  r.events.push_back(Event(0, EventReason::kNominated, api, "node-a"));
  r.events.push_back(Event(30, EventReason::kDeleted, "default/batch", "node-a"));
  r.events.push_back(Event(30, EventReason::kCreated, "default/batch-x2b4c", ""));
  r.events.push_back(Event(30, EventReason::kScheduled, api, "node-a"));
  r.pods.push_back(PodAt("default/batch", 50, PodState::kDeleted, "node-a"));
  r.pods.back().scheduled_at = Seconds(0);
  r.pods.back().deleted_at = Seconds(30);
  r.pods.push_back(PodAt(api, 100, PodState::kRunning, "node-a"));
  r.pods.back().scheduled_at = Seconds(30);
  PodOutcome replacement = PodAt("default/batch-x2b4c", 50, PodState::kPending, "");
  replacement.reason = "0/1 nodes are available: 1 Insufficient cpu.";
  replacement.replacement_of = "default/batch";
  r.pods.push_back(replacement);
  NodeOutcome node;
  node.node = "node-a";
  node.allocatable.milli_cpu = 2000;
  node.allocatable.memory = 4LL << 30;
  node.allocatable.pods = 110;
  node.requested.milli_cpu = 1500;
  node.pods = {1};  // r.pods[1], the api pod
  r.nodes.push_back(node);
  r.end_time = Seconds(30);
  r.end_reason = "quiescent";
  return r;
}

RunReport Report(const SimulationResult* sim, const io::ReadResult* read = nullptr) {
  RunReport report;
  report.simulation = sim;
  report.read = read;
  return report;
}

// The text between the data script's tags, exactly as written in the page.
std::string EmbeddedData(const std::string& html) {
  const std::size_t begin = html.find(kDataOpen);
  if (begin == std::string::npos) return "";
  const std::size_t start = begin + kDataOpen.size();
  const std::size_t end = html.find("</script>", start);
  if (end == std::string::npos) return "";
  return html.substr(start, end - start);
}

// Undoes the three escapes the page applies (valid for JSON text without backslashes before `u`).
std::string Unescape(std::string text) {
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"\\u003c", "<"}, {"\\u003e", ">"}, {"\\u0026", "&"}}) {
    for (std::size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos)) {
      text.replace(pos, from.size(), to);
      pos += to.size();
    }
  }
  return text;
}

std::size_t Count(const std::string& haystack, std::string_view needle) {
  std::size_t count = 0;
  for (std::size_t pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + needle.size())) {
    ++count;
  }
  return count;
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

ExplainResult PdbExplain() {
  ExplainResult e;
  e.pod = "default/api";
  e.priority = 1000;
  e.eligible = true;
  e.filter.push_back({"node-a", false, "Unschedulable", {"Insufficient cpu"}, "NodeResourcesFit"});
  e.filter.push_back({"node-c",
                      false,
                      "UnschedulableAndUnresolvable",
                      {"node(s) didn't match Pod's node affinity/selector"},
                      "NodeAffinity"});
  CandidateOutcome a;
  a.node = "node-a";
  a.victims = {"default/cache-0"};
  a.pdb_violations = 1;
  a.highest_victim_priority = 100;
  a.free_after_removal.milli_cpu = 2000;
  a.steps.push_back({"default/cache-0", 100, true, false, "with it back: Insufficient cpu", {}, {}});
  CandidateOutcome b;
  b.node = "node-b";
  b.victims = {"default/report"};
  b.reprieved = {"default/log"};
  b.highest_victim_priority = 200;
  b.free_after_removal.milli_cpu = 2000;
  b.steps.push_back({"default/report", 200, false, false, "with it back: Insufficient cpu", {}, {}});
  b.steps.push_back({"default/log", 10, false, true, "fits with it back", {}, {}});
  e.candidates = {a, b};
  e.chosen = ChosenCandidate{"node-b", {"default/report"}, "fewest PDB violations"};
  e.message =
      "0/3 nodes are available: 1 Insufficient cpu. preemption: found a potential "
      "placement for pod on node node-b, preempting 1 victims";
  return e;
}

TEST(RenderSimulationHtmlTest, EmbedsTheExactJsonOutput) {
  const SimulationResult sim = Cascade();
  const std::string html = RenderSimulationHtml(Report(&sim));
  const std::string json = RenderSimulationJson(Report(&sim));
  const std::string data = EmbeddedData(html);
  ASSERT_FALSE(data.empty());
  EXPECT_EQ(Unescape(data), json);
  EXPECT_EQ(ordered_json::parse(data), ordered_json::parse(json));
}

// Past 1 MiB the run's JSON is embedded deflated and base64-encoded, and inflates to exactly the
// JSON output; so do the rows of a long table.
TEST(RenderSimulationHtmlTest, LargeRunsEmbedTheirJsonDeflated) {
  SimulationResult sim = Cascade();
  for (int i = 0; i < 12000; ++i) {
    PodOutcome p;
    p.pod = "default/filler-" + std::to_string(i);
    p.state = PodState::kPending;
    p.reason = "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No "
               "preemption victims found for incoming pod.";
    sim.pods.push_back(p);
  }
  const std::string json = RenderSimulationJson(Report(&sim));
  ASSERT_GT(json.size(), std::size_t{1} << 20);
  const std::string html = RenderSimulationHtml(Report(&sim));
  const std::string open = "<script type=\"application/json\" id=\"kpsim-data\" data-encoding=\"deflate-base64\">";
  const std::size_t at = html.find(open);
  ASSERT_NE(at, std::string::npos);
  const std::size_t start = at + open.size();
  const std::optional<std::string> data = InflateBase64(html.substr(start, html.find("</script>", start) - start));
  ASSERT_TRUE(data.has_value());
  EXPECT_EQ(*data, json);
  EXPECT_LT(html.size() * 4, json.size()) << "the page is much smaller than its JSON";
  // The pods table's rows (12001 of them) come deflated too, and hold every pod.
  const std::string rows_open = "<script type=\"application/json\" class=\"table-rows\" data-encoding=\"deflate-base64\">";
  const std::size_t rows_at = html.find(rows_open);
  ASSERT_NE(rows_at, std::string::npos);
  const std::size_t rows_start = rows_at + rows_open.size();
  const std::optional<std::string> rows =
      InflateBase64(html.substr(rows_start, html.find("</script>", rows_start) - rows_start));
  ASSERT_TRUE(rows.has_value());
  const ordered_json parsed = ordered_json::parse(*rows);
  ASSERT_TRUE(parsed.is_array());
  EXPECT_GE(parsed.size(), 12001u);
  EXPECT_NE(rows->find("default/filler-11999"), std::string::npos);
  // A small run stays plain.
  const SimulationResult small = Cascade();
  EXPECT_EQ(RenderSimulationHtml(Report(&small)).find("data-encoding=\"deflate-base64\">"), std::string::npos);
}

// The disruption panel, when something was evicted: the figures of the embedded JSON.
TEST(RenderSimulationHtmlTest, DisruptionPanelShowsTheFiguresOfItsJson) {
  const SimulationResult sim = Cascade();
  const std::string html = RenderSimulationHtml(Report(&sim));
  const std::size_t at = html.find("<section id=\"disruption\">");
  ASSERT_NE(at, std::string::npos);
  const std::string panel = html.substr(at, html.find("</section>", at) - at);
  const ordered_json d = ordered_json::parse(RenderSimulationJson(Report(&sim)))["disruption"];
  EXPECT_NE(panel.find(fmt::format("<div class=\"card-value\">{}</div><div class=\"card-label\">evicted pods</div>",
                                   d["evictedPods"].get<int>())),
            std::string::npos);
  EXPECT_NE(panel.find("<table class=\"disruption-classes\">"), std::string::npos);
  SimulationResult quiet;
  EXPECT_EQ(RenderSimulationHtml(Report(&quiet)).find("<section id=\"disruption\">"), std::string::npos);
}

TEST(RenderSimulationHtmlTest, IdenticalInputGivesByteIdenticalPages) {
  const SimulationResult first = Cascade();
  const SimulationResult second = Cascade();
  const std::string html = RenderSimulationHtml(Report(&first));
  EXPECT_EQ(html, RenderSimulationHtml(Report(&first)));
  EXPECT_EQ(html, RenderSimulationHtml(Report(&second)));
  const ExplainResult explain = PdbExplain();
  EXPECT_EQ(RenderExplainHtml(explain), RenderExplainHtml(PdbExplain()));
}

TEST(RenderSimulationHtmlTest, IsOneSelfContainedPageWithEveryPlaceholderFilled) {
  const SimulationResult sim = Cascade();
  const std::string html = RenderSimulationHtml(Report(&sim));
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_EQ(html.find("@KPSIM_"), std::string::npos);
  EXPECT_NE(html.find("<style>"), std::string::npos);
  EXPECT_NE(html.find("id=\"timeline-chart\""), std::string::npos);
  EXPECT_NE(html.find("data-kind=\"simulate\""), std::string::npos);
  // Nothing to fetch: no external stylesheet, script or image.
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  // Exactly the data script and the inline app script.
  EXPECT_EQ(Count(Lower(html), "</script"), 2u);
}

TEST(RenderSimulationHtmlTest, ScriptClosingTagsInNamesAndMessagesCannotEscapeTheDataBlock) {
  // Setup: the preemptor's name and the FailedScheduling message try to end the script element
  // and open another one (and an HTML comment, and a template placeholder).
  const std::string api = "default/</script><script>alert(1)</script>";
  const std::string failure = "</SCRIPT><!-- <b>x</b> & @KPSIM_BODY@";
  const SimulationResult sim = Cascade(api, failure);
  const std::string html = RenderSimulationHtml(Report(&sim));
  // Expect: still exactly two script elements, the data block holds no `<`, and it still
  // parses to the JSON renderer's output.
  EXPECT_EQ(Count(Lower(html), "</script"), 2u);
  const std::string data = EmbeddedData(html);
  EXPECT_EQ(data.find('<'), std::string::npos);
  EXPECT_EQ(data.find('>'), std::string::npos);
  EXPECT_EQ(ordered_json::parse(data), ordered_json::parse(RenderSimulationJson(Report(&sim))));
  EXPECT_EQ(Unescape(data), RenderSimulationJson(Report(&sim)));
  // In the tables the same text is escaped HTML, and the placeholder is not expanded.
  EXPECT_NE(html.find("default/&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("&lt;/SCRIPT&gt;&lt;!-- &lt;b&gt;x&lt;/b&gt; &amp; @KPSIM_BODY@"),
            std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
}

TEST(RenderSimulationHtmlTest, TablesShowPodsFailuresAndPreemptionsWithoutScript) {
  const SimulationResult sim = Cascade();
  const std::string html = RenderSimulationHtml(Report(&sim));
  // One row per pod, addressable as #pod-N in JSON order.
  EXPECT_NE(html.find("<tr id=\"pod-0\"><td><span class=\"pod\" data-pod=\"default/batch\">"),
            std::string::npos);
  EXPECT_NE(html.find("id=\"pod-2\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"pod-3\""), std::string::npos);
  EXPECT_NE(html.find("replacement of <span class=\"pod\" data-pod=\"default/batch\">"),
            std::string::npos);
  // The FailedScheduling message, verbatim.
  EXPECT_NE(html.find("<section id=\"failed\">"), std::string::npos);
  EXPECT_NE(html.find("0/1 nodes are available: 1 Insufficient cpu."), std::string::npos);
  // The PDB-violating preemption is highlighted.
  EXPECT_NE(html.find("<tr class=\"pdb-row\">"), std::string::npos);
  EXPECT_NE(html.find("violates a PodDisruptionBudget"), std::string::npos);
  // No groups, rejected or ignored objects: no such sections.
  EXPECT_EQ(html.find("<section id=\"groups\">"), std::string::npos);
  EXPECT_EQ(html.find("<section id=\"rejected\">"), std::string::npos);
  EXPECT_EQ(html.find("<section id=\"ignored\">"), std::string::npos);
}

TEST(RenderSimulationHtmlTest, LongTablesShowTheirFirstRowsAndCarryEveryRowForThePager) {
  // Setup: 450 pods, one with a name that tries to close the script element the rows ride in.
  SimulationResult sim;
  for (int i = 0; i < 450; ++i) {
    sim.pods.push_back(PodAt(i == 300 ? "default/</script><!--x" : "default/p" + std::to_string(i), 1,
                             PodState::kPending, ""));
  }
  const std::string html = RenderSimulationHtml(Report(&sim));
  // Expect: the pods table is paged: its first 200 rows as HTML, all 450 in its rows script.
  EXPECT_NE(html.find("<div class=\"table-wrap paged\" data-total=\"450\">"), std::string::npos);
  EXPECT_NE(html.find("id=\"pod-199\""), std::string::npos);
  const std::size_t open = html.find("<script type=\"application/json\" class=\"table-rows\">");
  ASSERT_NE(open, std::string::npos);
  const std::size_t start = open + std::string_view("<script type=\"application/json\" class=\"table-rows\">").size();
  const std::size_t end = html.find("</script>", start);
  ASSERT_NE(end, std::string::npos);
  const std::string rows_text = html.substr(start, end - start);
  EXPECT_EQ(rows_text.find("</"), std::string::npos);
  EXPECT_EQ(rows_text.find("<!--"), std::string::npos);
  const ordered_json rows = ordered_json::parse(rows_text);
  ASSERT_EQ(rows.size(), 450u);
  EXPECT_EQ(rows[0].get<std::string>().rfind("<tr id=\"pod-0\">", 0), 0u);
  EXPECT_NE(rows[449].get<std::string>().find("id=\"pod-449\""), std::string::npos);
  EXPECT_NE(rows[300].get<std::string>().find("default/&lt;/script&gt;&lt;!--x"), std::string::npos);
  // Only the first 200 are laid out as rows: pod-200 and later exist only inside the script.
  EXPECT_EQ(html.substr(0, open).find("id=\"pod-200\""), std::string::npos);
  // A short table is unchanged: no pager.
  const SimulationResult small = Cascade();
  EXPECT_EQ(RenderSimulationHtml(Report(&small)).find("class=\"table-rows\""), std::string::npos);
}

TEST(RenderSimulationHtmlTest, ListsRejectedIgnoredObjectsAndPodGroups) {
  SimulationResult sim = Cascade();
  GroupOutcome group;
  group.group = "ml/train";
  group.priority = 1000;
  group.pods = 4;
  group.placed = 2;
  group.min_count = 4;
  group.state = "WaitingForMinCount";
  sim.groups.push_back(group);
  io::ReadResult read;
  io::DecodeError bad;
  bad.kind = "Pod";
  bad.name = "default/greedy";
  bad.source = {"bad.yaml", 6, 88};
  bad.message =
      "bad.yaml:88: Pod default/greedy: spec.containers[0].resources.requests.cpu: "
      "quantities must match";
  read.errors.push_back(bad);
  read.ignored.push_back({"Deployment", "apps/v1", "default/web", {"bad.yaml", 3, 44}});
  const std::string html = RenderSimulationHtml(Report(&sim, &read));
  EXPECT_NE(html.find("<section id=\"rejected\">"), std::string::npos);
  EXPECT_NE(html.find("spec.containers[0].resources.requests.cpu: quantities must match"),
            std::string::npos);
  EXPECT_NE(html.find("<section id=\"ignored\">"), std::string::npos);
  EXPECT_NE(html.find("<td>Deployment</td><td>apps/v1</td><td>default/web</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<section id=\"groups\">"), std::string::npos);
  EXPECT_NE(html.find("<td>ml/train</td>"), std::string::npos);
  EXPECT_NE(html.find("WaitingForMinCount"), std::string::npos);
}

TEST(RenderSimulationHtmlTest, EmptyRunStillRendersAPage) {
  const std::string html = RenderSimulationHtml(RunReport{});
  EXPECT_EQ(Unescape(EmbeddedData(html)), RenderSimulationJson(RunReport{}));
  EXPECT_NE(html.find("No pods."), std::string::npos);
}

TEST(RenderExplainHtmlTest, EmbedsTheExactJsonOutput) {
  const ExplainResult explain = PdbExplain();
  const std::string html = RenderExplainHtml(explain);
  EXPECT_EQ(Unescape(EmbeddedData(html)), RenderExplainJson(explain));
  EXPECT_NE(html.find("data-kind=\"explain\""), std::string::npos);
  EXPECT_EQ(html.find("@KPSIM_"), std::string::npos);
}

TEST(RenderExplainHtmlTest, ShowsFilterStepsChosenNodeAndTieBreaker) {
  const std::string html = RenderExplainHtml(PdbExplain());
  // Filter: one row per node with its code and reasons.
  EXPECT_NE(html.find("<td>node-c</td><td><span class=\"badge unresolvable\">"
                      "UnschedulableAndUnresolvable</span></td>"),
            std::string::npos);
  EXPECT_NE(html.find("node(s) didn&#39;t match Pod&#39;s node affinity/selector"),
            std::string::npos);
  // Steps: "remove all" first, then each reprieve decision.
  EXPECT_EQ(Count(html, "<i>every lower-priority pod removed</i>"), 2u);
  EXPECT_NE(html.find("<tr class=\"reprieved-row\"><td>2</td>"), std::string::npos);
  EXPECT_NE(html.find("fits with it back"), std::string::npos);
  // The chosen candidate and the tie-breaker that decided.
  EXPECT_NE(html.find("<tr class=\"chosen-row\"><td>node-b"), std::string::npos);
  EXPECT_NE(html.find("Decided by: <b>fewest PDB violations</b>"), std::string::npos);
}

TEST(RenderExplainHtmlTest, FitsWithoutPreemption) {
  ExplainResult e;
  e.pod = "default/small";
  e.filter.push_back({"node-a", true, "Success", {}, ""});
  e.fits_node = "node-a";
  e.message = "fits on node node-a";
  const std::string html = RenderExplainHtml(e);
  EXPECT_NE(html.find("Fits on <b>node-a</b> without preemption."), std::string::npos);
  EXPECT_NE(html.find("No candidate node"), std::string::npos);
}

// The chapter's minimise scene as explain returns it (node-a: keep p500 100m, big p20 600m,
// small-a and small-b p10 100m each; api p100 asks 600m).
ExplainResult MinimizeExplain() {
  ExplainResult e;
  e.pod = "default/api";
  e.priority = 100;
  e.eligible = true;
  e.requests.milli_cpu = 600;
  e.filter_plugins = {"NodeUnschedulable", "TaintToleration", "NodeResourcesFit", "InterPodAffinity"};
  e.filter.push_back({"node-a", false, "Unschedulable", {"Insufficient cpu"}, "NodeResourcesFit"});
  e.filter.push_back({"node-b", false, "UnschedulableAndUnresolvable", {"node(s) had untolerated taint {k: v}"},
                      "TaintToleration"});
  CandidateOutcome c;
  c.node = "node-a";
  c.victims = {"default/big"};
  c.reprieved = {"default/small-a", "default/small-b"};
  c.allocatable.milli_cpu = 1000;
  c.staying.push_back(PodSlice{"default/keep", 500, {}});
  c.staying[0].requests.milli_cpu = 100;
  ReprieveStep big{"default/big", 20, false, false, "with it back: Insufficient cpu", {}, {}};
  big.requests.milli_cpu = 600;
  ReprieveStep small_a{"default/small-a", 10, false, true, "fits with it back", {}, {}};
  small_a.requests.milli_cpu = 100;
  ReprieveStep small_b = small_a;
  small_b.pod = "default/small-b";
  small_b.pdb_violating = true;
  c.steps = {big, small_a, small_b};
  c.naive_victims = {"default/small-b", "default/small-a", "default/big"};
  e.candidates = {c};
  e.chosen = ChosenCandidate{"node-a", {"default/big"}, "only candidate"};
  return e;
}

TEST(RenderExplainHtmlTest, CapacityStripsMarkTheVictimBeforeAndPlaceThePodAfter) {
  const std::string html = RenderExplainHtml(MinimizeExplain());
  const std::size_t pair = html.find("<div class=\"capacity\"><div class=\"cap-pair\">");
  ASSERT_NE(pair, std::string::npos);
  const std::size_t stepper = html.find("<div class=\"stepper\"", pair);
  ASSERT_NE(stepper, std::string::npos);
  const std::string before_after = html.substr(pair, stepper - pair);
  // Before: all four pods, big outlined as the victim, small-b hatched (PDB); 900m of 1 used.
  EXPECT_EQ(Count(before_after, "class=\"seg band-3 victim\" style=\"width:60.000%\" data-pod=\"default/big\""), 1u);
  EXPECT_EQ(Count(before_after, "class=\"seg band-3 pdb\" style=\"width:10.000%\" data-pod=\"default/small-b\""), 2u)
      << "before, and after (spared)";
  EXPECT_EQ(Count(before_after, "<span class=\"strip-used\">900m of 1</span>"), 2u);
  // After: api placed (the incoming outline), big gone.
  EXPECT_EQ(Count(before_after, "seg band-4 incoming"), 1u);
  EXPECT_EQ(Count(before_after, "data-pod=\"default/big\""), 1u);
}

TEST(RenderExplainHtmlTest, StepperHasAFramePerStepBesideTheNaiveOrder) {
  const std::string html = RenderExplainHtml(MinimizeExplain());
  EXPECT_NE(html.find("<div class=\"stepper\" data-frames=\"4\">"), std::string::npos);
  for (int k = 0; k < 4; ++k) {
    EXPECT_NE(html.find("data-frame=\"" + std::to_string(k) + "\""), std::string::npos) << k;
  }
  EXPECT_EQ(html.find("data-frame=\"4\""), std::string::npos);
  EXPECT_NE(html.find("step 1, put back big (priority 20): with it back: Insufficient cpu, a victim"),
            std::string::npos);
  EXPECT_NE(html.find("step 2, put back small-a (priority 10): it still fits, spared"), std::string::npos);
  EXPECT_NE(html.find("removed small-b: it still does not fit"), std::string::npos);
  EXPECT_NE(html.find("removed big: now it fits"), std::string::npos);
  EXPECT_NE(html.find("stops <b>1 pod</b> and spares 2; removing the lowest priority first until it fits "
                      "would stop <b>3 pods</b>."),
            std::string::npos);
  EXPECT_NE(html.find("class=\"cap-legend\""), std::string::npos);
}

// A disruptionMode `all` unit is one step named by UnitName, not by a pod key: whether it is a
// victim comes from the step, and the summary counts units.
TEST(RenderExplainHtmlTest, CapacityStripsTakeAGroupUnitsVerdictFromItsStep) {
  ExplainResult e = MinimizeExplain();
  CandidateOutcome& c = e.candidates[0];
  c.steps[0].pod = "default/big (with all 2 pods of pod group default/g, disruptionMode All)";
  c.victims = {"default/big", "default/big-2"};
  c.naive_victims.back() = c.steps[0].pod;
  const std::string html = RenderExplainHtml(e);
  const std::size_t pair = html.find("<div class=\"capacity\"><div class=\"cap-pair\">");
  ASSERT_NE(pair, std::string::npos);
  const std::string before_after = html.substr(pair, html.find("<div class=\"stepper\"", pair) - pair);
  EXPECT_EQ(Count(before_after, " victim\" style="), 1u) << "the unit outlined before";
  EXPECT_EQ(Count(before_after, "disruptionMode All"), 3u) << "before (its bar's data-pod, title, label), gone after";
  EXPECT_NE(html.find("stops <b>1 victim unit</b> and spares 2"), std::string::npos);
  EXPECT_NE(html.find("would stop <b>3 victim units</b>"), std::string::npos);
}

// Pod names are user input: in bars, titles and captions they stay text.
TEST(RenderExplainHtmlTest, CapacityStripsEscapeNames) {
  ExplainResult e = MinimizeExplain();
  e.candidates[0].staying[0].pod = "default/<img src=x onerror=alert(1)>";
  e.candidates[0].steps[1].pod = "default/\"quoted'";
  const std::string html = RenderExplainHtml(e);
  EXPECT_EQ(html.find("<img src=x"), std::string::npos);
  EXPECT_NE(html.find("data-pod=\"default/&lt;img src=x onerror=alert(1)&gt;\""), std::string::npos);
  EXPECT_EQ(html.find("data-pod=\"default/\"quoted"), std::string::npos);
  EXPECT_NE(html.find("put back &quot;quoted&#39; (priority 10)"), std::string::npos);
}

// A node rejected before the chain (an in-place resize's other nodes) names no plugin.
TEST(RenderExplainHtmlTest, FilterPerPluginShowsARejectionBeforeTheChain) {
  ExplainResult e = MinimizeExplain();
  e.filter[1].plugin = "";
  e.filter[1].reasons = {"pod assigned to different node"};
  const std::string html = RenderExplainHtml(e);
  const std::size_t at = html.find("<table class=\"filter-plugins\">");
  ASSERT_NE(at, std::string::npos);
  const std::string table = html.substr(at, html.find("</table>", at) - at);
  const std::size_t row = table.find("<td>node-b</td>");
  ASSERT_NE(row, std::string::npos);
  const std::string node_b = table.substr(row, table.find("</tr>", row) - row);
  EXPECT_NE(node_b.find("pod assigned to different node <span class=\"note\">(before the filter chain)"),
            std::string::npos);
  EXPECT_EQ(Count(node_b, ">passed</span>"), 0u);
  EXPECT_EQ(Count(node_b, ">not run</span>"), 3u);
}

TEST(RenderExplainHtmlTest, FilterPerPluginStopsAtTheRejectingPlugin) {
  const std::string html = RenderExplainHtml(MinimizeExplain());
  const std::size_t at = html.find("<table class=\"filter-plugins\">");
  ASSERT_NE(at, std::string::npos);
  const std::string table = html.substr(at, html.find("</table>", at) - at);
  // node-a: two plugins passed, NodeResourcesFit rejected, InterPodAffinity did not run.
  // node-b: NodeUnschedulable passed, TaintToleration rejected, two did not run.
  EXPECT_EQ(Count(table, ">passed</span>"), 3u);
  EXPECT_EQ(Count(table, ">not run</span>"), 3u);
  EXPECT_NE(table.find("Unschedulable</span> Insufficient cpu"), std::string::npos);
}

TEST(RenderExplainHtmlTest, ScoreTableShowsEachPluginTimesItsWeight) {
  ExplainResult e;
  e.pod = "default/new";
  e.filter.push_back({"n1", true, "Success", {}, ""});
  e.filter.push_back({"n2", true, "Success", {}, ""});
  e.fits_node = "n2";
  e.score_plugins = {"NodeResourcesFit", "TaintToleration"};
  e.scores.push_back(NodeScore{"n1", {{"NodeResourcesFit", 50, 1}, {"TaintToleration", 100, 3}}, 350});
  e.scores.push_back(NodeScore{"n2", {{"NodeResourcesFit", 81, 1}, {"TaintToleration", 100, 3}}, 381});
  const std::string html = RenderExplainHtml(e);
  EXPECT_NE(html.find("<th>NodeResourcesFit</th><th>TaintToleration</th><th>Total</th>"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"chosen-row\"><td>n2 <span class=\"badge chosen\">chosen</span></td><td>81 "),
            std::string::npos);
  EXPECT_NE(html.find("100 <span class=\"note\">× 3 = 300</span>"), std::string::npos);
  EXPECT_NE(html.find("<b>381</b>"), std::string::npos);
}

}  // namespace
}  // namespace kpsim::report
