#pragma once

// `Error` and `Expected<T>`: the error channel for input, validation and admission (house style G7).
// Scheduling outcomes never use this channel; they use `kpsim::Status` (engine.h).

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace kpsim {

enum class ErrorCode : std::uint8_t {
  kInvalidArgument,     // malformed input: a field has the wrong type or an unparsable value
  kNotFound,            // a referenced object does not exist (file, PriorityClass, ...)
  kForbidden,           // admission refused the object (Kubernetes "Forbidden")
  kFailedPrecondition,  // the object conflicts with the state built so far
  kInternal,
};

std::string_view ErrorCodeName(ErrorCode code);

// An error with, for input errors, where it came from.
struct Error {
  ErrorCode code = ErrorCode::kInvalidArgument;
  std::string message;
  std::string file;  // empty when not from a file
  int document = 0;  // 1-based document (YAML) or List item index; 0 = unknown
  int line = 0;      // 1-based; 0 = unknown

  // "file:line: message" (or "file (document N): message"), for diagnostics on stderr.
  std::string ToString() const;
};

// A minimal `std::expected` look-alike; swap for `std::expected` once the toolchain has it.
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}          // NOLINT(google-explicit-constructor)
  Expected(Error error) : v_(std::move(error)) {}      // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // REQUIRES: ok().
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // REQUIRES: !ok().
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// `Expected<void>`.
class [[nodiscard]] Result {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

inline Error MakeError(ErrorCode code, std::string message) {
  Error e;
  e.code = code;
  e.message = std::move(message);
  return e;
}

}  // namespace kpsim

#define KPSIM_CONCAT_INNER_(a, b) a##b
#define KPSIM_CONCAT_(a, b) KPSIM_CONCAT_INNER_(a, b)

#define KPSIM_RETURN_IF_ERROR(expr)              \
  do {                                           \
    auto kpsim_status_ = (expr);                 \
    if (!kpsim_status_.ok()) return kpsim_status_.error(); \
  } while (0)

#define KPSIM_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.error();                 \
  lhs = std::move(tmp).value()

#define KPSIM_ASSIGN_OR_RETURN(lhs, expr) \
  KPSIM_ASSIGN_OR_RETURN_IMPL_(KPSIM_CONCAT_(kpsim_expected_, __LINE__), lhs, expr)
