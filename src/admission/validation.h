#pragma once

// Kubernetes' field-error vocabulary (k8s.io/apimachinery/pkg/util/validation/field) and the API
// errors built from it (k8s.io/apimachinery/pkg/api/errors), rendered exactly as the API server
// renders them, plus the name validators kpsim needs (RFC 1123 subdomain and label).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim::admission {

enum class FieldErrorType : std::uint8_t {
  kRequired,      // "Required value"
  kForbidden,     // "Forbidden"
  kInvalid,       // "Invalid value"
  kNotSupported,  // "Unsupported value"
  kTooMany,       // "Too many"
  kDuplicate,     // "Duplicate value"
};

// One `field.Error`. `bad_value` is already rendered the way Go renders it (`%q` for strings,
// `%v` for numbers); it is ignored for kRequired and kForbidden.
struct FieldError {
  std::string field;
  FieldErrorType type = FieldErrorType::kInvalid;
  std::string bad_value;
  std::string detail;

  // Mirrors `field.Error.Error()`: "<field>: <type>[: <value>][: <detail>]".
  std::string ToString() const;
};
using FieldErrors = std::vector<FieldError>;

FieldError Required(std::string field, std::string detail);
FieldError Forbidden(std::string field, std::string detail);
FieldError Invalid(std::string field, std::string rendered_value, std::string detail);
FieldError Invalid(std::string field, std::int64_t value, std::string detail);
// Mirrors `field.NotSupported`: the valid values are quoted and listed in the given order.
FieldError NotSupported(std::string field, std::string_view value,
                        const std::vector<std::string_view>& valid_values);
// Mirrors `field.TooMany`.
FieldError TooMany(std::string field, std::int64_t actual, std::int64_t max);

// Mirrors `field.Duplicate` (the value rendered with %q).
FieldError Duplicate(std::string field, std::string_view value);

// Go's `%q` for a string: double-quoted, with `"`, `\` and control characters escaped.
std::string GoQuote(std::string_view s);

// Mirrors `ErrorList.ToAggregate().Error()`: duplicates dropped; one error as is, several as
// "[a, b]".
std::string AggregateMessage(const FieldErrors& errors);

// Mirrors `errors.NewInvalid`: `<Kind>.<group> "<name>" is invalid: <aggregate>`.
// REQUIRES: `errors` is not empty.
std::string InvalidMessage(std::string_view qualified_kind, std::string_view name,
                           const FieldErrors& errors);

// Mirrors `errors.NewForbidden`: `<resource>.<group> "<name>" is forbidden: <detail>`.
std::string ForbiddenMessage(std::string_view qualified_resource, std::string_view name,
                             std::string_view detail);

// "PriorityClass.scheduling.k8s.io", "Pod", "PodDisruptionBudget.policy", ...
std::string_view QualifiedKind(ObjectKind kind);
// "priorityclasses.scheduling.k8s.io", "pods", ...
std::string_view QualifiedResource(ObjectKind kind);

// Mirrors `validation.IsDNS1123Subdomain`: the messages, empty when valid.
std::vector<std::string> IsDns1123Subdomain(std::string_view value);
// Mirrors `validation.IsDNS1123Label`: the messages, empty when valid.
std::vector<std::string> IsDns1123Label(std::string_view value);

// Mirrors `validation.IsQualifiedName` (label keys, scheduling gate names): the messages, empty
// when valid.
std::vector<std::string> IsQualifiedName(std::string_view value);

// Mirrors `validateSchedulingGates` (ValidatePodSpec): each name a qualified name, no duplicates.
void ValidateSchedulingGates(const std::vector<std::string>& gates, FieldErrors* errors);

enum class NameRule : std::uint8_t { kDnsSubdomain, kDnsLabel, kDns1035Label };
std::vector<std::string> IsDns1035Label(std::string_view value);

// Mirrors `ValidateObjectMeta` for the parts kpsim models: generateName (validated as a prefix),
// name (required, then `name_rule`), and for namespaced kinds the namespace (a DNS label).
void ValidateObjectMeta(const ObjectMeta& meta, bool namespaced, NameRule name_rule,
                        FieldErrors* errors);

}  // namespace kpsim::admission
