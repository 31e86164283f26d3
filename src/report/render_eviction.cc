// `kpsim evict` output: the kubelet's eviction ranking of one node's pods, as text and JSON.

#include <string>

#include <fmt/format.h>

#include "kpsim/eviction.h"
#include "kpsim/report.h"
#include "report/render_common.h"

namespace kpsim::report {

using render::Json;

namespace {

std::string AmountText(EvictionSignal signal, std::int64_t v) {
  const std::string_view resource = EvictionResource(signal);
  return resource == "memory" || resource == "ephemeral-storage" ? render::FormatBytes(v) : std::to_string(v);
}

}  // namespace

std::string RenderEvictionJson(const EvictionReport& report, std::span<const Warning> warnings) {
  Json ranking = Json::array();
  for (const RankedPod& r : report.ranking) {
    const EvictionCandidate& c = r.candidate;
    Json entry = Json::object();
    entry["pod"] = c.pod;
    entry["priority"] = c.priority;
    entry["usage"] = c.usage ? Json(AmountText(report.signal, *c.usage)) : Json(nullptr);
    entry["request"] = AmountText(report.signal, c.request);
    entry["exceedsRequest"] = r.exceeds_request;
    entry["critical"] = c.critical;
    entry["evictionOrder"] = r.eviction_order ? Json(*r.eviction_order) : Json(nullptr);
    entry["reason"] = r.reason;
    entry["message"] = r.eviction_order ? Json(r.message) : Json(nullptr);
    ranking.push_back(std::move(entry));
  }
  Json out = Json::object();
  out["node"] = report.node;
  out["signal"] = std::string(EvictionSignalName(report.signal));
  out["resource"] = std::string(EvictionResource(report.signal));
  out["ranking"] = std::move(ranking);
  out["warnings"] = render::WarningsJson(warnings);
  return render::Dump(out);
}

std::string RenderEvictionText(const EvictionReport& report, std::span<const Warning> warnings) {
  std::string out = fmt::format("Eviction ranking on node {} under {} ({}), as the kubelet orders it:\n",
                                report.node, EvictionSignalName(report.signal), EvictionResource(report.signal));
  if (report.ranking.empty()) out += "  (no running pod on the node)\n";
  for (const RankedPod& r : report.ranking) {
    const std::string order = r.eviction_order ? fmt::format("{:>3}.", *r.eviction_order) : std::string("  -.");
    out += fmt::format("{} {}  {}\n", order, r.candidate.pod, r.reason);
  }
  out += "The kubelet evicts the first pod, waits a housekeeping interval (10s), and evicts the next while "
         "the signal stays below its threshold; PodDisruptionBudgets are not consulted.\n";
  out += render::WarningsText(warnings);
  return out;
}

}  // namespace kpsim::report
