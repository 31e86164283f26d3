#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim {
namespace {

const Labels kLabels = {{"app", "web"}, {"gen", "3"}, {"tier", "front"}};

TEST(FindLabelTest, FindsPresentKeysAndReturnsNullForAbsentOnes) {
  ASSERT_NE(FindLabel(kLabels, "gen"), nullptr);
  EXPECT_EQ(*FindLabel(kLabels, "gen"), "3");
  EXPECT_EQ(FindLabel(kLabels, "zone"), nullptr);
  EXPECT_EQ(FindLabel({}, "app"), nullptr);
}

struct LabelCase {
  std::string_view name;
  LabelSelector selector;
  bool matches;
};

LabelSelectorRequirement Req(std::string key, SelectorOperator op, std::vector<std::string> v) {
  return {std::move(key), op, std::move(v)};
}

const std::vector<LabelCase>& LabelCases() {
  static const std::vector<LabelCase> cases = {
      {"EmptySelectorMatchesEverything", {}, true},
      {"MatchLabelsEqual", {{{"app", "web"}}, {}}, true},
      {"MatchLabelsDifferentValue", {{{"app", "db"}}, {}}, false},
      {"MatchLabelsMissingKey", {{{"zone", "a"}}, {}}, false},
      {"InContainsValue", {{}, {Req("tier", SelectorOperator::kIn, {"back", "front"})}}, true},
      {"InMissingValue", {{}, {Req("tier", SelectorOperator::kIn, {"back"})}}, false},
      {"InMissingKey", {{}, {Req("zone", SelectorOperator::kIn, {"a"})}}, false},
      {"NotInOtherValue", {{}, {Req("tier", SelectorOperator::kNotIn, {"back"})}}, true},
      {"NotInSameValue", {{}, {Req("tier", SelectorOperator::kNotIn, {"front"})}}, false},
      {"NotInMissingKeyMatches", {{}, {Req("zone", SelectorOperator::kNotIn, {"a"})}}, true},
      {"ExistsPresent", {{}, {Req("app", SelectorOperator::kExists, {})}}, true},
      {"ExistsAbsent", {{}, {Req("zone", SelectorOperator::kExists, {})}}, false},
      {"DoesNotExistAbsent", {{}, {Req("zone", SelectorOperator::kDoesNotExist, {})}}, true},
      {"DoesNotExistPresent", {{}, {Req("app", SelectorOperator::kDoesNotExist, {})}}, false},
      {"AllRequirementsAreAnded",
       {{{"app", "web"}}, {Req("tier", SelectorOperator::kIn, {"back"})}},
       false},
  };
  return cases;
}

class LabelSelectorTest : public testing::TestWithParam<LabelCase> {};

TEST_P(LabelSelectorTest, MatchesAsApimachineryLabels) {
  EXPECT_EQ(GetParam().selector.Matches(kLabels), GetParam().matches);
}

INSTANTIATE_TEST_SUITE_P(Operators, LabelSelectorTest, testing::ValuesIn(LabelCases()),
                         [](const auto& p) { return std::string(p.param.name); });

struct NodeCase {
  std::string_view name;
  NodeSelector selector;
  bool matches;
};

NodeSelectorRequirement NReq(std::string key, NodeSelectorOperator op, std::vector<std::string> v) {
  return {std::move(key), op, std::move(v)};
}

NodeSelectorTerm Expr(std::vector<NodeSelectorRequirement> reqs) { return {std::move(reqs), {}}; }

const std::vector<NodeCase>& NodeCases() {
  using Op = NodeSelectorOperator;
  static const std::vector<NodeCase> cases = {
      {"EmptyTermsMatchNothing", {}, false},
      {"EmptyTermMatchesNothing", {{NodeSelectorTerm{}}}, false},
      {"InMatches", {{Expr({NReq("tier", Op::kIn, {"front"})})}}, true},
      {"NotInMissingKeyMatches", {{Expr({NReq("zone", Op::kNotIn, {"a"})})}}, true},
      {"ExistsMatches", {{Expr({NReq("app", Op::kExists, {})})}}, true},
      {"DoesNotExistRejectsPresentKey", {{Expr({NReq("app", Op::kDoesNotExist, {})})}}, false},
      {"GtComparesIntegers", {{Expr({NReq("gen", Op::kGt, {"2"})})}}, true},
      {"GtEqualIsFalse", {{Expr({NReq("gen", Op::kGt, {"3"})})}}, false},
      {"GtIsNumericNotLexical", {{Expr({NReq("gen", Op::kGt, {"10"})})}}, false},
      {"LtComparesIntegers", {{Expr({NReq("gen", Op::kLt, {"10"})})}}, true},
      {"LtAcceptsSignedValue", {{Expr({NReq("gen", Op::kLt, {"+4"})})}}, true},
      {"GtOnNonIntegerLabelFails", {{Expr({NReq("app", Op::kGt, {"1"})})}}, false},
      {"GtOnMissingLabelFails", {{Expr({NReq("zone", Op::kGt, {"1"})})}}, false},
      {"GtWithTwoValuesIsInvalid", {{Expr({NReq("gen", Op::kGt, {"1", "2"})})}}, false},
      {"InWithoutValuesIsInvalid", {{Expr({NReq("tier", Op::kNotIn, {})})}}, false},
      {"ExpressionsInATermAreAnded",
       {{Expr({NReq("tier", Op::kIn, {"front"}), NReq("app", Op::kIn, {"db"})})}},
       false},
      {"TermsAreOred",
       {{Expr({NReq("app", Op::kIn, {"db"})}), Expr({NReq("app", Op::kIn, {"web"})})}},
       true},
      {"InvalidTermIsSkippedOthersStillMatch",
       {{Expr({NReq("gen", Op::kGt, {"x"})}), Expr({NReq("app", Op::kExists, {})})}},
       true},
      {"MatchFieldsNameIn",
       {{NodeSelectorTerm{{}, {NReq("metadata.name", Op::kIn, {"n1"})}}}},
       true},
      {"MatchFieldsNameInOther",
       {{NodeSelectorTerm{{}, {NReq("metadata.name", Op::kIn, {"n2"})}}}},
       false},
      {"MatchFieldsNameNotIn",
       {{NodeSelectorTerm{{}, {NReq("metadata.name", Op::kNotIn, {"n2"})}}}},
       true},
      {"MatchFieldsOtherKeyIsInvalid",
       {{NodeSelectorTerm{{}, {NReq("metadata.uid", Op::kIn, {"n1"})}}}},
       false},
      {"MatchFieldsNeedsExactlyOneValue",
       {{NodeSelectorTerm{{}, {NReq("metadata.name", Op::kIn, {"n1", "n2"})}}}},
       false},
      {"MatchFieldsAndExpressionsAreAnded",
       {{NodeSelectorTerm{{NReq("app", Op::kIn, {"db"})},
                          {NReq("metadata.name", Op::kIn, {"n1"})}}}},
       false},
  };
  return cases;
}

class NodeSelectorTest : public testing::TestWithParam<NodeCase> {};

TEST_P(NodeSelectorTest, MatchesAsNodeAffinity) {
  EXPECT_EQ(GetParam().selector.Matches("n1", kLabels), GetParam().matches);
}

INSTANTIATE_TEST_SUITE_P(Operators, NodeSelectorTest, testing::ValuesIn(NodeCases()),
                         [](const auto& p) { return std::string(p.param.name); });

struct TolerationCase {
  std::string_view name;
  Toleration toleration;
  Taint taint;
  bool tolerates;
};

const std::vector<TolerationCase>& TolerationCases() {
  using Op = TolerationOperator;
  const Taint t{"gpu", "yes", TaintEffect::kNoSchedule};
  static const std::vector<TolerationCase> cases = {
      {"EqualSameKeyValueEffect",
       {"gpu", Op::kEqual, "yes", TaintEffect::kNoSchedule, {}},
       t,
       true},
      {"EqualDifferentValue", {"gpu", Op::kEqual, "no", TaintEffect::kNoSchedule, {}}, t, false},
      {"EqualDifferentKey", {"cpu", Op::kEqual, "yes", {}, {}}, t, false},
      {"EffectUnsetToleratesAllEffects", {"gpu", Op::kEqual, "yes", {}, {}}, t, true},
      {"EffectMismatch", {"gpu", Op::kEqual, "yes", TaintEffect::kNoExecute, {}}, t, false},
      {"ExistsIgnoresValue", {"gpu", Op::kExists, "", {}, {}}, t, true},
      {"ExistsEmptyKeyToleratesEverything", {"", Op::kExists, "", {}, {}}, t, true},
      {"ExistsEmptyKeyStillChecksEffect",
       {"", Op::kExists, "", TaintEffect::kNoExecute, {}},
       t,
       false},
      {"EqualEmptyKeyComparesValueOnly", {"", Op::kEqual, "yes", {}, {}}, t, true},
      {"EqualEmptyKeyEmptyValueDoesNotTolerate", {"", Op::kEqual, "", {}, {}}, t, false},
  };
  return cases;
}

class TolerationTest : public testing::TestWithParam<TolerationCase> {};

TEST_P(TolerationTest, ToleratesAsCoreV1) {
  const TolerationCase& c = GetParam();
  EXPECT_EQ(c.toleration.Tolerates(c.taint), c.tolerates);
}

INSTANTIATE_TEST_SUITE_P(Rules, TolerationTest, testing::ValuesIn(TolerationCases()),
                         [](const auto& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace kpsim
