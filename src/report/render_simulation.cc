// `kpsim simulate` output: the JSON contract (field names are a promise) and the text timeline.

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "kpsim/api/types.h"
#include "kpsim/engine_options.h"
#include "kpsim/io.h"
#include "kpsim/report.h"
#include "kpsim/results.h"
#include "report/disruption.h"
#include "report/scale_up.h"
#include "report/render_common.h"

namespace kpsim::report {
namespace {

using render::Json;

// The reader's, admission's, the simulation's and the command line's warnings, in that order.
std::vector<Warning> SimulationWarnings(const RunReport& report) {
  std::vector<Warning> more;
  if (report.simulation != nullptr) more = report.simulation->warnings;
  more.insert(more.end(), report.extra_warnings.begin(), report.extra_warnings.end());
  return CollectWarnings(report.read, report.admission, more);
}

Json EventJson(const SimEvent& e) {
  Json out = Json::object();
  out["time"] = render::SecondsJson(e.time);
  out["reason"] = std::string(EventReasonName(e.reason));
  out["pod"] = e.reason == EventReason::kScenarioStep ? render::StringOrNull(e.pod) : Json(e.pod);
  out["node"] = render::StringOrNull(e.node);
  out["message"] = e.message;
  if (e.step_index >= 0) {
    Json step = Json::object();
    step["scenario"] = e.scenario;
    step["index"] = e.step_index;
    step["action"] = e.action;
    out["step"] = std::move(step);
  }
  if (e.reason == EventReason::kPreempted) {
    out["by"] = e.by;
    if (!e.by_group.empty()) out["byGroup"] = e.by_group;
    out["pdbViolation"] = e.pdb_violation;
    if (!e.victim_group.empty()) out["victimGroup"] = e.victim_group;
  }
  if (e.round > 0) out["round"] = e.round;
  // Events API aggregation (SimEvent::count): `time` stays the first time.
  out["count"] = e.count;
  out["firstTime"] = render::SecondsJson(e.time);
  out["lastTime"] = render::SecondsJson(e.count > 1 ? e.last_time : e.time);
  return out;
}

Json DisruptionJson(const DisruptionCost& d) {
  Json out = Json::object();
  out["evictedPods"] = d.evicted_pods;
  out["preemptors"] = d.preemptors;
  out["pressureEvictions"] = d.pressure_evictions;
  // Victims' requests over their preemptors' (cpu; memory in evictionRatios), null without any.
  out["evictionRatio"] = render::Rounded3(d.cpu_ratio);
  out["evictionRatios"] = Json{{"cpu", render::Rounded3(d.cpu_ratio)}, {"memory", render::Rounded3(d.memory_ratio)}};
  out["evictedRequests"] = Json{{"cpu", render::FormatCpu(d.evicted.milli_cpu)},
                                {"memory", render::FormatBytes(d.evicted.memory)}};
  out["preemptorRequests"] = Json{{"cpu", render::FormatCpu(d.requested.milli_cpu)},
                                  {"memory", render::FormatBytes(d.requested.memory)}};
  Json by = Json::array();
  for (const DisruptionCost::Preemptor& p : d.by_preemptor) {
    by.push_back(Json{{"preemptor", p.name},
                      {"kind", p.group ? "PodGroup" : "Pod"},
                      {"victims", p.victims},
                      {"evictedCpu", render::FormatCpu(p.evicted.milli_cpu)},
                      {"evictedMemory", render::FormatBytes(p.evicted.memory)},
                      {"requestedCpu", render::FormatCpu(p.requested.milli_cpu)},
                      {"requestedMemory", render::FormatBytes(p.requested.memory)},
                      {"cpuRatio", render::Rounded3(p.cpu_ratio)}});
  }
  out["byPreemptor"] = std::move(by);
  out["pdbBudgetConsumed"] = d.pdb_budget_consumed;
  Json pdbs = Json::array();
  for (const auto& b : d.pdbs_broken) pdbs.push_back(Json{{"pdb", b.pdb}, {"victims", b.victims}});
  out["pdbsBroken"] = std::move(pdbs);
  Json groups = Json::array();
  for (const auto& g : d.groups_broken) {
    groups.push_back(Json{{"group", g.group}, {"state", g.state}, {"preempted", g.preempted},
                          {"placed", g.placed}, {"minCount", g.min_count}});
  }
  out["groupsBroken"] = std::move(groups);
  out["cascadeDepth"] = d.cascade_depth;
  out["timeToQuiet"] = render::Rounded3(d.time_to_quiet);
  Json waiting = Json::array();
  for (const auto& w : d.longest_waiting) waiting.push_back(Json{{"pod", w.pod}, {"waited", render::Rounded3(w.waited)}});
  out["pendingAtEnd"] = Json{{"count", d.pending}, {"longest", std::move(waiting)}};
  Json classes = Json::array();
  for (const auto& c : d.by_class) {
    classes.push_back(Json{{"priorityClass", c.priority_class.empty() ? Json(nullptr) : Json(c.priority_class)},
                           {"priority", c.priority},
                           {"pods", c.pods},
                           {"evicted", c.evicted},
                           {"placed", c.placed},
                           {"pending", c.pending},
                           {"waited", c.waits},
                           {"meanWait", render::Rounded3(c.waits > 0 ? std::optional(c.mean_wait) : std::nullopt)},
                           {"maxWait", render::Rounded3(c.waits > 0 ? std::optional(c.max_wait) : std::nullopt)}});
  }
  out["byPriorityClass"] = std::move(classes);
  return out;
}

Json PodJson(const PodOutcome& p) {
  Json out = Json::object();
  out["pod"] = p.pod;
  out["priority"] = p.priority;
  out["state"] = std::string(PodStateName(p.state));
  out["node"] = render::StringOrNull(p.node);
  out["nominatedNode"] = render::StringOrNull(p.nominated_node);
  if (p.state == PodState::kPending || !p.reason.empty()) out["reason"] = p.reason;
  if (!p.condition.empty()) out["condition"] = p.condition;
  if (!p.replacement_of.empty()) out["replacementOf"] = p.replacement_of;
  if (!p.pod_group.empty()) out["podGroup"] = p.pod_group;
  if (p.scheduled_at.has_value()) out["scheduledAt"] = render::SecondsJson(*p.scheduled_at);
  if (p.deleted_at.has_value()) out["deletedAt"] = render::SecondsJson(*p.deleted_at);
  return out;
}

// The names of `pods` (indices of sim.pods), as a JSON array.
Json PodNamesJson(const SimulationResult& sim, const std::vector<ResultIndex>& pods) {
  Json out = Json::array();
  for (ResultIndex pod : pods) out.push_back(sim.PodName(pod));
  return out;
}

Json NodeJson(const SimulationResult& sim, const NodeOutcome& n) {
  Json out = Json::object();
  out["node"] = n.node;
  out["allocatable"] = render::ResourcesJson(n.allocatable);
  out["requested"] = render::ResourcesJson(n.requested);
  out["pods"] = PodNamesJson(sim, n.pods);
  if (n.added_at.has_value()) out["addedAt"] = render::SecondsJson(*n.added_at);
  if (n.deleted_at.has_value()) out["deletedAt"] = render::SecondsJson(*n.deleted_at);
  return out;
}

Json GroupJson(const GroupOutcome& g) {
  Json out = Json::object();
  out["group"] = g.group;
  out["composite"] = g.composite;
  if (!g.parent.empty()) out["parent"] = g.parent;
  out["priority"] = g.priority;
  out["disruptionMode"] = g.disruption_mode;
  out["pods"] = g.pods;
  out["placed"] = g.placed;
  out["minCount"] = g.min_count;
  out["preempted"] = g.preempted;
  out["state"] = g.state;
  if (!g.message.empty()) out["message"] = g.message;
  return out;
}

// A tie-breaker value: a number, or the start time as RFC 3339 (as `origin` renders wall times).
Json TieBreakerJson(const TieBreakerValue& t) {
  if (t.is_time) return WallTime{t.value}.ToRfc3339();
  return t.value;
}

Json CandidateJson(const SimulationResult& sim, const DecisionCandidate& c) {
  Json out = Json::object();
  out["node"] = sim.NodeName(c.node);
  out["victims"] = PodNamesJson(sim, c.victims);
  out["victimCount"] = c.victim_count;
  out["pdbViolations"] = c.pdb_violations;
  Json tie_breakers = Json::object();
  for (const TieBreakerValue& t : c.tie_breakers()) tie_breakers[std::string(t.id)] = TieBreakerJson(t);
  out["tieBreakers"] = std::move(tie_breakers);
  return out;
}

// One `decisions[]` entry (PreemptionDecision): compact by design, the engine keeps the top
// candidates only.
Json DecisionJson(const SimulationResult& sim, const PreemptionDecision& d) {
  Json out = Json::object();
  out["round"] = d.round;
  out["time"] = render::SecondsJson(d.time);
  out["preemptor"] = sim.PreemptorName(d);
  if (d.pod_group != kNoIndex) out["podGroup"] = sim.GroupName(d.pod_group);
  out["node"] = d.node == kNoIndex ? Json(nullptr) : Json(sim.NodeName(d.node));
  out["victims"] = PodNamesJson(sim, d.victims);
  out["decidedBy"] = std::string(d.decided_by);
  out["decidedByLabel"] = std::string(d.decided_by_label);
  Json candidates = Json::array();
  for (const DecisionCandidate& c : d.candidates) candidates.push_back(CandidateJson(sim, c));
  out["candidates"] = std::move(candidates);
  out["candidateCount"] = d.candidate_count;
  out["nodesEvaluated"] = d.nodes_evaluated;
  Json pdbs = Json::array();
  for (const DecisionPdb& p : d.pdbs) {
    Json pdb = Json::object();
    pdb["name"] = sim.PdbName(p.pdb);
    pdb["allowedBefore"] = p.allowed_before;
    pdb["allowedAfter"] = p.allowed_after;
    pdb["victims"] = PodNamesJson(sim, p.victims);
    pdbs.push_back(std::move(pdb));
  }
  out["pdbs"] = std::move(pdbs);
  Json units = Json::array();
  for (const DecisionUnit& u : d.units) {
    Json unit = Json::object();
    unit["kind"] = std::string(sim.UnitKind(u));
    unit["name"] = sim.UnitName(u);
    unit["pods"] = PodNamesJson(sim, u.pods);
    unit["priority"] = u.priority;
    unit["why"] = u.why;
    units.push_back(std::move(unit));
  }
  out["units"] = std::move(units);
  Json nominations = Json::array();
  for (const auto& [pod, node] : d.nominations) {
    Json nomination = Json::object();
    nomination["pod"] = sim.PodName(pod);
    nomination["node"] = sim.NodeName(node);
    nominations.push_back(std::move(nomination));
  }
  out["nominations"] = std::move(nominations);
  return out;
}

Json StatsJson(const SimulationStats& s) {
  Json out = Json::object();
  out["schedulingAttempts"] = s.scheduling_attempts;
  out["preemptionAttempts"] = s.preemption_attempts;
  out["podsScheduled"] = s.pods_scheduled;
  out["victims"] = s.victims;
  out["dryRuns"] = s.dry_runs;
  out["evictions"] = s.evictions;
  return out;
}

// "default/api" -> "api" for the book's log, which names pods bare; other namespaces stay.
std::string BookName(std::string_view pod) {
  constexpr std::string_view kDefault = "default/";
  if (pod.starts_with(kDefault)) return std::string(pod.substr(kDefault.size()));
  return std::string(pod);
}

class TextWriter {
 public:
  static constexpr std::size_t kDecisionsShown = 50;
  static constexpr std::size_t kNominationsShown = 10;

  explicit TextWriter(const RunReport& report) : report_(report) {
    if (report.simulation != nullptr) {
      for (const PodOutcome& p : report.simulation->pods) priorities_[p.pod.string()] = p.priority;
    }
  }

  std::string Render() {
    const SimulationResult* sim = report_.simulation;
    if (sim != nullptr) {
      Timeline(*sim);
      Decisions(*sim);
      Disruption(*sim);
      if (report_.scale_up != nullptr) out_ += ScaleUpText(ScaleUpJson(*report_.scale_up, *sim));
      Nodes(*sim);
      Groups(*sim);
      Quotas(*sim);
      Pending(*sim);
    }
    RejectedAndIgnored();
    out_ += render::WarningsText(warnings_);
    Summary();
    return std::move(out_);
  }

 private:
  std::string Priority(std::string_view pod) const {
    const auto it = priorities_.find(pod);
    return it == priorities_.end() ? "?" : std::to_string(it->second);
  }

  std::string DefaultLine(const SimEvent& e) const {
    switch (e.reason) {
      case EventReason::kScheduled:
        return fmt::format("Scheduled {} on {}", e.pod, e.node);
      case EventReason::kFailedScheduling:
        return fmt::format("FailedScheduling {}: {}", e.pod, e.message);
      case EventReason::kPreempted: {
        std::string line = fmt::format("Preempted {} on {} by {}", e.pod, e.node, e.by);
        if (!e.by_group.empty()) line += fmt::format(" (pod group {})", e.by_group.str());
        if (!e.victim_group.empty()) line += fmt::format(", with its pod group {}", e.victim_group.str());
        if (e.pdb_violation) line += " [violates a PodDisruptionBudget]";
        return line;
      }
      case EventReason::kNominated:
        if (e.node.empty()) return fmt::format("Nominated {}: {}", e.pod, e.message);
        return fmt::format("Nominated {} to {}", e.pod, e.node);
      case EventReason::kDeleted:
        return e.node.empty() ? fmt::format("Deleted {}", e.pod)
                              : fmt::format("Deleted {} from {}", e.pod, e.node);
      case EventReason::kCreated:
        return e.message.empty() ? fmt::format("Created {}", e.pod)
                                 : fmt::format("Created {}: {}", e.pod, e.message);
      case EventReason::kScenarioStep:
        return fmt::format("Step {}", e.message);
      case EventReason::kEvicted:
        return fmt::format("Evicted {} from {}: {}", e.pod, e.node, e.message);
      case EventReason::kFailedCreate:
        return fmt::format("FailedCreate {}: {}", e.pod, e.message);
      case EventReason::kResize: {
        // The message reads as a step's ("resize: ..."); the reason says it once.
        std::string_view message = e.message;
        if (message.starts_with("resize: ")) message.remove_prefix(8);
        return fmt::format("Resize {}", message);
      }
    }
    return e.message.string();
  }

  // The chapter's log lines (`c.logf` in orchestration/preemption), in English.
  std::string BookLine(const SimEvent& e) const {
    switch (e.reason) {
      case EventReason::kScheduled:
        return fmt::format("{} (priority {}) placed on {}", BookName(e.pod), Priority(e.pod),
                           e.node);
      case EventReason::kPreempted: {
        std::string line = fmt::format("{} (priority {}) preempted {} (priority {}) from {}",
                                       BookName(e.by), Priority(e.by), BookName(e.pod),
                                       Priority(e.pod), e.node);
        if (e.pdb_violation) line += "; this breaks a PodDisruptionBudget";
        return line;
      }
      case EventReason::kFailedScheduling:
        // The book profile's message already is the chapter's sentence; keep it whole.
        if (e.message.str().starts_with(BookName(e.pod))) return e.message.string();
        return e.message.empty()
                   ? fmt::format("{} cannot be placed anywhere (and has no one to preempt)",
                                 BookName(e.pod))
                   : fmt::format("{} cannot be placed anywhere: {}", BookName(e.pod), e.message);
      default:
        return DefaultLine(e);
    }
  }

  void Timeline(const SimulationResult& sim) {
    out_ += "Timeline:\n";
    if (sim.events.empty()) out_ += "  (no events)\n";
    const bool book = sim.profile == Profile::kBook;
    for (const SimEvent& e : sim.events) {
      // An aggregated event: "(x697, 0.000s..120.000s)".
      const std::string repeats =
          e.count > 1 ? fmt::format(" (x{}, {}s..{}s)", e.count, render::SecondsText(e.time, 0),
                                    render::SecondsText(e.last_time, 0))
                      : "";
      if (book && e.round > 0) {
        out_ += fmt::format("[round {:>4}] {}{}\n", e.round, BookLine(e), repeats);
      } else {
        out_ += fmt::format("[{}s] {}{}\n", render::SecondsText(e.time),
                            book ? BookLine(e) : DefaultLine(e), repeats);
      }
    }
  }

  // "a, b, c and 17 more" (at most `shown` of `pods`, indices of sim.pods).
  static std::string NameList(const SimulationResult& sim, const std::vector<ResultIndex>& pods,
                              std::int64_t total, std::size_t shown) {
    std::string out;
    for (std::size_t i = 0; i < pods.size() && i < shown; ++i) {
      out += (i == 0 ? "" : ", ") + sim.PodName(pods[i]);
    }
    const std::int64_t listed = static_cast<std::int64_t>(std::min(pods.size(), shown));
    if (total > listed) out += fmt::format("{}{} more", out.empty() ? "" : " and ", total - listed);
    return out.empty() ? "none" : out;
  }

  static std::string TieBreakerText(const TieBreakerValue& t) {
    return t.is_time ? WallTime{t.value}.ToRfc3339() : std::to_string(t.value);
  }

  // One decision: the headline, the shown candidates with their tie-breaker values, the PDBs,
  // and for a pod group the units taken and the nominations.
  void Decision(const SimulationResult& sim, const PreemptionDecision& d) {
    const std::string_view preemptor = sim.PreemptorName(d);
    out_ += fmt::format("  [round {}, {}s] {}", d.round, render::SecondsText(d.time, 0), preemptor);
    if (d.pod_group != kNoIndex && sim.GroupName(d.pod_group) != preemptor) {
      out_ += fmt::format(" (pod group {})", sim.GroupName(d.pod_group));
    }
    if (d.node != kNoIndex) out_ += " -> " + sim.NodeName(d.node);
    out_ += fmt::format(": victims {}; decided by {}\n",
                        NameList(sim, d.victims, static_cast<std::int64_t>(d.victims.size()),
                                 PreemptionDecision::kDecisionVictimsShown),
                        d.decided_by_label.empty() ? d.decided_by : d.decided_by_label);
    if (!d.candidates.empty()) {
      // Columns: the tie-breakers in the table's order (as the first candidate that has each).
      std::vector<std::string_view> ids;
      for (const DecisionCandidate& c : d.candidates) {
        for (const TieBreakerValue& t : c.tie_breakers()) {
          if (std::find(ids.begin(), ids.end(), t.id) == ids.end()) ids.push_back(t.id);
        }
      }
      // The victim and PDB-violation counts get a column of their own only when no tie-breaker
      // already shows them.
      const bool victims_column = std::find(ids.begin(), ids.end(), "victims") == ids.end();
      const bool pdb_column = std::find(ids.begin(), ids.end(), "pdbViolations") == ids.end();
      std::vector<std::vector<std::string>> rows;
      std::vector<std::string> header = {"NODE"};
      if (victims_column) header.emplace_back("victims");
      if (pdb_column) header.emplace_back("pdbViolations");
      for (std::string_view id : ids) header.emplace_back(id);
      rows.push_back(std::move(header));
      for (std::size_t i = 0; i < d.candidates.size(); ++i) {
        const DecisionCandidate& c = d.candidates[i];
        std::vector<std::string> row = {sim.NodeName(c.node) + (i == 0 ? " *" : "")};
        if (victims_column) row.push_back(std::to_string(c.victim_count));
        if (pdb_column) row.push_back(std::to_string(c.pdb_violations));
        const TieBreakerValues values = c.tie_breakers();
        for (std::string_view id : ids) {
          const auto it = std::find_if(values.begin(), values.end(),
                                       [&](const TieBreakerValue& t) { return t.id == id; });
          row.push_back(it == values.end() ? "-" : TieBreakerText(*it));
        }
        rows.push_back(std::move(row));
      }
      std::vector<std::size_t> width(rows.front().size(), 0);
      for (const auto& row : rows) {
        for (std::size_t col = 0; col < row.size(); ++col) {
          width[col] = std::max(width[col], row[col].size());
        }
      }
      for (const auto& row : rows) {
        std::string line = "      ";
        for (std::size_t col = 0; col < row.size(); ++col) {
          line += col + 1 == row.size() ? row[col] : fmt::format("{:<{}}  ", row[col], width[col]);
        }
        out_ += line + "\n";
      }
    }
    // A pod group's decision compares no candidate nodes: its units say why instead.
    if (d.candidate_count > 0 || d.nodes_evaluated > 0 || !d.candidates.empty()) {
      out_ += fmt::format("      ({} candidate{}, {} node{} evaluated)\n", d.candidate_count,
                          d.candidate_count == 1 ? "" : "s", d.nodes_evaluated,
                          d.nodes_evaluated == 1 ? "" : "s");
    }
    for (const DecisionPdb& p : d.pdbs) {
      out_ += fmt::format("      PDB {}: allowed {} -> {} (victims {})\n", sim.PdbName(p.pdb),
                          p.allowed_before, p.allowed_after,
                          NameList(sim, p.victims, static_cast<std::int64_t>(p.victims.size()),
                                   PreemptionDecision::kDecisionVictimsShown));
    }
    for (const DecisionUnit& u : d.units) {
      out_ += fmt::format("      took {} {} (priority {}, {} pod{}){}\n", sim.UnitKind(u), sim.UnitName(u),
                          u.priority, u.pods.size(), u.pods.size() == 1 ? "" : "s",
                          u.why.empty() ? "" : ": " + u.why);
    }
    if (!d.nominations.empty()) {
      std::string line;
      for (std::size_t i = 0; i < d.nominations.size(); ++i) {
        if (i == kNominationsShown) {
          line += fmt::format(" and {} more", d.nominations.size() - i);
          break;
        }
        line += fmt::format("{}{} -> {}", i == 0 ? "" : ", ", sim.PodName(d.nominations[i].first),
                            sim.NodeName(d.nominations[i].second));
      }
      out_ += "      nominated " + line + "\n";
    }
  }

  // "Preemption decisions": why each preemption went the way it did. Long runs print the first
  // kDecisionsShown in full and count the rest (`-o json` has them all).
  void Decisions(const SimulationResult& sim) {
    if (sim.decisions.empty()) return;
    out_ += fmt::format("\nPreemption decisions ({}):\n", sim.decisions.size());
    for (std::size_t i = 0; i < sim.decisions.size() && i < kDecisionsShown; ++i) {
      Decision(sim, sim.decisions[i]);
    }
    if (sim.decisions.size() > kDecisionsShown) {
      out_ += fmt::format("  ... and {} more decisions (use -o json to see them all)\n",
                          sim.decisions.size() - kDecisionsShown);
    }
  }

  // ResourceQuotas at the end: used/hard per resource.
  void Quotas(const SimulationResult& sim) {
    if (sim.quotas.empty()) return;
    out_ += "\nQuotas (used/hard):\n";
    for (const QuotaOutcome& q : sim.quotas) {
      std::string line;
      for (std::size_t i = 0; i < q.hard.size(); ++i) {
        line += fmt::format("{}{} {}/{}", line.empty() ? "" : ", ", q.hard[i].first, q.used[i].second, q.hard[i].second);
      }
      out_ += fmt::format("  {}: {}\n", q.quota, line);
    }
  }

  static std::string Ratio(const std::string& requested, const std::string& allocatable) {
    return requested + "/" + allocatable;
  }

  void Nodes(const SimulationResult& sim) {
    out_ += "\nNodes (requested/allocatable):\n";
    if (sim.nodes.empty()) {
      out_ += "  (no nodes)\n";
      return;
    }
    struct Row {
      std::string node, cpu, memory, pods, names;
    };
    std::vector<Row> rows = {{"NODE", "CPU", "MEMORY", "PODS", "RUNNING"}};
    for (const NodeOutcome& n : sim.nodes) {
      std::string names;
      for (ResultIndex p : n.pods) names += (names.empty() ? "" : ", ") + sim.PodName(p);
      std::string node = n.node.string();
      if (n.added_at) node += fmt::format(" (added at {}s)", render::SecondsText(*n.added_at, 0));
      if (n.deleted_at) node += fmt::format(" (deleted at {}s)", render::SecondsText(*n.deleted_at, 0));
      rows.push_back({node,
                      Ratio(render::FormatCpu(n.requested.milli_cpu),
                            render::FormatCpu(n.allocatable.milli_cpu)),
                      Ratio(render::FormatBytes(n.requested.memory),
                            render::FormatBytes(n.allocatable.memory)),
                      Ratio(std::to_string(n.pods.size()), std::to_string(n.allocatable.pods)),
                      names.empty() ? "-" : names});
    }
    std::size_t w[4] = {0, 0, 0, 0};
    for (const Row& r : rows) {
      w[0] = std::max(w[0], r.node.size());
      w[1] = std::max(w[1], r.cpu.size());
      w[2] = std::max(w[2], r.memory.size());
      w[3] = std::max(w[3], r.pods.size());
    }
    for (const Row& r : rows) {
      out_ += fmt::format("  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", r.node, w[0], r.cpu, w[1],
                          r.memory, w[2], r.pods, w[3], r.names);
    }
  }

  void Groups(const SimulationResult& sim) {
    if (sim.groups.empty()) return;
    out_ += "\nPod groups:\n";
    for (const GroupOutcome& g : sim.groups) {
      out_ += fmt::format("  {}{} (priority {}): placed {} of {}", g.group,
                          g.composite ? " [composite]" : "", g.priority, g.placed, g.pods);
      if (g.min_count > 0) out_ += fmt::format(", minCount {}", g.min_count);
      if (g.preempted > 0) out_ += fmt::format(", {} preempted", g.preempted);
      if (!g.disruption_mode.empty()) out_ += ", disruptionMode " + g.disruption_mode;
      if (!g.state.empty()) out_ += ", " + g.state;
      out_ += "\n";
      if (!g.message.empty()) out_ += "      " + g.message + "\n";
    }
  }

  // The disruption cost, when anything was evicted.
  void Disruption(const SimulationResult& sim) {
    const DisruptionCost d = ComputeDisruption(sim);
    if (d.evicted_pods == 0 && d.pressure_evictions == 0) return;
    const auto ratio = [](const std::optional<double>& r) { return r ? fmt::format("{:.2f}", *r) : std::string("-"); };
    out_ += "\nDisruption:\n";
    out_ += fmt::format("  evicted {} pod(s) ({} cpu, {} memory) for {} preemptor(s) asking {} cpu, {} memory: "
                        "ratio cpu {}, memory {}\n",
                        d.evicted_pods, render::FormatCpu(d.evicted.milli_cpu), render::FormatBytes(d.evicted.memory),
                        d.preemptors, render::FormatCpu(d.requested.milli_cpu), render::FormatBytes(d.requested.memory),
                        ratio(d.cpu_ratio), ratio(d.memory_ratio));
    if (d.pressure_evictions > 0) out_ += fmt::format("  node-pressure evictions: {}\n", d.pressure_evictions);
    out_ += fmt::format("  cascade depth {}, quiet {} after the first preemption; PDB budget consumed {}\n",
                        d.cascade_depth, d.time_to_quiet ? fmt::format("{:.3f}s", *d.time_to_quiet) : "-",
                        d.pdb_budget_consumed);
    for (const auto& b : d.pdbs_broken) {
      out_ += fmt::format("  PDB {} broken by evicting {}\n", b.pdb, fmt::join(b.victims, ", "));
    }
    for (const auto& g : d.groups_broken) {
      out_ += fmt::format("  pod group {} broken: {} ({} preempted, {} placed, minCount {})\n", g.group, g.state,
                          g.preempted, g.placed, g.min_count);
    }
    std::vector<std::vector<std::string>> rows = {{"PRIORITYCLASS", "PRIORITY", "PODS", "EVICTED", "PLACED", "PENDING", "MEAN WAIT", "MAX WAIT"}};
    for (const auto& c : d.by_class) {
      rows.push_back({c.priority_class.empty() ? "(none)" : c.priority_class, std::to_string(c.priority),
                      std::to_string(c.pods), std::to_string(c.evicted), std::to_string(c.placed),
                      std::to_string(c.pending), c.waits > 0 ? fmt::format("{:.3f}s", c.mean_wait) : "-",
                      c.waits > 0 ? fmt::format("{:.3f}s", c.max_wait) : "-"});
    }
    out_ += render::TextTable(rows, "  ", /*gap=*/1);
  }

  void Pending(const SimulationResult& sim) {
    std::vector<const PodOutcome*> pending;
    for (const PodOutcome& p : sim.pods) {
      if (p.state == PodState::kPending) pending.push_back(&p);
    }
    out_ += "\nPending pods:\n";
    if (pending.empty()) out_ += "  (none)\n";
    for (const PodOutcome* p : pending) {
      out_ += fmt::format("  {} (priority {}{})", p->pod, p->priority,
                          p->condition.empty() ? "" : ", " + p->condition.string());
      if (!p->nominated_node.empty()) out_ += fmt::format(", nominated to {}", p->nominated_node);
      out_ += p->reason.empty() ? "\n" : ": " + p->reason.string() + "\n";
    }
  }

  void RejectedAndIgnored() {
    const auto rejected = render::RejectedLines(report_.read, report_.admission);
    if (!rejected.empty()) {
      out_ += "\nRejected objects:\n";
      for (const auto& r : rejected) {
        if (r.located) {
          out_ += fmt::format("  {}\n", r.message);
          continue;
        }
        const std::string what = r.kind.empty() ? r.source : fmt::format("{} {}", r.kind, r.name);
        out_ += fmt::format("  {}{}: {}\n", what,
                            r.kind.empty() || r.source.empty() ? "" : " [" + r.source + "]",
                            r.message);
      }
    }
    if (report_.read != nullptr && !report_.read->ignored.empty()) {
      out_ += "\nIgnored objects (kinds kpsim does not model):\n";
      for (const io::IgnoredObject& o : report_.read->ignored) {
        out_ += fmt::format("  {} {} [{}]\n", o.kind, o.name, o.source.ToString());
      }
    }
    rejected_count_ = rejected.size();
  }

  void Summary() {
    const SimulationResult* sim = report_.simulation;
    std::size_t running = 0, pending = 0, deleted = 0, terminating = 0;
    std::size_t preempted = 0;
    if (sim != nullptr) {
      for (const PodOutcome& p : sim->pods) {
        running += p.state == PodState::kRunning ? 1 : 0;
        pending += p.state == PodState::kPending ? 1 : 0;
        terminating += p.state == PodState::kTerminating ? 1 : 0;
        deleted += p.state == PodState::kDeleted ? 1 : 0;
      }
      for (const SimEvent& e : sim->events) preempted += e.reason == EventReason::kPreempted;
    }
    const std::size_t ignored = report_.read != nullptr ? report_.read->ignored.size() : 0;
    out_ += "\n";
    if (sim != nullptr && sim->attempt_cap_reached) {
      out_ += fmt::format(
          "WARNING: the attempt cap ({} attempts) stopped the run; pods may still be queued.\n",
          report_.options != nullptr ? std::to_string(report_.options->max_attempts)
                                     : std::string("max"));
    }
    out_ += fmt::format(
        "Summary: {} running, {} pending, {} terminating, {} deleted; {} preemptions; {} rejected, "
        "{} ignored, {} warning{}",
        running, pending, terminating, deleted, preempted, rejected_count_, ignored,
        warnings_.size(), warnings_.size() == 1 ? "" : "s");
    if (sim != nullptr) {
      out_ += fmt::format("; ended at {}s ({})", render::SecondsText(sim->end_time, 0),
                          sim->end_reason.empty() ? "quiescent" : sim->end_reason);
    }
    out_ += "\n";
  }

  const RunReport& report_;
  std::vector<Warning> warnings_ = SimulationWarnings(report_);
  std::map<std::string, std::int32_t, std::less<>> priorities_;
  std::size_t rejected_count_ = 0;
  std::string out_;
};

}  // namespace

std::string RenderSimulationJson(const RunReport& report) {
  const SimulationResult empty;
  const SimulationResult& sim = report.simulation != nullptr ? *report.simulation : empty;
  Json out = Json::object();
  out["profile"] = std::string(render::ProfileName(sim.profile));
  out["seed"] = report.options != nullptr ? report.options->seed : EngineOptions{}.seed;
  out["origin"] = sim.origin.ToRfc3339();
  out["endTime"] = render::SecondsJson(sim.end_time);
  out["endReason"] = sim.end_reason;
  out["attemptCapReached"] = sim.attempt_cap_reached;
  if (report.options != nullptr) {
    out["featureGates"] = report.options->gates.Describe();
    if (sim.profile == Profile::kBook) out["maxAttempts"] = report.options->max_attempts;
  }
  Json events = Json::array();
  for (const SimEvent& e : sim.events) events.push_back(EventJson(e));
  out["events"] = std::move(events);
  Json pods = Json::array();
  for (const PodOutcome& p : sim.pods) pods.push_back(PodJson(p));
  out["pods"] = std::move(pods);
  Json nodes = Json::array();
  for (const NodeOutcome& n : sim.nodes) nodes.push_back(NodeJson(sim, n));
  out["nodes"] = std::move(nodes);
  Json groups = Json::array();
  for (const GroupOutcome& g : sim.groups) groups.push_back(GroupJson(g));
  out["groups"] = std::move(groups);
  Json decisions = Json::array();
  for (const PreemptionDecision& d : sim.decisions) decisions.push_back(DecisionJson(sim, d));
  out["decisions"] = std::move(decisions);
  out["rejected"] = render::RejectedJson(report.read, report.admission);
  out["ignored"] = render::IgnoredJson(report.read);
  out["warnings"] = render::WarningsJson(SimulationWarnings(report));
  out["stats"] = StatsJson(sim.stats);
  Json quotas = Json::array();
  for (const QuotaOutcome& q : sim.quotas) {
    Json entry = Json::object();
    entry["quota"] = q.quota;
    Json hard = Json::object();
    for (const auto& [name, v] : q.hard) hard[name] = v;
    Json used = Json::object();
    for (const auto& [name, v] : q.used) used[name] = v;
    entry["hard"] = std::move(hard);
    entry["used"] = std::move(used);
    quotas.push_back(std::move(entry));
  }
  out["quotas"] = std::move(quotas);
  out["disruption"] = DisruptionJson(ComputeDisruption(sim));  // last: the keys before keep their order
  // `simulate --scale-up` only, after everything a plain run writes.
  if (report.scale_up != nullptr) out["scaleUp"] = ScaleUpJson(*report.scale_up, sim);
  return render::Dump(out);
}

std::string RenderSimulationText(const RunReport& report) { return TextWriter(report).Render(); }

}  // namespace kpsim::report
