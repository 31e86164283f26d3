// Golden tests: the chapter's scenes as shipped in examples/book/, read and admitted as the CLI
// does, then run under the book profile. Each asserts the outcome the chapter describes.

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "book/book.h"
#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/io.h"
#include "kpsim/results.h"

namespace kpsim::book {
namespace {

using ::testing::ElementsAre;

// Reads and admits one example; fails the test on any decode error or rejection.
ClusterState LoadExample(const std::string& name) {
  const std::string path = std::string(KPSIM_SOURCE_DIR) + "/examples/book/" + name;
  const io::ReadResult read = io::ReadManifests({path});
  EXPECT_TRUE(read.errors.empty()) << path;
  EXPECT_TRUE(read.file_errors.empty()) << path;
  AdmissionResult admitted = Admit(read.objects, FeatureGates{}, AdmissionMode::kExisting);
  for (const AdmissionOutcome& outcome : admitted.outcomes) {
    EXPECT_TRUE(outcome.admitted) << outcome.name << ": " << outcome.message;
  }
  return std::move(admitted.state);
}

SimulationResult RunExample(const std::string& name) {
  EngineOptions options;
  options.profile = Profile::kBook;
  options.origin = WallTime{};
  return book::Simulate(LoadExample(name), options);
}

std::vector<std::string> Messages(const SimulationResult& result) {
  std::vector<std::string> out;
  for (const SimEvent& e : result.events) out.push_back(e.message.string());
  return out;
}

std::string StateOf(const SimulationResult& result, const std::string& pod) {
  for (const PodOutcome& o : result.pods) {
    if (o.pod.string() == pod) return std::string(PodStateName(o.state)) + "@" + o.node.string();
  }
  return "missing";
}

TEST(BookExamplesTest, MinimizeEvictsOnlyBig) {
  const SimulationResult result = RunExample("minimize.yaml");
  EXPECT_THAT(Messages(result),
              ElementsAre("api (priority 100) preempted big (priority 20) from node-a",
                          "api placed on node-a (on room made by preemption)",
                          "big cannot be placed anywhere (and has no one to preempt)"));
  EXPECT_EQ(StateOf(result, "default/small-a"), "Running@node-a");
  EXPECT_EQ(StateOf(result, "default/small-b"), "Running@node-a");
  EXPECT_EQ(StateOf(result, "default/big"), "Pending@");
}

TEST(BookExamplesTest, CascadeWithPdbDeflectsTheFirstBlowButCannotSaveLog) {
  const SimulationResult result = RunExample("cascade.yaml");
  EXPECT_THAT(
      Messages(result),
      ElementsAre("api (priority 100) preempted batch (priority 50) from node-a",
                  "api placed on node-a (on room made by preemption)",
                  "batch (priority 50) preempted log (priority 10) from node-b, breaking a "
                  "PodDisruptionBudget",
                  "batch placed on node-b (on room made by preemption)",
                  "log cannot be placed anywhere (and has no one to preempt)"));
  ASSERT_EQ(result.events.size(), 5u);
  EXPECT_FALSE(result.events[0].pdb_violation);
  EXPECT_TRUE(result.events[2].pdb_violation);
  EXPECT_EQ(result.events[2].by, "default/batch");
  EXPECT_EQ(StateOf(result, "default/batch"), "Running@node-b");
}

TEST(BookExamplesTest, CascadeWithoutPdbEvictsLogOnce) {
  const SimulationResult result = RunExample("cascade-no-pdb.yaml");
  EXPECT_THAT(Messages(result),
              ElementsAre("api (priority 100) preempted log (priority 10) from node-b",
                          "api placed on node-b (on room made by preemption)",
                          "log cannot be placed anywhere (and has no one to preempt)"));
  EXPECT_EQ(StateOf(result, "default/batch"), "Running@node-a");
}

TEST(BookExamplesTest, QueueOrderPlacesHighBeforeLowWithoutEviction) {
  const SimulationResult result = RunExample("queue-order.yaml");
  EXPECT_THAT(Messages(result), ElementsAre("high (priority 100) placed on node-a",
                                            "low (priority 0) placed on node-a"));
  EXPECT_EQ(result.stats.victims, 0);
}

TEST(BookExamplesTest, ExplainMinimizeThroughTheManifests) {
  EngineOptions options;
  options.profile = Profile::kBook;
  options.origin = WallTime{};
  auto explain = book::Explain(LoadExample("minimize.yaml"), options, "default/api");
  ASSERT_TRUE(explain.ok());
  ASSERT_TRUE(explain->chosen.has_value());
  EXPECT_THAT(explain->chosen->victims, ElementsAre("default/big"));
  ASSERT_EQ(explain->candidates.size(), 1u);
  EXPECT_THAT(explain->candidates[0].reprieved, ElementsAre("default/small-a", "default/small-b"));
}

}  // namespace
}  // namespace kpsim::book
