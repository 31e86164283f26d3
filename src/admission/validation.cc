#include "admission/validation.h"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

namespace kpsim::admission {
namespace {

constexpr std::string_view kDns1123LabelErrMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character";
constexpr std::string_view kDns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1035LabelErrMsg =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character";
constexpr std::string_view kDns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::string_view kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::size_t kDns1123LabelMaxLength = 63;
constexpr std::size_t kDns1123SubdomainMaxLength = 253;

std::string_view TypeName(FieldErrorType type) {
  switch (type) {
    case FieldErrorType::kRequired:
      return "Required value";
    case FieldErrorType::kForbidden:
      return "Forbidden";
    case FieldErrorType::kInvalid:
      return "Invalid value";
    case FieldErrorType::kNotSupported:
      return "Unsupported value";
    case FieldErrorType::kTooMany:
      return "Too many";
    case FieldErrorType::kDuplicate:
      return "Duplicate value";
  }
  return "Invalid value";
}

// Mirrors `validation.RegexError`, including its double space before " or ".
std::string RegexError(std::string_view msg, std::string_view regex,
                       const std::vector<std::string_view>& examples) {
  std::string out(msg);
  if (examples.empty()) {
    return out + " (regex used for validation is '" + std::string(regex) + "')";
  }
  out += " (e.g. ";
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) out += " or ";
    out += "'" + std::string(examples[i]) + "', ";
  }
  out += "regex used for validation is '" + std::string(regex) + "')";
  return out;
}

std::string MaxLenError(std::size_t length) {
  return fmt::format("must be no more than {} characters", length);
}

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// Matches `[a-z0-9]([-a-z0-9]*[a-z0-9])?` against the whole of `s`.
bool MatchesLabel(std::string_view s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return IsLowerAlnum(c) || c == '-'; });
}

bool MatchesSubdomain(std::string_view s) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    const std::string_view label =
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (!MatchesLabel(label)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// Mirrors `maskTrailingDash`: a generateName prefix may end in '-'.
std::string MaskTrailingDash(std::string_view name) {
  std::string out(name);
  if (out.size() > 1 && out.back() == '-') out.back() = 'a';
  return out;
}

}  // namespace

std::string FieldError::ToString() const {
  std::string body(TypeName(type));
  if (type != FieldErrorType::kRequired && type != FieldErrorType::kForbidden) {
    body += ": " + bad_value;
  }
  if (!detail.empty()) body += ": " + detail;
  return field + ": " + body;
}

FieldError Required(std::string field, std::string detail) {
  return FieldError{std::move(field), FieldErrorType::kRequired, "", std::move(detail)};
}

FieldError Forbidden(std::string field, std::string detail) {
  return FieldError{std::move(field), FieldErrorType::kForbidden, "", std::move(detail)};
}

FieldError Duplicate(std::string field, std::string_view value) {
  return FieldError{std::move(field), FieldErrorType::kDuplicate, GoQuote(value), ""};
}

FieldError Invalid(std::string field, std::string rendered_value, std::string detail) {
  return FieldError{std::move(field), FieldErrorType::kInvalid, std::move(rendered_value),
                    std::move(detail)};
}

FieldError Invalid(std::string field, std::int64_t value, std::string detail) {
  return Invalid(std::move(field), std::to_string(value), std::move(detail));
}

FieldError NotSupported(std::string field, std::string_view value,
                        const std::vector<std::string_view>& valid_values) {
  std::string detail;
  if (!valid_values.empty()) {
    detail = "supported values: ";
    for (std::size_t i = 0; i < valid_values.size(); ++i) {
      if (i > 0) detail += ", ";
      detail += GoQuote(valid_values[i]);
    }
  }
  return FieldError{std::move(field), FieldErrorType::kNotSupported, GoQuote(value),
                    std::move(detail)};
}

FieldError TooMany(std::string field, std::int64_t actual, std::int64_t max) {
  return FieldError{std::move(field), FieldErrorType::kTooMany, std::to_string(actual),
                    fmt::format("must have at most {} items", max)};
}

std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += fmt::format("\\x{:02x}", c);
        } else {
          out += ch;
        }
    }
  }
  out += "\"";
  return out;
}

std::string AggregateMessage(const FieldErrors& errors) {
  std::vector<std::string> messages;
  std::set<std::string> seen;
  for (const FieldError& e : errors) {
    std::string msg = e.ToString();
    if (seen.insert(msg).second) messages.push_back(std::move(msg));
  }
  if (messages.size() == 1) return messages.front();
  std::string out = "[";
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (i > 0) out += ", ";
    out += messages[i];
  }
  return out + "]";
}

std::string InvalidMessage(std::string_view qualified_kind, std::string_view name,
                           const FieldErrors& errors) {
  return fmt::format("{} {} is invalid: {}", qualified_kind, GoQuote(name),
                     AggregateMessage(errors));
}

std::string ForbiddenMessage(std::string_view qualified_resource, std::string_view name,
                             std::string_view detail) {
  return fmt::format("{} {} is forbidden: {}", qualified_resource, GoQuote(name), detail);
}

std::string_view QualifiedKind(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kNode:
      return "Node";
    case ObjectKind::kPod:
      return "Pod";
    case ObjectKind::kPriorityClass:
      return "PriorityClass.scheduling.k8s.io";
    case ObjectKind::kPodDisruptionBudget:
      return "PodDisruptionBudget.policy";
    case ObjectKind::kNamespace:
      return "Namespace";
    case ObjectKind::kPodGroup:
      return "PodGroup.scheduling.k8s.io";
    case ObjectKind::kCompositePodGroup:
      return "CompositePodGroup.scheduling.k8s.io";
    case ObjectKind::kService:
      return "Service";
    case ObjectKind::kResourceQuota:
      return "ResourceQuota";
    case ObjectKind::kAdmissionConfiguration:
      return "AdmissionConfiguration.apiserver.config.k8s.io";
  }
  return "Unknown";
}

std::string_view QualifiedResource(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kNode:
      return "nodes";
    case ObjectKind::kPod:
      return "pods";
    case ObjectKind::kPriorityClass:
      return "priorityclasses.scheduling.k8s.io";
    case ObjectKind::kPodDisruptionBudget:
      return "poddisruptionbudgets.policy";
    case ObjectKind::kNamespace:
      return "namespaces";
    case ObjectKind::kPodGroup:
      return "podgroups.scheduling.k8s.io";
    case ObjectKind::kCompositePodGroup:
      return "compositepodgroups.scheduling.k8s.io";
    case ObjectKind::kService:
      return "services";
    case ObjectKind::kResourceQuota:
      return "resourcequotas";
    case ObjectKind::kAdmissionConfiguration:
      return "admissionconfigurations.apiserver.config.k8s.io";
  }
  return "unknown";
}

std::vector<std::string> IsDns1123Subdomain(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123SubdomainMaxLength) {
    errs.push_back(MaxLenError(kDns1123SubdomainMaxLength));
  }
  if (!MatchesSubdomain(value)) {
    errs.push_back(RegexError(kDns1123SubdomainErrMsg, kDns1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

std::vector<std::string> IsDns1123Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123LabelMaxLength) errs.push_back(MaxLenError(kDns1123LabelMaxLength));
  if (!MatchesLabel(value)) {
    errs.push_back(RegexError(kDns1123LabelErrMsg, kDns1123LabelFmt, {"my-name", "123-abc"}));
  }
  return errs;
}

// Mirrors `IsDNS1035Label` (Service names).
std::vector<std::string> IsDns1035Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123LabelMaxLength) errs.push_back(MaxLenError(kDns1123LabelMaxLength));
  const bool starts_alpha = !value.empty() && value.front() >= 'a' && value.front() <= 'z';
  if (!starts_alpha || !MatchesLabel(value)) {
    errs.push_back(RegexError(kDns1035LabelErrMsg, kDns1035LabelFmt, {"my-name", "abc-123"}));
  }
  return errs;
}

void ValidateObjectMeta(const ObjectMeta& meta, bool namespaced, NameRule name_rule,
                        FieldErrors* errors) {
  const auto validate_name = [name_rule](std::string_view name) {
    switch (name_rule) {
      case NameRule::kDnsSubdomain:
        return IsDns1123Subdomain(name);
      case NameRule::kDnsLabel:
        return IsDns1123Label(name);
      case NameRule::kDns1035Label:
        return IsDns1035Label(name);
    }
    return IsDns1123Subdomain(name);
  };
  if (!meta.generate_name.empty()) {
    for (std::string& msg : validate_name(MaskTrailingDash(meta.generate_name))) {
      errors->push_back(
          Invalid("metadata.generateName", GoQuote(meta.generate_name), std::move(msg)));
    }
  }
  if (meta.name.empty()) {
    errors->push_back(Required("metadata.name", "name or generateName is required"));
  } else {
    for (std::string& msg : validate_name(meta.name)) {
      errors->push_back(Invalid("metadata.name", GoQuote(meta.name), std::move(msg)));
    }
  }
  if (namespaced) {
    for (std::string& msg : IsDns1123Label(meta.namespace_)) {
      errors->push_back(Invalid("metadata.namespace", GoQuote(meta.namespace_), std::move(msg)));
    }
  }
}

namespace {

constexpr std::string_view kQualifiedNameErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::size_t kQualifiedNameMaxLength = 63;

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Matches `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]` against the whole of `s`.
bool MatchesQualifiedNamePart(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

std::string QualifiedNameRegexError() {
  return RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"});
}

}  // namespace

std::vector<std::string> IsQualifiedName(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  const std::size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back("a qualified name " + QualifiedNameRegexError() +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (const std::string& msg : IsDns1123Subdomain(prefix)) errs.push_back("prefix part " + msg);
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errs.push_back("name part " + MaxLenError(kQualifiedNameMaxLength));
  }
  if (!MatchesQualifiedNamePart(name)) errs.push_back("name part " + QualifiedNameRegexError());
  return errs;
}

void ValidateSchedulingGates(const std::vector<std::string>& gates, FieldErrors* errors) {
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < gates.size(); ++i) {
    const std::string field = fmt::format("spec.schedulingGates[{}]", i);
    for (std::string& msg : IsQualifiedName(gates[i])) {
      errors->push_back(Invalid(field, GoQuote(gates[i]), std::move(msg)));
    }
    if (!seen.insert(gates[i]).second) errors->push_back(Duplicate(field, gates[i]));
  }
}

}  // namespace kpsim::admission
