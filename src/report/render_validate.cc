// `kpsim validate` output: every input object's admission outcome, then what could not be read
// and what was ignored.

#include <string>

#include <fmt/format.h>

#include "report/render_common.h"
#include "kpsim/io.h"
#include "kpsim/report.h"

namespace kpsim::report {

using render::Json;

std::string RenderValidateJson(const io::ReadResult& read, const AdmissionResult& admission) {
  Json objects = Json::array();
  for (const AdmissionOutcome& o : admission.outcomes) {
    Json entry = Json::object();
    entry["kind"] = std::string(ObjectKindName(o.kind));
    entry["name"] = o.name;
    entry["operation"] = std::string(render::OperationName(o.operation));
    entry["admitted"] = o.admitted;
    entry["message"] = o.message;
    // Pods and pod groups carry their resolved priority; other kinds have null here.
    const bool has_priority = o.priority.has_value();
    entry["priority"] = has_priority ? Json(*o.priority) : Json(nullptr);
    entry["priorityClassName"] = has_priority ? Json(o.priority_class_name) : Json(nullptr);
    entry["preemptionPolicy"] = o.preemption_policy.has_value()
                                    ? Json(std::string(PreemptionPolicyName(*o.preemption_policy)))
                                    : Json(nullptr);
    entry["source"] = o.source.ToString();
    objects.push_back(std::move(entry));
  }
  Json out = Json::object();
  out["objects"] = std::move(objects);
  out["rejected"] = render::RejectedJson(&read, nullptr);
  out["ignored"] = render::IgnoredJson(&read);
  const std::vector<Warning> warnings = CollectWarnings(&read, &admission);
  out["warnings"] = render::WarningsJson(warnings);
  int admitted = 0;
  for (const AdmissionOutcome& o : admission.outcomes) admitted += o.admitted ? 1 : 0;
  Json summary = Json::object();
  // Every input object: admitted or refused by admission, or not decodable (as the text summary).
  summary["objects"] = admission.outcomes.size() + read.errors.size() + read.file_errors.size();
  summary["admitted"] = admitted;
  summary["rejected"] = admission.outcomes.size() - static_cast<std::size_t>(admitted) +
                        read.errors.size() + read.file_errors.size();
  summary["ignored"] = read.ignored.size();
  summary["warnings"] = warnings.size();
  out["summary"] = std::move(summary);
  return render::Dump(out);
}

std::string RenderValidateText(const io::ReadResult& read, const AdmissionResult& admission) {
  std::string out;
  int admitted = 0;
  for (const AdmissionOutcome& o : admission.outcomes) {
    const std::string where = o.source.ToString();
    if (o.admitted) {
      ++admitted;
      std::string detail;
      if (o.priority.has_value()) {
        detail = fmt::format(" (priority {}", *o.priority);
        if (!o.priority_class_name.empty()) detail += ", class " + o.priority_class_name;
        if (o.preemption_policy.has_value()) {
          detail += fmt::format(", preemptionPolicy {}", PreemptionPolicyName(*o.preemption_policy));
        }
        detail += ")";
      }
      out += fmt::format("{:<6} {} {}{}  [{}]\n", render::OperationName(o.operation),
                         ObjectKindName(o.kind), o.name, detail, where);
    } else {
      out += fmt::format("REJECT {} {}  [{}]\n       {}\n", ObjectKindName(o.kind), o.name, where,
                         o.message);
    }
  }
  const auto read_failures = render::RejectedLines(&read, nullptr);
  if (!read_failures.empty()) {
    out += "\nCould not be read:\n";
    for (const auto& line : read_failures) out += fmt::format("  {}\n", line.message);
  }
  if (!read.ignored.empty()) {
    out += "\nIgnored (kinds kpsim does not model):\n";
    for (const io::IgnoredObject& o : read.ignored) {
      out += fmt::format("  {} {}  [{}]\n", o.kind, o.name, o.source.ToString());
    }
  }
  const std::vector<Warning> warnings = CollectWarnings(&read, &admission);
  out += render::WarningsText(warnings);
  const std::size_t rejected =
      admission.outcomes.size() - static_cast<std::size_t>(admitted) + read_failures.size();
  out += fmt::format("\n{} objects: {} admitted, {} rejected, {} ignored, {} warning{}\n",
                     admission.outcomes.size() + read_failures.size(), admitted, rejected,
                     read.ignored.size(), warnings.size(), warnings.size() == 1 ? "" : "s");
  return out;
}

}  // namespace kpsim::report
