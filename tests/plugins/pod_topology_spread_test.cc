#include "plugins/pod_topology_spread.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim::plugins {
namespace {

Pod MakePod(std::string ns, Labels labels) {
  Pod pod;
  pod.meta.namespace_ = std::move(ns);
  pod.meta.labels = std::move(labels);
  return pod;
}

TopologySpreadConstraint Zone(std::int32_t max_skew, UnsatisfiableConstraintAction action) {
  TopologySpreadConstraint c;
  c.max_skew = max_skew;
  c.topology_key = std::string(kLabelTopologyZone);
  c.when_unsatisfiable = action;
  c.label_selector = LabelSelector{{{"app", "web"}}, {}};
  return c;
}

constexpr auto kDoNot = UnsatisfiableConstraintAction::kDoNotSchedule;
constexpr auto kAnyway = UnsatisfiableConstraintAction::kScheduleAnyway;
const std::string kZone(kLabelTopologyZone);
const std::string kHost(kLabelHostname);

// n0, n1 in zone a; n2 in zone b; n3 in zone c, tainted NoSchedule; n4 without a zone.
// app=web pods: two on n0, one on n2, one on n3; plus a terminating one and one of another
// namespace on n2, which never count.
class PodTopologySpreadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    labels_ = {{{kHost, "n0"}, {kZone, "a"}},
               {{kHost, "n1"}, {kZone, "a"}},
               {{kHost, "n2"}, {kZone, "b"}},
               {{kHost, "n3"}, {kZone, "c"}},
               {{kHost, "n4"}}};
    taints_.resize(labels_.size());
    taints_[3] = {{"dedicated", "x", TaintEffect::kNoSchedule}};
    affinity_.assign(labels_.size(), true);
    const Labels web = {{"app", "web"}, {"version", "v1"}};
    pods_ = {MakePod("default", web), MakePod("default", web), MakePod("default", web),
             MakePod("default", web), MakePod("default", web), MakePod("other", web)};
    node_of_ = {0, 0, 2, 3, 2, 2};
    pods_[4].meta.deletion_timestamp = WallTime{1};
    incoming_ = MakePod("default", {{"app", "web"}, {"version", "v2"}});
    incoming_.spec.topology_spread_constraints = {Zone(1, kDoNot)};
  }

  SpreadView View() const {
    SpreadView view;
    for (std::size_t n = 0; n < labels_.size(); ++n) {
      view.nodes.push_back({&labels_[n], &taints_[n], affinity_[n]});
    }
    for (std::size_t i = 0; i < pods_.size(); ++i) {
      view.pods.push_back(MakeSpreadPodView(pods_[i], node_of_[i]));
    }
    return view;
  }

  FilterCode FilterOn(const SpreadFilterState& state, std::size_t n) const {
    return PodTopologySpreadFilter(state, incoming_, labels_[n]).code;
  }

  std::vector<Labels> labels_;
  std::vector<std::vector<Taint>> taints_;
  std::vector<bool> affinity_;
  std::vector<Pod> pods_;
  std::vector<int> node_of_;
  Pod incoming_;
};

TEST_F(PodTopologySpreadTest, SkewOverMaxSkewIsUnschedulable) {
  const SpreadFilterState state = PodTopologySpreadPreFilter(incoming_, View());
  ASSERT_EQ(state.constraints.size(), 1U);
  EXPECT_EQ(state.tp_value_to_match_num[0].at("a"), 2);
  EXPECT_EQ(state.tp_value_to_match_num[0].at("b"), 1);  // terminating and other-ns left out
  EXPECT_EQ(state.tp_value_to_match_num[0].at("c"), 1);  // taints ignored by default
  EXPECT_EQ(state.min_match_num[0], 1);
  const FilterResult a = PodTopologySpreadFilter(state, incoming_, labels_[0]);
  EXPECT_EQ(a.code, FilterCode::kUnschedulable);  // 2 + 1 - 1 = 2 > 1
  EXPECT_EQ(a.reason, "node(s) didn't match pod topology spread constraints");
  EXPECT_EQ(FilterOn(state, 1), FilterCode::kUnschedulable);
  EXPECT_EQ(FilterOn(state, 2), FilterCode::kSuccess);  // 1 + 1 - 1 = 1
  EXPECT_EQ(FilterOn(state, 3), FilterCode::kSuccess);
  const FilterResult missing = PodTopologySpreadFilter(state, incoming_, labels_[4]);
  EXPECT_EQ(missing.code, FilterCode::kUnschedulableAndUnresolvable);
  EXPECT_EQ(missing.reason,
            "node(s) didn't match pod topology spread constraints (missing required label)");
}

TEST_F(PodTopologySpreadTest, SelfMatchCountsOnlyWhenTheSelectorSelectsThePod) {
  incoming_.meta.labels = {{"app", "batch"}};
  const SpreadFilterState state = PodTopologySpreadPreFilter(incoming_, View());
  EXPECT_EQ(FilterOn(state, 0), FilterCode::kSuccess);  // 2 + 0 - 1 = 1
}

TEST_F(PodTopologySpreadTest, NoDoNotScheduleConstraintMeansEmptyStateAndPass) {
  incoming_.spec.topology_spread_constraints = {Zone(1, kAnyway)};
  const SpreadFilterState state = PodTopologySpreadPreFilter(incoming_, View());
  EXPECT_TRUE(state.empty());
  EXPECT_TRUE(PodTopologySpreadFilter(state, incoming_, labels_[0]).IsSuccess());
}

TEST_F(PodTopologySpreadTest, NodeTaintsPolicyHonorDropsTaintedDomains) {
  incoming_.spec.topology_spread_constraints[0].node_taints_policy = NodeInclusionPolicy::kHonor;
  SpreadFilterState state = PodTopologySpreadPreFilter(incoming_, View());
  EXPECT_FALSE(state.tp_value_to_match_num[0].contains("c"));
  EXPECT_EQ(state.min_match_num[0], 1);
  // A toleration brings the domain back.
  incoming_.spec.tolerations = {{"dedicated", TolerationOperator::kExists, "", std::nullopt, {}}};
  state = PodTopologySpreadPreFilter(incoming_, View());
  EXPECT_EQ(state.tp_value_to_match_num[0].at("c"), 1);
}

TEST_F(PodTopologySpreadTest, NodeAffinityPolicyHonorByDefaultIgnoreOnRequest) {
  affinity_[2] = false;
  affinity_[3] = false;
  SpreadFilterState state = PodTopologySpreadPreFilter(incoming_, View());
  EXPECT_EQ(state.tp_value_to_match_num[0].size(), 1U);  // only zone a
  EXPECT_EQ(state.min_match_num[0], 2);
  EXPECT_EQ(FilterOn(state, 0), FilterCode::kSuccess);  // 2 + 1 - 2 = 1
  incoming_.spec.topology_spread_constraints[0].node_affinity_policy = NodeInclusionPolicy::kIgnore;
  state = PodTopologySpreadPreFilter(incoming_, View());
  EXPECT_EQ(state.tp_value_to_match_num[0].size(), 3U);
  EXPECT_EQ(FilterOn(state, 0), FilterCode::kUnschedulable);
}

TEST_F(PodTopologySpreadTest, FewerDomainsThanMinDomainsMakesMinZero) {
  incoming_.spec.topology_spread_constraints[0].min_domains = 4;  // 3 domains exist
  const SpreadFilterState state = PodTopologySpreadPreFilter(incoming_, View());
  EXPECT_EQ(FilterOn(state, 2), FilterCode::kUnschedulable);  // 1 + 1 - 0 = 2 > 1
  EXPECT_EQ(FilterOn(state, 3), FilterCode::kUnschedulable);
  EXPECT_EQ(FilterOn(state, 4), FilterCode::kUnschedulableAndUnresolvable);
}

TEST_F(PodTopologySpreadTest, MatchLabelKeysMergeThePodsValueIntoTheSelector) {
  incoming_.spec.topology_spread_constraints[0].match_label_keys = {"version", "absent"};
  const std::vector<SpreadConstraint> cs = BuildSpreadConstraints(incoming_, kDoNot);
  ASSERT_EQ(cs.size(), 1U);
  EXPECT_TRUE(cs[0].Selects({{"app", "web"}, {"version", "v2"}}));
  EXPECT_FALSE(cs[0].Selects({{"app", "web"}, {"version", "v1"}}));
  const SpreadFilterState state = PodTopologySpreadPreFilter(incoming_, View());
  EXPECT_EQ(state.tp_value_to_match_num[0].at("a"), 0);  // every placed pod is v1
  EXPECT_EQ(FilterOn(state, 0), FilterCode::kSuccess);
  // An unset selector stays unset (matches nothing) even with matchLabelKeys.
  incoming_.spec.topology_spread_constraints[0].label_selector.reset();
  EXPECT_FALSE(BuildSpreadConstraints(incoming_, kDoNot)[0].Selects(incoming_.meta.labels));
}

TEST_F(PodTopologySpreadTest, UpdateWithPodMovesCountsAndMinimum) {
  SpreadFilterState state = PodTopologySpreadPreFilter(incoming_, View());
  const SpreadView view = View();
  // Remove the pod on n3: zone c drops to 0, so the minimum is 0 and zone b now skews.
  state.UpdateWithPod(incoming_, view.pods[3], view.nodes[3], -1);
  EXPECT_EQ(state.tp_value_to_match_num[0].at("c"), 0);
  EXPECT_EQ(state.min_match_num[0], 0);
  EXPECT_EQ(FilterOn(state, 2), FilterCode::kUnschedulable);  // 1 + 1 - 0
  state.UpdateWithPod(incoming_, view.pods[3], view.nodes[3], +1);
  EXPECT_EQ(FilterOn(state, 2), FilterCode::kSuccess);
  // A pod of another namespace changes nothing.
  state.UpdateWithPod(incoming_, view.pods[5], view.nodes[3], +1);
  EXPECT_EQ(state.tp_value_to_match_num[0].at("c"), 1);
}

TEST(DefaultSpreadConstraintsTest, HostnameThreeZoneFiveOnlyWithASelector) {
  EXPECT_TRUE(DefaultSpreadConstraints(std::nullopt).empty());
  EXPECT_TRUE(DefaultSpreadConstraints(LabelSelector{}).empty());
  const auto cs = DefaultSpreadConstraints(LabelSelector{{{"app", "web"}}, {}});
  ASSERT_EQ(cs.size(), 2U);
  EXPECT_EQ(cs[0].topology_key, "kubernetes.io/hostname");
  EXPECT_EQ(cs[0].max_skew, 3);
  EXPECT_EQ(cs[1].topology_key, "topology.kubernetes.io/zone");
  EXPECT_EQ(cs[1].max_skew, 5);
}

// helper.DefaultSelector, case by case.
class DefaultSpreadSelectorTest : public ::testing::Test {
 protected:
  static Service MakeService(std::string ns, std::optional<Labels> selector) {
    Service s;
    s.meta.namespace_ = std::move(ns);
    s.selector = std::move(selector);
    return s;
  }
  static PodController ReplicaSet(std::string name, LabelSelector selector) {
    return {"ReplicaSet", "default", std::move(name), std::move(selector)};
  }
  void Own(Pod& pod, std::string kind, std::string name, std::string api_version = "apps/v1",
           bool controller = true) {
    pod.meta.owner_references.push_back({std::move(api_version), std::move(kind), std::move(name), "", controller});
  }
  Pod pod_ = MakePod("default", {{"app", "web"}, {"pod-template-hash", "abc"}, {"tier", "front"}});
};

// Setup: no Service, no controller. Expect: unset (no default constraints).
TEST_F(DefaultSpreadSelectorTest, NothingSelectsThePod) {
  EXPECT_FALSE(DefaultSpreadSelector(pod_, {}, {}).has_value());
}

// Setup: Services in the pod's namespace: one selecting app=web, one tier=front, one selecting
// another app, one with an unset selector, one with an empty selector; and app=web in another
// namespace. Expect: the two that select the pod merged (app=web, tier=front); the unset one
// selects nothing, the empty one everything but adds no label.
TEST_F(DefaultSpreadSelectorTest, ServicesSelectingThePodMergeTheirSelectors) {
  const Service web = MakeService("default", Labels{{"app", "web"}});
  const Service front = MakeService("default", Labels{{"tier", "front"}});
  const Service api = MakeService("default", Labels{{"app", "api"}});
  const Service unset = MakeService("default", std::nullopt);
  const Service all = MakeService("default", Labels{});
  const Service elsewhere = MakeService("other", Labels{{"pod-template-hash", "abc"}});
  const auto selector = DefaultSpreadSelector(pod_, {&web, &front, &api, &unset, &all, &elsewhere}, {});
  ASSERT_TRUE(selector.has_value());
  EXPECT_EQ(selector->match_labels, (Labels{{"app", "web"}, {"tier", "front"}}));
  EXPECT_TRUE(selector->match_expressions.empty());
  // Only the empty Service: still nothing to spread by.
  EXPECT_FALSE(DefaultSpreadSelector(pod_, {&all, &unset}, {}).has_value());
}

// Setup: the pod's controller is ReplicaSet web-abc (apps/v1). Expect: its selector's
// requirements added to a Service's labels; a ReplicaSet of that name in another namespace, an
// owner that is not the controller, or an owner of another apiVersion adds nothing.
TEST_F(DefaultSpreadSelectorTest, TheControllersSelectorIsAdded) {
  const Service web = MakeService("default", Labels{{"app", "web"}});
  LabelSelector rs_selector{{{"app", "web"}, {"pod-template-hash", "abc"}},
                            {{"tier", SelectorOperator::kExists, {}}}};
  const std::vector<PodController> controllers = {
      {"ReplicaSet", "other", "web-abc", LabelSelector{{{"team", "x"}}, {}}}, ReplicaSet("web-abc", rs_selector)};
  Pod owned = pod_;
  Own(owned, "ReplicaSet", "web-abc");
  auto selector = DefaultSpreadSelector(owned, {&web}, controllers);
  ASSERT_TRUE(selector.has_value());
  EXPECT_EQ(selector->match_labels, (Labels{{"app", "web"}}));
  EXPECT_EQ(selector->match_expressions,
            (std::vector<LabelSelectorRequirement>{{"app", SelectorOperator::kIn, {"web"}},
                                                   {"pod-template-hash", SelectorOperator::kIn, {"abc"}},
                                                   {"tier", SelectorOperator::kExists, {}}}));
  EXPECT_TRUE(selector->Matches(owned.meta.labels));
  // Without a Service, the ReplicaSet alone.
  selector = DefaultSpreadSelector(owned, {}, controllers);
  ASSERT_TRUE(selector.has_value());
  EXPECT_TRUE(selector->match_labels.empty());
  EXPECT_EQ(selector->match_expressions.size(), 3U);

  Pod not_controller = pod_;
  Own(not_controller, "ReplicaSet", "web-abc", "apps/v1", /*controller=*/false);
  EXPECT_FALSE(DefaultSpreadSelector(not_controller, {}, controllers).has_value());
  Pod old_api = pod_;
  Own(old_api, "ReplicaSet", "web-abc", "extensions/v1beta1");
  EXPECT_FALSE(DefaultSpreadSelector(old_api, {}, controllers).has_value());
  Pod unknown = pod_;
  Own(unknown, "ReplicaSet", "web-zzz");
  EXPECT_FALSE(DefaultSpreadSelector(unknown, {}, controllers).has_value());
  // A StatefulSet owner is looked up as a StatefulSet, not a ReplicaSet of the same name.
  Pod stateful = pod_;
  Own(stateful, "StatefulSet", "web-abc");
  EXPECT_FALSE(DefaultSpreadSelector(stateful, {}, controllers).has_value());
}

// n0 (zone a): 2 web pods; n1 (zone a): 1; n2 (zone b): 0.
class PodTopologySpreadScoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    labels_ = {{{kHost, "n0"}, {kZone, "a"}},
               {{kHost, "n1"}, {kZone, "a"}},
               {{kHost, "n2"}, {kZone, "b"}},
               {{kHost, "n3"}}};
    pods_ = {MakePod("default", {{"app", "web"}}), MakePod("default", {{"app", "web"}}),
             MakePod("default", {{"app", "web"}})};
    node_of_ = {0, 0, 1};
    incoming_ = MakePod("default", {{"app", "web"}});
  }
  SpreadView View() const {
    SpreadView view;
    for (const Labels& labels : labels_) view.nodes.push_back({&labels, nullptr, true});
    for (std::size_t i = 0; i < pods_.size(); ++i) {
      view.pods.push_back(MakeSpreadPodView(pods_[i], node_of_[i]));
    }
    return view;
  }
  std::vector<Labels> labels_;
  std::vector<Pod> pods_;
  std::vector<int> node_of_;
  Pod incoming_;
};

TEST_F(PodTopologySpreadScoreTest, SystemDefaultsScoreFewerMatchesHigher) {
  const SpreadView view = View();
  const std::vector<int> filtered = {0, 1, 2};
  const SpreadScoreState state =
      PodTopologySpreadPreScore(incoming_, view, filtered, LabelSelector{{{"app", "web"}}, {}});
  ASSERT_EQ(state.constraints.size(), 2U);
  const double host_w = std::log(3.0 + 2);  // three scored nodes
  const double zone_w = std::log(2.0 + 2);  // zones a and b among the filtered nodes
  EXPECT_DOUBLE_EQ(state.topology_normalizing_weight[0], host_w);
  EXPECT_DOUBLE_EQ(state.topology_normalizing_weight[1], zone_w);
  std::vector<std::int64_t> scores;
  for (int n : filtered) scores.push_back(PodTopologySpreadScore(state, view, n));
  EXPECT_EQ(scores[0], std::llround(2 * host_w + 2 + 3 * zone_w + 4));  // 13
  EXPECT_EQ(scores[1], std::llround(1 * host_w + 2 + 3 * zone_w + 4));  // 12
  EXPECT_EQ(scores[2], std::llround(0 * host_w + 2 + 0 * zone_w + 4));  // 6
  PodTopologySpreadNormalizeScore(state, filtered, scores);
  // 100 * (13 + 6 - s) / 13.
  EXPECT_EQ(scores, (std::vector<std::int64_t>{46, 53, 100}));
}

TEST_F(PodTopologySpreadScoreTest, ExplicitConstraintsIgnoreNodesMissingTheKey) {
  incoming_.spec.topology_spread_constraints = {Zone(1, kAnyway)};
  const SpreadView view = View();
  const std::vector<int> filtered = {0, 2, 3};
  const SpreadScoreState state = PodTopologySpreadPreScore(incoming_, view, filtered, {});
  ASSERT_EQ(state.constraints.size(), 1U);
  EXPECT_TRUE(state.ignored[3]);
  // Zone a counts all its pods (n1 included though not filtered): 3.
  EXPECT_EQ(state.tp_value_to_pod_counts[0].at("a"), 3);
  std::vector<std::int64_t> scores;
  for (int n : filtered) scores.push_back(PodTopologySpreadScore(state, view, n));
  EXPECT_EQ(scores[2], 0);
  PodTopologySpreadNormalizeScore(state, filtered, scores);
  EXPECT_EQ(scores[2], 0);  // ignored, not "best"
  EXPECT_GT(scores[1], scores[0]);
  EXPECT_EQ(scores[1], 100);
}

TEST_F(PodTopologySpreadScoreTest, SystemDefaultsDoNotIgnoreNodesAndNeedASelector) {
  const SpreadView view = View();
  const std::vector<int> filtered = {0, 3};
  const SpreadScoreState state =
      PodTopologySpreadPreScore(incoming_, view, filtered, LabelSelector{{{"app", "web"}}, {}});
  EXPECT_FALSE(state.ignored[3]);
  // n3 has no zone: it registers the empty zone, so zones are {a, ""}.
  EXPECT_EQ(state.tp_value_to_pod_counts[1].size(), 2U);
  EXPECT_DOUBLE_EQ(state.topology_normalizing_weight[1], std::log(2.0 + 2));
  // n3 has only the hostname key: 0 pods * w + 3 - 1.
  EXPECT_EQ(PodTopologySpreadScore(state, view, 3), 2);
  EXPECT_TRUE(PodTopologySpreadPreScore(incoming_, view, filtered, std::nullopt).empty());
  // ScheduleAnyway-free own constraints: nothing to score, the defaults are not used.
  incoming_.spec.topology_spread_constraints = {Zone(1, kDoNot)};
  EXPECT_TRUE(
      PodTopologySpreadPreScore(incoming_, view, filtered, LabelSelector{{{"app", "web"}}, {}})
          .empty());
}

TEST(PodTopologySpreadNormalizeScoreTest, AllZeroScoresBecomeMax) {
  SpreadScoreState state;
  state.constraints.resize(1);
  state.ignored = {false, false};
  std::vector<std::int64_t> scores = {0, 0};
  PodTopologySpreadNormalizeScore(state, {0, 1}, scores);
  EXPECT_EQ(scores, (std::vector<std::int64_t>{100, 100}));
}

}  // namespace
}  // namespace kpsim::plugins
