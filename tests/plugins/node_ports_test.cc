#include "plugins/node_ports.h"

#include <gtest/gtest.h>

#include <vector>

#include "filter_fixture.h"
#include "kpsim/api/types.h"

namespace kpsim::plugins {
namespace {

HostPort P(std::int32_t port, std::string protocol = "TCP", std::string ip = "") {
  return {port, std::move(protocol), std::move(ip)};
}

TEST(UsedPortsTest, EmptyAddressConflictsWithEveryAddressOfSameProtocolAndPort) {
  UsedPorts used;
  used.Add(P(8080, "TCP", "10.0.0.1"));
  EXPECT_TRUE(used.CheckConflict(P(8080)));  // "" = 0.0.0.0
  EXPECT_TRUE(used.CheckConflict(P(8080, "TCP", "0.0.0.0")));
  EXPECT_FALSE(used.CheckConflict(P(8080, "UDP")));              // other protocol
  EXPECT_FALSE(used.CheckConflict(P(8081)));                     // other port
  EXPECT_FALSE(used.CheckConflict(P(8080, "TCP", "10.0.0.2")));  // other specific address
  EXPECT_TRUE(used.CheckConflict(P(8080, "TCP", "10.0.0.1")));   // the same address
}

TEST(UsedPortsTest, SpecificAddressConflictsWithBindAll) {
  UsedPorts used;
  used.Add(P(53, "UDP"));
  EXPECT_TRUE(used.CheckConflict(P(53, "UDP", "192.168.1.5")));
  EXPECT_FALSE(used.CheckConflict(P(53, "TCP", "192.168.1.5")));
  EXPECT_FALSE(used.CheckConflict(P(53)));  // empty protocol sanitizes to TCP
}

TEST(UsedPortsTest, EmptyProtocolIsTcp) {
  UsedPorts used;
  used.Add(P(80, ""));
  EXPECT_TRUE(used.CheckConflict(P(80, "TCP")));
  EXPECT_FALSE(used.CheckConflict(P(80, "SCTP")));
}

TEST(UsedPortsTest, NonPositivePortsAreNeitherStoredNorConflicting) {
  UsedPorts used;
  used.Add(P(0));
  used.Add(P(-1));
  EXPECT_TRUE(used.empty());
  used.Add(P(1));
  EXPECT_FALSE(used.CheckConflict(P(0)));
}

TEST(UsedPortsTest, AddPodThenRemovePodFreesPorts) {
  PodSpec spec;
  spec.host_ports = {P(80), P(443, "TCP", "10.0.0.1"), P(53, "UDP")};
  UsedPorts used;
  used.AddPod(spec);
  EXPECT_EQ(used.size(), 3U);
  EXPECT_TRUE(used.CheckConflict(P(443)));
  used.RemovePod(spec);
  EXPECT_TRUE(used.empty());
  EXPECT_FALSE(used.CheckConflict(P(80)));
}

TEST(UsedPortsTest, PortHeldByTwoPodsStaysUsedUntilBothLeave) {
  PodSpec a;
  a.host_ports = {P(9000)};
  UsedPorts used;
  used.AddPod(a);
  used.AddPod(a);
  used.RemovePod(a);
  EXPECT_TRUE(used.CheckConflict(P(9000)));
  used.RemovePod(a);
  EXPECT_FALSE(used.CheckConflict(P(9000)));
  used.RemovePod(a);  // removing what is not there is harmless
  EXPECT_TRUE(used.empty());
}

TEST(FitsPortsTest, AnyConflictingWantedPortFails) {
  UsedPorts used;
  used.Add(P(8080, "TCP", "127.0.0.1"));
  EXPECT_TRUE(FitsPorts({}, used));
  EXPECT_TRUE(FitsPorts({P(8081), P(8080, "UDP")}, used));
  EXPECT_FALSE(FitsPorts({P(8081), P(8080)}, used));
}

TEST(NodePortsFilterTest, ConflictIsUnschedulableWithUpstreamReason) {
  UsedPorts used;
  used.Add(P(8080));
  const FilterResult fail = NodePortsFilter({P(8080, "TCP", "10.1.1.1")}, used);
  EXPECT_EQ(fail.code, FilterCode::kUnschedulable);
  EXPECT_EQ(fail.reason, "node(s) didn't have free ports for the requested pod ports");
  const FilterResult ok = NodePortsFilter({P(8081)}, used);
  EXPECT_TRUE(ok.IsSuccess());
  EXPECT_TRUE(ok.reason.empty());
  EXPECT_TRUE(NodePortsFilter({}, used).IsSuccess());
}

}  // namespace
}  // namespace kpsim::plugins

// The NodePorts filter in the registry's chain (fixture: filter_fixture.h): the node's ports come
// from the pods bound to it, and the verdict says whether preemption may help.

namespace kpsim::engine::plugin_test {
namespace {

// Setup: web holds 0.0.0.0:80/TCP on n1; n2 is empty. Expect: a pod asking for 80/TCP is refused
// on n1 with upstream's reason and code Unschedulable (preempting the holder frees the port),
// and fits n2; 80/UDP and 81/TCP fit n1.
TEST_F(FilterTest, NodePortsRefusesAConflictingHostPortAsUnschedulable) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Build());
  AddNode(MakeNode("n2").Cpu("4").Pods(110).Build());
  AddPod(MakePod("web").Node("n1").HostPort(80).Build());
  AddPod(MakePod("p80").HostPort(80).Build());
  AddPod(MakePod("udp").HostPort(80, "UDP").Build());
  AddPod(MakePod("p81").HostPort(81).Build());
  const Verdict v = Filter("p80", "n1");
  EXPECT_EQ(v.code, Code::kUnschedulable);
  EXPECT_EQ(v.plugin, PluginId::kNodePorts);
  EXPECT_EQ(v.reasons, (Reasons{"node(s) didn't have free ports for the requested pod ports"}));
  EXPECT_EQ(Filter("p80", "n2").code, Code::kSuccess);
  EXPECT_EQ(Filter("udp", "n1").code, Code::kSuccess);
  EXPECT_EQ(Filter("p81", "n1").code, Code::kSuccess);
}

// Setup: n1 is full (cpu) and web holds port 80 there. Expect: NodePorts runs before
// NodeResourcesFit (the default profile's order), so the port is what the chain reports.
TEST_F(FilterTest, NodePortsRunsBeforeNodeResourcesFit) {
  AddNode(MakeNode("n1").Cpu("1").Pods(110).Build());
  AddPod(MakePod("web").Node("n1").Cpu("1").HostPort(80).Build());
  AddPod(MakePod("p").Cpu("1").HostPort(80).Build());
  EXPECT_EQ(Filter("p", "n1").plugin, PluginId::kNodePorts);
}

// Setup: a pod with no host ports on a node whose ports are all taken. Expect: it fits (upstream's
// PreFilter returns Skip for it).
TEST_F(FilterTest, NodePortsSkipsAPodWithoutHostPorts) {
  AddNode(MakeNode("n1").Cpu("4").Pods(110).Build());
  AddPod(MakePod("web").Node("n1").HostPort(80).HostPort(443).Build());
  AddPod(MakePod("plain").Build());
  EXPECT_EQ(Filter("plain", "n1").code, Code::kSuccess);
}

}  // namespace
}  // namespace kpsim::engine::plugin_test
