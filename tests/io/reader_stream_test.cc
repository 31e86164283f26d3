// Lists read item by item (manifest_tree.h's ItemStream): the parsers hand over each item of the
// root mapping's `items`, and the reader reads again without streaming whatever did not go as
// planned, so every input reads exactly as a whole-tree reading would.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "io/manifest_node.h"
#include "io/manifest_tree.h"
#include "kpsim/io.h"

namespace kpsim::io {
namespace {

using internal::ItemStream;
using internal::ParsedDocument;
using internal::Tree;
using internal::TreeView;

// The names (metadata.name) of the items an ItemStream was handed, and the documents parsed.
struct Streamed {
  std::vector<std::string> names;
  std::vector<int> lines;
  std::vector<ParsedDocument> docs;
  bool bailed = false;
};

std::string NameOf(const Tree& tree) {
  const std::optional<TreeView> meta = TreeView(tree, 0).Get("metadata");
  if (!meta) return "";
  const std::optional<TreeView> name = meta->Get("name");
  return name ? name->text() : "";
}

Streamed Stream(std::string_view text, bool json) {
  Streamed out;
  ItemStream items;
  items.plan = [](const Tree&, bool) { return true; };
  items.item = [&](const Tree& item) {
    out.names.push_back(NameOf(item));
    out.lines.push_back(TreeView(item, 0).line());
  };
  const auto f = [&](ParsedDocument&& d) { out.docs.push_back(std::move(d)); };
  if (json) {
    internal::ParseJsonStream(text, f, false, &items);
  } else {
    internal::ParseYamlDocuments(text, 0, f, &items);
  }
  out.bailed = items.bailed;
  return out;
}

std::vector<std::string> Names(const ReadResult& r) {
  std::vector<std::string> out;
  for (const Object& o : r.objects) out.push_back(o.DisplayName());
  return out;
}

TEST(ItemStreamTest, JsonItemsAreHandedOverOneByOneAndLeftOutOfTheTree) {
  // Setup: a kubectl List (kind after items, as kubectl sorts keys), one item per line.
  const Streamed s = Stream(
      "{\"apiVersion\":\"v1\",\"items\":[\n{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}},\n"
      "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"}}],\"kind\":\"List\"}",
      true);
  EXPECT_FALSE(s.bailed);
  EXPECT_EQ(s.names, (std::vector<std::string>{"n1", "n2"}));
  EXPECT_EQ(s.lines, (std::vector<int>{2, 3}));
  ASSERT_EQ(s.docs.size(), 1u);
  EXPECT_TRUE(s.docs[0].ok);
  EXPECT_TRUE(s.docs[0].streamed);
  const TreeView root(s.docs[0].tree, 0);
  ASSERT_TRUE(root.Get("items"));
  int children = 0;
  root.Get("items")->ForEachItem([&](int, const TreeView&) { ++children; });
  EXPECT_EQ(children, 0);
  EXPECT_EQ(root.Get("kind")->text(), "List");
}

TEST(ItemStreamTest, YamlItemsAreHandedOverOneByOne) {
  const Streamed s = Stream(
      "apiVersion: v1\nitems:\n- kind: Node\n  metadata: {name: n1}\n- kind: Node\n"
      "  metadata:\n    name: n2\nkind: List\n",
      false);
  EXPECT_FALSE(s.bailed);
  EXPECT_EQ(s.names, (std::vector<std::string>{"n1", "n2"}));
  EXPECT_EQ(s.lines, (std::vector<int>{3, 5}));
  ASSERT_EQ(s.docs.size(), 1u);
  EXPECT_TRUE(s.docs[0].streamed);
  EXPECT_EQ(TreeView(s.docs[0].tree, 0).Get("kind")->text(), "List");
}

TEST(ItemStreamTest, ParsersStopWhereStreamingCannotGoOn) {
  // A YAML alias may name an item already handed over; a duplicate key inside an item is
  // reported by the whole-tree reading, which names the object around it.
  EXPECT_TRUE(Stream("items:\n- &a {kind: Node}\n- *a\n", false).bailed);
  EXPECT_TRUE(Stream("items:\n- {kind: Node, kind: Pod}\n", false).bailed);
  EXPECT_TRUE(Stream("{\"items\":[{\"kind\":\"Node\",\"kind\":\"Pod\"}]}", true).bailed);
  // Nesting is still counted from the document's root.
  internal::ReadLimits limits;
  limits.max_depth = 4;
  const internal::ScopedReadLimits scoped(limits);
  const Streamed deep = Stream("{\"items\":[{\"a\":{\"b\":{\"c\":1}}}]}", true);
  ASSERT_FALSE(deep.docs.empty());
  EXPECT_FALSE(deep.docs.back().ok);
}

TEST(ReaderStreamTest, YamlTypedListWithKindAfterItemsTypesItsItems) {
  // kubectl sorts keys: `kind: PodList` comes after the items that lack kind.
  const ReadResult r = ReadManifestText(R"(apiVersion: v1
items:
- metadata: {name: p1, namespace: a}
  spec: {containers: [{name: c, image: i}]}
- metadata: {name: p2, namespace: a}
  spec: {containers: [{name: c, image: i}]}
kind: PodList
)",
                                        "c.yaml");
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0].message);
  EXPECT_EQ(Names(r), (std::vector<std::string>{"a/p1", "a/p2"}));
  EXPECT_EQ(r.objects[1].source.line, 5);
}

TEST(ReaderStreamTest, YamlListWhoseShapeIsKnownOnlyAtTheEndReadsAsAWhole) {
  // No kind, and `spec` after `items`: not a List (WalkObject's rule), so the items are not read
  // as objects; the one error names the missing kind.
  const ReadResult r = ReadManifestText(R"(apiVersion: v1
items:
- {kind: Node, metadata: {name: n1}}
spec: {}
)",
                                        "c.yaml");
  EXPECT_TRUE(r.objects.empty());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].field, "kind");
}

TEST(ReaderStreamTest, AnAliasBetweenItemsReadsAsWithoutStreaming) {
  const ReadResult r = ReadManifestText(R"(kind: List
items:
- &n {apiVersion: v1, kind: Node, metadata: {name: n1}}
- *n
)",
                                        "c.yaml");
  EXPECT_EQ(Names(r), (std::vector<std::string>{"n1", "n1"}));
}

TEST(ReaderStreamTest, AnErrorLateInAListKeepsNoneOfItsItems) {
  // As the whole-tree reading: a document with a syntax error or a duplicate key reads as
  // nothing but that error, even after valid items.
  for (const auto& [text, file] : std::vector<std::pair<std::string, std::string>>{
           {"{\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}},"
            "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\",\"name\":\"n3\"}}],\"kind\":\"List\"}",
            "c.json"},
           {"{\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}},"
            "{\"kind\":tru}],\"kind\":\"List\"}",
            "c.json"},
           {"items:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n- {kind: [}\nkind: List\n",
            "c.yaml"},
       }) {
    const ReadResult r = ReadManifestText(text, file);
    EXPECT_TRUE(r.objects.empty()) << text;
    EXPECT_EQ(r.file_errors.size(), 1u) << text;
  }
}

TEST(ReaderStreamTest, JsonStreamOfListsNumbersDocumentsAndLines) {
  const ReadResult r = ReadManifestText(
      "{\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}],"
      "\"kind\":\"List\"}\n"
      "{\"items\":[\n{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"}}],"
      "\"kind\":\"List\"}\n",
      "c.json");
  ASSERT_EQ(Names(r), (std::vector<std::string>{"n1", "n2"}));
  EXPECT_EQ(r.objects[0].source.document, 1);
  EXPECT_EQ(r.objects[0].source.line, 1);
  EXPECT_EQ(r.objects[1].source.document, 2);
  EXPECT_EQ(r.objects[1].source.line, 3);
  // One List alone: items numbered.
  const ReadResult one = ReadManifestText(
      "{\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}},"
      "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"}}],"
      "\"kind\":\"NodeList\"}",
      "c.json");
  ASSERT_EQ(Names(one), (std::vector<std::string>{"n1", "n2"}));
  EXPECT_EQ(one.objects[1].source.document, 2);
  EXPECT_EQ(one.objects[1].source.line, 0);
}

}  // namespace
}  // namespace kpsim::io
