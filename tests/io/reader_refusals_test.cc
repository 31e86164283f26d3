// Values Kubernetes refuses, or that would wrap kpsim's arithmetic, are decode errors naming the
// field; fields kpsim does not model are noted on the pod for the run's warnings.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "kpsim/io.h"
#include "reader_test_util.h"

namespace kpsim::io {
namespace {

using testing_util::Only;
using testing_util::OnlyError;

TEST(ReaderRefusalTest, NegativeRequestIsRefused) {
  const DecodeError e = OnlyError(R"(kind: Pod
metadata: {name: web}
spec:
  containers:
  - resources: {requests: {cpu: "-1"}}
)");
  EXPECT_EQ(e.field, "spec.containers[0].resources.requests.cpu");
  EXPECT_NE(e.message.find("Invalid value: \"-1\": must be greater than or equal to 0"),
            std::string::npos)
      << e.message;
}

TEST(ReaderRefusalTest, NegativeAllocatableIsRefused) {
  const DecodeError e = OnlyError(R"(kind: Node
metadata: {name: n1}
status: {allocatable: {memory: -4Gi}}
)");
  EXPECT_EQ(e.field, "status.allocatable.memory");
  EXPECT_NE(e.message.find("must be greater than or equal to 0"), std::string::npos);
}

// Setup: two containers whose cpu requests (5e15 cores = 5e18 milli-CPU) each fit int64 but
// sum past it.
TEST(ReaderRefusalTest, RequestsSummingPast64BitsAreRefused) {
  const DecodeError e = OnlyError(R"(kind: Pod
metadata: {name: huge}
spec:
  containers:
  - resources: {requests: {cpu: "5000000000000000"}}
  - resources: {requests: {cpu: "5000000000000000"}}
)");
  EXPECT_NE(e.message.find("the cpu requests sum past the 64-bit range"), std::string::npos)
      << e.message;
  EXPECT_EQ(e.field, "spec.containers[1]");
}

TEST(ReaderRefusalTest, GracePeriodBeyondTheSimulatedClockIsRefused) {
  const DecodeError e = OnlyError(R"(kind: Pod
metadata: {name: slow}
spec:
  terminationGracePeriodSeconds: 9223372036855
  containers: [{name: c}]
)");
  EXPECT_EQ(e.field, "spec.terminationGracePeriodSeconds");
  EXPECT_NE(e.message.find("must be at most 1000000000000 seconds"), std::string::npos);
}

TEST(ReaderRefusalTest, LargeButValidGracePeriodIsKept) {
  const Pod pod = Only<Pod>(ReadManifestText(R"(kind: Pod
metadata: {name: slow}
spec:
  terminationGracePeriodSeconds: 86400
)",
                                             "c.yaml"));
  EXPECT_EQ(pod.spec.termination_grace_period_seconds, 86400);
}

// Preferred node affinity terms are scored (NodeAffinity's score): decoded, nothing noted.
TEST(ReaderUnmodeledTest, PreferredNodeAffinityIsNotNoted) {
  const Pod pod = Only<Pod>(ReadManifestText(R"(kind: Pod
metadata: {name: picky}
spec:
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 5
        preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}
  containers: [{name: c}]
)",
                                             "c.yaml"));
  EXPECT_EQ(pod.spec.affinity.node_affinity_preferred.size(), 1U);
  EXPECT_EQ(pod.spec.unmodeled, 0U);
}

TEST(ReaderUnmodeledTest, FieldsKubeSchedulerReadsAreNoted) {
  const Pod pod = Only<Pod>(ReadManifestText(R"(kind: Pod
metadata: {name: busy}
spec:
  schedulingGates: [{name: wait}]
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}
  affinity:
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 1
        podAffinityTerm: {topologyKey: zone}
  volumes:
  - {name: data, persistentVolumeClaim: {claimName: data}}
  containers:
  - name: c
    ports: [{containerPort: 80, hostPort: 8080}]
)",
                                             "c.yaml"));
  // schedulingGates is modelled (SchedulingGates PreEnqueue): decoded, not noted.
  EXPECT_EQ(pod.spec.scheduling_gates, (std::vector<std::string>{"wait"}));
  // ScheduleAnyway spread constraints are scored (PodTopologySpread's score): decoded, not noted.
  EXPECT_EQ(pod.spec.topology_spread_constraints.size(), 1U);
  // Preferred pod anti-affinity is scored (InterPodAffinity's score): decoded, not noted.
  EXPECT_EQ(pod.spec.affinity.pod_anti_affinity_preferred.size(), 1U);
  EXPECT_TRUE(pod.spec.Uses(UnmodeledField::kVolumes));
  EXPECT_FALSE(pod.spec.Uses(UnmodeledField::kResourceClaims));
  // Host ports are modelled (NodePorts): decoded, not noted.
  EXPECT_EQ(pod.spec.host_ports, (std::vector<HostPort>{{8080, "TCP", ""}}));
}

// Setup: what every real pod has (service-account token, configMap, emptyDir volumes; container
// ports without hostPort; empty lists) and a DoNotSchedule spread constraint, which the
// PodTopologySpread filter reads. Expect: nothing noted.
TEST(ReaderUnmodeledTest, OrdinaryFieldsAreNotNoted) {
  const Pod pod = Only<Pod>(ReadManifestText(R"(kind: Pod
metadata: {name: plain}
spec:
  schedulingGates: []
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}
  volumes:
  - {name: token, projected: {sources: []}}
  - {name: conf, configMap: {name: conf}}
  - {name: scratch, emptyDir: {}}
  containers:
  - name: c
    ports: [{containerPort: 80}, {containerPort: 81, hostPort: 0}]
)",
                                             "c.yaml"));
  EXPECT_EQ(pod.spec.unmodeled, 0u);
}

// hostNetwork makes every containerPort a host port (SetDefaults_Pod); without ports it asks
// for none. Either way nothing is noted as not modelled (NodePorts reads them).
TEST(ReaderUnmodeledTest, HostNetworkCountsAsHostPorts) {
  const Pod with_ports = Only<Pod>(ReadManifestText(R"(kind: Pod
metadata: {name: net}
spec:
  hostNetwork: true
  containers: [{name: c, ports: [{containerPort: 9100}]}]
)",
                                                    "c.yaml"));
  EXPECT_EQ(with_ports.spec.host_ports, (std::vector<HostPort>{{9100, "TCP", ""}}));
  EXPECT_EQ(with_ports.spec.unmodeled, 0u);
  const Pod without = Only<Pod>(ReadManifestText(R"(kind: Pod
metadata: {name: net}
spec:
  hostNetwork: true
)",
                                                 "c.yaml"));
  EXPECT_TRUE(without.spec.host_ports.empty());
}

}  // namespace
}  // namespace kpsim::io
