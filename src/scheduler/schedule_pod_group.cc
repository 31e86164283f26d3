// Pod groups in the default profile (GenericWorkload): validation before each group cycle, the
// all-or-nothing placement of a group's pending pods, and workload-aware preemption.

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "kpsim/explain.h"
#include "kpsim/results.h"
#include "preemption/decision_record.h"
#include "scheduler/framework.h"

namespace kpsim::engine {
namespace {

std::string SchedulerNameOf(const PodInfo& p) {
  return p.pod.spec.scheduler_name.empty() ? "default-scheduler" : p.pod.spec.scheduler_name;
}

}  // namespace

std::vector<PodId> Framework::PendingMembers(GroupId root) const {
  std::vector<PodId> out;
  for (GroupId leaf : model_.group(root).leaves) {
    for (PodId id : model_.group(leaf).members) {
      const PodInfo& p = model_.pod(id);
      // A gated member is not in the queue (SchedulingGates PreEnqueue): not pending for the group.
      if (p.state == PodState::kPending && p.node == kNoId && !p.pod.meta.deletion_timestamp &&
          p.pod.spec.scheduling_gates.empty()) {
        out.push_back(id);
      }
    }
  }
  // Rule 17.2: priority descending, then initial attempt (arrival) order.
  auto arrival = [&](PodId id) {
    const auto& ts = model_.pod(id).pod.meta.creation_timestamp;
    return ts ? ts->unix_micros : std::numeric_limits<std::int64_t>::min();
  };
  std::sort(out.begin(), out.end(), [&](PodId a, PodId b) {
    const PodInfo& pa = model_.pod(a);
    const PodInfo& pb = model_.pod(b);
    if (pa.priority != pb.priority) return pa.priority > pb.priority;
    if (arrival(a) != arrival(b)) return arrival(a) < arrival(b);
    return a < b;
  });
  return out;
}

std::optional<std::string> Framework::ValidateGroup(GroupId root) const {
  // Mirrors the pod group cycle's validation (schedule_one_podgroup.go), rule 17.1.
  const GroupInfo& group = model_.group(root);
  std::vector<const PodInfo*> pods;
  for (GroupId leaf : group.leaves) {
    for (PodId id : model_.group(leaf).members) {
      const PodInfo& p = model_.pod(id);
      if (p.state != PodState::kDeleted) pods.push_back(&p);
    }
  }
  if (pods.empty()) return std::nullopt;
  const PodInfo& first = *pods.front();
  for (const PodInfo* p : pods) {
    if (SchedulerNameOf(*p) != SchedulerNameOf(first)) {
      return fmt::format(
          "all pods in a single pod group should have the same .spec.schedulerName set, got: \"{}\" and \"{}\"",
          SchedulerNameOf(first), SchedulerNameOf(*p));
    }
  }
  for (const PodInfo* p : pods) {
    if (p->priority != group.priority) {
      return fmt::format(
          "all pods in a single pod group should have the same priority as the pod group's priority, got {} and {}",
          p->priority, group.priority);
    }
  }
  if (options_.gates.pod_group_preemption_policy) {
    const PreemptionPolicy policy =
        group.api->preemption_policy.value_or(PreemptionPolicy::kPreemptLowerPriority);
    for (const PodInfo* p : pods) {
      if (p->preemption_policy != policy) {
        return fmt::format(
            "all pods in a single pod group should have the same preemption policy as the pod group's preemption policy, got {} and {}",
            PreemptionPolicyName(p->preemption_policy), PreemptionPolicyName(policy));
      }
    }
  } else {
    for (const PodInfo* p : pods) {
      if (p->preemption_policy != first.preemption_policy) {
        return fmt::format(
            "all pods in a single pod group should have the same preemption policy, got {} and {}",
            PreemptionPolicyName(first.preemption_policy), PreemptionPolicyName(p->preemption_policy));
      }
    }
  }
  if (SchedulerNameOf(first) != "default-scheduler") {
    return fmt::format("profile not found for scheduler name \"{}\"", SchedulerNameOf(first));
  }
  return std::nullopt;
}

Status Framework::FilterOnNode(const PodInfo& pod, NodeId node) {
  AffinityState state;
  const bool has_affinity = filters_.PreFilter(pod, state);
  return FilterWithNominated(pod, node, model_.node(node).requested,
                             has_affinity ? &state : nullptr, &pod);
}

int Framework::RunningMembers(const GroupInfo& leaf) const {
  int n = 0;
  for (PodId id : leaf.members) {
    n += model_.pod(id).state == PodState::kRunning ? 1 : 0;
  }
  return n;
}

int Framework::MembersOf(GroupId leaf, const std::vector<PodId>& pods) const {
  int n = 0;
  for (PodId id : pods) n += model_.pod(id).group == leaf ? 1 : 0;
  return n;
}

GroupPlacement Framework::PlaceGroup(GroupId root, const std::vector<PodId>& pending) {
  // Rule 17.3: each pod filtered and scored normally and tentatively assumed so later pods see
  // it; the gang (minCount) check before the first pod and after the last.
  static const std::string kInGroup = "not eligible due to workload aware preemption enabled";
  static const std::string kInTopologyGroup =
      "not eligible due to topology aware workload scheduling enabled";
  const GroupInfo& group = model_.group(root);
  const bool topology = options_.gates.topology_aware_workload_scheduling &&
                        !group.api->topology_keys.empty();
  GroupPlacement out;
  for (GroupId leaf_id : group.leaves) {
    const GroupInfo& leaf = model_.group(leaf_id);
    if (!leaf.gang) continue;
    const int available = RunningMembers(leaf) + MembersOf(leaf_id, pending);
    if (available < leaf.min_count) {
      out.message = fmt::format("pod group {} has {} pods, fewer than its minCount {}", leaf.key,
                                available, leaf.min_count);
      return out;
    }
  }
  if (!topology) return PlaceInDomain(root, pending, nullptr, "", kInGroup);
  // TopologyAwareWorkloadScheduling: every pod in one domain of the constraint's key; domains are
  // tried in node order of first appearance and the first that places the group wins.
  const std::string& key = group.api->topology_keys.front();
  std::vector<std::string> domains;
  for (NodeId node : model_.node_order()) {
    const std::string* value = FindLabel(model_.node(node).api->meta.labels, key);
    if (value && std::find(domains.begin(), domains.end(), *value) == domains.end()) domains.push_back(*value);
  }
  GroupPlacement last;
  for (const std::string& domain : domains) {
    last = PlaceInDomain(root, pending, &key, domain, kInTopologyGroup);
    if (last.feasible) return last;
  }
  last.feasible = false;
  last.message = domains.empty()
                     ? fmt::format("pod group is unschedulable: no node has the topology label {}", key)
                     : fmt::format("pod group is unschedulable: no {} domain can hold it", key);
  return last;
}

GroupPlacement Framework::PlaceInDomain(GroupId root, const std::vector<PodId>& pending,
                                        const std::string* key, const std::string& domain,
                                        const std::string& no_preemption) {
  const GroupInfo& group = model_.group(root);
  GroupPlacement out;
  for (PodId id : pending) {
    if (key == nullptr) {
      const Decision d = Decide(id, &no_preemption);
      if (d.kind == Decision::Kind::kBind) {
        model_.Assume(id, d.node);
        out.assigned.emplace_back(id, d.node);
      } else {
        out.failed.emplace_back(id, d.message);
        out.rejectors |= d.rejectors;
      }
      continue;
    }
    // Within one topology domain: filter its nodes, score the feasible ones.
    const PodInfo& pod = model_.pod(id);
    std::vector<NodeId> feasible;
    for (NodeId node : model_.node_order()) {
      const std::string* value = FindLabel(model_.node(node).api->meta.labels, *key);
      if (value == nullptr || *value != domain) continue;
      const Status s = FilterOnNode(pod, node);
      if (s.IsSuccess()) feasible.push_back(node);
      else out.rejectors |= MaskOf(s.plugin());
    }
    if (feasible.empty()) {
      out.failed.emplace_back(id, fmt::format("no node of {}={} fits the pod. preemption: {}", *key, domain,
                                              no_preemption));
      continue;
    }
    const NodeId node = SelectHost(pod, feasible);
    model_.Assume(id, node);
    out.assigned.emplace_back(id, node);
  }
  out.feasible = !out.assigned.empty();
  if (!out.feasible) out.message = "pod group is unschedulable: no pod of the group fits";
  for (GroupId leaf_id : group.leaves) {
    const GroupInfo& leaf = model_.group(leaf_id);
    if (!leaf.gang || !out.feasible) continue;
    std::vector<PodId> assigned;
    for (const auto& [pod, node] : out.assigned) assigned.push_back(pod);
    const int placed = RunningMembers(leaf) + MembersOf(leaf_id, assigned);
    if (placed < leaf.min_count) {
      out.feasible = false;
      out.message = fmt::format("pod group is unschedulable: {} could place {} of its minCount {} pods",
                                leaf.key, placed, leaf.min_count);
    }
  }
  for (auto it = out.assigned.rbegin(); it != out.assigned.rend(); ++it) model_.Forget(it->first);
  return out;
}

GroupPreemption Framework::PreemptGroup(GroupId root, const std::vector<PodId>& pending,
                                        std::vector<ReprieveStep>* trace) {
  // Mirrors podgrouppreemption.go (spec §18): the whole cluster is the domain; remove every
  // lower-priority victim, schedule the group once, then reprieve against that fixed placement.
  ++preemption_attempts_;
  const GroupInfo& group = model_.group(root);
  GroupPreemption out;
  // 1) The preemptor's policy (rule 18.2).
  PreemptionPolicy policy = PreemptionPolicy::kPreemptLowerPriority;
  if (options_.gates.pod_group_preemption_policy) {
    policy = group.api->preemption_policy.value_or(PreemptionPolicy::kPreemptLowerPriority);
  } else {
    for (PodId id : pending) {
      if (model_.pod(id).preemption_policy == PreemptionPolicy::kNever) {
        policy = PreemptionPolicy::kNever;
      }
    }
  }
  if (policy == PreemptionPolicy::kNever) {
    out.message = "not eligible due to preemptionPolicy=Never.";
    return out;
  }
  if (options_.gates.topology_aware_workload_scheduling && !group.api->topology_keys.empty()) {
    out.message = "workload aware preemption is not supported for pod groups with scheduling constraints";
    return out;
  }
  // 2) Ongoing preemption on a nominated node (rule 18.4): wait.
  for (PodId id : pending) {
    const PodInfo& p = model_.pod(id);
    if (p.nominated == kNoId) continue;
    for (PodId other : model_.node(p.nominated).pods) {
      const PodInfo& o = model_.pod(other);
      if (o.victim_priority < group.priority && o.IsTerminating() && o.terminating_by_preemption) {
        out.kind = GroupPreemption::Kind::kWait;
        out.message = "ongoing preemption on nominated nodes";
        return out;
      }
    }
  }
  // 3) Victims cluster-wide, most important first, PDB-violating ones first (rule 18.3).
  std::vector<VictimUnit> units;
  std::size_t count = 0;
  std::vector<GroupId> seen_groups;
  for (NodeId node : model_.node_order()) {
    victims_.AddVictimUnits(model_.node(node).pods, group.priority, root, units,
                   count, seen_groups);
  }
  if (units.empty()) {
    out.message = "No preemption victims found for incoming preemptor";
    return out;
  }
  std::sort(units.begin(), units.end(),
            [&](const VictimUnit& a, const VictimUnit& b) { return victims_.MoreImportantUnit(a, b); });
  victims_.ClassifyPdbViolations(units);
  std::stable_partition(units.begin(), units.end(),
                        [](const VictimUnit& u) { return u.violating_pods > 0; });
  // 4) Remove every victim and schedule the group once (rule 18.6).
  for (const VictimUnit& unit : units) {
    for (PodId id : unit.pods) model_.Detach(id);
  }
  GroupPlacement placement = PlaceGroup(root, pending);
  if (!placement.feasible) {
    for (const VictimUnit& unit : units) {
      for (PodId id : unit.pods) model_.Reattach(id);
    }
    out.message = "even with every lower-priority victim removed: " + placement.message;
    return out;
  }
  // 5) Reprieve against the fixed placement (rule 18.7).
  std::vector<const VictimUnit*> marked;
  std::vector<DecisionUnit> taken;  // the record's units, in the order they were taken
  for (const VictimUnit& unit : units) {
    for (PodId id : unit.pods) model_.Reattach(id);
    bool fits = true;
    std::string why = "every member still fits its proposed node with it back";
    std::vector<PodId> assumed;
    for (const auto& [pod, node] : placement.assigned) {
      Status s = FilterOnNode(model_.pod(pod), node);
      if (!s.IsSuccess()) {
        fits = false;
        why = fmt::format("{} no longer fits {}: {}", model_.pod(pod).key,
                          model_.node(node).name, victims_.ReasonsText(s));
        break;
      }
      model_.Assume(pod, node);
      assumed.push_back(pod);
    }
    for (auto it = assumed.rbegin(); it != assumed.rend(); ++it) model_.Forget(*it);
    if (!fits) {
      for (PodId id : unit.pods) model_.Detach(id);
      marked.push_back(&unit);
      taken.push_back(MakeDecisionUnit(unit, why));
    }
    if (trace != nullptr) {
      ReprieveStep step;
      step.pod = victims_.UnitName(unit);
      step.priority = unit.priority;
      step.pdb_violating = unit.violating_pods > 0;
      step.reprieved = fits;
      step.why = why;
      trace->push_back(std::move(step));
    }
  }
  for (const VictimUnit* unit : marked) {
    for (PodId id : unit->pods) model_.Reattach(id);
  }
  // 6) The result: every pod of every marked victim; nominations for the members.
  for (const VictimUnit* unit : marked) {
    for (std::size_t i = 0; i < unit->pods.size(); ++i) {
      out.victims.push_back(Victim{unit->pods[i], unit->pod_violating[i], unit->all_group});
    }
  }
  out.units = static_cast<int>(marked.size());
  out.kind = GroupPreemption::Kind::kPreempt;
  out.assignments = std::move(placement.assigned);
  out.record = MakeGroupDecision(model_, root, out.victims, std::move(taken), out.assignments);
  out.message = fmt::format("found a placement for podgroup, preempting {} victims", out.units);
  return out;
}

}  // namespace kpsim::engine
