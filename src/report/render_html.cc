// `-o html`: a self-contained report page. The page is web/index.html (embedded at build time)
// filled with: the exact JSON of the json renderer (inside a <script type="application/json">),
// static HTML tables derived from that same JSON (readable without JavaScript), web/style.css
// and web/app.js (which draws the timeline from the embedded JSON and nothing else).
//
// The tables are built from the parsed JSON rather than from the result structs, so the page can
// show nothing the JSON does not say. Everything is a pure function of its input: no timestamps,
// no random ids, object keys in the JSON's own order (house style G14, G15).

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kpsim/diff.h"
#include "kpsim/explain.h"
#include "kpsim/report.h"
#include "report/deflate.h"
#include "report/render_capacity.h"
#include "report/render_common.h"
#include "report/scale_up.h"
#include "report/web_assets.h"

namespace kpsim::report {
namespace {

using Json = nlohmann::ordered_json;
using render::Count;
using render::Esc;
using render::Flag;
using render::Get;
using render::Items;
using render::Text;

// ---------------------------------------------------------------------------------------------
// Escaping and the template.

// Makes JSON text safe inside <script type="application/json">: `<`, `>` and `&` only occur inside
// JSON strings, where `\u003c`, `\u003e` and `\u0026` mean the same characters, so the result
// parses to the same value and can never contain `</script` or `<!--`.
std::string EscapeScriptJson(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  for (const char c : json) {
    switch (c) {
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Makes a JSON array of strings of HTML safe inside <script type="application/json"> at less cost
// than EscapeScriptJson (row HTML is mostly tags): only `</` (which could close the element) and
// `<!--` (which could make the parser skip past it) are written differently, as `<\/` and
// `\u003c!--`, the same characters inside a JSON string.
std::string EscapeScriptJsonLight(std::string_view json) {
  std::string out;
  out.reserve(json.size() + json.size() / 16);
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') {
      out += "<\\/";
      ++i;
    } else if (json.compare(i, 4, "<!--") == 0) {
      out += "\\u003c";
    } else {
      out += json[i];
    }
  }
  return out;
}

// JSON longer than this is embedded deflated and base64-encoded (data-encoding="deflate-base64",
// decoded by web/app.js readEmbedded): the browser spends about 36 ms per MB of page it parses,
// and a run's JSON deflates about 30 to 1, so a 5000-node report shrinks from 65 MB to 6 MB.
constexpr std::size_t kDeflateAbove = std::size_t{1} << 20;

// A JSON text for a <script type="application/json">: its extra attributes and its content.
struct ScriptJson {
  std::string attrs;
  std::string text;
};
ScriptJson EmbedJson(std::string_view json, bool light) {
  if (json.size() > kDeflateAbove) {
    if (std::string packed = DeflateBase64(json); !packed.empty()) {
      return {" data-encoding=\"deflate-base64\"", std::move(packed)};
    }
  }
  return {"", light ? EscapeScriptJsonLight(json) : EscapeScriptJson(json)};
}

// Replaces each `@KPSIM_NAME@` in `tmpl` by `values.at("NAME")` in one left-to-right pass:
// substituted text is never scanned again, so data cannot inject a placeholder. Unknown
// placeholders are kept verbatim.
std::string FillTemplate(std::string_view tmpl, const std::map<std::string, std::string>& values) {
  constexpr std::string_view kOpen = "@KPSIM_";
  std::string out;
  std::size_t pos = 0;
  while (pos < tmpl.size()) {
    const std::size_t start = tmpl.find(kOpen, pos);
    if (start == std::string_view::npos) break;
    const std::size_t name_begin = start + kOpen.size();
    const std::size_t end = tmpl.find('@', name_begin);
    if (end == std::string_view::npos) break;
    const auto it = values.find(std::string(tmpl.substr(name_begin, end - name_begin)));
    out += tmpl.substr(pos, start - pos);
    if (it == values.end()) {
      out += tmpl.substr(start, end + 1 - start);
    } else {
      out += it->second;
    }
    pos = end + 1;
  }
  out += tmpl.substr(pos);
  return out;
}

std::string Page(std::string_view kind, std::string_view title, std::string_view body,
                 std::string_view json) {
  ScriptJson data = EmbedJson(json, /*light=*/false);
  return FillTemplate(web::IndexHtml(), {{"TITLE", Esc(title)},
                                         {"KIND", std::string(kind)},
                                         {"STYLE", std::string(web::StyleCss())},
                                         {"BODY", std::string(body)},
                                         {"DATA_ATTRS", std::move(data.attrs)},
                                         {"DATA", std::move(data.text)},
                                         {"SCRIPT", std::string(web::EmbeddedJs()) + std::string(web::AppJs())}});
}

// A filter verdict's reasons, escaped, "; "-separated.
std::string Reasons(const Json& filter) {
  std::string out;
  for (const Json& r : Items(filter, "reasons")) out += (out.empty() ? "" : "; ") + Esc(Text(r));
  return out;
}

// Simulated seconds as "30s", "1.5s"; "" when absent.
std::string Seconds(const Json& object, const char* key) {
  const Json& value = Get(object, key);
  return value.is_number() ? fmt::format("{}s", value.get<double>()) : "";
}

// ---------------------------------------------------------------------------------------------
// HTML pieces.

// "1 event", "12 events".
std::string Plural(std::size_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

std::string Dash(const std::string& text) { return text.empty() ? "–" : Esc(text); }

// A pod name as a cell that the script can cross-highlight (`data-pod`).
std::string PodRef(const std::string& pod) {
  if (pod.empty()) return "–";
  return fmt::format("<span class=\"pod\" data-pod=\"{}\">{}</span>", Esc(pod), Esc(pod));
}

std::string PodRefs(const Json& pods) {
  std::string out;
  for (const Json& pod : pods) out += (out.empty() ? "" : ", ") + PodRef(Text(pod));
  return out.empty() ? "–" : out;
}

std::string Badge(std::string_view css, std::string_view text) {
  return fmt::format("<span class=\"badge {}\">{}</span>", css, Esc(text));
}

std::string StateBadge(const std::string& state) {
  std::string css = "state-other";
  if (state == "Running") css = "state-running";
  if (state == "Pending") css = "state-pending";
  if (state == "Terminating") css = "state-terminating";
  if (state == "Deleted") css = "state-deleted";
  return Badge(css, state);
}

// `{"cpu": "2", "memory": "8Gi", ...}` as "cpu 2 · memory 8Gi · pods 110" (cpu, memory and pods
// always; any other resource when it is not zero).
std::string Resources(const Json& resources) {
  std::string out;
  if (!resources.is_object()) return "–";
  for (const auto& [name, value] : resources.items()) {
    const std::string amount = Text(value);
    const bool always = name == "cpu" || name == "memory" || name == "pods";
    if (!always && amount == "0") continue;
    out += fmt::format("{}<span class=\"res\">{} <b>{}</b></span>", out.empty() ? "" : " ",
                       Esc(name), Esc(amount));
  }
  return out;
}

class Table {
 public:
  Table(std::string css, std::vector<std::string> headers)
      : css_(std::move(css)), headers_(std::move(headers)) {}
  // Cells are HTML (already escaped). `row_attrs` go into the <tr> tag verbatim.
  void Row(std::vector<std::string> cells, std::string row_attrs = "") {
    rows_.push_back({std::move(row_attrs), std::move(cells)});
  }
  bool Empty() const { return rows_.empty(); }
  // Up to kInlineRows rows are plain HTML. A longer table shows its first kInlineRows rows and
  // carries every row as a JSON array of row HTML in a script element after it, which the page's
  // script pages, searches and sorts (web/app.js, pagedTables): text in a script is not laid out,
  // so a 5000-node run's 100k rows no longer make the page take tens of seconds to open.
  static constexpr std::size_t kInlineRows = 200;

  std::string Render() const {
    const bool paged = rows_.size() > kInlineRows;
    std::string out =
        paged ? fmt::format("<div class=\"table-wrap paged\" data-total=\"{}\"><table class=\"{}\">\n<thead><tr>",
                            rows_.size(), css_)
              : fmt::format("<div class=\"table-wrap\"><table class=\"{}\">\n<thead><tr>", css_);
    for (const std::string& h : headers_) out += "<th>" + Esc(h) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    const std::size_t shown = paged ? kInlineRows : rows_.size();
    for (std::size_t i = 0; i < shown; ++i) out += RowHtml(rows_[i]) + "\n";
    out += "</tbody></table>";
    if (paged) {
      Json all = Json::array();
      for (const auto& row : rows_) all.push_back(RowHtml(row));
      const ScriptJson rows = EmbedJson(all.dump(-1, ' ', false, Json::error_handler_t::replace), /*light=*/true);
      out += "\n<script type=\"application/json\" class=\"table-rows\"" + rows.attrs + ">" + rows.text + "</script>";
    }
    out += "</div>\n";
    return out;
  }

 private:
  std::string css_;
  std::vector<std::string> headers_;
  std::vector<std::pair<std::string, std::vector<std::string>>> rows_;

  static std::string RowHtml(const std::pair<std::string, std::vector<std::string>>& row) {
    const auto& [attrs, cells] = row;
    std::string out = attrs.empty() ? "<tr>" : "<tr " + attrs + ">";
    for (const std::string& cell : cells) out += "<td>" + cell + "</td>";
    return out + "</tr>";
  }
};

std::string Section(std::string_view id, std::string_view title, std::string_view content,
                    std::string_view note = "") {
  std::string out = fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", id, Esc(title));
  if (!note.empty()) out += fmt::format("<p class=\"note\">{}</p>\n", note);
  out += content;
  out += "</section>\n";
  return out;
}

std::string Card(std::string_view css, std::string_view label, std::int64_t value) {
  return fmt::format(
      "<div class=\"card {}\"><div class=\"card-value\">{}</div><div "
      "class=\"card-label\">{}</div></div>",
      css, value, Esc(label));
}

// The `warnings` of any of the three JSON outputs.
std::string Warnings(const Json& data) {
  Table warnings("warnings", {"Code", "Object", "Source", "Message"});
  for (const Json& w : Items(data, "warnings")) {
    warnings.Row({Esc(Text(w, "code")), Dash(Text(w, "object")),
                  "<code>" + Dash(Text(w, "source")) + "</code>", Esc(Text(w, "message"))});
  }
  if (warnings.Empty()) return {};
  return Section("warnings", "Warnings", warnings.Render(),
                 "What kpsim kept, skipped, changed or does not model: the run went on.");
}

std::string RejectedAndIgnored(const Json& data) {
  std::string out;
  Table rejected("rejected", {"Kind", "Name", "Source", "Message"});
  for (const Json& r : Items(data, "rejected")) {
    rejected.Row({Dash(Text(r, "kind")), Dash(Text(r, "name")),
                  "<code>" + Dash(Text(r, "source")) + "</code>", Esc(Text(r, "message"))});
  }
  if (!rejected.Empty()) {
    out += Section("rejected", "Rejected objects", rejected.Render(),
                   "Objects that could not be read or were refused by admission; the run went on "
                   "without them.");
  }
  Table ignored("ignored", {"Kind", "apiVersion", "Name", "Source"});
  for (const Json& o : Items(data, "ignored")) {
    ignored.Row({Dash(Text(o, "kind")), Dash(Text(o, "apiVersion")), Dash(Text(o, "name")),
                 "<code>" + Dash(Text(o, "source")) + "</code>"});
  }
  if (!ignored.Empty()) {
    out += Section("ignored", "Ignored objects", ignored.Render(),
                   "Kinds kpsim does not model: listed, not errors.");
  }
  out += Warnings(data);
  return out;
}

// ---------------------------------------------------------------------------------------------
// simulate

// Past this many decisions the page lists the first ones only (the embedded JSON has all).
constexpr std::size_t kHtmlDecisionsShown = 200;
// Up to this many decisions the panel opens them all; more start folded.
constexpr std::size_t kDecisionsOpen = 20;
// Names listed per victim list or nomination list; the rest are counted.
constexpr std::size_t kHtmlNamesShown = 20;

// The anchor of each shown decision, by round: "decision-7" (a second decision of the same round,
// never expected, gets "decision-7-2"). Only the first of a round is linked from the timeline.
struct DecisionAnchors {
  std::vector<std::string> ids;               // per shown decision
  std::map<std::int64_t, std::string> round;  // round -> the first decision's id
};

DecisionAnchors Anchors(const Json& decisions) {
  DecisionAnchors out;
  std::map<std::int64_t, int> seen;
  for (std::size_t i = 0; i < decisions.size() && i < kHtmlDecisionsShown; ++i) {
    const std::int64_t r = Count(decisions[i], "round");
    const int n = ++seen[r];
    std::string id = n == 1 ? fmt::format("decision-{}", r) : fmt::format("decision-{}-{}", r, n);
    if (n == 1) out.round[r] = id;
    out.ids.push_back(std::move(id));
  }
  return out;
}

// A link to the decision of the event's round ("round 7"), or the bare round when none is shown.
std::string DecisionLink(const DecisionAnchors& anchors, const Json& e) {
  const std::int64_t round = Count(e, "round");
  const auto it = anchors.round.find(round);
  if (round <= 0 || it == anchors.round.end()) return Dash(Text(e, "round"));
  return fmt::format("<a class=\"decision-link\" href=\"#{}\">{}</a>", it->second,
                     Esc(Text(e, "round")));
}

// Pod names as cross-highlighted cells, the first kHtmlNamesShown of them, then a count.
std::string PodRefsCapped(const Json& pods, std::int64_t total) {
  std::string out;
  std::int64_t listed = 0;
  for (const Json& pod : pods) {
    if (static_cast<std::size_t>(listed) == kHtmlNamesShown) break;
    out += (out.empty() ? "" : ", ") + PodRef(Text(pod));
    ++listed;
  }
  if (total > listed) out += fmt::format("{}{} more", out.empty() ? "" : " and ", total - listed);
  return out.empty() ? "–" : out;
}

// One `decisions[]` entry as a folding block: the headline, the shown candidates with their
// tie-breaker values, the PDBs, and for a pod group the units and nominations.
std::string DecisionBlock(const Json& d, const std::string& id, bool open) {
  const Json& victims = Items(d, "victims");
  std::string head = fmt::format("round <b>{}</b> · {} · {}", Esc(Text(d, "round")),
                                 Esc(Seconds(d, "time")), PodRef(Text(d, "preemptor")));
  if (!Text(d, "podGroup").empty() && Text(d, "podGroup") != Text(d, "preemptor")) {
    head += " (pod group " + Esc(Text(d, "podGroup")) + ")";
  }
  if (!Text(d, "node").empty()) head += " → <b>" + Esc(Text(d, "node")) + "</b>";
  head += fmt::format(
      " · {} · decided by <b>{}</b>", Plural(victims.size(), "victim"),
      Dash(Text(d, "decidedByLabel").empty() ? Text(d, "decidedBy") : Text(d, "decidedByLabel")));
  std::string out = fmt::format("<details class=\"decision\" id=\"{}\"{}>\n<summary>{}</summary>\n",
                                id, open ? " open" : "", head);
  out +=
      "<p>Victims: " + PodRefsCapped(victims, static_cast<std::int64_t>(victims.size())) + "</p>\n";

  // Candidates: one column per tie-breaker, in the order the first candidate that has it lists.
  const Json& candidates = Items(d, "candidates");
  std::vector<std::string> ids;
  for (const Json& c : candidates) {
    const Json& tie = Get(c, "tieBreakers");
    if (!tie.is_object()) continue;
    for (const auto& [key, value] : tie.items()) {
      if (std::find(ids.begin(), ids.end(), key) == ids.end()) ids.push_back(key);
    }
  }
  std::vector<std::string> headers = {"Candidate", "Victims", "PDB violations"};
  headers.insert(headers.end(), ids.begin(), ids.end());
  Table table("decision-candidates", headers);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Json& c = candidates[i];
    std::vector<std::string> cells = {
        Esc(Text(c, "node")) + (i == 0 ? " " + Badge("chosen", "chosen") : ""),
        PodRefsCapped(Items(c, "victims"), Count(c, "victimCount")), Esc(Text(c, "pdbViolations"))};
    const Json& tie = Get(c, "tieBreakers");
    for (const std::string& key : ids) cells.push_back(Dash(Text(Get(tie, key.c_str()))));
    table.Row(std::move(cells), i == 0 ? "class=\"chosen-row\"" : "");
  }
  if (!table.Empty()) out += table.Render();
  const bool compared =
      !candidates.empty() || Count(d, "candidateCount") > 0 || Count(d, "nodesEvaluated") > 0;
  if (compared) {
    out += fmt::format("<p class=\"note\">{}, {} evaluated{}.</p>\n",
                       Plural(static_cast<std::size_t>(Count(d, "candidateCount")), "candidate"),
                       Plural(static_cast<std::size_t>(Count(d, "nodesEvaluated")), "node"),
                       static_cast<std::int64_t>(candidates.size()) < Count(d, "candidateCount")
                           ? fmt::format("; the best {} shown", candidates.size())
                           : "");
  }

  Table pdbs("decision-pdbs",
             {"PodDisruptionBudget", "Allowed before", "Allowed after", "Victims"});
  for (const Json& p : Items(d, "pdbs")) {
    const bool broken = Count(p, "allowedAfter") < 0;
    pdbs.Row(
        {Esc(Text(p, "name")), Esc(Text(p, "allowedBefore")),
         Esc(Text(p, "allowedAfter")) + (broken ? " " + Badge("pdb", "violated") : ""),
         PodRefsCapped(Items(p, "victims"), static_cast<std::int64_t>(Items(p, "victims").size()))},
        broken ? "class=\"pdb-row\"" : "");
  }
  if (!pdbs.Empty()) out += pdbs.Render();

  Table units("decision-units", {"Unit", "Kind", "Priority", "Pods", "Why"});
  for (const Json& u : Items(d, "units")) {
    units.Row({Esc(Text(u, "name")), Esc(Text(u, "kind")), Esc(Text(u, "priority")),
               PodRefsCapped(Items(u, "pods"), static_cast<std::int64_t>(Items(u, "pods").size())),
               Dash(Text(u, "why"))});
  }
  if (!units.Empty()) out += units.Render();

  const Json& nominations = Items(d, "nominations");
  if (!nominations.empty()) {
    std::string line;
    for (std::size_t i = 0; i < nominations.size() && i < kHtmlNamesShown; ++i) {
      line += fmt::format("{}{} → {}", line.empty() ? "" : ", ",
                          PodRef(Text(nominations[i], "pod")), Esc(Text(nominations[i], "node")));
    }
    if (nominations.size() > kHtmlNamesShown) {
      line += fmt::format(" and {} more", nominations.size() - kHtmlNamesShown);
    }
    out += "<p>Nominated: " + line + "</p>\n";
  }
  out += "</details>\n";
  return out;
}

// The "Decisions" panel: every preemption decision (the first kHtmlDecisionsShown).
std::string DecisionsSection(const Json& decisions, const DecisionAnchors& anchors) {
  if (decisions.empty()) return {};
  std::string content;
  const bool open = decisions.size() <= kDecisionsOpen;
  for (std::size_t i = 0; i < anchors.ids.size(); ++i) {
    content += DecisionBlock(decisions[i], anchors.ids[i], open);
  }
  if (decisions.size() > anchors.ids.size()) {
    content += fmt::format(
        "<p class=\"note\">… and {} more decisions: see <code>decisions</code> in the embedded "
        "JSON (<code>-o json</code>).</p>\n",
        decisions.size() - anchors.ids.size());
  }
  return Section("decisions", "Decisions", content,
                 "Why each preemption went the way it did: the best candidate nodes with the "
                 "values of each tie-breaker, the tie-breaker that decided, and the "
                 "PodDisruptionBudgets the victims count against. Preempted and Nominated markers "
                 "in the timeline link here.");
}

// The "Disruption cost" panel (`disruption` in the JSON), when anything was evicted.
std::string DisruptionSection(const Json& d) {
  if (Count(d, "evictedPods") == 0 && Count(d, "pressureEvictions") == 0) return {};
  const auto ratio = [](const Json& r) { return r.is_number() ? fmt::format("{:.2f}", r.get<double>()) : "–"; };
  std::string content = "<div class=\"cards\">";
  content += Card("", "evicted pods", Count(d, "evictedPods"));
  content += Card("", "preemptors", Count(d, "preemptors"));
  content += Card("", "cascade depth", Count(d, "cascadeDepth"));
  content += Card(Items(d, "pdbsBroken").empty() ? "" : "state-pdb", "PDBs broken",
                  static_cast<std::int64_t>(Items(d, "pdbsBroken").size()));
  content += Card("", "groups broken", static_cast<std::int64_t>(Items(d, "groupsBroken").size()));
  content += Card("", "pending at end", Count(Get(d, "pendingAtEnd"), "count"));
  content += "</div>\n";
  const Json& evicted = Get(d, "evictedRequests");
  const Json& asked = Get(d, "preemptorRequests");
  content += fmt::format(
      "<p>Evicted <b>{}</b> cpu and <b>{}</b> memory for preemptors asking {} cpu and {} memory: "
      "ratio <b>{}</b> (cpu), {} (memory). Quiet {} after the first preemption; PDB budget consumed {}.</p>\n",
      Esc(Text(evicted, "cpu")), Esc(Text(evicted, "memory")), Esc(Text(asked, "cpu")), Esc(Text(asked, "memory")),
      ratio(Get(Get(d, "evictionRatios"), "cpu")), ratio(Get(Get(d, "evictionRatios"), "memory")),
      Dash(Seconds(d, "timeToQuiet")), Count(d, "pdbBudgetConsumed"));
  Table pdbs("disruption-pdbs", {"PodDisruptionBudget broken", "By evicting"});
  for (const Json& b : Items(d, "pdbsBroken")) pdbs.Row({Esc(Text(b, "pdb")), PodRefs(Items(b, "victims"))});
  if (!pdbs.Empty()) content += pdbs.Render();
  Table groups("disruption-groups", {"Pod group broken", "State", "Preempted", "Placed", "minCount"});
  for (const Json& g : Items(d, "groupsBroken")) {
    groups.Row({Esc(Text(g, "group")), Esc(Text(g, "state")), Esc(Text(g, "preempted")), Esc(Text(g, "placed")),
                Esc(Text(g, "minCount"))});
  }
  if (!groups.Empty()) content += groups.Render();
  Table by("disruption-preemptors", {"Preemptor", "Victims", "Evicted cpu", "Evicted memory", "Asked cpu",
                                     "Asked memory", "Ratio (cpu)"});
  for (const Json& p : Items(d, "byPreemptor")) {
    const std::string name = Text(p, "preemptor");
    by.Row({Text(p, "kind") == "Pod" ? PodRef(name) : Esc(name) + " <span class=\"note\">(pod group)</span>",
            Esc(Text(p, "victims")), Esc(Text(p, "evictedCpu")), Esc(Text(p, "evictedMemory")),
            Esc(Text(p, "requestedCpu")), Esc(Text(p, "requestedMemory")), ratio(Get(p, "cpuRatio"))});
  }
  if (!by.Empty()) content += by.Render();
  Table classes("disruption-classes", {"PriorityClass", "Priority", "Pods", "Evicted", "Placed", "Pending",
                                       "Mean wait", "Max wait"});
  for (const Json& c : Items(d, "byPriorityClass")) {
    classes.Row({Text(c, "priorityClass").empty() ? "<i>none</i>" : Esc(Text(c, "priorityClass")),
                 Esc(Text(c, "priority")), Esc(Text(c, "pods")), Esc(Text(c, "evicted")), Esc(Text(c, "placed")),
                 Esc(Text(c, "pending")), Dash(Seconds(c, "meanWait")), Dash(Seconds(c, "maxWait"))});
  }
  content += classes.Render();
  return Section("disruption", "Disruption cost", content,
                 "What the preemptions cost: the pods and resources evicted against what their preemptors asked "
                 "for, the budgets and pod groups broken, how far the cascade went (a victim's replacement "
                 "preempting in turn), and per PriorityClass what was evicted, placed and waited.");
}

// The "Preempt or scale up" panel (`scaleUp` in the JSON of `simulate --scale-up`): the two
// worlds side by side, the autoscaler's decisions with every node group's estimate, and each
// waiting pod's fate in both.
std::string ScaleUpSection(const Json& s) {
  if (!s.is_object()) return {};
  const Json& cmp = Get(s, "comparison");
  const Json& a = Get(cmp, "preempt");
  const Json& b = Get(cmp, "scaleUp");
  std::string content = "<div class=\"cards\">";
  content += Card("", "evicted with preemption", Count(a, "evictedPods"));
  content += Card("", "nodes added instead", Count(s, "nodesAdded"));
  content += Card("", "pending with preemption", Count(a, "pending"));
  content += Card("", "pending with scale-up", Count(b, "pending"));
  content += "</div>\n";
  Table sides("scaleup-compare", {"", "With preemption", "With scale-up"});
  const auto both = [&](std::string_view label, const char* key, bool seconds) {
    sides.Row({Esc(label), seconds ? Dash(Seconds(a, key)) : Esc(Text(a, key)),
               seconds ? Dash(Seconds(b, key)) : Esc(Text(b, key))});
  };
  both("Pods evicted", "evictedPods", false);
  both("PDBs broken", "pdbsBroken", false);
  both("Pod groups broken", "groupsBroken", false);
  std::vector<std::string> added;
  for (const Json& t : Items(s, "byTemplate")) added.push_back(fmt::format("{} × {}", Count(t, "nodes"), Text(t, "template")));
  sides.Row({"Nodes added", "0", Esc(Text(b, "nodesAdded")) + (added.empty() ? "" : " (" + Esc(render::Join(added, ", ")) + ")")});
  both("Pods that waited", "waited", false);
  both("… of them placed", "placed", false);
  both("Pods pending at the end", "pending", false);
  both("Mean wait (of those placed)", "meanWait", true);
  both("Max wait (of those placed)", "maxWait", true);
  both("Last waiting pod placed at", "lastPlacement", true);
  content += sides.Render();
  Table adds("scaleup-additions", {"Decided", "Ready", "Node group", "New nodes", "For pods", "Estimates"});
  for (const Json& add : Items(s, "additions")) {
    std::vector<std::string> options;
    for (const Json& o : Items(add, "options")) {
      options.push_back(fmt::format("{}: {} node(s), {} pod(s){}", Text(o, "template"), Count(o, "nodes"), Count(o, "pods"),
                                    Get(o, "waste").is_number() ? ", waste " + Text(o, "waste") : ""));
    }
    std::vector<std::string> nodes;
    for (const Json& n : Items(add, "nodes")) nodes.push_back(Text(n));
    adds.Row({Esc(Seconds(add, "decidedAt")), Esc(Seconds(add, "readyAt")), Esc(Text(add, "template")),
              Esc(render::Join(nodes, ", ")), PodRefs(Items(add, "pods")), Esc(render::Join(options, "; "))});
  }
  if (!adds.Empty()) content += adds.Render();
  Table unhelped("scaleup-unhelped", {"Pod no new node takes", "Why (each node group)"});
  for (const Json& u : Items(s, "noTemplate")) unhelped.Row({PodRef(Text(u, "pod")), Esc(Text(u, "reason"))});
  if (!unhelped.Empty()) content += unhelped.Render();
  if (!Text(s, "stop").empty()) content += "<p class=\"note\">Stopped adding nodes: " + Esc(Text(s, "stop")) + "</p>\n";
  const auto fate = [](const Json& f) -> std::string {
    switch (FateOf(f)) {
      case FateKind::kNeverWaited: return Esc(Text(f, "node")) + " (never waited)";
      case FateKind::kPlacedAt: return Esc(Text(f, "node")) + " at " + Esc(Seconds(f, "at"));
      case FateKind::kAbsent: return "– (no such pod)";
      case FateKind::kEvictedAt: return "<b>evicted</b> at " + Esc(Seconds(f, "at"));
      case FateKind::kOther: break;
    }
    return Esc(Text(f, "state"));
  };
  Table pods("scaleup-pods", {"Pod", "With preemption", "With scale-up"});
  for (const Json& p : Items(cmp, "pods")) {
    pods.Row({PodRef(Text(p, "pod")), fate(Get(p, "preempt")), fate(Get(p, "scaleUp"))});
  }
  if (!pods.Empty()) content += pods.Render();
  return Section("scaleup", "Preempt or scale up", content,
                 fmt::format("The same input twice: with preemption, and with the Cluster Autoscaler adding nodes "
                             "instead (no pod preempts). Expander {}, nodes Ready {} after the decision, a loop every {}. "
                             "The rest of this report is the scale-up world.",
                             Esc(Text(s, "expander")), Esc(Seconds(s, "delay")), Esc(Seconds(s, "scanInterval"))));
}

// A candidate's remove-all-then-reprieve table (explain's `steps`): step 0 with every
// lower-priority pod removed, then one row per victim unit put back, reprieved or not.
std::string ReprieveSteps(const Json& candidate) {
  Table steps("steps", {"Step", "Pod", "Priority", "PDB-violating", "Result", "Free after", "Why"});
  steps.Row({"0", "<i>every lower-priority pod removed</i>", "", "", "",
             Resources(Get(candidate, "freeAfterRemoval")), ""},
            "class=\"step-zero\"");
  const Json& items = Items(candidate, "steps");
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Json& st = items[i];
    const bool reprieved = Flag(st, "reprieved");
    steps.Row({std::to_string(i + 1), PodRef(Text(st, "pod")), Esc(Text(st, "priority")),
               Flag(st, "pdbViolating") ? Badge("pdb", "yes") : "no",
               reprieved ? Badge("fits", "reprieved") : Badge("victim", "victim"),
               Resources(Get(st, "freeAfter")), Dash(Text(st, "why"))},
              reprieved ? "class=\"reprieved-row\"" : "class=\"victim-row\"");
  }
  return steps.Render();
}

Json Parse(const std::string& json);

// One explained attempt (kpsim::SimulateExplained) as a folding block "attempt-<round>": the
// message, the filter verdicts, eligibility, the chosen candidate's remove-all-then-reprieve
// steps, and the decision, with a link to its decision record.
std::string AttemptBlock(const ExplainResult& explained, const DecisionAnchors& anchors) {
  const Json e = Parse(RenderExplainJson(explained, {}));
  const std::int64_t round = explained.round;
  const Json& chosen = Get(e, "chosen");
  const std::string chosen_node = Text(chosen, "node");
  const std::string outcome = !chosen_node.empty() ? Badge("victim", "preempts")
                                                   : Badge("state-pending", "unschedulable");
  std::string out = fmt::format(
      "<details class=\"attempt\" id=\"attempt-{}\" data-subject=\"{}\">\n<summary>round <b>{}</b> · {} · {} {}</summary>\n",
      round, Esc(explained.pod), round, Esc(Seconds(e, "time")), PodRef(explained.pod), outcome);
  out += "<p><span class=\"msg\">" + Esc(explained.message) + "</span></p>\n";
  Table filter("attempt-filter", {"Node", "Result", "Plugin", "Reasons"});
  for (const Json& f : Items(e, "filter")) {
    const std::string reasons = Reasons(f);
    filter.Row({Esc(Text(f, "node")),
                Flag(f, "fits") ? Badge("fits", "fits") : Badge("victim", Text(f, "code")),
                Dash(Text(f, "plugin")), reasons.empty() ? "–" : reasons});
  }
  if (!filter.Empty()) out += filter.Render();
  if (explained.filter_omitted > 0) {
    out += fmt::format("<p class=\"note\">… and {} more nodes (the message counts them all).</p>\n",
                       explained.filter_omitted);
  }
  out += fmt::format("<p>Preemption: <b>{}</b>{}</p>\n", Flag(e, "eligible") ? "eligible" : "not eligible",
                     Text(e, "eligibilityMessage").empty() ? "" : " (" + Esc(Text(e, "eligibilityMessage")) + ")");
  for (const Json& c : Items(e, "candidates")) {
    if (Text(c, "node") != chosen_node) continue;
    out += fmt::format("<p>Candidate <b>{}</b>: remove all, then reprieve</p>\n", Esc(chosen_node));
    out += ReprieveSteps(c);
    out += render::CandidateCapacity(e, c, /*stepper=*/true);
  }
  if (!chosen_node.empty()) {
    out += fmt::format("<p>Chosen node <b>{}</b>, victims {}, decided by <b>{}</b>.</p>\n", Esc(chosen_node),
                       PodRefs(Items(chosen, "victims")), Dash(Text(chosen, "decidedBy")));
  }
  if (const auto it = anchors.round.find(round); it != anchors.round.end()) {
    out += fmt::format("<p><a class=\"decision-link\" href=\"#{}\">the decision record of round {}</a></p>\n",
                       it->second, round);
  }
  out += fmt::format("<p class=\"note\">Every node and candidate: <code>kpsim explain --pod {} --attempt {} "
                     "…</code></p>\n</details>\n",
                     Esc(explained.pod), round);
  return out;
}

// The "Attempts" panel: the explained attempts the markers link to.
std::string AttemptsSection(const std::vector<ExplainResult>* attempts, const DecisionAnchors& anchors,
                            std::int64_t failed_events) {
  if (attempts == nullptr || attempts->empty()) return {};
  std::string content;
  for (const ExplainResult& a : *attempts) content += AttemptBlock(a, anchors);
  content = render::PriorityScaleLegend() + content;
  return Section("attempts", "Attempts explained", content,
                 fmt::format("The first {} attempts that did not bind a pod ({} FailedScheduling "
                             "events in all), as kpsim explain shows them. FailedScheduling, "
                             "Nominated and Preempted markers in the timeline open their attempt.",
                             attempts->size(), failed_events));
}

std::string SimulationBody(const Json& data, const std::vector<ExplainResult>* attempts) {
  const Json& events = Items(data, "events");
  const Json& pods = Items(data, "pods");
  std::string out;

  // Who preempted whom, per victim, for the pods table.
  std::map<std::string, std::string> preempted_by;
  std::int64_t preemptions = 0;
  std::int64_t pdb_violations = 0;
  for (const Json& e : events) {
    if (Text(e, "reason") != "Preempted") continue;
    ++preemptions;
    pdb_violations += Flag(e, "pdbViolation") ? 1 : 0;
    std::string& entry = preempted_by[Text(e, "pod")];
    entry += fmt::format("{}{} at {}{}", entry.empty() ? "" : "<br>", PodRef(Text(e, "by")),
                         Seconds(e, "time"),
                         Flag(e, "pdbViolation") ? " " + Badge("pdb", "violates PDB") : "");
  }
  std::map<std::string, std::int64_t> states;
  for (const Json& p : pods) ++states[Text(p, "state")];

  // Header and summary cards.
  out += "<header class=\"top\">\n<h1>kpsim simulation</h1>\n<p class=\"meta\">";
  out += fmt::format(
      "profile <b>{}</b> · seed <b>{}</b> · origin <b>{}</b> · ended at <b>{}</b> ({}) · {}",
      Esc(Text(data, "profile")), Esc(Text(data, "seed")), Esc(Text(data, "origin")),
      Esc(Seconds(data, "endTime")), Esc(Text(data, "endReason")), Plural(events.size(), "event"));
  out += "</p>\n</header>\n";
  if (Flag(data, "attemptCapReached")) {
    out += fmt::format(
        "<p class=\"warning\">The attempt cap ({} attempts) stopped the run; pods may still be "
        "queued.</p>\n",
        Esc(Text(data, "maxAttempts")));
  }
  out += "<div class=\"cards\">";
  out += Card("state-running", "running", states["Running"]);
  out += Card("state-pending", "pending", states["Pending"]);
  out += Card("state-terminating", "terminating", states["Terminating"]);
  out += Card("state-deleted", "deleted", states["Deleted"]);
  out += Card("preempt", "preemptions", preemptions);
  out += Card(pdb_violations > 0 ? "pdb" : "", "PDB-violating", pdb_violations);
  out += Card(Items(data, "rejected").empty() ? "" : "rejected", "rejected",
              static_cast<std::int64_t>(Items(data, "rejected").size()));
  out += Card("", "ignored", static_cast<std::int64_t>(Items(data, "ignored").size()));
  out += "</div>\n";

  // The timeline: drawn by app.js.
  out += Section("timeline", "Timeline",
                 "<div id=\"timeline-controls\"></div>\n<div id=\"timeline-legend\"></div>\n"
                 "<div id=\"timeline-chart\"><noscript><p class=\"note\">The timeline is drawn by "
                 "JavaScript. The tables below hold the same facts.</p></noscript></div>\n");

  // Pods.
  Table pod_table("pods", {"Pod", "Priority", "State", "Node", "Nominated", "Scheduled at",
                           "Deleted at", "Preempted by", "Pod group", "Reason / note"});
  for (std::size_t pod_idx = 0; pod_idx < pods.size(); ++pod_idx) {
    const Json& p = pods[pod_idx];
    const std::string name = Text(p, "pod");
    std::string note;
    if (!Text(p, "replacementOf").empty()) {
      note += "replacement of " + PodRef(Text(p, "replacementOf"));
    }
    if (!Text(p, "reason").empty()) {
      note += (note.empty() ? "" : "<br>") +
              ("<span class=\"msg\">" + Esc(Text(p, "reason")) + "</span>");
    }
    const auto by = preempted_by.find(name);
    pod_table.Row(
        {PodRef(name), Esc(Text(p, "priority")),
         StateBadge(Text(p, "state")) +
             (Text(p, "condition").empty() ? "" : " " + Badge("state-pending", Text(p, "condition"))),
         Dash(Text(p, "node")), Dash(Text(p, "nominatedNode")), Dash(Seconds(p, "scheduledAt")),
         Dash(Seconds(p, "deletedAt")), by == preempted_by.end() ? "–" : by->second,
         Dash(Text(p, "podGroup")), note.empty() ? "–" : note},
        fmt::format("id=\"pod-{}\"", pod_idx));
  }
  out += Section("pods", "Pods",
                 pod_table.Empty() ? "<p class=\"note\">No pods.</p>\n" : pod_table.Render());

  // Preemptions.
  const Json& decisions = Items(data, "decisions");
  const DecisionAnchors anchors = Anchors(decisions);
  Table preempt_table("preemptions", {"Time", "Victim", "Node", "Preempted by", "Preemptor's group",
                                      "Victim's group", "PDB", "Decision"});
  for (const Json& e : events) {
    if (Text(e, "reason") != "Preempted") continue;
    const bool pdb = Flag(e, "pdbViolation");
    preempt_table.Row(
        {Esc(Seconds(e, "time")), PodRef(Text(e, "pod")), Dash(Text(e, "node")),
         PodRef(Text(e, "by")), Dash(Text(e, "byGroup")), Dash(Text(e, "victimGroup")),
         pdb ? Badge("pdb", "violates a PodDisruptionBudget") : "no", DecisionLink(anchors, e)},
        pdb ? "class=\"pdb-row\"" : "");
  }
  if (!preempt_table.Empty()) out += Section("preemptions", "Preemptions", preempt_table.Render());
  out += DecisionsSection(decisions, anchors);
  out += DisruptionSection(Get(data, "disruption"));
  out += ScaleUpSection(Get(data, "scaleUp"));
  std::int64_t failed_events = 0;
  for (const Json& e : events) failed_events += Text(e, "reason") == "FailedScheduling" ? 1 : 0;
  out += AttemptsSection(attempts, anchors, failed_events);

  // FailedScheduling messages.
  Table failed_table("failed", {"Time", "Round", "Pod", "Message"});
  for (const Json& e : events) {
    if (Text(e, "reason") != "FailedScheduling") continue;
    failed_table.Row({Esc(Seconds(e, "time")), Dash(Text(e, "round")), PodRef(Text(e, "pod")),
                      "<span class=\"msg\">" + Esc(Text(e, "message")) + "</span>"});
  }
  if (!failed_table.Empty()) {
    out += Section("failed", "FailedScheduling", failed_table.Render());
  }

  // Nodes.
  Table node_table("nodes", {"Node", "Requested", "Allocatable", "Pods at the end"});
  for (const Json& n : Items(data, "nodes")) {
    std::string name = Esc(Text(n, "node"));
    if (!Seconds(n, "addedAt").empty()) name += " <span class=\"note\">added at " + Esc(Seconds(n, "addedAt")) + "</span>";
    if (!Seconds(n, "deletedAt").empty()) name += " <span class=\"note\">deleted at " + Esc(Seconds(n, "deletedAt")) + "</span>";
    node_table.Row({name, Resources(Get(n, "requested")),
                    Resources(Get(n, "allocatable")), PodRefs(Items(n, "pods"))});
  }
  out += Section("nodes", "Nodes",
                 node_table.Empty() ? "<p class=\"note\">No nodes.</p>\n" : node_table.Render());

  // Pod groups.
  Table group_table("groups",
                    {"Group", "Composite", "Priority", "Pods", "Placed", "minCount", "State"});
  for (const Json& g : Items(data, "groups")) {
    group_table.Row({Esc(Text(g, "group")), Flag(g, "composite") ? "yes" : "no",
                     Esc(Text(g, "priority")), Esc(Text(g, "pods")), Esc(Text(g, "placed")),
                     Count(g, "minCount") > 0 ? Esc(Text(g, "minCount")) : "–",
                     Dash(Text(g, "state"))});
  }
  if (!group_table.Empty()) out += Section("groups", "Pod groups", group_table.Render());

  out += RejectedAndIgnored(data);

  // The whole event log.
  Table event_table("events", {"#", "Time", "Round", "Reason", "Pod", "Node", "Message"});
  for (std::size_t event_idx = 0; event_idx < events.size(); ++event_idx) {
    const Json& e = events[event_idx];
    const std::string reason = Text(e, "reason");
    std::string message = Esc(Text(e, "message"));
    if (Flag(e, "pdbViolation")) message += " " + Badge("pdb", "violates PDB");
    if (Count(e, "count") > 1) {
      // Aggregated repeats (Events API count, first and last time).
      message += " " + Badge("count", fmt::format("x{}, {}..{}", Count(e, "count"),
                                                  Seconds(e, "firstTime"), Seconds(e, "lastTime")));
    }
    const bool linked = reason == "Preempted" || reason == "Nominated";
    event_table.Row({std::to_string(event_idx + 1), Esc(Seconds(e, "time")),
                     linked ? DecisionLink(anchors, e) : Dash(Text(e, "round")),
                     Badge("reason reason-" + Esc(reason), reason), PodRef(Text(e, "pod")),
                     Dash(Text(e, "node")), message},
                    fmt::format("id=\"event-{}\"", event_idx + 1));
  }
  out += Section("events", "Event log",
                 event_table.Empty() ? "<p class=\"note\">No events.</p>\n"
                                     : "<details open><summary>" + Plural(events.size(), "event") +
                                           "</summary>\n" + event_table.Render() + "</details>\n");

  // Run facts.
  const Json& stats = Get(data, "stats");
  std::string facts = "<dl class=\"facts\">";
  if (stats.is_object()) {
    for (const auto& [name, value] : stats.items()) {
      facts += fmt::format("<dt>{}</dt><dd>{}</dd>", Esc(name), Esc(Text(value)));
    }
  }
  facts += "</dl>\n";
  if (!Items(data, "featureGates").empty()) {
    facts += "<p class=\"gates\">Feature gates: ";
    for (const Json& gate : Items(data, "featureGates")) {
      facts += "<code>" + Esc(Text(gate)) + "</code> ";
    }
    facts += "</p>\n";
  }
  out += Section("stats", "Run statistics", facts);
  return out;
}

// ---------------------------------------------------------------------------------------------
// explain

std::string FilterBadge(const Json& f) {
  if (Flag(f, "fits")) return Badge("fits", "fits");
  const std::string code = Text(f, "code");
  return Badge(code == "UnschedulableAndUnresolvable" ? "unresolvable" : "unschedulable",
               code.empty() ? "rejected" : code);
}

// The pod group's cycle (`group` in the explain JSON, when the pod is scheduled through its pod
// group): the placement, then workload-aware preemption's reprieve steps and nominations.
std::string GroupSection(const Json& group) {
  std::string out = fmt::format(
      "<p>Pod group <b>{}</b> (priority {}), pending members in scheduling order: {}</p>\n",
      Esc(Text(group, "group")), Esc(Text(group, "priority")), PodRefs(Items(group, "members")));
  if (!Text(group, "validationError").empty()) {
    out += "<p>" + Badge("unresolvable", "refused before scheduling") + " <span class=\"msg\">" +
           Esc(Text(group, "validationError")) + "</span></p>\n";
  }
  Table placement("placement", {"Pod", "Placement"});
  for (const Json& p : Items(group, "placement")) {
    placement.Row({PodRef(Text(p, "pod")), Esc(Text(p, "result"))});
  }
  if (!placement.Empty()) out += placement.Render();
  if (Flag(group, "placeable")) {
    out += "<p>" + Badge("fits", "placed without preemption") + "</p>\n";
  } else if (!Text(group, "placementMessage").empty()) {
    out += "<p class=\"msg\">" + Esc(Text(group, "placementMessage")) + "</p>\n";
  }
  if (!Text(group, "preemptionMessage").empty()) {
    out += "<p class=\"msg\">" + Esc(Text(group, "preemptionMessage")) + "</p>\n";
  }
  Table steps("steps", {"Step", "Victim", "Priority", "PDB-violating", "Result", "Why"});
  const Json& reprieve = Items(group, "reprieve");
  for (std::size_t step_idx = 0; step_idx < reprieve.size(); ++step_idx) {
    const Json& s = reprieve[step_idx];
    const bool reprieved = Flag(s, "reprieved");
    steps.Row(
        {std::to_string(step_idx + 1), PodRef(Text(s, "pod")), Esc(Text(s, "priority")),
         Flag(s, "pdbViolating") ? Badge("pdb", "yes") : "no",
         reprieved ? Badge("fits", "reprieved") : Badge("victim", "victim"), Dash(Text(s, "why"))},
        reprieved ? "class=\"reprieved-row\"" : "class=\"victim-row\"");
  }
  if (!steps.Empty()) out += steps.Render();
  if (!Items(group, "victims").empty()) {
    out += "<p>Victims: " + PodRefs(Items(group, "victims")) + "</p>\n";
  }
  Table nominations("nominations", {"Pod", "Nominated node"});
  for (const Json& n : Items(group, "nominations")) {
    nominations.Row({PodRef(Text(n, "pod")), Esc(Text(n, "node"))});
  }
  if (!nominations.Empty()) out += nominations.Render();
  return out;
}

// The other candidates whose capacity strips the explain page draws (the chosen one always).
constexpr std::size_t kCandidateStripsShown = 20;

// kube-scheduler-simulator's filter view: a row per node, a column per filter plugin in chain
// order, each cell "passed", the rejection's reasons, or "not run" after the rejecting plugin.
std::string FilterPluginTable(const Json& data) {
  const Json& plugins = Items(data, "filterPlugins");
  if (plugins.empty()) return {};
  std::vector<std::string> headers = {"Node"};
  for (const Json& p : plugins) headers.push_back(Text(p));
  Table table("filter-plugins", headers);
  for (const Json& f : Items(data, "filter")) {
    const bool fits = Flag(f, "fits");
    const std::string rejecting = fits ? "" : Text(f, "plugin");
    const std::string reasons = Reasons(f);
    std::vector<std::string> row = {Esc(Text(f, "node"))};
    // A node rejected with no plugin named was refused before the chain ran (an in-place resize's
    // other nodes: "pod assigned to different node"): its first cell says so, the rest did not run.
    bool after = !fits && rejecting.empty();
    if (after) row.push_back(FilterBadge(f) + " " + reasons + " <span class=\"note\">(before the filter chain)</span>");
    for (std::size_t i = row.size() - 1; i < plugins.size(); ++i) {
      if (after) {
        row.push_back("<span class=\"notrun\">not run</span>");
      } else if (Text(plugins[i]) == rejecting) {
        row.push_back(FilterBadge(f) + " " + reasons);
        after = true;
      } else {
        row.push_back(Badge("fits", "passed"));
      }
    }
    table.Row(std::move(row), Flag(f, "fits") ? "class=\"fits-row\"" : "");
  }
  return table.Render();
}

// kube-scheduler-simulator's score view: a row per scored node, each plugin's normalized score
// times its weight, and the total; the node the pod went to is marked.
std::string ScoreTable(const Json& data) {
  const Json& scores = Items(data, "scores");
  if (scores.empty()) return {};
  std::vector<std::string> headers = {"Node"};
  for (const Json& p : Items(data, "scorePlugins")) headers.push_back(Text(p));
  headers.push_back("Total");
  Table table("scores", headers);
  const std::string chosen = Text(data, "fitsNode");
  for (const Json& n : scores) {
    const bool won = Text(n, "node") == chosen;
    std::vector<std::string> row = {Esc(Text(n, "node")) + (won ? " " + Badge("chosen", "chosen") : "")};
    for (const Json& p : Items(n, "plugins")) {
      row.push_back(fmt::format("{} <span class=\"note\">× {} = {}</span>", Count(p, "score"), Count(p, "weight"),
                                Count(p, "score") * Count(p, "weight")));
    }
    row.push_back("<b>" + std::to_string(Count(n, "total")) + "</b>");
    table.Row(std::move(row), won ? "class=\"chosen-row\"" : "");
  }
  return table.Render();
}

std::string ExplainBody(const Json& data) {
  const std::string pod = Text(data, "pod");
  const Json& chosen = Get(data, "chosen");
  const std::string chosen_node = chosen.is_object() ? Text(chosen, "node") : "";
  std::string out;

  out += fmt::format(
      "<header class=\"top\">\n<h1>kpsim explain <span class=\"subject\">{}</span></h1>\n"
      "<p class=\"meta\">priority <b>{}</b> · profile <b>{}</b></p>\n</header>\n",
      PodRef(pod), Esc(Text(data, "priority")), Esc(Text(data, "profile")));

  // The verdict first.
  std::string verdict;
  if (!Text(data, "fitsNode").empty()) {
    verdict = fmt::format("<div class=\"verdict fits\">Fits on <b>{}</b> without preemption.</div>",
                          Esc(Text(data, "fitsNode")));
  } else if (!chosen_node.empty()) {
    verdict = fmt::format(
        "<div class=\"verdict preempt\">Preempts on <b>{}</b>: victims {}.<br>Decided by: "
        "<b>{}</b>.</div>",
        Esc(chosen_node), PodRefs(Items(chosen, "victims")), Dash(Text(chosen, "decidedBy")));
  } else {
    verdict = "<div class=\"verdict none\">No node: the pod stays pending.</div>";
  }
  verdict += fmt::format(
      "<p class=\"message\"><span class=\"label\">Message</span> "
      "<span class=\"msg\">{}</span></p>\n",
      Esc(Text(data, "message")));
  out += verdict;

  // 1) Filter.
  Table filter("filter", {"Node", "Result", "Reasons"});
  for (const Json& f : Items(data, "filter")) {
    std::string reasons;
    for (const Json& r : Items(f, "reasons")) reasons += "<li>" + Esc(Text(r)) + "</li>";
    filter.Row({Esc(Text(f, "node")), FilterBadge(f),
                reasons.empty() ? "–" : "<ul class=\"reasons\">" + reasons + "</ul>"},
               Flag(f, "fits") ? "class=\"fits-row\"" : "");
  }
  // A pod group's explanation has its own section; per-pod sections it leaves empty are dropped.
  const bool group = Get(data, "group").is_object();
  if (!(group && filter.Empty())) {
    out += Section("filter", "Filter, per node",
                   filter.Empty() ? "<p class=\"note\">No nodes.</p>\n" : filter.Render());
  }
  if (std::string plugins = FilterPluginTable(data); !plugins.empty()) {
    out += Section("filter-plugins", "Filter, per plugin and node", plugins,
                   "Each node's filter plugins in the order they run. The chain stops at the first "
                   "plugin that rejects the pod, so the plugins after it did not run there.");
  }
  if (std::string scores = ScoreTable(data); !scores.empty()) {
    out += Section("scores", "Score, per plugin and node", scores,
                   "The feasible nodes the cycle scored: each plugin's normalized score (0 to 100) "
                   "times its weight, summed; the highest total wins, ties broken at random (seeded).");
  }

  // 2) Eligibility.
  std::string eligibility = Flag(data, "eligible")
                                ? Badge("fits", "eligible to preempt")
                                : Badge("unschedulable", "not eligible to preempt");
  if (!Text(data, "eligibilityMessage").empty()) {
    eligibility += " <span class=\"msg\">" + Esc(Text(data, "eligibilityMessage")) + "</span>";
  }
  out += Section("eligibility", "Preemption eligibility", "<p>" + eligibility + "</p>\n");

  // 3) Candidates: the comparison the tie-breakers read, then each one's reprieve steps.
  const Json& candidates = Items(data, "candidates");
  std::string content;
  if (candidates.empty()) {
    content =
        "<p class=\"note\">No candidate node: removing every lower-priority pod helps on no "
        "node.</p>\n";
  } else {
    Table compare("candidates", {"Candidate", "Victims", "PDB violations",
                                 "Highest victim priority", "Victim count", "Reprieved"});
    for (const Json& c : candidates) {
      const bool is_chosen = Text(c, "node") == chosen_node;
      compare.Row({Esc(Text(c, "node")) + (is_chosen ? " " + Badge("chosen", "chosen") : ""),
                   PodRefs(Items(c, "victims")), Esc(Text(c, "pdbViolations")),
                   Esc(Text(c, "highestVictimPriority")),
                   std::to_string(Items(c, "victims").size()), PodRefs(Items(c, "reprieved"))},
                  is_chosen ? "class=\"chosen-row\"" : "");
    }
    content += compare.Render();
    content += render::PriorityScaleLegend();
    std::size_t strips = 0;
    for (const Json& c : candidates) {
      const bool is_chosen = Text(c, "node") == chosen_node;
      content += fmt::format("<div class=\"candidate{}\">\n<h3>Candidate {}{}</h3>\n",
                             is_chosen ? " chosen" : "", Esc(Text(c, "node")),
                             is_chosen ? " " + Badge("chosen", "chosen") : "");
      content += ReprieveSteps(c);
      // The chosen candidate's strips with the stepper; the first others' before and after.
      if (is_chosen || strips < kCandidateStripsShown) {
        content += render::CandidateCapacity(data, c, /*stepper=*/is_chosen);
        if (!is_chosen) ++strips;
      }
      content += "</div>\n";
    }
  }
  if (!(group && candidates.empty())) {
    out += Section("candidates", "Candidates: remove all, then reprieve", content,
                   "Each candidate node starts with every lower-priority pod removed (step 0); the "
                   "steps then put pods back one at a time, in the order shown, keeping each one "
                   "that still lets the preemptor fit.");
  }

  if (group) {
    out += Section("group", "Pod group cycle", GroupSection(Get(data, "group")));
  }

  // 4) Decision.
  std::string decision;
  if (!chosen_node.empty()) {
    decision = fmt::format("<p>Chosen node <b>{}</b>, victims {}, decided by <b>{}</b>.</p>\n",
                           Esc(chosen_node), PodRefs(Items(chosen, "victims")),
                           Dash(Text(chosen, "decidedBy")));
  } else if (!Text(data, "fitsNode").empty()) {
    decision = fmt::format("<p>No preemption needed: fits on <b>{}</b>.</p>\n",
                           Esc(Text(data, "fitsNode")));
  } else {
    decision = "<p>No node chosen.</p>\n";
  }
  out += Section("decision", "Decision", decision);
  out += Warnings(data);
  return out;
}

// ---------------------------------------------------------------------------------------------
// diff (two saved runs, or simulate --compare): the JSON `kpsim diff -o json` prints, as tables.

std::string RunTitle(const Json& f) {
  return fmt::format("<b>{}</b> <span class=\"note\">profile {}, seed {}, ended at {}s ({})</span>",
                     Esc(Text(f, "label")), Esc(Text(f, "profile")), Dash(Text(f, "seed")),
                     Esc(Text(f, "endTime")), Esc(Text(f, "endReason")));
}

std::string PlacementCell(const Json& side) {
  if (!side.is_object()) return "<i>absent</i>";
  const std::string node = Text(side, "node");
  return StateBadge(Text(side, "state")) + (node.empty() ? "" : " on " + Esc(node));
}

std::string WaitCell(const Json& side) {
  if (!side.is_object() || !Get(side, "wait").is_number()) return "–";
  return fmt::format("{:.3f}s{}", Get(side, "wait").get<double>(),
                     Text(side, "state") == "Pending" ? " (still pending)" : "");
}

// The pod's name in A, with B's when the runs named it differently.
std::string ChangedPod(const Json& change) {
  const Json& a = Get(change, "a");
  const Json& b = Get(change, "b");
  if (!a.is_object()) return PodRef(Text(b, "pod")) + " <span class=\"note\">(B only)</span>";
  if (!b.is_object()) return PodRef(Text(a, "pod")) + " <span class=\"note\">(A only)</span>";
  if (Text(a, "pod") == Text(b, "pod")) return PodRef(Text(a, "pod"));
  return PodRef(Text(a, "pod")) + " <span class=\"note\">(B: " + PodRef(Text(b, "pod")) + ")</span>";
}

std::string VictimsOnly(const Json& victims, std::string_view side) {
  if (victims.empty()) return fmt::format("<p>Victims only in {}: none.</p>\n", side);
  Table table("diff-victims", {"Pod", "Node", "Preempted by", "At", "PDB violation"});
  for (const Json& v : victims) {
    table.Row({PodRef(Text(v, "pod")), Dash(Text(v, "node")), PodRef(Text(v, "by")),
               Esc(Seconds(v, "time")), Flag(v, "pdbViolation") ? Badge("pdb", "yes") : "no"});
  }
  return fmt::format("<p>Victims only in {} ({}):</p>\n", side, victims.size()) + table.Render();
}

// One comparison: the figures side by side (changed rows marked), then each list of differences.
std::string DiffBody(const Json& d) {
  const Json& a = Get(d, "a");
  const Json& b = Get(d, "b");
  std::string out = "<p>A: " + RunTitle(a) + "<br>B: " + RunTitle(b) + "</p>\n";
  Table figures("diff-figures", {"", "A", "B"});
  const auto row = [&](std::string_view what, const char* key) {
    const std::string x = Text(a, key), y = Text(b, key);
    figures.Row({std::string(what), Dash(x), Dash(y)}, x == y ? "" : "class=\"changed-row\"");
  };
  row("victims", "victims");
  row("PDB violations", "pdbViolations");
  row("PDBs broken", "pdbsBroken");
  row("evictions", "evictions");
  row("decisions", "decisions");
  row("running at end", "running");
  row("pending at end", "pending");
  out += figures.Render();
  if (Flag(d, "identical")) {
    return out + "<p>No differences in victims, placements, waits or PDB violations.</p>\n";
  }
  out += VictimsOnly(Items(d, "victimsOnlyInA"), "A") + VictimsOnly(Items(d, "victimsOnlyInB"), "B");
  Table placements("diff-placements", {"Pod", "A", "B"});
  for (const Json& c : Items(d, "placements")) {
    placements.Row({ChangedPod(c), PlacementCell(Get(c, "a")), PlacementCell(Get(c, "b"))});
  }
  out += fmt::format("<h3>Placements that differ ({})</h3>\n", Items(d, "placements").size()) +
         (placements.Empty() ? "<p class=\"note\">None.</p>\n" : placements.Render());
  Table waits("diff-waits", {"Pod", "A", "B"});
  for (const Json& c : Items(d, "waits")) waits.Row({ChangedPod(c), WaitCell(Get(c, "a")), WaitCell(Get(c, "b"))});
  out += fmt::format("<h3>Waits that differ ({})</h3>\n", Items(d, "waits").size()) +
         (waits.Empty() ? "<p class=\"note\">None.</p>\n" : waits.Render());
  return out;
}

// Parses our own JSON output; a parse failure (never expected) renders an empty object.
Json Parse(const std::string& json) {
  Json parsed = Json::parse(json, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? Json::object() : parsed;
}

}  // namespace

std::string RenderSimulationHtml(const RunReport& report) {
  const std::string json = RenderSimulationJson(report);
  return Page("simulate", "kpsim simulation report", SimulationBody(Parse(json), report.attempts), json);
}

std::string RenderDiffHtml(const RunDiff& diff) {
  const std::string json = RenderDiffJson(diff);
  const Json d = Parse(json);
  const std::string body = "<header class=\"top\">\n<h1>kpsim diff</h1>\n</header>\n" +
                           Section("diff", "What differs from A to B", DiffBody(d));
  return Page("diff", "kpsim diff", body, json);
}

std::string RenderCompareHtml(std::span<const RunDiff> diffs) {
  const std::string json = RenderCompareJson(diffs);
  const Json d = Parse(json);
  std::string body = "<header class=\"top\">\n<h1>kpsim simulate --compare</h1>\n</header>\n";
  const Json& comparisons = Items(d, "comparisons");
  for (std::size_t i = 0; i < comparisons.size(); ++i) {
    body += Section(fmt::format("compare-{}", i + 1),
                    fmt::format("A (as given) against B ({})", Text(Get(comparisons[i], "b"), "label")),
                    DiffBody(comparisons[i]));
  }
  return Page("compare", "kpsim simulate --compare", body, json);
}

std::string RenderExplainHtml(const ExplainResult& explain,
                              std::span<const Warning> input_warnings) {
  const std::string json = RenderExplainJson(explain, input_warnings);
  return Page("explain", "kpsim explain " + explain.pod, ExplainBody(Parse(json)), json);
}

}  // namespace kpsim::report
