#include "preemption/select_victims.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>

namespace kpsim::engine {
namespace {

constexpr std::int64_t kPriorityShift = std::int64_t{1} << 31;  // makes every summand >= 0

}  // namespace

VictimSelector::VictimSelector(ClusterModel& model, FilterRunner& filters)
    : model_(model),
      filters_(filters),
      no_victims_reason_(model.reasons().Intern("No preemption victims found for incoming pod")) {}

ResourceList FreeResources(const NodeInfo& node, const ResourceList& requested) {
  return node.allocatable - requested;
}

std::int64_t VictimSelector::StartTime(const PodInfo& pod) const {
  // GetPodStartTime: a pod that has not started counts as starting now.
  if (pod.start_unix_us != PodInfo::kNotStarted) return pod.start_unix_us;
  time_dependent_ = true;
  return model_.NowUnixUs(now_);
}

void VictimSelector::MakeUnit(PodId encountering, VictimUnit& unit) const {
  // Workload-aware preemption: a pod under a disruptionMode `all` ancestor brings every scheduled pod of the
  // highest such ancestor's hierarchy; otherwise it is its own victim.
  const PodInfo& p = model_.pod(encountering);
  unit.pods.clear();
  unit.priority = p.victim_priority;
  unit.rank = p.type_rank;
  unit.all_group = kNoId;
  unit.violating_pods = 0;
  if (p.all_unit != kNoId) {
    unit.pods = model_.BoundPodsUnder(p.all_unit);
    if (!unit.pods.empty()) {
      unit.all_group = p.all_unit;
      unit.rank = model_.group(p.all_unit).composite ? 3 : 2;
    }
  }
  if (unit.pods.empty()) unit.pods.push_back(encountering);
  unit.earliest_start = std::numeric_limits<std::int64_t>::max();
  for (PodId id : unit.pods) {
    const PodInfo& member = model_.pod(id);
    unit.earliest_start = std::min(unit.earliest_start, StartTime(member));
  }
  unit.pod_violating.assign(unit.pods.size(), false);
}

bool VictimSelector::MoreImportantUnit(const VictimUnit& a, const VictimUnit& b) const {
  // MoreImportantVictim (preemption.go), over units.
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.rank != b.rank) return a.rank > b.rank;
  if (a.pods.size() != b.pods.size()) return a.pods.size() > b.pods.size();
  if (a.earliest_start != b.earliest_start) return a.earliest_start < b.earliest_start;
  return model_.pod(a.pods.front()).uid() <
         model_.pod(b.pods.front()).uid();
}

void VictimSelector::ClassifyPdbViolations(std::span<VictimUnit> units) const {
  // filterPodsWithPDBViolation: budgets start at disruptionsAllowed and are consumed in importance order. Only the
  // victims' PDBs are looked at; disruptionsAllowed is recomputed when the PDB generation moved.
  if (pdb_budgets_.size() != model_.pdbs().size()) pdb_budgets_.assign(model_.pdbs().size(), PdbBudget{});
  const std::uint64_t stamp = ++classify_stamp_;
  for (VictimUnit& unit : units) {
    unit.violating_pods = 0;
    for (std::size_t i = 0; i < unit.pods.size(); ++i) {
      const PodInfo& victim = model_.pod(unit.pods[i]);
      bool is_violating = false;
      for (PdbId pdb_id : victim.pdbs) {
        const PdbState& pdb = model_.pdb(pdb_id);
        if (pdb.ListsDisrupted(victim.pod.meta.name)) continue;
        PdbBudget& budget = pdb_budgets_[pdb_id];
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

void VictimSelector::ScoreCandidate(Candidate& candidate) const {
  // The values pickOneNodeForPreemption compares, over victim pods (pod priorities).
  const PodInfo& top = model_.pod(candidate.victims.front().pod);
  candidate.highest_priority = top.priority;
  candidate.priority_sum = 0;
  std::int64_t max_priority = std::numeric_limits<std::int64_t>::min();
  for (const Victim& v : candidate.victims) {
    const PodInfo& victim = model_.pod(v.pod);
    candidate.priority_sum += static_cast<std::int64_t>(victim.priority) + kPriorityShift;
    max_priority = std::max<std::int64_t>(max_priority, victim.priority);
  }
  candidate.latest_start = std::numeric_limits<std::int64_t>::max();
  for (const Victim& v : candidate.victims) {
    const PodInfo& victim = model_.pod(v.pod);
    if (victim.priority == max_priority) {
      candidate.latest_start = std::min(candidate.latest_start, StartTime(victim));
    }
  }
}

void VictimSelector::AddVictimUnits(const std::vector<PodId>& pods, std::int32_t below,
                               GroupId skip_root, std::vector<VictimUnit>& units,
                               std::size_t& count, std::vector<GroupId>& seen_groups) const {
  for (PodId other : pods) {
    const PodInfo& o = model_.pod(other);
    if (o.victim_priority >= below) continue;
    if (skip_root != kNoId && o.group != kNoId &&
        model_.group(o.group).root == skip_root) {
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

std::string VictimSelector::ReasonsText(const Status& s) const {
  std::vector<std::string> reasons;
  for (int i = 0; i < s.reason_count(); ++i) reasons.push_back(model_.reasons().Text(s.reason(i)));
  return fmt::format("{}", fmt::join(reasons, ", "));
}

std::string VictimSelector::UnitName(const VictimUnit& unit) const {
  const SharedString& first = model_.pod(unit.pods.front()).key;
  if (unit.all_group == kNoId) return first.string();
  return fmt::format("{} (with all {} pods of pod group {}, disruptionMode All)", first,
                     unit.pods.size(), model_.group(unit.all_group).key);
}

VictimSelector::NodeUnits& VictimSelector::SortedUnits(NodeId node_id) {
  const NodeInfo& node = model_.node(node_id);
  if (node_units_.size() != model_.nodes().size()) node_units_.resize(model_.nodes().size());
  NodeUnits& cached = node_units_[node_id];
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

VictimSelector::DryState VictimSelector::StartDry(const PodInfo& pod, const NodeInfo& node,
                                                 const AffinityState* affinity) const {
  // Host ports are copied only for a preemptor that asks for some (NodePorts reads nothing else).
  DryState dry;
  dry.requested = node.requested;
  if (affinity != nullptr) dry.state = *affinity;
  if (!pod.pod.spec.host_ports.empty()) dry.ports = node.used_ports;
  return dry;
}

void VictimSelector::Shift(const VictimUnit& unit, NodeId node_id, int delta, DryState& dry) const {
  for (PodId id : unit.pods) {
    const PodInfo& victim = model_.pod(id);
    if (victim.node == node_id) {
      if (delta < 0) dry.requested -= victim.request;
      else dry.requested += victim.request;
      if (dry.ports) {
        if (delta < 0) dry.ports->RemovePod(victim.pod.spec);
        else dry.ports->AddPod(victim.pod.spec);
      }
    }
    if (dry.state) dry.state->AddPod(model_, victim, model_.node(victim.node), delta);
  }
}

Status VictimSelector::FilterDry(const PodInfo& pod, NodeId node_id, const DryState& dry,
                                 const PodInfo* exclude) const {
  return filters_.FilterWithNominated(pod, node_id, dry.requested, dry.state ? &*dry.state : nullptr, exclude,
                                      dry.ports ? &*dry.ports : nullptr);
}

ResourceList VictimSelector::RequestsOnNode(const VictimUnit& unit, NodeId node_id) const {
  ResourceList sum;
  for (PodId id : unit.pods) {
    const PodInfo& p = model_.pod(id);
    if (p.node == node_id) sum += p.request;
  }
  return sum;
}

void VictimSelector::TraceCapacity(const PodInfo& pod, NodeId node_id, std::span<const VictimUnit> units,
                                   const AffinityState* affinity, const PodInfo* exclude,
                                   CandidateOutcome& trace) {
  const NodeInfo& node = model_.node(node_id);
  trace.allocatable = node.allocatable;
  // The pods the dry run leaves alone: every pod of the node outside the units.
  std::vector<PodId> in_units;
  for (const VictimUnit& unit : units) in_units.insert(in_units.end(), unit.pods.begin(), unit.pods.end());
  std::sort(in_units.begin(), in_units.end());
  for (PodId id : node.pods) {
    if (std::binary_search(in_units.begin(), in_units.end(), id)) continue;
    const PodInfo& p = model_.pod(id);
    trace.staying.push_back(PodSlice{p.key.string(), p.victim_priority, p.request});
  }
  // The naive order, for contrast: the least important unit first, until the preemptor fits.
  DryState dry = StartDry(pod, node, affinity);
  for (auto it = units.rbegin(); it != units.rend(); ++it) {
    Shift(*it, node_id, -1, dry);
    trace.naive_victims.push_back(UnitName(*it));
    if (FilterDry(pod, node_id, dry, exclude).IsSuccess()) return;
  }
  trace.naive_victims.clear();  // it never fits: no candidate either way
}

DryRunResult VictimSelector::SelectVictimsOnNode(const PodInfo& pod, NodeId node_id,
                                            const AffinityState* affinity,
                                            CandidateOutcome* trace, const PodInfo* exclude) {
  time_dependent_ = false;
  DryRunResult result = SelectVictimsOnNodeImpl(pod, node_id, affinity, trace, exclude);
  result.time_dependent = time_dependent_;
  return result;
}

DryRunResult VictimSelector::SelectVictimsOnNodeImpl(const PodInfo& pod, NodeId node_id,
                                                const AffinityState* affinity,
                                                CandidateOutcome* trace, const PodInfo* exclude) {
  // Mirrors SelectVictimsOnNode (default_preemption.go), over preemption units (a pod, or a
  // disruptionMode `all` hierarchy) instead of pods.
  NodeInfo& node = model_.node(node_id);
  DryRunResult result;
  // 1) Eligible victims: strictly lower (group-aware) priority.
  if (node.min_victim_generation != node.generation) {
    node.min_victim_generation = node.generation;
    node.min_victim_priority = std::numeric_limits<std::int32_t>::max();
    for (PodId id : node.pods) {
      node.min_victim_priority =
          std::min(node.min_victim_priority, model_.pod(id).victim_priority);
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
      std::vector<GroupId>& seen_groups = seen_groups_scratch_;
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
  DryState dry = StartDry(pod, node, affinity);
  if (trace != nullptr) TraceCapacity(pod, node_id, units, affinity, exclude, *trace);
  auto shift = [&](const VictimUnit& unit, int delta) { Shift(unit, node_id, delta, dry); };
  const ResourceList& requested = dry.requested;
  for (const VictimUnit& unit : units) shift(unit, -1);
  // 3) The pod must fit with all of them gone.
  Status fits = FilterDry(pod, node_id, dry, exclude);
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
    Status s = FilterDry(pod, node_id, dry, exclude);
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
    step.requests = RequestsOnNode(unit, node_id);
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
      trace->victims.push_back(model_.pod(v.pod).key.string());
    }
    trace->pdb_violations = candidate.pdb_violations;
    trace->highest_victim_priority = static_cast<std::int32_t>(candidate.highest_priority);
  }
  result.candidate = std::move(candidate);
  return result;
}

}  // namespace kpsim::engine
