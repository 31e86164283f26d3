// Dump shapes: directory walks (order, recursion, skipped entries, symlink loops), objects typed
// from their list or file name, and the kube-scheduler-simulator export. Trees under
// tests/io/data are checked in in the shapes the tools write.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kpsim/io.h"

namespace kpsim::io {
namespace {

namespace fs = std::filesystem;

const std::string kData = std::string(KPSIM_SOURCE_DIR) + "/tests/io/data";

std::vector<std::string> Names(const ReadResult& r) {
  std::vector<std::string> out;
  for (const Object& o : r.objects) {
    out.push_back(std::string(ObjectKindName(o.kind)) + " " + o.DisplayName());
  }
  return out;
}

std::vector<std::string> Codes(const ReadResult& r) {
  std::vector<std::string> out;
  for (const Warning& w : r.warnings) out.push_back(w.code + " " + w.source.file);
  return out;
}

int CountCode(const ReadResult& r, const std::string& code) {
  return static_cast<int>(std::count_if(r.warnings.begin(), r.warnings.end(),
                                        [&](const Warning& w) { return w.code == code; }));
}

std::string ErrorsText(const ReadResult& r) {
  std::string out;
  for (const DecodeError& e : r.errors) out += e.message + "\n";
  for (const Error& e : r.file_errors) out += e.message + "\n";
  return out;
}

// --- checked-in trees ----------------------------------------------------------------------

TEST(ReaderDumpTest, ClusterInfoDumpTreeReadsNodesThenNamespacesInNameOrder) {
  // Setup: `kubectl cluster-info dump --output-directory` layout: nodes.json at the top, one
  // directory per namespace with typed lists whose items lack kind, pod logs as logs.txt.
  // Expect: nodes first (top-level files before subdirectories), then default/ before
  // kube-system/ (bytewise); items typed from NodeList/PodList/ServiceList; Events ignored;
  // each logs.txt a SkippedFile warning; no errors.
  const ReadResult r = ReadManifests({kData + "/cluster-info-dump"});
  EXPECT_EQ(ErrorsText(r), "");
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Node node-1", "Node node-2", "Pod default/web-1",
                                                "Pod default/web-2",
                                                "Pod kube-system/coredns-5d78c9869d-abcde",
                                                "Service kube-system/kube-dns"}));
  std::vector<std::string> ignored;
  for (const IgnoredObject& i : r.ignored) ignored.push_back(i.kind + " " + i.name);
  EXPECT_EQ(ignored, (std::vector<std::string>{"Event default/web-2.17a"}));
  EXPECT_EQ(Codes(r),
            (std::vector<std::string>{
                "SkippedFile " + kData + "/cluster-info-dump/default/web-1/logs.txt",
                "SkippedFile " + kData +
                    "/cluster-info-dump/kube-system/coredns-5d78c9869d-abcde/logs.txt"}));
  EXPECT_EQ(r.objects[2].source.file, kData + "/cluster-info-dump/default/pods.json");
  EXPECT_EQ(r.objects[2].source.document, 1);
}

TEST(ReaderDumpTest, NoRecursiveReadsOnlyTheTopLevelAndSaysWhatItSkipped) {
  ReadOptions options;
  options.recursive = false;
  const ReadResult r = ReadManifests({kData + "/cluster-info-dump"}, options);
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Node node-1", "Node node-2"}));
  EXPECT_EQ(Codes(r), (std::vector<std::string>{
                          "SkippedDirectory " + kData + "/cluster-info-dump/default",
                          "SkippedDirectory " + kData + "/cluster-info-dump/kube-system"}));
}

TEST(ReaderDumpTest, SonobuoyTreeTypesKindlessArrayItemsFromCapitalisedFileNames) {
  // Setup: resources/cluster/{Nodes,PriorityClasses}.json and resources/ns/<ns>/Pods.json as
  // JSON arrays of objects without kind; meta/ holds a run log and the tool's own config.
  // Expect: every object typed from its file; cluster/ (classes) before ns/; the run log a
  // SkippedFile and the config a SkippedDocument, not an error.
  const ReadResult r = ReadManifests({kData + "/sonobuoy"});
  EXPECT_EQ(ErrorsText(r), "");
  EXPECT_EQ(Names(r),
            (std::vector<std::string>{"Node worker-1", "Node worker-2", "PriorityClass batch-low",
                                      "PriorityClass serving-high", "Pod batch/crunch-0",
                                      "Pod batch/crunch-1", "Pod prod/api-0"}));
  EXPECT_EQ(Codes(r), (std::vector<std::string>{
                          "SkippedDocument " + kData + "/sonobuoy/meta/config.json",
                          "SkippedFile " + kData + "/sonobuoy/meta/run.log"}));
}

// --- typing from the list or the file ------------------------------------------------------

TEST(ReaderTypingTest, KindlessObjectInAFileNamedAfterItsResourceTakesThatKind) {
  const ReadResult r = ReadManifestText(
      "metadata: {name: n1}\nstatus: {allocatable: {cpu: '1'}}\n", "dump/nodes.yaml");
  EXPECT_EQ(ErrorsText(r), "");
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Node n1"}));
}

TEST(ReaderTypingTest, ListKindWinsOverTheFileNameAndOwnKindWinsOverBoth) {
  // A NodeList in pods.json: its items are Nodes; an item with its own kind keeps it.
  const ReadResult r = ReadManifestText(
      R"({"kind": "NodeList", "apiVersion": "v1", "items": [{"metadata": {"name": "n1"}},
          {"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "ns1"}}]})",
      "pods.json");
  EXPECT_EQ(ErrorsText(r), "");
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Node n1", "Namespace ns1"}));
}

TEST(ReaderTypingTest, KindListItemsWithoutKindTakeTheFileKind) {
  const ReadResult r = ReadManifestText(
      R"({"kind": "List", "apiVersion": "v1", "items": [{"metadata": {"name": "p", "namespace": "a"},
          "spec": {"containers": [{"name": "c"}]}}]})",
      "a/pods.json");
  EXPECT_EQ(ErrorsText(r), "");
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Pod a/p"}));
}

TEST(ReaderTypingTest, ListWithoutKindIsReadAsAList) {
  // Some tools drop the List's own kind too: a map with `items` and no `spec`.
  const ReadResult r = ReadManifestText(
      R"({"metadata": {"resourceVersion": "1"}, "items": [{"metadata": {"name": "pc"}, "value": 7}]})",
      "priorityclasses.json");
  EXPECT_EQ(ErrorsText(r), "");
  EXPECT_EQ(Names(r), (std::vector<std::string>{"PriorityClass pc"}));
}

TEST(ReaderTypingTest, KindlessObjectsOfIgnoredResourcesAreListedAsIgnored) {
  const ReadResult r = ReadManifestText(
      R"({"kind": "List", "items": [{"metadata": {"name": "e1", "namespace": "default"}}]})",
      "default/events.json");
  EXPECT_EQ(ErrorsText(r), "");
  ASSERT_EQ(r.ignored.size(), 1u);
  EXPECT_EQ(r.ignored[0].kind, "Event");
  EXPECT_EQ(r.ignored[0].api_version, "v1");
}

TEST(ReaderTypingTest, KindlessObjectElsewhereIsRefusedWithAHint) {
  // pod.yaml (singular) is not a dump tool's name: ambiguous, refused.
  const ReadResult r = ReadManifestText("apiVersion: v1\nmetadata: {name: x}\n", "pod.yaml");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].field, "kind");
  EXPECT_NE(r.errors[0].message.find("Object 'Kind' is missing"), std::string::npos);
  EXPECT_NE(r.errors[0].message.find("pods.json"), std::string::npos) << r.errors[0].message;
}

TEST(ReaderTypingTest, StdinHasNoFileKind) {
  const ReadResult r = ReadManifestText("metadata: {name: x}\n", "-");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].field, "kind");
}

TEST(ReaderTypingTest, ListsNestedTooDeepAreRefused) {
  std::string text = R"({"kind": "Namespace", "metadata": {"name": "deep"}})";
  for (int i = 0; i < 40; ++i) text = R"({"kind": "List", "items": [)" + text + "]}";
  const ReadResult r = ReadManifestText(text, "deep.json");
  EXPECT_TRUE(r.objects.empty());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("nested more than 16 deep"), std::string::npos);
}

// --- kube-scheduler-simulator export ---------------------------------------------------------

TEST(ReaderExportTest, SimulatorExportReadsEachKeyAsItsKindInDependencyOrder) {
  // Setup: the export as the simulator writes it (keys in its struct order: pods, nodes, pvs,
  // pvcs, storageClasses, priorityClasses, schedulerConfig, namespaces; items without kind).
  // Expect: namespaces, priority classes, nodes, then pods (what pods refer to first); pvs,
  // pvcs and storageClasses counted in one NotModelled warning; the config read.
  const ReadResult r = ReadManifests({kData + "/simulator-export.json"});
  EXPECT_EQ(ErrorsText(r), "");
  EXPECT_EQ(Names(r),
            (std::vector<std::string>{"Namespace default", "PriorityClass unused",
                                      "Node sim-node-1", "Node sim-node-2", "Pod default/small-0",
                                      "Pod default/pending-0"}));
  ASSERT_GE(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].code, "NotModelled");
  EXPECT_NE(r.warnings[0].message.find("1 storageClasses, 1 pvs, 1 pvcs"), std::string::npos)
      << r.warnings[0].message;
  ASSERT_TRUE(r.scheduler_config.has_value());
  EXPECT_EQ(r.scheduler_config->percentage_of_nodes_to_score, 50);  // the profile's
  EXPECT_EQ(r.scheduler_config->min_candidate_nodes_percentage, 20);
  EXPECT_EQ(r.scheduler_config->min_candidate_nodes_absolute, 5);
  EXPECT_EQ(r.scheduler_config->pod_initial_backoff_seconds, 2);
  EXPECT_EQ(r.scheduler_config->pod_max_backoff_seconds, 20);
  EXPECT_EQ(CountCode(r, "ProfileNotModelled"), 1);       // batch-scheduler
  EXPECT_EQ(CountCode(r, "PluginsNotModelled"), 1);       // score.disabled ImageLocality
  EXPECT_EQ(CountCode(r, "PluginConfigNotModelled"), 1);  // InterPodAffinity args
}

TEST(ReaderExportTest, ExportErrorsNameTheKeyAndItem) {
  const ReadResult r = ReadManifestText(
      R"({"nodes": [{"metadata": {"name": "n1"}}, {"metadata": {"name": "n2"},
          "status": {"allocatable": {"cpu": "lots"}}}], "pods": []})",
      "export.json");
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Node n1"}));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_TRUE(r.errors[0].message.starts_with("export.json (nodes item 2): Node n2: "))
      << r.errors[0].message;
}

TEST(ReaderExportTest, YamlExportReadsToo) {
  const ReadResult r = ReadManifestText(R"(nodes:
- metadata: {name: n1}
pods:
- metadata: {name: p1}
  spec: {containers: [{name: c}]}
unknownKey: []
)",
                                        "export.yaml");
  EXPECT_EQ(ErrorsText(r), "");
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Node n1", "Pod default/p1"}));
  EXPECT_EQ(CountCode(r, "NotModelled"), 1);  // unknownKey
  EXPECT_EQ(r.objects[1].source.line, 4);
}

// --- directory walks (temporary trees) -----------------------------------------------------

class ReaderWalkTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kpsim_walk_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  static std::string Ns(const std::string& name) {
    return "kind: Namespace\nmetadata: {name: " + name + "}\n";
  }
  fs::path dir_;
};

TEST_F(ReaderWalkTest, DepthFirstFilesBeforeSubdirectoriesBytewise) {
  Write("b/x.yaml", Ns("b-x"));
  Write("a/z.yaml", Ns("a-z"));
  Write("a/sub/y.yaml", Ns("a-sub-y"));
  Write("a/m.yaml", Ns("a-m"));
  Write("Z.yaml", Ns("upper-z"));  // 'Z' < 'a' bytewise
  Write("top.yaml", Ns("top"));
  const ReadResult r = ReadManifests({dir_.string()});
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Namespace upper-z", "Namespace top",
                                                "Namespace a-m", "Namespace a-z",
                                                "Namespace a-sub-y", "Namespace b-x"}));
  EXPECT_TRUE(r.warnings.empty());
}

TEST_F(ReaderWalkTest, HiddenEntriesAreSkippedWithAWarning) {
  Write(".git/config.yaml", Ns("from-git"));
  Write(".hidden.yaml", Ns("hidden"));
  Write("ok.yaml", Ns("ok"));
  const ReadResult r = ReadManifests({dir_.string()});
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Namespace ok"}));
  EXPECT_EQ(Codes(r), (std::vector<std::string>{"SkippedDirectory " + (dir_ / ".git").string(),
                                                "SkippedFile " + (dir_ / ".hidden.yaml").string()}));
}

TEST_F(ReaderWalkTest, ManySkippedFilesAreOneWarningWithCounts) {
  for (int i = 0; i < 12; ++i) Write("pod-" + std::to_string(i) + "/logs.txt", "log\n");
  Write("pod-0/previous.log", "log\n");
  Write("nodes.yaml", "kind: Node\nmetadata: {name: n1}\n");
  const ReadResult r = ReadManifests({dir_.string()});
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Node n1"}));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].code, "SkippedFile");
  EXPECT_EQ(r.warnings[0].source.file, dir_.string());
  EXPECT_NE(r.warnings[0].message.find("13 entries"), std::string::npos) << r.warnings[0].message;
  EXPECT_NE(r.warnings[0].message.find(".log: 1, .txt: 12"), std::string::npos)
      << r.warnings[0].message;
}

TEST_F(ReaderWalkTest, DirectoryWithoutManifestsWarns) {
  Write("a/logs.txt", "x\n");
  const ReadResult r = ReadManifests({dir_.string()});
  EXPECT_TRUE(r.objects.empty());
  EXPECT_EQ(CountCode(r, "NoManifests"), 1);
  EXPECT_EQ(CountCode(r, "SkippedFile"), 1);
}

TEST_F(ReaderWalkTest, SymlinkLoopIsReadOnceAndEnds) {
  Write("a/ns.yaml", Ns("a"));
  std::error_code ec;
  fs::create_directory_symlink(dir_, dir_ / "a" / "loop", ec);  // a/loop -> the root
  if (ec) GTEST_SKIP() << "cannot create symlinks here: " << ec.message();
  fs::create_symlink(dir_ / "a" / "ns.yaml", dir_ / "a" / "same.yaml", ec);
  const ReadResult r = ReadManifests({dir_.string()});
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Namespace a"}));
  EXPECT_EQ(CountCode(r, "SkippedDirectory"), 1);  // the loop
  EXPECT_EQ(CountCode(r, "SkippedFile"), 1);       // same.yaml, the same file again
}

TEST_F(ReaderWalkTest, BrokenSymlinkIsAWarningNotAnError) {
  std::error_code ec;
  fs::create_symlink(dir_ / "nowhere.yaml", dir_ / "dangling.yaml", ec);
  if (ec) GTEST_SKIP() << "cannot create symlinks here: " << ec.message();
  Write("ok.yaml", Ns("ok"));
  const ReadResult r = ReadManifests({dir_.string()});
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Namespace ok"}));
  EXPECT_TRUE(r.file_errors.empty());
  EXPECT_EQ(CountCode(r, "SkippedFile"), 1);
}

TEST_F(ReaderWalkTest, SameTreeGivenTwiceIsReadOnce) {
  Write("ns.yaml", Ns("once"));
  const ReadResult r = ReadManifests({dir_.string(), dir_.string()});
  EXPECT_EQ(Names(r), (std::vector<std::string>{"Namespace once"}));
  EXPECT_EQ(CountCode(r, "SkippedDirectory"), 1);
}

}  // namespace
}  // namespace kpsim::io
