#include <gtest/gtest.h>

#include "admission/admitters.h"
#include "admission_test_util.h"

namespace kpsim {
namespace {

using testing::AdmitAll;
using testing::Last;
using testing::MakeNamespace;
using testing::MakeNode;
using testing::MakePdb;
using testing::MakePod;
using testing::ToObject;

TEST(PdbAdmissionTest, MinAvailableAndMaxUnavailableCannotBothBeSet) {
  const auto r = AdmitAll({ToObject(MakePdb("pdb").MinAvailable(1).MaxUnavailablePercent(50)
                                        .Selector("app", "db").Build())});
  EXPECT_EQ(Last(r).message,
            "PodDisruptionBudget.policy \"pdb\" is invalid: spec: Invalid value: "
            "policy.PodDisruptionBudgetSpec{MinAvailable:1, MaxUnavailable:\"50%\"}: minAvailable "
            "and maxUnavailable cannot be both set");
  EXPECT_EQ(Last(r).name, "default/pdb");
  EXPECT_TRUE(r.state.pdbs.empty());
}

TEST(PdbAdmissionTest, NegativeIntegersAreInvalid) {
  const auto r = AdmitAll({ToObject(MakePdb("pdb").MaxUnavailable(-1).Build())});
  EXPECT_EQ(Last(r).message,
            "PodDisruptionBudget.policy \"pdb\" is invalid: spec.maxUnavailable: Invalid value: "
            "-1: must be greater than or equal to 0");
}

TEST(PdbAdmissionTest, PercentagesAboveHundredOrNegativeAreInvalid) {
  const auto r = AdmitAll({ToObject(MakePdb("a").MinAvailablePercent(150).Build()),
                           ToObject(MakePdb("b").MinAvailablePercent(-5).Build())});
  EXPECT_EQ(r.outcomes[0].message,
            "PodDisruptionBudget.policy \"a\" is invalid: spec.minAvailable: Invalid value: "
            "intstr.IntOrString{Type:1, IntVal:0, StrVal:\"150%\"}: must not be greater than 100%");
  EXPECT_EQ(r.outcomes[1].message,
            "PodDisruptionBudget.policy \"b\" is invalid: spec.minAvailable: Invalid value: "
            "intstr.IntOrString{Type:1, IntVal:0, StrVal:\"-5%\"}: a valid percent string must be "
            "a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for "
            "validation is '[0-9]+%')");
}

TEST(PdbAdmissionTest, ValidBudgetsAreStoredAndUpdatable) {
  const auto r = AdmitAll({ToObject(MakePdb("pdb").MinAvailable(1).Namespace("db").Build()),
                           ToObject(MakePdb("pdb").MinAvailablePercent(100).Namespace("db").Build())});
  EXPECT_TRUE(r.outcomes[0].admitted);
  EXPECT_EQ(r.outcomes[1].operation, Operation::kUpdate);
  ASSERT_EQ(r.state.pdbs.size(), 1u);
  EXPECT_TRUE(r.state.pdbs[0].min_available->is_percent);
  EXPECT_EQ(r.outcomes[0].priority, std::nullopt);
}

TEST(NodeAdmissionTest, NameMustBeADnsSubdomainAndNamespaceIsDropped) {
  Node node = MakeNode("node-a").Cpu("2").Build();
  node.meta.namespace_ = "ignored";
  const auto r = AdmitAll({ToObject(node), ToObject(MakeNode("Node_B").Build()),
                           ToObject(MakeNode("node-a").Cpu("4").Build())});
  EXPECT_TRUE(r.outcomes[0].admitted);
  EXPECT_EQ(r.outcomes[0].name, "node-a");
  EXPECT_NE(r.outcomes[1].message.find("Node \"Node_B\" is invalid: metadata.name: Invalid value: "
                                       "\"Node_B\": a lowercase RFC 1123 subdomain"),
            std::string::npos);
  EXPECT_EQ(r.outcomes[2].operation, Operation::kUpdate);
  ASSERT_EQ(r.state.nodes.size(), 1u);
  EXPECT_EQ(r.state.nodes[0].meta.namespace_, "");
  EXPECT_EQ(r.state.nodes[0].allocatable.milli_cpu, 4000);
}

// spec.podPreemptionPolicy (InPlacePodVerticalScalingSchedulerPreemption): refused with the gate
// off; with it on, each disableResizePreemption entry is a qualified name, at most 20.
TEST(NodeAdmissionTest, PodPreemptionPolicyNeedsTheGateAndQualifiedNames) {
  Node node = MakeNode("n").Build();
  node.has_pod_preemption_policy = true;
  node.disable_resize_preemption = {"example.com/autoscaler"};
  EXPECT_NE(AdmitAll({ToObject(node)}).outcomes[0].message.find(
                "spec.podPreemptionPolicy: Forbidden: may not be set while the "
                "InPlacePodVerticalScalingSchedulerPreemption feature gate is disabled"),
            std::string::npos);
  FeatureGates on;
  on.in_place_pod_vertical_scaling_scheduler_preemption = true;
  EXPECT_TRUE(AdmitAll({ToObject(node)}, on).outcomes[0].admitted);
  node.disable_resize_preemption = {"bad key!"};
  EXPECT_NE(AdmitAll({ToObject(node)}, on).outcomes[0].message.find(
                "spec.podPreemptionPolicy.disableResizePreemption[0]: Invalid value: \"bad key!\""),
            std::string::npos);
  node.disable_resize_preemption.assign(21, "example.com/x");
  EXPECT_NE(AdmitAll({ToObject(node)}, on).outcomes[0].message.find("Too many: 21: must have at most 20 items"),
            std::string::npos);
}

// Service names are DNS-1035 labels (ValidateServiceName): a leading digit is refused, unlike a
// Namespace's. Admitted Services are kept with their selector, namespace defaulted.
TEST(ServiceAdmissionTest, NameMustBeADns1035LabelAndTheSelectorIsKept) {
  const auto r = AdmitAll({ToObject(testing::MakeService("web", "", Labels{{"app", "web"}})),
                           ToObject(testing::MakeService("1web", "prod", std::nullopt))});
  EXPECT_TRUE(r.outcomes[0].admitted);
  EXPECT_EQ(r.outcomes[0].name, "default/web");
  EXPECT_EQ(r.outcomes[1].message,
            "Service \"1web\" is invalid: metadata.name: Invalid value: \"1web\": a DNS-1035 label "
            "must consist of lower case alphanumeric characters or '-', start with an alphabetic "
            "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
            "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  ASSERT_EQ(r.state.services.size(), 1u);
  EXPECT_EQ(r.state.services[0].meta.namespace_, "default");
  EXPECT_EQ(r.state.services[0].selector, (Labels{{"app", "web"}}));
}

TEST(NamespaceAdmissionTest, NameMustBeADnsLabel) {
  const auto r = AdmitAll({ToObject(MakeNamespace("team-a")), ToObject(MakeNamespace("team.a"))});
  EXPECT_TRUE(r.outcomes[0].admitted);
  EXPECT_EQ(r.outcomes[1].message,
            "Namespace \"team.a\" is invalid: metadata.name: Invalid value: \"team.a\": a "
            "lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
            "and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  EXPECT_EQ(r.state.namespaces.size(), 1u);
}

TEST(AdmitTest, OneOutcomePerObjectInInputOrderWithSources) {
  const auto r = AdmitAll({ToObject(MakeNode("n").Build(), 1), ToObject(MakePod("p").Build(), 2),
                           ToObject(MakePod("q").PriorityClass("nope").Build(), 3),
                           ToObject(MakeNamespace("ns"), 4)});
  ASSERT_EQ(r.outcomes.size(), 4u);
  EXPECT_EQ(r.outcomes[0].kind, ObjectKind::kNode);
  EXPECT_EQ(r.outcomes[1].kind, ObjectKind::kPod);
  EXPECT_EQ(r.outcomes[2].kind, ObjectKind::kPod);
  EXPECT_EQ(r.outcomes[3].kind, ObjectKind::kNamespace);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(r.outcomes[static_cast<std::size_t>(i)].source.document, i + 1);
  }
  EXPECT_FALSE(r.outcomes[2].admitted);
  EXPECT_EQ(r.state.pods.size(), 1u);
}

TEST(AdmitTest, AMismatchedKindAndValueIsRejectedNotCrashed) {
  Object broken = ToObject(MakePod("p").Build());
  broken.kind = ObjectKind::kNode;
  const auto r = AdmitAll({broken});
  ASSERT_EQ(r.outcomes.size(), 1u);
  EXPECT_FALSE(r.outcomes[0].admitted);
  EXPECT_NE(r.outcomes[0].message.find("internal error"), std::string::npos);
  EXPECT_TRUE(r.state.nodes.empty());
}

TEST(GenerateNameTest, CutsLongBasesAndUsesTheKubernetesAlphabet) {
  const std::string name = admission::GenerateName(std::string(80, 'a'), 42);
  EXPECT_EQ(name.size(), 63u);
  EXPECT_EQ(admission::GenerateName("web-", 42), admission::GenerateName("web-", 42));
  EXPECT_NE(admission::GenerateName("web-", 42), admission::GenerateName("web-", 43));
}

}  // namespace
}  // namespace kpsim
