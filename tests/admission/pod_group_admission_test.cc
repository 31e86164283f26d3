#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "admission_test_util.h"

namespace kpsim {
namespace {

using ::testing::HasSubstr;
using testing::AdmitAll;
using testing::Last;
using testing::MakeCompositePodGroup;
using testing::MakePodGroup;
using testing::MakePriorityClass;
using testing::ToObject;

FeatureGates PolicyGateOn() {
  FeatureGates gates;
  gates.pod_group_preemption_policy = true;
  return gates;
}

TEST(PodGroupAdmissionTest, ResolvesPriorityClassLikePods) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("train").Value(500).Build()),
                           ToObject(MakePodGroup("job").PriorityClass("train").Gang(4).Build())});
  ASSERT_TRUE(Last(r).admitted) << Last(r).message;
  EXPECT_EQ(Last(r).name, "default/job");
  EXPECT_EQ(Last(r).kind, ObjectKind::kPodGroup);
  EXPECT_EQ(Last(r).priority, 500);
  EXPECT_EQ(Last(r).priority_class_name, "train");
  ASSERT_EQ(r.state.pod_groups.size(), 1u);
  EXPECT_EQ(r.state.pod_groups[0].priority, 500);
  EXPECT_FALSE(r.state.pod_groups[0].composite);
}

TEST(PodGroupAdmissionTest, EmptyClassTakesDefaultElseZero) {
  const auto none = AdmitAll({ToObject(MakePodGroup("g").Build())});
  EXPECT_EQ(none.state.pod_groups[0].priority, 0);
  const auto with_default =
      AdmitAll({ToObject(MakePriorityClass("d").Value(3).GlobalDefault().Build()),
                ToObject(MakePodGroup("g").Build())});
  EXPECT_EQ(with_default.state.pod_groups[0].priority, 3);
  EXPECT_EQ(with_default.state.pod_groups[0].priority_class_name, "d");
}

TEST(PodGroupAdmissionTest, UnknownClassIsForbiddenWithTheGroupResource) {
  const auto r = AdmitAll({ToObject(MakePodGroup("job").PriorityClass("gold").Build()),
                           ToObject(MakeCompositePodGroup("root").PriorityClass("gold").Build())});
  EXPECT_EQ(r.outcomes[0].message,
            "podgroups.scheduling.k8s.io \"job\" is forbidden: no PriorityClass with name gold "
            "was found");
  EXPECT_EQ(r.outcomes[1].kind, ObjectKind::kCompositePodGroup);
  EXPECT_EQ(r.outcomes[1].message,
            "compositepodgroups.scheduling.k8s.io \"root\" is forbidden: no PriorityClass with "
            "name gold was found");
}

TEST(PodGroupAdmissionTest, PresetPriorityMustAgree) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("train").Value(500).Build()),
                           ToObject(MakePodGroup("job").PriorityClass("train").Priority(9).Build())});
  EXPECT_EQ(Last(r).message,
            "podgroups.scheduling.k8s.io \"job\" is forbidden: the integer value of priority (9) "
            "must not be provided in pod group spec; priority admission controller computed 500 "
            "from the given PriorityClass name");
}

TEST(PodGroupAdmissionTest, SystemClassExceedsTheGroupPriorityMaximum) {
  const auto r = AdmitAll({ToObject(MakePodGroup("job").PriorityClass("system-node-critical").Build())});
  EXPECT_EQ(Last(r).message,
            "PodGroup.scheduling.k8s.io \"job\" is invalid: spec.priority: Invalid value: "
            "2000001000: must be less than or equal to 1000000000");
  EXPECT_TRUE(r.state.pod_groups.empty());
}

TEST(PodGroupAdmissionTest, PreemptionPolicyComesFromTheClassWhenTheGateIsOn) {
  const std::vector<Object> input = {
      ToObject(MakePriorityClass("never").Value(5).PreemptionPolicy(PreemptionPolicy::kNever)
                   .Build()),
      ToObject(MakePodGroup("a").PriorityClass("never").Build()),
      ToObject(MakePodGroup("b").PriorityClass("never")
                   .PreemptionPolicy(PreemptionPolicy::kPreemptLowerPriority).Build())};
  const auto on = AdmitAll(input, PolicyGateOn());
  EXPECT_EQ(on.outcomes[1].preemption_policy, PreemptionPolicy::kNever);
  EXPECT_EQ(on.outcomes[2].message,
            "podgroups.scheduling.k8s.io \"b\" is forbidden: the string value of PreemptionPolicy "
            "(PreemptLowerPriority) must not be provided in pod group spec; priority admission "
            "controller computed Never from the given PriorityClass name");
  // Gate off: the field is left as given.
  const auto off = AdmitAll(input);
  EXPECT_EQ(off.outcomes[1].preemption_policy, std::nullopt);
  EXPECT_TRUE(off.outcomes[2].admitted);
  EXPECT_EQ(off.outcomes[2].preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
}

TEST(PodGroupAdmissionTest, PriorityFieldsDisruptionModeAndParentAreImmutable) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("a").Value(1).Build()),
                           ToObject(MakePriorityClass("b").Value(2).Build()),
                           ToObject(MakePodGroup("g").PriorityClass("a").Build()),
                           ToObject(MakePodGroup("g").Build()),
                           ToObject(MakePodGroup("g").PriorityClass("b").Build()),
                           ToObject(MakePodGroup("g").Priority(7).Build()),
                           ToObject(MakePodGroup("g").DisruptionAll().Build()),
                           ToObject(MakePodGroup("g").Parent("root").Build())});
  EXPECT_TRUE(r.outcomes[3].admitted) << r.outcomes[3].message;
  EXPECT_EQ(r.outcomes[3].operation, Operation::kUpdate);
  EXPECT_EQ(r.outcomes[3].priority, 1);
  EXPECT_EQ(r.outcomes[4].message,
            "PodGroup.scheduling.k8s.io \"g\" is invalid: spec.priorityClassName: Invalid value: "
            "\"b\": field is immutable");
  EXPECT_EQ(r.outcomes[5].message,
            "PodGroup.scheduling.k8s.io \"g\" is invalid: spec.priority: Invalid value: 7: field "
            "is immutable");
  EXPECT_EQ(r.outcomes[6].message,
            "PodGroup.scheduling.k8s.io \"g\" is invalid: spec.disruptionMode: Invalid value: "
            "\"all\": field is immutable");
  EXPECT_EQ(r.outcomes[7].message,
            "PodGroup.scheduling.k8s.io \"g\" is invalid: spec.parentCompositePodGroupName: "
            "Invalid value: \"root\": field is immutable");
}

TEST(PodGroupAdmissionTest, GangNeedsAPositiveMinCountAndOneTopologyKeyAtMost) {
  const auto r = AdmitAll({ToObject(MakePodGroup("g").Gang(0).Build()),
                           ToObject(MakePodGroup("h").TopologyKey("zone").TopologyKey("rack")
                                        .Build())});
  EXPECT_EQ(r.outcomes[0].message,
            "PodGroup.scheduling.k8s.io \"g\" is invalid: spec.schedulingPolicy.gang.minCount: "
            "Invalid value: 0: must be greater than or equal to 1");
  EXPECT_EQ(r.outcomes[1].message,
            "PodGroup.scheduling.k8s.io \"h\" is invalid: spec.schedulingConstraints.topology: "
            "Too many: 2: must have at most 1 items");
}

TEST(PodGroupAdmissionTest, PodGroupAndCompositeWithOneNameAreDistinctObjects) {
  const auto r = AdmitAll({ToObject(MakePodGroup("x").Build()),
                           ToObject(MakeCompositePodGroup("x").DisruptionAll().Build())});
  EXPECT_EQ(r.outcomes[1].operation, Operation::kCreate);
  ASSERT_EQ(r.state.pod_groups.size(), 2u);
  EXPECT_TRUE(r.state.pod_groups[1].composite);
}

TEST(PodGroupAdmissionTest, RejectedGroupIsLeftOutOfTheState) {
  const auto r = AdmitAll({ToObject(MakePodGroup("job").PriorityClass("gold").Build()),
                           ToObject(MakePodGroup("other").Build())});
  EXPECT_FALSE(r.outcomes[0].admitted);
  EXPECT_TRUE(r.outcomes[1].admitted);
  ASSERT_EQ(r.state.pod_groups.size(), 1u);
  EXPECT_EQ(r.state.pod_groups[0].meta.name, "other");
}

TEST(PodGroupAdmissionTest, CompositeGroupTakesTheGlobalDefaultElseZero) {
  const auto none = AdmitAll({ToObject(MakeCompositePodGroup("root").Build())});
  ASSERT_TRUE(Last(none).admitted) << Last(none).message;
  EXPECT_EQ(Last(none).kind, ObjectKind::kCompositePodGroup);
  EXPECT_EQ(Last(none).priority, 0);
  EXPECT_EQ(Last(none).priority_class_name, "");
  const auto with_default =
      AdmitAll({ToObject(MakePriorityClass("d").Value(42).GlobalDefault().Build()),
                ToObject(MakeCompositePodGroup("root").Build())});
  ASSERT_TRUE(Last(with_default).admitted) << Last(with_default).message;
  EXPECT_EQ(Last(with_default).priority, 42);
  EXPECT_EQ(Last(with_default).priority_class_name, "d");
  ASSERT_EQ(with_default.state.pod_groups.size(), 1u);
  EXPECT_TRUE(with_default.state.pod_groups[0].composite);
  EXPECT_EQ(with_default.state.pod_groups[0].priority, 42);
}

TEST(PodGroupAdmissionTest, GlobalDefaultAppliesOnlyToGroupsWithoutAClass) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("d").Value(3).GlobalDefault().Build()),
                           ToObject(MakePriorityClass("train").Value(500).Build()),
                           ToObject(MakePodGroup("named").PriorityClass("train").Build()),
                           ToObject(MakePodGroup("unnamed").Build())});
  EXPECT_EQ(r.outcomes[2].priority, 500);
  EXPECT_EQ(r.outcomes[2].priority_class_name, "train");
  EXPECT_EQ(r.outcomes[3].priority, 3);
  EXPECT_EQ(r.outcomes[3].priority_class_name, "d");
}

TEST(PodGroupAdmissionTest, GlobalDefaultBringsItsPreemptionPolicyWhenTheGateIsOn) {
  const std::vector<Object> input = {
      ToObject(MakePriorityClass("d").Value(3).GlobalDefault()
                   .PreemptionPolicy(PreemptionPolicy::kNever).Build()),
      ToObject(MakePodGroup("g").Build()),
      ToObject(MakeCompositePodGroup("root").Build())};
  const auto on = AdmitAll(input, PolicyGateOn());
  EXPECT_EQ(on.outcomes[1].preemption_policy, PreemptionPolicy::kNever);
  EXPECT_EQ(on.outcomes[2].preemption_policy, PreemptionPolicy::kNever);
  const auto off = AdmitAll(input);
  EXPECT_EQ(off.outcomes[1].priority, 3);
  EXPECT_EQ(off.outcomes[1].preemption_policy, std::nullopt);
}

TEST(PodGroupAdmissionTest, ClassWithoutPolicyDefaultsTheGroupToPreemptLowerPriority) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("train").Value(500).Build()),
                           ToObject(MakePodGroup("g").PriorityClass("train").Build())},
                          PolicyGateOn());
  ASSERT_TRUE(Last(r).admitted) << Last(r).message;
  EXPECT_EQ(Last(r).preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(r.state.pod_groups[0].preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
}

TEST(PodGroupAdmissionTest, PresetPriorityThatAgreesIsAccepted) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("train").Value(500).Build()),
                           ToObject(MakePodGroup("a").PriorityClass("train").Priority(500).Build()),
                           ToObject(MakePodGroup("b").Priority(0).Build())});
  EXPECT_TRUE(r.outcomes[1].admitted) << r.outcomes[1].message;
  EXPECT_EQ(r.outcomes[1].priority, 500);
  EXPECT_TRUE(r.outcomes[2].admitted) << r.outcomes[2].message;
  EXPECT_EQ(r.outcomes[2].priority, 0);
}

TEST(PodGroupAdmissionTest, PresetPriorityWithoutAnyClassMustBeZero) {
  const auto r = AdmitAll({ToObject(MakePodGroup("job").Priority(5).Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_EQ(Last(r).message,
            "podgroups.scheduling.k8s.io \"job\" is forbidden: the integer value of priority (5) "
            "must not be provided in pod group spec; priority admission controller computed 0 "
            "from the given PriorityClass name");
}

TEST(PodGroupAdmissionTest, PresetPriorityMustAgreeForCompositeGroups) {
  const auto r = AdmitAll(
      {ToObject(MakePriorityClass("train").Value(500).Build()),
       ToObject(MakeCompositePodGroup("root").PriorityClass("train").Priority(9).Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_THAT(Last(r).message,
              HasSubstr("compositepodgroups.scheduling.k8s.io \"root\" is forbidden: the integer "
                        "value of priority (9) must not be provided in "));
  EXPECT_THAT(Last(r).message, HasSubstr("priority admission controller computed 500 from the "
                                         "given PriorityClass name"));
  EXPECT_TRUE(r.state.pod_groups.empty());
}

TEST(PodGroupAdmissionTest, GroupPriorityMayReachTheUserMaximum) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("max").Value(kHighestUserDefinablePriority)
                                        .Build()),
                           ToObject(MakePodGroup("g").PriorityClass("max").Build())});
  ASSERT_TRUE(Last(r).admitted) << Last(r).message;
  EXPECT_EQ(Last(r).priority, kHighestUserDefinablePriority);
}

TEST(PodGroupAdmissionTest, PreemptionPolicyIsImmutable) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("never").Value(5)
                                        .PreemptionPolicy(PreemptionPolicy::kNever).Build()),
                           ToObject(MakePodGroup("g").PriorityClass("never").Build()),
                           ToObject(MakePodGroup("g").PriorityClass("never")
                                        .PreemptionPolicy(PreemptionPolicy::kPreemptLowerPriority)
                                        .Build())},
                          PolicyGateOn());
  ASSERT_TRUE(r.outcomes[1].admitted) << r.outcomes[1].message;
  EXPECT_EQ(r.outcomes[2].operation, Operation::kUpdate);
  EXPECT_EQ(r.outcomes[2].message,
            "PodGroup.scheduling.k8s.io \"g\" is invalid: spec.preemptionPolicy: Invalid value: "
            "\"PreemptLowerPriority\": field is immutable");
  // The live object keeps its policy.
  ASSERT_EQ(r.state.pod_groups.size(), 1u);
  EXPECT_EQ(r.state.pod_groups[0].preemption_policy, PreemptionPolicy::kNever);
}

TEST(PodGroupAdmissionTest, CompositeGroupFieldsAreImmutableToo) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("a").Value(1).Build()),
                           ToObject(MakeCompositePodGroup("root").PriorityClass("a").DisruptionAll()
                                        .Build()),
                           ToObject(MakeCompositePodGroup("root").DisruptionSingle().Build()),
                           ToObject(MakeCompositePodGroup("root").Priority(2).Build())});
  ASSERT_TRUE(r.outcomes[1].admitted) << r.outcomes[1].message;
  EXPECT_EQ(r.outcomes[2].operation, Operation::kUpdate);
  EXPECT_EQ(r.outcomes[2].message,
            "CompositePodGroup.scheduling.k8s.io \"root\" is invalid: spec.disruptionMode: Invalid "
            "value: \"single\": field is immutable");
  EXPECT_EQ(r.outcomes[3].message,
            "CompositePodGroup.scheduling.k8s.io \"root\" is invalid: spec.priority: Invalid "
            "value: 2: field is immutable");
  ASSERT_EQ(r.state.pod_groups.size(), 1u);
  EXPECT_EQ(r.state.pod_groups[0].disruption_mode, DisruptionMode::kAll);
  EXPECT_EQ(r.state.pod_groups[0].priority, 1);
}

TEST(PodGroupAdmissionTest, UpdateThatOmitsImmutableFieldsKeepsTheLiveValues) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("a").Value(7).Build()),
                           ToObject(MakePodGroup("g").PriorityClass("a").DisruptionAll().Gang(2)
                                        .Build()),
                           ToObject(MakePodGroup("g").Gang(3).Build())});
  ASSERT_TRUE(r.outcomes[2].admitted) << r.outcomes[2].message;
  EXPECT_EQ(r.outcomes[2].operation, Operation::kUpdate);
  ASSERT_EQ(r.state.pod_groups.size(), 1u);
  const PodGroup& g = r.state.pod_groups[0];
  EXPECT_EQ(g.priority, 7);
  EXPECT_EQ(g.priority_class_name, "a");
  EXPECT_EQ(g.disruption_mode, DisruptionMode::kAll);
  EXPECT_EQ(g.scheduling_policy.min_count, 3);
}

}  // namespace
}  // namespace kpsim
