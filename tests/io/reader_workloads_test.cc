// Reading Deployments, ReplicaSets, StatefulSets, Jobs and DaemonSets: fields, the template
// decoded as a pod, input position, and refusals with Kubernetes' field and message.

#include <gtest/gtest.h>

#include <string>

#include "kpsim/io.h"

namespace kpsim::io {
namespace {

const DecodeError& OnlyError(const ReadResult& r) {
  EXPECT_EQ(r.errors.size(), 1u);
  EXPECT_TRUE(r.workloads.empty());
  static const DecodeError kNone;
  return r.errors.empty() ? kNone : r.errors[0];
}

TEST(ReaderWorkloadsTest, DeploymentDecodesReplicasSelectorAndTemplate) {
  const ReadResult r = ReadManifestText(R"(apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod, uid: u1}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec:
      priorityClassName: gold
      nodeSelector: {pool: a}
      containers:
      - {name: c, image: x, resources: {requests: {cpu: 250m}}}
      - {name: d, image: z, resources: {requests: {cpu: 250m}}}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
)",
                                        "app.yaml");
  ASSERT_TRUE(r.errors.empty()) << r.errors[0].message;
  EXPECT_TRUE(r.ignored.empty());
  ASSERT_EQ(r.workloads.size(), 1u);
  const Workload& w = r.workloads[0];
  EXPECT_EQ(w.kind, WorkloadKind::kDeployment);
  EXPECT_EQ(w.DisplayName(), "prod/web");
  EXPECT_EQ(w.meta.uid, "u1");
  EXPECT_EQ(w.replicas, 3);
  ASSERT_TRUE(w.selector.has_value());
  EXPECT_EQ(w.selector->match_labels, (Labels{{"app", "web"}}));
  EXPECT_EQ(w.pod_template.meta.labels, (Labels{{"app", "web"}, {"tier", "front"}}));
  EXPECT_EQ(w.pod_template.spec.priority_class_name, "gold");
  EXPECT_EQ(w.pod_template.spec.requests.milli_cpu, 500);
  EXPECT_EQ(w.pod_template.spec.node_selector, (Labels{{"pool", "a"}}));
  EXPECT_EQ(w.source.file, "app.yaml");
  EXPECT_EQ(w.source.document, 2);
  EXPECT_EQ(w.position, 1u);  // after the node, before the pod
  EXPECT_EQ(r.objects.size(), 2u);
}

TEST(ReaderWorkloadsTest, EveryKindAtItsApiVersion) {
  const ReadResult r = ReadManifestText(R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  podManagementPolicy: Parallel
  ordinals: {start: 2}
  selector: {matchLabels: {app: db}}
  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c}]}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  parallelism: 4
  completions: 9
  completionMode: Indexed
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
status: {succeeded: 2}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds}
spec:
  selector: {matchLabels: {app: ds}}
  template: {metadata: {labels: {app: ds}}, spec: {hostNetwork: true, containers: [{name: c}]}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  selector: {matchExpressions: [{key: app, operator: In, values: [rs]}]}
  template: {metadata: {labels: {app: rs}}, spec: {containers: [{name: c}]}}
---
apiVersion: extensions/v1beta1
kind: Deployment
metadata: {name: old}
)",
                                        "all.yaml");
  ASSERT_TRUE(r.errors.empty()) << r.errors[0].message;
  ASSERT_EQ(r.workloads.size(), 4u);
  EXPECT_EQ(r.workloads[0].kind, WorkloadKind::kStatefulSet);
  EXPECT_EQ(r.workloads[0].service_name, "db");
  EXPECT_EQ(r.workloads[0].pod_management_policy, "Parallel");
  EXPECT_EQ(r.workloads[0].ordinals_start, 2);
  EXPECT_EQ(r.workloads[1].kind, WorkloadKind::kJob);
  EXPECT_EQ(r.workloads[1].parallelism, 4);
  EXPECT_EQ(r.workloads[1].completions, 9);
  EXPECT_TRUE(r.workloads[1].indexed);
  EXPECT_EQ(r.workloads[1].succeeded, 2);
  EXPECT_EQ(r.workloads[2].kind, WorkloadKind::kDaemonSet);
  EXPECT_TRUE(r.workloads[2].host_network);
  EXPECT_EQ(r.workloads[3].kind, WorkloadKind::kReplicaSet);
  EXPECT_FALSE(r.workloads[3].replicas.has_value());
  // A removed API version is not a workload kpsim expands: listed as ignored.
  ASSERT_EQ(r.ignored.size(), 1u);
  EXPECT_EQ(r.ignored[0].api_version, "extensions/v1beta1");
}

TEST(ReaderWorkloadsTest, SelectorNotMatchingTemplateLabelsIsRefused) {
  const ReadResult r = ReadManifestText(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: wbe}
    spec: {containers: [{name: c}]}
)",
                                        "d.yaml");
  const DecodeError& e = OnlyError(r);
  EXPECT_EQ(e.kind, "Deployment");
  EXPECT_EQ(e.name, "default/web");
  EXPECT_EQ(e.field, "spec.template.metadata.labels");
  EXPECT_EQ(e.message,
            "d.yaml:8 (document 1): Deployment default/web: spec.template.metadata.labels: Invalid value: "
            "{\"app\":\"wbe\"}: `selector` does not match template `labels`");
}

TEST(ReaderWorkloadsTest, NegativeCountsAreRefused) {
  const ReadResult r = ReadManifestText(R"(apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  replicas: -1
  selector: {matchLabels: {app: rs}}
  template: {metadata: {labels: {app: rs}}, spec: {containers: [{name: c}]}}
)",
                                        "rs.yaml");
  const DecodeError& e = OnlyError(r);
  EXPECT_EQ(e.field, "spec.replicas");
  EXPECT_NE(e.message.find("rs.yaml:5 (document 1): ReplicaSet default/rs: spec.replicas: Invalid value: -1: "
                           "must be greater than or equal to 0"),
            std::string::npos)
      << e.message;
  const ReadResult job = ReadManifestText(R"(apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  parallelism: -2
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
)",
                                          "j.yaml");
  EXPECT_EQ(OnlyError(job).field, "spec.parallelism");
  EXPECT_NE(OnlyError(job).message.find("Invalid value: -2: must be greater than or equal to 0"), std::string::npos);
}

TEST(ReaderWorkloadsTest, MissingTemplateSelectorOrEmptySelectorAreRefused) {
  const auto error = [](const std::string& spec) {
    const ReadResult r =
        ReadManifestText("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n" + spec, "s.yaml");
    EXPECT_EQ(r.errors.size(), 1u);
    return r.errors.empty() ? DecodeError{} : r.errors[0];
  };
  const DecodeError no_template = error("  selector: {matchLabels: {app: s}}\n");
  EXPECT_EQ(no_template.field, "spec.template.spec.containers");
  EXPECT_NE(no_template.message.find("spec.template.spec.containers: Required value"), std::string::npos);
  const DecodeError no_selector =
      error("  template: {metadata: {labels: {app: s}}, spec: {containers: [{name: c}]}}\n");
  EXPECT_EQ(no_selector.field, "spec.selector");
  EXPECT_NE(no_selector.message.find("spec.selector: Required value"), std::string::npos);
  const DecodeError empty = error(
      "  selector: {}\n  template: {metadata: {labels: {app: s}}, spec: {containers: [{name: c}]}}\n");
  EXPECT_NE(empty.message.find("Invalid value: {}: empty selector is invalid for statefulset"), std::string::npos)
      << empty.message;
}

TEST(ReaderWorkloadsTest, RestartPolicyIsCheckedPerKind) {
  const ReadResult job = ReadManifestText(R"(apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  template: {spec: {containers: [{name: c}]}}
)",
                                          "j.yaml");
  EXPECT_EQ(OnlyError(job).field, "spec.template.spec.restartPolicy");
  EXPECT_NE(OnlyError(job).message.find("Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\""),
            std::string::npos)
      << OnlyError(job).message;
  const ReadResult ds = ReadManifestText(R"(apiVersion: apps/v1
kind: DaemonSet
metadata: {name: d}
spec:
  selector: {matchLabels: {app: d}}
  template: {metadata: {labels: {app: d}}, spec: {restartPolicy: Never, containers: [{name: c}]}}
)",
                                         "d.yaml");
  EXPECT_NE(OnlyError(ds).message.find("Unsupported value: \"Never\": supported values: \"Always\""),
            std::string::npos);
}

TEST(ReaderWorkloadsTest, JobSelectorIsGeneratedUnlessManual) {
  // A dumped Job carries the generated controller-uid selector: accepted.
  const ReadResult dumped = ReadManifestText(R"(apiVersion: batch/v1
kind: Job
metadata: {name: j, uid: abc}
spec:
  selector: {matchLabels: {batch.kubernetes.io/controller-uid: abc}}
  template:
    metadata: {labels: {batch.kubernetes.io/controller-uid: abc}}
    spec: {restartPolicy: OnFailure, containers: [{name: c}]}
)",
                                             "j.json.yaml");
  EXPECT_TRUE(dumped.errors.empty());
  ASSERT_EQ(dumped.workloads.size(), 1u);
  // A hand-written selector without manualSelector is refused, as the API server does.
  const ReadResult hand = ReadManifestText(R"(apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  selector: {matchLabels: {app: j}}
  template: {metadata: {labels: {app: j}}, spec: {restartPolicy: Never, containers: [{name: c}]}}
)",
                                           "j.yaml");
  EXPECT_NE(OnlyError(hand).message.find("`selector` not auto-generated"), std::string::npos);
  // With manualSelector it must match the template.
  const ReadResult manual = ReadManifestText(R"(apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  manualSelector: true
  selector: {matchLabels: {app: j}}
  template: {metadata: {labels: {app: k}}, spec: {restartPolicy: Never, containers: [{name: c}]}}
)",
                                             "j.yaml");
  EXPECT_NE(OnlyError(manual).message.find("`selector` does not match template `labels`"), std::string::npos);
}

TEST(ReaderWorkloadsTest, TemplateFieldErrorsNameTheTemplatePath) {
  const ReadResult r = ReadManifestText(R"({"apiVersion": "apps/v1", "kind": "Deployment",
 "metadata": {"name": "web"},
 "spec": {"selector": {"matchLabels": {"app": "web"}},
  "template": {"metadata": {"labels": {"app": "web"}},
   "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "lots"}}}]}}}})",
                                        "web.json");
  const DecodeError& e = OnlyError(r);
  EXPECT_EQ(e.field, "spec.template.spec.containers[0].resources.requests.cpu");
}

}  // namespace
}  // namespace kpsim::io
