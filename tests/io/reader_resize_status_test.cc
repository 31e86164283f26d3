// A bound pod's in-place resize read from its status, as kube-scheduler counts it
// (`determineContainerReqs` in k8s component-helpers, UseStatusResources): the spec, what the
// runtime actuated (containerStatuses[].resources) and what the kubelet admitted
// (allocatedResources).

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "io/reader_test_util.h"
#include "kpsim/io.h"

namespace kpsim::io {
namespace {

using testing_util::Only;

constexpr std::int64_t kGi = 1LL << 30;

// A running pod: `containers` and `status` are YAML blocks indented under spec / status.
Pod ReadPod(std::string_view spec_body, std::string_view status_body) {
  const std::string text = "kind: Pod\nmetadata: {name: p}\nspec:\n  nodeName: n1\n" + std::string(spec_body) +
                           "status:\n  phase: Running\n" + std::string(status_body);
  return Only<Pod>(ReadManifestText(text, "p.yaml"));
}

constexpr std::string_view kDbSpec = R"(  containers:
  - name: db
    resources: {requests: {cpu: "3", memory: 2Gi, ephemeral-storage: 1Gi}}
)";

std::string DbStatus(std::string_view reason, std::string_view actuated, std::string_view allocated) {
  std::string s;
  if (!reason.empty()) {
    s += "  conditions:\n  - {type: PodResizePending, status: \"True\", reason: " + std::string(reason) + "}\n";
  }
  s += "  containerStatuses:\n  - name: db\n    allocatedResources: " + std::string(allocated) +
       "\n    resources: {requests: " + std::string(actuated) + "}\n";
  return s;
}

TEST(ReaderResizeStatusTest, DeferredCountsTheLargerOfSpecAndStatus) {
  // Setup: spec asks 3 CPU / 2Gi; the kubelet holds 1 CPU / 4Gi (a memory shrink and a cpu grow).
  // Expect: the scheduler counts max per resource: 3 CPU, 4Gi; the spec's ephemeral-storage stays.
  const Pod pod = ReadPod(kDbSpec, DbStatus("Deferred", "{cpu: \"1\", memory: 4Gi}", "{cpu: \"1\", memory: 4Gi}"));
  EXPECT_EQ(pod.spec.requests.milli_cpu, 3000);
  EXPECT_EQ(pod.spec.requests.memory, 4 * kGi);
  EXPECT_EQ(pod.spec.requests.ephemeral_storage, kGi);
  ASSERT_TRUE(pod.status.resize.has_value());
  EXPECT_EQ(pod.status.resize->reason, "Deferred");
  EXPECT_EQ(pod.status.resize->desired.milli_cpu, 3000);
  EXPECT_EQ(pod.status.resize->desired.memory, 2 * kGi);
  EXPECT_EQ(pod.status.resize->allocated.milli_cpu, 1000);
  EXPECT_EQ(pod.status.resize->allocated.memory, 4 * kGi);
}

TEST(ReaderResizeStatusTest, InfeasibleCountsOnlyWhatTheKubeletHolds) {
  const Pod pod = ReadPod(kDbSpec, DbStatus("Infeasible", "{cpu: \"1\", memory: 2Gi}", "{cpu: \"1\", memory: 2Gi}"));
  EXPECT_EQ(pod.spec.requests.milli_cpu, 1000);
  EXPECT_EQ(pod.spec.requests.memory, 2 * kGi);
  ASSERT_TRUE(pod.status.resize.has_value());
  EXPECT_EQ(pod.status.resize->reason, "Infeasible");
  EXPECT_EQ(pod.status.resize->desired.milli_cpu, 3000);
}

TEST(ReaderResizeStatusTest, InProgressTakesTheLargerOfActuatedAndAllocated) {
  // Setup: no PodResizePending condition; the kubelet admitted 2 CPU, the runtime still runs 1.
  // Expect: max(spec 3, actuated 1, allocated 2) = 3; a resize in progress (empty reason).
  const Pod pod = ReadPod(kDbSpec, DbStatus("", "{cpu: \"1\", memory: 2Gi}", "{cpu: \"2\", memory: 2Gi}"));
  EXPECT_EQ(pod.spec.requests.milli_cpu, 3000);
  ASSERT_TRUE(pod.status.resize.has_value());
  EXPECT_EQ(pod.status.resize->reason, "");
  EXPECT_EQ(pod.status.resize->allocated.milli_cpu, 2000);
}

TEST(ReaderResizeStatusTest, AShrinkBeingActuatedStillCountsTheOldSize) {
  // Setup: spec asks 1 CPU (a shrink); the kubelet admitted it but the runtime still runs 3.
  // Expect: the scheduler counts 3 until the runtime reports the shrink, and the pod holds 3 on
  // its node meanwhile (what a simulated kubelet then shrinks at once).
  const std::string spec = R"(  containers:
  - name: db
    resources: {requests: {cpu: "1", memory: 2Gi}}
)";
  const Pod pod = ReadPod(spec, DbStatus("", "{cpu: \"3\", memory: 2Gi}", "{cpu: \"1\", memory: 2Gi}"));
  EXPECT_EQ(pod.spec.requests.milli_cpu, 3000);
  ASSERT_TRUE(pod.status.resize.has_value());
  EXPECT_EQ(pod.status.resize->desired.milli_cpu, 1000);
  EXPECT_EQ(pod.status.resize->allocated.milli_cpu, 3000);
}

TEST(ReaderResizeStatusTest, StatusMatchingTheSpecIsNoResize) {
  const std::string spec = R"(  containers:
  - name: db
    resources: {requests: {cpu: "1", memory: 2Gi}}
)";
  const Pod pod = ReadPod(spec, DbStatus("", "{cpu: \"1\", memory: 2Gi}", "{cpu: \"1\", memory: 2Gi}"));
  EXPECT_EQ(pod.spec.requests.milli_cpu, 1000);
  EXPECT_FALSE(pod.status.resize.has_value());
}

TEST(ReaderResizeStatusTest, StatusWithoutResourcesLeavesTheSpec) {
  // A container status without `resources` (runtimes that do not report them): upstream only
  // uses a status whose Resources is set.
  const std::string status = "  containerStatuses:\n  - name: db\n    allocatedResources: {cpu: \"1\"}\n";
  const Pod pod = ReadPod(kDbSpec, status);
  EXPECT_EQ(pod.spec.requests.milli_cpu, 3000);
  EXPECT_FALSE(pod.status.resize.has_value());
}

TEST(ReaderResizeStatusTest, StatusBeforeSpecIsReadTheSame) {
  // kubectl and the API print spec before status, hand-written files may not.
  const std::string text = std::string("kind: Pod\nmetadata: {name: p}\nstatus:\n  phase: Running\n") +
                           DbStatus("Deferred", "{cpu: \"1\", memory: 2Gi}", "{cpu: \"1\", memory: 2Gi}") +
                           "spec:\n  nodeName: n1\n" + std::string(kDbSpec);
  const Pod pod = Only<Pod>(ReadManifestText(text, "p.yaml"));
  EXPECT_EQ(pod.spec.requests.milli_cpu, 3000);
  ASSERT_TRUE(pod.status.resize.has_value());
  EXPECT_EQ(pod.status.resize->allocated.milli_cpu, 1000);
}

TEST(ReaderResizeStatusTest, SidecarStatusesCountButRegularInitContainersKeepTheirSpec) {
  // Setup: sidecar `proxy` (spec 500m, the kubelet holds 1 CPU); regular init container `init`
  // (spec 200m, its status says 4 CPU: ignored, it has finished); container `app` 1 CPU.
  // Expect: containers + sidecars = 1 + max(0.5, 1) = 2 CPU; init needs 200m + 1 CPU = 1.2 CPU.
  const std::string spec = R"(  initContainers:
  - {name: proxy, restartPolicy: Always, resources: {requests: {cpu: 500m}}}
  - {name: init, resources: {requests: {cpu: 200m}}}
  containers:
  - {name: app, resources: {requests: {cpu: "1"}}}
)";
  const std::string status = R"(  initContainerStatuses:
  - {name: proxy, allocatedResources: {cpu: "1"}, resources: {requests: {cpu: "1"}}}
  - {name: init, allocatedResources: {cpu: "4"}, resources: {requests: {cpu: "4"}}}
  containerStatuses:
  - {name: app, allocatedResources: {cpu: "1"}, resources: {requests: {cpu: "1"}}}
)";
  const Pod pod = ReadPod(spec, status);
  EXPECT_EQ(pod.spec.requests.milli_cpu, 2000);
  ASSERT_TRUE(pod.status.resize.has_value());
  EXPECT_EQ(pod.status.resize->desired.milli_cpu, 1500);
}

TEST(ReaderResizeStatusTest, BadStatusQuantityIsRefusedWithItsPath) {
  const ReadResult result = ReadManifestText(
      std::string("kind: Pod\nmetadata: {name: p}\nspec:\n  nodeName: n1\n") + std::string(kDbSpec) +
          "status:\n  containerStatuses:\n  - name: db\n    allocatedResources: {cpu: lots}\n",
      "p.yaml");
  ASSERT_EQ(result.errors.size(), 1U);
  EXPECT_EQ(result.errors[0].field, "status.containerStatuses[0].allocatedResources.cpu");
}

}  // namespace
}  // namespace kpsim::io
