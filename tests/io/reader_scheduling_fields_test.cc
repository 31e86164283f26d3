// The pod and node fields the filter and score plugins read: host ports (NodePorts), images
// (ImageLocality), preferred affinity terms (NodeAffinity and InterPodAffinity scores) and
// topology spread constraints (PodTopologySpread), with Kubernetes' validation messages.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kpsim/io.h"
#include "reader_test_util.h"

namespace kpsim::io {
namespace {

using testing_util::Only;
using testing_util::OnlyError;

// Setup: a sidecar with a host port, a plain init container with one (not running with the pod,
// so not counted), a container with a TCP and a UDP host port and one container port only.
// Expect: GetHostPorts' list, sidecars first, protocol defaulted to TCP.
TEST(ReaderHostPortsTest, SidecarsAndContainersInGetHostPortsOrder) {
  const Pod pod = Only<Pod>(ReadManifestText(R"(kind: Pod
metadata: {name: p}
spec:
  initContainers:
  - {name: init, image: busybox, ports: [{containerPort: 1, hostPort: 7000}]}
  - {name: proxy, image: envoy:1.30, restartPolicy: Always, ports: [{containerPort: 15001, hostPort: 15001}]}
  containers:
  - name: web
    image: registry.k8s.io/pause:3.9
    ports:
    - {containerPort: 80, hostPort: 8080, hostIP: 10.0.0.1}
    - {containerPort: 53, hostPort: 5353, protocol: UDP}
    - {containerPort: 9090}
)",
                                             "c.yaml"));
  ASSERT_EQ(pod.spec.host_ports.size(), 3u);
  EXPECT_EQ(pod.spec.host_ports[0], (HostPort{15001, "TCP", ""}));
  EXPECT_EQ(pod.spec.host_ports[1], (HostPort{8080, "TCP", "10.0.0.1"}));
  EXPECT_EQ(pod.spec.host_ports[2], (HostPort{5353, "UDP", ""}));
  EXPECT_EQ(pod.spec.images,
            (std::vector<std::string>{"busybox", "envoy:1.30", "registry.k8s.io/pause:3.9"}));
}

TEST(ReaderHostPortsTest, HostNetworkAfterContainersStillAppliesToThem) {
  const Pod pod = Only<Pod>(ReadManifestText(R"(kind: Pod
metadata: {name: p}
spec:
  containers: [{name: exporter, ports: [{containerPort: 9100}, {containerPort: 9101, hostPort: 9200}]}]
  hostNetwork: true
)",
                                             "c.yaml"));
  ASSERT_EQ(pod.spec.host_ports.size(), 2u);
  EXPECT_EQ(pod.spec.host_ports[0].port, 9100);
  EXPECT_EQ(pod.spec.host_ports[1].port, 9200);
}

TEST(ReaderHostPortsTest, OutOfRangePortIsRefused) {
  const DecodeError e = OnlyError(R"(kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, ports: [{containerPort: 80, hostPort: 70000}]}]
)");
  EXPECT_EQ(e.field, "spec.containers[0].ports[0].hostPort");
  EXPECT_TRUE(e.message.ends_with("Invalid value: 70000: must be between 1 and 65535, inclusive"))
      << e.message;
}

TEST(ReaderHostPortsTest, UnknownProtocolIsRefused) {
  const DecodeError e = OnlyError(R"(kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, ports: [{containerPort: 80, protocol: HTTP}]}]
)");
  EXPECT_EQ(e.field, "spec.containers[0].ports[0].protocol");
  EXPECT_TRUE(e.message.ends_with(
      "Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\""))
      << e.message;
}

TEST(ReaderNodeImagesTest, StatusImagesAreRead) {
  const Node node = Only<Node>(ReadManifestText(R"(kind: Node
metadata: {name: n1}
status:
  images:
  - names: [registry.k8s.io/pause@sha256:abc, registry.k8s.io/pause:3.9]
    sizeBytes: 321000
  - names: [nginx:1.25]
    sizeBytes: 70000000
)",
                                                "c.yaml"));
  ASSERT_EQ(node.images.size(), 2u);
  EXPECT_EQ(node.images[0].names.size(), 2u);
  EXPECT_EQ(node.images[0].size_bytes, 321000);
  EXPECT_EQ(node.images[1].names, (std::vector<std::string>{"nginx:1.25"}));
}

TEST(ReaderPreferredAffinityTest, WeightedTermsAreRead) {
  const Pod pod = Only<Pod>(ReadManifestText(R"(kind: Pod
metadata: {name: p}
spec:
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 30
        preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}
    podAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 10
        podAffinityTerm: {labelSelector: {matchLabels: {app: cache}}, topologyKey: zone}
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm: {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname}
)",
                                             "c.yaml"));
  const Affinity& a = pod.spec.affinity;
  ASSERT_EQ(a.node_affinity_preferred.size(), 1u);
  EXPECT_EQ(a.node_affinity_preferred[0].weight, 30);
  ASSERT_EQ(a.node_affinity_preferred[0].preference.match_expressions.size(), 1u);
  EXPECT_EQ(a.node_affinity_preferred[0].preference.match_expressions[0].key, "disk");
  ASSERT_EQ(a.pod_affinity_preferred.size(), 1u);
  EXPECT_EQ(a.pod_affinity_preferred[0].weight, 10);
  EXPECT_EQ(a.pod_affinity_preferred[0].term.topology_key, "zone");
  ASSERT_EQ(a.pod_anti_affinity_preferred.size(), 1u);
  EXPECT_EQ(a.pod_anti_affinity_preferred[0].weight, 100);
  EXPECT_TRUE(a.pod_affinity_required.empty());
}

TEST(ReaderPreferredAffinityTest, WeightOutsideOneToHundredIsRefused) {
  const DecodeError e = OnlyError(R"(kind: Pod
metadata: {name: p}
spec:
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - {weight: 0, preference: {}}
)");
  EXPECT_EQ(e.field,
            "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight");
  EXPECT_TRUE(e.message.ends_with("Invalid value: 0: must be in the range 1-100")) << e.message;
}

TEST(ReaderTopologySpreadTest, ConstraintsAreRead) {
  const Pod pod = Only<Pod>(ReadManifestText(R"(kind: Pod
metadata: {name: p, labels: {app: web}}
spec:
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchLabels: {app: web}}
    minDomains: 3
    nodeTaintsPolicy: Honor
    matchLabelKeys: [pod-template-hash]
  - {maxSkew: 2, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway}
)",
                                             "c.yaml"));
  ASSERT_EQ(pod.spec.topology_spread_constraints.size(), 2u);
  const TopologySpreadConstraint& zone = pod.spec.topology_spread_constraints[0];
  EXPECT_EQ(zone.max_skew, 1);
  EXPECT_EQ(zone.topology_key, "topology.kubernetes.io/zone");
  EXPECT_EQ(zone.when_unsatisfiable, UnsatisfiableConstraintAction::kDoNotSchedule);
  ASSERT_TRUE(zone.label_selector.has_value());
  EXPECT_EQ(zone.min_domains, 3);
  EXPECT_EQ(zone.node_taints_policy, NodeInclusionPolicy::kHonor);
  EXPECT_FALSE(zone.node_affinity_policy.has_value());
  EXPECT_EQ(zone.match_label_keys, (std::vector<std::string>{"pod-template-hash"}));
  EXPECT_EQ(pod.spec.topology_spread_constraints[1].when_unsatisfiable,
            UnsatisfiableConstraintAction::kScheduleAnyway);
}

TEST(ReaderTopologySpreadTest, InvalidConstraintsAreRefusedWithKubernetesMessages) {
  struct Case {
    const char* constraint;
    const char* field;
    const char* message;
  };
  const Case cases[] = {
      {"{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}",
       "spec.topologySpreadConstraints[0].maxSkew", "Invalid value: 0: must be greater than zero"},
      {"{maxSkew: 1, whenUnsatisfiable: DoNotSchedule}",
       "spec.topologySpreadConstraints[0].topologyKey", "Required value: can not be empty"},
      {"{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Maybe}",
       "spec.topologySpreadConstraints[0].whenUnsatisfiable",
       "Unsupported value: \"Maybe\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\""},
      {"{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 2}",
       "spec.topologySpreadConstraints[0].minDomains",
       "Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "
       "ScheduleAnyway"},
  };
  for (const Case& c : cases) {
    const DecodeError e = OnlyError(std::string("kind: Pod\nmetadata: {name: p}\nspec:\n  "
                                                "topologySpreadConstraints:\n  - ") +
                                    c.constraint + "\n");
    EXPECT_EQ(e.field, c.field) << c.constraint;
    EXPECT_TRUE(e.message.ends_with(c.message)) << e.message;
  }
}

}  // namespace
}  // namespace kpsim::io
