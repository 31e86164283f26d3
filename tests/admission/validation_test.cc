#include "admission/validation.h"

#include <string>

#include <gtest/gtest.h>

namespace kpsim::admission {
namespace {

constexpr std::string_view kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

TEST(FieldErrorTest, RendersEachTypeAsKubernetesDoes) {
  EXPECT_EQ(Required("metadata.name", "name or generateName is required").ToString(),
            "metadata.name: Required value: name or generateName is required");
  EXPECT_EQ(Required("preemptionPolicy", "").ToString(), "preemptionPolicy: Required value");
  EXPECT_EQ(Forbidden("value", "may not be changed in an update.").ToString(),
            "value: Forbidden: may not be changed in an update.");
  EXPECT_EQ(Invalid("spec.minAvailable", -1, "must be greater than or equal to 0").ToString(),
            "spec.minAvailable: Invalid value: -1: must be greater than or equal to 0");
  EXPECT_EQ(NotSupported("preemptionPolicy", "Sometimes", {"Never", "PreemptLowerPriority"})
                .ToString(),
            "preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"Never\", "
            "\"PreemptLowerPriority\"");
  EXPECT_EQ(TooMany("spec.schedulingConstraints.topology", 2, 1).ToString(),
            "spec.schedulingConstraints.topology: Too many: 2: must have at most 1 items");
}

TEST(GoQuoteTest, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(GoQuote("web"), "\"web\"");
  EXPECT_EQ(GoQuote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\x01\"");
}

TEST(AggregateMessageTest, OneErrorPlainSeveralBracketedDuplicatesDropped) {
  const FieldError a = Forbidden("value", "x");
  const FieldError b = Forbidden("metadata.name", "y");
  EXPECT_EQ(AggregateMessage({a}), "value: Forbidden: x");
  EXPECT_EQ(AggregateMessage({a, b, a}), "[value: Forbidden: x, metadata.name: Forbidden: y]");
  EXPECT_EQ(AggregateMessage({a, a}), "value: Forbidden: x");
}

TEST(ApiErrorMessageTest, InvalidAndForbiddenNameKindAndResource) {
  EXPECT_EQ(InvalidMessage(QualifiedKind(ObjectKind::kPriorityClass), "p",
                           {Forbidden("value", "x")}),
            "PriorityClass.scheduling.k8s.io \"p\" is invalid: value: Forbidden: x");
  EXPECT_EQ(ForbiddenMessage(QualifiedResource(ObjectKind::kPod), "web", "nope"),
            "pods \"web\" is forbidden: nope");
  EXPECT_EQ(QualifiedKind(ObjectKind::kPodDisruptionBudget), "PodDisruptionBudget.policy");
  EXPECT_EQ(QualifiedResource(ObjectKind::kPodGroup), "podgroups.scheduling.k8s.io");
  EXPECT_EQ(QualifiedResource(ObjectKind::kCompositePodGroup),
            "compositepodgroups.scheduling.k8s.io");
}

TEST(IsDns1123SubdomainTest, AcceptsDottedLowercaseNames) {
  EXPECT_TRUE(IsDns1123Subdomain("node-a").empty());
  EXPECT_TRUE(IsDns1123Subdomain("ip-10-0-0-1.ec2.internal").empty());
  EXPECT_TRUE(IsDns1123Subdomain("0").empty());
}

TEST(IsDns1123SubdomainTest, RejectsUppercaseUnderscoresAndBadEdges) {
  for (std::string_view bad : {"Bad_Name", "-a", "a-", "a..b", ".a", "a.", ""}) {
    const auto errs = IsDns1123Subdomain(bad);
    ASSERT_EQ(errs.size(), 1u) << bad;
    EXPECT_EQ(errs[0], kSubdomainMsg) << bad;
  }
}

TEST(IsDns1123SubdomainTest, RejectsNamesLongerThan253) {
  const std::string long_name(254, 'a');
  const auto errs = IsDns1123Subdomain(long_name);
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0], "must be no more than 253 characters");
  EXPECT_TRUE(IsDns1123Subdomain(std::string(253, 'a')).empty());
}

TEST(IsDns1123LabelTest, RejectsDotsAndLongNamesWithKubernetesMessages) {
  EXPECT_TRUE(IsDns1123Label("kube-system").empty());
  const auto errs = IsDns1123Label("a.b");
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0],
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
            "'-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  const auto long_errs = IsDns1123Label(std::string(64, 'a'));
  ASSERT_EQ(long_errs.size(), 1u);
  EXPECT_EQ(long_errs[0], "must be no more than 63 characters");
}

TEST(ValidateObjectMetaTest, RequiresNameOrGenerateName) {
  FieldErrors errors;
  ValidateObjectMeta(ObjectMeta{}, false, NameRule::kDnsSubdomain, &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].ToString(), "metadata.name: Required value: name or generateName is required");
}

TEST(ValidateObjectMetaTest, GenerateNameMayEndInADash) {
  ObjectMeta meta;
  meta.generate_name = "web-";
  meta.name = "web-bcdfg";
  meta.namespace_ = "default";
  FieldErrors errors;
  ValidateObjectMeta(meta, true, NameRule::kDnsSubdomain, &errors);
  EXPECT_TRUE(errors.empty());
  meta.generate_name = "Web-";
  ValidateObjectMeta(meta, true, NameRule::kDnsSubdomain, &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].field, "metadata.generateName");
}

TEST(ValidateObjectMetaTest, NamespacedObjectsNeedADnsLabelNamespace) {
  ObjectMeta meta;
  meta.name = "web";
  meta.namespace_ = "Team_A";
  FieldErrors errors;
  ValidateObjectMeta(meta, true, NameRule::kDnsSubdomain, &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].field, "metadata.namespace");
  EXPECT_EQ(errors[0].bad_value, "\"Team_A\"");
}

}  // namespace
}  // namespace kpsim::admission
