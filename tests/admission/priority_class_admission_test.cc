#include <gtest/gtest.h>

#include "admission/admitters.h"
#include "admission_test_util.h"

namespace kpsim {
namespace {

using testing::AdmitAll;
using testing::Last;
using testing::MakePriorityClass;
using testing::ToObject;

TEST(PriorityClassAdmissionTest, BuiltInClassesComeFirstAndAreNotOutcomes) {
  // Setup: one user class. Expect: the two built-ins, then it; one outcome only.
  const auto r = AdmitAll({ToObject(MakePriorityClass("high").Value(1000).Build())});
  ASSERT_EQ(r.state.priority_classes.size(), 3u);
  EXPECT_EQ(r.state.priority_classes[0].meta.name, "system-cluster-critical");
  EXPECT_EQ(r.state.priority_classes[0].value, 2000000000);
  EXPECT_EQ(r.state.priority_classes[1].meta.name, "system-node-critical");
  EXPECT_EQ(r.state.priority_classes[1].value, 2000001000);
  EXPECT_EQ(r.state.priority_classes[1].preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(r.state.priority_classes[2].meta.name, "high");
  ASSERT_EQ(r.outcomes.size(), 1u);
  EXPECT_TRUE(r.outcomes[0].admitted);
  EXPECT_EQ(r.outcomes[0].operation, Operation::kCreate);
  EXPECT_EQ(r.outcomes[0].name, "high");
  EXPECT_EQ(r.outcomes[0].message, "");
}

TEST(PriorityClassAdmissionTest, EmptyInputStillHasBuiltIns) {
  const auto r = AdmitAll({});
  EXPECT_EQ(r.state.priority_classes.size(), 2u);
  EXPECT_TRUE(r.outcomes.empty());
}

TEST(PriorityClassAdmissionTest, UnknownSystemPrefixedNameIsForbidden) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("system-foo").Value(10).Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_EQ(Last(r).message,
            "PriorityClass.scheduling.k8s.io \"system-foo\" is invalid: metadata.name: "
            "Forbidden: priority class names with 'system-' prefix are reserved for system use "
            "only. error: system-foo is not a known system priority class");
  EXPECT_EQ(r.state.priority_classes.size(), 2u);
}

TEST(PriorityClassAdmissionTest, KnownSystemClassCreateChecksValueAndGlobalDefault) {
  // Setup: admit system classes with no state at all (as the bootstrap would).
  auto wrong_value = admission::AdmitPriorityClass(
      MakePriorityClass("system-node-critical").Value(5).Build(), nullptr, {});
  ASSERT_FALSE(wrong_value.ok());
  EXPECT_EQ(wrong_value.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(wrong_value.error().message,
            "PriorityClass.scheduling.k8s.io \"system-node-critical\" is invalid: metadata.name: "
            "Forbidden: priority class names with 'system-' prefix are reserved for system use "
            "only. error: value of system-node-critical PriorityClass must be 2000001000");
  auto wrong_default = admission::AdmitPriorityClass(
      MakePriorityClass("system-cluster-critical").Value(2000000000).GlobalDefault().Build(),
      nullptr, {});
  ASSERT_FALSE(wrong_default.ok());
  EXPECT_NE(wrong_default.error().message.find(
                "error: globalDefault of system-cluster-critical PriorityClass must be false"),
            std::string::npos);
  EXPECT_TRUE(admission::AdmitPriorityClass(
                  MakePriorityClass("system-cluster-critical").Value(2000000000).Build(), nullptr,
                  {})
                  .ok());
}

TEST(PriorityClassAdmissionTest, ReapplyingABuiltInIsAnUpdate) {
  const auto r = AdmitAll(
      {ToObject(MakePriorityClass("system-node-critical").Value(2000001000).Build()),
       ToObject(MakePriorityClass("system-node-critical").Value(7).Build())});
  EXPECT_TRUE(r.outcomes[0].admitted);
  EXPECT_EQ(r.outcomes[0].operation, Operation::kUpdate);
  EXPECT_FALSE(r.outcomes[1].admitted);
  EXPECT_EQ(r.outcomes[1].message,
            "PriorityClass.scheduling.k8s.io \"system-node-critical\" is invalid: value: "
            "Forbidden: may not be changed in an update.");
  EXPECT_EQ(r.state.priority_classes.size(), 2u);
}

TEST(PriorityClassAdmissionTest, ValueAboveOneBillionIsForbidden) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("huge").Value(1000000001).Build()),
                           ToObject(MakePriorityClass("max").Value(1000000000).Build()),
                           ToObject(MakePriorityClass("negative").Value(-5).Build())});
  EXPECT_EQ(r.outcomes[0].message,
            "PriorityClass.scheduling.k8s.io \"huge\" is invalid: value: Forbidden: maximum "
            "allowed value of a user defined priority is 1000000000");
  EXPECT_TRUE(r.outcomes[1].admitted);
  EXPECT_TRUE(r.outcomes[2].admitted);
}

TEST(PriorityClassAdmissionTest, NameMustBeADnsSubdomain) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("Bad_Name").Value(1).Build())});
  EXPECT_EQ(Last(r).message,
            "PriorityClass.scheduling.k8s.io \"Bad_Name\" is invalid: metadata.name: Invalid "
            "value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case "
            "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
            "character (e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
}

TEST(PriorityClassAdmissionTest, SeveralErrorsAreBracketed) {
  const auto r = AdmitAll(
      {ToObject(MakePriorityClass("Big").Value(2000000000).PreemptionPolicyRaw("").Build())});
  EXPECT_EQ(Last(r).message.substr(0, Last(r).message.find(':')),
            "PriorityClass.scheduling.k8s.io \"Big\" is invalid");
  EXPECT_NE(Last(r).message.find("is invalid: [metadata.name: Invalid value: \"Big\""),
            std::string::npos);
  EXPECT_NE(Last(r).message.find(", value: Forbidden: maximum allowed value"), std::string::npos);
  EXPECT_NE(Last(r).message.find(", preemptionPolicy: Required value]"), std::string::npos);
}

TEST(PriorityClassAdmissionTest, PreemptionPolicyDefaultsAndUnsupportedSpellingIsRejected) {
  const auto r =
      AdmitAll({ToObject(MakePriorityClass("a").Value(1).Build()),
                ToObject(MakePriorityClass("b").Value(1).PreemptionPolicyRaw("Sometimes").Build()),
                ToObject(MakePriorityClass("c").Value(1).PreemptionPolicyRaw("").Build()),
                ToObject(MakePriorityClass("d").Value(1).PreemptionPolicy(PreemptionPolicy::kNever)
                             .Build())});
  ASSERT_TRUE(r.outcomes[0].admitted);
  EXPECT_EQ(r.state.priority_classes[2].preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(r.outcomes[1].message,
            "PriorityClass.scheduling.k8s.io \"b\" is invalid: preemptionPolicy: Unsupported "
            "value: \"Sometimes\": supported values: \"Never\", \"PreemptLowerPriority\"");
  EXPECT_EQ(r.outcomes[2].message,
            "PriorityClass.scheduling.k8s.io \"c\" is invalid: preemptionPolicy: Required value");
  ASSERT_TRUE(r.outcomes[3].admitted);
  EXPECT_EQ(r.state.priority_classes.back().preemption_policy, PreemptionPolicy::kNever);
}

TEST(PriorityClassAdmissionTest, ValueAndPreemptionPolicyAreImmutable) {
  const auto r = AdmitAll(
      {ToObject(MakePriorityClass("high").Value(100).Build()),
       ToObject(MakePriorityClass("high").Value(200).Build()),
       ToObject(MakePriorityClass("high").Value(100).PreemptionPolicy(PreemptionPolicy::kNever)
                    .Build()),
       ToObject(MakePriorityClass("high").Value(100).PreemptionPolicyRaw("Sometimes").Build()),
       ToObject(MakePriorityClass("high").Value(100).Description("now documented").Build())});
  EXPECT_EQ(r.outcomes[1].operation, Operation::kUpdate);
  EXPECT_EQ(r.outcomes[1].message,
            "PriorityClass.scheduling.k8s.io \"high\" is invalid: value: Forbidden: may not be "
            "changed in an update.");
  EXPECT_EQ(r.outcomes[2].message,
            "PriorityClass.scheduling.k8s.io \"high\" is invalid: preemptionPolicy: Invalid "
            "value: \"Never\": field is immutable");
  EXPECT_EQ(r.outcomes[3].message,
            "PriorityClass.scheduling.k8s.io \"high\" is invalid: preemptionPolicy: Invalid "
            "value: \"Sometimes\": field is immutable");
  EXPECT_TRUE(r.outcomes[4].admitted);
  EXPECT_EQ(r.outcomes[4].operation, Operation::kUpdate);
  ASSERT_EQ(r.state.priority_classes.size(), 3u);
  EXPECT_EQ(r.state.priority_classes[2].description, "now documented");
}

TEST(PriorityClassAdmissionTest, OnlyOneGlobalDefault) {
  // Setup: a is default; b tries to be default on create; c tries on update; a re-applies.
  const auto r = AdmitAll({ToObject(MakePriorityClass("a").Value(10).GlobalDefault().Build()),
                           ToObject(MakePriorityClass("b").Value(5).GlobalDefault().Build()),
                           ToObject(MakePriorityClass("c").Value(7).Build()),
                           ToObject(MakePriorityClass("c").Value(7).GlobalDefault().Build()),
                           ToObject(MakePriorityClass("a").Value(10).GlobalDefault()
                                        .Description("still default").Build())});
  EXPECT_EQ(r.outcomes[1].message,
            "priorityclasses.scheduling.k8s.io \"b\" is forbidden: PriorityClass a is already "
            "marked as default. Only one default can exist");
  EXPECT_TRUE(r.outcomes[2].admitted);
  EXPECT_EQ(r.outcomes[3].message,
            "priorityclasses.scheduling.k8s.io \"c\" is forbidden: PriorityClass a is already "
            "marked as default. Only one default can exist");
  EXPECT_TRUE(r.outcomes[4].admitted);
}

TEST(PriorityClassAdmissionTest, DefaultCanMoveAfterTheOldDefaultIsUnmarked) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("a").Value(10).GlobalDefault().Build()),
                           ToObject(MakePriorityClass("a").Value(10).Build()),
                           ToObject(MakePriorityClass("b").Value(5).GlobalDefault().Build())});
  EXPECT_TRUE(r.outcomes[1].admitted);
  EXPECT_TRUE(r.outcomes[2].admitted);
}

TEST(DefaultPriorityClassTest, LowestValueWinsWhenSeveralAreMarked) {
  // Setup: a race left three defaults (admission cannot produce this; the lookup must cope).
  const std::vector<PriorityClass> classes = {
      testing::MakePriorityClass("mid").Value(50).GlobalDefault().Build(),
      testing::MakePriorityClass("low").Value(10).GlobalDefault().Build(),
      testing::MakePriorityClass("low2").Value(10).GlobalDefault().Build(),
      testing::MakePriorityClass("plain").Value(1).Build()};
  const PriorityClass* pc = admission::DefaultPriorityClass(classes);
  ASSERT_NE(pc, nullptr);
  EXPECT_EQ(pc->meta.name, "low");
  EXPECT_EQ(admission::DefaultPriorityClass({classes[3]}), nullptr);
}

TEST(ResolvePriorityTest, NotFoundIsTheBareKubernetesDetail) {
  auto r = admission::ResolvePriority("gold", admission::BuiltInPriorityClasses());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(r.error().message, "no PriorityClass with name gold was found");
  auto system = admission::ResolvePriority("system-node-critical",
                                           admission::BuiltInPriorityClasses());
  ASSERT_TRUE(system.ok());
  EXPECT_EQ(system->value, 2000001000);
}

}  // namespace
}  // namespace kpsim
