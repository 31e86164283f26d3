// ExpandWorkloads: each controller's pods (counts, names, owners, labels), DaemonSet node
// selection and tolerations, and dedupe with pods already in the input.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "admission/admission_test_util.h"
#include "kpsim/admission.h"

namespace kpsim {
namespace {

using testing::MakeNode;
using testing::MakePod;
using testing::MakePriorityClass;
using testing::ToObject;

// The alphabet of apimachinery's rand.String (no vowels, no 0, 1, 3), which names generated pods.
constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
constexpr int kSuffix = 5;      // a generated name's random suffix
constexpr int kOneOrMore = -1;  // a hash of any length

Workload MakeWorkload(WorkloadKind kind, std::string name, std::string app = "") {
  Workload w;
  w.kind = kind;
  w.meta.name = std::move(name);
  if (app.empty()) app = w.meta.name;
  w.selector = LabelSelector{{{"app", app}}, {}};
  w.pod_template.meta.labels = {{"app", app}};
  w.pod_template.spec.requests.Set(kResourceCpu, Quantity{500});
  w.source.file = "w.yaml";
  return w;
}

std::vector<Pod> Pods(const WorkloadExpansion& e) {
  std::vector<Pod> pods;
  for (const Object& o : e.objects) {
    if (o.kind == ObjectKind::kPod) pods.push_back(std::get<Pod>(o.value));
  }
  return pods;
}

// `text` is `prefix` then `count` characters of kAlphabet (kOneOrMore: at least one). No
// std::regex: GCC 12's <regex> warns -Wmaybe-uninitialized at -O1 (the ASan build).
bool Matches(std::string_view text, std::string_view prefix, int count) {
  if (text.substr(0, prefix.size()) != prefix) return false;
  const std::string_view rest = text.substr(prefix.size());
  if (count == kOneOrMore ? rest.empty() : rest.size() != static_cast<std::size_t>(count)) return false;
  return rest.find_first_not_of(kAlphabet) == std::string_view::npos;
}

const std::string* Label(const Pod& pod, std::string_view key) { return FindLabel(pod.meta.labels, key); }

// --- Deployment / ReplicaSet ----------------------------------------------------------------

TEST(ExpandWorkloadsTest, DeploymentCreatesReplicasOwnedByOneReplicaSet) {
  Workload d = MakeWorkload(WorkloadKind::kDeployment, "web");
  d.replicas = 3;
  d.pod_template.spec.priority_class_name = "gold";
  const WorkloadExpansion e = ExpandWorkloads({}, {d}, 1);
  const std::vector<Pod> pods = Pods(e);
  ASSERT_EQ(pods.size(), 3u);
  ASSERT_EQ(e.outcomes.size(), 1u);
  EXPECT_EQ(e.outcomes[0].desired, 3);
  EXPECT_EQ(e.outcomes[0].existing, 0);
  EXPECT_EQ(e.outcomes[0].created.size(), 3u);
  const std::string* hash = Label(pods[0], "pod-template-hash");
  ASSERT_NE(hash, nullptr);
  EXPECT_TRUE(Matches(*hash, "", kOneOrMore)) << *hash;
  const std::string rs = "web-" + *hash;
  EXPECT_EQ(e.outcomes[0].controller, "ReplicaSet default/" + rs);
  std::vector<std::string> names;
  for (const Pod& pod : pods) {
    EXPECT_TRUE(Matches(pod.meta.name, rs + "-", kSuffix)) << pod.meta.name;
    EXPECT_EQ(pod.meta.generate_name, rs + "-");
    EXPECT_EQ(pod.meta.namespace_, "default");
    ASSERT_EQ(pod.meta.owner_references.size(), 1u);
    EXPECT_EQ(pod.meta.owner_references[0].kind, "ReplicaSet");
    EXPECT_EQ(pod.meta.owner_references[0].name, rs);
    EXPECT_TRUE(pod.meta.owner_references[0].controller);
    EXPECT_EQ(*Label(pod, "app"), "web");
    EXPECT_EQ(*Label(pod, "pod-template-hash"), *hash);
    EXPECT_EQ(pod.spec.priority_class_name, "gold");
    EXPECT_EQ(pod.spec.requests.milli_cpu, 500);
    EXPECT_FALSE(pod.meta.creation_timestamp.has_value());
    names.push_back(pod.meta.name);
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::unique(names.begin(), names.end()), names.end());
}

TEST(ExpandWorkloadsTest, ReplicasDefaultToOneAndZeroCreatesNone) {
  Workload d = MakeWorkload(WorkloadKind::kReplicaSet, "rs");
  EXPECT_EQ(Pods(ExpandWorkloads({}, {d}, 1)).size(), 1u);
  d.replicas = 0;
  EXPECT_TRUE(Pods(ExpandWorkloads({}, {d}, 1)).empty());
}

TEST(ExpandWorkloadsTest, NamesAreSeededAndDeterministic) {
  Workload d = MakeWorkload(WorkloadKind::kReplicaSet, "rs");
  d.replicas = 4;
  auto names = [&](std::uint64_t seed) {
    std::vector<std::string> out;
    for (const Pod& p : Pods(ExpandWorkloads({}, {d}, seed))) out.push_back(p.meta.name);
    return out;
  };
  EXPECT_EQ(names(7), names(7));
  EXPECT_NE(names(7), names(8));
  for (const std::string& n : names(7)) EXPECT_TRUE(Matches(n, "rs-", kSuffix)) << n;
}

TEST(ExpandWorkloadsTest, ReplicaSetCountsItsActivePodsInTheInput) {
  Workload rs = MakeWorkload(WorkloadKind::kReplicaSet, "rs");
  rs.replicas = 3;
  const Pod owned = MakePod("rs-aaaaa").Owner("ReplicaSet", "rs").Label("app", "rs").Build();
  const Pod deleting = [] {
    Pod p = MakePod("rs-bbbbb").Owner("ReplicaSet", "rs").Build();
    p.meta.deletion_timestamp = WallTime{1};
    return p;
  }();
  const Pod succeeded = MakePod("rs-ccccc").Owner("ReplicaSet", "rs").Phase("Succeeded").Build();
  const Pod other_ns = MakePod("rs-ddddd").Namespace("other").Owner("ReplicaSet", "rs").Build();
  const WorkloadExpansion e = ExpandWorkloads(
      {ToObject(owned), ToObject(deleting), ToObject(succeeded), ToObject(other_ns)}, {rs}, 1);
  ASSERT_EQ(e.outcomes.size(), 1u);
  EXPECT_EQ(e.outcomes[0].existing, 1);
  EXPECT_EQ(e.outcomes[0].created.size(), 2u);
  EXPECT_EQ(Pods(e).size(), 6u);
}

TEST(ExpandWorkloadsTest, DeploymentCountsPodsOfItsReplicaSetByNameAndHash) {
  Workload d = MakeWorkload(WorkloadKind::kDeployment, "web");
  d.replicas = 3;
  // A pods-only snapshot: two pods of ReplicaSet web-5d4c8 carrying its pod-template-hash.
  const Pod p1 = MakePod("web-5d4c8-aaaaa").Owner("ReplicaSet", "web-5d4c8").Label("app", "web")
                     .Label("pod-template-hash", "5d4c8").Build();
  const Pod p2 = MakePod("web-5d4c8-bbbbb").Owner("ReplicaSet", "web-5d4c8").Label("app", "web")
                     .Label("pod-template-hash", "5d4c8").Build();
  // Not the Deployment's: another app's ReplicaSet that shares the prefix.
  const Pod other = MakePod("web-api-ccccc").Owner("ReplicaSet", "web-api").Label("app", "api").Build();
  const WorkloadExpansion e = ExpandWorkloads({ToObject(p1), ToObject(p2), ToObject(other)}, {d}, 1);
  ASSERT_EQ(e.outcomes.size(), 1u);
  EXPECT_EQ(e.outcomes[0].existing, 2);
  ASSERT_EQ(e.outcomes[0].created.size(), 1u);
  EXPECT_TRUE(Matches(e.outcomes[0].created[0], "default/web-5d4c8-", kSuffix));
  EXPECT_EQ(e.outcomes[0].controller, "ReplicaSet default/web-5d4c8");
}

TEST(ExpandWorkloadsTest, DeploymentWithItsReplicaSetInTheInputIsNotCreatedTwice) {
  Workload d = MakeWorkload(WorkloadKind::kDeployment, "web");
  d.replicas = 2;
  Workload rs = MakeWorkload(WorkloadKind::kReplicaSet, "web-7f9c", "web");
  rs.replicas = 2;
  rs.meta.owner_references.push_back(OwnerReference{"apps/v1", "Deployment", "web", "", true});
  const WorkloadExpansion e = ExpandWorkloads({}, {d, rs}, 1);
  EXPECT_EQ(Pods(e).size(), 2u);
  ASSERT_EQ(e.outcomes.size(), 2u);
  EXPECT_EQ(e.outcomes[0].name, "default/web");
  EXPECT_EQ(e.outcomes[0].existing, 2);
  EXPECT_TRUE(e.outcomes[0].created.empty());
  EXPECT_EQ(e.outcomes[1].created.size(), 2u);
}

// Setup: Deployment web (no ReplicaSet in the input), Deployment api with its ReplicaSet api-7f9c
// in the input, StatefulSet db and a Job. Expect: the controllers helper.DefaultSelector looks
// up, in input order, once each: web's generated ReplicaSet with the Deployment's selector plus
// its pod-template-hash; api-7f9c with its own selector (not a second, generated one); db's
// StatefulSet; no Job (not a controller DefaultSelector reads).
TEST(ExpandWorkloadsTest, ControllersCarryTheSelectorsTheirPodsAreSpreadBy) {
  Workload web = MakeWorkload(WorkloadKind::kDeployment, "web");
  Workload api = MakeWorkload(WorkloadKind::kDeployment, "api");
  Workload api_rs = MakeWorkload(WorkloadKind::kReplicaSet, "api-7f9c", "api");
  api_rs.selector->match_labels.emplace_back("pod-template-hash", "7f9c");
  api_rs.meta.owner_references.push_back(OwnerReference{"apps/v1", "Deployment", "api", "", true});
  Workload db = MakeWorkload(WorkloadKind::kStatefulSet, "db");
  Workload job = MakeWorkload(WorkloadKind::kJob, "batch");
  const WorkloadExpansion e = ExpandWorkloads({}, {web, api, api_rs, db, job}, 1);
  ASSERT_EQ(e.controllers.size(), 3u);
  const std::vector<Pod> pods = Pods(e);
  const std::string* hash = Label(pods[0], "pod-template-hash");
  ASSERT_NE(hash, nullptr);
  EXPECT_EQ(e.controllers[0].kind, "ReplicaSet");
  EXPECT_EQ(e.controllers[0].namespace_, "default");
  EXPECT_EQ(e.controllers[0].name, "web-" + *hash);
  ASSERT_TRUE(e.controllers[0].selector.has_value());
  EXPECT_EQ(e.controllers[0].selector->match_labels,
            (Labels{{"app", "web"}, {"pod-template-hash", *hash}}));
  EXPECT_TRUE(e.controllers[0].selector->Matches(pods[0].meta.labels));
  EXPECT_EQ(e.controllers[1].name, "api-7f9c");
  EXPECT_EQ(e.controllers[1].selector, api_rs.selector);
  EXPECT_EQ(e.controllers[2].kind, "StatefulSet");
  EXPECT_EQ(e.controllers[2].name, "db");
  // AdmitInput hands them to the engine.
  const AdmissionResult admitted =
      AdmitInput({}, {web, api, api_rs, db, job}, FeatureGates{}, AdmissionMode::kExisting, 1);
  EXPECT_EQ(admitted.state.controllers, e.controllers);
}

// Setup: a pods-only Deployment web listed before ReplicaSet web-5d4c8 (no ownerReference to
// web), whose pods both count. Expect: one controller web-5d4c8, with the input ReplicaSet's own
// selector, not the one the Deployment's expansion derives (its selector plus the hash).
TEST(ExpandWorkloadsTest, AnInputReplicaSetsSelectorWinsOverTheDeploymentsDerivedOne) {
  Workload d = MakeWorkload(WorkloadKind::kDeployment, "web");
  Workload rs = MakeWorkload(WorkloadKind::kReplicaSet, "web-5d4c8", "web");
  rs.selector->match_labels.emplace_back("tier", "front");
  const Pod p = MakePod("web-5d4c8-aaaaa").Owner("ReplicaSet", "web-5d4c8").Label("app", "web")
                    .Label("pod-template-hash", "5d4c8").Label("tier", "front").Build();
  const WorkloadExpansion e = ExpandWorkloads({ToObject(p)}, {d, rs}, 1);
  ASSERT_EQ(e.controllers.size(), 1u);
  EXPECT_EQ(e.controllers[0].name, "web-5d4c8");
  EXPECT_EQ(e.controllers[0].selector, rs.selector);
}

// --- StatefulSet ----------------------------------------------------------------------------

TEST(ExpandWorkloadsTest, StatefulSetPodsAreNamedByOrdinalAndSkipExistingOnes) {
  Workload s = MakeWorkload(WorkloadKind::kStatefulSet, "db");
  s.replicas = 3;
  s.pod_management_policy = "Parallel";
  const Pod existing = MakePod("db-1").Owner("StatefulSet", "db").Label("app", "db").Build();
  const WorkloadExpansion e = ExpandWorkloads({ToObject(existing)}, {s}, 1);
  ASSERT_EQ(e.outcomes.size(), 1u);
  EXPECT_EQ(e.outcomes[0].created, (std::vector<std::string>{"default/db-0", "default/db-2"}));
  EXPECT_EQ(e.outcomes[0].existing, 1);
  EXPECT_TRUE(e.warnings.empty());
  const std::vector<Pod> pods = Pods(e);
  ASSERT_EQ(pods.size(), 3u);
  const Pod& db2 = pods[1];  // created pods come first: the workload is at position 0
  EXPECT_EQ(db2.meta.name, "db-2");
  EXPECT_TRUE(db2.meta.generate_name.empty());
  EXPECT_EQ(*Label(db2, "statefulset.kubernetes.io/pod-name"), "db-2");
  EXPECT_EQ(*Label(db2, "apps.kubernetes.io/pod-index"), "2");
  EXPECT_TRUE(Matches(*Label(db2, "controller-revision-hash"), "db-", kOneOrMore));
  EXPECT_EQ(db2.meta.owner_references[0].kind, "StatefulSet");
  EXPECT_EQ(db2.meta.owner_references[0].name, "db");
}

TEST(ExpandWorkloadsTest, StatefulSetOrdinalsStartAndOrderedReadyIsWarned) {
  Workload s = MakeWorkload(WorkloadKind::kStatefulSet, "db");
  s.replicas = 2;
  s.ordinals_start = 5;
  const WorkloadExpansion e = ExpandWorkloads({}, {s}, 1);
  EXPECT_EQ(e.outcomes[0].created, (std::vector<std::string>{"default/db-5", "default/db-6"}));
  ASSERT_EQ(e.warnings.size(), 1u);
  EXPECT_EQ(e.warnings[0].code, "NotModelled");
  EXPECT_EQ(e.warnings[0].object, "StatefulSet default/db");
  EXPECT_NE(e.warnings[0].message.find("OrderedReady"), std::string::npos);
}

// --- Job ------------------------------------------------------------------------------------

int JobPods(std::optional<std::int32_t> parallelism, std::optional<std::int32_t> completions,
            std::int32_t succeeded = 0, bool suspend = false) {
  Workload j = MakeWorkload(WorkloadKind::kJob, "job");
  j.parallelism = parallelism;
  j.completions = completions;
  j.succeeded = succeeded;
  j.suspend = suspend;
  return static_cast<int>(Pods(ExpandWorkloads({}, {j}, 1)).size());
}

TEST(ExpandWorkloadsTest, JobActivePodsMirrorManageJob) {
  EXPECT_EQ(JobPods(std::nullopt, std::nullopt), 1);  // both default to 1
  EXPECT_EQ(JobPods(4, 10), 4);                       // parallelism caps
  EXPECT_EQ(JobPods(4, 3), 3);                        // remaining completions cap
  EXPECT_EQ(JobPods(4, 5, 3), 2);                     // completions - succeeded
  EXPECT_EQ(JobPods(4, 5, 7), 0);
  EXPECT_EQ(JobPods(3, std::nullopt), 3);             // work queue: parallelism
  EXPECT_EQ(JobPods(3, std::nullopt, 1), 0);          // a success: leave what runs
  EXPECT_EQ(JobPods(std::nullopt, 4), 1);             // parallelism defaults to 1
  EXPECT_EQ(JobPods(0, 4), 0);
  EXPECT_EQ(JobPods(4, 10, 0, /*suspend=*/true), 0);
}

TEST(ExpandWorkloadsTest, JobPodsCarryJobLabelsAndCountExistingPods) {
  Workload j = MakeWorkload(WorkloadKind::kJob, "crunch");
  j.meta.uid = "uid-1";
  j.parallelism = 3;
  j.completions = 10;
  const Pod running = MakePod("crunch-aaaaa").Owner("Job", "crunch").Build();
  const WorkloadExpansion e = ExpandWorkloads({ToObject(running)}, {j}, 1);
  ASSERT_EQ(e.outcomes[0].created.size(), 2u);
  const Pod pod = Pods(e)[1];
  EXPECT_TRUE(Matches(pod.meta.name, "crunch-", kSuffix));
  EXPECT_EQ(*Label(pod, "batch.kubernetes.io/job-name"), "crunch");
  EXPECT_EQ(*Label(pod, "job-name"), "crunch");
  EXPECT_EQ(*Label(pod, "batch.kubernetes.io/controller-uid"), "uid-1");
  EXPECT_EQ(pod.meta.owner_references[0].kind, "Job");
  EXPECT_EQ(pod.meta.owner_references[0].api_version, "batch/v1");
  EXPECT_EQ(pod.meta.owner_references[0].uid, "uid-1");
}

TEST(ExpandWorkloadsTest, IndexedJobPodsTakeTheLowestFreeIndexes) {
  Workload j = MakeWorkload(WorkloadKind::kJob, "idx");
  j.parallelism = 2;
  j.completions = 4;
  j.indexed = true;
  const Pod zero = MakePod("idx-0-aaaaa").Owner("Job", "idx")
                       .Label("batch.kubernetes.io/job-completion-index", "0").Build();
  j.parallelism = 3;
  j.position = 1;  // after pod idx-0
  const WorkloadExpansion e = ExpandWorkloads({ToObject(zero)}, {j}, 1);
  ASSERT_EQ(e.outcomes[0].created.size(), 2u);
  EXPECT_TRUE(Matches(e.outcomes[0].created[0], "default/idx-1-", kSuffix));
  EXPECT_TRUE(Matches(e.outcomes[0].created[1], "default/idx-2-", kSuffix));
  EXPECT_EQ(*Label(Pods(e)[2], "batch.kubernetes.io/job-completion-index"), "2");
}

// --- DaemonSet ------------------------------------------------------------------------------

Taint MakeTaint(std::string key, TaintEffect effect) { return Taint{std::move(key), "", effect}; }

TEST(ExpandWorkloadsTest, DaemonSetPodPerSelectedNodePinnedByMatchFields) {
  Workload ds = MakeWorkload(WorkloadKind::kDaemonSet, "agent");
  ds.pod_template.spec.node_selector = {{"pool", "general"}};
  Node a = MakeNode("a").Label("pool", "general").Build();
  Node b = MakeNode("b").Label("pool", "general").Build();
  b.taints.push_back(MakeTaint("gpu", TaintEffect::kNoSchedule));          // not tolerated
  Node c = MakeNode("c").Label("pool", "general").Build();
  c.taints.push_back(MakeTaint("flaky", TaintEffect::kPreferNoSchedule));  // does not count
  c.taints.push_back(MakeTaint("node.kubernetes.io/unschedulable", TaintEffect::kNoSchedule));
  c.unschedulable = true;                                                  // tolerated by the daemon toleration
  Node d = MakeNode("d").Label("pool", "other").Build();                   // nodeSelector
  Node e2 = MakeNode("e").Label("pool", "general").Build();
  e2.taints.push_back(MakeTaint("evict", TaintEffect::kNoExecute));        // not tolerated
  Node f = MakeNode("f").Label("pool", "general").Build();
  f.taints.push_back(MakeTaint("node.kubernetes.io/disk-pressure", TaintEffect::kNoSchedule));
  const WorkloadExpansion e = ExpandWorkloads(
      {ToObject(a), ToObject(b), ToObject(c), ToObject(d), ToObject(e2), ToObject(f)}, {ds}, 1);
  const std::vector<Pod> pods = Pods(e);
  ASSERT_EQ(pods.size(), 3u);
  std::vector<std::string> nodes;
  for (const Pod& pod : pods) {
    EXPECT_TRUE(Matches(pod.meta.name, "agent-", kSuffix)) << pod.meta.name;
    EXPECT_TRUE(pod.spec.node_name.empty());
    ASSERT_TRUE(pod.spec.affinity.node_affinity_required.has_value());
    const NodeSelector& sel = *pod.spec.affinity.node_affinity_required;
    ASSERT_EQ(sel.terms.size(), 1u);
    ASSERT_EQ(sel.terms[0].match_fields.size(), 1u);
    EXPECT_TRUE(sel.terms[0].match_expressions.empty());
    EXPECT_EQ(sel.terms[0].match_fields[0].key, "metadata.name");
    EXPECT_EQ(sel.terms[0].match_fields[0].op, NodeSelectorOperator::kIn);
    ASSERT_EQ(sel.terms[0].match_fields[0].values.size(), 1u);
    nodes.push_back(sel.terms[0].match_fields[0].values[0]);
    EXPECT_EQ(pod.meta.owner_references[0].kind, "DaemonSet");
    EXPECT_NE(Label(pod, "controller-revision-hash"), nullptr);
  }
  EXPECT_EQ(nodes, (std::vector<std::string>{"a", "c", "f"}));
  EXPECT_EQ(e.outcomes[0].desired, 3);
}

TEST(ExpandWorkloadsTest, DaemonSetPodsCarryTheDaemonTolerations) {
  Workload ds = MakeWorkload(WorkloadKind::kDaemonSet, "agent");
  Toleration own;
  own.key = "node.kubernetes.io/unschedulable";
  own.op = TolerationOperator::kExists;
  own.effect = TaintEffect::kNoSchedule;
  ds.pod_template.spec.tolerations.push_back(own);  // already there: not added twice
  const Object node = ToObject(MakeNode("a").Build());
  auto keys = [&](bool host_network) {
    ds.host_network = host_network;
    std::vector<std::string> out;
    const Pod pod = Pods(ExpandWorkloads({node}, {ds}, 1)).at(0);
    for (const Toleration& t : pod.spec.tolerations) {
      EXPECT_EQ(t.op, TolerationOperator::kExists);
      out.push_back(t.key + ":" + (t.effect == TaintEffect::kNoExecute ? "NoExecute" : "NoSchedule"));
    }
    return out;
  };
  EXPECT_EQ(keys(false), (std::vector<std::string>{
                             "node.kubernetes.io/unschedulable:NoSchedule",
                             "node.kubernetes.io/not-ready:NoExecute",
                             "node.kubernetes.io/unreachable:NoExecute",
                             "node.kubernetes.io/disk-pressure:NoSchedule",
                             "node.kubernetes.io/memory-pressure:NoSchedule",
                             "node.kubernetes.io/pid-pressure:NoSchedule",
                         }));
  EXPECT_EQ(keys(true).back(), "node.kubernetes.io/network-unavailable:NoSchedule");
}

TEST(ExpandWorkloadsTest, DaemonSetSkipsNodesWithItsPodAndHonoursTemplateAffinity) {
  Workload ds = MakeWorkload(WorkloadKind::kDaemonSet, "agent");
  NodeSelectorTerm term;
  term.match_expressions.push_back(NodeSelectorRequirement{"zone", NodeSelectorOperator::kIn, {"z1"}});
  ds.pod_template.spec.affinity.node_affinity_required = NodeSelector{{term}};
  const Pod existing = [] {
    Pod p = MakePod("agent-zzzzz").Owner("DaemonSet", "agent").Build();
    NodeSelectorTerm pin;
    pin.match_fields.push_back(NodeSelectorRequirement{"metadata.name", NodeSelectorOperator::kIn, {"a"}});
    p.spec.affinity.node_affinity_required = NodeSelector{{pin}};
    return p;
  }();
  ds.position = 4;  // after the nodes and the pod
  const WorkloadExpansion e = ExpandWorkloads(
      {ToObject(MakeNode("a").Label("zone", "z1").Build()), ToObject(MakeNode("b").Label("zone", "z1").Build()),
       ToObject(MakeNode("c").Label("zone", "z2").Build()), ToObject(existing)},
      {ds}, 1);
  ASSERT_EQ(e.outcomes[0].created.size(), 1u);
  EXPECT_EQ(e.outcomes[0].desired, 2);
  EXPECT_EQ(e.outcomes[0].existing, 1);
  const Pod created = Pods(e).back();
  // The template's required terms are replaced by the pin to node b.
  EXPECT_EQ(created.spec.affinity.node_affinity_required->terms.at(0).match_fields.at(0).values.at(0), "b");
  EXPECT_TRUE(created.spec.affinity.node_affinity_required->terms.at(0).match_expressions.empty());
}

// --- Order, admission, updates ----------------------------------------------------------------

TEST(ExpandWorkloadsTest, PodsAreInsertedAtTheWorkloadsPlaceAndAdmittedLikeCreatedPods) {
  Workload d = MakeWorkload(WorkloadKind::kReplicaSet, "rs");
  d.replicas = 2;
  d.pod_template.spec.priority_class_name = "gold";
  d.position = 1;  // after the PriorityClass, before pod `last`
  const std::vector<Object> objects = {ToObject(MakePriorityClass("gold").Value(500).Build()),
                                       ToObject(MakePod("last").Build())};
  const WorkloadExpansion e = ExpandWorkloads(objects, {d}, 1);
  ASSERT_EQ(e.objects.size(), 4u);
  EXPECT_EQ(e.objects[0].kind, ObjectKind::kPriorityClass);
  EXPECT_EQ(e.objects[1].source.file, "w.yaml");
  EXPECT_EQ(e.objects[3].meta().name, "last");
  const AdmissionResult admitted = Admit(e.objects, FeatureGates{});
  ASSERT_EQ(admitted.state.pods.size(), 3u);
  EXPECT_EQ(admitted.state.pods[0].spec.priority, 500);
  EXPECT_EQ(admitted.state.pods[1].spec.priority, 500);
  EXPECT_EQ(admitted.state.pods[2].meta.name, "last");
}

TEST(ExpandWorkloadsTest, AWorkloadDefinedTwiceExpandsItsLastDefinition) {
  Workload first = MakeWorkload(WorkloadKind::kReplicaSet, "rs");
  first.replicas = 5;
  Workload second = first;
  second.replicas = 1;
  second.source.line = 20;
  const WorkloadExpansion e = ExpandWorkloads({}, {first, second}, 1);
  EXPECT_EQ(Pods(e).size(), 1u);
  ASSERT_EQ(e.warnings.size(), 1u);
  EXPECT_EQ(e.warnings[0].code, "WorkloadUpdated");
}

TEST(ExpandWorkloadsTest, CreatedNamesNeverCollideWithInputPods) {
  // A ReplicaSet of many pods: every generated name is unique and differs from the input's.
  Workload rs = MakeWorkload(WorkloadKind::kReplicaSet, "rs");
  rs.replicas = 200;
  const WorkloadExpansion first = ExpandWorkloads({}, {rs}, 3);
  std::vector<Object> inputs;
  for (const Pod& p : Pods(first)) {
    Pod other = p;
    other.meta.owner_references.clear();  // same names, not owned
    inputs.push_back(ToObject(other));
  }
  const WorkloadExpansion e = ExpandWorkloads(inputs, {rs}, 3);
  std::vector<std::string> names;
  for (const Pod& p : Pods(e)) names.push_back(p.meta.name);
  ASSERT_EQ(names.size(), 400u);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::unique(names.begin(), names.end()), names.end());
}

TEST(ExpandWorkloadsTest, HugeReplicaCountsAreCappedWithAWarning) {
  Workload d = MakeWorkload(WorkloadKind::kDeployment, "huge");
  d.replicas = 2000000000;
  const WorkloadExpansion e = ExpandWorkloads({}, {d}, 1);
  EXPECT_EQ(Pods(e).size(), 100000u);
  EXPECT_EQ(e.outcomes[0].desired, 2000000000);
  ASSERT_EQ(e.warnings.size(), 1u);
  EXPECT_EQ(e.warnings[0].code, "WorkloadCapped");
}

}  // namespace
}  // namespace kpsim
