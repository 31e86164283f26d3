#pragma once

// The parsed form of one YAML or JSON document: a compact, read-only tree (nodes in one vector,
// strings in one arena) that both parsers build and manifest_node.h's `TreeView` reads.
//
//   YAML  libyaml's event parser (ParseYamlDocuments), YAML 1.1 scalar typing as go-yaml v2.
//   JSON  simdjson's On-Demand parser (ParseJsonStream), several documents in one stream.
//
// Both refuse, with a message and the offending line (kubectl/API server wording where there is
// one): a duplicate key in a mapping, nesting deeper than `Limits().max_depth`, and for YAML an
// alias whose anchor contains it or aliases that expand past `Limits().max_alias_nodes` nodes.
// Every limit lives in `ReadLimits` (one place, documented in the README).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kpsim::io::internal {

enum class NodeType : std::uint8_t { kNull, kScalar, kMap, kSeq };
enum class ScalarType : std::uint8_t { kString, kInt, kFloat, kBool };

// The reader's limits, per thread; tests and ReadOptions may change them (`ScopedReadLimits`).
struct ReadLimits {
  // Bytes read from one input (file or stdin) before it is refused; read in 1 MiB chunks, so
  // nothing is allocated past it.
  std::size_t max_input_bytes = std::size_t{1} << 30;  // 1 GiB
  // Nesting of mappings and sequences in one document (aliases count as the node they name).
  // Kubernetes objects nest about 20 deep; a `List` level costs two.
  int max_depth = 200;
  // Nodes that aliases may add to one document when expanded (go-yaml refuses "excessive
  // aliasing" too); a document's own nodes are bounded by max_input_bytes.
  std::uint64_t max_alias_nodes = 1'000'000;
};
ReadLimits& Limits();

// Sets `Limits()` for its lifetime (tests).
class ScopedReadLimits {
 public:
  explicit ScopedReadLimits(const ReadLimits& limits) : saved_(Limits()) { Limits() = limits; }
  ~ScopedReadLimits() { Limits() = saved_; }
  ScopedReadLimits(const ScopedReadLimits&) = delete;
  ScopedReadLimits& operator=(const ScopedReadLimits&) = delete;

 private:
  ReadLimits saved_;
};

struct TreeNode {
  static constexpr std::uint32_t kNone = 0xffffffffu;
  static constexpr std::uint8_t kAlias = 1;  // first_child is the aliased node

  std::uint32_t key_off = 0;  // the key (in the arena) when the node is a mapping value
  std::uint32_t key_len = 0;
  std::uint32_t text_off = 0;  // a scalar's text: unescaped string, number or boolean token
  std::uint32_t text_len = 0;
  std::uint32_t first_child = kNone;
  std::uint32_t next_sibling = kNone;
  std::uint32_t line = 0;      // 1-based line in the input, 0 if unknown
  std::uint32_t key_line = 0;  // line of the key, for mapping values
  NodeType type = NodeType::kNull;
  ScalarType scalar = ScalarType::kString;
  std::uint8_t flags = 0;
};

class Tree {
 public:
  const TreeNode& node(std::uint32_t i) const { return nodes_[i]; }
  // The node `i` stands for: itself, or the node an alias names.
  const TreeNode& resolved(std::uint32_t i) const {
    const TreeNode& n = nodes_[i];
    return (n.flags & TreeNode::kAlias) != 0 ? nodes_[n.first_child] : n;
  }
  // Offsets with this bit refer to the parsed text (JSON strings without escapes, numbers),
  // the others to the arena.
  static constexpr std::uint32_t kInSource = 0x80000000u;
  std::string_view str(std::uint32_t off, std::uint32_t len) const {
    if ((off & kInSource) != 0) return source_.substr(off & ~kInSource, len);
    return std::string_view(arena_).substr(off, len);
  }
  std::string_view key(const TreeNode& n) const { return str(n.key_off, n.key_len); }
  std::string_view text(const TreeNode& n) const { return str(n.text_off, n.text_len); }
  bool yaml() const { return yaml_; }
  std::size_t size() const { return nodes_.size(); }

 private:
  friend class TreeBuilder;
  std::vector<TreeNode> nodes_;
  std::string arena_;
  std::string_view source_;  // JSON: the text parsed (it must outlive the tree)
  bool yaml_ = false;
};

// A parse failure: the 1-based line (0 if unknown) and the message.
struct ParseError {
  int line = 0;
  std::string message;
};

// One parsed document (root node 0 of `tree`) or the error that stopped it. A JSON document's
// tree refers to the text it was parsed from: read it while that text lives.
struct ParsedDocument {
  Tree tree;
  bool ok = true;
  ParseError error;
  int line = 0;  // first line of the document
  // The root mapping's `items` were handed to an `ItemStream` one by one: in `tree` that
  // sequence has no children.
  bool streamed = false;
};

// Streaming of the `items` of a document's root mapping (a `List`), so that a big dump never has
// its whole tree in memory: each item is parsed into a small tree of its own, handed over and
// freed. The parsers still check every item (syntax, duplicate keys, depth, with the item's
// place: it nests two levels below the root).
struct ItemStream {
  // Called when the root mapping's `items` sequence is reached, with the tree built so far (the
  // root is node 0). JSON: the whole root mapping from a pre-scan, its collections without their
  // contents; `followed`: text other than whitespace follows the document. YAML: the entries
  // before `items`; `followed` is false. Returns whether to stream the items.
  std::function<bool(const Tree& skeleton, bool followed)> plan;
  // Each item (root node 0), in order.
  std::function<void(const Tree& item)> item;
  // Set when the parser stopped because it could not stream what was planned (an item with a
  // duplicate key, a YAML alias): the items handed over may be incomplete, and no further
  // documents were parsed. The caller reads the text again without an ItemStream, which reports
  // the input exactly as it is.
  bool bailed = false;
};

// Parses the YAML documents of `text` (usually one: the reader splits streams at `---` lines).
// `first_line` is the 0-based line of `text` in its file. Calls `f(ParsedDocument&&)` for each
// document that is not empty; a syntax or safety error ends the text with a failed document.
void ParseYamlDocuments(std::string_view text, int first_line,
                        const std::function<void(ParsedDocument&&)>& f,
                        ItemStream* items = nullptr);

// Bytes past the end of a text that ParseJsonStream may read when told the text is padded.
constexpr std::size_t kJsonPadding = 64;

// Parses a stream of JSON documents (whitespace between them). Calls `f` for each; an error ends
// the stream with a failed document (documents before it are kept). `padded`: the kJsonPadding
// bytes after `text` are readable (else the text is copied once).
void ParseJsonStream(std::string_view text, const std::function<void(ParsedDocument&&)>& f,
                     bool padded = false, ItemStream* items = nullptr);

}  // namespace kpsim::io::internal
