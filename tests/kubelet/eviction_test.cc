#include "kpsim/eviction.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/io.h"

namespace kpsim {
namespace {

constexpr std::int64_t kMi = 1024 * 1024;

EvictionCandidate Candidate(std::string name, std::int32_t priority, std::int64_t request,
                            std::optional<std::int64_t> usage, bool critical = false) {
  EvictionCandidate c;
  c.pod = "default/" + name;
  c.priority = priority;
  c.request = request;
  c.usage = usage;
  c.critical = critical;
  return c;
}

std::vector<std::string> Order(const std::vector<RankedPod>& ranked) {
  std::vector<std::string> out;
  for (const RankedPod& r : ranked) out.push_back(r.candidate.pod.substr(8));
  return out;
}

TEST(RankForEvictionTest, MemoryNoStatsFirstThenAboveRequestThenLowerPriorityThenLargerExcess) {
  std::vector<EvictionCandidate> pods = {
      Candidate("guaranteed-low", 0, 512 * kMi, 400 * kMi),      // within its request
      Candidate("burst-high", 1000, 100 * kMi, 300 * kMi),        // 200Mi above
      Candidate("burst-low-small", 0, 100 * kMi, 150 * kMi),      // 50Mi above
      Candidate("burst-low-big", 0, 100 * kMi, 400 * kMi),        // 300Mi above
      Candidate("unmeasured", 5000, 0, std::nullopt),              // no stats
      Candidate("within-high", 1000, 512 * kMi, 100 * kMi),
  };
  const std::vector<RankedPod> ranked = RankForEviction(EvictionSignal::kMemoryAvailable, pods);
  EXPECT_EQ(Order(ranked), (std::vector<std::string>{"unmeasured", "burst-low-big", "burst-low-small",
                                                     "burst-high", "guaranteed-low", "within-high"}));
  EXPECT_TRUE(ranked[1].exceeds_request);
  EXPECT_FALSE(ranked[4].exceeds_request);
  EXPECT_EQ(ranked[0].eviction_order, 1);
  EXPECT_EQ(ranked[5].eviction_order, 6);
}

TEST(RankForEvictionTest, UsageEqualToRequestDoesNotExceedIt) {
  const auto ranked = RankForEviction(EvictionSignal::kMemoryAvailable,
                                      {Candidate("at", 0, 100 * kMi, 100 * kMi),
                                       Candidate("above", 10, 100 * kMi, 100 * kMi + 1)});
  EXPECT_EQ(Order(ranked), (std::vector<std::string>{"above", "at"}));
  EXPECT_FALSE(ranked[1].exceeds_request);
}

TEST(RankForEvictionTest, PidRanksByPriorityThenProcessCount) {
  const auto ranked = RankForEviction(EvictionSignal::kPidAvailable,
                                      {Candidate("high", 100, 0, 5000), Candidate("low-few", 0, 0, 10),
                                       Candidate("low-many", 0, 0, 900)});
  EXPECT_EQ(Order(ranked), (std::vector<std::string>{"low-many", "low-few", "high"}));
}

TEST(RankForEvictionTest, CriticalPodsKeepTheirPlaceButAreNeverEvicted) {
  const auto ranked = RankForEviction(
      EvictionSignal::kMemoryAvailable,
      {Candidate("system", 2'000'000'000, 0, 900 * kMi, /*critical=*/true), Candidate("app", 0, 0, 100 * kMi)});
  ASSERT_EQ(Order(ranked), (std::vector<std::string>{"app", "system"}));
  EXPECT_EQ(ranked[0].eviction_order, 1);
  EXPECT_FALSE(ranked[1].eviction_order.has_value());
  EXPECT_NE(ranked[1].reason.find("cannot evict a critical pod"), std::string::npos);
}

TEST(RankForEvictionTest, EqualPodsKeepInputOrder) {
  const auto ranked = RankForEviction(EvictionSignal::kMemoryAvailable,
                                      {Candidate("b", 0, 0, 10 * kMi), Candidate("a", 0, 0, 10 * kMi)});
  EXPECT_EQ(Order(ranked), (std::vector<std::string>{"b", "a"}));
}

TEST(EvictionSignalTest, NamesResourcesAndDefaults) {
  ASSERT_EQ(ParseEvictionSignal("memory.available"), EvictionSignal::kMemoryAvailable);
  EXPECT_EQ(ParseEvictionSignal("memory"), std::nullopt);
  EXPECT_EQ(EvictionResource(EvictionSignal::kNodeFsAvailable), "ephemeral-storage");
  EXPECT_EQ(PressureTaintKey(EvictionSignal::kPidAvailable), "node.kubernetes.io/pid-pressure");
  EXPECT_EQ(DefaultEvictionThreshold(EvictionSignal::kMemoryAvailable, std::nullopt), 100 * kMi);
  EXPECT_EQ(DefaultEvictionThreshold(EvictionSignal::kNodeFsAvailable, 1000), 100);
  EXPECT_EQ(DefaultEvictionThreshold(EvictionSignal::kNodeFsAvailable, std::nullopt), std::nullopt);
}

// From manifests: the static/mirror annotations, per-container requests, PodMetrics usage and the
// kubelet's message.
TEST(MakeEvictionCandidateTest, ReadsRequestsMetricsAndCriticality) {
  const io::ReadResult read = io::ReadManifestText(R"(
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  nodeName: n1
  containers:
  - name: app
    resources: {requests: {memory: 256Mi}}
  - name: sidecar
    resources: {requests: {memory: 64Mi}}
---
apiVersion: v1
kind: Pod
metadata:
  name: etcd-n1
  namespace: kube-system
  annotations: {kubernetes.io/config.source: file, kubernetes.io/config.hash: abc}
spec:
  nodeName: n1
  containers: [{name: etcd}]
---
apiVersion: metrics.k8s.io/v1beta1
kind: PodMetricsList
items:
- metadata: {name: web, namespace: shop}
  timestamp: "2026-12-04T10:00:00Z"
  window: 15s
  containers:
  - {name: app, usage: {cpu: 120m, memory: 700Mi}}
  - {name: sidecar, usage: {cpu: 1m, memory: 10Mi}}
)",
                                                   "pods.yaml");
  ASSERT_TRUE(read.errors.empty()) << read.errors.front().message;
  ASSERT_EQ(read.objects.size(), 2u);
  ASSERT_EQ(read.pod_metrics.size(), 1u);
  const Pod& web = std::get<Pod>(read.objects[0].value);
  const Pod& etcd = std::get<Pod>(read.objects[1].value);
  EXPECT_FALSE(IsCriticalPod(web, 0));
  EXPECT_TRUE(IsCriticalPod(etcd, 0));
  EXPECT_TRUE(IsCriticalPod(web, 2'000'000'000));

  const EvictionCandidate c =
      MakeEvictionCandidate(web, 0, EvictionSignal::kMemoryAvailable, &read.pod_metrics[0], std::nullopt);
  EXPECT_EQ(c.request, 320 * kMi);
  EXPECT_EQ(c.usage, 710 * kMi);
  const auto ranked = RankForEviction(EvictionSignal::kMemoryAvailable, {c});
  EXPECT_EQ(ranked[0].message,
            "The node was low on resource: memory. Container app was using 700Mi, which exceeds its request "
            "of 256Mi. ");
  const EvictionCandidate none =
      MakeEvictionCandidate(etcd, 0, EvictionSignal::kMemoryAvailable, nullptr, std::nullopt);
  EXPECT_FALSE(none.usage.has_value());
}

}  // namespace
}  // namespace kpsim
