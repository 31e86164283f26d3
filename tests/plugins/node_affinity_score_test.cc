#include "plugins/node_affinity_score.h"

#include <gtest/gtest.h>

#include <vector>

#include "kpsim/api/types.h"

namespace kpsim::plugins {
namespace {

Node MakeNode(std::string name, Labels labels) {
  Node node;
  node.meta.name = std::move(name);
  node.meta.labels = std::move(labels);
  return node;
}

PreferredSchedulingTerm Prefer(std::int32_t weight, std::string key, NodeSelectorOperator op,
                               std::vector<std::string> values) {
  PreferredSchedulingTerm term;
  term.weight = weight;
  term.preference.match_expressions.push_back({std::move(key), op, std::move(values)});
  return term;
}

TEST(NodeAffinityScoreTest, SumsWeightsOfMatchingPreferredTerms) {
  Affinity affinity;
  affinity.node_affinity_preferred = {
      Prefer(5, "zone", NodeSelectorOperator::kIn, {"a"}),
      Prefer(3, "disk", NodeSelectorOperator::kExists, {}),
      Prefer(7, "zone", NodeSelectorOperator::kNotIn, {"a"}),
  };
  EXPECT_EQ(NodeAffinityScore(affinity, MakeNode("n1", {{"disk", "ssd"}, {"zone", "a"}})), 8);
  EXPECT_EQ(NodeAffinityScore(affinity, MakeNode("n2", {{"zone", "b"}})), 7);
  // NotIn matches a node without the key.
  EXPECT_EQ(NodeAffinityScore(affinity, MakeNode("n3", {})), 7);
  EXPECT_EQ(NodeAffinityScore(Affinity{}, MakeNode("n1", {{"zone", "a"}})), 0);
}

TEST(NodeAffinityScoreTest, MatchFieldsByNodeNameAndEmptyOrZeroWeightTermsScoreNothing) {
  Affinity affinity;
  PreferredSchedulingTerm by_name;
  by_name.weight = 10;
  by_name.preference.match_fields.push_back({"metadata.name", NodeSelectorOperator::kIn, {"n2"}});
  PreferredSchedulingTerm empty;
  empty.weight = 50;
  affinity.node_affinity_preferred = {by_name, empty,
                                      Prefer(0, "zone", NodeSelectorOperator::kExists, {})};
  EXPECT_EQ(NodeAffinityScore(affinity, MakeNode("n1", {{"zone", "a"}})), 0);
  EXPECT_EQ(NodeAffinityScore(affinity, MakeNode("n2", {{"zone", "a"}})), 10);
}

TEST(DefaultNormalizeScoreTest, ScalesToMaxAndReverses) {
  std::vector<std::int64_t> scores = {0, 3, 6, 4};
  NodeAffinityNormalizeScore(scores);
  EXPECT_EQ(scores, (std::vector<std::int64_t>{0, 50, 100, 66}));
  std::vector<std::int64_t> reversed = {0, 3, 6, 4};
  DefaultNormalizeScore(100, true, reversed);
  EXPECT_EQ(reversed, (std::vector<std::int64_t>{100, 50, 0, 34}));
}

TEST(DefaultNormalizeScoreTest, AllZeroLeftAloneOrMaxWhenReversed) {
  std::vector<std::int64_t> zeros = {0, 0};
  NodeAffinityNormalizeScore(zeros);
  EXPECT_EQ(zeros, (std::vector<std::int64_t>{0, 0}));
  DefaultNormalizeScore(100, true, zeros);
  EXPECT_EQ(zeros, (std::vector<std::int64_t>{100, 100}));
  std::vector<std::int64_t> none;
  NodeAffinityNormalizeScore(none);
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace kpsim::plugins
