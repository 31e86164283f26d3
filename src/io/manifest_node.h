#pragma once

// Read-only views over parsed YAML (yaml-cpp) and JSON (nlohmann-json) trees with one interface,
// so the object decoders in decode_objects.h are written once for both formats.
//
// Scalar typing follows what Kubernetes sees after sigs.k8s.io/yaml turns YAML into JSON
// (YAML 1.1 resolution as in go-yaml v2): a plain `100` is a number, `yes` a bool, `"100"` a
// string. Decoders use it to reject a number where Kubernetes wants a string, and vice versa.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

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
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      const YAML::Node& key = it->first;
      f(std::string_view(key.IsScalar() ? key.Scalar() : EmptyString()),
        YamlView(it->second, line_offset_));
    }
  }
  // Calls `f(index, value)` for each item of a sequence. REQUIRES: type() == kSeq.
  template <typename F>
  void ForEachItem(F&& f) const {
    int index = 0;
    for (auto it = node_.begin(); it != node_.end(); ++it) f(index++, YamlView(*it, line_offset_));
  }
  // The value of `key` in a map, if present.
  std::optional<YamlView> Get(std::string_view key) const {
    if (type() != NodeType::kMap) return std::nullopt;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      if (it->first.IsScalar() && it->first.Scalar() == key)
        return YamlView(it->second, line_offset_);
    }
    return std::nullopt;
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

// A view of an nlohmann::json value. JSON has no line numbers.
class JsonView {
 public:
  explicit JsonView(const nlohmann::json& json) : json_(&json) {}

  NodeType type() const {
    if (json_->is_object()) return NodeType::kMap;
    if (json_->is_array()) return NodeType::kSeq;
    if (json_->is_null() || json_->is_discarded()) return NodeType::kNull;
    return NodeType::kScalar;
  }
  ScalarType scalar_type() const {
    if (json_->is_string()) return ScalarType::kString;
    if (json_->is_boolean()) return ScalarType::kBool;
    if (json_->is_number_float()) return ScalarType::kFloat;
    return ScalarType::kInt;
  }
  std::string text() const {
    if (json_->is_string()) return json_->get_ref<const std::string&>();
    return json_->dump();
  }
  std::optional<std::int64_t> AsInt() const {
    if (json_->is_number_integer() && !json_->is_number_unsigned()) {
      return json_->get<std::int64_t>();
    }
    if (json_->is_number_unsigned()) {
      const auto u = json_->get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return static_cast<std::int64_t>(u);
      }
    }
    return std::nullopt;
  }
  std::optional<bool> AsBool() const {
    if (json_->is_boolean()) return json_->get<bool>();
    return std::nullopt;
  }
  template <typename F>
  void ForEachEntry(F&& f) const {
    for (auto it = json_->begin(); it != json_->end(); ++it) {
      f(std::string_view(it.key()), JsonView(it.value()));
    }
  }
  template <typename F>
  void ForEachItem(F&& f) const {
    int index = 0;
    for (const nlohmann::json& item : *json_) f(index++, JsonView(item));
  }
  std::optional<JsonView> Get(std::string_view key) const {
    if (!json_->is_object()) return std::nullopt;
    auto it = json_->find(key);
    if (it == json_->end()) return std::nullopt;
    return JsonView(*it);
  }
  int line() const { return 0; }

 private:
  const nlohmann::json* json_;
};

}  // namespace kpsim::io::internal
