#include "report/render_capacity.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kpsim/api/types.h"

namespace kpsim::report::render {
namespace {

// The fixed priority scale: bands of priority values, light to dark. Fixed so that a colour
// means the same value on every page (a rank palette would shift with the pods present).
struct Band {
  std::int64_t below;  // exclusive upper bound
  const char* label;
};
constexpr Band kBands[] = {
    {0, "below 0"},          {1, "0"},
    {10, "1 to 9"},          {100, "10 to 99"},
    {1000, "100 to 999"},    {10000, "1k to 10k"},
    {100000, "10k to 100k"}, {1000000, "100k to 1M"},
    {1000000001, "1M to 1G"}, {std::numeric_limits<std::int64_t>::max(), "above 1G (system)"},
};

int BandOf(std::int64_t priority) {
  int band = 0;
  while (band + 1 < static_cast<int>(std::size(kBands)) && priority >= kBands[band].below) ++band;
  return band;
}

// A quantity string of the JSON in milli-units (0 when absent or unreadable).
std::int64_t Milli(const Json& resources, const std::string& name) {
  const std::string text = Text(resources, name.c_str());
  if (text.empty()) return 0;
  const Expected<Quantity> q = Quantity::Parse(text);
  return q ? q->milli : 0;
}

std::string Amount(const std::string& resource, std::int64_t milli) {
  if (resource == "cpu") return FormatCpu(milli);
  if (resource == "memory" || resource == "ephemeral-storage") return FormatBytes(milli / 1000);
  return std::to_string(milli / 1000);
}

std::string ShortName(const std::string& pod) {
  return pod.starts_with("default/") ? pod.substr(8) : pod;
}

enum class Mark { kNone, kVictim, kIncoming, kJustBack };

struct Slice {
  std::string pod;
  std::int64_t priority = 0;
  const Json* requests = nullptr;
  bool pdb = false;  // PDB-protected: evicting it would violate a budget
  Mark mark = Mark::kNone;
};

// What the strips are drawn for: the resources the pod requests (at most three), cpu if none.
std::vector<std::string> StripResources(const Json& requests) {
  std::vector<std::string> out;
  if (requests.is_object()) {
    for (const auto& [name, value] : requests.items()) {
      if (name != "pods" && Milli(requests, name) > 0 && out.size() < 3) out.push_back(name);
    }
  }
  if (out.empty()) out.push_back("cpu");
  return out;
}

std::string Strip(const std::string& resource, std::int64_t allocatable, const std::vector<Slice>& slices) {
  std::int64_t used = 0;
  for (const Slice& s : slices) used += Milli(*s.requests, resource);
  const std::int64_t scale = std::max<std::int64_t>({allocatable, used, 1});
  std::string out = fmt::format("<div class=\"strip-row\"><span class=\"strip-res\">{}</span><div class=\"strip{}\">",
                                Esc(resource), used > allocatable ? " over" : "");
  for (const Slice& s : slices) {
    const std::int64_t amount = Milli(*s.requests, resource);
    if (amount <= 0) continue;
    std::string css = fmt::format("seg band-{}", BandOf(s.priority));
    std::string note;
    switch (s.mark) {
      case Mark::kVictim:
        css += " victim";
        note = ", a victim";
        break;
      case Mark::kIncoming:
        css += " incoming";
        note = ", the pod being scheduled";
        break;
      case Mark::kJustBack:
        css += " just-back";
        note = ", just put back";
        break;
      case Mark::kNone:
        break;
    }
    if (s.pdb) {
      css += " pdb";
      note += ", protected by a PodDisruptionBudget";
    }
    out += fmt::format(
        "<span class=\"{}\" style=\"width:{:.3f}%\" data-pod=\"{}\" title=\"{} (priority {}): {} {}{}\">{}</span>",
        css, 100.0 * static_cast<double>(amount) / static_cast<double>(scale), Esc(s.pod), Esc(s.pod), s.priority,
        Esc(resource), Esc(Amount(resource, amount)), Esc(note), Esc(ShortName(s.pod)));
  }
  out += fmt::format("</div><span class=\"strip-used\">{} of {}</span></div>", Esc(Amount(resource, used)),
                     Esc(Amount(resource, allocatable)));
  return out;
}

struct NodeView {
  const Json* allocatable = nullptr;
  std::vector<std::string> resources;
};

std::string Frame(const NodeView& node, const std::string& caption, const std::vector<Slice>& slices,
                  const std::string& css = "") {
  std::string out = fmt::format("<div class=\"cap-frame{}\"><div class=\"cap-caption\">{}</div>",
                                css.empty() ? "" : " " + css, caption);
  for (const std::string& r : node.resources) out += Strip(r, Milli(*node.allocatable, r), slices);
  return out + "</div>";
}

// At most this many bars in one stepper (frames x bars per frame, both sides).
constexpr std::size_t kStepperBars = 4000;

// What the summary counts: pods, or victim units when a disruptionMode `all` group goes as one
// (select_victims.cc UnitName).
std::string Units(std::size_t n, bool groups) {
  if (groups) return n == 1 ? "1 victim unit" : fmt::format("{} victim units", n);
  return n == 1 ? "1 pod" : fmt::format("{} pods", n);
}

std::string PodList(const std::vector<std::string>& pods) {
  std::string out;
  for (const std::string& p : pods) out += (out.empty() ? "" : ", ") + Esc(ShortName(p));
  return out.empty() ? "none" : out;
}

}  // namespace

std::string PriorityScaleLegend() {
  std::string out = "<div class=\"cap-legend\"><span class=\"note\">Priority (by decade, a fixed scale):</span>";
  for (std::size_t i = 0; i < std::size(kBands); ++i) {
    out += fmt::format("<span><span class=\"sw band-{}\"></span>{}</span>", i, kBands[i].label);
  }
  out += "<span><span class=\"sw victim\"></span>victim</span><span><span class=\"sw pdb\"></span>PDB-protected</span>"
         "<span><span class=\"sw incoming\"></span>the pod being scheduled</span></div>";
  return out;
}

std::string CandidateCapacity(const Json& explain, const Json& candidate, bool stepper) {
  const Json& allocatable = Get(candidate, "allocatable");
  const Json& steps = Items(candidate, "steps");
  if (!allocatable.is_object() || steps.empty() || Text(steps[0], "pod").empty()) return {};
  NodeView node{&allocatable, StripResources(Get(explain, "requests"))};

  const Slice incoming{Text(explain, "pod"), Count(explain, "priority"), &Get(explain, "requests"), false,
                       Mark::kIncoming};
  std::vector<Slice> staying;
  for (const Json& p : Items(candidate, "staying")) {
    staying.push_back(Slice{Text(p, "pod"), Count(p, "priority"), &Get(p, "requests")});
  }
  // The steps' victim units (a pod, or a disruptionMode `all` group's pods on this node), most
  // important first; a step that was not reprieved is a victim.
  std::vector<Slice> lower;
  std::size_t stopped = 0;
  bool groups = false;
  for (const Json& st : steps) {
    lower.push_back(Slice{Text(st, "pod"), Count(st, "priority"), &Get(st, "requests"), Flag(st, "pdbViolating")});
    if (!Flag(st, "reprieved")) ++stopped;
    groups = groups || lower.back().pod.find("disruptionMode All") != std::string::npos;
  }

  // Before and after.
  std::vector<Slice> before = staying, after = staying;
  for (std::size_t i = 0; i < lower.size(); ++i) {
    Slice s = lower[i];
    if (Flag(steps[i], "reprieved")) {
      after.push_back(s);
    } else {
      s.mark = Mark::kVictim;
    }
    before.push_back(s);
  }
  after.push_back(incoming);
  const std::string name = Esc(Text(candidate, "node"));
  std::string out = "<div class=\"capacity\">";
  out += "<div class=\"cap-pair\">" +
         Frame(node, fmt::format("<b>{}</b> before: the victims outlined in red", name), before) +
         Frame(node, fmt::format("<b>{}</b> after: {} placed", name, Esc(ShortName(incoming.pod))), after) +
         "</div>";
  // The stepper redraws the node per frame: past a budget of bars (a node with hundreds of pods)
  // the page would grow by megabytes per attempt, so it says where to see the steps instead.
  const Json& naive = Items(candidate, "naiveVictims");
  const std::size_t n = steps.size(), m = naive.size();
  const std::size_t frames = std::max(n, m) + 1;
  if (stepper && frames * (staying.size() + lower.size() + 1) * 2 > kStepperBars) {
    out += fmt::format("<p class=\"note\">The step-by-step view is left out: {} steps over {} pods on the node. "
                       "The table above lists every step.</p>",
                       n, staying.size() + lower.size());
    stepper = false;
  }
  if (!stepper) return out + "</div>";

  // The stepper: frame k shows the reprieve after its k-th step and the naive order after its
  // k-th removal, each side holding its last frame once it is done.
  out += fmt::format("<div class=\"stepper\" data-frames=\"{}\">", frames);
  std::vector<std::string> victims_so_far;
  std::size_t spared = 0;
  for (std::size_t k = 0; k < frames; ++k) {
    out += fmt::format("<div class=\"cap-step\" data-frame=\"{}\">", k);
    // Remove all, then reprieve.
    const std::size_t kr = std::min(k, n);
    std::vector<Slice> now = staying;
    for (std::size_t i = 0; i < kr; ++i) {
      if (!Flag(steps[i], "reprieved")) continue;
      Slice s = lower[i];
      if (i + 1 == kr) s.mark = Mark::kJustBack;
      now.push_back(s);
    }
    now.push_back(incoming);
    std::string caption;
    if (k == 0) {
      caption = "<b>Remove all, then reprieve</b>: step 0, every lower-priority pod removed";
    } else if (k <= n) {
      const Json& st = steps[k - 1];
      const bool back = Flag(st, "reprieved");
      if (back) {
        ++spared;
      } else {
        victims_so_far.push_back(Text(st, "pod"));
      }
      caption = fmt::format("<b>Remove all, then reprieve</b>: step {}, put back {} (priority {}): {}", k,
                            Esc(ShortName(Text(st, "pod"))), Esc(Text(st, "priority")),
                            back ? "it still fits, spared" : Esc(Text(st, "why")) + ", a victim");
    } else {
      caption = "<b>Remove all, then reprieve</b>: done";
    }
    caption += fmt::format("<br><span class=\"note\">stopped so far: {}</span>", PodList(victims_so_far));
    out += "<div class=\"cap-pair\">" + Frame(node, caption, now, "reprieve");
    // The naive order.
    if (m > 0) {
      const std::size_t kn = std::min(k, m);
      std::set<std::string> removed;
      std::vector<std::string> removed_list;
      for (std::size_t i = 0; i < kn; ++i) {
        removed.insert(Text(naive[i]));
        removed_list.push_back(Text(naive[i]));
      }
      std::vector<Slice> naive_now = staying;
      for (const Slice& s : lower) {
        if (removed.count(s.pod) == 0) naive_now.push_back(s);
      }
      if (kn == m) naive_now.push_back(incoming);
      std::string ncaption = "<b>Naive, the lowest priority first</b>: ";
      ncaption += kn == 0 ? "nothing removed yet, the pod does not fit"
                          : fmt::format("removed {}{}", Esc(ShortName(Text(naive[kn - 1]))),
                                        kn == m ? ": now it fits" : ": it still does not fit");
      ncaption += fmt::format("<br><span class=\"note\">stopped so far: {}</span>", PodList(removed_list));
      out += Frame(node, ncaption, naive_now, "naive");
    }
    out += "</div></div>";
  }
  out += "</div>";
  out += fmt::format("<p class=\"cap-summary\">Remove all, then reprieve stops <b>{}</b> and spares {}",
                     Units(stopped, groups), spared);
  if (m > 0) out += fmt::format("; removing the lowest priority first until it fits would stop <b>{}</b>", Units(m, groups));
  out += ".</p>";
  return out + "</div>";
}

}  // namespace kpsim::report::render
