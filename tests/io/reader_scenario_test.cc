// The two kinds that are not cluster objects: kpsim.io/v1alpha1 Scenario (timed steps) and
// metrics.k8s.io/v1beta1 PodMetrics, as `kubectl get --raw` prints them.

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "kpsim/io.h"

namespace kpsim::io {
namespace {

constexpr std::int64_t kMi = 1024 * 1024;

TEST(ReaderScenarioTest, DecodesEveryActionWithItsTimeAndLine) {
  const ReadResult r = ReadManifestText(R"(apiVersion: kpsim.io/v1alpha1
kind: Scenario
metadata: {name: day}
spec:
  steps:
  - at: 1m30s
    cordon: node-1
  - at: 0s
    uncordon: node-1
  - at: 2s
    taint: {node: node-2, key: k, value: v, effect: NoExecute}
  - at: 3s
    untaint: {node: node-2, key: k}
  - at: 4s
    delete: {kind: Pod, namespace: shop, name: web, gracePeriodSeconds: 0}
  - at: 5s
    pressure:
      node: node-1
      signal: nodefs.available
      available: 1Gi
      usage: {shop/web: 3Gi, bare: 1Mi}
  - at: 6.5s
    apply:
      apiVersion: policy/v1
      kind: PodDisruptionBudget
      metadata: {name: guard}
      spec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}
  - at: 7s
    apply:
      apiVersion: batch/v1
      kind: Job
      metadata: {name: train, namespace: ml}
      spec:
        parallelism: 3
        template:
          spec:
            containers: [{name: main, resources: {requests: {cpu: "1"}}}]
            restartPolicy: Never
)",
                                        "scenario.yaml");
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().message;
  ASSERT_EQ(r.scenarios.size(), 1u);
  const Scenario& s = r.scenarios[0];
  EXPECT_EQ(s.meta.name, "day");
  ASSERT_EQ(s.steps.size(), 8u);
  EXPECT_EQ(s.steps[0].action, StepAction::kCordon);
  EXPECT_EQ(s.steps[0].at_us, 90'000'000);
  EXPECT_EQ(s.steps[0].name, "node-1");
  EXPECT_EQ(s.steps[0].source.line, 6);
  EXPECT_EQ(s.steps[0].source.file, "scenario.yaml");
  EXPECT_EQ(s.steps[1].action, StepAction::kUncordon);
  EXPECT_EQ(s.steps[2].taint, (Taint{"k", "v", TaintEffect::kNoExecute}));
  EXPECT_FALSE(s.steps[2].any_effect);
  EXPECT_TRUE(s.steps[3].any_effect);
  EXPECT_EQ(s.steps[4].kind, "Pod");
  EXPECT_EQ(s.steps[4].namespace_, "shop");
  EXPECT_EQ(s.steps[4].grace_period_seconds, 0);
  EXPECT_EQ(s.steps[5].signal, "nodefs.available");
  EXPECT_EQ(s.steps[5].available->Value(), 1024 * kMi);
  ASSERT_EQ(s.steps[5].usage.size(), 2u);
  EXPECT_EQ(s.steps[5].usage[1].pod, "default/bare");
  EXPECT_EQ(s.steps[6].at_us, 6'500'000);
  ASSERT_TRUE(s.steps[6].object.has_value());
  EXPECT_EQ(s.steps[6].object->kind, ObjectKind::kPodDisruptionBudget);
  EXPECT_EQ(std::get<PodDisruptionBudget>(s.steps[6].object->value).meta.name, "guard");
  ASSERT_TRUE(s.steps[7].workload.has_value());  // a workload: expanded at admission
  EXPECT_FALSE(s.steps[7].object.has_value());
  EXPECT_EQ(s.steps[7].workload->kind, WorkloadKind::kJob);
  EXPECT_EQ(s.steps[7].workload->DisplayName(), "ml/train");
  EXPECT_EQ(s.steps[7].workload->parallelism, 3);
  EXPECT_EQ(s.steps[7].workload->source.line, 30);
  EXPECT_TRUE(r.objects.empty());  // applied objects are the step's, not the cluster's
  EXPECT_TRUE(r.workloads.empty());
}

// Each bad step refuses its Scenario with the field named (nothing of it runs), and the rest of the
// input is still read.
struct BadStep {
  const char* name;
  const char* step;
  const char* field;
  const char* message;
};

class ReaderBadStepTest : public testing::TestWithParam<BadStep> {};

TEST_P(ReaderBadStepTest, IsRefusedWithTheFieldNamed) {
  const BadStep& c = GetParam();
  const std::string text = std::string(R"(apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: kpsim.io/v1alpha1
kind: Scenario
metadata: {name: bad}
spec:
  steps:
)") + c.step;
  const ReadResult r = ReadManifestText(text, "bad.yaml");
  EXPECT_TRUE(r.scenarios.empty());
  ASSERT_EQ(r.objects.size(), 1u);  // the Node is still read
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].kind, "Scenario");
  EXPECT_EQ(r.errors[0].field, c.field);
  EXPECT_NE(r.errors[0].message.find(c.message), std::string::npos) << r.errors[0].message;
}

INSTANTIATE_TEST_SUITE_P(
    Steps, ReaderBadStepTest,
    testing::Values(
        BadStep{"no_at", "  - cordon: n1\n", "spec.steps[0].at", "Required value"},
        BadStep{"bad_duration", "  - {at: 5 minutes, cordon: n1}\n", "spec.steps[0].at", "5 minutes"},
        BadStep{"negative_time", "  - {at: -5s, cordon: n1}\n", "spec.steps[0].at", "must be 0 or later"},
        BadStep{"no_action", "  - {at: 5s}\n", "spec.steps[0]", "one action"},
        BadStep{"two_actions", "  - {at: 5s, cordon: n1, uncordon: n1}\n", "spec.steps[0].uncordon",
                "exactly one action"},
        BadStep{"unknown_field", "  - {at: 5s, drain: n1}\n", "spec.steps[0].drain", "unknown step field"},
        BadStep{"bad_signal", "  - {at: 5s, pressure: {node: n1, signal: memory}}\n",
                "spec.steps[0].pressure.signal", "Unsupported value: \"memory\""},
        BadStep{"taint_without_effect", "  - {at: 5s, taint: {node: n1, key: k}}\n",
                "spec.steps[0].taint.effect", "Required value"},
        BadStep{"delete_without_kind", "  - {at: 5s, delete: {name: web}}\n", "spec.steps[0].delete.kind",
                "Required value"},
        BadStep{"apply_old_workload_version",
                "  - {at: 5s, apply: {apiVersion: extensions/v1beta1, kind: Deployment}}\n",
                "spec.steps[0].apply.kind", "extensions/v1beta1 Deployment is not one of them"},
        BadStep{"apply_bad_workload",
                "  - {at: 5s, apply: {apiVersion: apps/v1, kind: Deployment, metadata: {name: w}, spec: {replicas: x}}}\n",
                "spec.steps[0].apply.spec.replicas", "expected an integer"},
        BadStep{"apply_bad_pod", "  - {at: 5s, apply: {apiVersion: v1, kind: Pod, spec: {priority: high}}}\n",
                "spec.steps[0].apply.spec.priority", "expected an integer"}),
    [](const testing::TestParamInfo<BadStep>& param_info) { return std::string(param_info.param.name); });

TEST(ReaderScenarioTest, ScenarioWithoutStepsIsRefused) {
  const ReadResult r = ReadManifestText("apiVersion: kpsim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\n", "s.yaml");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].field, "spec.steps");
}

TEST(ReaderPodMetricsTest, ReadsTheMetricsApisListAndSingleObjects) {
  // `kubectl get --raw /apis/metrics.k8s.io/v1beta1/namespaces/shop/pods` as JSON: items lack kind.
  const ReadResult r = ReadManifestText(R"({
  "kind": "PodMetricsList",
  "apiVersion": "metrics.k8s.io/v1beta1",
  "metadata": {},
  "items": [
    {"metadata": {"name": "web", "namespace": "shop", "creationTimestamp": "2026-12-04T10:00:00Z"},
     "timestamp": "2026-12-04T10:00:00Z", "window": "15.01s",
     "containers": [{"name": "app", "usage": {"cpu": "120m", "memory": "700Mi"}},
                    {"name": "istio-proxy", "usage": {"cpu": "5m", "memory": "48Mi"}}]}
  ]
})",
                                        "metrics.json");
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().message;
  EXPECT_TRUE(r.ignored.empty());
  ASSERT_EQ(r.pod_metrics.size(), 1u);
  const PodMetrics& m = r.pod_metrics[0];
  EXPECT_EQ(m.meta.namespace_, "shop");
  ASSERT_EQ(m.containers.size(), 2u);
  EXPECT_EQ(m.containers[0].usage.memory, 700 * kMi);
  EXPECT_EQ(m.containers[1].name, "istio-proxy");

  const ReadResult bad = ReadManifestText(
      "apiVersion: metrics.k8s.io/v1beta1\nkind: PodMetrics\nmetadata: {name: x}\n"
      "containers: [{name: a, usage: {memory: lots}}]\n",
      "m.yaml");
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_EQ(bad.errors[0].field, "containers[0].usage.memory");
}

}  // namespace
}  // namespace kpsim::io
