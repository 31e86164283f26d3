#include <set>
#include <string>

#include <gtest/gtest.h>

#include "admission_test_util.h"

namespace kpsim {
namespace {

using testing::AdmitAll;
using testing::Last;
using testing::MakePod;
using testing::MakePriorityClass;
using testing::ToObject;

constexpr std::string_view kUpdatable =
    "pod updates may not change fields other than `spec.containers[*].image`,"
    "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only "
    "additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set "
    "to 1 if it was previously negative)\n";

TEST(PodAdmissionTest, UnknownPriorityClassIsForbidden) {
  const auto r = AdmitAll({ToObject(MakePod("web").PriorityClass("gold").Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_EQ(Last(r).name, "default/web");
  EXPECT_EQ(Last(r).message, "pods \"web\" is forbidden: no PriorityClass with name gold was found");
  EXPECT_TRUE(r.state.pods.empty());
}

TEST(PodAdmissionTest, ResolvesClassValueAndPreemptionPolicy) {
  const auto r = AdmitAll(
      {ToObject(MakePriorityClass("batch").Value(50).PreemptionPolicy(PreemptionPolicy::kNever)
                    .Build()),
       ToObject(MakePod("job").PriorityClass("batch").Build())});
  ASSERT_TRUE(Last(r).admitted);
  EXPECT_EQ(Last(r).priority, 50);
  EXPECT_EQ(Last(r).priority_class_name, "batch");
  EXPECT_EQ(Last(r).preemption_policy, PreemptionPolicy::kNever);
  ASSERT_EQ(r.state.pods.size(), 1u);
  EXPECT_EQ(r.state.pods[0].spec.priority, 50);
  EXPECT_EQ(r.state.pods[0].spec.preemption_policy, PreemptionPolicy::kNever);
  EXPECT_EQ(r.state.pods[0].meta.namespace_, "default");
}

TEST(PodAdmissionTest, NoClassAndNoDefaultMeansZeroAndPreemptLowerPriority) {
  const auto r = AdmitAll({ToObject(MakePod("web").Build())});
  ASSERT_TRUE(Last(r).admitted);
  const Pod& pod = r.state.pods[0];
  EXPECT_EQ(pod.spec.priority, 0);
  EXPECT_EQ(pod.spec.priority_class_name, "");
  EXPECT_EQ(pod.spec.preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(pod.spec.termination_grace_period_seconds, 30);
}

TEST(PodAdmissionTest, EmptyClassNameTakesTheGlobalDefault) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("low").Value(-10).GlobalDefault().Build()),
                           ToObject(MakePod("web").Namespace("shop").Build())});
  ASSERT_TRUE(Last(r).admitted);
  EXPECT_EQ(Last(r).name, "shop/web");
  EXPECT_EQ(r.state.pods[0].spec.priority, -10);
  EXPECT_EQ(r.state.pods[0].spec.priority_class_name, "low");
}

TEST(PodAdmissionTest, SystemClassesResolveLikeAnyOther) {
  const auto r = AdmitAll({ToObject(MakePod("dns").PriorityClass("system-cluster-critical").Build())});
  ASSERT_TRUE(Last(r).admitted);
  EXPECT_EQ(r.state.pods[0].spec.priority, 2000000000);
}

TEST(PodAdmissionTest, PresetPriorityMustEqualTheComputedOne) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("high").Value(1000).Build()),
                           ToObject(MakePod("a").PriorityClass("high").Priority(1000).Build()),
                           ToObject(MakePod("b").PriorityClass("high").Priority(5).Build()),
                           ToObject(MakePod("c").Priority(7).Build())});
  EXPECT_TRUE(r.outcomes[1].admitted);
  EXPECT_EQ(r.outcomes[2].message,
            "pods \"b\" is forbidden: the integer value of priority (5) must not be provided in "
            "pod spec; priority admission controller computed 1000 from the given PriorityClass "
            "name");
  EXPECT_EQ(r.outcomes[3].message,
            "pods \"c\" is forbidden: the integer value of priority (7) must not be provided in "
            "pod spec; priority admission controller computed 0 from the given PriorityClass name");
}

TEST(PodAdmissionTest, PresetPreemptionPolicyMustEqualTheComputedOne) {
  // Setup: `never` class; pods asking for the other policy, and one with no class asking Never
  // (the plugin computes PreemptLowerPriority when no class exists, so that is refused too).
  const auto r = AdmitAll(
      {ToObject(MakePriorityClass("never").Value(10).PreemptionPolicy(PreemptionPolicy::kNever)
                    .Build()),
       ToObject(MakePod("a").PriorityClass("never").PreemptionPolicy(PreemptionPolicy::kNever)
                    .Build()),
       ToObject(MakePod("b").PriorityClass("never")
                    .PreemptionPolicy(PreemptionPolicy::kPreemptLowerPriority).Build()),
       ToObject(MakePod("c").PreemptionPolicy(PreemptionPolicy::kNever).Build()),
       ToObject(MakePod("d").PriorityClass("never").PreemptionPolicyRaw("Sometimes").Build())});
  EXPECT_TRUE(r.outcomes[1].admitted);
  EXPECT_EQ(r.outcomes[2].message,
            "pods \"b\" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) "
            "must not be provided in pod spec; priority admission controller computed Never from "
            "the given PriorityClass name");
  EXPECT_EQ(r.outcomes[3].message,
            "pods \"c\" is forbidden: the string value of PreemptionPolicy (Never) must not be "
            "provided in pod spec; priority admission controller computed PreemptLowerPriority "
            "from the given PriorityClass name");
  EXPECT_EQ(r.outcomes[4].message,
            "pods \"d\" is forbidden: the string value of PreemptionPolicy (Sometimes) must not be "
            "provided in pod spec; priority admission controller computed Never from the given "
            "PriorityClass name");
}

TEST(PodAdmissionTest, NameIsRequiredUnlessGenerateNameIsSet) {
  const auto r = AdmitAll({ToObject(MakePod("").Build())});
  EXPECT_EQ(Last(r).message,
            "Pod \"\" is invalid: metadata.name: Required value: name or generateName is required");
  EXPECT_EQ(Last(r).name, "default/");
}

TEST(PodAdmissionTest, NameMustBeADnsSubdomain) {
  const auto r = AdmitAll({ToObject(MakePod("Web_1").Build())});
  EXPECT_NE(Last(r).message.find("Pod \"Web_1\" is invalid: metadata.name: Invalid value: "
                                 "\"Web_1\": a lowercase RFC 1123 subdomain"),
            std::string::npos);
}

TEST(PodAdmissionTest, PriorityIsResolvedBeforeValidation) {
  // Mutating admission runs first, so an unknown class wins over a bad name.
  const auto r = AdmitAll({ToObject(MakePod("Bad_Name").PriorityClass("gold").Build())});
  EXPECT_EQ(Last(r).message,
            "pods \"Bad_Name\" is forbidden: no PriorityClass with name gold was found");
}

TEST(PodAdmissionTest, GenerateNameYieldsADeterministicKubernetesStyleName) {
  const std::vector<Object> input = {ToObject(MakePod("").GenerateName("web-").Build(), 1),
                                     ToObject(MakePod("").GenerateName("web-").Build(), 2)};
  const auto r1 = AdmitAll(input);
  const auto r2 = AdmitAll(input);
  ASSERT_TRUE(r1.outcomes[0].admitted);
  ASSERT_TRUE(r1.outcomes[1].admitted);
  const std::string& name = r1.state.pods[0].meta.name;
  ASSERT_EQ(name.size(), 4u + 5u);
  EXPECT_EQ(name.substr(0, 4), "web-");
  for (char c : name.substr(4)) {
    EXPECT_NE(std::string_view("bcdfghjklmnpqrstvwxz2456789").find(c), std::string_view::npos);
  }
  EXPECT_NE(r1.state.pods[0].meta.name, r1.state.pods[1].meta.name);
  EXPECT_EQ(r1.state.pods[0].meta.name, r2.state.pods[0].meta.name);
  EXPECT_EQ(r1.outcomes[0].name, "default/" + name);
  EXPECT_EQ(r1.outcomes[0].operation, Operation::kCreate);
  EXPECT_EQ(r1.outcomes[1].operation, Operation::kCreate);
}

TEST(PodAdmissionTest, GeneratedNamesStayUniqueAcrossManyPods) {
  std::vector<Object> input;
  for (int i = 0; i < 300; ++i) input.push_back(ToObject(MakePod("").GenerateName("x-").Build(), i));
  const auto r = AdmitAll(input);
  std::set<std::string> names;
  for (const Pod& p : r.state.pods) names.insert(p.meta.name);
  EXPECT_EQ(names.size(), 300u);
}

TEST(PodAdmissionTest, UpdateKeepsResolvedPriorityWhenOmitted) {
  // Setup: the pod is re-applied without class or priority, with a new label and a binding.
  const auto r = AdmitAll({ToObject(MakePriorityClass("high").Value(1000).Build()),
                           ToObject(MakePod("web").PriorityClass("high").Build()),
                           ToObject(MakePod("web").Label("tier", "front").Node("node-a").Build())});
  ASSERT_TRUE(Last(r).admitted) << Last(r).message;
  EXPECT_EQ(Last(r).operation, Operation::kUpdate);
  EXPECT_EQ(Last(r).priority, 1000);
  ASSERT_EQ(r.state.pods.size(), 1u);
  EXPECT_EQ(r.state.pods[0].spec.priority, 1000);
  EXPECT_EQ(r.state.pods[0].spec.priority_class_name, "high");
  EXPECT_EQ(r.state.pods[0].spec.node_name, "node-a");
  EXPECT_EQ(r.state.pods[0].meta.labels.size(), 1u);
}

TEST(PodAdmissionTest, UpdateMayNotChangePriorityClassOrPriority) {
  const auto r = AdmitAll({ToObject(MakePriorityClass("high").Value(1000).Build()),
                           ToObject(MakePriorityClass("low").Value(1).Build()),
                           ToObject(MakePod("web").PriorityClass("high").Build()),
                           ToObject(MakePod("web").PriorityClass("low").Build()),
                           ToObject(MakePod("web").Priority(5).Build())});
  const std::string prefix = "Pod \"web\" is invalid: spec: Forbidden: " + std::string(kUpdatable);
  EXPECT_EQ(r.outcomes[3].message.substr(0, prefix.size()), prefix);
  EXPECT_NE(r.outcomes[3].message.find("- \tPriorityClassName: \"high\",\n+ \tPriorityClassName: "
                                       "\"low\",\n"),
            std::string::npos);
  EXPECT_EQ(r.outcomes[4].message.substr(0, prefix.size()), prefix);
  EXPECT_NE(r.outcomes[4].message.find("- \tPriority: &1000,\n+ \tPriority: &5,\n"),
            std::string::npos);
  EXPECT_EQ(r.state.pods[0].spec.priority, 1000);
}

TEST(PodAdmissionTest, UpdateMayNotMoveABoundPod) {
  const auto r = AdmitAll({ToObject(MakePod("web").Node("node-a").Build()),
                           ToObject(MakePod("web").Node("node-b").Build()),
                           ToObject(MakePod("web").Build())});
  EXPECT_NE(r.outcomes[1].message.find("- \tNodeName: \"node-a\",\n+ \tNodeName: \"node-b\""),
            std::string::npos);
  EXPECT_NE(r.outcomes[2].message.find("spec: Forbidden: pod updates may not change"),
            std::string::npos);
  EXPECT_EQ(r.state.pods[0].spec.node_name, "node-a");
}

TEST(PodAdmissionTest, UpdateMayNotChangeRequests) {
  const auto r = AdmitAll({ToObject(MakePod("web").Cpu("100m").Build()),
                           ToObject(MakePod("web").Cpu("200m").Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_NE(Last(r).message.find("Containers"), std::string::npos);
}

TEST(PodAdmissionTest, UpdateMayOnlyAddTolerations) {
  const Toleration a{"a", TolerationOperator::kExists, "", TaintEffect::kNoSchedule, {}};
  const Toleration b{"b", TolerationOperator::kExists, "", TaintEffect::kNoSchedule, {}};
  const auto r = AdmitAll({ToObject(MakePod("web").Toleration(a).Build()),
                           ToObject(MakePod("web").Toleration(a).Toleration(b).Build()),
                           ToObject(MakePod("web").Toleration(b).Build())});
  EXPECT_TRUE(r.outcomes[1].admitted) << r.outcomes[1].message;
  EXPECT_EQ(r.outcomes[2].message,
            "Pod \"web\" is invalid: spec.tolerations: Forbidden: existing toleration can not be "
            "modified except its tolerationSeconds");
  EXPECT_EQ(r.state.pods[0].spec.tolerations.size(), 2u);
}

TEST(PodAdmissionTest, UpdateMaySetGracePeriodToOneIfItWasNegative) {
  const auto r = AdmitAll({ToObject(MakePod("web").GracePeriod(-1).Build()),
                           ToObject(MakePod("web").GracePeriod(1).Build()),
                           ToObject(MakePod("other").GracePeriod(10).Build()),
                           ToObject(MakePod("other").GracePeriod(20).Build())});
  EXPECT_TRUE(r.outcomes[1].admitted) << r.outcomes[1].message;
  EXPECT_NE(r.outcomes[3].message.find("TerminationGracePeriodSeconds: &10"), std::string::npos);
}

TEST(PodAdmissionTest, ARejectedPodLeavesNoTraceSoTheNextDocumentCreates) {
  const auto r = AdmitAll({ToObject(MakePod("web").PriorityClass("gold").Build()),
                           ToObject(MakePod("web").Build())});
  EXPECT_FALSE(r.outcomes[0].admitted);
  EXPECT_TRUE(r.outcomes[1].admitted);
  EXPECT_EQ(r.outcomes[1].operation, Operation::kCreate);
}

TEST(PodAdmissionTest, SameNameInAnotherNamespaceIsAnotherPod) {
  const auto r = AdmitAll({ToObject(MakePod("web").Build()),
                           ToObject(MakePod("web").Namespace("default").Build()),
                           ToObject(MakePod("web").Namespace("shop").Build())});
  EXPECT_EQ(r.outcomes[1].operation, Operation::kUpdate);
  EXPECT_EQ(r.outcomes[2].operation, Operation::kCreate);
  EXPECT_EQ(r.state.pods.size(), 2u);
}

TEST(PodAdmissionTest, AClassMustComeBeforeThePodsThatNameIt) {
  // Setup: the pod comes before its class. Expect: rejected (admission is in document order).
  const auto r = AdmitAll({ToObject(MakePod("web").PriorityClass("high").Build()),
                           ToObject(MakePriorityClass("high").Value(1).Build())});
  EXPECT_FALSE(r.outcomes[0].admitted);
  EXPECT_TRUE(r.outcomes[1].admitted);
}

}  // namespace
}  // namespace kpsim
