#pragma once

// A read-only view over parsed YAML and JSON trees (manifest_tree.h) with one interface, so the
// object decoders in decode_objects.h are written once for both formats.
//
// Scalar typing follows what Kubernetes sees after sigs.k8s.io/yaml turns YAML into JSON
// (YAML 1.1 resolution as in go-yaml v2): a plain `100` is a number, `yes` a bool, `"100"` a
// string. Decoders use it to reject a number where Kubernetes wants a string, and vice versa.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/manifest_tree.h"

namespace kpsim::io::internal {

// Human wording of a node's JSON type, for messages ("a string", "a list", ...).
inline std::string_view TypeWord(NodeType type, ScalarType scalar) {
  switch (type) {
    case NodeType::kNull:
      return "null";
    case NodeType::kMap:
      return "an object";
    case NodeType::kSeq:
      return "a list";
    case NodeType::kScalar:
      break;
  }
  switch (scalar) {
    case ScalarType::kString:
      return "a string";
    case ScalarType::kInt:
    case ScalarType::kFloat:
      return "a number";
    case ScalarType::kBool:
      return "a boolean";
  }
  return "a value";
}

// YAML 1.1 boolean spellings (go-yaml v2's resolve table).
inline std::optional<bool> YamlBool(std::string_view s) {
  for (std::string_view t :
       {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}) {
    if (s == t) return true;
  }
  for (std::string_view f :
       {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}) {
    if (s == f) return false;
  }
  return std::nullopt;
}

// A YAML integer: optional sign, then decimal digits or 0x hex digits (underscores allowed).
// Returns nullopt if `s` is not an integer or does not fit an int64.
inline std::optional<std::int64_t> YamlInt(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty() || s[0] == '_') return std::nullopt;
  const std::uint64_t limit =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
  std::uint64_t value = 0;
  for (char c : s) {
    if (c == '_') continue;
    unsigned digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (base == 16 && c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (base == 16 && c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
    if (value > (limit - digit) / base) return std::nullopt;
    value = value * base + digit;
  }
  return negative ? static_cast<std::int64_t>(0 - value) : static_cast<std::int64_t>(value);
}

// Whether `s` is written as a YAML integer, whatever its magnitude.
inline bool IsYamlIntSyntax(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    hex = true;
    s.remove_prefix(2);
  }
  if (s.empty() || s[0] == '_') return false;
  for (char c : s) {
    const bool digit = (c >= '0' && c <= '9') || c == '_' ||
                       (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
    if (!digit) return false;
  }
  return true;
}

// go-yaml v2's float pattern `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`, plus
// .inf/.nan spellings.
inline bool IsYamlFloat(std::string_view s) {
  for (std::string_view special : {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
                                   "-.Inf", "-.INF", ".nan", ".NaN", ".NAN"}) {
    if (s == special) return true;
  }
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  } else {
    if (digits() == 0) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

// A read-only view of one node of a `Tree` (manifest_tree.h); an alias reads as the node it
// names. The same type serves YAML and JSON (`YamlView` and `JsonView` are aliases).
class TreeView {
 public:
  TreeView(const Tree& tree, std::uint32_t index) : tree_(&tree), index_(index) {}

  NodeType type() const { return n().type; }
  // REQUIRES: type() == kScalar.
  ScalarType scalar_type() const { return n().scalar; }
  // The scalar's text (a JSON number as written). REQUIRES: type() == kScalar.
  std::string text() const { return std::string(tree_->text(n())); }
  std::string_view text_view() const { return tree_->text(n()); }

  // The integer, or nullopt if the node is not an integer or it does not fit an int64.
  std::optional<std::int64_t> AsInt() const {
    const TreeNode& node = n();
    if (node.type != NodeType::kScalar || node.scalar != ScalarType::kInt) return std::nullopt;
    return YamlInt(tree_->text(node));
  }
  std::optional<bool> AsBool() const {
    const TreeNode& node = n();
    if (node.type != NodeType::kScalar || node.scalar != ScalarType::kBool) return std::nullopt;
    return YamlBool(tree_->text(node));
  }

  // Calls `f(key, value)` for each entry of a map. REQUIRES: type() == kMap.
  template <typename F>
  void ForEachEntry(F&& f) const {
    for (std::uint32_t c = n().first_child; c != TreeNode::kNone;
         c = tree_->node(c).next_sibling) {
      f(tree_->key(tree_->node(c)), TreeView(*tree_, c));
    }
  }
  // Calls `f(index, value)` for each item of a sequence. REQUIRES: type() == kSeq.
  template <typename F>
  void ForEachItem(F&& f) const {
    int index = 0;
    for (std::uint32_t c = n().first_child; c != TreeNode::kNone;
         c = tree_->node(c).next_sibling) {
      f(index++, TreeView(*tree_, c));
    }
  }
  // The value of `key` in a map, if present (the parsers refuse duplicate keys).
  std::optional<TreeView> Get(std::string_view key) const {
    if (n().type != NodeType::kMap) return std::nullopt;
    for (std::uint32_t c = n().first_child; c != TreeNode::kNone;
         c = tree_->node(c).next_sibling) {
      if (tree_->key(tree_->node(c)) == key) return TreeView(*tree_, c);
    }
    return std::nullopt;
  }

  // 1-based line in the file; 0 if unknown.
  int line() const { return static_cast<int>(n().line); }
  // Whether the node comes from YAML (plain scalars there are typed by their spelling).
  bool is_yaml() const { return tree_->yaml(); }

 private:
  const TreeNode& n() const { return tree_->resolved(index_); }
  const Tree* tree_;
  std::uint32_t index_;
};

using YamlView = TreeView;
using JsonView = TreeView;

}  // namespace kpsim::io::internal
