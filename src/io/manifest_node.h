#pragma once

// Read-only views over parsed YAML (yaml-cpp) and JSON (nlohmann-json) trees with one interface,
// so the object decoders in decode_objects.h are written once for both formats.
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

#include "nlohmann/json.hpp"
#include "yaml-cpp/yaml.h"

namespace kpsim::io::internal {

enum class NodeType : std::uint8_t { kNull, kScalar, kMap, kSeq };
enum class ScalarType : std::uint8_t { kString, kInt, kFloat, kBool };

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

// A view of a yaml-cpp node. `line_offset` maps the node's document-relative line to the file.
class YamlView {
 public:
  YamlView(const YAML::Node& node, int line_offset) : node_(node), line_offset_(line_offset) {}

  NodeType type() const {
    switch (node_.Type()) {
      case YAML::NodeType::Map:
        return NodeType::kMap;
      case YAML::NodeType::Sequence:
        return NodeType::kSeq;
      case YAML::NodeType::Scalar:
        return NodeType::kScalar;
      default:
        return NodeType::kNull;
    }
  }

  // REQUIRES: type() == kScalar.
  ScalarType scalar_type() const {
    if (node_.Tag() != "?") return ScalarType::kString;  // quoted or explicitly tagged
    const std::string& s = node_.Scalar();
    if (YamlBool(s)) return ScalarType::kBool;
    if (IsYamlIntSyntax(s)) return ScalarType::kInt;
    if (IsYamlFloat(s)) return ScalarType::kFloat;
    return ScalarType::kString;
  }

  // The scalar's text. REQUIRES: type() == kScalar.
  std::string text() const { return node_.Scalar(); }

  std::optional<std::int64_t> AsInt() const {
    if (type() != NodeType::kScalar || scalar_type() != ScalarType::kInt) return std::nullopt;
    return YamlInt(node_.Scalar());
  }
  std::optional<bool> AsBool() const {
    if (type() != NodeType::kScalar || node_.Tag() != "?") return std::nullopt;
    return YamlBool(node_.Scalar());
  }

  // Calls `f(key, value)` for each entry of a map. REQUIRES: type() == kMap.
  template <typename F>
  void ForEachEntry(F&& f) const {
    // `kv` is a value bound for the whole iteration; `it->first` would dangle (yaml-cpp's
    // iterator proxies are temporaries).
    for (const auto& kv : node_) {
      const std::string& key = kv.first.IsScalar() ? kv.first.Scalar() : EmptyString();
      f(std::string_view(key), YamlView(kv.second, line_offset_));
    }
  }
  // Calls `f(index, value)` for each item of a sequence. REQUIRES: type() == kSeq.
  template <typename F>
  void ForEachItem(F&& f) const {
    int index = 0;
    for (const auto& item : node_) f(index++, YamlView(item, line_offset_));
  }
  // The value of `key` in a map, if present (the last duplicate wins).
  std::optional<YamlView> Get(std::string_view key) const {
    if (type() != NodeType::kMap) return std::nullopt;
    std::optional<YamlView> found;
    for (const auto& kv : node_) {
      if (kv.first.IsScalar() && kv.first.Scalar() == key)
        found = YamlView(kv.second, line_offset_);
    }
    return found;
  }

  // 1-based line in the file; 0 if unknown.
  int line() const {
    const YAML::Mark mark = node_.Mark();
    return mark.is_null() ? 0 : mark.line + 1 + line_offset_;
  }

 private:
  static const std::string& EmptyString() {
    static const std::string empty;
    return empty;
  }
  YAML::Node node_;
  int line_offset_ = 0;
};

// A compact, read-only JSON tree built by nlohmann-json's SAX parser: nodes in one vector,
// strings in one arena. Much cheaper to build and free than `nlohmann::json` for the 10+ MB
// Lists that `kubectl get -o json` produces.
class JsonDoc {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  struct JNode {
    std::uint32_t key_off = 0;
    std::uint32_t key_len = 0;
    std::uint32_t text_off = 0;  // string value, float text or out-of-range integer text
    std::uint32_t text_len = 0;
    std::uint32_t first_child = kNone;
    std::uint32_t next_sibling = kNone;
    std::int64_t int_value = 0;
    NodeType type = NodeType::kNull;
    ScalarType scalar = ScalarType::kString;
    bool int_fits = true;  // false for unsigned integers beyond int64
  };

  // Parses `text`. On a syntax error returns false and sets `error_byte` (1-based position as
  // nlohmann reports it) and `error_message`.
  bool Parse(std::string_view text, std::size_t& error_byte, std::string& error_message) {
    nodes_.clear();
    arena_.clear();
    nodes_.reserve(text.size() / 12 + 16);
    arena_.reserve(text.size() / 2 + 16);
    Builder builder(*this);
    const bool ok = nlohmann::json::sax_parse(text.begin(), text.end(), &builder);
    if (!ok) {
      error_byte = builder.error_byte;
      error_message = builder.error_message;
    }
    return ok && !nodes_.empty();
  }

  const JNode& node(std::uint32_t i) const { return nodes_[i]; }
  std::string_view str(std::uint32_t off, std::uint32_t len) const {
    return std::string_view(arena_).substr(off, len);
  }

 private:
  using Json = nlohmann::json;

  struct Builder : nlohmann::json_sax<Json> {
    explicit Builder(JsonDoc& d) : doc(d) {}

    std::uint32_t Add(NodeType type, ScalarType scalar) {
      const auto index = static_cast<std::uint32_t>(doc.nodes_.size());
      doc.nodes_.emplace_back();
      JNode& n = doc.nodes_.back();
      n.type = type;
      n.scalar = scalar;
      if (!open.empty()) {
        n.key_off = pending_key_off;
        n.key_len = pending_key_len;
        pending_key_len = 0;
        Open& parent = open.back();
        if (parent.last_child == kNone) {
          doc.nodes_[parent.index].first_child = index;
        } else {
          doc.nodes_[parent.last_child].next_sibling = index;
        }
        parent.last_child = index;
      }
      return index;
    }
    void SetText(std::uint32_t index, std::string_view s) {
      doc.nodes_[index].text_off = static_cast<std::uint32_t>(doc.arena_.size());
      doc.nodes_[index].text_len = static_cast<std::uint32_t>(s.size());
      doc.arena_.append(s);
    }

    bool null() override {
      Add(NodeType::kNull, ScalarType::kString);
      return true;
    }
    bool boolean(bool v) override {
      doc.nodes_[Add(NodeType::kScalar, ScalarType::kBool)].int_value = v ? 1 : 0;
      return true;
    }
    bool number_integer(number_integer_t v) override {
      doc.nodes_[Add(NodeType::kScalar, ScalarType::kInt)].int_value = v;
      return true;
    }
    bool number_unsigned(number_unsigned_t v) override {
      const std::uint32_t i = Add(NodeType::kScalar, ScalarType::kInt);
      if (v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        doc.nodes_[i].int_value = static_cast<std::int64_t>(v);
      } else {
        doc.nodes_[i].int_fits = false;
        SetText(i, std::to_string(v));
      }
      return true;
    }
    bool number_float(number_float_t, const string_t& raw) override {
      SetText(Add(NodeType::kScalar, ScalarType::kFloat), raw);
      return true;
    }
    bool string(string_t& v) override {
      SetText(Add(NodeType::kScalar, ScalarType::kString), v);
      return true;
    }
    bool binary(binary_t&) override { return false; }
    bool start_object(std::size_t) override {
      open.push_back({Add(NodeType::kMap, ScalarType::kString), kNone});
      return true;
    }
    bool key(string_t& k) override {
      pending_key_off = static_cast<std::uint32_t>(doc.arena_.size());
      pending_key_len = static_cast<std::uint32_t>(k.size());
      doc.arena_.append(k);
      return true;
    }
    bool end_object() override {
      open.pop_back();
      return true;
    }
    bool start_array(std::size_t) override {
      open.push_back({Add(NodeType::kSeq, ScalarType::kString), kNone});
      return true;
    }
    bool end_array() override {
      open.pop_back();
      return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) override {
      error_byte = position;
      error_message = ex.what();
      return false;
    }

    struct Open {
      std::uint32_t index;
      std::uint32_t last_child;
    };
    JsonDoc& doc;
    std::vector<Open> open;
    std::uint32_t pending_key_off = 0;
    std::uint32_t pending_key_len = 0;
    std::size_t error_byte = 0;
    std::string error_message;
  };

  std::vector<JNode> nodes_;
  std::string arena_;
};

// A view of one `JsonDoc` node. JSON has no line numbers.
class JsonView {
 public:
  JsonView(const JsonDoc& doc, std::uint32_t index) : doc_(&doc), index_(index) {}

  NodeType type() const { return n().type; }
  ScalarType scalar_type() const { return n().scalar; }
  std::string text() const {
    const JsonDoc::JNode& node = n();
    switch (node.scalar) {
      case ScalarType::kBool:
        return node.int_value != 0 ? "true" : "false";
      case ScalarType::kInt:
        return node.int_fits ? std::to_string(node.int_value)
                             : std::string(doc_->str(node.text_off, node.text_len));
      default:
        return std::string(doc_->str(node.text_off, node.text_len));
    }
  }
  std::optional<std::int64_t> AsInt() const {
    const JsonDoc::JNode& node = n();
    if (node.type != NodeType::kScalar || node.scalar != ScalarType::kInt || !node.int_fits) {
      return std::nullopt;
    }
    return node.int_value;
  }
  std::optional<bool> AsBool() const {
    const JsonDoc::JNode& node = n();
    if (node.type != NodeType::kScalar || node.scalar != ScalarType::kBool) return std::nullopt;
    return node.int_value != 0;
  }
  template <typename F>
  void ForEachEntry(F&& f) const {
    for (std::uint32_t c = n().first_child; c != JsonDoc::kNone; c = doc_->node(c).next_sibling) {
      const JsonDoc::JNode& child = doc_->node(c);
      f(doc_->str(child.key_off, child.key_len), JsonView(*doc_, c));
    }
  }
  template <typename F>
  void ForEachItem(F&& f) const {
    int index = 0;
    for (std::uint32_t c = n().first_child; c != JsonDoc::kNone; c = doc_->node(c).next_sibling) {
      f(index++, JsonView(*doc_, c));
    }
  }
  std::optional<JsonView> Get(std::string_view key) const {
    if (n().type != NodeType::kMap) return std::nullopt;
    std::optional<JsonView> found;  // the last duplicate wins, as in Go's encoding/json
    for (std::uint32_t c = n().first_child; c != JsonDoc::kNone; c = doc_->node(c).next_sibling) {
      const JsonDoc::JNode& child = doc_->node(c);
      if (doc_->str(child.key_off, child.key_len) == key) found = JsonView(*doc_, c);
    }
    return found;
  }
  int line() const { return 0; }

 private:
  const JsonDoc::JNode& n() const { return doc_->node(index_); }
  const JsonDoc* doc_;
  std::uint32_t index_;
};

}  // namespace kpsim::io::internal
