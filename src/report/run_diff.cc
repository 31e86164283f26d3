// Two saved runs side by side (kpsim/diff.h): victims, placements, waits, PDB violations and the
// disruption counts that differ between two `simulate -o json` documents.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kpsim/diff.h"
#include "kpsim/expected.h"
#include "report/render_common.h"

namespace kpsim::report {
namespace {

using render::Json;

// Waits closer than this (the JSON's millisecond precision) are equal.
constexpr double kSameWait = 0.0005;

struct PodRecord {
  std::string name;
  std::string state;
  std::string node;
  std::string replacement_of;
  std::optional<double> wait;
};

struct Run {
  RunFigures figures;
  std::vector<PodRecord> pods;                      // in the document's order
  std::unordered_map<std::string, std::size_t> pod_index;  // name -> pods[]
  std::vector<VictimOnlyIn> victims;                // first Preempted event per pod, in time order
};

using render::Flag;
using render::Get;
using render::Items;

// A string field, else "" (not render::Text, which would spell a number and walk an array).
std::string StringOr(const Json& j, const char* key) {
  const Json& value = Get(j, key);
  return value.is_string() ? value.get<std::string>() : std::string();
}

double NumberOr(const Json& j, const char* key) {
  const Json& value = Get(j, key);
  return value.is_number() ? value.get<double>() : 0;
}

// Reads the parts of a simulate document a diff compares. The document must be an object with
// `profile`, `events` and `pods`; anything else is not a run.
Expected<Run> ReadRun(std::string_view text, const std::string& label) {
  const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("{}: not JSON", label));
  }
  if (!doc.is_object() || !doc.contains("profile") || !Get(doc, "events").is_array() ||
      !Get(doc, "pods").is_array()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     fmt::format("{}: not a kpsim simulate document (`kpsim simulate -o json` "
                                 "prints one: an object with profile, events and pods)",
                                 label));
  }
  Run run;
  RunFigures& f = run.figures;
  f.label = label;
  f.profile = StringOr(doc, "profile");
  if (const auto seed = doc.find("seed"); seed != doc.end()) {
    if (seed->is_number_unsigned()) f.seed = std::to_string(seed->get<std::uint64_t>());
    else if (seed->is_number_integer()) f.seed = std::to_string(seed->get<std::int64_t>());
    else if (seed->is_string()) f.seed = seed->get<std::string>();
  }
  f.end_time = NumberOr(doc, "endTime");
  f.end_reason = StringOr(doc, "endReason");

  std::unordered_map<std::string, double> first_event;  // pod -> when it started waiting
  for (const Json& e : Items(doc, "events")) {
    if (!e.is_object()) continue;
    const std::string pod = StringOr(e, "pod");
    const double time = NumberOr(e, "time");
    const std::string reason = StringOr(e, "reason");
    // A pod starts waiting when it is created during the run or first tried; pods bound from
    // the start never wait.
    const bool arrival = reason == "Created" || reason == "FailedScheduling" ||
                         reason == "Scheduled" || reason == "Nominated";
    if (!pod.empty() && arrival) first_event.emplace(pod, time);
    if (reason == "Evicted") ++f.evictions;
    if (reason != "Preempted") continue;
    ++f.victims;
    const bool violation = Flag(e, "pdbViolation");
    f.pdb_violations += violation ? 1 : 0;
    run.victims.push_back(VictimOnlyIn{pod, StringOr(e, "node"), StringOr(e, "by"), time, violation});
  }
  for (const Json& p : Items(doc, "pods")) {
    if (!p.is_object()) continue;
    PodRecord rec;
    rec.name = StringOr(p, "pod");
    if (rec.name.empty() || run.pod_index.count(rec.name) > 0) continue;
    rec.state = StringOr(p, "state");
    rec.node = StringOr(p, "node");
    rec.replacement_of = StringOr(p, "replacementOf");
    f.running += rec.state == "Running" ? 1 : 0;
    f.pending += rec.state == "Pending" ? 1 : 0;
    if (const auto first = first_event.find(rec.name); first != first_event.end()) {
      if (p.contains("scheduledAt") && p["scheduledAt"].is_number()) {
        rec.wait = p["scheduledAt"].get<double>() - first->second;
      } else if (rec.state == "Pending") {
        rec.wait = f.end_time - first->second;
      }
    }
    run.pod_index.emplace(rec.name, run.pods.size());
    run.pods.push_back(std::move(rec));
  }
  std::set<std::string> broken;
  for (const Json& d : Items(doc, "decisions")) {
    if (!d.is_object()) continue;
    ++f.decisions;
    for (const Json& pdb : Items(d, "pdbs")) {
      if (pdb.is_object() && NumberOr(pdb, "allowedAfter") < 0) broken.insert(StringOr(pdb, "name"));
    }
  }
  f.pdbs_broken.assign(broken.begin(), broken.end());
  return run;
}

// A generated pod name without its random suffix ("web-7d4f9-stmmb" -> "web-7d4f9-"): the
// five characters of utilrand.String's alphabet kube-controller-manager's names end in; empty
// when the name has no such suffix.
std::string NameStem(const std::string& name) {
  constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  const std::size_t dash = name.rfind('-');
  if (dash == std::string::npos || name.size() - dash - 1 != 5) return {};
  for (std::size_t i = dash + 1; i < name.size(); ++i) {
    if (kAlphabet.find(name[i]) == std::string_view::npos) return {};
  }
  return name.substr(0, dash + 1);
}

// Pairs the pods of A and B (see `PodSide`): a_to_b[i] is the index in b.pods of a.pods[i]'s
// counterpart, or npos.
std::vector<std::size_t> MatchPods(const Run& a, const Run& b) {
  constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::vector<std::size_t> a_to_b(a.pods.size(), npos);
  std::vector<std::size_t> b_to_a(b.pods.size(), npos);
  for (std::size_t i = 0; i < a.pods.size(); ++i) {
    if (const auto it = b.pod_index.find(a.pods[i].name); it != b.pod_index.end()) {
      a_to_b[i] = it->second;
      b_to_a[it->second] = i;
    }
  }
  // A's unmatched pods, queued by what they replace and by name stem, in document order.
  std::map<std::string, std::deque<std::size_t>> by_replaced;
  std::map<std::string, std::deque<std::size_t>> by_stem;
  for (std::size_t i = 0; i < a.pods.size(); ++i) {
    if (a_to_b[i] != npos) continue;
    if (!a.pods[i].replacement_of.empty()) {
      by_replaced[a.pods[i].replacement_of].push_back(i);
    } else if (const std::string stem = NameStem(a.pods[i].name); !stem.empty()) {
      by_stem[stem].push_back(i);
    }
  }
  // B in document order: a replacement comes after the pod it replaces, so that pod is matched
  // (or known unmatched) by the time its replacement is reached.
  for (std::size_t j = 0; j < b.pods.size(); ++j) {
    if (b_to_a[j] != npos) continue;
    const PodRecord& pod = b.pods[j];
    std::deque<std::size_t>* queue = nullptr;
    if (!pod.replacement_of.empty()) {
      const auto replaced = b.pod_index.find(pod.replacement_of);
      if (replaced == b.pod_index.end() || b_to_a[replaced->second] == npos) continue;
      const auto it = by_replaced.find(a.pods[b_to_a[replaced->second]].name);
      if (it != by_replaced.end()) queue = &it->second;
    } else if (const std::string stem = NameStem(pod.name); !stem.empty()) {
      if (const auto it = by_stem.find(stem); it != by_stem.end()) queue = &it->second;
    }
    if (queue == nullptr || queue->empty()) continue;
    a_to_b[queue->front()] = j;
    b_to_a[j] = queue->front();
    queue->pop_front();
  }
  return a_to_b;
}

PodSide Side(const PodRecord* pod) {
  if (pod == nullptr) return {};
  return PodSide{pod->name, pod->state, pod->node, pod->wait};
}

bool SameWait(const std::optional<double>& a, const std::optional<double>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a.has_value() || std::fabs(*a - *b) < kSameWait;
}

// Victims of `from` whose counterpart (through `match`, from's index -> other's index) is not a
// victim of `other`.
std::vector<VictimOnlyIn> VictimsOnlyIn(const Run& from, const Run& other,
                                        const std::vector<std::size_t>& match) {
  std::set<std::string> other_victims;
  for (const VictimOnlyIn& v : other.victims) other_victims.insert(v.pod);
  std::set<std::string> seen;
  std::vector<VictimOnlyIn> out;
  for (const VictimOnlyIn& v : from.victims) {
    if (!seen.insert(v.pod).second) continue;
    const auto it = from.pod_index.find(v.pod);
    const std::size_t counterpart = it == from.pod_index.end() ? static_cast<std::size_t>(-1)
                                                               : match[it->second];
    if (counterpart != static_cast<std::size_t>(-1) &&
        other_victims.count(other.pods[counterpart].name) > 0) {
      continue;
    }
    out.push_back(v);
  }
  return out;
}

Json FiguresJson(const RunFigures& f) {
  Json out = Json::object();
  out["label"] = f.label;
  out["profile"] = f.profile;
  out["seed"] = f.seed;
  out["endTime"] = f.end_time;
  out["endReason"] = f.end_reason;
  out["victims"] = f.victims;
  out["pdbViolations"] = f.pdb_violations;
  out["evictions"] = f.evictions;
  out["decisions"] = f.decisions;
  out["running"] = f.running;
  out["pending"] = f.pending;
  out["pdbsBroken"] = f.pdbs_broken;
  return out;
}

Json VictimsJson(const std::vector<VictimOnlyIn>& victims) {
  Json out = Json::array();
  for (const VictimOnlyIn& v : victims) {
    Json j = Json::object();
    j["pod"] = v.pod;
    j["node"] = render::StringOrNull(v.node);
    j["by"] = render::StringOrNull(v.by);
    j["time"] = v.time;
    j["pdbViolation"] = v.pdb_violation;
    out.push_back(std::move(j));
  }
  return out;
}

Json SideJson(const PodSide& s) {
  if (s.name.empty()) return nullptr;
  Json j = Json::object();
  j["pod"] = s.name;
  j["state"] = s.state;
  j["node"] = render::StringOrNull(s.node);
  j["wait"] = s.wait.has_value() ? Json(*s.wait) : Json(nullptr);
  return j;
}

Json ChangesJson(const std::vector<PodChange>& changes) {
  Json out = Json::array();
  for (const PodChange& c : changes) {
    Json j = Json::object();
    j["a"] = SideJson(c.a);
    j["b"] = SideJson(c.b);
    out.push_back(std::move(j));
  }
  return out;
}

Json DiffJson(const RunDiff& diff) {
  Json out = Json::object();
  out["identical"] = diff.identical();
  out["a"] = FiguresJson(diff.a);
  out["b"] = FiguresJson(diff.b);
  out["victimsOnlyInA"] = VictimsJson(diff.victims_only_a);
  out["victimsOnlyInB"] = VictimsJson(diff.victims_only_b);
  out["placements"] = ChangesJson(diff.placements);
  out["waits"] = ChangesJson(diff.waits);
  return out;
}

std::string Seconds(double t) { return fmt::format("{:.3f}s", t); }

std::string RunLine(char side, const RunFigures& f) {
  return fmt::format("{}: {} (profile {}, seed {}, ended at {}, {})\n", side, f.label, f.profile,
                     f.seed.empty() ? "-" : f.seed, Seconds(f.end_time), f.end_reason);
}

std::string Joined(const std::vector<std::string>& names) {
  if (names.empty()) return "-";
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string FiguresTable(const RunFigures& a, const RunFigures& b) {
  const auto row = [](std::string_view what, const std::string& x, const std::string& y) {
    return fmt::format("  {:<16} {:<12} {}{}\n", what, x, y, x == y ? "" : "   *");
  };
  const auto num = [](std::int64_t n) { return std::to_string(n); };
  std::string out = fmt::format("  {:<16} {:<12} {}\n", "", "A", "B");
  out += row("victims", num(a.victims), num(b.victims));
  out += row("PDB violations", num(a.pdb_violations), num(b.pdb_violations));
  out += row("PDBs broken", Joined(a.pdbs_broken), Joined(b.pdbs_broken));
  out += row("evictions", num(a.evictions), num(b.evictions));
  out += row("decisions", num(a.decisions), num(b.decisions));
  out += row("running at end", num(a.running), num(b.running));
  out += row("pending at end", num(a.pending), num(b.pending));
  return out;
}

std::string VictimsText(char side, const std::vector<VictimOnlyIn>& victims) {
  if (victims.empty()) return fmt::format("Victims only in {}: none\n", side);
  std::string out = fmt::format("Victims only in {} ({}):\n", side, victims.size());
  for (const VictimOnlyIn& v : victims) {
    out += fmt::format("  {} on {} by {} at {}{}\n", v.pod, v.node.empty() ? "-" : v.node,
                       v.by.empty() ? "-" : v.by, Seconds(v.time),
                       v.pdb_violation ? " (PDB violation)" : "");
  }
  return out;
}

// The pod's name in A, with B's in parentheses when the runs named it differently.
std::string PodLabel(const PodChange& c) {
  if (c.a.name.empty()) return c.b.name + " (B only)";
  if (c.b.name.empty()) return c.a.name + " (A only)";
  return c.a.name == c.b.name ? c.a.name : fmt::format("{} (B: {})", c.a.name, c.b.name);
}

std::string PlacementText(const PodSide& s) {
  if (s.name.empty()) return "absent";
  return s.node.empty() ? s.state : fmt::format("{} on {}", s.state, s.node);
}

std::string WaitText(const PodSide& s) {
  if (!s.wait.has_value()) return "-";
  return s.state == "Pending" ? Seconds(*s.wait) + " (still pending)" : Seconds(*s.wait);
}

std::string ChangesText(std::string_view title, const std::vector<PodChange>& changes,
                        std::string (*show)(const PodSide&)) {
  if (changes.empty()) return fmt::format("{}: none\n", title);
  std::size_t width = 3;
  for (const PodChange& c : changes) width = std::max(width, PodLabel(c).size());
  std::size_t a_width = 1;
  for (const PodChange& c : changes) a_width = std::max(a_width, show(c.a).size());
  std::string out = fmt::format("{} ({}):\n  {:<{}}  {:<{}}  {}\n", title, changes.size(), "POD",
                                width, "A", a_width, "B");
  for (const PodChange& c : changes) {
    out += fmt::format("  {:<{}}  {:<{}}  {}\n", PodLabel(c), width, show(c.a), a_width, show(c.b));
  }
  return out;
}

std::string DiffBodyText(const RunDiff& diff) {
  std::string out = FiguresTable(diff.a, diff.b);
  if (diff.identical()) {
    return out + "\nNo differences in victims, placements, waits or PDB violations.\n";
  }
  out += "\n" + VictimsText('A', diff.victims_only_a);
  out += VictimsText('B', diff.victims_only_b);
  out += ChangesText("Placements that differ", diff.placements, PlacementText);
  out += ChangesText("Waits that differ", diff.waits, WaitText);
  return out;
}

}  // namespace

bool RunDiff::identical() const {
  return victims_only_a.empty() && victims_only_b.empty() && placements.empty() && waits.empty() &&
         a.victims == b.victims && a.pdb_violations == b.pdb_violations &&
         a.evictions == b.evictions && a.pdbs_broken == b.pdbs_broken;
}

Expected<RunDiff> DiffRuns(std::string_view a_json, std::string a_label, std::string_view b_json,
                           std::string b_label) {
  Expected<Run> a = ReadRun(a_json, a_label);
  if (!a.ok()) return a.error();
  Expected<Run> b = ReadRun(b_json, b_label);
  if (!b.ok()) return b.error();
  const std::vector<std::size_t> a_to_b = MatchPods(*a, *b);
  std::vector<std::size_t> b_to_a(b->pods.size(), static_cast<std::size_t>(-1));
  for (std::size_t i = 0; i < a_to_b.size(); ++i) {
    if (a_to_b[i] != static_cast<std::size_t>(-1)) b_to_a[a_to_b[i]] = i;
  }

  RunDiff diff;
  diff.a = a->figures;
  diff.b = b->figures;
  diff.victims_only_a = VictimsOnlyIn(*a, *b, a_to_b);
  diff.victims_only_b = VictimsOnlyIn(*b, *a, b_to_a);
  for (std::size_t i = 0; i < a->pods.size(); ++i) {
    const PodRecord& pa = a->pods[i];
    const PodRecord* pb = a_to_b[i] == static_cast<std::size_t>(-1) ? nullptr : &b->pods[a_to_b[i]];
    const PodChange change{Side(&pa), Side(pb)};
    if (pb == nullptr || pa.state != pb->state || pa.node != pb->node) {
      diff.placements.push_back(change);
    }
    if (pb != nullptr && !SameWait(pa.wait, pb->wait)) diff.waits.push_back(change);
  }
  for (std::size_t j = 0; j < b->pods.size(); ++j) {
    if (b_to_a[j] == static_cast<std::size_t>(-1)) {
      diff.placements.push_back(PodChange{PodSide{}, Side(&b->pods[j])});
    }
  }
  return diff;
}

std::string RenderDiffText(const RunDiff& diff) {
  return RunLine('A', diff.a) + RunLine('B', diff.b) + "\n" + DiffBodyText(diff);
}

std::string RenderDiffJson(const RunDiff& diff) { return render::Dump(DiffJson(diff)); }

std::string RenderCompareText(std::span<const RunDiff> diffs) {
  if (diffs.empty()) return {};
  std::string out = RunLine('A', diffs.front().a);
  for (const RunDiff& diff : diffs) {
    out += "\n" + std::string(60, '-') + "\n" + RunLine('B', diff.b) + "\n" + DiffBodyText(diff);
  }
  return out;
}

std::string RenderCompareJson(std::span<const RunDiff> diffs) {
  Json out = Json::object();
  out["base"] = diffs.empty() ? Json(nullptr) : FiguresJson(diffs.front().a);
  Json comparisons = Json::array();
  for (const RunDiff& diff : diffs) comparisons.push_back(DiffJson(diff));
  out["comparisons"] = std::move(comparisons);
  return render::Dump(out);
}

}  // namespace kpsim::report
