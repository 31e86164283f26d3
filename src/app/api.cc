// `kpsim serve`'s JSON API (api.h): requests decoded into the command's flags, one run through
// app/run.h (the code the command line runs), under a watchdog that cancels it past the limit.

#include "app/api.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/run.h"
#include "kpsim/diff.h"
#include "kpsim/io.h"

namespace kpsim::app {
namespace {

using Json = nlohmann::json;

// Sets a flag once `limit` has passed or `stopping` is set, unless destroyed first (the run
// finished).
class Watchdog {
 public:
  Watchdog(std::chrono::milliseconds limit, const std::atomic<bool>* stopping)
      : thread_([this, limit, stopping] {
          constexpr std::chrono::milliseconds kPoll{100};  // how soon a server stop is noticed
          const auto deadline = std::chrono::steady_clock::now() + limit;
          std::unique_lock<std::mutex> lock(mutex_);
          for (;;) {
            const auto now = std::chrono::steady_clock::now();
            if (now >= deadline || (stopping != nullptr && stopping->load())) break;
            const auto wake = std::min(deadline, now + kPoll);
            if (done_cv_.wait_until(lock, wake, [this] { return done_; })) return;
          }
          fired_.store(true);
        }) {}
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_all();
    thread_.join();
  }
  const std::atomic<bool>* flag() const { return &fired_; }

 private:
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::atomic<bool> fired_{false};
  std::thread thread_;  // last: it starts once the members it uses exist
};

// A request decoded: the files and the flags its options spell.
struct Request {
  std::vector<io::NamedText> files;
  CommonFlags common;
  EngineFlags engine;
  ExplainFlags explain;
};

// An option's value as the flag's text: strings as they are, whole numbers in decimal, booleans
// as true/false; featureGates may also be an object {"Name": true}.
std::optional<std::string> OptionText(const std::string& key, const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_unsigned()) return std::to_string(value.get<std::uint64_t>());
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (key == "featureGates" && value.is_object()) {
    std::string out;
    for (const auto& [name, on] : value.items()) {
      if (!on.is_boolean()) return std::nullopt;
      out += fmt::format("{}{}={}", out.empty() ? "" : ",", name, on.get<bool>() ? "true" : "false");
    }
    return out;
  }
  return std::nullopt;
}

// A flag's message ("--feature-gates: ...") in the request's terms ("options.featureGates: ...").
std::string AsOptionMessage(const std::string& message) {
  if (message.rfind("--", 0) != 0) return message;
  const std::size_t colon = message.find(':');
  std::string name;
  bool upper = false;
  for (std::size_t i = 2; i < colon && i < message.size(); ++i) {
    if (message[i] == '-') {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(message[i] - 'a' + 'A') : message[i];
    upper = false;
  }
  return "options." + name + message.substr(std::min(colon, message.size()));
}

// Decodes the body; the error message names the field.
Expected<Request> DecodeRequest(std::string_view body, bool explain) {
  const Json doc = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return MakeError(ErrorCode::kInvalidArgument, "the body is not JSON");
  if (!doc.is_object()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "the body must be an object: {\"files\": [...], \"options\": {...}}");
  }
  for (const auto& [key, value] : doc.items()) {
    if (key != "files" && key != "options") {
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("{}: unknown field (the body has files and options)", key));
    }
  }
  Request req;
  req.common.output = "json";
  const auto files = doc.find("files");
  if (files == doc.end() || !files->is_array() || files->empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "files: required, a non-empty array of {\"name\": ..., \"content\": ...}");
  }
  for (std::size_t i = 0; i < files->size(); ++i) {
    const Json& f = (*files)[i];
    const auto name = f.is_object() ? f.find("name") : f.end();
    const auto content = f.is_object() ? f.find("content") : f.end();
    if (!f.is_object() || name == f.end() || !name->is_string() || name->get<std::string>().empty() ||
        content == f.end() || !content->is_string()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("files[{}]: must be {{\"name\": non-empty string, \"content\": string}}", i));
    }
    req.files.push_back(io::NamedText{name->get<std::string>(), content->get<std::string>()});
  }
  const auto found = doc.find("options");
  const Json no_options = Json::object();
  const Json& options = found == doc.end() ? no_options : *found;
  if (!options.is_object()) return MakeError(ErrorCode::kInvalidArgument, "options: must be an object");
  for (const auto& [key, value] : options.items()) {
    const std::optional<std::string> text = OptionText(key, value);
    if (!text) {
      return MakeError(ErrorCode::kInvalidArgument,
                       fmt::format("options.{}: must be a string, a whole number or a boolean", key));
    }
    if (key == "output") {
      if (*text != "json" && *text != "text" && *text != "html") {
        return MakeError(ErrorCode::kInvalidArgument,
                         fmt::format("options.output: {} not in {{json, text, html}}", *text));
      }
      req.common.output = *text;
    } else if (explain && key == "pod") {
      req.explain.pod = *text;
    } else if (explain && key == "group") {
      req.explain.group = *text;
    } else if (explain && key == "attempt") {
      if (value.is_boolean()) return MakeError(ErrorCode::kInvalidArgument, "options.attempt: " + AtLeastOne(value.dump()));
      const auto n = ParseCount(*text, std::numeric_limits<std::int64_t>::max());
      if (!n.ok()) return MakeError(ErrorCode::kInvalidArgument, "options.attempt: " + n.error().message);
      req.explain.attempt = *n;
    } else if (explain && key == "at") {
      req.explain.at = *text;
      req.explain.at_set = true;
    } else if (Result applied = ApplySetting(key + "=" + *text, req.common, req.engine); !applied.ok()) {
      const std::string known = fmt::format("{}, output{}", SettingKeys(),
                                            explain ? ", pod, group, attempt, at" : "");
      return MakeError(ErrorCode::kInvalidArgument,
                       applied.error().message.rfind("unknown setting", 0) == 0
                           ? fmt::format("options.{}: unknown option (known: {})", key, known)
                           : fmt::format("options.{}", applied.error().message));
    }
  }
  if (explain && req.explain.pod.empty() == req.explain.group.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "options.pod or options.group: exactly one is required (the pod or pod group to explain)");
  }
  // The flags' own checks (a bad seed, until, gate), before any reading.
  if (auto checked = MakeOptions(req.common, req.engine); !checked.ok()) {
    return MakeError(ErrorCode::kInvalidArgument, AsOptionMessage(checked.error().message));
  }
  return req;
}

std::string_view ContentType(const std::string& output) {
  if (output == "html") return "text/html; charset=utf-8";
  if (output == "text") return "text/plain; charset=utf-8";
  return "application/json";
}

ApiResponse Run(std::string_view body, bool explain, const ServeLimits& limits) {
  Expected<Request> req = DecodeRequest(body, explain);
  if (!req.ok()) return ErrorResponse(400, req.error().message);
  io::ReadResult read = io::ReadManifestTexts(req->files);
  RunOutput out;
  {
    const Watchdog watchdog(limits.run_timeout, limits.stopping);
    out = explain ? RunExplain(std::move(read), req->common, req->engine, req->explain, watchdog.flag())
                  : RunSimulate(std::move(read), req->common, req->engine, watchdog.flag());
  }
  if (out.cancelled && limits.stopping != nullptr && limits.stopping->load()) {
    return ErrorResponse(503, "the server is stopping; the run was cancelled");
  }
  if (out.cancelled) {
    return ErrorResponse(503, fmt::format("the run took longer than the server's limit of {} s "
                                          "(kpsim serve --run-timeout) and was cancelled",
                                          limits.run_timeout.count() / 1000.0));
  }
  if (out.error) {
    return ErrorResponse(out.error->code == ErrorCode::kNotFound ? 404 : 400,
                         AsOptionMessage(out.error->message));
  }
  ApiResponse response;
  response.content_type = std::string(ContentType(req->common.output));
  response.body = std::move(out.output);
  return response;
}

// Whether `doc` nests deeper than `limit` (without recursion: serialising such a document would
// recurse once per level and could exhaust a worker's stack).
bool DeeperThan(const Json& doc, std::size_t limit) {
  std::vector<std::pair<const Json*, std::size_t>> stack{{&doc, 0}};
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    if (depth > limit) return true;
    if (!node->is_structured()) continue;
    for (const Json& child : *node) stack.emplace_back(&child, depth + 1);
  }
  return false;
}

// A run given as a JSON object (or as its text).
std::optional<std::string> RunText(const Json& doc, const char* key) {
  const auto it = doc.find(key);
  if (it == doc.end()) return std::nullopt;
  return it->is_string() ? it->get<std::string>() : it->dump();
}

ApiResponse Diff(std::string_view body) {
  const Json doc = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return ErrorResponse(400, "the body must be an object: {\"a\": <simulate JSON>, \"b\": <simulate JSON>}");
  }
  // A simulate document nests 6 levels deep; far deeper is not one (and must not be re-serialised).
  constexpr std::size_t kMaxDepth = 64;
  if (DeeperThan(doc, kMaxDepth)) {
    return ErrorResponse(400, fmt::format("the body nests deeper than {} levels; a simulate document does not", kMaxDepth));
  }
  const std::optional<std::string> a = RunText(doc, "a");
  const std::optional<std::string> b = RunText(doc, "b");
  if (!a || !b) return ErrorResponse(400, "a and b: required, two runs as simulate -o json prints them");
  std::string a_label = "a";
  std::string b_label = "b";
  if (const auto labels = doc.find("labels"); labels != doc.end()) {
    if (!labels->is_array() || labels->size() != 2 || !(*labels)[0].is_string() || !(*labels)[1].is_string()) {
      return ErrorResponse(400, "labels: must be two strings");
    }
    a_label = (*labels)[0].get<std::string>();
    b_label = (*labels)[1].get<std::string>();
  }
  auto diff = report::DiffRuns(*a, a_label, *b, b_label);
  if (!diff.ok()) return ErrorResponse(400, diff.error().message);
  ApiResponse response;
  response.body = report::RenderDiffJson(*diff);
  return response;
}

// The options an example's header asks for: the book profile for examples/book, the
// `# Flags: --feature-gates X` line of the pod-group examples, and `# Flags: --scale-up`.
Json ExampleOptions(const EmbeddedFile& file) {
  Json options = Json::object();
  if (file.name.rfind("book/", 0) == 0) options["profile"] = "book";
  constexpr std::string_view kFlags = "# Flags: --feature-gates ";
  if (const std::size_t at = file.content.find(kFlags); at != std::string_view::npos) {
    const std::size_t start = at + kFlags.size();
    const std::size_t end = file.content.find_first_of(" \n", start);
    options["featureGates"] = std::string(file.content.substr(start, end - start));
  }
  if (file.content.find("# Flags: --scale-up") != std::string_view::npos) options["scaleUp"] = true;
  return options;
}

}  // namespace

ApiResponse ErrorResponse(int status, std::string_view message) {
  ApiResponse response;
  response.status = status;
  response.body = Json{{"error", message}}.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  return response;
}

ApiResponse HandleApi(std::string_view endpoint, std::string_view body, const ServeLimits& limits) {
  if (body.size() > limits.max_body_bytes) {
    return ErrorResponse(413, fmt::format("the body is larger than the server's limit of {} bytes "
                                          "(kpsim serve --max-body)",
                                          limits.max_body_bytes));
  }
  if (endpoint == "simulate") return Run(body, /*explain=*/false, limits);
  if (endpoint == "explain") return Run(body, /*explain=*/true, limits);
  if (endpoint == "diff") return Diff(body);
  return ErrorResponse(404, fmt::format("no API endpoint {} (simulate, explain, diff, examples)", endpoint));
}

ApiResponse ExamplesResponse() {
  Json out = Json::array();
  for (const EmbeddedFile& file : BundledExamples()) {
    out.push_back(Json{{"name", file.name}, {"content", file.content}, {"options", ExampleOptions(file)}});
  }
  ApiResponse response;
  response.body = out.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  return response;
}

}  // namespace kpsim::app
