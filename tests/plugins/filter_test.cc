// Unit tests for the default profile's Filter plugins (src/plugins/, run as the registry's chain
// by framework/filter_runner.h): each plugin's verdict, its exact reason string (the text kube-scheduler puts in FitError histograms) and its Status
// code, which decides whether preemption may consider the node (Unschedulable) or not
// (UnschedulableAndUnresolvable).

#include "framework/filter_runner.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "framework/status.h"
#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "plugins/registry.h"
#include "snapshot/cluster.h"
#include "testing/builders.h"

namespace kpsim::engine {
namespace {

using kpsim::testing::MakeNamespace;
using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

constexpr std::string_view kZone = "topology.kubernetes.io/zone";
constexpr std::string_view kHostname = "kubernetes.io/hostname";

// What admission would have filled in.
Pod Admitted(Pod pod) {
  if (pod.meta.namespace_.empty()) pod.meta.namespace_ = "default";
  if (!pod.spec.priority) pod.spec.priority = 0;
  if (!pod.spec.preemption_policy) pod.spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  return pod;
}

Toleration Tol(std::string key, TolerationOperator op, std::string value,
               std::optional<TaintEffect> effect) {
  Toleration t;
  t.key = std::move(key);
  t.op = op;
  t.value = std::move(value);
  t.effect = effect;
  return t;
}

NodeSelectorRequirement Req(std::string key, NodeSelectorOperator op,
                            std::vector<std::string> values) {
  return NodeSelectorRequirement{std::move(key), op, std::move(values)};
}

// A required pod (anti-)affinity term selecting `label_key=label_value` over `topology`.
PodAffinityTerm Term(std::string label_key, std::string label_value, std::string_view topology) {
  PodAffinityTerm t;
  t.label_selector = LabelSelector{{{std::move(label_key), std::move(label_value)}}, {}};
  t.topology_key = std::string(topology);
  return t;
}

Node ZonedNode(std::string name, std::string zone) {
  return MakeNode(name)
      .Cpu("4")
      .Memory("8Gi")
      .Pods(110)
      .Label(std::string(kZone), std::move(zone))
      .Label(std::string(kHostname), name)
      .Build();
}

struct Verdict {
  Code code = Code::kSuccess;
  PluginId plugin = PluginId::kNone;
  std::vector<std::string> reasons;
};

// Setup: nodes and pods added one by one (pods as admission leaves them). `Filter` builds the
// cluster model and runs the whole chain, InterPodAffinity's PreFilter included, for one
// pending pod on one node.
class FilterTest : public ::testing::Test {
 protected:
  void AddNode(Node node) { state_.nodes.push_back(std::move(node)); }
  void AddPod(Pod pod) { state_.pods.push_back(Admitted(std::move(pod))); }
  void AddNamespace(Namespace ns) { state_.namespaces.push_back(std::move(ns)); }

  Verdict Filter(std::string_view pod_key, std::string_view node_name) {
    model_.reset();
    model_.emplace(state_, options_);
    FilterRunner filters(*model_, options_, NewFilterPlugins(*model_));
    const std::string key = pod_key.find('/') == std::string_view::npos
                                ? "default/" + std::string(pod_key)
                                : std::string(pod_key);
    const std::optional<PodId> pod = model_->FindPod(key);
    const std::optional<NodeId> node = model_->FindNode(node_name);
    EXPECT_TRUE(pod.has_value()) << key;
    EXPECT_TRUE(node.has_value()) << node_name;
    if (!pod || !node) return {};
    const PodInfo& info = model_->pods()[static_cast<std::size_t>(*pod)];
    EXPECT_EQ(info.state, PodState::kPending) << "the pod under test must be pending";
    AffinityState affinity;
    const bool check_affinity = filters.PreFilter(info, affinity);
    const NodeInfo& n = model_->nodes()[static_cast<std::size_t>(*node)];
    const Status s = filters.Run(info, *node, n.requested, check_affinity ? &affinity : nullptr);
    Verdict v;
    v.code = s.code();
    v.plugin = s.plugin();
    for (int i = 0; i < s.reason_count(); ++i) v.reasons.push_back(model_->reasons().Text(s.reason(i)));
    return v;
  }

  ClusterState state_;
  EngineOptions options_;
  std::optional<ClusterModel> model_;
};

using Reasons = std::vector<std::string>;

// ----------------------------------------------------------------------------------------------
// NodeUnschedulable.

TEST_F(FilterTest, UnschedulableNodeRejectsPodAsUnresolvable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Unschedulable().Build());
  AddPod(MakePod("p").Cpu("100m").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.plugin, PluginId::kNodeUnschedulable);
  EXPECT_EQ(v.reasons, Reasons{"node(s) were unschedulable"});
}

TEST_F(FilterTest, TolerationOfTheUnschedulableTaintLiftsNodeUnschedulable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Unschedulable().Build());
  AddPod(MakePod("p")
             .Cpu("100m")
             .Toleration(Tol("node.kubernetes.io/unschedulable", TolerationOperator::kExists, "",
                             TaintEffect::kNoSchedule))
             .Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
}

TEST_F(FilterTest, TolerateEverythingTolerationLiftsNodeUnschedulable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Unschedulable().Build());
  AddPod(MakePod("p").Toleration(Tol("", TolerationOperator::kExists, "", std::nullopt)).Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
}

TEST_F(FilterTest, TolerationForAnotherEffectDoesNotLiftNodeUnschedulable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Unschedulable().Build());
  AddPod(MakePod("p")
             .Toleration(Tol("node.kubernetes.io/unschedulable", TolerationOperator::kExists, "",
                             TaintEffect::kNoExecute))
             .Build());
  EXPECT_EQ(Filter("p", "n1").plugin, PluginId::kNodeUnschedulable);
}

// ----------------------------------------------------------------------------------------------
// TaintToleration.

TEST_F(FilterTest, UntoleratedNoScheduleTaintRejectsWithTaintInReason) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("dedicated", "gpu", TaintEffect::kNoSchedule).Build());
  AddPod(MakePod("p").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.plugin, PluginId::kTaintToleration);
  EXPECT_EQ(v.reasons, Reasons{"node(s) had untolerated taint {dedicated: gpu}"});
}

TEST_F(FilterTest, UntoleratedNoExecuteTaintRejects) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("evict", "", TaintEffect::kNoExecute).Build());
  AddPod(MakePod("p").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.reasons, Reasons{"node(s) had untolerated taint {evict: }"});
}

TEST_F(FilterTest, PreferNoScheduleTaintNeverRejects) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("soft", "x", TaintEffect::kPreferNoSchedule).Build());
  AddPod(MakePod("p").Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
}

TEST_F(FilterTest, EqualTolerationNeedsTheSameValue) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("dedicated", "gpu", TaintEffect::kNoSchedule).Build());
  AddPod(MakePod("same")
             .Toleration(Tol("dedicated", TolerationOperator::kEqual, "gpu", TaintEffect::kNoSchedule))
             .Build());
  AddPod(MakePod("other")
             .Toleration(Tol("dedicated", TolerationOperator::kEqual, "cpu", TaintEffect::kNoSchedule))
             .Build());
  EXPECT_EQ(Filter("same", "n1").code, Code::kSuccess);
  EXPECT_EQ(Filter("other", "n1").plugin, PluginId::kTaintToleration);
}

TEST_F(FilterTest, ExistsTolerationMatchesAnyValueOfItsKey) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("dedicated", "gpu", TaintEffect::kNoSchedule).Build());
  AddPod(MakePod("p").Toleration(Tol("dedicated", TolerationOperator::kExists, "", std::nullopt)).Build());
  AddPod(MakePod("q").Toleration(Tol("other", TolerationOperator::kExists, "", std::nullopt)).Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
  EXPECT_EQ(Filter("q", "n1").plugin, PluginId::kTaintToleration);
}

TEST_F(FilterTest, TolerationWithAnotherEffectDoesNotTolerate) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Taint("k", "v", TaintEffect::kNoExecute).Build());
  AddPod(MakePod("p").Toleration(Tol("k", TolerationOperator::kEqual, "v", TaintEffect::kNoSchedule)).Build());
  EXPECT_EQ(Filter("p", "n1").reasons, Reasons{"node(s) had untolerated taint {k: v}"});
}

TEST_F(FilterTest, ReportsTheFirstUntoleratedTaint) {
  AddNode(MakeNode("n1")
              .Cpu("4")
              .Pods(110)
              .Taint("a", "1", TaintEffect::kNoSchedule)
              .Taint("b", "2", TaintEffect::kNoSchedule)
              .Taint("c", "3", TaintEffect::kNoExecute)
              .Build());
  AddPod(MakePod("p").Toleration(Tol("a", TolerationOperator::kExists, "", std::nullopt)).Build());
  EXPECT_EQ(Filter("p", "n1").reasons, Reasons{"node(s) had untolerated taint {b: 2}"});
}

// ----------------------------------------------------------------------------------------------
// NodeAffinity (nodeSelector and required node affinity).

TEST_F(FilterTest, NodeSelectorMismatchRejectsAsUnresolvable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Label("disk", "hdd").Build());
  AddNode(MakeNode("n2").Cpu("4").Pods(110).Label("disk", "ssd").Build());
  AddNode(MakeNode("n3").Cpu("4").Pods(110).Build());
  AddPod(MakePod("p").NodeSelector("disk", "ssd").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.plugin, PluginId::kNodeAffinity);
  EXPECT_EQ(v.reasons, Reasons{"node(s) didn't match Pod's node affinity/selector"});
  EXPECT_EQ(Filter("p", "n2").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "n3").plugin, PluginId::kNodeAffinity);
}

TEST_F(FilterTest, NodeSelectorAndRequiredAffinityMustBothMatch) {
  AddNode(MakeNode("both").Cpu("4").Pods(110).Label("disk", "ssd").Label("zone", "a").Build());
  AddNode(MakeNode("selector-only").Cpu("4").Pods(110).Label("disk", "ssd").Label("zone", "b").Build());
  Pod p = MakePod("p").NodeSelector("disk", "ssd").Build();
  p.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("zone", NodeSelectorOperator::kIn, {"a"})}, {}}}};
  AddPod(p);
  EXPECT_EQ(Filter("p", "both").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "selector-only").plugin, PluginId::kNodeAffinity);
}

TEST_F(FilterTest, RequiredTermsAreOredAndTheirExpressionsAnded) {
  AddNode(MakeNode("a-x").Cpu("4").Pods(110).Label("zone", "a").Label("arch", "x").Build());
  AddNode(MakeNode("a-y").Cpu("4").Pods(110).Label("zone", "a").Label("arch", "y").Build());
  AddNode(MakeNode("b-y").Cpu("4").Pods(110).Label("zone", "b").Label("arch", "y").Build());
  AddNode(MakeNode("c-y").Cpu("4").Pods(110).Label("zone", "c").Label("arch", "y").Build());
  Pod p = MakePod("p").Build();
  // (zone In [a] AND arch In [x]) OR (zone In [b]).
  p.spec.affinity.node_affinity_required = NodeSelector{{
      NodeSelectorTerm{{Req("zone", NodeSelectorOperator::kIn, {"a"}),
                        Req("arch", NodeSelectorOperator::kIn, {"x"})},
                       {}},
      NodeSelectorTerm{{Req("zone", NodeSelectorOperator::kIn, {"b"})}, {}},
  }};
  AddPod(p);
  EXPECT_EQ(Filter("p", "a-x").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "a-y").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("p", "b-y").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "c-y").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, GtAndLtCompareLabelValuesAsIntegers) {
  AddNode(MakeNode("cores-9").Cpu("4").Pods(110).Label("cores", "9").Build());
  AddNode(MakeNode("cores-10").Cpu("4").Pods(110).Label("cores", "10").Build());
  AddNode(MakeNode("cores-none").Cpu("4").Pods(110).Build());
  AddNode(MakeNode("cores-text").Cpu("4").Pods(110).Label("cores", "many").Build());
  Pod gt = MakePod("gt").Build();
  gt.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("cores", NodeSelectorOperator::kGt, {"9"})}, {}}}};
  AddPod(gt);
  Pod lt = MakePod("lt").Build();
  lt.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("cores", NodeSelectorOperator::kLt, {"10"})}, {}}}};
  AddPod(lt);
  // "10" > "9" numerically although not as strings; Gt is strict.
  EXPECT_EQ(Filter("gt", "cores-10").code, Code::kSuccess);
  EXPECT_EQ(Filter("gt", "cores-9").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("gt", "cores-none").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("gt", "cores-text").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("lt", "cores-9").code, Code::kSuccess);
  EXPECT_EQ(Filter("lt", "cores-10").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, NotInMatchesNodesWithoutTheKey) {
  AddNode(MakeNode("bad").Cpu("4").Pods(110).Label("pool", "spot").Build());
  AddNode(MakeNode("good").Cpu("4").Pods(110).Label("pool", "ondemand").Build());
  AddNode(MakeNode("unlabelled").Cpu("4").Pods(110).Build());
  Pod p = MakePod("p").Build();
  p.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("pool", NodeSelectorOperator::kNotIn, {"spot"})}, {}}}};
  AddPod(p);
  EXPECT_EQ(Filter("p", "bad").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("p", "good").code, Code::kSuccess);
  EXPECT_EQ(Filter("p", "unlabelled").code, Code::kSuccess);
}

TEST_F(FilterTest, DoesNotExistAndExistsLookOnlyAtTheKey) {
  AddNode(MakeNode("gpu").Cpu("4").Pods(110).Label("gpu", "").Build());
  AddNode(MakeNode("plain").Cpu("4").Pods(110).Build());
  Pod none = MakePod("none").Build();
  none.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("gpu", NodeSelectorOperator::kDoesNotExist, {})}, {}}}};
  AddPod(none);
  Pod some = MakePod("some").Build();
  some.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{Req("gpu", NodeSelectorOperator::kExists, {})}, {}}}};
  AddPod(some);
  EXPECT_EQ(Filter("none", "gpu").code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(Filter("none", "plain").code, Code::kSuccess);
  EXPECT_EQ(Filter("some", "gpu").code, Code::kSuccess);
  EXPECT_EQ(Filter("some", "plain").code, Code::kUnschedulableAndUnresolvable);
}

TEST_F(FilterTest, EmptyRequiredTermSelectsNoNode) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Label("a", "b").Build());
  Pod p = MakePod("p").Build();
  p.spec.affinity.node_affinity_required = NodeSelector{{NodeSelectorTerm{}}};
  AddPod(p);
  EXPECT_EQ(Filter("p", "n1").plugin, PluginId::kNodeAffinity);
}

TEST_F(FilterTest, MatchFieldsSelectsByNodeName) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Build());
  AddNode(MakeNode("n2").Cpu("4").Pods(110).Build());
  Pod p = MakePod("p").Build();
  p.spec.affinity.node_affinity_required =
      NodeSelector{{NodeSelectorTerm{{}, {Req("metadata.name", NodeSelectorOperator::kIn, {"n2"})}}}};
  AddPod(p);
  EXPECT_EQ(Filter("p", "n1").plugin, PluginId::kNodeAffinity);
  EXPECT_EQ(Filter("p", "n2").code, Code::kSuccess);
}

// The chain's order: a node failing several plugins reports the first one only.
TEST_F(FilterTest, ChainStopsAtTheFirstRejectingPlugin) {
  AddNode(MakeNode("n1").Cpu("1").Pods(110).Unschedulable().Taint("k", "v", TaintEffect::kNoSchedule).Build());
  AddNode(MakeNode("n2").Cpu("1").Pods(110).Taint("k", "v", TaintEffect::kNoSchedule).Build());
  AddPod(MakePod("p").Cpu("2").NodeSelector("x", "y").Build());
  EXPECT_EQ(Filter("p", "n1").plugin, PluginId::kNodeUnschedulable);
  EXPECT_EQ(Filter("p", "n2").plugin, PluginId::kTaintToleration);
}

// ----------------------------------------------------------------------------------------------
// NodeResourcesFit.

TEST_F(FilterTest, InsufficientCpuIsUnschedulable) {
  AddNode(MakeNode("n1").Cpu("2").Memory("4Gi").Pods(110).Build());
  AddPod(MakePod("running").Node("n1").Cpu("1500m").Build());
  AddPod(MakePod("p").Cpu("1").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulable);
  EXPECT_EQ(v.plugin, PluginId::kNodeResourcesFit);
  EXPECT_EQ(v.reasons, Reasons{"Insufficient cpu"});
}

TEST_F(FilterTest, ExactFitSucceeds) {
  AddNode(MakeNode("n1").Cpu("2").Memory("4Gi").Pods(110).Build());
  AddPod(MakePod("running").Node("n1").Cpu("1").Memory("3Gi").Build());
  AddPod(MakePod("p").Cpu("1").Memory("1Gi").Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
}

TEST_F(FilterTest, EveryInsufficientResourceIsAReasonInKubernetesOrder) {
  AddNode(MakeNode("n1").Cpu("2").Memory("4Gi").Resource("ephemeral-storage", "10Gi").Pods(1).Build());
  AddPod(MakePod("running")
             .Node("n1")
             .Cpu("2")
             .Memory("4Gi")
             .Request("ephemeral-storage", "10Gi")
             .Build());
  AddPod(MakePod("p").Cpu("1").Memory("1Gi").Request("ephemeral-storage", "1Gi").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulable);
  EXPECT_EQ(v.reasons, (Reasons{"Too many pods", "Insufficient cpu", "Insufficient memory",
                                "Insufficient ephemeral-storage"}));
}

TEST_F(FilterTest, TooManyPodsRejectsEvenAZeroRequestPod) {
  AddNode(MakeNode("n1").Cpu("4").Memory("4Gi").Pods(2).Build());
  AddPod(MakePod("r1").Node("n1").Build());
  AddPod(MakePod("r2").Node("n1").Build());
  AddPod(MakePod("p").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulable);
  EXPECT_EQ(v.plugin, PluginId::kNodeResourcesFit);
  EXPECT_EQ(v.reasons, Reasons{"Too many pods"});
}

TEST_F(FilterTest, ZeroRequestPodFitsOnAnOverCommittedNode) {
  AddNode(MakeNode("n1").Cpu("1").Memory("1Gi").Pods(110).Build());
  AddPod(MakePod("hog").Node("n1").Cpu("3").Memory("3Gi").Build());
  AddPod(MakePod("p").Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
}

TEST_F(FilterTest, ResourceThePodDoesNotRequestIsNotChecked) {
  AddNode(MakeNode("n1").Cpu("4").Memory("1Gi").Pods(110).Build());
  AddPod(MakePod("hog").Node("n1").Cpu("1").Memory("3Gi").Build());
  AddPod(MakePod("cpu-only").Cpu("1").Build());
  AddPod(MakePod("wants-memory").Cpu("1").Memory("1Mi").Build());
  EXPECT_EQ(Filter("cpu-only", "n1").code, Code::kSuccess);
  EXPECT_EQ(Filter("wants-memory", "n1").reasons, Reasons{"Insufficient memory"});
}

TEST_F(FilterTest, RequestAboveAllocatableIsUnresolvableEvenOnAnEmptyNode) {
  AddNode(MakeNode("n1").Cpu("2").Memory("4Gi").Pods(110).Build());
  AddPod(MakePod("p").Cpu("3").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.plugin, PluginId::kNodeResourcesFit);
  EXPECT_EQ(v.reasons, Reasons{"Insufficient cpu"});
}

TEST_F(FilterTest, OneUnresolvableResourceMakesTheWholeStatusUnresolvable) {
  AddNode(MakeNode("n1").Cpu("2").Memory("4Gi").Pods(110).Build());
  AddPod(MakePod("running").Node("n1").Memory("4Gi").Build());
  AddPod(MakePod("p").Cpu("3").Memory("1Gi").Build());
  const Verdict v = Filter("p", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v.reasons, (Reasons{"Insufficient cpu", "Insufficient memory"}));
}

TEST_F(FilterTest, ExtendedResourcesAreCheckedLikeCpu) {
  AddNode(MakeNode("gpu").Cpu("8").Pods(110).Resource("nvidia.com/gpu", "2").Build());
  AddNode(MakeNode("plain").Cpu("8").Pods(110).Build());
  AddPod(MakePod("running").Node("gpu").Request("nvidia.com/gpu", "1").Build());
  AddPod(MakePod("one").Request("nvidia.com/gpu", "1").Build());
  AddPod(MakePod("two").Request("nvidia.com/gpu", "2").Build());
  AddPod(MakePod("three").Request("nvidia.com/gpu", "3").Build());
  EXPECT_EQ(Filter("one", "gpu").code, Code::kSuccess);
  const Verdict two = Filter("two", "gpu");
  EXPECT_EQ(two.code, Code::kUnschedulable);
  EXPECT_EQ(two.reasons, Reasons{"Insufficient nvidia.com/gpu"});
  EXPECT_EQ(Filter("three", "gpu").code, Code::kUnschedulableAndUnresolvable);
  const Verdict plain = Filter("one", "plain");
  EXPECT_EQ(plain.code, Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(plain.reasons, Reasons{"Insufficient nvidia.com/gpu"});
}

TEST_F(FilterTest, TerminatingPodsStillHoldTheirResources) {
  AddNode(MakeNode("n1").Cpu("2").Pods(110).Build());
  Pod leaving = MakePod("leaving").Node("n1").Cpu("2").Build();
  leaving.meta.deletion_timestamp = WallTime{60'000'000};
  AddPod(leaving);
  AddPod(MakePod("p").Cpu("1").Build());
  EXPECT_EQ(Filter("p", "n1").reasons, Reasons{"Insufficient cpu"});
}

TEST_F(FilterTest, SucceededPodsHoldNoResources) {
  AddNode(MakeNode("n1").Cpu("2").Pods(1).Build());
  AddPod(MakePod("done").Node("n1").Cpu("2").Phase("Succeeded").Build());
  AddPod(MakePod("p").Cpu("1").Build());
  EXPECT_EQ(Filter("p", "n1").code, Code::kSuccess);
}

// ----------------------------------------------------------------------------------------------
// InterPodAffinity.

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
}  // namespace kpsim::engine
