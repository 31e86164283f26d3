#pragma once

// Formatting helpers shared by the renderers (render_*.cc): Kubernetes-style quantities, simulated
// times, and the JSON pieces several outputs share. Everything is a pure function of its input,
// so identical input renders byte-identically (house style G14).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kpsim/admission.h"
#include "kpsim/api/types.h"
#include "kpsim/engine_options.h"
#include "kpsim/io.h"
#include "kpsim/sim_time.h"

namespace kpsim::report::render {

using Json = nlohmann::ordered_json;

// "1500m", or "2" when the amount is whole cores.
std::string FormatCpu(std::int64_t milli_cpu);
// Bytes: with the largest binary suffix that is exact ("512Mi", "4Gi"), else a plain integer.
std::string FormatBytes(std::int64_t bytes);

// `{"cpu", "memory", "ephemeral-storage", "pods", <extended resources by name>}` as quantity
// strings; the four standard keys are always present.
Json ResourcesJson(const ResourceList& resources);

// Simulated time in whole milliseconds, rounded half away from zero (as every output writes it).
std::int64_t RoundedMillis(SimTime t);

// `items` joined by `sep`.
std::string Join(const std::vector<std::string>& items, std::string_view sep);
// Rows as left-aligned columns `gap` spaces apart, each line starting with `indent` (trailing
// spaces trimmed), one "\n"-terminated line per row.
std::string TextTable(const std::vector<std::vector<std::string>>& rows, std::string_view indent,
                      std::size_t gap = 2);

// A ratio or a duration in seconds to three decimals (as the JSON writes times); null when absent.
Json Rounded3(const std::optional<double>& value);

// Simulated time in seconds with millisecond precision (rounded half away from zero), as a JSON
// number: 30.0, 1.5, 0.001.
Json SecondsJson(SimTime t);
// The same time as text with three decimals, right-aligned to `width`: "  30.000".
std::string SecondsText(SimTime t, int width = 8);

// Stable names (kept here so report/ needs no engine library).
std::string_view ProfileName(Profile p);
std::string_view OperationName(Operation op);

// An empty string as JSON null, anything else as the string.
Json StringOrNull(std::string_view s);

// `rejected` entries: decode errors, whole-file errors and (when `admission` is not null)
// admission outcomes that were not admitted, in that order; each `{kind, name, message, source}`.
Json RejectedJson(const io::ReadResult* read, const AdmissionResult* admission);
// `ignored` entries: `{kind, apiVersion, name, source}`.
Json IgnoredJson(const io::ReadResult* read);

// One rejected or ignored object in plain words, for the text renderers.
struct RejectedLine {
  std::string kind;
  std::string name;
  std::string source;
  std::string message;
  // The reader's errors are self-contained: `message` already starts with the file and place
  // (and names the object), so text output prints it alone rather than naming the file twice.
  bool located = false;
};
std::vector<RejectedLine> RejectedLines(const io::ReadResult* read,
                                        const AdmissionResult* admission);

// `warnings` entries: `{code, object, message, file, line, document, source}` (file null and
// line/document 0 when the warning is not tied to an input place).
Json WarningsJson(std::span<const Warning> warnings);
// "\nWarnings (N):\n  <WarningText>\n..." or nothing when there are none.
std::string WarningsText(std::span<const Warning> warnings);

// Escapes text for HTML element content and double- or single-quoted attribute values.
std::string Esc(std::string_view text);

// Reading a rendered JSON document without exceptions (the HTML report, `kpsim diff`): a missing
// key or a value of another type reads as null, an empty array, "" or 0.
const Json& Get(const Json& object, const char* key);
const Json& Items(const Json& object, const char* key);  // an array, or an empty one
// A scalar as display text: strings verbatim, numbers in shortest form, null as "" (arrays as
// their items' text, comma-separated: one call per nesting level).
std::string Text(const Json& value);
std::string Text(const Json& object, const char* key);
bool Flag(const Json& object, const char* key);          // true only for a boolean true
std::int64_t Count(const Json& object, const char* key);  // a number, else 0

// `json.dump(2)` plus a trailing newline.
std::string Dump(const Json& json);

}  // namespace kpsim::report::render
