#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kpsim/engine_options.h"
#include "kpsim/io.h"
#include "kpsim/report.h"
#include "kpsim/results.h"
#include "report/render_test_util.h"
#include "report/scale_up.h"

namespace kpsim::report {
namespace {

using nlohmann::json;

using testing::Event;
using testing::PodAt;
using testing::Seconds;

// Setup: batch (p50) runs on node-a; api (p100) fails, preempts batch, is nominated and lands at
// 30 s; a replacement of batch stays pending.
SimulationResult Cascade() {
  SimulationResult r;
  r.events.push_back(Event(0, EventReason::kScheduled, "default/batch", "node-a"));
  r.events.push_back(Event(0, EventReason::kFailedScheduling, "default/api", "",
                           "0/1 nodes are available: 1 Insufficient cpu. preemption: found a "
                           "potential placement for pod on node node-a, preempting 1 victims"));
  SimEvent preempted = Event(0, EventReason::kPreempted, "default/batch", "node-a",
                             "Preempted by pod default/api on node node-a");
  preempted.by = "default/api";
  r.events.push_back(preempted);
  r.events.push_back(Event(0, EventReason::kNominated, "default/api", "node-a"));
  r.events.push_back(Event(30, EventReason::kDeleted, "default/batch", "node-a"));
  r.events.push_back(Event(30, EventReason::kCreated, "default/batch-x2b4c", ""));
  r.events.push_back(Event(30.0015, EventReason::kScheduled, "default/api", "node-a"));
  r.pods.push_back(PodAt("default/batch", 50, PodState::kDeleted, "node-a"));
  r.pods.back().deleted_at = Seconds(30);
  r.pods.push_back(PodAt("default/api", 100, PodState::kRunning, "node-a"));
  r.pods.back().scheduled_at = Seconds(30.0015);
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
  node.requested.memory = 512LL << 20;
  node.requested.pods = 1;
  node.pods = {1};  // r.pods[1], default/api
  r.nodes.push_back(node);
  r.end_time = Seconds(30.0015);
  r.end_reason = "quiescent";
  r.stats.scheduling_attempts = 4;
  r.stats.victims = 1;
  return r;
}

RunReport Report(const SimulationResult* sim, const io::ReadResult* read = nullptr,
                 const AdmissionResult* admission = nullptr,
                 const EngineOptions* options = nullptr) {
  RunReport report;
  report.simulation = sim;
  report.read = read;
  report.admission = admission;
  report.options = options;
  return report;
}

TEST(RenderSimulationJsonTest, TopLevelFieldsInContractOrder) {
  const SimulationResult sim = Cascade();
  EngineOptions options;
  options.seed = 7;
  // ordered_json keeps the document's key order (plain json would sort it).
  const auto j =
      nlohmann::ordered_json::parse(RenderSimulationJson(Report(&sim, nullptr, nullptr, &options)));
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  const std::vector<std::string> contract = {"profile", "seed", "origin", "endTime", "endReason",
                                             "attemptCapReached"};
  ASSERT_GE(keys.size(), contract.size());
  EXPECT_TRUE(std::equal(contract.begin(), contract.end(), keys.begin()));
  EXPECT_EQ(j["profile"], "default");
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["origin"], "1970-01-01T00:00:00Z");
  EXPECT_EQ(j["endTime"], 30.002);
  EXPECT_EQ(j["endReason"], "quiescent");
  EXPECT_EQ(j["attemptCapReached"], false);
  for (const char* key : {"events", "pods", "nodes", "groups", "rejected", "ignored", "stats"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["stats"]["schedulingAttempts"], 4);
  EXPECT_EQ(j["stats"]["victims"], 1);
}

TEST(RenderSimulationJsonTest, EventsCarryReasonPodNodeOrNullAndPreemptionFields) {
  const SimulationResult sim = Cascade();
  const json j = json::parse(RenderSimulationJson(Report(&sim)));
  const json& events = j["events"];
  ASSERT_EQ(events.size(), 7u);
  EXPECT_EQ(events[0]["reason"], "Scheduled");
  EXPECT_EQ(events[0]["time"], 0.0);
  EXPECT_EQ(events[1]["reason"], "FailedScheduling");
  EXPECT_TRUE(events[1]["node"].is_null());
  EXPECT_FALSE(events[1].contains("by"));
  const json& preempted = events[2];
  EXPECT_EQ(preempted["reason"], "Preempted");
  EXPECT_EQ(preempted["pod"], "default/batch");
  EXPECT_EQ(preempted["node"], "node-a");
  EXPECT_EQ(preempted["by"], "default/api");
  EXPECT_EQ(preempted["pdbViolation"], false);
  EXPECT_FALSE(preempted.contains("byGroup"));
  EXPECT_FALSE(preempted.contains("victimGroup"));
  EXPECT_EQ(preempted["message"], "Preempted by pod default/api on node node-a");
  EXPECT_EQ(events[4]["time"], 30.0);
  EXPECT_EQ(events[6]["time"], 30.002);
}

TEST(RenderSimulationJsonTest, GroupPreemptionFieldsAppearWhenSet) {
  SimulationResult sim;
  SimEvent e = Event(1.5, EventReason::kPreempted, "default/w-1", "node-b");
  e.by = "default/trainer-0";
  e.by_group = "default/trainer";
  e.victim_group = "default/workers";
  e.pdb_violation = true;
  sim.events.push_back(e);
  GroupOutcome g;
  g.group = "default/trainer";
  g.priority = 1000;
  g.pods = 4;
  g.placed = 4;
  g.min_count = 4;
  g.state = "Scheduled";
  sim.groups.push_back(g);
  const json j = json::parse(RenderSimulationJson(Report(&sim)));
  EXPECT_EQ(j["events"][0]["time"], 1.5);
  EXPECT_EQ(j["events"][0]["byGroup"], "default/trainer");
  EXPECT_EQ(j["events"][0]["victimGroup"], "default/workers");
  EXPECT_EQ(j["events"][0]["pdbViolation"], true);
  ASSERT_EQ(j["groups"].size(), 1u);
  EXPECT_EQ(j["groups"][0]["group"], "default/trainer");
  EXPECT_EQ(j["groups"][0]["minCount"], 4);
  EXPECT_EQ(j["groups"][0]["state"], "Scheduled");
}

TEST(RenderSimulationJsonTest, PodsHaveStateNodeNominationAndPendingReasons) {
  SimulationResult sim = Cascade();
  sim.pods[2].nominated_node = "node-a";
  sim.pods[2].pod_group = "default/g";
  const json j = json::parse(RenderSimulationJson(Report(&sim)));
  const json& pods = j["pods"];
  ASSERT_EQ(pods.size(), 3u);
  EXPECT_EQ(pods[0]["state"], "Deleted");
  EXPECT_EQ(pods[0]["node"], "node-a");
  EXPECT_TRUE(pods[0]["nominatedNode"].is_null());
  EXPECT_FALSE(pods[0].contains("reason"));
  EXPECT_EQ(pods[1]["state"], "Running");
  EXPECT_EQ(pods[1]["priority"], 100);
  EXPECT_EQ(pods[2]["state"], "Pending");
  EXPECT_TRUE(pods[2]["node"].is_null());
  EXPECT_EQ(pods[2]["nominatedNode"], "node-a");
  EXPECT_EQ(pods[2]["reason"], "0/1 nodes are available: 1 Insufficient cpu.");
  EXPECT_EQ(pods[2]["replacementOf"], "default/batch");
  EXPECT_EQ(pods[2]["podGroup"], "default/g");
  EXPECT_FALSE(pods[1].contains("replacementOf"));
}

TEST(RenderSimulationJsonTest, NodesRenderResourcesAsKubernetesQuantities) {
  const SimulationResult sim = Cascade();
  const json j = json::parse(RenderSimulationJson(Report(&sim)));
  const json& node = j["nodes"][0];
  EXPECT_EQ(node["node"], "node-a");
  EXPECT_EQ(node["allocatable"]["cpu"], "2");
  EXPECT_EQ(node["allocatable"]["memory"], "4Gi");
  EXPECT_EQ(node["allocatable"]["pods"], "110");
  EXPECT_EQ(node["requested"]["cpu"], "1500m");
  EXPECT_EQ(node["requested"]["memory"], "512Mi");
  EXPECT_EQ(node["pods"], json::array({"default/api"}));
}

TEST(RenderSimulationJsonTest, RejectedCombinesReadErrorsAndAdmissionRejections) {
  const SimulationResult sim = Cascade();
  io::ReadResult read;
  io::DecodeError e;
  e.kind = "Node";
  e.name = "n";
  e.message = "bad";
  read.errors.push_back(e);
  read.ignored.push_back(io::IgnoredObject{"Service", "v1", "default/svc", {"f.yaml", 3, 0}});
  AdmissionResult admission;
  AdmissionOutcome rejected;
  rejected.kind = ObjectKind::kPod;
  rejected.name = "default/x";
  rejected.message = "pods \"x\" is forbidden: no PriorityClass with name gold was found";
  AdmissionOutcome admitted;
  admitted.admitted = true;
  admission.outcomes = {admitted, rejected};
  const json j = json::parse(RenderSimulationJson(Report(&sim, &read, &admission)));
  ASSERT_EQ(j["rejected"].size(), 2u);
  EXPECT_EQ(j["rejected"][0]["kind"], "Node");
  EXPECT_EQ(j["rejected"][1]["kind"], "Pod");
  EXPECT_EQ(j["rejected"][1]["message"], rejected.message);
  ASSERT_EQ(j["ignored"].size(), 1u);
  EXPECT_EQ(j["ignored"][0]["kind"], "Service");
  EXPECT_EQ(j["ignored"][0]["name"], "default/svc");
}

TEST(RenderSimulationJsonTest, IdenticalInputGivesByteIdenticalOutput) {
  const SimulationResult a = Cascade();
  const SimulationResult b = Cascade();
  EXPECT_EQ(RenderSimulationJson(Report(&a)), RenderSimulationJson(Report(&b)));
  EXPECT_EQ(RenderSimulationText(Report(&a)), RenderSimulationText(Report(&b)));
}

TEST(RenderSimulationJsonTest, MissingPiecesRenderAsEmptyNotCrash) {
  const json j = json::parse(RenderSimulationJson(RunReport{}));
  EXPECT_TRUE(j["events"].empty());
  EXPECT_TRUE(j["rejected"].empty());
  EXPECT_FALSE(RenderSimulationText(RunReport{}).empty());
}

TEST(RenderSimulationTextTest, TimelineLinesReadLikeTheContract) {
  const SimulationResult sim = Cascade();
  const std::string text = RenderSimulationText(Report(&sim));
  EXPECT_NE(text.find("[   0.000s] Scheduled default/batch on node-a\n"), std::string::npos);
  EXPECT_NE(text.find("[   0.000s] FailedScheduling default/api: 0/1 nodes are available: 1 "
                      "Insufficient cpu."),
            std::string::npos);
  EXPECT_NE(text.find("[   0.000s] Preempted default/batch on node-a by default/api\n"),
            std::string::npos);
  EXPECT_NE(text.find("[   0.000s] Nominated default/api to node-a\n"), std::string::npos);
  EXPECT_NE(text.find("[  30.000s] Deleted default/batch from node-a\n"), std::string::npos);
  EXPECT_NE(text.find("[  30.002s] Scheduled default/api on node-a\n"), std::string::npos);
}

TEST(RenderSimulationTextTest, NodeTablePendingPodsAndSummary) {
  const SimulationResult sim = Cascade();
  const std::string text = RenderSimulationText(Report(&sim));
  EXPECT_NE(text.find("node-a  1500m/2  512Mi/4Gi  1/110  default/api"), std::string::npos)
      << text;
  EXPECT_NE(text.find("Pending pods:\n  default/batch-x2b4c (priority 50): 0/1 nodes are "
                      "available: 1 Insufficient cpu.\n"),
            std::string::npos);
  EXPECT_NE(text.find("Summary: 1 running, 1 pending, 0 terminating, 1 deleted; 1 preemptions"),
            std::string::npos);
  EXPECT_NE(text.find("ended at 30.002s (quiescent)"), std::string::npos);
  EXPECT_EQ(text.find("WARNING"), std::string::npos);
}

TEST(RenderSimulationTextTest, BookProfileReadsLikeTheChaptersLog) {
  SimulationResult sim;
  sim.profile = Profile::kBook;
  SimEvent e = Event(0, EventReason::kPreempted, "default/big", "node-a");
  e.by = "default/api";
  e.round = 1;
  sim.events.push_back(e);
  SimEvent placed = Event(0, EventReason::kScheduled, "default/api", "node-a");
  placed.round = 1;
  sim.events.push_back(placed);
  SimEvent log = Event(0, EventReason::kPreempted, "default/log", "node-b");
  log.by = "default/batch";
  log.pdb_violation = true;
  log.round = 2;
  sim.events.push_back(log);
  SimEvent stuck = Event(0, EventReason::kFailedScheduling, "default/log", "",
                         "log cannot be placed anywhere (and has no one to preempt)");
  stuck.round = 3;
  sim.events.push_back(stuck);
  SimEvent stuck_bare = Event(0, EventReason::kFailedScheduling, "default/big", "");
  stuck_bare.round = 4;
  sim.events.push_back(stuck_bare);
  sim.pods = {PodAt("default/big", 20, PodState::kPending, ""),
              PodAt("default/api", 100, PodState::kRunning, "node-a"),
              PodAt("default/batch", 50, PodState::kRunning, "node-b"),
              PodAt("default/log", 10, PodState::kPending, "")};
  sim.attempt_cap_reached = true;
  sim.end_reason = "max-attempts";
  EngineOptions options;
  options.profile = Profile::kBook;
  options.max_attempts = 3;
  const std::string text = RenderSimulationText(Report(&sim, nullptr, nullptr, &options));
  EXPECT_NE(text.find("[round    1] api (priority 100) preempted big (priority 20) from node-a\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[round    1] api (priority 100) placed on node-a\n"), std::string::npos);
  EXPECT_NE(text.find("batch (priority 50) preempted log (priority 10) from node-b; this breaks a "
                      "PodDisruptionBudget"),
            std::string::npos);
  EXPECT_NE(text.find("[round    3] log cannot be placed anywhere (and has no one to preempt)\n"),
            std::string::npos);
  EXPECT_NE(text.find("[round    4] big cannot be placed anywhere (and has no one to preempt)\n"),
            std::string::npos);
  EXPECT_NE(text.find("WARNING: the attempt cap (3 attempts) stopped the run"), std::string::npos);
  const json j = json::parse(RenderSimulationJson(Report(&sim, nullptr, nullptr, &options)));
  EXPECT_EQ(j["profile"], "book");
  EXPECT_EQ(j["attemptCapReached"], true);
  EXPECT_EQ(j["events"][0]["round"], 1);
}

TEST(RenderSimulationTextTest, RejectedAndIgnoredObjectsAreListed) {
  const SimulationResult sim = Cascade();
  io::ReadResult read;
  read.ignored.push_back(io::IgnoredObject{"Service", "v1", "default/svc", {"f.yaml", 3, 0}});
  AdmissionResult admission;
  AdmissionOutcome rejected;
  rejected.kind = ObjectKind::kPriorityClass;
  rejected.name = "system-foo";
  rejected.source = SourceRef{"f.yaml", 1, 1};
  rejected.message = "PriorityClass.scheduling.k8s.io \"system-foo\" is invalid: x";
  admission.outcomes = {rejected};
  const std::string text = RenderSimulationText(Report(&sim, &read, &admission));
  EXPECT_NE(text.find("Rejected objects:\n  PriorityClass system-foo [" +
                      rejected.source.ToString() + "]: " + rejected.message),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Service default/svc"), std::string::npos);
  EXPECT_NE(text.find("1 rejected, 1 ignored"), std::string::npos);
}

TEST(RenderSimulationTextTest, ReadErrorsNameTheirFileOnce) {
  // Setup: what the reader produces for a YAML syntax error and a refused field (messages that
  // already start with their place). Expect: each printed as is, the file named once per line.
  const SimulationResult sim = Cascade();
  const io::ReadResult read = io::ReadManifestText(
      "kind: Pod\nmetadata: {name: neg}\nspec:\n  containers: [{name: c, resources: {requests: "
      "{cpu: \"-1\"}}}]\n---\nkind: Pod\nmetadata: {name: p\n  bad: [\n",
      "in.yaml");
  ASSERT_EQ(read.errors.size(), 1u);
  ASSERT_EQ(read.file_errors.size(), 1u);
  const std::string text = RenderSimulationText(Report(&sim, &read, nullptr));
  EXPECT_NE(text.find("\n  " + read.errors[0].message + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  " + read.file_errors[0].ToString() + "\n"), std::string::npos) << text;
  std::size_t from = text.find("Rejected objects:");
  ASSERT_NE(from, std::string::npos);
  for (std::size_t at = text.find('\n', from) + 1; at < text.size() && text[at] == ' ';) {
    const std::size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    const std::size_t first = line.find("in.yaml");
    EXPECT_EQ(line.find("in.yaml", first + 1), std::string::npos) << line;
    at = end + 1;
  }
}

// Setup: a pod's fate in one world of the scale-up comparison, as ScaleUpJson writes it. Expect:
// Running at 0 without having waited is "never waited"; Running later, or at 0 after being turned
// away, is placed at a time; Absent and Evicted are their own; any other state is kOther.
TEST(FateOfTest, NamesEachWayAPodEndsInAWorld) {
  EXPECT_EQ(FateOf(json{{"state", "Running"}, {"node", "n1"}, {"at", 0.0}}), FateKind::kNeverWaited);
  EXPECT_EQ(FateOf(json{{"state", "Running"}, {"node", "n1"}, {"at", 0.0}, {"waited", false}}), FateKind::kNeverWaited);
  EXPECT_EQ(FateOf(json{{"state", "Running"}, {"node", "n1"}, {"at", 0.0}, {"waited", true}}), FateKind::kPlacedAt);
  EXPECT_EQ(FateOf(json{{"state", "Running"}, {"node", "n1"}, {"at", 30.0}}), FateKind::kPlacedAt);
  EXPECT_EQ(FateOf(json{{"state", "Absent"}}), FateKind::kAbsent);
  EXPECT_EQ(FateOf(json{{"state", "Evicted"}, {"at", 5.0}}), FateKind::kEvictedAt);
  EXPECT_EQ(FateOf(json{{"state", "Pending"}}), FateKind::kOther);
}

}  // namespace
}  // namespace kpsim::report
