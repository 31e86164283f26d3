// Decoding of every modeled kind from YAML (and JSON where the format matters).

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "io/reader_test_util.h"
#include "kpsim/io.h"
#include "kpsim/report.h"

namespace kpsim::io {
namespace {

using testing_util::Only;

TEST(ReaderNodeTest, DecodesMetadataTaintsAndAllocatableFallingBackToCapacity) {
  // Setup: allocatable gives cpu only; capacity gives cpu, memory, pods and a GPU.
  // Expect: cpu from allocatable, the rest from capacity.
  const ReadResult r = ReadManifestText(R"(
apiVersion: v1
kind: Node
metadata:
  name: n1
  uid: abc
  labels: {zone: a, kubernetes.io/hostname: n1}
spec:
  unschedulable: true
  taints:
  - {key: gpu, value: "yes", effect: NoSchedule}
  - {key: old, effect: NoExecute, timeAdded: "2024-01-01T00:00:00Z"}
status:
  capacity: {cpu: "4", memory: 32Gi, pods: "110", nvidia.com/gpu: "2"}
  allocatable: {cpu: 3800m}
)",
                                        "node.yaml");
  const Node n = Only<Node>(r);
  EXPECT_EQ(r.objects[0].kind, ObjectKind::kNode);
  EXPECT_EQ(n.meta.name, "n1");
  EXPECT_EQ(n.meta.uid, "abc");
  ASSERT_EQ(n.meta.labels.size(), 2u);
  EXPECT_EQ(n.meta.labels[0].first, "kubernetes.io/hostname");  // sorted
  EXPECT_TRUE(n.unschedulable);
  ASSERT_EQ(n.taints.size(), 2u);
  EXPECT_EQ(n.taints[0], (Taint{"gpu", "yes", TaintEffect::kNoSchedule}));
  EXPECT_EQ(n.taints[1], (Taint{"old", "", TaintEffect::kNoExecute}));
  EXPECT_EQ(n.allocatable.milli_cpu, 3800);
  EXPECT_EQ(n.allocatable.memory, 32LL << 30);
  EXPECT_EQ(n.allocatable.pods, 110);
  EXPECT_EQ(n.allocatable.Scalar("nvidia.com/gpu"), 2);
  EXPECT_EQ(r.objects[0].source.file, "node.yaml");
  EXPECT_EQ(r.objects[0].source.document, 1);
  EXPECT_EQ(r.objects[0].source.line, 2);
}

TEST(ReaderPodTest, DecodesEveryModeledField) {
  const ReadResult r = ReadManifestText(R"(
apiVersion: v1
kind: Pod
metadata:
  name: web
  generateName: web-
  namespace: prod
  uid: u1
  labels: {app: web}
  ownerReferences:
  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-rs, uid: rs1, controller: true}
  creationTimestamp: "2024-05-01T12:00:00Z"
  deletionTimestamp: "2024-05-01T12:00:30Z"
spec:
  nodeName: n1
  schedulerName: my-scheduler
  priority: 100
  priorityClassName: high
  preemptionPolicy: Never
  nodeSelector: {disk: ssd}
  terminationGracePeriodSeconds: 5
  schedulingGroup: {podGroupName: g1}
  tolerations:
  - {key: gpu, operator: Exists, effect: NoSchedule}
  - {key: k, value: v, tolerationSeconds: 60}
  - {operator: Exists}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: gen, operator: Gt, values: ["3"]}
          matchFields:
          - {key: metadata.name, operator: In, values: [n1]}
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: db}}
        namespaces: [data]
        topologyKey: zone
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchExpressions: [{key: app, operator: In, values: [web]}]
        namespaceSelector: {}
        topologyKey: kubernetes.io/hostname
  containers:
  - name: c
    resources: {requests: {cpu: 500m, memory: 1Gi}}
status:
  phase: Running
  startTime: "2024-05-01T12:00:01Z"
  nominatedNodeName: n2
  conditions:
  - {type: PodScheduled, status: "False", reason: Unschedulable, message: "0/3 nodes"}
)",
                                        "pod.yaml");
  const Pod p = Only<Pod>(r);
  EXPECT_EQ(p.meta.name, "web");
  EXPECT_EQ(p.meta.generate_name, "web-");
  EXPECT_EQ(p.meta.namespace_, "prod");
  ASSERT_EQ(p.meta.owner_references.size(), 1u);
  EXPECT_EQ(p.meta.owner_references[0],
            (OwnerReference{"apps/v1", "ReplicaSet", "web-rs", "rs1", true}));
  EXPECT_EQ(p.meta.creation_timestamp, WallTime::Parse("2024-05-01T12:00:00Z").value());
  EXPECT_EQ(p.meta.deletion_timestamp, WallTime::Parse("2024-05-01T12:00:30Z").value());
  EXPECT_EQ(p.spec.node_name, "n1");
  EXPECT_EQ(p.spec.scheduler_name, "my-scheduler");
  EXPECT_EQ(p.spec.priority, 100);
  EXPECT_EQ(p.spec.priority_class_name, "high");
  EXPECT_EQ(p.spec.preemption_policy, PreemptionPolicy::kNever);
  EXPECT_FALSE(p.spec.preemption_policy_raw.has_value());
  EXPECT_EQ(p.spec.node_selector, (Labels{{"disk", "ssd"}}));
  EXPECT_EQ(p.spec.termination_grace_period_seconds, 5);
  ASSERT_TRUE(p.spec.scheduling_group.has_value());
  EXPECT_EQ(p.spec.scheduling_group->pod_group_name, "g1");
  ASSERT_EQ(p.spec.tolerations.size(), 3u);
  EXPECT_EQ(p.spec.tolerations[0],
            (Toleration{"gpu", TolerationOperator::kExists, "", TaintEffect::kNoSchedule, {}}));
  EXPECT_EQ(p.spec.tolerations[1], (Toleration{"k", TolerationOperator::kEqual, "v", {}, 60}));
  EXPECT_EQ(p.spec.tolerations[2], (Toleration{"", TolerationOperator::kExists, "", {}, {}}));
  ASSERT_TRUE(p.spec.affinity.node_affinity_required.has_value());
  const NodeSelector& ns = *p.spec.affinity.node_affinity_required;
  ASSERT_EQ(ns.terms.size(), 1u);
  EXPECT_EQ(ns.terms[0].match_expressions[0],
            (NodeSelectorRequirement{"gen", NodeSelectorOperator::kGt, {"3"}}));
  EXPECT_EQ(ns.terms[0].match_fields[0],
            (NodeSelectorRequirement{"metadata.name", NodeSelectorOperator::kIn, {"n1"}}));
  ASSERT_EQ(p.spec.affinity.pod_affinity_required.size(), 1u);
  const PodAffinityTerm& a = p.spec.affinity.pod_affinity_required[0];
  EXPECT_EQ(a.label_selector->match_labels, (Labels{{"app", "db"}}));
  EXPECT_EQ(a.namespaces, (std::vector<std::string>{"data"}));
  EXPECT_FALSE(a.namespace_selector.has_value());
  EXPECT_EQ(a.topology_key, "zone");
  ASSERT_EQ(p.spec.affinity.pod_anti_affinity_required.size(), 1u);
  const PodAffinityTerm& anti = p.spec.affinity.pod_anti_affinity_required[0];
  EXPECT_EQ(anti.label_selector->match_expressions[0],
            (LabelSelectorRequirement{"app", SelectorOperator::kIn, {"web"}}));
  ASSERT_TRUE(anti.namespace_selector.has_value());
  EXPECT_TRUE(anti.namespace_selector->IsEmpty());
  EXPECT_EQ(p.spec.requests.milli_cpu, 500);
  EXPECT_EQ(p.spec.requests.memory, 1LL << 30);
  EXPECT_EQ(p.status.phase, "Running");
  EXPECT_EQ(p.status.start_time, WallTime::Parse("2024-05-01T12:00:01Z").value());
  EXPECT_EQ(p.status.nominated_node_name, "n2");
  ASSERT_EQ(p.status.conditions.size(), 1u);
  EXPECT_EQ(p.status.conditions[0],
            (PodCondition{"PodScheduled", "False", "Unschedulable", "0/3 nodes"}));
}

TEST(ReaderPodTest, KeepsAnUnsupportedPreemptionPolicySpellingForAdmission) {
  const Pod p = Only<Pod>(ReadManifestText(
      "kind: Pod\nmetadata: {name: p}\nspec: {preemptionPolicy: never}\n", "p.yaml"));
  EXPECT_FALSE(p.spec.preemption_policy.has_value());
  EXPECT_EQ(p.spec.preemption_policy_raw, "never");
}

TEST(ReaderPodTest, AbsentFieldsStayUnset) {
  const Pod p = Only<Pod>(ReadManifestText("kind: Pod\nmetadata: {name: p}\n", "p.yaml"));
  EXPECT_FALSE(p.spec.priority.has_value());
  EXPECT_FALSE(p.spec.preemption_policy.has_value());
  EXPECT_FALSE(p.spec.termination_grace_period_seconds.has_value());
  EXPECT_FALSE(p.spec.affinity.node_affinity_required.has_value());
  EXPECT_FALSE(p.meta.creation_timestamp.has_value());
  EXPECT_TRUE(p.spec.requests.IsZero());
}

TEST(ReaderPriorityClassTest, DecodesValueDefaultDescriptionAndPolicy) {
  const ReadResult r = ReadManifestText(R"(
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
globalDefault: true
description: "for important things"
preemptionPolicy: PreemptLowerPriority
)",
                                        "pc.yaml");
  const PriorityClass pc = Only<PriorityClass>(r);
  EXPECT_EQ(r.objects[0].kind, ObjectKind::kPriorityClass);
  EXPECT_EQ(pc.meta.name, "high");
  EXPECT_EQ(pc.value, 1000);
  EXPECT_TRUE(pc.global_default);
  EXPECT_EQ(pc.description, "for important things");
  EXPECT_EQ(pc.preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
}

TEST(ReaderPriorityClassTest, KeepsUnsupportedPolicySpelling) {
  const PriorityClass pc = Only<PriorityClass>(ReadManifestText(
      "kind: PriorityClass\nmetadata: {name: x}\nvalue: 1\npreemptionPolicy: Sometimes\n", "f"));
  EXPECT_FALSE(pc.preemption_policy.has_value());
  EXPECT_EQ(pc.preemption_policy_raw, "Sometimes");
}

TEST(ReaderPdbTest, DecodesIntAndPercentBudgetsSelectorAndStatus) {
  const ReadResult r = ReadManifestText(R"(
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: db, namespace: data}
spec:
  minAvailable: 2
  maxUnavailable: "30%"
  selector:
    matchLabels: {app: db}
    matchExpressions: [{key: tier, operator: NotIn, values: [test]}]
status:
  disruptionsAllowed: 1
  disruptedPods: {db-2: "2024-05-01T12:00:00Z", db-1: "2024-05-01T12:00:00Z"}
)",
                                        "pdb.yaml");
  const PodDisruptionBudget pdb = Only<PodDisruptionBudget>(r);
  EXPECT_EQ(pdb.meta.namespace_, "data");
  EXPECT_EQ(pdb.min_available, (IntOrString{false, 2}));
  EXPECT_EQ(pdb.max_unavailable, (IntOrString{true, 30}));
  ASSERT_TRUE(pdb.selector.has_value());
  EXPECT_EQ(pdb.selector->match_labels, (Labels{{"app", "db"}}));
  EXPECT_EQ(pdb.selector->match_expressions[0].op, SelectorOperator::kNotIn);
  EXPECT_EQ(pdb.disruptions_allowed, 1);
  EXPECT_EQ(pdb.disrupted_pods, (std::vector<std::string>{"db-1", "db-2"}));
}

TEST(ReaderPdbTest, AbsentSelectorStaysUnset) {
  const PodDisruptionBudget pdb = Only<PodDisruptionBudget>(ReadManifestText(
      "kind: PodDisruptionBudget\nmetadata: {name: x}\nspec: {minAvailable: 50%}\n", "f"));
  EXPECT_FALSE(pdb.selector.has_value());
  EXPECT_EQ(pdb.min_available, (IntOrString{true, 50}));
  EXPECT_FALSE(pdb.max_unavailable.has_value());
  EXPECT_FALSE(pdb.disruptions_allowed.has_value());
}

TEST(ReaderNamespaceTest, DecodesMetadata) {
  const ReadResult r = ReadManifestText(
      "apiVersion: v1\nkind: Namespace\nmetadata: {name: prod, labels: {team: a}}\n", "ns.yaml");
  const Namespace ns = Only<Namespace>(r);
  EXPECT_EQ(r.objects[0].kind, ObjectKind::kNamespace);
  EXPECT_EQ(ns.meta.name, "prod");
  EXPECT_EQ(ns.meta.labels, (Labels{{"team", "a"}}));
}

TEST(ReaderPodGroupTest, DecodesGangGroupWithEveryField) {
  const ReadResult r = ReadManifestText(R"(
apiVersion: scheduling.k8s.io/v1alpha3
kind: PodGroup
metadata: {name: train, namespace: ml}
spec:
  schedulingPolicy: {gang: {minCount: 4}}
  disruptionMode: {all: {}}
  priorityClassName: high
  priority: 1000000
  preemptionPolicy: Never
  parentCompositePodGroupName: job
  schedulingConstraints:
    topology: [{key: topology.kubernetes.io/zone}]
)",
                                        "pg.yaml");
  const PodGroup g = Only<PodGroup>(r);
  EXPECT_EQ(r.objects[0].kind, ObjectKind::kPodGroup);
  EXPECT_FALSE(g.composite);
  EXPECT_TRUE(g.scheduling_policy.gang);
  EXPECT_EQ(g.scheduling_policy.min_count, 4);
  EXPECT_EQ(g.disruption_mode, DisruptionMode::kAll);
  EXPECT_EQ(g.priority_class_name, "high");
  EXPECT_EQ(g.priority, 1000000);
  EXPECT_EQ(g.preemption_policy, PreemptionPolicy::kNever);
  EXPECT_EQ(g.parent_composite_pod_group_name, "job");
  EXPECT_EQ(g.topology_keys, (std::vector<std::string>{"topology.kubernetes.io/zone"}));
}

TEST(ReaderPodGroupTest, DecodesBasicGroupAndCompositeGroupInEveryApiVersion) {
  for (const char* version : {"v1alpha2", "v1alpha3", "v1beta1"}) {
    const std::string text = std::string("apiVersion: scheduling.k8s.io/") + version +
                             "\nkind: PodGroup\nmetadata: {name: a}\n"
                             "spec: {schedulingPolicy: {basic: {}}, disruptionMode: {single: {}}}\n"
                             "---\napiVersion: scheduling.k8s.io/" +
                             version + "\nkind: CompositePodGroup\nmetadata: {name: c}\n";
    const ReadResult r = ReadManifestText(text, "pg.yaml");
    ASSERT_EQ(r.objects.size(), 2u) << version;
    const auto& basic = std::get<PodGroup>(r.objects[0].value);
    EXPECT_FALSE(basic.scheduling_policy.gang);
    EXPECT_EQ(basic.disruption_mode, DisruptionMode::kSingle);
    EXPECT_EQ(r.objects[1].kind, ObjectKind::kCompositePodGroup);
    EXPECT_TRUE(std::get<PodGroup>(r.objects[1].value).composite);
    EXPECT_FALSE(std::get<PodGroup>(r.objects[1].value).disruption_mode.has_value());
  }
}

TEST(ReaderPodGroupTest, PodGroupOfAnotherApiGroupIsIgnored) {
  // The coscheduling plugin's PodGroup (scheduling.x-k8s.io) is a different kind of object.
  const ReadResult r = ReadManifestText(
      "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\nmetadata: {name: a}\n", "f");
  EXPECT_TRUE(r.objects.empty());
  ASSERT_EQ(r.ignored.size(), 1u);
  EXPECT_EQ(r.ignored[0].kind, "PodGroup");
}

TEST(ReaderIgnoredTest, OtherKindsAreListedNotErrors) {
  const ReadResult r = ReadManifestText(R"(
apiVersion: v1
kind: ConfigMap
metadata: {name: web, namespace: prod}
data: {replicas: "3"}
---
apiVersion: v1
kind: Endpoints
metadata: {name: svc}
)",
                                        "app.yaml");
  EXPECT_TRUE(r.objects.empty());
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.ignored.size(), 2u);
  EXPECT_EQ(r.ignored[0].kind, "ConfigMap");
  EXPECT_EQ(r.ignored[0].api_version, "v1");
  EXPECT_EQ(r.ignored[0].name, "prod/web");
  EXPECT_EQ(r.ignored[0].source.document, 1);
  EXPECT_EQ(r.ignored[1].name, "svc");
  EXPECT_EQ(r.ignored[1].source.document, 2);
}

// Services are read for what kube-scheduler reads of them (PodTopologySpread's default
// selector): spec.selector, with null kept apart from {} (nothing versus everything).
TEST(ReaderServiceTest, SelectorIsReadAndNullIsUnset) {
  const ReadResult r = ReadManifestText(R"(
apiVersion: v1
kind: Service
metadata: {name: web, namespace: prod}
spec:
  selector: {app: web, tier: front}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: external}
spec: {type: ExternalName, externalName: example.com, selector: null}
---
apiVersion: v1
kind: Service
metadata: {name: all}
spec: {selector: {}}
)",
                                        "svc.yaml");
  ASSERT_TRUE(r.errors.empty());
  ASSERT_EQ(r.objects.size(), 3u);
  EXPECT_EQ(r.objects[0].kind, ObjectKind::kService);
  const Service& web = std::get<Service>(r.objects[0].value);
  EXPECT_EQ(web.meta.namespace_, "prod");
  EXPECT_EQ(web.selector, (Labels{{"app", "web"}, {"tier", "front"}}));
  EXPECT_FALSE(std::get<Service>(r.objects[1].value).selector.has_value());
  ASSERT_TRUE(std::get<Service>(r.objects[2].value).selector.has_value());
  EXPECT_TRUE(std::get<Service>(r.objects[2].value).selector->empty());
  EXPECT_TRUE(r.ignored.empty());
}

TEST(ReaderTest, UnknownFieldsAreTolerated) {
  const Pod p = Only<Pod>(ReadManifestText(R"(
kind: Pod
metadata: {name: p, annotations: {a: b}, managedFields: [{manager: kubectl}]}
spec:
  dnsPolicy: ClusterFirst
  containers: [{name: c, image: nginx, ports: [{containerPort: 80}]}]
status: {podIP: 10.0.0.1, qosClass: BestEffort}
)",
                                           "p.yaml"));
  EXPECT_EQ(p.meta.name, "p");
}

TEST(ReaderTest, JsonObjectDecodesLikeYaml) {
  const ReadResult r = ReadManifestText(R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "p", "namespace": "ns", "labels": {"app": "x"}},
  "spec": {"priority": 7, "containers": [{"resources": {"requests": {"cpu": 0.5, "memory": 1024}}}],
           "tolerations": [{"key": "k", "operator": "Exists", "tolerationSeconds": 3}]}
})",
                                        "pod.json");
  const Pod p = Only<Pod>(r);
  EXPECT_EQ(p.meta.namespace_, "ns");
  EXPECT_EQ(p.spec.priority, 7);
  EXPECT_EQ(p.spec.requests.milli_cpu, 500);
  EXPECT_EQ(p.spec.requests.memory, 1024);
  EXPECT_EQ(p.spec.tolerations[0].toleration_seconds, 3);
  EXPECT_EQ(r.objects[0].source.line, 0);
  EXPECT_EQ(r.objects[0].source.document, 0);
}

}  // namespace
}  // namespace kpsim::io

namespace kpsim::io {
namespace {

// --- removed API versions ------------------------------------------------------------------

std::vector<std::string> WarningLines(const ReadResult& r) {
  std::vector<std::string> out;
  for (const Warning& w : r.warnings) out.push_back(report::WarningText(w));
  return out;
}

TEST(ReaderRemovedApiVersionTest, PolicyV1beta1PdbIsReadAsPolicyV1AndWarned) {
  // Setup: a v1 PDB and a policy/v1beta1 one (removed in v1.25) in the second document.
  // Expect: both read with the same fields; one RemovedAPIVersion warning naming the file, line,
  // document, object, the old version and its replacement.
  const ReadResult r = ReadManifestText(R"(apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: new, namespace: prod}
spec: {minAvailable: 1, selector: {matchLabels: {app: api}}}
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: old, namespace: prod}
spec: {minAvailable: 1, selector: {matchLabels: {app: api}}}
status: {disruptionsAllowed: 2}
)",
                                        "pdbs.yaml");
  ASSERT_EQ(r.objects.size(), 2u);
  const auto& v1 = std::get<PodDisruptionBudget>(r.objects[0].value);
  const auto& beta = std::get<PodDisruptionBudget>(r.objects[1].value);
  EXPECT_EQ(beta.selector, v1.selector);
  EXPECT_EQ(beta.min_available, v1.min_available);
  EXPECT_EQ(beta.disruptions_allowed, std::optional<std::int32_t>(2));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].code, "RemovedAPIVersion");
  EXPECT_EQ(WarningLines(r)[0],
            "pdbs.yaml:6 (document 2): PodDisruptionBudget prod/old: apiVersion policy/v1beta1 "
            "was removed in Kubernetes v1.25 (use policy/v1); read as policy/v1, whose fields it "
            "shares [RemovedAPIVersion]");
}

TEST(ReaderRemovedApiVersionTest, EmptySelectorDifferenceIsNamedInTheWarning) {
  // policy/v1beta1 `selector: {}` matched nothing, policy/v1 matches the namespace; the
  // scheduler ignores an empty selector in both, and the warning says so.
  const ReadResult r = ReadManifestText(
      "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: all}\n"
      "spec: {maxUnavailable: 0, selector: {}}\n",
      "pdb.yaml");
  ASSERT_EQ(r.objects.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].message.find("empty selector matched no pods in policy/v1beta1 and "
                                       "matches every pod of the namespace in policy/v1"),
            std::string::npos)
      << r.warnings[0].message;
  EXPECT_EQ(r.warnings[0].object, "PodDisruptionBudget default/all");
}

TEST(ReaderRemovedApiVersionTest, RemovedPriorityClassVersionsAreWarnedCurrentOnesAreNot) {
  const ReadResult r = ReadManifestText(R"({"kind": "List", "apiVersion": "v1", "items": [
  {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "a"}, "value": 1},
  {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PriorityClass", "metadata": {"name": "b"}, "value": 2},
  {"apiVersion": "scheduling.k8s.io/v1alpha1", "kind": "PriorityClass", "metadata": {"name": "c"}, "value": 3}]})",
                                        "classes.json");
  ASSERT_EQ(r.objects.size(), 3u);
  EXPECT_EQ(std::get<PriorityClass>(r.objects[2].value).value, 3);
  const std::vector<std::string> lines = WarningLines(r);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "classes.json (item 2): PriorityClass b: apiVersion scheduling.k8s.io/v1beta1 was "
            "removed in Kubernetes v1.22 (use scheduling.k8s.io/v1); read as "
            "scheduling.k8s.io/v1, whose fields it shares [RemovedAPIVersion]");
  EXPECT_NE(lines[1].find("classes.json (item 3): PriorityClass c: apiVersion "
                          "scheduling.k8s.io/v1alpha1 was removed in Kubernetes v1.22"),
            std::string::npos)
      << lines[1];
}

}  // namespace
}  // namespace kpsim::io
