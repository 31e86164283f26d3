// Unit tests of the Evaluator (Evaluator.Preempt on the per-node path) on its own, without the
// cycle around it: the three outcomes, which nodes get a dry run, and the per-node dry-run
// cache's invalidation when a node's pods change.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "framework/filter_runner.h"
#include "plugins/registry.h"
#include "preemption/evaluator.h"
#include "preemption/select_victims.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using namespace kpsim::engine::id_literals;  // NOLINT(google-build-using-namespace)

using kpsim::testing::MakePod;

class EvaluatorTest : public ::testing::Test {
 protected:
  void AddNode(Node node) { state_.nodes.push_back(std::move(node)); }
  void AddPod(Pod pod) { state_.pods.push_back(Admitted(std::move(pod))); }

  // Builds the rooms over the state added so far.
  void Build() {
    options_.origin = WallTime{kOriginUs};
    model_ = std::make_unique<ClusterModel>(state_, options_);
    filters_ = std::make_unique<FilterRunner>(*model_, options_, NewFilterPlugins(*model_));
    victims_ = std::make_unique<VictimSelector>(*model_, *filters_);
    evaluator_ = std::make_unique<Evaluator>(*model_, options_, *filters_, *victims_, rng_);
  }
  PodId Id(const std::string& name) { return model_->FindPod("default/" + name).value(); }
  const PodInfo& Pod(const std::string& name) { return model_->pod(Id(name)); }
  // The Filter verdicts the cycle would hand over, by NodeId.
  NodeStatuses Statuses(const PodInfo& pod) {
    NodeStatuses out;
    for (NodeId n : model_->nodes().ids()) {
      out.push_back(filters_->Run(pod, n, model_->node(n).requested, nullptr));
    }
    return out;
  }
  PreemptionOutcome Preempt(const std::string& name) {
    const PodInfo& pod = Pod(name);
    return evaluator_->Preempt(pod, Statuses(pod), nullptr);
  }
  std::vector<std::string> Victims(const PreemptionOutcome& out) const {
    std::vector<std::string> names;
    if (!out.best) return names;
    for (const Victim& v : out.best->victims) names.push_back(model_->pod(v.pod).key.string());
    return names;
  }
  std::string NodeOf(const PreemptionOutcome& out) const {
    return out.best ? model_->node(out.best->node).name.string() : "";
  }

  ClusterState state_;
  EngineOptions options_;
  Mt19937_64 rng_{1};
  std::unique_ptr<ClusterModel> model_;
  std::unique_ptr<FilterRunner> filters_;
  std::unique_ptr<VictimSelector> victims_;
  std::unique_ptr<Evaluator> evaluator_;
};

// Expect: step 1 refuses a Never pod before any dry run.
TEST_F(EvaluatorTest, IneligiblePodRunsNoDryRun) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddPod(MakePod("lo").Node("n1").Priority(0).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).PreemptionPolicy(PreemptionPolicy::kNever).Cpu("1").Build());
  Build();
  const PreemptionOutcome out = Preempt("p");
  EXPECT_EQ(out.kind, PreemptionOutcome::Kind::kIneligible);
  EXPECT_EQ(out.ineligible, "not eligible due to preemptionPolicy=Never.");
  EXPECT_EQ(out.dry_runs, 0);
  EXPECT_FALSE(out.best.has_value());
}

// Setup: n1 is full of a pod of equal priority; n2 is too small for p whatever is removed, which
// NodeResourcesFit says as UnschedulableAndUnresolvable. Expect: one dry run (n1 only, the
// potential node), no candidate, and n1's dry-run status kept for the message.
TEST_F(EvaluatorTest, NoCandidateIsNotHelpfulWithTheDryRunStatuses) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "500m").Build());
  AddPod(MakePod("same").Node("n1").Priority(10).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  Build();
  const PreemptionOutcome out = Preempt("p");
  EXPECT_EQ(out.kind, PreemptionOutcome::Kind::kNotHelpful);
  EXPECT_EQ(out.dry_runs, 1);
  ASSERT_EQ(out.dry_statuses.size(), 2u);
  EXPECT_FALSE(out.dry_statuses[0_node].IsSuccess()) << "n1's dry run found no victims";
  EXPECT_TRUE(out.dry_statuses[1_node].IsSuccess()) << "n2 had no dry run";
}

// Setup: n1 runs a priority-5 pod, n2 a priority-1 pod; p (priority 10) fits on either once its
// victim is gone. Expect: n2 (lowest highest-victim priority), a record naming both candidates.
TEST_F(EvaluatorTest, FoundPicksByTheTieBreakerTableAndRecordsTheCandidates) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddPod(MakePod("mid").Node("n1").Priority(5).Cpu("1").Build());
  AddPod(MakePod("low").Node("n2").Priority(1).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  Build();
  const PreemptionOutcome out = Preempt("p");
  ASSERT_EQ(out.kind, PreemptionOutcome::Kind::kFound);
  EXPECT_EQ(NodeOf(out), "n2");
  EXPECT_EQ(Victims(out), std::vector<std::string>{"default/low"});
  EXPECT_EQ(out.dry_runs, 2);
  ASSERT_TRUE(out.record.has_value());
  EXPECT_EQ(out.record->candidate_count, 2);
  ASSERT_EQ(out.record->candidates.size(), 2u);
}

// Setup: as above; after the first evaluation n2's victim goes away (the model's generation of
// n2 changes) and a priority-8 pod takes its place. Expect: the second evaluation sees it and
// picks n1, whose victim (5) is now the lower one: a stale cached dry run would still say n2.
TEST_F(EvaluatorTest, CachedDryRunFollowsTheNodesChanges) {
  AddNode(NodeWithCpu("n1", "1").Build());
  AddNode(NodeWithCpu("n2", "1").Build());
  AddPod(MakePod("mid").Node("n1").Priority(5).Cpu("1").Build());
  AddPod(MakePod("low").Node("n2").Priority(1).Cpu("1").Build());
  AddPod(MakePod("high").Priority(8).Cpu("1").Build());
  AddPod(MakePod("p").Priority(10).Cpu("1").Build());
  Build();
  ASSERT_EQ(NodeOf(Preempt("p")), "n2");
  const NodeId n2 = model_->FindNode("n2").value();
  model_->Remove(Id("low"), SimTime{});
  model_->Bind(Id("high"), n2, SimTime{});
  const PreemptionOutcome again = Preempt("p");
  ASSERT_EQ(again.kind, PreemptionOutcome::Kind::kFound);
  EXPECT_EQ(NodeOf(again), "n1");
  EXPECT_EQ(Victims(again), std::vector<std::string>{"default/mid"});
}

}  // namespace
}  // namespace kpsim::engine::test
