// spec.schedulingGates in Pod admission: validateSchedulingGates (ValidatePodSpec), the nodeName
// rule of ValidatePodCreate and validateOnlyDeletedSchedulingGates (ValidatePodUpdate).

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "admission/validation.h"
#include "admission_test_util.h"

namespace kpsim {
namespace {

using testing::AdmitAll;
using testing::Last;
using testing::MakePod;
using testing::ToObject;

TEST(SchedulingGatesAdmissionTest, QualifiedNamesAreAdmittedAndKeptInOrder) {
  const auto r = AdmitAll(
      {ToObject(MakePod("web").SchedulingGate("example.com/quota").SchedulingGate("Wait_1").Build())});
  ASSERT_TRUE(Last(r).admitted) << Last(r).message;
  EXPECT_EQ(r.state.pods[0].spec.scheduling_gates,
            (std::vector<std::string>{"example.com/quota", "Wait_1"}));
}

TEST(SchedulingGatesAdmissionTest, DuplicateGateIsRefused) {
  const auto r =
      AdmitAll({ToObject(MakePod("web").SchedulingGate("a").SchedulingGate("a").Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_EQ(Last(r).message,
            "Pod \"web\" is invalid: spec.schedulingGates[1]: Duplicate value: \"a\"");
}

TEST(SchedulingGatesAdmissionTest, GateThatIsNotAQualifiedNameIsRefused) {
  const auto r = AdmitAll({ToObject(MakePod("web").SchedulingGate("-bad").Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_EQ(Last(r).message,
            "Pod \"web\" is invalid: spec.schedulingGates[0]: Invalid value: \"-bad\": name part "
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
            "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
            "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
  EXPECT_TRUE(r.state.pods.empty());
}

TEST(SchedulingGatesAdmissionTest, IsQualifiedNameMirrorsUpstream) {
  using admission::IsQualifiedName;
  EXPECT_TRUE(IsQualifiedName("example.com/MyName").empty());
  EXPECT_TRUE(IsQualifiedName("a").empty());
  EXPECT_EQ(IsQualifiedName("/x"), (std::vector<std::string>{"prefix part must be non-empty"}));
  EXPECT_EQ(IsQualifiedName(std::string(64, 'a')),
            (std::vector<std::string>{"name part must be no more than 63 characters"}));
  ASSERT_EQ(IsQualifiedName("").size(), 2u);  // empty, and the regex
  EXPECT_EQ(IsQualifiedName("")[0], "name part must be non-empty");
  ASSERT_EQ(IsQualifiedName("a/b/c").size(), 1u);
  EXPECT_TRUE(IsQualifiedName("a/b/c")[0].starts_with("a qualified name must consist of"));
  ASSERT_EQ(IsQualifiedName("Example.com/x").size(), 1u);
  EXPECT_TRUE(IsQualifiedName("Example.com/x")[0].starts_with("prefix part a lowercase RFC 1123"));
}

TEST(SchedulingGatesAdmissionTest, BoundPodMayNotCarryGates) {
  const auto r = AdmitAll({ToObject(MakePod("web").Node("n1").SchedulingGate("a").Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_EQ(Last(r).message,
            "Pod \"web\" is invalid: spec.nodeName: Forbidden: cannot be set until all "
            "schedulingGates have been cleared");
}

TEST(SchedulingGatesAdmissionTest, UpdateMayRemoveGatesButNotAddThem) {
  // Setup: created with gates a and b; an update removes b; a later one adds c.
  // Expect: the removal admitted (the pod keeps a), the addition refused with upstream's text.
  const auto r = AdmitAll({ToObject(MakePod("web").SchedulingGate("a").SchedulingGate("b").Build()),
                           ToObject(MakePod("web").SchedulingGate("a").Build()),
                           ToObject(MakePod("web").SchedulingGate("a").SchedulingGate("c").Build())});
  ASSERT_EQ(r.outcomes.size(), 3u);
  EXPECT_EQ(r.outcomes[1].operation, Operation::kUpdate);
  EXPECT_TRUE(r.outcomes[1].admitted) << r.outcomes[1].message;
  EXPECT_FALSE(r.outcomes[2].admitted);
  EXPECT_EQ(r.outcomes[2].message,
            "Pod \"web\" is invalid: spec.schedulingGates[1].name: Forbidden: only deletion is "
            "allowed, but found new scheduling gate 'c'");
  ASSERT_EQ(r.state.pods.size(), 1u);
  EXPECT_EQ(r.state.pods[0].spec.scheduling_gates, (std::vector<std::string>{"a"}));
}

TEST(SchedulingGatesAdmissionTest, UpdateRemovingEveryGateUngatesThePod) {
  const auto r = AdmitAll({ToObject(MakePod("web").SchedulingGate("a").Build()),
                           ToObject(MakePod("web").Build())});
  EXPECT_TRUE(Last(r).admitted) << Last(r).message;
  EXPECT_TRUE(r.state.pods[0].spec.scheduling_gates.empty());
}

TEST(SchedulingGatesAdmissionTest, GatedPodMayOnlyGainNodeSelectorEntries) {
  // Setup: a gated pod with nodeSelector a=b; an update adds c=d (and drops the gate); a second
  // gated pod whose update changes a=b to a=z. Expect: the addition admitted, the change refused
  // with validateNodeSelectorMutation's text.
  const auto r = AdmitAll(
      {ToObject(MakePod("one").SchedulingGate("g").NodeSelector("a", "b").Build()),
       ToObject(MakePod("one").NodeSelector("a", "b").NodeSelector("c", "d").Build()),
       ToObject(MakePod("two").SchedulingGate("g").NodeSelector("a", "b").Build()),
       ToObject(MakePod("two").SchedulingGate("g").NodeSelector("a", "z").NodeSelector("c", "d")
                    .Build())});
  ASSERT_EQ(r.outcomes.size(), 4u);
  EXPECT_TRUE(r.outcomes[1].admitted) << r.outcomes[1].message;
  EXPECT_EQ(r.state.pods[0].spec.node_selector.size(), 2u);
  EXPECT_FALSE(r.outcomes[3].admitted);
  EXPECT_EQ(r.outcomes[3].message,
            "Pod \"two\" is invalid: spec.nodeSelector: Invalid value: {\"a\":\"z\",\"c\":\"d\"}: "
            "only additions to spec.nodeSelector are allowed (no mutations or deletions)");
}

TEST(SchedulingGatesAdmissionTest, UngatedPodMayNotChangeItsNodeSelector) {
  const auto r = AdmitAll({ToObject(MakePod("web").NodeSelector("a", "b").Build()),
                           ToObject(MakePod("web").NodeSelector("a", "b").NodeSelector("c", "d")
                                        .Build())});
  EXPECT_FALSE(Last(r).admitted);
  EXPECT_NE(Last(r).message.find("pod updates may not change fields other than"),
            std::string::npos)
      << Last(r).message;
}

}  // namespace
}  // namespace kpsim
