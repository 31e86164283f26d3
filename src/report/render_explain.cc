// `kpsim explain` output: per-node filter results, per-candidate reprieve traces, the chosen node
// and the tie-breaker that decided.

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kpsim/explain.h"
#include "kpsim/report.h"
#include "report/render_common.h"

namespace kpsim::report {
namespace {

using render::Join;
using render::Json;

Json StepJson(const ReprieveStep& s) {
  Json out = Json::object();
  out["pod"] = s.pod;
  out["priority"] = s.priority;
  out["pdbViolating"] = s.pdb_violating;
  out["reprieved"] = s.reprieved;
  out["result"] = s.reprieved ? "reprieved" : "victim";
  out["why"] = s.why;
  out["freeAfter"] = render::ResourcesJson(s.free_after);
  out["requests"] = render::ResourcesJson(s.requests);
  return out;
}

Json CandidateJson(const CandidateOutcome& c) {
  Json out = Json::object();
  out["node"] = c.node;
  out["victims"] = c.victims;
  out["pdbViolations"] = c.pdb_violations;
  out["reprieved"] = c.reprieved;
  out["highestVictimPriority"] = c.highest_victim_priority;
  out["freeAfterRemoval"] = render::ResourcesJson(c.free_after_removal);
  Json steps = Json::array();
  for (const ReprieveStep& s : c.steps) steps.push_back(StepJson(s));
  out["steps"] = std::move(steps);
  out["allocatable"] = render::ResourcesJson(c.allocatable);
  Json staying = Json::array();
  for (const PodSlice& p : c.staying) {
    staying.push_back(Json{{"pod", p.pod}, {"priority", p.priority}, {"requests", render::ResourcesJson(p.requests)}});
  }
  out["staying"] = std::move(staying);
  out["naiveVictims"] = c.naive_victims;
  return out;
}

}  // namespace

namespace {

std::vector<Warning> ExplainWarnings(const ExplainResult& explain,
                                     std::span<const Warning> input_warnings) {
  std::vector<Warning> out(input_warnings.begin(), input_warnings.end());
  out.insert(out.end(), explain.warnings.begin(), explain.warnings.end());
  return out;
}

}  // namespace

std::string RenderExplainJson(const ExplainResult& explain,
                              std::span<const Warning> input_warnings) {
  Json out = Json::object();
  out["profile"] = std::string(render::ProfileName(explain.profile));
  out["pod"] = explain.pod;
  out["round"] = explain.round;
  out["time"] = render::SecondsJson(explain.time);
  out["priority"] = explain.priority;
  out["eligible"] = explain.eligible;
  out["eligibilityMessage"] = explain.eligibility_message;
  out["requests"] = render::ResourcesJson(explain.requests);
  out["filterPlugins"] = explain.filter_plugins;
  Json filter = Json::array();
  for (const FilterOutcome& f : explain.filter) {
    Json entry = Json::object();
    entry["node"] = f.node;
    entry["fits"] = f.fits;
    entry["code"] = f.code;
    entry["reasons"] = f.reasons;
    entry["plugin"] = f.plugin;
    filter.push_back(std::move(entry));
  }
  out["filter"] = std::move(filter);
  out["scorePlugins"] = explain.score_plugins;
  Json scores = Json::array();
  for (const NodeScore& n : explain.scores) {
    Json plugins = Json::array();
    for (const PluginScore& p : n.plugins) {
      plugins.push_back(Json{{"plugin", p.plugin}, {"score", p.score}, {"weight", p.weight}});
    }
    scores.push_back(Json{{"node", n.node}, {"plugins", std::move(plugins)}, {"total", n.total}});
  }
  out["scores"] = std::move(scores);
  Json candidates = Json::array();
  for (const CandidateOutcome& c : explain.candidates) candidates.push_back(CandidateJson(c));
  out["candidates"] = std::move(candidates);
  if (explain.chosen.has_value()) {
    Json chosen = Json::object();
    chosen["node"] = explain.chosen->node;
    chosen["victims"] = explain.chosen->victims;
    chosen["decidedBy"] = explain.chosen->decided_by;
    out["chosen"] = std::move(chosen);
  } else {
    out["chosen"] = nullptr;
  }
  out["message"] = explain.message;
  out["fitsNode"] = explain.fits_node.has_value() ? Json(*explain.fits_node) : Json(nullptr);
  if (explain.group.has_value()) {
    const GroupExplain& g = *explain.group;
    Json group = Json::object();
    group["group"] = g.group;
    group["priority"] = g.priority;
    group["members"] = g.members;
    if (!g.validation_error.empty()) group["validationError"] = g.validation_error;
    group["placeable"] = g.placeable;
    Json placement = Json::array();
    for (const auto& [pod, where] : g.placement) {
      Json entry = Json::object();
      entry["pod"] = pod;
      entry["result"] = where;
      placement.push_back(std::move(entry));
    }
    group["placement"] = std::move(placement);
    group["placementMessage"] = g.placement_message;
    group["preemptionMessage"] = g.preemption_message;
    Json reprieve = Json::array();
    for (const ReprieveStep& s : g.reprieve) reprieve.push_back(StepJson(s));
    group["reprieve"] = std::move(reprieve);
    group["victims"] = g.victims;
    Json nominations = Json::array();
    for (const auto& [pod, node] : g.nominations) {
      Json entry = Json::object();
      entry["pod"] = pod;
      entry["node"] = node;
      nominations.push_back(std::move(entry));
    }
    group["nominations"] = std::move(nominations);
    out["group"] = std::move(group);
  }
  out["warnings"] = render::WarningsJson(ExplainWarnings(explain, input_warnings));
  return render::Dump(out);
}

std::string RenderExplainText(const ExplainResult& explain,
                              std::span<const Warning> input_warnings) {
  std::string out = fmt::format("Pod {} (priority {}), profile {}\n", explain.pod,
                                explain.priority, render::ProfileName(explain.profile));
  out += explain.round > 0 ? fmt::format("Attempt: round {} at {}s of the run\n", explain.round,
                                         render::SecondsText(explain.time, 0))
                           : "Attempt: against the state at time 0\n";
  // 1) Filter, per node.
  out += "\nFilter:\n";
  if (explain.filter.empty()) {
    out += "  (no nodes)\n";
  } else {
    const bool plugins = !explain.filter_plugins.empty();
    std::vector<std::vector<std::string>> rows = {{"NODE", "RESULT", "REASONS"}};
    if (plugins) rows[0].insert(rows[0].begin() + 2, "PLUGIN");
    for (const FilterOutcome& f : explain.filter) {
      rows.push_back({f.node, f.fits ? "fits" : (f.code.empty() ? "rejected" : f.code),
                      f.reasons.empty() ? "-" : Join(f.reasons, "; ")});
      if (plugins) rows.back().insert(rows.back().begin() + 2, f.plugin.empty() ? "-" : f.plugin);
    }
    out += render::TextTable(rows, "  ");
  }
  if (explain.fits_node.has_value()) {
    out += fmt::format("\nFits on {} without preemption.\n", *explain.fits_node);
  }
  if (!explain.scores.empty()) {
    // prioritizeNodes: each plugin's normalized score times its weight, summed.
    out += "\nScore (normalized score x weight per plugin):\n";
    std::vector<std::vector<std::string>> rows = {{"NODE"}};
    for (const std::string& p : explain.score_plugins) rows[0].push_back(p);
    rows[0].push_back("TOTAL");
    for (const NodeScore& n : explain.scores) {
      std::vector<std::string> row = {n.node};
      for (const PluginScore& p : n.plugins) row.push_back(fmt::format("{}x{}", p.score, p.weight));
      row.push_back(std::to_string(n.total));
      rows.push_back(std::move(row));
    }
    out += render::TextTable(rows, "  ");
  }
  // 2) Eligibility to preempt.
  out += "\nPreemption: ";
  out += explain.eligible ? "eligible" : "not eligible";
  if (!explain.eligibility_message.empty()) out += " (" + explain.eligibility_message + ")";
  out += "\n";
  // 3) Candidates with their reprieve traces.
  for (const CandidateOutcome& c : explain.candidates) {
    if (c.steps.size() == 1 && c.steps[0].pod.empty() && c.victims.empty()) {
      // The dry run found no candidate here: its one step says why.
      out += fmt::format("\nNot a candidate {}: {}\n", c.node,
                         c.steps[0].why.starts_with("not a candidate: ") ? c.steps[0].why.substr(17) : c.steps[0].why);
      continue;
    }
    out += fmt::format(
        "\nCandidate {}: {} victim(s) [{}], {} PDB violation(s), highest victim priority {}\n",
        c.node, c.victims.size(), Join(c.victims, ", "), c.pdb_violations,
        c.highest_victim_priority);
    out += fmt::format("  with every lower-priority pod removed: free cpu {}, memory {}\n",
                       render::FormatCpu(c.free_after_removal.milli_cpu),
                       render::FormatBytes(c.free_after_removal.memory));
    if (!c.steps.empty()) {
      std::vector<std::vector<std::string>> rows = {
          {"STEP", "POD", "PRIORITY", "PDB-VIOLATING", "RESULT", "FREE CPU", "FREE MEMORY", "WHY"}};
      for (std::size_t step_idx = 0; step_idx < c.steps.size(); ++step_idx) {
        const ReprieveStep& s = c.steps[step_idx];
        rows.push_back({std::to_string(step_idx + 1), s.pod, std::to_string(s.priority),
                        s.pdb_violating ? "yes" : "no", s.reprieved ? "reprieved" : "victim",
                        render::FormatCpu(s.free_after.milli_cpu),
                        render::FormatBytes(s.free_after.memory), s.why.empty() ? "-" : s.why});
      }
      out += render::TextTable(rows, "  ");
    }
    if (!c.reprieved.empty()) out += fmt::format("  reprieved: {}\n", Join(c.reprieved, ", "));
    // Both counts are of victim units (a pod, or a disruptionMode `all` group that goes as one).
    const auto stopped = static_cast<std::size_t>(
        std::count_if(c.steps.begin(), c.steps.end(), [](const ReprieveStep& s) { return !s.reprieved; }));
    if (!c.naive_victims.empty() && c.naive_victims.size() > stopped) {
      out += fmt::format("  removing the lowest priority first until it fits would stop {} instead of {}: {}\n",
                         c.naive_victims.size(), stopped, Join(c.naive_victims, ", "));
    }
  }
  // Pod groups: the group cycle and workload-aware preemption.
  if (explain.group.has_value()) {
    const GroupExplain& g = *explain.group;
    out += fmt::format("\nPod group {} (priority {}), pending members in scheduling order: {}\n", g.group,
                       g.priority, g.members.empty() ? "-" : Join(g.members, ", "));
    if (!g.validation_error.empty()) out += "  refused before scheduling: " + g.validation_error + "\n";
    if (!g.placement.empty()) {
      std::vector<std::vector<std::string>> rows = {{"POD", "PLACEMENT"}};
      for (const auto& [pod, where] : g.placement) rows.push_back({pod, where});
      out += render::TextTable(rows, "  ");
    }
    out += g.placeable ? "  the group is placed without preemption\n"
                       : (g.placement_message.empty() ? "" : "  " + g.placement_message + "\n");
    if (!g.preemption_message.empty()) out += "  " + g.preemption_message + "\n";
    if (!g.reprieve.empty()) {
      std::vector<std::vector<std::string>> rows = {{"STEP", "VICTIM", "PRIORITY", "PDB-VIOLATING", "RESULT", "WHY"}};
      for (std::size_t step_idx = 0; step_idx < g.reprieve.size(); ++step_idx) {
        const ReprieveStep& s = g.reprieve[step_idx];
        rows.push_back({std::to_string(step_idx + 1), s.pod, std::to_string(s.priority),
                        s.pdb_violating ? "yes" : "no", s.reprieved ? "reprieved" : "victim", s.why});
      }
      out += render::TextTable(rows, "  ");
    }
    for (const auto& [pod, node] : g.nominations) out += fmt::format("  nominate {} to {}\n", pod, node);
  }
  // 4) The decision.
  if (explain.chosen.has_value()) {
    out += fmt::format("\nChosen: {} (decided by: {}), victims: {}\n", explain.chosen->node,
                       explain.chosen->decided_by.empty() ? "-" : explain.chosen->decided_by,
                       explain.chosen->victims.empty() ? "-" : Join(explain.chosen->victims, ", "));
  } else if (!explain.fits_node.has_value()) {
    out += "\nChosen: none\n";
  }
  out += fmt::format("\nMessage: {}\n", explain.message);
  out += render::WarningsText(ExplainWarnings(explain, input_warnings));
  return out;
}

}  // namespace kpsim::report
