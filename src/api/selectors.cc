// Label selectors, node selectors and tolerations, with apimachinery / component-helpers semantics.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "kpsim/api/types.h"

namespace kpsim {
namespace {

bool Contains(const std::vector<std::string>& values, std::string_view v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// strconv.ParseInt(s, 10, 64).
std::optional<std::int64_t> ParseInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  std::uint64_t value = 0;
  const std::uint64_t limit =
      negative ? static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1
               : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (limit - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  if (negative) return static_cast<std::int64_t>(0 - value);
  return static_cast<std::int64_t>(value);
}

// Whether `req` is a valid node selector requirement, as `nodeSelectorRequirementsAsSelector`
// checks (In/NotIn need values, Exists/DoesNotExist none, Gt/Lt exactly one integer).
bool IsValidLabelRequirement(const NodeSelectorRequirement& req) {
  switch (req.op) {
    case NodeSelectorOperator::kIn:
    case NodeSelectorOperator::kNotIn:
      return !req.values.empty();
    case NodeSelectorOperator::kExists:
    case NodeSelectorOperator::kDoesNotExist:
      return req.values.empty();
    case NodeSelectorOperator::kGt:
    case NodeSelectorOperator::kLt:
      return req.values.size() == 1 && ParseInt64(req.values[0]).has_value();
  }
  return false;
}

// Mirrors `labels.Requirement.Matches`.
bool LabelRequirementMatches(const NodeSelectorRequirement& req, const Labels& labels) {
  const std::string* value = FindLabel(labels, req.key);
  switch (req.op) {
    case NodeSelectorOperator::kIn:
      return value != nullptr && Contains(req.values, *value);
    case NodeSelectorOperator::kNotIn:
      return value == nullptr || !Contains(req.values, *value);
    case NodeSelectorOperator::kExists:
      return value != nullptr;
    case NodeSelectorOperator::kDoesNotExist:
      return value == nullptr;
    case NodeSelectorOperator::kGt:
    case NodeSelectorOperator::kLt: {
      if (value == nullptr) return false;
      const std::optional<std::int64_t> have = ParseInt64(*value);
      if (!have || req.values.size() != 1) return false;
      const std::optional<std::int64_t> want = ParseInt64(req.values[0]);
      if (!want) return false;
      return req.op == NodeSelectorOperator::kGt ? *have > *want : *have < *want;
    }
  }
  return false;
}

// Mirrors `nodeaffinity.newNodeSelectorTerm` + `nodeSelectorTerm.match`: a term that fails to
// parse is dropped (LazyErrorNodeSelector), an empty term selects nothing, and match fields only
// support `metadata.name` with In/NotIn and exactly one value.
bool TermMatches(const NodeSelectorTerm& term, std::string_view node_name,
                 const Labels& node_labels) {
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const NodeSelectorRequirement& req : term.match_expressions) {
    if (!IsValidLabelRequirement(req)) return false;
  }
  for (const NodeSelectorRequirement& req : term.match_fields) {
    if (req.key != "metadata.name" || req.values.size() != 1) return false;
    if (req.op != NodeSelectorOperator::kIn && req.op != NodeSelectorOperator::kNotIn) return false;
  }
  for (const NodeSelectorRequirement& req : term.match_expressions) {
    if (!LabelRequirementMatches(req, node_labels)) return false;
  }
  // Node fields hold `metadata.name` only when the node has a name; with no fields the field
  // selector is not consulted (as upstream's `len(nodeFields) != 0` check).
  if (!node_name.empty()) {
    for (const NodeSelectorRequirement& req : term.match_fields) {
      const bool equal = req.values[0] == node_name;
      if (req.op == NodeSelectorOperator::kIn ? !equal : equal) return false;
    }
  }
  return true;
}

}  // namespace

const std::string* FindLabel(const Labels& labels, std::string_view key) {
  auto it = std::lower_bound(labels.begin(), labels.end(), key,
                             [](const auto& entry, std::string_view k) { return entry.first < k; });
  if (it != labels.end() && it->first == key) return &it->second;
  // Tolerate unsorted input (hand-built values): fall back to a linear scan.
  for (const auto& entry : labels) {
    if (entry.first == key) return &entry.second;
  }
  return nullptr;
}

bool LabelSelector::Matches(const Labels& labels) const {
  // Mirrors `metav1.LabelSelectorAsSelector` + `labels.Selector.Matches`; an empty selector
  // matches everything.
  for (const auto& [key, value] : match_labels) {
    const std::string* have = FindLabel(labels, key);
    if (have == nullptr || *have != value) return false;
  }
  for (const LabelSelectorRequirement& req : match_expressions) {
    const std::string* have = FindLabel(labels, req.key);
    switch (req.op) {
      case SelectorOperator::kIn:
        if (have == nullptr || !Contains(req.values, *have)) return false;
        break;
      case SelectorOperator::kNotIn:
        if (have != nullptr && Contains(req.values, *have)) return false;
        break;
      case SelectorOperator::kExists:
        if (have == nullptr) return false;
        break;
      case SelectorOperator::kDoesNotExist:
        if (have != nullptr) return false;
        break;
    }
  }
  return true;
}

bool NodeSelectorTerm::Matches(std::string_view node_name, const Labels& node_labels) const {
  return TermMatches(*this, node_name, node_labels);
}

bool NodeSelector::Matches(std::string_view node_name, const Labels& node_labels) const {
  for (const NodeSelectorTerm& term : terms) {
    if (TermMatches(term, node_name, node_labels)) return true;
  }
  return false;
}

bool Toleration::Tolerates(const Taint& taint) const {
  // Mirrors `Toleration.ToleratesTaint` (k8s.io/api/core/v1/toleration.go).
  if (effect.has_value() && *effect != taint.effect) return false;
  if (!key.empty() && key != taint.key) return false;
  switch (op) {
    case TolerationOperator::kEqual:
      return value == taint.value;
    case TolerationOperator::kExists:
      return true;
  }
  return false;
}

}  // namespace kpsim
