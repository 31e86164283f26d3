// NodeResourcesFit: its filter verdicts through the registry's chain (fixture:
// filter_fixture.h).

#include "filter_fixture.h"

#include "testing/builders.h"

namespace kpsim::engine::plugin_test {
namespace {

using kpsim::testing::MakeNamespace;
using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

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

}  // namespace
}  // namespace kpsim::engine::plugin_test
