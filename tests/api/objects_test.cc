#include <utility>

#include <gtest/gtest.h>

#include <string>

#include "kpsim/api/types.h"
#include "kpsim/expected.h"

namespace kpsim {
namespace {

// Builds an Object member by member (GCC 12 warns, wrongly, that an aggregate-initialised
// `SourceRef{}` may be used uninitialised).
template <typename T>
Object MakeObject(ObjectKind kind, T value) {
  Object o;
  o.kind = kind;
  o.value = std::move(value);
  return o;
}


TEST(WallTimeTest, ParsesUtcAndOffsets) {
  Expected<WallTime> t = WallTime::Parse("2024-05-01T12:00:00Z");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->unix_micros, 1714564800LL * 1000000);
  Expected<WallTime> offset = WallTime::Parse("2024-05-01T14:00:00+02:00");
  ASSERT_TRUE(offset.ok());
  EXPECT_EQ(*offset, *t);
  Expected<WallTime> negative = WallTime::Parse("2024-05-01T07:30:00-04:30");
  ASSERT_TRUE(negative.ok());
  EXPECT_EQ(*negative, *t);
}

TEST(WallTimeTest, ParsesFractionTruncatedToMicros) {
  Expected<WallTime> t = WallTime::Parse("1970-01-01T00:00:01.123456789Z");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->unix_micros, 1123456);
  EXPECT_EQ(WallTime::Parse("1970-01-01T00:00:00.5Z")->unix_micros, 500000);
}

TEST(WallTimeTest, RejectsMalformedTimes) {
  for (const char* bad :
       {"", "2024-05-01", "2024-05-01 12:00:00Z", "2024-05-01T12:00:00", "2024-13-01T00:00:00Z",
        "2023-02-29T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T12:00:00.Z",
        "2024-05-01T12:00:00+0200", "2024-05-01T12:00:00Zjunk"}) {
    Expected<WallTime> t = WallTime::Parse(bad);
    EXPECT_FALSE(t.ok()) << bad;
    if (!t.ok()) {
      EXPECT_NE(t.error().message.find("RFC 3339"), std::string::npos);
    }
  }
}

TEST(WallTimeTest, FormatsAsUtcRoundTrip) {
  EXPECT_EQ(WallTime::Parse("2024-02-29T23:59:59+01:00")->ToRfc3339(), "2024-02-29T22:59:59Z");
  EXPECT_EQ(WallTime::Parse("2024-05-01T12:00:00.250Z")->ToRfc3339(), "2024-05-01T12:00:00.25Z");
  EXPECT_EQ(WallTime{-1}.ToRfc3339(), "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(WallTime{}.ToRfc3339(), "1970-01-01T00:00:00Z");
}

TEST(ObjectKindTest, NamesAndScopes) {
  EXPECT_EQ(ObjectKindName(ObjectKind::kNode), "Node");
  EXPECT_EQ(ObjectKindName(ObjectKind::kPod), "Pod");
  EXPECT_EQ(ObjectKindName(ObjectKind::kPriorityClass), "PriorityClass");
  EXPECT_EQ(ObjectKindName(ObjectKind::kPodDisruptionBudget), "PodDisruptionBudget");
  EXPECT_EQ(ObjectKindName(ObjectKind::kNamespace), "Namespace");
  EXPECT_EQ(ObjectKindName(ObjectKind::kPodGroup), "PodGroup");
  EXPECT_EQ(ObjectKindName(ObjectKind::kCompositePodGroup), "CompositePodGroup");
  EXPECT_TRUE(IsClusterScoped(ObjectKind::kNode));
  EXPECT_TRUE(IsClusterScoped(ObjectKind::kPriorityClass));
  EXPECT_TRUE(IsClusterScoped(ObjectKind::kNamespace));
  EXPECT_FALSE(IsClusterScoped(ObjectKind::kPod));
  EXPECT_FALSE(IsClusterScoped(ObjectKind::kPodDisruptionBudget));
  EXPECT_FALSE(IsClusterScoped(ObjectKind::kPodGroup));
  EXPECT_FALSE(IsClusterScoped(ObjectKind::kCompositePodGroup));
}

TEST(ObjectTest, DisplayNameDependsOnScope) {
  Pod pod;
  pod.meta.name = "web";
  pod.meta.namespace_ = "prod";
  Object o = MakeObject(ObjectKind::kPod, pod);
  EXPECT_EQ(o.DisplayName(), "prod/web");
  EXPECT_EQ(o.meta().name, "web");
  pod.meta.namespace_.clear();
  Object unset = MakeObject(ObjectKind::kPod, pod);
  EXPECT_EQ(unset.DisplayName(), "default/web");
  Node node;
  node.meta.name = "n1";
  Object n = MakeObject(ObjectKind::kNode, node);
  EXPECT_EQ(n.DisplayName(), "n1");
  PodGroup group;
  group.meta.name = "g";
  group.meta.namespace_ = "ml";
  group.composite = true;
  Object g = MakeObject(ObjectKind::kCompositePodGroup, group);
  EXPECT_EQ(g.DisplayName(), "ml/g");
}

TEST(SourceRefTest, NamesLineOrItem) {
  EXPECT_EQ((SourceRef{"a.yaml", 2, 14}).ToString(), "a.yaml:14");
  EXPECT_EQ((SourceRef{"a.json", 3, 0}).ToString(), "a.json (item 3)");
  EXPECT_EQ((SourceRef{"a.json", 0, 0}).ToString(), "a.json");
}

TEST(PreemptionPolicyTest, NamesMatchKubernetes) {
  EXPECT_EQ(PreemptionPolicyName(PreemptionPolicy::kPreemptLowerPriority), "PreemptLowerPriority");
  EXPECT_EQ(PreemptionPolicyName(PreemptionPolicy::kNever), "Never");
}

TEST(ErrorTest, CodeNames) {
  EXPECT_EQ(ErrorCodeName(ErrorCode::kInvalidArgument), "InvalidArgument");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kNotFound), "NotFound");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kForbidden), "Forbidden");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kFailedPrecondition), "FailedPrecondition");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kInternal), "Internal");
}

TEST(ErrorTest, ToStringPrefixesLocation) {
  Error e = MakeError(ErrorCode::kInvalidArgument, "bad");
  EXPECT_EQ(e.ToString(), "bad");
  e.file = "c.yaml";
  EXPECT_EQ(e.ToString(), "c.yaml: bad");
  e.line = 4;
  EXPECT_EQ(e.ToString(), "c.yaml:4: bad");
  e.document = 2;
  EXPECT_EQ(e.ToString(), "c.yaml:4 (document 2): bad");
  e.line = 0;
  EXPECT_EQ(e.ToString(), "c.yaml (item 2): bad");
}

TEST(ErrorTest, ToStringDoesNotRepeatALocationTheMessageAlreadyHas) {
  Error e = MakeError(ErrorCode::kInvalidArgument, "c.yaml:4: mapping values are not allowed");
  e.file = "c.yaml";
  e.line = 4;
  EXPECT_EQ(e.ToString(), "c.yaml:4: mapping values are not allowed");
}

}  // namespace
}  // namespace kpsim
