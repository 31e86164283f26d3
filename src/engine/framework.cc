#include "engine/framework.h"

#include "engine/class_index.h"
#include "plugins/registry.h"
#include "kpsim/engine_options.h"
#include "kpsim/explain.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <map>

#include <fmt/format.h>

namespace kpsim::engine {
namespace {

constexpr std::int64_t kPriorityShift = std::int64_t{1} << 31;  // makes every summand >= 0

}  // namespace

// numFeasibleNodesToFind: the profile's percentageOfNodesToScore, or with 0 the adaptive one.
std::size_t NumFeasibleNodesToFind(std::size_t num_all_nodes, std::int32_t percentage_to_score) {
  constexpr std::size_t kMinFeasibleNodesToFind = 100;
  constexpr std::int64_t kMinFeasibleNodesPercentageToFind = 5;
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  std::int64_t percentage = std::clamp<std::int64_t>(percentage_to_score, 0, 100);
  if (percentage == 0) {
    percentage = 50 - static_cast<std::int64_t>(num_all_nodes) / 125;
    if (percentage < kMinFeasibleNodesPercentageToFind) percentage = kMinFeasibleNodesPercentageToFind;
  }
  const auto num = num_all_nodes * static_cast<std::size_t>(percentage) / 100;
  return std::max(num, kMinFeasibleNodesToFind);
}

namespace {

void FillStatus(const ReasonTable& reasons, const Status& s, FilterOutcome& out) {
  out.fits = s.IsSuccess();
  out.code = std::string(CodeName(s.code()));
  for (int i = 0; i < s.reason_count(); ++i) out.reasons.push_back(reasons.Text(s.reason(i)));
}

}  // namespace

ResourceList FreeResources(const NodeInfo& node, const ResourceList& requested) {
  return node.allocatable - requested;
}

Framework::Framework(ClusterModel& model, const EngineOptions& options)
    : model_(model),
      options_(options),
      filters_(model, options, NewFilterPlugins(model)),
      scores_(NewScorePlugins(model)),
      rng_(options.seed) {
  dry_run_cache_.resize(model_.nodes().size());
  no_victims_reason_ = model_.reasons().Intern("No preemption victims found for incoming pod");
  not_helpful_reason_ = model_.reasons().Intern("Preemption is not helpful for scheduling");
}

std::int64_t Framework::Score(const PodInfo& pod, NodeId node_id) {
  const NodeInfo& node = model_.nodes()[static_cast<std::size_t>(node_id)];
  std::int64_t total = 0;
  for (const WeightedScorePlugin& score : scores_) total += score.weight * score.plugin->Score(pod, node);
  return total;
}

NodeId Framework::SelectHost(const PodInfo& pod, const std::vector<NodeId>& feasible) {
  if (feasible.size() == 1) return feasible.front();
  for (const WeightedScorePlugin& score : scores_) score.plugin->PreScore(pod, feasible);
  // selectHost: reservoir sampling among the top scores.
  NodeId selected = feasible.front();
  std::int64_t selected_score = Score(pod, selected);
  std::uint64_t count_of_max = 1;
  for (std::size_t i = 1; i < feasible.size(); ++i) {
    const std::int64_t score = Score(pod, feasible[i]);
    if (score > selected_score) {
      selected_score = score;
      selected = feasible[i];
      count_of_max = 1;
    } else if (score == selected_score) {
      ++count_of_max;
      if (rng_() % count_of_max == 0) selected = feasible[i];
    }
  }
  return selected;
}

std::string Framework::FitErrorText(std::size_t num_nodes, const std::vector<Status>& statuses,
                                    const std::string& absent_reason) const {
  std::vector<int>& counts = reason_counts_;
  counts.assign(model_.reasons().size(), 0);
  std::size_t present = 0;
  for (const Status& s : statuses) {
    if (s.IsSuccess()) continue;
    ++present;
    for (int i = 0; i < s.reason_count(); ++i) ++counts[s.reason(i)];
  }
  return FitErrorFromCounts(num_nodes, counts, present, absent_reason);
}

std::string Framework::FitErrorFromCounts(std::size_t num_nodes, const std::vector<int>& counts,
                                          std::size_t present,
                                          const std::string& absent_reason) const {
  // FitError.Error(): "<count> <reason>" per distinct reason, sorted as strings.
  std::vector<std::string> parts;
  for (std::size_t id = 0; id < counts.size(); ++id) {
    if (counts[id] > 0) {
      parts.push_back(fmt::format("{} {}", counts[id], model_.reasons().Text(static_cast<ReasonId>(id))));
    }
  }
  if (present < num_nodes && !absent_reason.empty()) {
    parts.push_back(fmt::format("{} {}", num_nodes - present, absent_reason));
  }
  std::sort(parts.begin(), parts.end());
  return fmt::format("0/{} nodes are available: {}.", num_nodes, fmt::join(parts, ", "));
}

std::optional<std::string> Framework::Ineligible(const PodInfo& pod,
                                                 const std::vector<Status>& statuses) {
  // Mirrors PodEligibleToPreemptOthers (default_preemption.go).
  if (pod.preemption_policy == PreemptionPolicy::kNever) {
    return std::string("not eligible due to preemptionPolicy=Never.");
  }
  if (pod.nominated != kNoId) {
    const Status& s = statuses[static_cast<std::size_t>(pod.nominated)];
    if (s.code() == Code::kUnschedulableAndUnresolvable) return std::nullopt;
    for (PodId other_id : model_.nodes()[static_cast<std::size_t>(pod.nominated)].pods) {
      const PodInfo& other = model_.pods()[static_cast<std::size_t>(other_id)];
      if (other.victim_priority < pod.priority && other.IsTerminating() &&
          other.terminating_by_preemption) {
        return std::string("not eligible due to a terminating pod on the nominated node.");
      }
    }
  }
  return std::nullopt;
}

std::int64_t Framework::StartTime(const PodInfo& pod) const {
  // GetPodStartTime: a pod that has not started counts as starting now.
  if (pod.start_unix_us) return *pod.start_unix_us;
  time_dependent_ = true;
  return model_.origin_unix_us() + now_.time_since_epoch().count();
}

void Framework::MakeUnit(PodId encountering, VictimUnit& unit) const {
  // Rule 16.2: a pod under a disruptionMode `all` ancestor brings every scheduled pod of the
  // highest such ancestor's hierarchy; otherwise it is its own victim.
  const PodInfo& p = model_.pods()[static_cast<std::size_t>(encountering)];
  unit.pods.clear();
  unit.priority = p.victim_priority;
  unit.rank = p.type_rank;
  unit.all_group = kNoId;
  unit.violating_pods = 0;
  if (p.all_unit != kNoId) {
    unit.pods = model_.BoundPodsUnder(p.all_unit);
    if (!unit.pods.empty()) {
      unit.all_group = p.all_unit;
      unit.rank = model_.groups()[static_cast<std::size_t>(p.all_unit)].composite ? 3 : 2;
    }
  }
  if (unit.pods.empty()) unit.pods.push_back(encountering);
  unit.earliest_start = std::numeric_limits<std::int64_t>::max();
  for (PodId id : unit.pods) {
    const PodInfo& member = model_.pods()[static_cast<std::size_t>(id)];
    unit.earliest_start = std::min(unit.earliest_start, StartTime(member));
  }
  unit.pod_violating.assign(unit.pods.size(), false);
}

bool Framework::MoreImportantUnit(const VictimUnit& a, const VictimUnit& b) const {
  // MoreImportantVictim (rule 9.1).
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.rank != b.rank) return a.rank > b.rank;
  if (a.pods.size() != b.pods.size()) return a.pods.size() > b.pods.size();
  if (a.earliest_start != b.earliest_start) return a.earliest_start < b.earliest_start;
  return model_.pods()[static_cast<std::size_t>(a.pods.front())].uid <
         model_.pods()[static_cast<std::size_t>(b.pods.front())].uid;
}

void Framework::ClassifyPdbViolations(std::span<VictimUnit> units) const {
  // Rule 8.7: budgets start at disruptionsAllowed and are consumed in importance order. Only the
  // victims' PDBs are looked at; disruptionsAllowed is recomputed when the PDB generation moved.
  if (pdb_budgets_.size() != model_.pdbs().size()) pdb_budgets_.assign(model_.pdbs().size(), PdbBudget{});
  const std::uint64_t stamp = ++classify_stamp_;
  for (VictimUnit& unit : units) {
    unit.violating_pods = 0;
    for (std::size_t i = 0; i < unit.pods.size(); ++i) {
      const PodInfo& victim = model_.pods()[static_cast<std::size_t>(unit.pods[i])];
      bool is_violating = false;
      for (std::int32_t pdb_index : victim.pdbs) {
        const PdbState& pdb = model_.pdbs()[static_cast<std::size_t>(pdb_index)];
        if (std::binary_search(pdb.disrupted_pods.begin(), pdb.disrupted_pods.end(),
                               victim.pod.meta.name)) {
          continue;
        }
        PdbBudget& budget = pdb_budgets_[static_cast<std::size_t>(pdb_index)];
        if (budget.allowed_generation != model_.pdb_generation()) {
          budget.allowed_generation = model_.pdb_generation();
          budget.allowed = pdb.DisruptionsAllowed();
        }
        if (budget.stamp != stamp) {
          budget.stamp = stamp;
          budget.left = budget.allowed;
        }
        if (--budget.left < 0) {
          is_violating = true;
          break;
        }
      }
      unit.pod_violating[i] = is_violating;
      unit.violating_pods += is_violating ? 1 : 0;
    }
  }
}

void Framework::ScoreCandidate(Candidate& candidate) const {
  // The values pickOneNodeForPreemption compares, over victim pods (pod priorities).
  const PodInfo& top = model_.pods()[static_cast<std::size_t>(candidate.victims.front().pod)];
  candidate.highest_priority = top.priority;
  candidate.priority_sum = 0;
  std::int64_t max_priority = std::numeric_limits<std::int64_t>::min();
  for (const Victim& v : candidate.victims) {
    const PodInfo& victim = model_.pods()[static_cast<std::size_t>(v.pod)];
    candidate.priority_sum += static_cast<std::int64_t>(victim.priority) + kPriorityShift;
    max_priority = std::max<std::int64_t>(max_priority, victim.priority);
  }
  candidate.latest_start = std::numeric_limits<std::int64_t>::max();
  for (const Victim& v : candidate.victims) {
    const PodInfo& victim = model_.pods()[static_cast<std::size_t>(v.pod)];
    if (victim.priority == max_priority) {
      candidate.latest_start = std::min(candidate.latest_start, StartTime(victim));
    }
  }
}

void Framework::AddVictimUnits(const std::vector<PodId>& pods, std::int32_t below,
                               std::int32_t skip_root, std::vector<VictimUnit>& units,
                               std::size_t& count, std::vector<std::int32_t>& seen_groups) const {
  for (PodId other : pods) {
    const PodInfo& o = model_.pods()[static_cast<std::size_t>(other)];
    if (o.victim_priority >= below) continue;
    if (skip_root != kNoId && o.group != kNoId &&
        model_.groups()[static_cast<std::size_t>(o.group)].root == skip_root) {
      continue;
    }
    if (o.all_unit != kNoId) {
      // One unit per `all` ancestor, however many of its pods are met.
      if (std::find(seen_groups.begin(), seen_groups.end(), o.all_unit) != seen_groups.end()) continue;
      seen_groups.push_back(o.all_unit);
    }
    if (count == units.size()) units.emplace_back();
    MakeUnit(other, units[count++]);
  }
}

std::string Framework::ReasonsText(const Status& s) const {
  std::vector<std::string> reasons;
  for (int i = 0; i < s.reason_count(); ++i) reasons.push_back(model_.reasons().Text(s.reason(i)));
  return fmt::format("{}", fmt::join(reasons, ", "));
}

void Framework::SetPreemptionFound(Decision& d, const std::string& fit_error,
                                   const Candidate& best) const {
  d.kind = Decision::Kind::kPreempt;
  d.node = best.node;
  d.message = fmt::format("{} preemption: found a potential placement for pod on node {}, preempting {} victims",
                          fit_error, model_.nodes()[static_cast<std::size_t>(best.node)].name,
                          best.victims.size());
  d.candidate = best;
}

std::string Framework::UnitName(const VictimUnit& unit) const {
  const std::string& first = model_.pods()[static_cast<std::size_t>(unit.pods.front())].key;
  if (unit.all_group == kNoId) return first;
  return fmt::format("{} (with all {} pods of pod group {}, disruptionMode All)", first,
                     unit.pods.size(), model_.groups()[static_cast<std::size_t>(unit.all_group)].key);
}

Framework::NodeUnits& Framework::SortedUnits(NodeId node_id) {
  const NodeInfo& node = model_.nodes()[static_cast<std::size_t>(node_id)];
  if (node_units_.size() != model_.nodes().size()) node_units_.resize(model_.nodes().size());
  NodeUnits& cached = node_units_[static_cast<std::size_t>(node_id)];
  if (cached.generation == node.generation && (!cached.time_dependent || cached.computed_at == now_)) {
    return cached;
  }
  const bool outer_time_dependent = time_dependent_;
  time_dependent_ = false;
  std::size_t count = 0;
  for (PodId id : node.pods) {
    if (count == cached.units.size()) cached.units.emplace_back();
    MakeUnit(id, cached.units[count++]);
  }
  cached.units.resize(count);
  std::sort(cached.units.begin(), cached.units.end(),
            [&](const VictimUnit& a, const VictimUnit& b) { return MoreImportantUnit(a, b); });
  cached.generation = node.generation;
  cached.computed_at = now_;
  cached.time_dependent = time_dependent_;
  time_dependent_ = outer_time_dependent;
  return cached;
}

DryRunResult Framework::SelectVictimsOnNode(const PodInfo& pod, NodeId node_id,
                                            const AffinityState* affinity,
                                            CandidateOutcome* trace, const PodInfo* exclude) {
  time_dependent_ = false;
  DryRunResult result = SelectVictimsOnNodeImpl(pod, node_id, affinity, trace, exclude);
  result.time_dependent = time_dependent_;
  return result;
}

DryRunResult Framework::SelectVictimsOnNodeImpl(const PodInfo& pod, NodeId node_id,
                                                const AffinityState* affinity,
                                                CandidateOutcome* trace, const PodInfo* exclude) {
  // Mirrors SelectVictimsOnNode (default_preemption.go), steps as in spec §8, with the
  // preemption units of §16.
  NodeInfo& node = model_.nodes()[static_cast<std::size_t>(node_id)];
  DryRunResult result;
  // 1) Eligible victims: strictly lower (group-aware) priority.
  if (node.min_victim_generation != node.generation) {
    node.min_victim_generation = node.generation;
    node.min_victim_priority = std::numeric_limits<std::int32_t>::max();
    for (PodId id : node.pods) {
      node.min_victim_priority =
          std::min(node.min_victim_priority, model_.pods()[static_cast<std::size_t>(id)].victim_priority);
    }
  }
  std::span<VictimUnit> units;
  const bool single_pod_units = model_.bound_pods_in_all_units() == 0;
  if (node.min_victim_priority < pod.priority) {
    if (single_pod_units) {
      // Every unit is one pod of this node: the eligible ones are a suffix of the node's units in
      // MoreImportantVictim order (priority first), whatever the preemptor's class.
      NodeUnits& cached = SortedUnits(node_id);
      auto first = std::partition_point(cached.units.begin(), cached.units.end(),
                                        [&](const VictimUnit& u) { return u.priority >= pod.priority; });
      units = std::span<VictimUnit>(first, cached.units.end());
      if (cached.time_dependent && !units.empty()) time_dependent_ = true;
    } else {
      std::size_t count = 0;
      std::vector<std::int32_t>& seen_groups = seen_groups_scratch_;
      seen_groups.clear();
      AddVictimUnits(node.pods, pod.priority, kNoId, unit_scratch_, count, seen_groups);
      units = std::span<VictimUnit>(unit_scratch_.data(), count);
      std::sort(units.begin(), units.end(),
                [&](const VictimUnit& a, const VictimUnit& b) { return MoreImportantUnit(a, b); });
    }
  }
  if (units.empty()) {
    result.status = Status(Code::kUnschedulableAndUnresolvable, PluginId::kDefaultPreemption);
    result.status.AddReason(no_victims_reason_);
    return result;
  }
  // 2) Remove them all: this node's resources; affinity counts wherever the pods are.
  ResourceList requested = node.requested;
  std::optional<AffinityState> state;
  if (affinity != nullptr) state = *affinity;
  auto shift = [&](const VictimUnit& unit, int delta) {
    for (PodId id : unit.pods) {
      const PodInfo& victim = model_.pods()[static_cast<std::size_t>(id)];
      if (victim.node == node_id) {
        if (delta < 0) requested -= victim.request;
        else requested += victim.request;
      }
      if (state) state->AddPod(model_, victim, model_.nodes()[static_cast<std::size_t>(victim.node)], delta);
    }
  };
  for (const VictimUnit& unit : units) shift(unit, -1);
  // 3) The pod must fit with all of them gone.
  Status fits = FilterWithNominated(pod, node_id, requested, state ? &*state : nullptr, exclude);
  if (trace != nullptr) trace->free_after_removal = FreeResources(node, requested);
  if (!fits.IsSuccess()) {
    result.status = fits;
    return result;
  }
  // 4) Most important first (sorted above); 5) PDB classification.
  ClassifyPdbViolations(units);
  result.pdb_dependent = true;
  // 6) Reprieve: PDB-violating victims first, then the rest, most important first.
  Candidate candidate;
  candidate.node = node_id;
  std::vector<const VictimUnit*>& chosen = chosen_scratch_;
  chosen.clear();
  bool from_violating = false, from_non_violating = false;
  auto reprieve = [&](const VictimUnit& unit) {
    const bool is_violating = unit.violating_pods > 0;
    shift(unit, +1);
    Status s = FilterWithNominated(pod, node_id, requested, state ? &*state : nullptr, exclude);
    if (!s.IsSuccess()) {
      shift(unit, -1);
      chosen.push_back(&unit);
      candidate.pdb_violations += unit.violating_pods;
      (is_violating ? from_violating : from_non_violating) = true;
    }
    if (trace == nullptr) return;
    ReprieveStep step;
    step.pod = UnitName(unit);
    step.priority = unit.priority;
    step.pdb_violating = is_violating;
    step.reprieved = s.IsSuccess();
    if (step.reprieved) {
      step.why = "the preemptor still fits with it back";
      trace->reprieved.push_back(step.pod);
    } else {
      step.why = "with it back: " + ReasonsText(s);
    }
    step.free_after = FreeResources(node, requested);
    trace->steps.push_back(std::move(step));
  };
  for (const VictimUnit& unit : units) {
    if (unit.violating_pods > 0) reprieve(unit);
  }
  for (const VictimUnit& unit : units) {
    if (unit.violating_pods == 0) reprieve(unit);
  }
  if (from_violating && from_non_violating) {
    std::sort(chosen.begin(), chosen.end(), [&](const VictimUnit* a, const VictimUnit* b) {
      return MoreImportantUnit(*a, *b);
    });
  }
  for (const VictimUnit* unit : chosen) {
    for (std::size_t i = 0; i < unit->pods.size(); ++i) {
      candidate.victims.push_back(Victim{unit->pods[i], unit->pod_violating[i], unit->all_group});
    }
  }
  if (candidate.victims.empty()) {
    result.status = Status(Code::kError, PluginId::kDefaultPreemption);
    result.status.AddReason(model_.reasons().Intern(
        fmt::format("expected at least one victim pod on node \"{}\"", node.name)));
    return result;
  }
  ScoreCandidate(candidate);
  if (trace != nullptr) {
    for (const Victim& v : candidate.victims) {
      trace->victims.push_back(model_.pods()[static_cast<std::size_t>(v.pod)].key);
    }
    trace->pdb_violations = candidate.pdb_violations;
    trace->highest_victim_priority = static_cast<std::int32_t>(candidate.highest_priority);
  }
  result.candidate = std::move(candidate);
  return result;
}

const DryRunResult& Framework::CachedDryRun(const PodInfo& pod, NodeId node_id,
                                            const AffinityState* affinity,
                                            std::deque<DryRunResult>& scratch) {
  const NodeInfo& node = model_.nodes()[static_cast<std::size_t>(node_id)];
  if (!CachesUsable(pod, affinity) || pod.nominated == node_id) {
    scratch.push_back(SelectVictimsOnNode(pod, node_id, affinity, nullptr, &pod));
    return scratch.back();
  }
  DryRunCacheEntry& entry = dry_run_cache_[static_cast<std::size_t>(node_id)];
  if (entry.cls != pod.equivalence_class || entry.generation != node.generation ||
      entry.pdb_generation != model_.pdb_generation() ||
      (entry.result.time_dependent && entry.computed_at != now_)) {
    entry.computed_at = now_;
    entry.cls = pod.equivalence_class;
    entry.generation = node.generation;
    entry.pdb_generation = model_.pdb_generation();
    entry.result = SelectVictimsOnNode(pod, node_id, affinity, nullptr, &pod);
  }
  return entry.result;
}

std::size_t Framework::PickCandidate(const std::vector<const Candidate*>& candidates,
                                     std::string* decided_by) const {
  // Mirrors pickOneNodeForPreemption: after each score function keep the best; the order of the
  // functions is the order of this table.
  using ScoreFn = std::int64_t (*)(const Candidate&);
  static constexpr std::array<std::pair<std::string_view, ScoreFn>, 5> kScoreFuncs{{
      {"fewest PDB violations", [](const Candidate& c) -> std::int64_t { return -c.pdb_violations; }},
      {"lowest highest-victim priority", [](const Candidate& c) { return -c.highest_priority; }},
      {"smallest sum of victim priorities", [](const Candidate& c) { return -c.priority_sum; }},
      {"fewest victims",
       [](const Candidate& c) { return -static_cast<std::int64_t>(c.victims.size()); }},
      {"latest start time of the highest-priority victims",
       [](const Candidate& c) { return c.latest_start; }},
  }};
  if (candidates.size() == 1) {
    if (decided_by) *decided_by = "only candidate";
    return 0;
  }
  if (decided_by == nullptr) {
    // Keeping the best after each function in turn is a lexicographic maximum with the first
    // candidate winning full ties.
    std::size_t best = 0;
    for (std::size_t i = 1; i < candidates.size(); ++i) {
      for (const auto& entry : kScoreFuncs) {
        const std::int64_t a = entry.second(*candidates[i]);
        const std::int64_t b = entry.second(*candidates[best]);
        if (a != b) {
          if (a > b) best = i;
          break;
        }
      }
    }
    return best;
  }
  std::vector<std::size_t> remaining(candidates.size());
  for (std::size_t i = 0; i < remaining.size(); ++i) remaining[i] = i;
  for (const auto& [name, fn] : kScoreFuncs) {
    std::int64_t best = std::numeric_limits<std::int64_t>::min();
    for (std::size_t i : remaining) best = std::max(best, fn(*candidates[i]));
    std::vector<std::size_t> kept;
    for (std::size_t i : remaining) {
      if (fn(*candidates[i]) == best) kept.push_back(i);
    }
    remaining.swap(kept);
    if (remaining.size() == 1) {
      *decided_by = std::string(name);
      return remaining.front();
    }
  }
  *decided_by = "first in node order (all tie-breakers equal)";
  return remaining.front();
}

Decision Framework::Preempt(const PodInfo& pod, const std::vector<Status>& statuses,
                            const std::string& fit_error, PluginMask rejectors,
                            const AffinityState* affinity, ExplainResult* trace) {
  // Mirrors Evaluator.Preempt (preemption.go): 1) eligibility, 2) candidates from a dry run on
  // every potential node, 3) pick the best, 4) actuation is left to the caller.
  ++preemption_attempts_;
  Decision d;
  d.rejectors = rejectors;
  const std::size_t num_nodes = model_.nodes().size();
  // 1) Ensure the preemptor is eligible.
  if (auto why = Ineligible(pod, statuses)) {
    d.message = fit_error + " preemption: " + *why;
    if (trace) {
      trace->eligible = false;
      trace->eligibility_message = *why;
    }
    return d;
  }
  if (trace) trace->eligible = true;
  // 2) Potential nodes: those whose failure preemption might resolve.
  std::vector<NodeId> potential;
  for (NodeId id : model_.node_order()) {
    if (statuses[static_cast<std::size_t>(id)].code() == Code::kUnschedulable) potential.push_back(id);
  }
  std::vector<Status> dry_statuses;
  std::vector<const Candidate*> non_violating, violating;
  std::deque<DryRunResult> scratch;  // results that are not cached
  if (!potential.empty()) {
    const std::size_t np = potential.size();
    std::size_t num_candidates = np;
    std::size_t offset = 0;
    const bool sampling = options_.candidate_sampling == CandidateSampling::kKubernetes;
    if (sampling) {
      // calculateNumCandidates / GetOffsetAndNumCandidates with the default args.
      const auto pct = static_cast<std::size_t>(std::clamp(options_.min_candidate_nodes_percentage, 0, 100));
      const auto abs = static_cast<std::size_t>(std::max(options_.min_candidate_nodes_absolute, 0));
      num_candidates = np * pct / 100;
      if (num_candidates < abs) num_candidates = abs;
      num_candidates = std::min(num_candidates, np);
      offset = static_cast<std::size_t>(rng_() % np);
    }
    for (std::size_t i = 0; i < np; ++i) {
      const NodeId id = potential[(offset + i) % np];
      ++dry_runs_;
      const DryRunResult* r = nullptr;
      if (trace) {
        CandidateOutcome outcome;
        scratch.push_back(SelectVictimsOnNode(pod, id, affinity, &outcome, &pod));
        r = &scratch.back();
        outcome.node = model_.nodes()[static_cast<std::size_t>(id)].name;
        if (!r->candidate) {
          // Not a candidate: keep the reason as the only step.
          ReprieveStep step;
          step.why = "not a candidate: " + ReasonsText(r->status);
          outcome.steps.push_back(std::move(step));
        }
        trace->candidates.push_back(std::move(outcome));
      } else {
        r = &CachedDryRun(pod, id, affinity, scratch);
      }
      if (r->candidate) {
        auto& list = r->candidate->pdb_violations == 0 ? non_violating : violating;
        if (list.size() < num_candidates) list.push_back(&*r->candidate);
        if (sampling && !non_violating.empty() &&
            non_violating.size() + violating.size() >= num_candidates) {
          break;
        }
      } else {
        if (dry_statuses.empty()) dry_statuses.resize(num_nodes);
        dry_statuses[static_cast<std::size_t>(id)] = r->status;
      }
    }
  }
  if (non_violating.empty() && violating.empty()) {
    dry_statuses.resize(num_nodes);
    d.message = fit_error + " preemption: " +
                FitErrorText(num_nodes, dry_statuses, model_.reasons().Text(not_helpful_reason_));
    d.clear_nomination = true;
    if (trace) trace->message = d.message;
    return d;
  }
  // 3) Pick the best candidate.
  std::vector<const Candidate*> all = std::move(non_violating);
  all.insert(all.end(), violating.begin(), violating.end());
  std::string decided_by;
  const Candidate& best = *all[PickCandidate(all, trace ? &decided_by : nullptr)];
  SetPreemptionFound(d, fit_error, best);
  if (trace) {
    ChosenCandidate chosen;
    chosen.node = model_.nodes()[static_cast<std::size_t>(best.node)].name;
    for (const Victim& v : best.victims) {
      chosen.victims.push_back(model_.pods()[static_cast<std::size_t>(v.pod)].key);
    }
    chosen.decided_by = decided_by;
    trace->chosen = std::move(chosen);
  }
  return d;
}

Decision Framework::Decide(PodId pod_id, ExplainResult* trace, const std::string* no_preemption) {
  const PodInfo& pod = model_.pods()[static_cast<std::size_t>(pod_id)];
  const auto& order = model_.node_order();
  const std::size_t num_nodes = order.size();
  if (trace) {
    trace->profile = Profile::kDefault;
    trace->pod = pod.key;
    trace->priority = pod.priority;
    trace->eligible = pod.preemption_policy != PreemptionPolicy::kNever;
    if (!trace->eligible) trace->eligibility_message = "not eligible due to preemptionPolicy=Never.";
  }
  Decision d;
  if (num_nodes == 0) {
    d.message = "no nodes available to schedule pods";
    if (trace) trace->message = d.message;
    return d;
  }
  AffinityState affinity_state;
  const AffinityState* affinity =
      filters_.PreFilter(pod, affinity_state) ? &affinity_state : nullptr;

  // The nominated node first (rule 4.2.3).
  if (pod.nominated != kNoId && trace == nullptr) {
    const NodeInfo& node = model_.nodes()[static_cast<std::size_t>(pod.nominated)];
    if (FilterWithNominated(pod, pod.nominated, node.requested, affinity, &pod).IsSuccess()) {
      d.kind = Decision::Kind::kBind;
      d.node = pod.nominated;
      return d;
    }
  }
  if (trace == nullptr && IndexUsable(pod, affinity)) {
    return DecideIndexed(pod, IndexFor(pod), no_preemption);
  }
  // Filter: stop once enough feasible nodes were found (numFeasibleNodesToFind), starting
  // where the previous cycle stopped. `explain` evaluates every node but decides the same way.
  const std::size_t to_find = NumFeasibleNodesToFind(num_nodes, options_.percentage_of_nodes_to_score);
  std::vector<Status>& statuses = statuses_;
  statuses.resize(model_.nodes().size());  // every processed node's entry is written below
  std::vector<NodeId> feasible;
  std::size_t processed = 0;
  const std::size_t start = trace ? 0 : next_start_node_index_;
  for (std::size_t i = 0; i < num_nodes; ++i) {
    const NodeId id = order[(start + i) % num_nodes];
    Status s = CachedFilter(pod, id, affinity);
    if (trace) {
      FilterOutcome out;
      out.node = model_.nodes()[static_cast<std::size_t>(id)].name;
      FillStatus(model_.reasons(), s, out);
      trace->filter.push_back(std::move(out));
    }
    statuses[static_cast<std::size_t>(id)] = s;
    if (s.IsSuccess()) {
      if (feasible.size() < to_find) feasible.push_back(id);
      if (feasible.size() >= to_find && !trace) {
        ++processed;
        break;
      }
    }
    ++processed;
  }
  if (!trace) next_start_node_index_ = (next_start_node_index_ + processed) % num_nodes;
  if (!feasible.empty()) {
    d.kind = Decision::Kind::kBind;
    d.node = SelectHost(pod, feasible);
    if (trace) {
      trace->fits_node = model_.nodes()[static_cast<std::size_t>(d.node)].name;
      trace->message = fmt::format("the pod fits without preemption; kube-scheduler would bind it to {}",
                                   *trace->fits_node);
    }
    return d;
  }
  PluginMask rejectors = 0;
  for (const Status& s : statuses) {
    if (!s.IsSuccess()) rejectors |= MaskOf(s.plugin());
  }
  const std::string fit_error = FitErrorText(num_nodes, statuses, "");
  if (no_preemption != nullptr) {
    d.rejectors = rejectors;
    d.message = fit_error + " preemption: " + *no_preemption;
    if (trace) trace->message = d.message;
    return d;
  }
  d = Preempt(pod, statuses, fit_error, rejectors, affinity, trace);
  if (trace) trace->message = d.message;
  return d;
}

}  // namespace kpsim::engine
