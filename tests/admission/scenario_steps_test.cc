// Admission of Scenario steps: applies admitted at their time, in time order, against what the
// input and earlier steps left; creates and updates; a delete makes the next apply a create.

#include <string>

#include <gtest/gtest.h>

#include "admission_test_util.h"

namespace kpsim {
namespace {

using testing::MakeNode;
using testing::MakePod;
using testing::MakePriorityClass;
using testing::ToObject;

ScenarioStep Apply(std::int64_t at_s, Object object) {
  ScenarioStep step;
  step.at_us = at_s * 1'000'000;
  step.action = StepAction::kApply;
  step.object = std::move(object);
  return step;
}

ScenarioStep Delete(std::int64_t at_s, std::string kind, std::string name) {
  ScenarioStep step;
  step.at_us = at_s * 1'000'000;
  step.action = StepAction::kDelete;
  step.kind = std::move(kind);
  step.name = std::move(name);
  return step;
}

Scenario MakeScenario(std::vector<ScenarioStep> steps) {
  Scenario s;
  s.meta.name = "s";
  for (std::size_t i = 0; i < steps.size(); ++i) steps[i].index = static_cast<int>(i);
  s.steps = std::move(steps);
  return s;
}

TEST(ScenarioStepsAdmissionTest, StepsAreAdmittedInTimeOrderAgainstEarlierSteps) {
  // Written out of order: the pod (10s) names the class created at 5s.
  const Scenario scenario = MakeScenario({
      Apply(10, ToObject(MakePod("hot").PriorityClass("urgent").Build())),
      Apply(5, ToObject(MakePriorityClass("urgent").Value(5000).Build())),
  });
  const AdmissionResult r = Admit({ToObject(MakeNode("n1").Build())}, FeatureGates{},
                                  AdmissionMode::kExisting, {scenario});
  ASSERT_EQ(r.state.steps.size(), 2u);
  EXPECT_EQ(r.state.steps[0].step.at_us, 5'000'000);
  EXPECT_EQ(r.state.steps[1].step.index, 0);
  const Pod& hot = std::get<Pod>(r.state.steps[1].step.object->value);
  EXPECT_EQ(hot.spec.priority, 5000);
  EXPECT_EQ(hot.meta.namespace_, "default");
  EXPECT_TRUE(r.state.pods.empty());  // a step's pod is not in the state at time 0
  // The class created by a step is known to later admissions only.
  EXPECT_EQ(r.outcomes.size(), 3u);
  EXPECT_TRUE(r.outcomes[2].admitted);
  EXPECT_EQ(r.outcomes[2].priority, 5000);
}

TEST(ScenarioStepsAdmissionTest, ARefusedApplyIsAnOutcomeAndItsStepIsDropped) {
  const Scenario scenario = MakeScenario({
      Apply(1, ToObject(MakePod("ghost").PriorityClass("missing").Build())),
      Delete(2, "Pod", "ghost"),
  });
  const AdmissionResult r = Admit({}, FeatureGates{}, AdmissionMode::kExisting, {scenario});
  ASSERT_EQ(r.outcomes.size(), 1u);
  EXPECT_FALSE(r.outcomes[0].admitted);
  EXPECT_EQ(r.outcomes[0].message, "pods \"ghost\" is forbidden: no PriorityClass with name missing was found");
  ASSERT_EQ(r.state.steps.size(), 1u);  // the delete is checked when it runs
  EXPECT_EQ(r.state.steps[0].step.action, StepAction::kDelete);
}

TEST(ScenarioStepsAdmissionTest, ApplyOfAnExistingObjectIsAnUpdateUntilItIsDeleted) {
  const Scenario scenario = MakeScenario({
      Apply(1, ToObject(MakeNode("n1").Cpu("8").Build())),
      Apply(2, ToObject(MakePod("web").Build())),
      Delete(3, "Pod", "web"),
      Apply(4, ToObject(MakePod("web").Build())),
      Apply(5, ToObject(MakePod("web").Build())),
  });
  const AdmissionResult r = Admit({ToObject(MakeNode("n1").Build()), ToObject(MakePod("web").Build())},
                                  FeatureGates{}, AdmissionMode::kExisting, {scenario});
  ASSERT_EQ(r.state.steps.size(), 5u);
  EXPECT_EQ(r.state.steps[0].operation, Operation::kUpdate);  // the input's node
  EXPECT_EQ(r.state.steps[1].operation, Operation::kUpdate);  // the input's pod
  EXPECT_EQ(r.state.steps[3].operation, Operation::kCreate);  // after the delete
  EXPECT_EQ(r.state.steps[4].operation, Operation::kUpdate);
}

TEST(ScenarioStepsAdmissionTest, AStepsPodIsACreateEvenWithSpecPriority) {
  // A pod created during the run goes through the Priority admission plugin: spec.priority that
  // the class does not give is refused, unlike an existing pod of the snapshot.
  const Scenario scenario = MakeScenario({Apply(1, ToObject(MakePod("p").Priority(7).Build()))});
  const AdmissionResult r = Admit({}, FeatureGates{}, AdmissionMode::kExisting, {scenario});
  ASSERT_EQ(r.outcomes.size(), 1u);
  EXPECT_FALSE(r.outcomes[0].admitted);
  EXPECT_TRUE(r.state.steps.empty());
}

}  // namespace
}  // namespace kpsim
