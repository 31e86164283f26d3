#pragma once

// `kpsim serve`'s JSON API as plain functions of a request body (the HTTP server in server.cc
// only routes to them), so that every answer is testable without a socket. A request to
// /api/simulate or /api/explain is
//   {"files": [{"name": "cluster.yaml", "content": "..."}], "options": {"profile": "book", ...}}
// with options named like the command's flags (see `ApplyRequestOptions`), and the answer is
// exactly what `kpsim simulate` / `kpsim explain` print for the same files and flags.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace kpsim::app {

struct ServeLimits {
  std::size_t max_body_bytes = std::size_t{16} << 20;  // a request's body (413 beyond)
  std::chrono::milliseconds run_timeout{60000};         // one run's wall time (503 beyond)
  // Set when the server stops: runs in flight are cancelled too (503).
  const std::atomic<bool>* stopping = nullptr;
};

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

// POST /api/simulate, /api/explain and /api/diff (`endpoint` is the last path segment). 400 with
// {"error": "..."} for a malformed request or bad options (the message names the field), 404 for
// an explain of a pod or group that is not in the input, 503 when the run passed
// `limits.run_timeout` and was cancelled.
ApiResponse HandleApi(std::string_view endpoint, std::string_view body, const ServeLimits& limits);

// GET /api/examples: the bundled examples, each {"name", "content", "options"} (the options the
// example's header names: the book profile for examples/book, its `# Flags: --feature-gates`).
ApiResponse ExamplesResponse();

// An error answer: {"error": message}.
ApiResponse ErrorResponse(int status, std::string_view message);

// An example file compiled into the binary (examples/, cmake/EmbedExamples.cmake).
struct EmbeddedFile {
  std::string_view name;  // path under examples/
  std::string_view content;
};
std::span<const EmbeddedFile> BundledExamples();

}  // namespace kpsim::app
