// InterPodAffinity: its filter verdicts through the registry's chain (fixture:
// filter_fixture.h).

#include "filter_fixture.h"

#include "testing/builders.h"

namespace kpsim::engine::plugin_test {
namespace {

using kpsim::testing::MakeNamespace;
using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

TEST_F(FilterTest, PodAffinityNeedsAMatchingPodInTheSameTopology) {
  AddNode(ZonedNode("a1", "a"));
  AddNode(ZonedNode("a2", "a"));
  AddNode(ZonedNode("b1", "b"));
  AddPod(MakePod("db").Node("a1").Label("app", "db").Build());
  Pod p = MakePod("web").Label("app", "web").Build();
  p.spec.affinity.pod_affinity_required.push_back(Term("app", "db", kZone));
  AddPod(p);
  EXPECT_EQ(Filter("web", "a1").code, Code::kSuccess);
  EXPECT_EQ(Filter("web", "a2").code, Code::kSuccess);
  const Verdict v = Filter("web", "b1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.plugin, PluginId::kInterPodAffinity);
  EXPECT_EQ(v.reasons, Reasons{"node(s) didn't match pod affinity rules"});
}

TEST_F(FilterTest, PodAffinityRejectsNodesWithoutTheTopologyKey) {
  AddNode(ZonedNode("a1", "a"));
  AddNode(MakeNode("nozone").Cpu("4").Pods(110).Build());
  AddPod(MakePod("db").Node("a1").Label("app", "db").Build());
  Pod p = MakePod("web").Build();
  p.spec.affinity.pod_affinity_required.push_back(Term("app", "db", kZone));
  AddPod(p);
  EXPECT_EQ(Filter("web", "nozone").reasons, Reasons{"node(s) didn't match pod affinity rules"});
}

TEST_F(FilterTest, PodAffinityCountsOnlyPodsMatchingAllTerms) {
  // Setup: zone a holds one pod matching each term but none matching both.
  AddNode(ZonedNode("a1", "a"));
  AddPod(MakePod("x").Node("a1").Label("app", "db").Build());
  AddPod(MakePod("y").Node("a1").Label("tier", "back").Build());
  Pod p = MakePod("web").Build();
  p.spec.affinity.pod_affinity_required.push_back(Term("app", "db", kZone));
  p.spec.affinity.pod_affinity_required.push_back(Term("tier", "back", kZone));
  AddPod(p);
  EXPECT_EQ(Filter("web", "a1").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, FirstPodOfASelfAffineSeriesMayGoAnywhereWithTheTopologyKey) {
  // Setup: nothing in the cluster matches the term, and the pod matches its own term.
  AddNode(ZonedNode("a1", "a"));
  AddNode(ZonedNode("b1", "b"));
  AddNode(MakeNode("nozone").Cpu("4").Pods(110).Build());
  AddPod(MakePod("other").Node("a1").Label("app", "other").Build());
  Pod p = MakePod("first").Label("app", "cache").Build();
  p.spec.affinity.pod_affinity_required.push_back(Term("app", "cache", kZone));
  AddPod(p);
  EXPECT_EQ(Filter("first", "a1").code, Code::kSuccess);
  EXPECT_EQ(Filter("first", "b1").code, Code::kSuccess);
  EXPECT_EQ(Filter("first", "nozone").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, SelfAffinityRuleEndsOnceAMatchingPodExists) {
  AddNode(ZonedNode("a1", "a"));
  AddNode(ZonedNode("b1", "b"));
  AddPod(MakePod("cache-0").Node("a1").Label("app", "cache").Build());
  Pod p = MakePod("cache-1").Label("app", "cache").Build();
  p.spec.affinity.pod_affinity_required.push_back(Term("app", "cache", kZone));
  AddPod(p);
  EXPECT_EQ(Filter("cache-1", "a1").code, Code::kSuccess);
  EXPECT_EQ(Filter("cache-1", "b1").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, SelfAffinityRuleNeedsThePodToMatchItsOwnTerms) {
  AddNode(ZonedNode("a1", "a"));
  Pod p = MakePod("web").Label("app", "web").Build();
  p.spec.affinity.pod_affinity_required.push_back(Term("app", "db", kZone));
  AddPod(p);
  EXPECT_EQ(Filter("web", "a1").reasons, Reasons{"node(s) didn't match pod affinity rules"});
}

TEST_F(FilterTest, PodAntiAffinityRejectsTheTopologyOfAMatchingPod) {
  AddNode(ZonedNode("a1", "a"));
  AddNode(ZonedNode("a2", "a"));
  AddNode(ZonedNode("b1", "b"));
  AddNode(MakeNode("nozone").Cpu("4").Pods(110).Build());
  AddPod(MakePod("web-0").Node("a1").Label("app", "web").Build());
  Pod p = MakePod("web-1").Label("app", "web").Build();
  p.spec.affinity.pod_anti_affinity_required.push_back(Term("app", "web", kZone));
  AddPod(p);
  const Verdict v = Filter("web-1", "a2");
  EXPECT_EQ(v.code, Code::kUnschedulable);
  EXPECT_EQ(v.plugin, PluginId::kInterPodAffinity);
  EXPECT_EQ(v.reasons, Reasons{"node(s) didn't match pod anti-affinity rules"});
  EXPECT_EQ(Filter("web-1", "b1").code, Code::kSuccess);
  EXPECT_EQ(Filter("web-1", "nozone").code, Code::kSuccess);
}

TEST_F(FilterTest, ExistingPodsAntiAffinityIsSymmetric) {
  // Setup: a running pod refuses app=web on its host; the incoming web pod has no terms itself.
  AddNode(ZonedNode("a1", "a"));
  AddNode(ZonedNode("a2", "a"));
  Pod loner = MakePod("loner").Node("a1").Label("app", "loner").Build();
  loner.spec.affinity.pod_anti_affinity_required.push_back(Term("app", "web", kHostname));
  AddPod(loner);
  AddPod(MakePod("web").Label("app", "web").Build());
  AddPod(MakePod("api").Label("app", "api").Build());
  const Verdict v = Filter("web", "a1");
  EXPECT_EQ(v.code, Code::kUnschedulable);
  EXPECT_EQ(v.plugin, PluginId::kInterPodAffinity);
  EXPECT_EQ(v.reasons, Reasons{"node(s) didn't satisfy existing pods anti-affinity rules"});
  EXPECT_EQ(Filter("web", "a2").code, Code::kSuccess);
  EXPECT_EQ(Filter("api", "a1").code, Code::kSuccess);
}

TEST_F(FilterTest, AffinityIsCheckedBeforeAntiAffinity) {
  AddNode(ZonedNode("b1", "b"));
  AddPod(MakePod("web-0").Node("b1").Label("app", "web").Build());
  Pod p = MakePod("web-1").Label("app", "web").Build();
  p.spec.affinity.pod_affinity_required.push_back(Term("app", "db", kZone));
  p.spec.affinity.pod_anti_affinity_required.push_back(Term("app", "web", kZone));
  AddPod(p);
  EXPECT_EQ(Filter("web-1", "b1").reasons, Reasons{"node(s) didn't match pod affinity rules"});
}

TEST_F(FilterTest, AffinityTermWithoutNamespacesSelectsThePodsOwnNamespace) {
  AddNode(ZonedNode("a1", "a"));
  AddPod(MakePod("db").Namespace("other").Node("a1").Label("app", "db").Build());
  AddPod(MakePod("x").Namespace("default").Node("a1").Label("app", "x").Build());
  Pod p = MakePod("web").Build();
  p.spec.affinity.pod_affinity_required.push_back(Term("app", "db", kZone));
  AddPod(p);
  EXPECT_EQ(Filter("web", "a1").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, AffinityTermNamespacesListSelectsThoseNamespaces) {
  AddNode(ZonedNode("a1", "a"));
  AddNode(ZonedNode("b1", "b"));
  AddPod(MakePod("db").Namespace("data").Node("a1").Label("app", "db").Build());
  Pod p = MakePod("web").Build();
  PodAffinityTerm term = Term("app", "db", kZone);
  term.namespaces = {"data"};
  p.spec.affinity.pod_affinity_required.push_back(term);
  AddPod(p);
  EXPECT_EQ(Filter("web", "a1").code, Code::kSuccess);
  EXPECT_EQ(Filter("web", "b1").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, NamespaceSelectorSelectsNamespacesByTheirLabels) {
  Namespace team_a = MakeNamespace("ns-a");
  team_a.meta.labels = {{"team", "a"}};
  Namespace team_b = MakeNamespace("ns-b");
  team_b.meta.labels = {{"team", "b"}};
  AddNamespace(team_a);
  AddNamespace(team_b);
  AddNode(ZonedNode("a1", "a"));
  AddNode(ZonedNode("b1", "b"));
  AddPod(MakePod("db-a").Namespace("ns-a").Node("a1").Label("app", "db").Build());
  AddPod(MakePod("db-b").Namespace("ns-b").Node("b1").Label("app", "db").Build());
  Pod p = MakePod("web").Build();
  PodAffinityTerm term = Term("app", "db", kZone);
  term.namespace_selector = LabelSelector{{{"team", "a"}}, {}};
  p.spec.affinity.pod_anti_affinity_required.push_back(term);
  AddPod(p);
  // Anti-affinity to db pods of team a's namespaces only.
  EXPECT_EQ(Filter("web", "a1").code, Code::kUnschedulable);
  EXPECT_EQ(Filter("web", "b1").code, Code::kSuccess);
}

TEST_F(FilterTest, EmptyNamespaceSelectorSelectsEveryNamespace) {
  AddNode(ZonedNode("a1", "a"));
  AddNode(ZonedNode("b1", "b"));
  AddPod(MakePod("db").Namespace("anywhere").Node("a1").Label("app", "db").Build());
  Pod p = MakePod("web").Build();
  PodAffinityTerm term = Term("app", "db", kZone);
  term.namespace_selector = LabelSelector{};
  p.spec.affinity.pod_affinity_required.push_back(term);
  AddPod(p);
  EXPECT_EQ(Filter("web", "a1").code, Code::kSuccess);
  EXPECT_EQ(Filter("web", "b1").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, NamespaceSelectorMatchesTheImplicitMetadataNameLabel) {
  AddNode(ZonedNode("a1", "a"));
  AddPod(MakePod("db").Namespace("data").Node("a1").Label("app", "db").Build());
  Pod p = MakePod("web").Build();
  PodAffinityTerm term = Term("app", "db", kZone);
  term.namespace_selector = LabelSelector{{{"kubernetes.io/metadata.name", "data"}}, {}};
  p.spec.affinity.pod_affinity_required.push_back(term);
  AddPod(p);
  EXPECT_EQ(Filter("web", "a1").code, Code::kSuccess);
}

TEST_F(FilterTest, TermWithoutLabelSelectorMatchesNoPod) {
  AddNode(ZonedNode("a1", "a"));
  AddPod(MakePod("db").Node("a1").Label("app", "db").Build());
  Pod p = MakePod("web").Build();
  PodAffinityTerm term;
  term.topology_key = std::string(kZone);
  p.spec.affinity.pod_anti_affinity_required.push_back(term);
  AddPod(p);
  EXPECT_EQ(Filter("web", "a1").code, Code::kSuccess);
}

}  // namespace
}  // namespace kpsim::engine::plugin_test
