// The reader's safety limits and the parsers behind it (manifest_tree.h): duplicate keys, nesting
// depth, self-containing anchors, alias expansion, int64 overflow, the input size cap, NUL
// bytes, several JSON documents in one stream, and YAML 1.1 scalar typing and line numbers.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/manifest_node.h"
#include "io/manifest_tree.h"
#include "kpsim/io.h"

namespace kpsim::io {
namespace {

using internal::NodeType;
using internal::ParsedDocument;
using internal::ScalarType;
using internal::TreeView;

std::string Messages(const ReadResult& r) {
  std::string out;
  for (const auto& e : r.file_errors) out += e.message + "\n";
  for (const auto& e : r.errors) out += e.message + "\n";
  return out;
}

// --- Duplicate keys ---------------------------------------------------------------------------

TEST(ReaderSafetyTest, YamlDuplicateKeyIsRefusedWithKubectlWordingAndOtherDocumentsRead) {
  // Setup: document 2 repeats `app` in a pod's labels (lines 7 and 9).
  const ReadResult r = ReadManifestText(R"(kind: Namespace
metadata: {name: before}
---
kind: Pod
metadata:
  labels:
    app: a
    tier: b
    app: c
  name: web
  namespace: shop
---
kind: Namespace
metadata: {name: after}
)",
                                        "dup.yaml");
  ASSERT_EQ(r.file_errors.size(), 1u) << Messages(r);
  const Error& e = r.file_errors[0];
  EXPECT_EQ(e.document, 2);
  EXPECT_EQ(e.line, 9);
  EXPECT_EQ(e.message,
            "dup.yaml:9 (document 2): Pod shop/web: metadata.labels: mapping key \"app\" already "
            "defined at line 7");
  ASSERT_EQ(r.objects.size(), 2u);
  EXPECT_EQ(r.objects[0].meta().name, "before");
  EXPECT_EQ(r.objects[1].meta().name, "after");
}

TEST(ReaderSafetyTest, YamlDuplicateInsideAListItemNamesTheItem) {
  const ReadResult r = ReadManifestText(
      "kind: List\nitems:\n- kind: Node\n  metadata: {name: n1}\n- kind: Pod\n  metadata: {name: "
      "p}\n  spec:\n    containers:\n    - name: a\n      name: b\n",
      "l.yaml");
  ASSERT_EQ(r.file_errors.size(), 1u) << Messages(r);
  EXPECT_EQ(r.file_errors[0].message,
            "l.yaml:10 (document 1): Pod p: spec.containers[0]: mapping key \"name\" already "
            "defined at line 9");
}

TEST(ReaderSafetyTest, YamlDuplicateInALargeMapIsFound) {
  std::string text = "kind: Node\nmetadata:\n  name: n\n  labels:\n";
  for (int i = 0; i < 40; ++i) text += "    k" + std::to_string(i) + ": v\n";
  text += "    k17: again\n";
  const ReadResult r = ReadManifestText(text, "big.yaml");
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_NE(r.file_errors[0].message.find("mapping key \"k17\" already defined at line 22"),
            std::string::npos)
      << r.file_errors[0].message;
  EXPECT_EQ(r.file_errors[0].line, 45);
}

TEST(ReaderSafetyTest, JsonDuplicateFieldIsRefusedWithApiServerWording) {
  const ReadResult r = ReadManifestText(
      "{\"kind\": \"Pod\",\n \"metadata\": {\"name\": \"p\", \"namespace\": \"n\"},\n \"spec\": "
      "{\"priority\": 1,\n  \"priority\": 2}}\n",
      "p.json");
  ASSERT_EQ(r.file_errors.size(), 1u) << Messages(r);
  EXPECT_EQ(r.file_errors[0].line, 4);
  EXPECT_EQ(r.file_errors[0].message, "p.json:4: Pod n/p: spec: duplicate field \"priority\"");
  EXPECT_TRUE(r.objects.empty());
}

// --- Depth, anchors, aliases ------------------------------------------------------------------

TEST(ReaderSafetyTest, ListsNestedThousandsDeepAreRefusedNotOverflowed) {
  std::string yaml = "kind: List\nitems:\n- ";  // a text starting with `{` reads as JSON
  std::string json;
  for (int i = 0; i < 5000; ++i) {
    yaml += "{kind: List, items: [";
    json += R"({"kind": "List", "items": [)";
  }
  for (int i = 0; i < 5000; ++i) {
    yaml += "]}";
    json += "]}";
  }
  for (const auto& [text, file] : {std::pair{yaml, "deep.yaml"}, std::pair{json, "deep.json"}}) {
    const ReadResult r = ReadManifestText(text, file);
    ASSERT_EQ(r.file_errors.size(), 1u) << file;
    EXPECT_NE(r.file_errors[0].message.find("nesting is deeper than 200 levels"),
              std::string::npos)
        << r.file_errors[0].message;
    EXPECT_EQ(r.file_errors[0].line, file == std::string("deep.yaml") ? 3 : 1);
  }
}

TEST(ReaderSafetyTest, DepthLimitIsOverridable) {
  internal::ReadLimits limits;
  limits.max_depth = 3;
  internal::ScopedReadLimits scoped(limits);
  EXPECT_TRUE(ReadManifestText("kind: Namespace\nmetadata: {name: a}\n", "a.yaml")
                  .file_errors.empty());
  const ReadResult r = ReadManifestText("kind: Namespace\nmetadata: {labels: {a: [1]}}\n", "b.yaml");
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_NE(r.file_errors[0].message.find("deeper than 3 levels"), std::string::npos);
}

TEST(ReaderSafetyTest, ListContainingItselfThroughAnAnchorIsRefused) {
  for (const char* text :
       {"&a {kind: List, items: [*a]}\n", "kind: List\nitems: &a\n- {kind: List, items: *a}\n"}) {
    const ReadResult r = ReadManifestText(text, "self.yaml");
    ASSERT_EQ(r.file_errors.size(), 1u) << text;
    EXPECT_NE(r.file_errors[0].message.find("anchor \"a\" value contains itself"),
              std::string::npos)
        << r.file_errors[0].message;
    EXPECT_TRUE(r.objects.empty());
  }
}

TEST(ReaderSafetyTest, UnknownAliasIsRefused) {
  const ReadResult r = ReadManifestText("kind: Namespace\nmetadata: *nope\n", "u.yaml");
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_EQ(r.file_errors[0].line, 2);
  EXPECT_NE(r.file_errors[0].message.find("unknown anchor \"nope\" referenced"), std::string::npos);
}

TEST(ReaderSafetyTest, BillionLaughsIsRefused) {
  // Setup: nine levels of ten aliases each: 10^9 nodes from ten lines.
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 9; ++i) {
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) text += (j > 0 ? ", *a" : "*a") + std::to_string(i - 1);
    text += "]\n";
  }
  const ReadResult r = ReadManifestText(text, "lol.yaml");
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_NE(r.file_errors[0].message.find("document contains excessive aliasing: aliases expand "
                                          "to more than 1000000 nodes"),
            std::string::npos)
      << r.file_errors[0].message;
}

TEST(ReaderSafetyTest, OrdinaryAliasesReadAsTheirAnchor) {
  const ReadResult r = ReadManifestText(R"(kind: List
items:
- kind: Node
  metadata: {name: n1, labels: &l {zone: a}}
  status: {allocatable: &cap {cpu: "4", pods: "10"}}
- kind: Node
  metadata: {name: n2, labels: *l}
  status: {allocatable: *cap}
)",
                                        "alias.yaml");
  ASSERT_TRUE(r.file_errors.empty()) << Messages(r);
  ASSERT_TRUE(r.errors.empty()) << Messages(r);
  ASSERT_EQ(r.objects.size(), 2u);
  const auto& n2 = std::get<Node>(r.objects[1].value);
  ASSERT_EQ(n2.meta.labels.size(), 1u);
  EXPECT_EQ(n2.meta.labels[0].second, "a");
  EXPECT_EQ(r.objects[1].source.line, 6);
}

// --- Numbers ----------------------------------------------------------------------------------

TEST(ReaderSafetyTest, IntegersBeyondInt64AreOutOfRange) {
  const ReadResult y = ReadManifestText(
      "kind: Pod\nmetadata: {name: p}\nspec: {terminationGracePeriodSeconds: "
      "99999999999999999999}\n",
      "p.yaml");
  ASSERT_EQ(y.errors.size(), 1u) << Messages(y);
  EXPECT_NE(y.errors[0].message.find("spec.terminationGracePeriodSeconds: the number "
                                     "99999999999999999999 is out of range"),
            std::string::npos)
      << y.errors[0].message;
  const ReadResult j = ReadManifestText(
      R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"priority": -99999999999999999999}})",
      "p.json");
  ASSERT_EQ(j.errors.size(), 1u) << Messages(j);
  EXPECT_NE(j.errors[0].message.find("is out of range"), std::string::npos) << j.errors[0].message;
}

// --- Input size and bytes ---------------------------------------------------------------------

class ReaderFileSafetyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kpsim_safety_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::filesystem::path dir_;
};

TEST_F(ReaderFileSafetyTest, InputsPastTheSizeCapAreRefused) {
  internal::ReadLimits limits;
  limits.max_input_bytes = 64;
  internal::ScopedReadLimits scoped(limits);
  const std::string small = Write("small.yaml", "kind: Namespace\nmetadata: {name: a}\n");
  std::string big_text = "kind: Namespace\nmetadata: {name: a}\n";
  big_text += std::string(100, '#');
  const std::string big = Write("big.yaml", big_text);
  const ReadResult r = ReadManifests({small, big});
  EXPECT_EQ(r.objects.size(), 1u);
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_EQ(r.file_errors[0].file, big);
  EXPECT_EQ(r.file_errors[0].message,
            big + ": input is larger than 64 bytes, the most kpsim reads from one file or stdin "
                  "(split it into several files, or raise --max-input-size)");
}

TEST_F(ReaderFileSafetyTest, DevZeroStopsAtItsFirstByte) {
  // /dev/zero never ends (and has no size); its first NUL byte ends the read at once.
  const ReadResult r = ReadManifests({"/dev/zero"});
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_EQ(r.file_errors[0].message,
            "/dev/zero: byte 1 is a NUL character: not a YAML or JSON text");
}

TEST_F(ReaderFileSafetyTest, DefaultCapIsOneGiB) {
  EXPECT_EQ(internal::Limits().max_input_bytes, std::size_t{1} << 30);
}

// --- JSON streams -----------------------------------------------------------------------------

TEST(ReaderSafetyTest, ConcatenatedJsonDocumentsReadOneAfterAnother) {
  // Setup: what `kubectl cluster-info dump` prints: Lists and objects, whitespace between.
  const ReadResult r = ReadManifestText(R"({
    "kind": "NodeList",
    "apiVersion": "v1",
    "items": [
        {"metadata": {"name": "n1"}}
    ]
}
{
    "kind": "PodList",
    "apiVersion": "v1",
    "items": [
        {"metadata": {"name": "ok", "namespace": "a"}},
        {"metadata": {"name": "bad", "namespace": "a"}, "spec": {"priority": "high"}}
    ]
}   {"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "third"}}
)",
                                        "dump.json");
  ASSERT_TRUE(r.file_errors.empty()) << Messages(r);
  ASSERT_EQ(r.objects.size(), 3u) << Messages(r);
  EXPECT_EQ(r.objects[0].source.document, 1);
  EXPECT_EQ(r.objects[0].source.line, 5);
  EXPECT_EQ(r.objects[1].source.document, 2);
  EXPECT_EQ(r.objects[1].source.line, 12);
  EXPECT_EQ(r.objects[2].meta().name, "third");
  EXPECT_EQ(r.objects[2].source.document, 3);
  EXPECT_EQ(r.objects[2].source.line, 15);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message,
            "dump.json:13 (document 2): Pod a/bad: spec.priority: expected an integer, got a "
            "string");
}

TEST(ReaderSafetyTest, ASyntaxErrorInALaterJsonDocumentKeepsTheEarlierOnes) {
  const ReadResult r = ReadManifestText(
      "{\"kind\": \"Namespace\", \"metadata\": {\"name\": \"a\"}}\n"
      "{\"kind\": \"Namespace\", \"metadata\": {\"name\": \"b\"}}\n"
      "{\"kind\": \"Namespace\",\n \"metadata\": {\"name\": }}\n",
      "s.json");
  ASSERT_EQ(r.objects.size(), 2u) << Messages(r);
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_EQ(r.file_errors[0].document, 3);
  EXPECT_EQ(r.file_errors[0].line, 4);
  EXPECT_TRUE(r.file_errors[0].message.starts_with("s.json:4 (document 3): JSON syntax error: "))
      << r.file_errors[0].message;
}

TEST(ReaderSafetyTest, TruncatedJsonIsASyntaxError) {
  const ReadResult r = ReadManifestText("{\"kind\": \"Namespace\"}\n{\"kind\": ", "t.json");
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_NE(r.file_errors[0].message.find("JSON syntax error"), std::string::npos);
}

// --- YAML typing and lines (the tree behind the views) ----------------------------------------

std::vector<ParsedDocument> Yaml(std::string_view text) {
  std::vector<ParsedDocument> docs;
  internal::ParseYamlDocuments(text, 0, [&](ParsedDocument&& d) { docs.push_back(std::move(d)); });
  return docs;
}

TEST(ReaderSafetyTest, YamlScalarsAreTypedAsGoYamlV2Does) {
  const auto docs = Yaml(
      "a: yes\nb: 0x1F\nc: \"100\"\nd: 1.5\ne: ~\nf: 'no'\ng: !!str 7\nh: 12Mi\ni: -.inf\nj:\n");
  ASSERT_EQ(docs.size(), 1u);
  ASSERT_TRUE(docs[0].ok) << docs[0].error.message;
  const TreeView root(docs[0].tree, 0);
  const auto get = [&](const char* k) { return *root.Get(k); };
  EXPECT_EQ(get("a").scalar_type(), ScalarType::kBool);
  EXPECT_EQ(get("a").AsBool(), true);
  EXPECT_EQ(get("b").AsInt(), 31);
  EXPECT_EQ(get("c").scalar_type(), ScalarType::kString);
  EXPECT_EQ(get("c").AsInt(), std::nullopt);
  EXPECT_EQ(get("d").scalar_type(), ScalarType::kFloat);
  EXPECT_EQ(get("e").type(), NodeType::kNull);
  EXPECT_EQ(get("f").scalar_type(), ScalarType::kString);
  EXPECT_EQ(get("g").scalar_type(), ScalarType::kString);
  EXPECT_EQ(get("h").scalar_type(), ScalarType::kString);
  EXPECT_EQ(get("i").scalar_type(), ScalarType::kFloat);
  EXPECT_EQ(get("j").type(), NodeType::kNull);
  EXPECT_EQ(get("j").line(), 10);
  EXPECT_TRUE(root.is_yaml());
}

TEST(ReaderSafetyTest, YamlLinesAreExactForBlockScalarsAndFolds) {
  const auto docs = Yaml(
      "metadata:\n  annotations:\n    a: |\n      one\n      two\n    b: folded words\n      "
      "continue here\n    c: x\n");
  ASSERT_EQ(docs.size(), 1u);
  const TreeView ann = *(*TreeView(docs[0].tree, 0).Get("metadata")).Get("annotations");
  EXPECT_EQ(ann.line(), 3);
  EXPECT_EQ(ann.Get("a")->text(), "one\ntwo\n");
  EXPECT_EQ(ann.Get("b")->text(), "folded words continue here");
  EXPECT_EQ(ann.Get("b")->line(), 6);
  EXPECT_EQ(ann.Get("c")->line(), 8);
}

}  // namespace
}  // namespace kpsim::io

namespace kpsim::io {
namespace {

TEST(ReaderSafetyTest, JsonEscapesAreUnescaped) {
  const ReadResult r = ReadManifestText(
      R"({"kind": "Namespace", "metadata": {"name": "n", "labels": {"k\"ey": "a\\b\/\u00e9\ud83d\ude00\n"}}})",
      "e.json");
  ASSERT_TRUE(r.file_errors.empty()) << Messages(r);
  ASSERT_EQ(r.objects.size(), 1u) << Messages(r);
  const auto& labels = std::get<Namespace>(r.objects[0].value).meta.labels;
  ASSERT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels[0].first, "k\"ey");
  EXPECT_EQ(labels[0].second, "a\\b/\xc3\xa9\xf0\x9f\x98\x80\n");
  for (const char* bad : {R"({"a": "\q"})", R"({"a": "\ud83d"})", "{\"a\": \"x\ty\"}"}) {
    EXPECT_EQ(ReadManifestText(bad, "b.json").file_errors.size(), 1u) << bad;
  }
}

}  // namespace
}  // namespace kpsim::io
