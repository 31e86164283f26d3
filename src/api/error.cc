// `ErrorCodeName` and `Error::ToString`.

#include <string>
#include <string_view>

#include "fmt/format.h"
#include "kpsim/expected.h"

namespace kpsim {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return "InvalidArgument";
    case ErrorCode::kNotFound:
      return "NotFound";
    case ErrorCode::kForbidden:
      return "Forbidden";
    case ErrorCode::kFailedPrecondition:
      return "FailedPrecondition";
    case ErrorCode::kInternal:
      return "Internal";
  }
  return "Unknown";
}

std::string Error::ToString() const {
  // "file:line (document N): message" (YAML, where lines are known), "file (item N): message"
  // (JSON, where only the List item is known), "file: message", or just the message. A message that
  // already starts with that location (io/ writes self-contained messages) is returned as is.
  if (file.empty()) return message;
  std::string location = file;
  if (line > 0) location += fmt::format(":{}", line);
  if (document > 0) {
    location +=
        line > 0 ? fmt::format(" (document {})", document) : fmt::format(" (item {})", document);
  }
  if (message.starts_with(location)) return message;
  return fmt::format("{}: {}", location, message);
}

}  // namespace kpsim
