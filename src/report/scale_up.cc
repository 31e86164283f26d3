#include "report/scale_up.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "report/disruption.h"

namespace kpsim::report {
namespace {

using render::Json;

// One world's side of the comparison. "Waited": pods the scheduler failed to place at least once
// (a FailedScheduling event). The waits are those of the waiting pods that were placed, from
// their first event to their placement: the two worlds end at different times, so a wait "until
// the end" would not compare; the pods still pending are counted apart.
struct World {
  std::int64_t evicted = 0, pdbs_broken = 0, groups_broken = 0, nodes_added = 0;
  std::int64_t waited = 0, placed = 0, pending = 0;
  double total_wait = 0, max_wait = 0;
  std::optional<SimTime> last_placement;  // of the pods that waited
};

struct Fate {
  std::string state;  // PodStateName, or "Evicted"
  std::string node;
  std::optional<SimTime> at;  // placement (or eviction) time
  bool waited = false;
};

// The world's figures, and every pod's fate in it (keyed by views of `sim`'s pod names).
World Summarize(const SimulationResult& sim, std::unordered_map<std::string_view, Fate>& fates) {
  World w;
  const DisruptionCost d = ComputeDisruption(sim);
  w.evicted = d.evicted_pods;
  w.pdbs_broken = static_cast<std::int64_t>(d.pdbs_broken.size());
  w.groups_broken = static_cast<std::int64_t>(d.groups_broken.size());
  w.pending = d.pending;
  std::unordered_map<std::string_view, SimTime> first;
  std::unordered_map<std::string_view, SimTime> evicted_at;
  std::unordered_map<std::string_view, bool> failed;
  for (const SimEvent& e : sim.events) {
    first.emplace(e.pod, e.time);
    if (e.reason == EventReason::kFailedScheduling) failed[e.pod] = true;
    if (e.reason == EventReason::kPreempted) evicted_at.emplace(e.pod, e.time);
  }
  for (const PodOutcome& p : sim.pods) {
    Fate f;
    f.state = std::string(PodStateName(p.state));
    f.node = p.node;
    f.at = p.scheduled_at;
    if (const auto it = evicted_at.find(p.pod); it != evicted_at.end()) {
      f.state = "Evicted";
      f.at = it->second;
    }
    f.waited = failed.contains(p.pod);
    if (f.waited) {
      ++w.waited;
      if (p.state == PodState::kRunning && p.scheduled_at) {
        ++w.placed;
        const double wait = ToSeconds(*p.scheduled_at) - ToSeconds(first.at(p.pod));
        w.total_wait += wait;
        w.max_wait = std::max(w.max_wait, wait);
        if (!w.last_placement || *w.last_placement < *p.scheduled_at) w.last_placement = p.scheduled_at;
      }
    }
    fates.emplace(p.pod, std::move(f));
  }
  return w;
}

Json WorldJson(const World& w) {
  Json out = Json::object();
  out["evictedPods"] = w.evicted;
  out["pdbsBroken"] = w.pdbs_broken;
  out["groupsBroken"] = w.groups_broken;
  out["nodesAdded"] = w.nodes_added;
  out["waited"] = w.waited;
  out["placed"] = w.placed;
  out["pending"] = w.pending;
  out["meanWait"] = w.placed > 0 ? render::Rounded3(w.total_wait / static_cast<double>(w.placed)) : Json(nullptr);
  out["maxWait"] = w.placed > 0 ? render::Rounded3(w.max_wait) : Json(nullptr);
  out["lastPlacement"] = w.last_placement ? render::SecondsJson(*w.last_placement) : Json(nullptr);
  return out;
}

Json FateJson(const Fate* f) {
  // A pod of one world only (a replacement a controller made for a victim).
  if (f == nullptr) return Json{{"state", "Absent"}, {"node", nullptr}, {"at", nullptr}, {"waited", false}};
  return Json{{"state", f->state},
              {"node", render::StringOrNull(f->node)},
              {"at", f->at ? render::SecondsJson(*f->at) : Json(nullptr)},
              {"waited", f->waited}};
}

double Seconds(const Json& value) { return value.is_number() ? value.get<double>() : 0.0; }

std::string SecondsOrDash(const Json& value) {
  return value.is_number() ? fmt::format("{:.3f}s", value.get<double>()) : "-";
}

}  // namespace

Json ScaleUpJson(const ScaleUpReport& report, const SimulationResult& scale_up_world) {
  Json out = Json::object();
  out["expander"] = std::string(ExpanderName(report.expander));
  out["delay"] = render::SecondsJson(SimTime(report.delay));
  out["scanInterval"] = render::SecondsJson(SimTime(report.scan_interval));
  out["maxNewNodes"] = report.max_new_nodes;
  out["templates"] = report.templates;
  std::int64_t added = 0;
  std::map<std::string, std::int64_t> by_template;
  Json additions = Json::array();
  for (const ScaleUpAddition& a : report.additions) {
    added += static_cast<std::int64_t>(a.nodes.size());
    by_template[a.template_name] += static_cast<std::int64_t>(a.nodes.size());
    Json options = Json::array();
    for (const ScaleUpOption& o : a.options) {
      options.push_back(Json{{"template", o.template_name},
                             {"nodes", o.nodes},
                             {"pods", o.pods},
                             {"waste", o.nodes > 0 ? render::Rounded3(o.waste) : Json(nullptr)}});
    }
    additions.push_back(Json{{"decidedAt", render::SecondsJson(a.decided_at)},
                             {"readyAt", render::SecondsJson(a.ready_at)},
                             {"template", a.template_name},
                             {"nodes", a.nodes},
                             {"pods", a.pods},
                             {"options", std::move(options)}});
  }
  out["nodesAdded"] = added;
  Json by = Json::array();
  for (const std::string& t : report.templates) {
    if (const auto it = by_template.find(t); it != by_template.end()) by.push_back(Json{{"template", t}, {"nodes", it->second}});
  }
  out["byTemplate"] = std::move(by);
  out["additions"] = std::move(additions);
  Json unhelped = Json::array();
  for (const auto& u : report.no_template) unhelped.push_back(Json{{"pod", u.pod}, {"reason", u.reason}});
  out["noTemplate"] = std::move(unhelped);
  out["stop"] = render::StringOrNull(report.stop);
  out["worlds"] = report.worlds;

  std::unordered_map<std::string_view, Fate> preempt_fates, scale_fates;
  const World preempt = Summarize(report.preempt, preempt_fates);
  World scale = Summarize(scale_up_world, scale_fates);
  scale.nodes_added = added;
  Json comparison = Json::object();
  comparison["preempt"] = WorldJson(preempt);
  comparison["scaleUp"] = WorldJson(scale);
  // Every pod that waited (or was evicted) in either world, in the preempt world's pod order,
  // then the scale-up world's own.
  Json pods = Json::array();
  std::unordered_map<std::string_view, bool> listed;
  auto row = [&](const SharedString& pod) {
    if (!listed.emplace(pod, true).second) return;
    const auto a = preempt_fates.find(pod);
    const auto b = scale_fates.find(pod);
    const auto notable = [](const auto& it, const auto& fates) {
      return it != fates.end() && (it->second.waited || it->second.state == "Evicted");
    };
    if (!notable(a, preempt_fates) && !notable(b, scale_fates)) return;
    pods.push_back(Json{{"pod", pod.string()},
                        {"preempt", FateJson(a == preempt_fates.end() ? nullptr : &a->second)},
                        {"scaleUp", FateJson(b == scale_fates.end() ? nullptr : &b->second)}});
  };
  for (const PodOutcome& p : report.preempt.pods) row(p.pod);
  for (const PodOutcome& p : scale_up_world.pods) row(p.pod);
  comparison["pods"] = std::move(pods);
  out["comparison"] = std::move(comparison);
  return out;
}

FateKind FateOf(const Json& fate) {
  const std::string state = render::Text(fate, "state");
  const Json& waited = render::Get(fate, "waited");
  if (state == "Running") {
    const bool from_start = Seconds(render::Get(fate, "at")) == 0.0 && !(waited.is_boolean() && waited.get<bool>());
    return from_start ? FateKind::kNeverWaited : FateKind::kPlacedAt;
  }
  if (state == "Absent") return FateKind::kAbsent;
  if (state == "Evicted") return FateKind::kEvictedAt;
  return FateKind::kOther;
}

std::string ScaleUpText(const Json& s) {
  using render::Count;
  using render::Get;
  using render::Items;
  using render::Text;
  std::string out = "\nPreempt or scale up:\n";
  out += fmt::format("  the Cluster Autoscaler's answer instead of preemption: expander {}, nodes Ready {}s after "
                     "the decision, a loop every {}s, at most {} new nodes\n",
                     Text(s, "expander"), Text(s, "delay"), Text(s, "scanInterval"), Count(s, "maxNewNodes"));
  const Json& cmp = Get(s, "comparison");
  const Json& a = Get(cmp, "preempt");
  const Json& b = Get(cmp, "scaleUp");
  std::vector<std::string> added;
  for (const Json& t : Items(s, "byTemplate")) added.push_back(fmt::format("{} x {}", Count(t, "nodes"), Text(t, "template")));
  std::vector<std::vector<std::string>> rows = {{"", "PREEMPT", "SCALE UP"}};
  rows.push_back({"pods evicted", Text(a, "evictedPods"), Text(b, "evictedPods")});
  rows.push_back({"PDBs broken", Text(a, "pdbsBroken"), Text(b, "pdbsBroken")});
  rows.push_back({"pod groups broken", Text(a, "groupsBroken"), Text(b, "groupsBroken")});
  rows.push_back({"nodes added", "0",
                  Text(b, "nodesAdded") + (added.empty() ? "" : " (" + render::Join(added, ", ") + ")")});
  rows.push_back({"pods that waited", Text(a, "waited"), Text(b, "waited")});
  rows.push_back({"  placed", Text(a, "placed"), Text(b, "placed")});
  rows.push_back({"pods pending at end", Text(a, "pending"), Text(b, "pending")});
  rows.push_back({"mean wait (placed)", SecondsOrDash(Get(a, "meanWait")), SecondsOrDash(Get(b, "meanWait"))});
  rows.push_back({"max wait (placed)", SecondsOrDash(Get(a, "maxWait")), SecondsOrDash(Get(b, "maxWait"))});
  rows.push_back({"last waiting pod placed at", SecondsOrDash(Get(a, "lastPlacement")),
                  SecondsOrDash(Get(b, "lastPlacement"))});
  out += render::TextTable(rows, "  ");
  for (const Json& add : Items(s, "additions")) {
    out += fmt::format("  at {:.3f}s the autoscaler adds {} x {} (Ready at {:.3f}s) for {} pod(s):", Seconds(Get(add, "decidedAt")),
                       Items(add, "nodes").size(), Text(add, "template"), Seconds(Get(add, "readyAt")),
                       Items(add, "pods").size());
    std::vector<std::string> options;
    constexpr std::size_t kOptionsShown = 6;  // the JSON has every group's
    const Json& all = Items(add, "options");
    for (const Json& o : all) {
      if (options.size() == kOptionsShown) {
        options.push_back(fmt::format("{} more groups (-o json)", all.size() - kOptionsShown));
        break;
      }
      options.push_back(fmt::format("{} {} node(s) for {} pod(s){}", Text(o, "template"), Count(o, "nodes"),
                                    Count(o, "pods"),
                                    Get(o, "waste").is_number() ? fmt::format(", waste {:.3f}", Seconds(Get(o, "waste"))) : ""));
    }
    out += " estimates " + render::Join(options, "; ") + "\n";
  }
  for (const Json& u : Items(s, "noTemplate")) {
    out += fmt::format("  no new node takes {}: {}\n", Text(u, "pod"), Text(u, "reason"));
  }
  if (!Text(s, "stop").empty()) out += "  stopped adding nodes: " + Text(s, "stop") + "\n";
  const auto fate = [](const Json& f) -> std::string {
    switch (FateOf(f)) {
      case FateKind::kNeverWaited: return Text(f, "node") + " (never waited)";
      case FateKind::kPlacedAt: return fmt::format("{} at {:.3f}s", Text(f, "node"), Seconds(Get(f, "at")));
      case FateKind::kAbsent: return "- (no such pod)";
      case FateKind::kEvictedAt: return fmt::format("evicted at {:.3f}s", Seconds(Get(f, "at")));
      case FateKind::kOther: break;
    }
    return Text(f, "state");
  };
  const Json& pods = Items(cmp, "pods");
  if (pods.empty()) return out;
  std::vector<std::vector<std::string>> prow = {{"POD", "WITH PREEMPTION", "WITH SCALE-UP"}};
  constexpr std::size_t kShown = 40;
  for (std::size_t i = 0; i < pods.size() && i < kShown; ++i) {
    prow.push_back({Text(pods[i], "pod"), fate(Get(pods[i], "preempt")), fate(Get(pods[i], "scaleUp"))});
  }
  out += render::TextTable(prow, "  ");
  if (pods.size() > kShown) out += fmt::format("  ... and {} more (-o json: scaleUp.comparison.pods)\n", pods.size() - kShown);
  return out;
}

}  // namespace kpsim::report
