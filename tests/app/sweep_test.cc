// app/sweep.h and the Sweep spec decoder (io::ParseSweepSpec): the spec's defaults and refusals,
// the grid's order, overlays that change the run, run order whatever the threads, shards, merge.

#include "app/sweep.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kpsim/io.h"

namespace kpsim::app {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

const std::string kExampleSpec = std::string(KPSIM_SOURCE_DIR) + "/examples/sweep/sweep.yaml";

// A fresh directory under the system's temporary directory, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("kpsim-sweep-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `text` to `name` (directories created); returns its path.
  std::string Write(const std::string& name, const std::string& text) const {
    const fs::path p = path_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

io::SweepSpec Parse(const std::string& text) {
  auto spec = io::ParseSweepSpec(text, "s.yaml");
  EXPECT_TRUE(spec.ok()) << spec.error().message;
  return spec.ok() ? *spec : io::SweepSpec{};
}

std::string ParseError(const std::string& text) {
  auto spec = io::ParseSweepSpec(text, "s.yaml");
  EXPECT_FALSE(spec.ok());
  return spec.ok() ? std::string() : spec.error().message;
}

constexpr const char* kHead = "apiVersion: kpsim.io/v1alpha1\nkind: Sweep\nmetadata: {name: t}\n";

// A node and a Deployment default/web of 2 pods (1 CPU each), and a file adding one bare pod.
const char* kCluster = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, resources: {requests: {cpu: "1"}}}]
)";
const char* kExtraPod = R"(apiVersion: v1
kind: Pod
metadata: {name: extra, namespace: default}
spec:
  containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
)";

std::vector<std::string> RunAll(const SweepPlan& plan, SweepShard shard, int jobs) {
  std::vector<std::string> lines;
  RunSweep(plan, shard, jobs, [&lines](const SweepRun&, const SweepLine& line) { lines.push_back(line.json); });
  return lines;
}

SweepPlan PlanOf(const std::string& spec_path) {
  auto spec = io::ReadSweepSpec(spec_path);
  EXPECT_TRUE(spec.ok()) << spec.error().message;
  auto plan = PlanSweep(*spec);
  EXPECT_TRUE(plan.ok()) << plan.error().message;
  return std::move(*plan);
}

TEST(SweepSpecTest, DefaultsFillEveryAxisButInputs) {
  const io::SweepSpec spec = Parse(std::string(kHead) + "spec:\n  inputs:\n  - {name: a, paths: [x.yaml]}\n");
  EXPECT_EQ(spec.name, "t");
  ASSERT_EQ(spec.inputs.size(), 1u);
  EXPECT_EQ(spec.inputs[0].paths, std::vector<std::string>{"x.yaml"});
  EXPECT_EQ(spec.seeds, std::vector<std::uint64_t>{1});
  EXPECT_EQ(spec.profiles, std::vector<std::string>{"default"});
  EXPECT_EQ(spec.feature_gates, std::vector<std::string>{""});
  ASSERT_EQ(spec.overlays.size(), 1u);
  EXPECT_EQ(spec.overlays[0].name, "none");
  EXPECT_TRUE(spec.overlays[0].add.empty());
  EXPECT_TRUE(spec.overlays[0].scale.empty());
  EXPECT_EQ(SweepGrid(spec).size(), 1u);
}

TEST(SweepSpecTest, ReadsJsonAndEveryField) {
  const io::SweepSpec spec = Parse(R"({"apiVersion": "kpsim.io/v1alpha1", "kind": "Sweep",
    "metadata": {"name": "j", "namespace": "sims"},
    "spec": {"inputs": [{"name": "a", "paths": ["x/"]}], "seeds": [18446744073709551615, 0],
             "profiles": ["book"], "featureGates": ["", "GenericWorkload=true"],
             "overlays": [{"name": "o", "add": ["y.yaml"],
                           "scale": [{"kind": "Job", "name": "train", "replicas": 4}]}],
             "settings": ["until=5m"]}})");
  EXPECT_EQ(spec.namespace_, "sims");
  EXPECT_EQ(spec.seeds, (std::vector<std::uint64_t>{18446744073709551615ull, 0}));
  EXPECT_EQ(spec.feature_gates, (std::vector<std::string>{"", "GenericWorkload=true"}));
  ASSERT_EQ(spec.overlays.size(), 1u);
  ASSERT_EQ(spec.overlays[0].scale.size(), 1u);
  EXPECT_EQ(spec.overlays[0].scale[0].kind, WorkloadKind::kJob);
  EXPECT_EQ(spec.overlays[0].scale[0].name, "default/train");
  EXPECT_EQ(spec.overlays[0].scale[0].replicas, 4);
  EXPECT_EQ(spec.settings, std::vector<std::string>{"until=5m"});
}

// Each refusal names the file, the line and the field.
TEST(SweepSpecTest, RefusalsNameFileLineAndField) {
  const std::string inputs = "spec:\n  inputs:\n  - {name: a, paths: [x.yaml]}\n";
  EXPECT_THAT(ParseError(std::string(kHead) + inputs + "  seed: [1]\n"),
              HasSubstr("s.yaml:7: spec.seed: unknown field \"seed\""));
  EXPECT_THAT(ParseError(std::string(kHead) + "spec:\n  seeds: [1]\n"), HasSubstr("spec.inputs: Required value"));
  EXPECT_THAT(ParseError(std::string(kHead) + "spec:\n  inputs: []\n"), HasSubstr("spec.inputs: must not be empty"));
  EXPECT_THAT(ParseError("apiVersion: v1\nkind: Sweep\nmetadata: {name: t}\n" + inputs),
              HasSubstr("s.yaml:1: apiVersion: Unsupported value: \"v1\""));
  EXPECT_THAT(ParseError("apiVersion: kpsim.io/v1alpha1\nkind: Sweep\n" + inputs), HasSubstr("metadata.name: Required value"));
  EXPECT_THAT(ParseError(std::string(kHead) + "spec:\n  inputs:\n  - {name: a, paths: [x.yaml]}\n  - {name: a, paths: [z.yaml]}\n"),
              HasSubstr("s.yaml:7: spec.inputs[1].name: Duplicate value: \"a\""));
  EXPECT_THAT(ParseError(std::string(kHead) + "spec:\n  inputs:\n  - {name: a}\n"),
              HasSubstr("spec.inputs[0].paths: Required value"));
  EXPECT_THAT(ParseError(std::string(kHead) + inputs + "  seeds: [1, -2]\n"), HasSubstr("spec.seeds[1]"));
  EXPECT_THAT(ParseError(std::string(kHead) + inputs + "  seeds: [\"1\"]\n"), HasSubstr("spec.seeds[0]: expected a whole number"));
  EXPECT_THAT(ParseError(std::string(kHead) + inputs + "  profiles: [default, default]\n"),
              HasSubstr("spec.profiles[1]: Duplicate value"));
  EXPECT_THAT(ParseError(std::string(kHead) + inputs + "  overlays:\n  - name: o\n    scale:\n    - {kind: DaemonSet, name: ds, replicas: 1}\n"),
              HasSubstr("s.yaml:10: spec.overlays[0].scale[0].kind: Unsupported value: \"DaemonSet\""));
  EXPECT_THAT(ParseError(std::string(kHead) + inputs + "  overlays:\n  - name: o\n    scale:\n    - {kind: Job, name: j, replicas: many}\n"),
              HasSubstr("spec.overlays[0].scale[0].replicas: expected an integer"));
  EXPECT_THAT(ParseError(std::string(kHead) + inputs + "  overlays:\n  - name: o\n    scale:\n    - {kind: Job, name: j, replicas: 1, x: 2}\n"),
              HasSubstr("spec.overlays[0].scale[0].x: unknown field"));
  EXPECT_THAT(ParseError(std::string(kHead) + inputs + "  overlays:\n  - {add: [a.yaml]}\n"),
              HasSubstr("spec.overlays[0].name: Required value"));
  EXPECT_THAT(ParseError(std::string(kHead) + inputs + "---\n" + kHead + inputs), HasSubstr("one document"));
  EXPECT_THAT(ParseError("spec: [unclosed\n"), HasSubstr("s.yaml:"));
}

// Setup: 2 inputs, 2 overlays, 2 profiles, 2 gate sets, 3 seeds.
// Expect: 48 runs numbered 0..47, seed innermost, then gates, profiles, overlays, inputs.
TEST(SweepGridTest, NestsInputsOverlaysProfilesGatesSeeds) {
  const io::SweepSpec spec = Parse(std::string(kHead) + R"(spec:
  inputs: [{name: a, paths: [x.yaml]}, {name: b, paths: [z.yaml]}]
  overlays: [{name: none}, {name: more}]
  profiles: [default, book]
  featureGates: ["", "GenericWorkload=true"]
  seeds: [1, 2, 3]
)");
  const std::vector<SweepRun> runs = SweepGrid(spec);
  ASSERT_EQ(runs.size(), 48u);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].index, static_cast<int>(i));
    EXPECT_EQ(runs[i].seed, 1 + i % 3);
    EXPECT_EQ(runs[i].feature_gates, (i / 3) % 2 == 0 ? "" : "GenericWorkload=true");
    EXPECT_EQ(runs[i].profile, (i / 6) % 2 == 0 ? "default" : "book");
    EXPECT_EQ(runs[i].overlay, (i / 12) % 2);
    EXPECT_EQ(runs[i].input, i / 24);
  }
  EXPECT_EQ(SweepRunCount(spec, 48), 48u);
  EXPECT_EQ(SweepRunCount(spec, 30), 31u) << "past the cap: cap + 1";
  EXPECT_EQ(SweepRunCount(spec, 10), 11u);
  io::SweepSpec wide = spec;
  wide.seeds.assign(1000, 1);
  wide.inputs.resize(1000, spec.inputs[0]);
  wide.overlays.resize(1000, spec.overlays[0]);
  EXPECT_EQ(SweepRunCount(wide, kMaxSweepRuns), kMaxSweepRuns + 1) << "4e9 runs, not wrapped";
}

TEST(SweepPlanTest, RefusesValuesSimulateRefuses) {
  TempDir dir;
  dir.Write("c.yaml", kCluster);
  const auto plan_error = [&dir](const std::string& spec_text) {
    auto spec = io::ReadSweepSpec(dir.Write("s.yaml", std::string(kHead) + "spec:\n  inputs: [{name: a, paths: [c.yaml]}]\n" + spec_text));
    EXPECT_TRUE(spec.ok()) << spec.error().message;
    auto plan = PlanSweep(*spec);
    EXPECT_FALSE(plan.ok());
    return plan.ok() ? std::string() : plan.error().message;
  };
  // Named by file and line (the spec's sixth line: kHead, spec, inputs, then the field).
  EXPECT_THAT(plan_error("  profiles: [default, fancy]\n"), HasSubstr("s.yaml:6: spec.profiles[1]: fancy not in {default, book}"));
  EXPECT_THAT(plan_error("  profiles:\n  - default\n  - fancy\n"), HasSubstr("s.yaml:8: spec.profiles[1]: fancy"));
  EXPECT_THAT(plan_error("  featureGates: [\"\", \"NoSuchGate=true\"]\n"), HasSubstr("spec.featureGates[1]:"));
  EXPECT_THAT(plan_error("  settings: [\"seed=3\"]\n"), HasSubstr("spec.settings[0]: seed is an axis of the sweep"));
  EXPECT_THAT(plan_error("  settings: [\"until=forever\"]\n"), HasSubstr("spec.settings"));
  EXPECT_THAT(plan_error("  settings: [\"colour=blue\"]\n"), HasSubstr("spec.settings[0]: unknown setting colour"));
  // The keys it lists are those a sweep takes: not the axes, which it refuses as settings.
  const std::string unknown = plan_error("  settings: [\"untill=10m\"]\n");
  EXPECT_THAT(unknown, HasSubstr("unknown setting untill (keys: until, candidateSampling,"));
  EXPECT_THAT(unknown, HasSubstr("; profiles, seeds and featureGates are the sweep's axes"));
  EXPECT_THAT(unknown, Not(HasSubstr("profile,")));
  EXPECT_THAT(unknown, Not(HasSubstr("seed,")));
  EXPECT_THAT(plan_error("  overlays: [{name: o, add: [missing.yaml]}]\n"),
              HasSubstr("s.yaml:6: spec.overlays[0].add[0]: " + (fs::path(dir.path()) / "missing.yaml").string() + ": no such file"));
}

// Setup: a Deployment of 2 pods; overlays scale it to 5, scale a workload that is not there, and
// add a pod. Expect: 2, 5 and 3 pods; the missing workload is that run's error, not the sweep's.
TEST(SweepRunTest, OverlaysChangeTheRun) {
  TempDir dir;
  dir.Write("cluster/c.yaml", kCluster);
  dir.Write("extra.yaml", kExtraPod);
  const std::string spec_path = dir.Write("s.yaml", std::string(kHead) + R"(spec:
  inputs: [{name: base, paths: [cluster/]}]
  overlays:
  - name: none
  - name: web-x5
    scale: [{kind: Deployment, name: web, replicas: 5}]
  - name: ghost
    scale: [{kind: StatefulSet, name: shop/db, replicas: 3}]
  - name: extra
    add: [extra.yaml]
)");
  const SweepPlan plan = PlanOf(spec_path);
  const std::vector<std::string> lines = RunAll(plan, SweepShard{}, 1);
  ASSERT_EQ(lines.size(), 4u);
  const json none = json::parse(lines[0]);
  const json scaled = json::parse(lines[1]);
  const json ghost = json::parse(lines[2]);
  const json extra = json::parse(lines[3]);
  EXPECT_EQ(none["status"], "ok");
  EXPECT_EQ(none["pods"]["total"], 2);
  EXPECT_EQ(none["pods"]["running"], 2);
  EXPECT_EQ(scaled["overlay"], "web-x5");
  EXPECT_EQ(scaled["pods"]["total"], 5);
  EXPECT_EQ(ghost["status"], "error");
  EXPECT_EQ(ghost["error"], "overlay ghost: scale: input base has no StatefulSet shop/db");
  EXPECT_FALSE(ghost.contains("disruption"));
  EXPECT_EQ(extra["pods"]["total"], 3);
  // The fields in the promised order, the disruption object as simulate -o json writes it.
  std::vector<std::string> keys;
  for (auto it = none.begin(); it != none.end(); ++it) keys.push_back(it.key());
  std::vector<std::string> ordered;
  const nlohmann::ordered_json as_written = nlohmann::ordered_json::parse(lines[0]);
  for (auto it = as_written.begin(); it != as_written.end(); ++it) ordered.push_back(it.key());
  EXPECT_EQ(ordered, (std::vector<std::string>{"run", "runs", "input", "overlay", "profile", "featureGates", "seed",
                                                "specDigest", "status", "pods", "disruption"}));
  EXPECT_EQ(as_written["specDigest"], SweepSpecDigest(plan.spec));
  EXPECT_EQ(as_written["disruption"].begin().key(), "evictedPods");
  EXPECT_EQ(lines[0].find('\n'), std::string::npos);
}

// Setup: a dump that kept a ReplicaSet (owned by Deployment shop/web) but not the Deployment, and
// a StatefulSet shop/db. Expect: scaling Deployment shop/web names the ReplicaSet to scale instead;
// scaling a Deployment shop/db names the StatefulSet of that name.
TEST(SweepRunTest, AScaleOfAMissingWorkloadSaysWhatTheInputHas) {
  TempDir dir;
  dir.Write("c.yaml", R"(apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7d9f8c
  namespace: shop
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: 1a2b, controller: true}]
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  replicas: 1
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres}]}
)");
  const SweepPlan plan = PlanOf(dir.Write("s.yaml", std::string(kHead) + R"(spec:
  inputs: [{name: dump, paths: [c.yaml]}]
  overlays:
  - name: web
    scale: [{kind: Deployment, name: shop/web, replicas: 3}]
  - name: db
    scale: [{kind: Deployment, name: shop/db, replicas: 3}]
)"));
  const std::vector<std::string> lines = RunAll(plan, SweepShard{}, 1);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(json::parse(lines[0])["error"],
            "overlay web: scale: input dump has no Deployment shop/web (it has ReplicaSet shop/web-7d9f8c, which "
            "that Deployment owns: scale the ReplicaSet instead, or add the Deployment to the input)");
  EXPECT_EQ(json::parse(lines[1])["error"], "overlay db: scale: input dump has no Deployment shop/db (it has StatefulSet shop/db)");
  // A dump of pods alone: the pod its ReplicaSet owns points at the Deployment left out.
  dir.Write("pods.yaml", R"(apiVersion: v1
kind: Pod
metadata:
  name: web-7d9f8c-abcde
  namespace: shop
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7d9f8c, uid: 3c4d, controller: true}]
spec: {nodeName: n1, containers: [{name: web, image: nginx}]}
)");
  // web-api-5f6d is Deployment web-api's ReplicaSet, not web's.
  dir.Write("other.yaml", R"(apiVersion: v1
kind: Pod
metadata:
  name: web-api-5f6d-xyz12
  namespace: shop
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-api-5f6d, uid: 5e6f, controller: true}]
spec: {nodeName: n1, containers: [{name: api, image: nginx}]}
)");
  const SweepPlan pods_only = PlanOf(dir.Write("p.yaml", std::string(kHead) + R"(spec:
  inputs: [{name: pods, paths: [pods.yaml]}, {name: other, paths: [other.yaml]}]
  overlays: [{name: web, scale: [{kind: Deployment, name: shop/web, replicas: 3}]}]
)"));
  const std::vector<std::string> pod_lines = RunAll(pods_only, SweepShard{}, 1);
  ASSERT_EQ(pod_lines.size(), 2u);
  EXPECT_EQ(json::parse(pod_lines[1])["error"], "overlay web: scale: input other has no Deployment shop/web");
  EXPECT_EQ(json::parse(pod_lines[0])["error"],
            "overlay web: scale: input pods has no Deployment shop/web (its pods are in the input, Pod "
            "shop/web-7d9f8c-abcde owned by ReplicaSet shop/web-7d9f8c, but not the workloads: capture them too, "
            "e.g. kubectl get deployments,replicasets,statefulsets,jobs -A -o yaml)");
}

// The example sweep: the same lines in the same order with one thread or two, and its shards
// together are the whole.
TEST(SweepRunTest, SameLinesWhateverThreadsOrShards) {
  const SweepPlan plan = PlanOf(kExampleSpec);
  const std::vector<std::string> one = RunAll(plan, SweepShard{}, 1);
  const std::vector<std::string> two = RunAll(plan, SweepShard{}, 2);
  ASSERT_EQ(one.size(), 24u);
  EXPECT_EQ(one, two);
  std::set<int> evicting;
  for (const std::string& line : one) {
    const json j = json::parse(line);
    EXPECT_EQ(j["status"], "ok") << line;
    if (j["disruption"]["evictedPods"].get<int>() > 0) evicting.insert(j["run"].get<int>());
  }
  EXPECT_FALSE(evicting.count(0)) << "today/none/default evicts nothing";
  EXPECT_GE(evicting.size(), 12u) << "the train Job and the overlays evict";
  std::vector<SweepSource> shards;
  for (int i = 0; i < 3; ++i) {
    std::string text;
    for (const std::string& line : RunAll(plan, SweepShard{3, i}, 2)) {
      EXPECT_EQ(json::parse(line)["run"].get<int>() % 3, i);
      text += line + "\n";
    }
    shards.push_back(SweepSource{"shard-" + std::to_string(i), text});
  }
  auto merged = MergeSweepLines({shards[2], shards[0], shards[1]});
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(*merged, one);
}

TEST(SweepRunTest, AShardReadsOnlyTheInputsOfItsRuns) {
  // Two inputs, a run each: shard 0 runs input a, shard 1 input b. The plan checks that both
  // exist but reads neither, so b removed after planning troubles shard 0 not at all, and shard 1
  // reads it then: its line is an error (a run of part of an input is no result), naming no path,
  // and its diagnostics name the file.
  TempDir dir;
  dir.Write("a.yaml", kCluster);
  const std::string b = dir.Write("b.yaml", kCluster);
  const std::string spec_path = dir.Write("s.yaml", std::string(kHead) + R"(spec:
  inputs: [{name: a, paths: [a.yaml]}, {name: b, paths: [b.yaml]}]
)");
  const SweepPlan plan = PlanOf(spec_path);
  ASSERT_EQ(plan.runs.size(), 2u);
  ASSERT_EQ(plan.input_paths.size(), 2u);
  fs::remove(b);
  std::vector<SweepLine> lines;
  for (int shard = 0; shard < 2; ++shard) {
    RunSweep(plan, SweepShard{2, shard}, 2, [&lines](const SweepRun&, const SweepLine& line) { lines.push_back(line); });
  }
  ASSERT_EQ(lines.size(), 2u);
  const json a = json::parse(lines[0].json);
  EXPECT_EQ(a["input"], "a");
  EXPECT_EQ(a["status"], "ok") << lines[0].json;
  EXPECT_EQ(a["pods"]["running"], 2) << lines[0].json;
  const json gone = json::parse(lines[1].json);
  EXPECT_EQ(gone["input"], "b");
  EXPECT_EQ(gone["status"], "error") << lines[1].json;
  EXPECT_THAT(gone["error"].get<std::string>(), HasSubstr("input b: a file of it cannot be read"));
  EXPECT_THAT(gone["error"].get<std::string>(), Not(HasSubstr(dir.path())));
  EXPECT_FALSE(lines[1].ok);
  EXPECT_THAT(::testing::PrintToString(lines[1].diagnostics), HasSubstr("b.yaml")) << lines[1].json;
}

TEST(SweepRunTest, AFileInsideAnInputDirectoryThatCannotBeReadIsADiagnostic) {
  // Only a path the spec names makes a run an error when it is gone: a file inside a named
  // directory that cannot be read (here a dangling symlink, which the reader skips with a
  // SkippedFile warning) is said and the rest runs, as `simulate dir/` does.
  TempDir dir;
  dir.Write("dump/c.yaml", kCluster);
  fs::create_symlink(dir.path() + "/nowhere.yaml", dir.path() + "/dump/gone.yaml");
  const std::string spec_path = dir.Write("s.yaml", std::string(kHead) + R"(spec:
  inputs: [{name: d, paths: [dump]}]
)");
  const SweepPlan plan = PlanOf(spec_path);
  std::vector<SweepLine> lines;
  RunSweep(plan, SweepShard{}, 1, [&lines](const SweepRun&, const SweepLine& line) { lines.push_back(line); });
  ASSERT_EQ(lines.size(), 1u);
  const json j = json::parse(lines[0].json);
  EXPECT_EQ(j["status"], "ok") << lines[0].json;
  EXPECT_EQ(j["pods"]["running"], 2) << lines[0].json;
  EXPECT_THAT(::testing::PrintToString(lines[0].diagnostics), HasSubstr("gone.yaml"));
}

TEST(SweepRunTest, AnInputIsReadOnceForAllItsRuns) {
  // Three runs of one input (three seeds). The file is removed once the first line is out: the
  // later runs use the read the first one made, so they run the whole input, not an empty one.
  TempDir dir;
  const std::string input = dir.Write("c.yaml", kCluster);
  const std::string spec_path = dir.Write("s.yaml", std::string(kHead) + R"(spec:
  inputs: [{name: c, paths: [c.yaml]}]
  seeds: [1, 2, 3]
)");
  const SweepPlan plan = PlanOf(spec_path);
  std::vector<std::string> lines;
  RunSweep(plan, SweepShard{}, 1, [&](const SweepRun&, const SweepLine& line) {
    lines.push_back(line.json);
    fs::remove(input);
  });
  ASSERT_EQ(lines.size(), 3u);
  for (const std::string& line : lines) {
    const json j = json::parse(line);
    EXPECT_EQ(j["status"], "ok") << line;
    EXPECT_EQ(j["pods"]["running"], 2) << line;
  }
}

TEST(SweepShardTest, FlagThenEnvironmentThenZero) {
  const std::string two = "2";
  auto flag = ResolveSweepShard(3, &two, "1");
  ASSERT_TRUE(flag.ok());
  EXPECT_EQ(flag->shard, 2);
  auto env = ResolveSweepShard(3, nullptr, "1");
  ASSERT_TRUE(env.ok());
  EXPECT_EQ(env->shard, 1);
  EXPECT_EQ(env->shards, 3);
  auto single = ResolveSweepShard(1, nullptr, nullptr);
  ASSERT_TRUE(single.ok());
  EXPECT_EQ(single->shard, 0);
  EXPECT_THAT(ResolveSweepShard(3, nullptr, nullptr).error().message, HasSubstr("needs the shard to run"));
  EXPECT_THAT(ResolveSweepShard(3, nullptr, "3").error().message, HasSubstr("JOB_COMPLETION_INDEX=\"3\""));
  EXPECT_THAT(ResolveSweepShard(3, nullptr, "x1").error().message, HasSubstr("JOB_COMPLETION_INDEX"));
  const std::string negative = "-1";
  EXPECT_THAT(ResolveSweepShard(3, &negative, nullptr).error().message, HasSubstr("--shard: \"-1\""));
  EXPECT_THAT(ResolveSweepShard(0, nullptr, nullptr).error().message, HasSubstr("--shards"));
  // Digits alone, as counts are read: from_chars alone took "-0" as shard 0.
  for (const std::string bad : {"-0", "+1", " 1", "1 ", "0x1", "1.0", ""}) {
    EXPECT_FALSE(ResolveSweepShard(3, &bad, nullptr).ok()) << '"' << bad << '"';
    EXPECT_FALSE(ResolveSweepShard(3, nullptr, bad.c_str()).ok()) << '"' << bad << '"';
  }
  const std::string leading_zero = "01";
  auto one = ResolveSweepShard(3, &leading_zero, nullptr);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->shard, 1);
}

std::string Line(int run, int runs) {
  return json{{"run", run}, {"runs", runs}, {"status", "ok"}}.dump();
}

TEST(SweepMergeTest, RefusesMissingDuplicateAndMalformedLines) {
  const std::string a = Line(0, 3) + "\n" + Line(2, 3) + "\n";
  const std::string b = Line(1, 3) + "\n";
  auto ok = MergeSweepLines({{"a", a}, {"b", b + "\n"}});
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(*ok, (std::vector<std::string>{Line(0, 3), Line(1, 3), Line(2, 3)}));
  EXPECT_THAT(MergeSweepLines({{"a", a}}).error().message, HasSubstr("missing run 1 of 3"));
  // The missing runs come from the gaps between the lines read (before, between, after them);
  // a line declaring a million runs costs what it holds, not a million slots.
  EXPECT_THAT(MergeSweepLines({{"a", Line(2, 6) + "\n" + Line(4, 6)}}).error().message,
              HasSubstr("missing runs 0, 1, 3, 5 of 6"));
  EXPECT_THAT(MergeSweepLines({{"a", Line(3, 1000000)}}).error().message,
              HasSubstr("missing runs 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, ... (999999 in all) of 1000000"));
  EXPECT_THAT(MergeSweepLines({{"a", a}, {"b", b}, {"c", "\n" + Line(2, 3)}}).error().message,
              HasSubstr("c:2: run 2 appears twice (first at a:2)"));
  EXPECT_THAT(MergeSweepLines({{"a", a}, {"b", "warning: x\n"}}).error().message, HasSubstr("b:1: not a kpsim sweep line"));
  EXPECT_THAT(MergeSweepLines({{"a", a}, {"b", Line(1, 3).substr(0, 12)}}).error().message,
              HasSubstr("b:1: not a kpsim sweep line: not JSON (a line cut short"));
  EXPECT_THAT(MergeSweepLines({{"a", a}, {"b", "{\"run\":1}"}}).error().message,
              HasSubstr("b:1: not a kpsim sweep line (a JSON object with \"run\" and \"runs\")"));
  EXPECT_THAT(MergeSweepLines({{"a", a}, {"b", Line(1, 4)}}).error().message, HasSubstr("b:1: \"runs\" is 4, but a:1 says 3"));
  EXPECT_THAT(MergeSweepLines({{"a", Line(5, 3)}}).error().message, HasSubstr("a:1: run 5 is out of range"));
  EXPECT_THAT(MergeSweepLines({{"a", ""}}).error().message, HasSubstr("no sweep lines in a"));
  EXPECT_EQ(MergeSweepLines({{"a", a}, {"b", b}, {"a", a}}).error().message, "a: given twice");
}

// Setup: a spec, the same spec written otherwise (flow style, another file name), and specs
// that each change one thing a run reads. Expect: one digest for the first two (16 hex digits),
// another for each change.
TEST(SweepSpecDigestTest, ChangesWithWhatTheRunsRead) {
  const std::string base = std::string(kHead) +
                           "spec:\n  inputs:\n  - name: a\n    paths: [c.yaml]\n  seeds: [1, 2]\n"
                           "  overlays:\n  - name: x\n    scale:\n    - {kind: Deployment, name: web, replicas: 3}\n"
                           "  settings: [\"until=10m\"]\n";
  const std::string digest = SweepSpecDigest(Parse(base));
  EXPECT_EQ(digest.size(), 16U);
  EXPECT_EQ(digest.find_first_not_of("0123456789abcdef"), std::string::npos) << digest;
  auto flow = io::ParseSweepSpec(
      "kind: Sweep\napiVersion: kpsim.io/v1alpha1\nmetadata:\n  name: t\nspec:\n  settings:\n  - until=10m\n"
      "  overlays: [{name: x, scale: [{replicas: 3, name: web, kind: Deployment}]}]\n  seeds:\n  - 1\n  - 2\n"
      "  inputs: [{paths: [c.yaml], name: a}]\n",
      "elsewhere/other.yaml");
  ASSERT_TRUE(flow.ok()) << flow.error().message;
  EXPECT_EQ(SweepSpecDigest(*flow), digest);
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"name: t", "name: u"}, {"c.yaml", "d.yaml"}, {"name: a", "name: b"}, {"[1, 2]", "[1, 3]"},
           {"name: x", "name: z"}, {"replicas: 3", "replicas: 4"}, {"Deployment", "StatefulSet"},
           {"until=10m", "until=1s"}}) {
    std::string changed = base;
    changed.replace(changed.find(from), from.size(), to);
    EXPECT_NE(SweepSpecDigest(Parse(changed)), digest) << from << " -> " << to;
  }
}

// Setup: shards whose lines carry different specDigests (and a line without one, as older
// kpsim wrote them). Expect: refused, naming both lines and both digests.
TEST(SweepMergeTest, RefusesLinesOfAnotherSpec) {
  const auto line = [](int run, const char* digest) {
    json j{{"run", run}, {"runs", 2}};
    if (digest != nullptr) j["specDigest"] = digest;
    return j.dump();
  };
  EXPECT_TRUE(MergeSweepLines({{"a", line(0, "00000000000000aa")}, {"b", line(1, "00000000000000aa")}}).ok());
  EXPECT_EQ(MergeSweepLines({{"a", line(0, "00000000000000aa")}, {"b", line(1, "00000000000000bb")}}).error().message,
            "b:1: \"specDigest\" is \"00000000000000bb\", but a:1 says \"00000000000000aa\": lines of different "
            "sweeps (their specs differ in a name, a path, an axis, an overlay or a setting)");
  EXPECT_THAT(MergeSweepLines({{"a", line(0, nullptr)}, {"b", line(1, "00000000000000bb")}}).error().message,
              HasSubstr("b:1: \"specDigest\" is \"00000000000000bb\", but a:1 says none"));
}

// Setup: n1 (8 CPU) runs web's 2 pods of 1 CPU; a template file pools/pool.yaml holds one Node
// "pool" of 4 CPU, named by the setting nodeTemplate=FILE (relative to the spec). The sweep runs
// scaleUp=true with web as it is and at 12 replicas. Expect: as it is, no node is added; at 12, the
// 4 pods n1 cannot hold take one pool node (4 CPU), nobody is evicted; the lines carry the scaleUp
// figures, the text a "new nodes" column, and --emit-job ships the template file.
TEST(SweepRunTest, ScaleUpSettingsReadTemplatesRelativeToTheSpec) {
  TempDir dir;
  dir.Write("c.yaml", kCluster);
  dir.Write("pools/pool.yaml", R"(apiVersion: v1
kind: Node
metadata: {name: pool}
status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
)");
  const std::string spec_path = dir.Write("specs/s.yaml", std::string(kHead) + R"(spec:
  inputs: [{name: base, paths: [../c.yaml]}]
  overlays:
  - name: none
  - name: web-x12
    scale: [{kind: Deployment, name: default/web, replicas: 12}]
  settings: ["scaleUp=true", "nodeTemplate=../pools/pool.yaml", "until=10m"]
)");
  const SweepPlan plan = PlanOf(spec_path);
  const std::vector<std::string> lines = RunAll(plan, SweepShard{}, 1);
  ASSERT_EQ(lines.size(), 2u);
  const json none = json::parse(lines[0]);
  const json grown = json::parse(lines[1]);
  ASSERT_EQ(none["status"], "ok") << lines[0];
  ASSERT_EQ(grown["status"], "ok") << lines[1];
  EXPECT_EQ(none["scaleUp"]["nodesAdded"], 0);
  EXPECT_EQ(grown["scaleUp"]["nodesAdded"], 1);
  EXPECT_EQ(grown["scaleUp"]["byTemplate"], json::parse(R"([{"template":"pool","nodes":1}])"));
  EXPECT_EQ(grown["scaleUp"]["podsNoTemplate"], 0);
  EXPECT_TRUE(grown["scaleUp"]["stop"].is_null());
  EXPECT_EQ(grown["disruption"]["evictedPods"], 0);
  EXPECT_EQ(grown["pods"]["running"], 12);
  auto text = RenderSweepText(lines);
  ASSERT_TRUE(text.ok());
  EXPECT_THAT(*text, HasSubstr("new nodes  status"));
  EXPECT_THAT(*text, HasSubstr("new nodes max"));
  // Each run's row ends in its new nodes and its status; each group's in its most new nodes.
  std::vector<std::string> rows;
  for (std::size_t at = 0, end; (end = text->find('\n', at)) != std::string::npos; at = end + 1) {
    rows.push_back(text->substr(at, end - at));
  }
  const auto row_of = [&rows](const std::string& start) {
    for (const std::string& r : rows) {
      if (r.starts_with(start)) return r;
    }
    return std::string();
  };
  EXPECT_THAT(row_of("  0  base"), testing::EndsWith("  0  ok"));
  EXPECT_THAT(row_of("  1  base"), testing::EndsWith("  1  ok"));
  EXPECT_THAT(row_of("base   web-x12"), testing::EndsWith("  1"));
  // A template file of no Node: the run's error names it as the spec does, not by the path opened
  // (a line depends on the spec and its files, not on the directory the sweep runs from).
  dir.Write("pools/empty.yaml", kExtraPod);
  const SweepPlan empty = PlanOf(dir.Write("specs/e.yaml", std::string(kHead) + R"(spec:
  inputs: [{name: base, paths: [../c.yaml]}]
  settings: ["scaleUp=true", "nodeTemplate=../pools/empty.yaml"]
)"));
  const json empty_line = json::parse(RunAll(empty, SweepShard{}, 1).at(0));
  EXPECT_EQ(empty_line["status"], "error");
  EXPECT_THAT(empty_line["error"].get<std::string>(), HasSubstr("no node templates (none in ../pools/empty.yaml)"));
  EXPECT_THAT(empty_line["error"].get<std::string>(), Not(HasSubstr(dir.path())));
  // A template file without scaleUp=true would be read by nothing; one that is not there. Both
  // are the spec's errors, by their setting.
  auto unread = io::ReadSweepSpec(dir.Write("specs/u.yaml", std::string(kHead) + R"(spec:
  inputs: [{name: base, paths: [../c.yaml]}]
  settings: ["until=10m", "nodeTemplate=../pools/pool.yaml"]
)"));
  ASSERT_TRUE(unread.ok());
  EXPECT_THAT(PlanSweep(*unread).error().message,
              HasSubstr("spec.settings[1]: nodeTemplate is read only by scale-up runs: add \"scaleUp=true\""));
  auto missing = io::ReadSweepSpec(dir.Write("specs/m.yaml", std::string(kHead) + R"(spec:
  inputs: [{name: base, paths: [../c.yaml]}]
  settings: ["scaleUp=true", "nodeTemplate=gone.yaml"]
)"));
  ASSERT_TRUE(missing.ok());
  auto refused = PlanSweep(*missing);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message,
              HasSubstr("spec.settings[1]: " + (fs::path(dir.path()) / "specs" / "gone.yaml").string() + ": no such file"));
  auto spec = io::ReadSweepSpec(spec_path);
  ASSERT_TRUE(spec.ok());
  SweepJobOptions options;
  options.image = "example.com/kpsim:1";
  options.shards = 2;
  auto yaml = EmitSweepJob(*spec, options);
  ASSERT_TRUE(yaml.ok()) << yaml.error().message;
  EXPECT_THAT(*yaml, HasSubstr("path: \"pools/pool.yaml\""));
  EXPECT_THAT(*yaml, HasSubstr("\"/sweep/specs/s.yaml\""));
}

TEST(SweepTextTest, ARowPerRunAndPerGroup) {
  const SweepPlan plan = PlanOf(kExampleSpec);
  std::vector<std::string> lines = RunAll(plan, SweepShard{}, 2);
  auto text = RenderSweepText(lines);
  ASSERT_TRUE(text.ok());
  EXPECT_THAT(*text, HasSubstr("Sweep: 24 runs shown of 24, 0 failed"));
  EXPECT_THAT(*text, HasSubstr("run  input"));
  EXPECT_THAT(*text, HasSubstr("By input, overlay, profile and gates"));
  EXPECT_THAT(*text, Not(HasSubstr("new nodes"))) << "no run scaled up";
  // 24 run rows and 12 group rows (each over 2 seeds), one header each.
  std::size_t with_train = 0;
  for (std::size_t at = text->find("with-train"); at != std::string::npos; at = text->find("with-train", at + 1)) ++with_train;
  EXPECT_EQ(with_train, 12u + 6u);
  EXPECT_FALSE(RenderSweepText({"nonsense"}).ok());
}

TEST(SweepJobTest, ConfigMapAndIndexedJob) {
  auto spec = io::ReadSweepSpec(kExampleSpec);
  ASSERT_TRUE(spec.ok());
  SweepJobOptions options;
  options.image = "example.com/kpsim:1";
  options.shards = 4;
  options.results_claim = "sweep-results";
  auto yaml = EmitSweepJob(*spec, options);
  ASSERT_TRUE(yaml.ok()) << yaml.error().message;
  for (const char* want : {"kind: ConfigMap", "name: kpsim-sweep-tiers", "completionMode: Indexed", "completions: 4",
                           "parallelism: 4", "restartPolicy: Never", "\"/sweep/sweep.yaml\"",
                           "\"/results/shard-$(JOB_COMPLETION_INDEX).jsonl\"", "claimName: \"sweep-results\"",
                           "path: \"cluster/batch.yaml\"", "path: \"train-job.yaml\""}) {
    EXPECT_THAT(*yaml, HasSubstr(want));
  }
  // Paths above the spec's directory keep their layout below /sweep.
  TempDir dir;
  dir.Write("c.yaml", kCluster);
  const std::string up = dir.Write("specs/s.yaml", std::string(kHead) + "spec:\n  inputs: [{name: a, paths: [../c.yaml]}]\n");
  auto up_spec = io::ReadSweepSpec(up);
  ASSERT_TRUE(up_spec.ok());
  auto up_yaml = EmitSweepJob(*up_spec, options);
  ASSERT_TRUE(up_yaml.ok()) << up_yaml.error().message;
  EXPECT_THAT(*up_yaml, HasSubstr("\"/sweep/specs/s.yaml\""));
  EXPECT_THAT(*up_yaml, HasSubstr("path: \"c.yaml\""));
  // Too big for a ConfigMap, or absolute: refused, saying what to do.
  dir.Write("big.yaml", "# " + std::string(1100000, 'x') + "\n");
  auto big = io::ReadSweepSpec(dir.Write("b.yaml", std::string(kHead) + "spec:\n  inputs: [{name: a, paths: [big.yaml]}]\n"));
  ASSERT_TRUE(big.ok());
  EXPECT_THAT(EmitSweepJob(*big, options).error().message, HasSubstr("bake them into the image"));
  auto absolute = io::ReadSweepSpec(
      dir.Write("a.yaml", std::string(kHead) + "spec:\n  inputs: [{name: a, paths: [" + dir.path() + "/c.yaml]}]\n"));
  ASSERT_TRUE(absolute.ok());
  EXPECT_THAT(EmitSweepJob(*absolute, options).error().message, HasSubstr("is absolute"));
}

// A Sweep among manifests (a directory input holding its spec) is skipped with a warning.
TEST(SweepReaderTest, ManifestReaderSkipsASweep) {
  const io::ReadResult read =
      io::ReadManifestText(std::string(kHead) + "spec:\n  inputs: [{name: a, paths: [.]}]\n---\n" + kExtraPod, "d.yaml");
  EXPECT_EQ(read.objects.size(), 1u);
  EXPECT_TRUE(read.ignored.empty());
  ASSERT_EQ(read.warnings.size(), 1u);
  EXPECT_EQ(read.warnings[0].code, "SweepSpec");
}

}  // namespace
}  // namespace kpsim::app
