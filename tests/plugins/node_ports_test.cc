#include "plugins/node_ports.h"

#include <gtest/gtest.h>

#include <vector>

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
