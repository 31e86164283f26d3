#include "plugins/inter_pod_affinity_score.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim::plugins {
namespace {

PodAffinityTerm Term(std::string app, std::string topology_key) {
  PodAffinityTerm term;
  term.label_selector = LabelSelector{{{"app", std::move(app)}}, {}};
  term.topology_key = std::move(topology_key);
  return term;
}

Pod MakePod(std::string ns, std::string app) {
  Pod pod;
  pod.meta.namespace_ = std::move(ns);
  pod.meta.labels = {{"app", std::move(app)}};
  return pod;
}

// n0, n1 in zone a; n2 in zone b; n3 without labels.
class InterPodAffinityScoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    node_labels_ = {{{"host", "n0"}, {"zone", "a"}},
                    {{"host", "n1"}, {"zone", "a"}},
                    {{"host", "n2"}, {"zone", "b"}},
                    {}};
    pods_ = {MakePod("default", "db"), MakePod("other", "db"), MakePod("default", "web"),
             MakePod("default", "cache")};
    // e2 requires pods with app=front in its zone.
    pods_[2].spec.affinity.pod_affinity_required = {Term("front", "zone")};
    // e3 prefers (weight 4) to avoid app=front on its host.
    pods_[3].spec.affinity.pod_anti_affinity_preferred = {{4, Term("front", "host")}};
    node_of_ = {0, 2, 2, 1};
    incoming_ = MakePod("default", "front");
    incoming_.spec.affinity.pod_affinity_preferred = {{10, Term("db", "zone")}};
    incoming_.spec.affinity.pod_anti_affinity_preferred = {{3, Term("web", "host")}};
    namespaces_["other"] = {{"team", "x"}};
  }

  InterPodAffinityView View() const {
    InterPodAffinityView view;
    for (const Labels& labels : node_labels_) view.node_labels.push_back(&labels);
    for (std::size_t i = 0; i < pods_.size(); ++i) {
      view.pods.push_back(MakeAffinityPodView(pods_[i], node_of_[i]));
    }
    view.namespace_labels = [this](std::string_view ns) -> const Labels* {
      auto it = namespaces_.find(std::string(ns));
      return it == namespaces_.end() ? nullptr : &it->second;
    };
    return view;
  }

  std::vector<std::int64_t> Scores(const TopologyScore& ts) const {
    std::vector<std::int64_t> scores;
    for (const Labels& labels : node_labels_) scores.push_back(InterPodAffinityScore(ts, labels));
    return scores;
  }

  std::vector<Labels> node_labels_;
  std::vector<Pod> pods_;
  std::vector<int> node_of_;
  Pod incoming_;
  std::map<std::string, Labels> namespaces_;
};

TEST_F(InterPodAffinityScoreTest, CombinesIncomingAndExistingTermsPerTopology) {
  const TopologyScore ts = InterPodAffinityPreScore(MakeAffinityPodView(incoming_), View());
  // zone a: +10 (incoming prefers db, e0); zone b: +1 (e2 requires front);
  // host n1: -4 (e3 avoids front); host n2: -3 (incoming avoids web, e2). e1 is in another
  // namespace, so the incoming term (own namespace) does not see it.
  EXPECT_EQ(ts.at("zone").at("a"), 10);
  EXPECT_EQ(ts.at("zone").at("b"), 1);
  EXPECT_EQ(ts.at("host").at("n1"), -4);
  EXPECT_EQ(ts.at("host").at("n2"), -3);
  EXPECT_FALSE(ts.at("host").contains("n0"));
  std::vector<std::int64_t> scores = Scores(ts);
  EXPECT_EQ(scores, (std::vector<std::int64_t>{10, 6, -2, 0}));
  InterPodAffinityNormalizeScore(ts, scores);
  // max 10, min -2: 100*(s+2)/12 truncated.
  EXPECT_EQ(scores, (std::vector<std::int64_t>{100, 66, 0, 16}));
}

TEST_F(InterPodAffinityScoreTest, HardPodAffinityWeightScalesAndZeroDisables) {
  const TopologyScore five = InterPodAffinityPreScore(MakeAffinityPodView(incoming_), View(), 5);
  EXPECT_EQ(five.at("zone").at("b"), 5);
  const TopologyScore off = InterPodAffinityPreScore(MakeAffinityPodView(incoming_), View(), 0);
  EXPECT_FALSE(off.at("zone").contains("b"));
}

TEST_F(InterPodAffinityScoreTest, NamespaceSelectorAndListedNamespacesWidenTheTerm) {
  PodAffinityTerm by_selector = Term("db", "zone");
  by_selector.namespace_selector = LabelSelector{{{"team", "x"}}, {}};
  incoming_.spec.affinity = {};
  incoming_.spec.affinity.pod_affinity_preferred = {{2, by_selector}};
  TopologyScore ts = InterPodAffinityPreScore(MakeAffinityPodView(incoming_), View());
  // Only e1 (namespace "other", team=x) matches; the own namespace is not implied.
  EXPECT_EQ(ts.at("zone").at("b"), 2 + 1);  // + e2's required term
  EXPECT_FALSE(ts.at("zone").contains("a"));

  PodAffinityTerm listed = Term("db", "zone");
  listed.namespaces = {"default", "other"};
  incoming_.spec.affinity.pod_affinity_preferred = {{2, listed}};
  ts = InterPodAffinityPreScore(MakeAffinityPodView(incoming_), View());
  EXPECT_EQ(ts.at("zone").at("a"), 2);
  EXPECT_EQ(ts.at("zone").at("b"), 3);
}

TEST_F(InterPodAffinityScoreTest, UnsetSelectorMatchesNothingEmptySelectorEverything) {
  const AffinityPodView target = MakeAffinityPodView(pods_[0]);
  PodAffinityTerm unset;
  unset.topology_key = "zone";
  EXPECT_FALSE(AffinityTermMatches(unset, "default", target, {}));
  PodAffinityTerm empty = unset;
  empty.label_selector = LabelSelector{};
  EXPECT_TRUE(AffinityTermMatches(empty, "default", target, {}));
  EXPECT_FALSE(AffinityTermMatches(empty, "kube-system", target, {}));
  // An empty namespace selector selects every namespace, even without a lookup function.
  empty.namespace_selector = LabelSelector{};
  EXPECT_TRUE(AffinityTermMatches(empty, "kube-system", target, {}));
}

TEST_F(InterPodAffinityScoreTest, NoTermsMeansNoTopologyScoreAndNormalizeLeavesScores) {
  incoming_.spec.affinity = {};
  for (Pod& pod : pods_) pod.spec.affinity = {};
  const TopologyScore ts = InterPodAffinityPreScore(MakeAffinityPodView(incoming_), View());
  EXPECT_TRUE(ts.empty());
  std::vector<std::int64_t> scores = {0, 0, 0};
  InterPodAffinityNormalizeScore(ts, scores);
  EXPECT_EQ(scores, (std::vector<std::int64_t>{0, 0, 0}));
}

TEST(InterPodAffinityNormalizeScoreTest, RangeIncludesZero) {
  TopologyScore ts;
  ts["zone"]["a"] = -1;
  std::vector<std::int64_t> negative = {-5, -10};
  InterPodAffinityNormalizeScore(ts, negative);
  EXPECT_EQ(negative, (std::vector<std::int64_t>{50, 0}));
  std::vector<std::int64_t> flat = {0, 0};
  InterPodAffinityNormalizeScore(ts, flat);
  EXPECT_EQ(flat, (std::vector<std::int64_t>{0, 0}));
}

TEST(InterPodAffinityPreScoreTest, PodsOnUnknownNodesAreIgnored) {
  Pod incoming = MakePod("default", "front");
  incoming.spec.affinity.pod_affinity_preferred = {{10, Term("db", "zone")}};
  Pod existing = MakePod("default", "db");
  const Labels zone_a = {{"zone", "a"}};
  InterPodAffinityView view;
  view.node_labels = {&zone_a};
  view.pods = {MakeAffinityPodView(existing, 7), MakeAffinityPodView(existing, -1)};
  EXPECT_TRUE(InterPodAffinityPreScore(MakeAffinityPodView(incoming), view).empty());
}

}  // namespace
}  // namespace kpsim::plugins
