// Multi-document YAML, Lists and typed lists, JSON arrays, directories and stdin.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "kpsim/io.h"

namespace kpsim::io {
namespace {

std::vector<std::string> Names(const ReadResult& r) {
  std::vector<std::string> out;
  for (const Object& o : r.objects) out.push_back(o.DisplayName());
  return out;
}

TEST(ReaderMultiDocTest, DecodesDocumentsInOrderAndSkipsEmptyOnes) {
  // Setup: a leading comment, an empty document, a null document in the middle.
  // Expect: both objects, numbered by document, with file line numbers.
  const ReadResult r = ReadManifestText(R"(# cluster
---
kind: Node
metadata: {name: n1}
---
---
~
---
kind: Pod
metadata: {name: p1, namespace: a}
...
)",
                                        "c.yaml");
  ASSERT_TRUE(r.errors.empty());
  ASSERT_TRUE(r.file_errors.empty());
  EXPECT_EQ(Names(r), (std::vector<std::string>{"n1", "a/p1"}));
  EXPECT_EQ(r.objects[0].source.document, 1);
  EXPECT_EQ(r.objects[0].source.line, 3);
  EXPECT_EQ(r.objects[1].source.document, 4);
  EXPECT_EQ(r.objects[1].source.line, 9);
}

TEST(ReaderListTest, KindListItemsCarryTheirOwnKinds) {
  const ReadResult r = ReadManifestText(R"(
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
- apiVersion: v1
  kind: Pod
  metadata: {name: p1, namespace: default}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: d}
)",
                                        "list.yaml");
  ASSERT_TRUE(r.errors.empty());
  EXPECT_EQ(Names(r), (std::vector<std::string>{"n1", "default/p1"}));
  EXPECT_EQ(r.objects[0].source.line, 5);
  EXPECT_EQ(r.objects[1].source.line, 8);
  ASSERT_EQ(r.ignored.size(), 1u);
  EXPECT_EQ(r.ignored[0].kind, "ConfigMap");
}

TEST(ReaderListTest, TypedListItemsTakeTheirKindFromTheList) {
  const ReadResult r = ReadManifestText(R"(
apiVersion: v1
kind: PodList
items:
- metadata: {name: p1, namespace: x}
- metadata: {name: p2, namespace: x}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroupList
items:
- metadata: {name: g, namespace: x}
)",
                                        "pods.yaml");
  ASSERT_TRUE(r.errors.empty());
  ASSERT_EQ(r.objects.size(), 3u);
  EXPECT_EQ(r.objects[0].kind, ObjectKind::kPod);
  EXPECT_EQ(r.objects[1].kind, ObjectKind::kPod);
  EXPECT_EQ(r.objects[2].kind, ObjectKind::kPodGroup);  // apiVersion inherited from the list
  EXPECT_EQ(r.objects[2].source.document, 2);
}

TEST(ReaderListTest, JsonListItemsAreNumberedByIndex) {
  const ReadResult r = ReadManifestText(R"({
  "apiVersion": "v1", "kind": "List",
  "items": [
    {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
     "status": {"allocatable": {"cpu": "4", "memory": "32Gi", "pods": "110"}}},
    {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p1", "namespace": "default"}}
  ]
})",
                                        "list.json");
  ASSERT_TRUE(r.errors.empty());
  ASSERT_EQ(r.objects.size(), 2u);
  EXPECT_EQ(r.objects[0].source.document, 1);
  EXPECT_EQ(r.objects[1].source.document, 2);
  EXPECT_EQ(r.objects[1].source.ToString(), "list.json (item 2)");
  EXPECT_EQ(std::get<Node>(r.objects[0].value).allocatable.pods, 110);
}

TEST(ReaderListTest, JsonTypedNodeList) {
  const ReadResult r = ReadManifestText(
      R"({"kind": "NodeList", "apiVersion": "v1", "items": [{"metadata": {"name": "a"}},
          {"metadata": {"name": "b"}}]})",
      "nodes.txt");  // detected as JSON by its first character
  EXPECT_EQ(Names(r), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.objects[1].kind, ObjectKind::kNode);
}

TEST(ReaderListTest, JsonArrayIsTreatedAsItems) {
  const ReadResult r = ReadManifestText(
      R"([{"kind": "Namespace", "metadata": {"name": "a"}}, {"kind": "Namespace",
          "metadata": {"name": "b"}}])",
      "ns.json");
  EXPECT_EQ(Names(r), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.objects[1].source.document, 2);
}

TEST(ReaderListTest, EmptyItemsIsNothing) {
  const ReadResult r =
      ReadManifestText("kind: List\nitems: []\n---\nkind: PodList\nitems:\n", "e.yaml");
  EXPECT_TRUE(r.objects.empty());
  EXPECT_TRUE(r.errors.empty());
  EXPECT_TRUE(r.ignored.empty());
}

class ReaderFilesTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kpsim_reader_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  std::filesystem::path dir_;
};

TEST_F(ReaderFilesTest, DirectoryWithoutRecursionReadsItsManifestFilesInNameOrder) {
  Write("b.yml", "kind: Namespace\nmetadata: {name: b}\n");
  Write("a.yaml", "kind: Namespace\nmetadata: {name: a}\n");
  Write("c.json", R"({"kind": "Namespace", "metadata": {"name": "c"}})");
  Write("notes.txt", "kind: Namespace\nmetadata: {name: txt}\n");
  std::filesystem::create_directories(dir_ / "sub");
  Write("sub/d.yaml", "kind: Namespace\nmetadata: {name: d}\n");
  ReadOptions options;
  options.recursive = false;
  const ReadResult r = ReadManifests({dir_.string()}, options);
  ASSERT_TRUE(r.file_errors.empty());
  EXPECT_EQ(Names(r), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(r.objects[0].source.file, (dir_ / "a.yaml").string());
}

TEST_F(ReaderFilesTest, PathsAreReadInTheOrderGiven) {
  const std::string second = Write("2.yaml", "kind: Namespace\nmetadata: {name: two}\n");
  const std::string first = Write("1.yaml", "kind: Namespace\nmetadata: {name: one}\n");
  const ReadResult r = ReadManifests({second, first});
  EXPECT_EQ(Names(r), (std::vector<std::string>{"two", "one"}));
}

TEST_F(ReaderFilesTest, JsonExtensionSelectsJsonEvenWithLeadingComment) {
  // A .json file is parsed as JSON, so YAML-only syntax is a JSON syntax error.
  const std::string path = Write("x.json", "kind: Namespace\n");
  const ReadResult r = ReadManifests({path});
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_NE(r.file_errors[0].message.find("JSON syntax error"), std::string::npos);
}

TEST(ReaderStdinTest, DashReadsStandardInput) {
  std::istringstream input("kind: Namespace\nmetadata: {name: from-stdin}\n");
  std::streambuf* saved = std::cin.rdbuf(input.rdbuf());
  const ReadResult r = ReadManifests({"-"});
  std::cin.rdbuf(saved);
  ASSERT_EQ(r.objects.size(), 1u);
  EXPECT_EQ(r.objects[0].meta().name, "from-stdin");
  EXPECT_EQ(r.objects[0].source.file, "-");
}

}  // namespace
}  // namespace kpsim::io

namespace kpsim::io {
namespace {

TEST(ReadManifestTextsTest, SeveralTextsAreOneInputInOrderEachNamedInMessages) {
  // Setup: kpsim serve's uploads: a typed list without item kinds in a file named pods.json, a
  // YAML file with a broken document, and a text past the size cap.
  ReadOptions options;
  options.max_input_bytes = 400;
  const std::vector<NamedText> texts = {
      {"nodes.yaml", "kind: Node\nmetadata: {name: n1}\n"},
      {"pods.json", R"({"items": [{"metadata": {"name": "p1", "namespace": "a"}}]})"},
      {"bad.yaml", "kind: Pod\nmetadata: [x\n"},
      {"huge.yaml", std::string(500, '#')},
  };
  const ReadResult r = ReadManifestTexts(texts, options);
  ASSERT_EQ(r.objects.size(), 2U);
  EXPECT_EQ(r.objects[0].DisplayName(), "n1");
  EXPECT_EQ(r.objects[1].DisplayName(), "a/p1");
  EXPECT_EQ(r.objects[1].source.file, "pods.json");
  ASSERT_EQ(r.file_errors.size(), 2U);
  EXPECT_EQ(r.file_errors[0].file, "bad.yaml");
  EXPECT_EQ(r.file_errors[1].file, "huge.yaml");
  EXPECT_NE(r.file_errors[1].message.find("larger than 400 bytes"), std::string::npos) << r.file_errors[1].message;
}

}  // namespace
}  // namespace kpsim::io
