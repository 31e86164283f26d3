// The existing-object rule (AdmissionMode::kExisting) and the warnings admission gives about the
// admitted state as a whole.

#include <string>

#include <gtest/gtest.h>

#include "admission_test_util.h"

namespace kpsim {
namespace {

using testing::Last;
using testing::MakeNode;
using testing::MakePod;
using testing::MakePodGroup;
using testing::MakePriorityClass;
using testing::ToObject;

AdmissionResult AdmitExisting(const std::vector<Object>& objects,
                              const FeatureGates& gates = FeatureGates{}) {
  return Admit(objects, gates, AdmissionMode::kExisting);
}

// The warnings with `code`, in order.
std::vector<Warning> WithCode(const AdmissionResult& r, std::string_view code) {
  std::vector<Warning> out;
  for (const Warning& w : r.warnings) {
    if (w.code == code) out.push_back(w);
  }
  return out;
}

// Setup: a snapshot pod with spec.priority and a class that is not in the input.
// Expect: simulate keeps it with its priority; validate refuses it and says simulate keeps it.
TEST(ExistingObjectTest, PodWithPriorityAndMissingClassIsKept) {
  const std::vector<Object> objects = {
      ToObject(MakePod("web").PriorityClass("gold").Priority(700).Build())};
  const AdmissionResult existing = AdmitExisting(objects);
  ASSERT_TRUE(Last(existing).admitted);
  EXPECT_TRUE(Last(existing).kept_against_admission);
  ASSERT_EQ(existing.state.pods.size(), 1u);
  EXPECT_EQ(existing.state.pods[0].spec.priority, 700);
  EXPECT_EQ(existing.state.pods[0].spec.priority_class_name, "gold");
  EXPECT_EQ(existing.state.pods[0].spec.preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(existing.state.pods[0].spec.termination_grace_period_seconds, 30);
  const auto kept = WithCode(existing, "KeptAgainstAdmission");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].object, "Pod default/web");
  EXPECT_NE(kept[0].message.find("spec.priority 700"), std::string::npos);
  EXPECT_NE(kept[0].message.find("no PriorityClass with name gold was found"), std::string::npos);

  const AdmissionResult created = Admit(objects, FeatureGates{}, AdmissionMode::kCreate);
  EXPECT_FALSE(Last(created).admitted);
  EXPECT_FALSE(Last(created).kept_against_admission);
  EXPECT_TRUE(created.state.pods.empty());
  EXPECT_EQ(WithCode(created, "ExistingObjectInSimulate").size(), 1u);
}

// Setup: a globalDefault class added after the pod was created (pod: priority 0, no class).
// Expect: the pod keeps 0 and its explicit Never policy.
TEST(ExistingObjectTest, GlobalDefaultAddedLaterDoesNotChangeAnExistingPod) {
  const AdmissionResult r = AdmitExisting(
      {ToObject(MakePriorityClass("default-high").Value(1000).GlobalDefault().Build()),
       ToObject(MakePod("old").Priority(0).PreemptionPolicy(PreemptionPolicy::kNever).Build())});
  ASSERT_TRUE(Last(r).admitted);
  EXPECT_EQ(r.state.pods[0].spec.priority, 0);
  EXPECT_EQ(r.state.pods[0].spec.preemption_policy, PreemptionPolicy::kNever);
  EXPECT_EQ(WithCode(r, "KeptAgainstAdmission").size(), 1u);
}

// Setup: spec.priority equal to what the class computes. Expect: admitted normally, no warning,
// the class's policy applied.
TEST(ExistingObjectTest, MatchingPriorityIsAnOrdinaryCreate) {
  const AdmissionResult r = AdmitExisting(
      {ToObject(MakePriorityClass("batch").Value(50).PreemptionPolicy(PreemptionPolicy::kNever)
                    .Build()),
       ToObject(MakePod("job").PriorityClass("batch").Priority(50).Build())});
  ASSERT_TRUE(Last(r).admitted);
  EXPECT_FALSE(Last(r).kept_against_admission);
  EXPECT_EQ(r.state.pods[0].spec.preemption_policy, PreemptionPolicy::kNever);
  EXPECT_TRUE(WithCode(r, "KeptAgainstAdmission").empty());
}

// Setup: no spec.priority and an unknown class. Expect: refused exactly as a create.
TEST(ExistingObjectTest, PodWithoutPriorityIsStillAdmittedAsACreate) {
  const AdmissionResult r = AdmitExisting({ToObject(MakePod("web").PriorityClass("gold").Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_EQ(Last(r).message, "pods \"web\" is forbidden: no PriorityClass with name gold was found");
}

// Setup: an existing pod whose metadata is invalid. Expect: still refused (only the Priority
// plugin's answer is overridden).
TEST(ExistingObjectTest, InvalidMetadataIsStillRefused) {
  const AdmissionResult r =
      AdmitExisting({ToObject(MakePod("Bad_Name").PriorityClass("gold").Priority(1).Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_NE(Last(r).message.find("Invalid value: \"Bad_Name\""), std::string::npos);
}

TEST(ExistingObjectTest, PodGroupWithPriorityAndMissingClassIsKept) {
  FeatureGates gates;
  gates.generic_workload = true;
  const AdmissionResult r = AdmitExisting(
      {ToObject(MakePodGroup("train").PriorityClass("gold").Priority(300).Build())}, gates);
  ASSERT_TRUE(Last(r).admitted);
  ASSERT_EQ(r.state.pod_groups.size(), 1u);
  EXPECT_EQ(r.state.pod_groups[0].priority, 300);
  EXPECT_EQ(WithCode(r, "KeptAgainstAdmission").size(), 1u);
  EXPECT_TRUE(WithCode(r, "GateOff").empty());
}

TEST(AdmissionWarningsTest, PodGroupWithGateOffIsSaid) {
  const AdmissionResult r = AdmitExisting({ToObject(MakePodGroup("train").Build())});
  const auto off = WithCode(r, "GateOff");
  ASSERT_EQ(off.size(), 1u);
  EXPECT_EQ(off[0].object, "PodGroup default/train");
  EXPECT_NE(off[0].message.find("GenericWorkload"), std::string::npos);
}

TEST(AdmissionWarningsTest, EmptyInputAndPodsWithoutNodesAreSaid) {
  EXPECT_EQ(WithCode(AdmitExisting({}), "NoObjects").size(), 1u);
  const AdmissionResult pods_only =
      AdmitExisting({ToObject(MakePod("a").Build()), ToObject(MakePod("b").Build())});
  const auto no_nodes = WithCode(pods_only, "NoNodes");
  ASSERT_EQ(no_nodes.size(), 1u);
  EXPECT_NE(no_nodes[0].message.find("2 pods and no nodes"), std::string::npos);
  EXPECT_TRUE(WithCode(AdmitExisting({ToObject(MakeNode("n").Build()),
                                      ToObject(MakePod("a").Build())}),
                       "NoNodes")
                  .empty());
}

TEST(AdmissionWarningsTest, PodBoundToMissingNodeIsSaid) {
  const AdmissionResult r = AdmitExisting(
      {ToObject(MakeNode("n1").Build()), ToObject(MakePod("here").Node("n1").Build()),
       ToObject(MakePod("lost").Node("gone").Build())});
  const auto missing = WithCode(r, "BoundToMissingNode");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].object, "Pod default/lost");
  EXPECT_NE(missing[0].message.find("bound to node gone"), std::string::npos);
}

// Setup: three pods, two with resource claims, one with volumes. Expect: one warning per
// field, with the pods counted and the first pod named.
TEST(AdmissionWarningsTest, UnmodeledFieldsAreSaidOncePerFieldWithCounts) {
  Pod claims_a = MakePod("claims-a").Build();
  claims_a.spec.NoteUse(UnmodeledField::kResourceClaims);
  Pod claims_b = MakePod("claims-b").Build();
  claims_b.spec.NoteUse(UnmodeledField::kResourceClaims);
  claims_b.spec.NoteUse(UnmodeledField::kVolumes);
  const AdmissionResult r = AdmitExisting({ToObject(MakeNode("n").Build()), ToObject(claims_a),
                                           ToObject(claims_b), ToObject(MakePod("plain").Build())});
  const auto not_modeled = WithCode(r, "NotModelled");
  ASSERT_EQ(not_modeled.size(), 2u);
  EXPECT_EQ(not_modeled[0].object, "Pod default/claims-b");
  EXPECT_TRUE(not_modeled[0].message.starts_with("uses volumes")) << not_modeled[0].message;
  EXPECT_EQ(not_modeled[1].object, "Pod default/claims-a");
  EXPECT_NE(not_modeled[1].message.find("the first of 2 pods that use spec.resourceClaims"),
            std::string::npos)
      << not_modeled[1].message;
  EXPECT_NE(not_modeled[1].message.find("DynamicResources"), std::string::npos);
}

}  // namespace
}  // namespace kpsim
