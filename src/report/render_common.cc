#include "report/render_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kpsim/engine_options.h"
#include "kpsim/report.h"
#include "kpsim/sim_time.h"

namespace kpsim::report::render {

std::int64_t RoundedMillis(SimTime t) {
  const std::int64_t micros = t.time_since_epoch().count();
  // Round half away from zero, in integers (no floating point drift).
  return micros >= 0 ? (micros + 500) / 1000 : -((-micros + 500) / 1000);
}

std::string Join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += sep;
    out += item;
  }
  return out;
}

std::string TextTable(const std::vector<std::vector<std::string>>& rows, std::string_view indent,
                      std::size_t gap) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (std::size_t col = 0; col < row.size(); ++col) {
      widths[col] = std::max(widths[col], row[col].size());
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line(indent);
    for (std::size_t col = 0; col < row.size(); ++col) {
      const bool last = col + 1 == row.size();
      line += last ? row[col] : fmt::format("{:<{}}", row[col], widths[col] + gap);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

namespace {

std::string FileErrorSource(const Error& e) {
  if (e.file.empty()) return "";
  SourceRef ref;
  ref.file = e.file;
  ref.document = e.document;
  ref.line = e.line;
  return ref.ToString();
}

}  // namespace

std::string FormatCpu(std::int64_t milli_cpu) {
  if (milli_cpu % 1000 == 0) return std::to_string(milli_cpu / 1000);
  return std::to_string(milli_cpu) + "m";
}

std::string FormatBytes(std::int64_t bytes) { return FormatBinarySI(bytes); }

Json ResourcesJson(const ResourceList& resources) {
  Json out = Json::object();
  out["cpu"] = FormatCpu(resources.milli_cpu);
  out["memory"] = FormatBytes(resources.memory);
  out["ephemeral-storage"] = FormatBytes(resources.ephemeral_storage);
  out["pods"] = std::to_string(resources.pods);
  for (const auto& [name, value] : resources.scalar) out[name] = std::to_string(value);
  return out;
}

Json Rounded3(const std::optional<double>& value) {
  if (!value) return nullptr;
  return std::round(*value * 1000.0) / 1000.0;
}

Json SecondsJson(SimTime t) {
  // The shortest round-trip form of millis/1000 is what nlohmann prints: 30.0, 1.5, 0.001.
  return static_cast<double>(RoundedMillis(t)) / 1000.0;
}

std::string SecondsText(SimTime t, int width) {
  const std::int64_t millis = RoundedMillis(t);
  const std::int64_t abs_millis = millis < 0 ? -millis : millis;
  const std::string text =
      fmt::format("{}{}.{:03}", millis < 0 ? "-" : "", abs_millis / 1000, abs_millis % 1000);
  return fmt::format("{:>{}}", text, width);
}

std::string_view ProfileName(Profile p) { return p == Profile::kBook ? "book" : "default"; }

std::string_view OperationName(Operation op) {
  return op == Operation::kUpdate ? "UPDATE" : "CREATE";
}

Json StringOrNull(std::string_view s) {
  if (s.empty()) return nullptr;
  return std::string(s);
}

std::vector<RejectedLine> RejectedLines(const io::ReadResult* read,
                                        const AdmissionResult* admission) {
  std::vector<RejectedLine> lines;
  if (read != nullptr) {
    for (const io::DecodeError& e : read->errors) {
      lines.push_back({e.kind, e.name, e.source.ToString(), e.message, /*located=*/true});
    }
    for (const Error& e : read->file_errors) {
      lines.push_back({"", "", FileErrorSource(e), e.ToString(), /*located=*/!e.file.empty()});
    }
  }
  if (admission != nullptr) {
    for (const AdmissionOutcome& o : admission->outcomes) {
      if (o.admitted) continue;
      lines.push_back({std::string(ObjectKindName(o.kind)), o.name, o.source.ToString(),
                       o.message, /*located=*/false});
    }
  }
  return lines;
}

Json RejectedJson(const io::ReadResult* read, const AdmissionResult* admission) {
  Json out = Json::array();
  for (const RejectedLine& line : RejectedLines(read, admission)) {
    Json entry = Json::object();
    entry["kind"] = line.kind;
    entry["name"] = line.name;
    entry["message"] = line.message;
    entry["source"] = line.source;
    out.push_back(std::move(entry));
  }
  return out;
}

Json IgnoredJson(const io::ReadResult* read) {
  Json out = Json::array();
  if (read == nullptr) return out;
  for (const io::IgnoredObject& o : read->ignored) {
    Json entry = Json::object();
    entry["kind"] = o.kind;
    entry["apiVersion"] = o.api_version;
    entry["name"] = o.name;
    entry["source"] = o.source.ToString();
    out.push_back(std::move(entry));
  }
  return out;
}

Json WarningsJson(std::span<const Warning> warnings) {
  Json out = Json::array();
  for (const Warning& w : warnings) {
    Json entry = Json::object();
    entry["code"] = w.code;
    entry["object"] = StringOrNull(w.object);
    entry["message"] = w.message;
    entry["file"] = StringOrNull(w.source.file);
    entry["line"] = w.source.line;
    entry["document"] = w.source.document;
    entry["source"] = StringOrNull(w.source.file.empty() ? "" : w.source.ToString());
    out.push_back(std::move(entry));
  }
  return out;
}

std::string WarningsText(std::span<const Warning> warnings) {
  if (warnings.empty()) return {};
  std::string out = fmt::format("\nWarnings ({}):\n", warnings.size());
  for (const std::string& line : WarningLines(warnings, "-o json lists every one")) out += fmt::format("  {}\n", line);
  return out;
}

std::string Dump(const Json& json) {
  // `error_handler_t::replace`: invalid UTF-8 from a manifest must not throw.
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

const Json& Get(const Json& object, const char* key) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

const Json& Items(const Json& object, const char* key) {
  static const Json kEmpty = Json::array();
  const Json& value = Get(object, key);
  return value.is_array() ? value : kEmpty;
}

std::string Text(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  if (value.is_number_unsigned()) return std::to_string(value.get<std::uint64_t>());
  if (value.is_number_float()) return fmt::format("{}", value.get<double>());
  if (value.is_array()) {
    std::string out;
    for (const Json& item : value) out += (out.empty() ? "" : ", ") + Text(item);
    return out;
  }
  return "";
}

std::string Text(const Json& object, const char* key) { return Text(Get(object, key)); }

bool Flag(const Json& object, const char* key) {
  const Json& value = Get(object, key);
  return value.is_boolean() && value.get<bool>();
}

std::int64_t Count(const Json& object, const char* key) {
  const Json& value = Get(object, key);
  return value.is_number() ? value.get<std::int64_t>() : 0;
}


std::string Esc(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace kpsim::report::render

namespace kpsim::report {

std::vector<Warning> CollectWarnings(const io::ReadResult* read, const AdmissionResult* admission,
                                     std::span<const Warning> more) {
  std::vector<Warning> out;
  if (read != nullptr) out.insert(out.end(), read->warnings.begin(), read->warnings.end());
  if (admission != nullptr) {
    out.insert(out.end(), admission->warnings.begin(), admission->warnings.end());
  }
  out.insert(out.end(), more.begin(), more.end());
  return out;
}

std::vector<std::string> WarningLines(std::span<const Warning> warnings, std::string_view where_all,
                                      std::size_t per_code) {
  std::vector<std::string> out;
  std::vector<std::pair<std::string_view, std::size_t>> met;  // code, count; codes are few
  for (const Warning& w : warnings) {
    auto it = std::find_if(met.begin(), met.end(), [&w](const auto& m) { return m.first == w.code; });
    if (it == met.end()) {
      met.emplace_back(w.code, 0);
      it = met.end() - 1;
    }
    if (it->second++ < per_code) out.push_back(WarningText(w));
  }
  for (const auto& [code, count] : met) {
    if (count <= per_code) continue;
    out.push_back(fmt::format("... and {} more {}warning{} like these{}", count - per_code,
                              code.empty() ? std::string() : fmt::format("[{}] ", code), count - per_code == 1 ? "" : "s",
                              where_all.empty() ? std::string() : fmt::format(" ({})", where_all)));
  }
  return out;
}

std::string WarningText(const Warning& warning) {
  std::string out;
  if (!warning.source.file.empty()) {
    out = warning.source.ToString();
    if (warning.source.line > 0 && warning.source.document > 0) {
      out += fmt::format(" (document {})", warning.source.document);
    }
    out += ": ";
  }
  if (!warning.object.empty()) out += warning.object + ": ";
  out += warning.message;
  if (!warning.code.empty()) out += fmt::format(" [{}]", warning.code);
  return out;
}


}  // namespace kpsim::report
