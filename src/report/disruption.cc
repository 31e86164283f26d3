#include "report/disruption.h"

#include "report/render_common.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace kpsim::report {
namespace {

// Times in whole milliseconds, as the outputs write them, so that differences are exact.
std::int64_t Millis(SimTime t) { return render::RoundedMillis(t); }

double Seconds(std::int64_t millis) { return static_cast<double>(millis) / 1000.0; }

std::optional<double> Ratio(std::int64_t part, std::int64_t whole) {
  if (whole <= 0) return std::nullopt;
  return static_cast<double>(part) / static_cast<double>(whole);
}

// The requests of every pod of pod group `root` (its own pods, or for a CompositePodGroup the
// pods of the groups below it).
ResourceList GroupRequests(const SimulationResult& sim, std::string_view root) {
  std::unordered_map<std::string_view, std::string_view> parent;
  for (const GroupOutcome& g : sim.groups) parent.emplace(g.group, g.parent);
  const auto under = [&](std::string_view group) {
    for (int hops = 0; !group.empty() && hops <= static_cast<int>(sim.groups.size()); ++hops) {
      if (group == root) return true;
      const auto it = parent.find(group);
      if (it == parent.end()) return false;
      group = it->second;
    }
    return false;
  };
  ResourceList sum;
  for (const PodOutcome& p : sim.pods) {
    if (!p.pod_group.empty() && under(p.pod_group)) sum += p.requests;
  }
  return sum;
}

}  // namespace

DisruptionCost ComputeDisruption(const SimulationResult& sim) {
  DisruptionCost out;
  std::unordered_map<std::string_view, std::size_t> index;  // pod name -> sim.pods
  for (std::size_t i = 0; i < sim.pods.size(); ++i) index.emplace(sim.pods[i].pod, i);
  const auto pod = [&](std::string_view name) -> const PodOutcome* {
    const auto it = index.find(name);
    return it == index.end() ? nullptr : &sim.pods[it->second];
  };

  // Arrivals (a pod's first Created, FailedScheduling or Scheduled event), victims, preemptors and
  // the cascade: a preemption is one level deeper than the one that evicted its preemptor (the
  // book model places a victim again) or the pod its preemptor replaces (a controller's new pod).
  std::unordered_map<std::string_view, SimTime> arrival;
  std::unordered_map<std::string_view, int> depth_of_victim;
  std::map<std::string, DisruptionCost::Preemptor> preemptors;  // by name (pod or group)
  std::optional<SimTime> first_preemption, last_change;
  for (const SimEvent& e : sim.events) {
    switch (e.reason) {
      case EventReason::kCreated:
      case EventReason::kFailedScheduling:
        arrival.emplace(e.pod, e.time);
        break;
      case EventReason::kScheduled:
        arrival.emplace(e.pod, e.time);
        if (first_preemption) last_change = e.time;
        break;
      case EventReason::kDeleted:
        if (first_preemption) last_change = e.time;
        break;
      case EventReason::kEvicted:
        ++out.pressure_evictions;
        break;
      case EventReason::kPreempted: {
        if (!first_preemption) first_preemption = e.time;
        last_change = e.time;
        int depth = 1;
        if (const auto it = depth_of_victim.find(e.by); it != depth_of_victim.end()) depth = it->second + 1;
        if (const PodOutcome* by = pod(e.by); by != nullptr && !by->replacement_of.empty()) {
          if (const auto it = depth_of_victim.find(by->replacement_of); it != depth_of_victim.end()) {
            depth = std::max(depth, it->second + 1);
          }
        }
        out.cascade_depth = std::max(out.cascade_depth, depth);
        const bool first_time = depth_of_victim.emplace(e.pod, depth).second;
        if (first_time) {
          ++out.evicted_pods;
          if (const PodOutcome* victim = pod(e.pod)) out.evicted += victim->requests;
        }
        // A pod group's preemption is the group's: its pods' requests, not those of the member
        // the event names.
        const bool group = !e.by_group.empty();
        const std::string_view name = group ? e.by_group.str() : e.by.str();
        if (name.empty()) break;
        DisruptionCost::Preemptor& p = preemptors[std::string(name)];
        if (p.name.empty()) {
          p.name = name;
          p.group = group;
          if (group) {
            p.requested = GroupRequests(sim, name);
          } else if (const PodOutcome* by = pod(name)) {
            p.requested = by->requests;
          }
        }
        ++p.victims;
        if (const PodOutcome* victim = pod(e.pod)) p.evicted += victim->requests;
        break;
      }
      default:
        break;
    }
  }
  out.preemptors = static_cast<std::int64_t>(preemptors.size());
  for (auto& [name, p] : preemptors) {
    out.requested += p.requested;
    p.cpu_ratio = Ratio(p.evicted.milli_cpu, p.requested.milli_cpu);
    out.by_preemptor.push_back(p);
  }
  out.cpu_ratio = Ratio(out.evicted.milli_cpu, out.requested.milli_cpu);
  out.memory_ratio = Ratio(out.evicted.memory, out.requested.memory);
  std::sort(out.by_preemptor.begin(), out.by_preemptor.end(), [](const auto& a, const auto& b) {
    if (a.evicted.milli_cpu != b.evicted.milli_cpu) return a.evicted.milli_cpu > b.evicted.milli_cpu;
    if (a.evicted.memory != b.evicted.memory) return a.evicted.memory > b.evicted.memory;
    return a.name < b.name;
  });
  if (out.by_preemptor.size() > DisruptionCost::kListed) out.by_preemptor.resize(DisruptionCost::kListed);
  if (first_preemption && last_change) out.time_to_quiet = Seconds(Millis(*last_change) - Millis(*first_preemption));

  // PodDisruptionBudgets: the budget the decisions consumed, and the ones they left below zero.
  // A pod still terminating is a victim again for the next preemptor on its node (kube-scheduler
  // counts terminating pods as victims, and its dry run counts them against the budget again):
  // it is one disruption, counted once per PDB that selects it.
  std::map<std::string, std::set<std::string>> broken;
  std::set<std::pair<ResultIndex, ResultIndex>> counted;  // (PDB, victim)
  for (const PreemptionDecision& d : sim.decisions) {
    for (const DecisionPdb& b : d.pdbs) {
      for (ResultIndex v : b.victims) counted.emplace(b.pdb, v);
      if (b.allowed_after >= 0) continue;
      std::set<std::string>& victims = broken[sim.PdbName(b.pdb)];
      for (ResultIndex v : b.victims) victims.insert(sim.PodName(v).string());
    }
  }
  out.pdb_budget_consumed = static_cast<std::int64_t>(counted.size());
  for (auto& [name, victims] : broken) out.pdbs_broken.push_back({name, {victims.begin(), victims.end()}});

  for (const GroupOutcome& g : sim.groups) {
    const bool below_min = g.state == "WaitingForMinCount" && g.preempted > 0;
    if (below_min || g.state == "PreemptedWhole") {
      out.groups_broken.push_back({g.group, g.state, g.preempted, g.placed, g.min_count});
    }
  }

  // Waiting, and the figures per PriorityClass.
  std::map<std::string, DisruptionCost::PerClass> classes;
  const std::int64_t end = Millis(sim.end_time);
  for (const PodOutcome& p : sim.pods) {
    DisruptionCost::PerClass& c = classes[p.priority_class.string()];
    if (c.pods == 0 || p.priority > c.priority) c.priority = p.priority;
    c.priority_class = p.priority_class;
    ++c.pods;
    if (depth_of_victim.count(p.pod) != 0) ++c.evicted;
    if (p.state == PodState::kRunning) ++c.placed;
    std::optional<double> wait;
    if (const auto it = arrival.find(p.pod); it != arrival.end()) {
      const std::int64_t from = Millis(it->second);
      if (p.state == PodState::kPending) {
        wait = Seconds(end - from);
      } else if (p.scheduled_at) {
        wait = Seconds(Millis(*p.scheduled_at) - from);
      }
    }
    if (p.state == PodState::kPending) {
      ++c.pending;
      ++out.pending;
      out.longest_waiting.push_back({p.pod.string(), wait.value_or(Seconds(end))});
    }
    if (wait) {
      ++c.waits;
      c.mean_wait += *wait;  // a sum until divided below
      c.max_wait = std::max(c.max_wait, *wait);
    }
  }
  for (auto& [name, c] : classes) {
    if (c.waits > 0) c.mean_wait /= static_cast<double>(c.waits);
    out.by_class.push_back(c);
  }
  std::sort(out.by_class.begin(), out.by_class.end(), [](const auto& a, const auto& b) {
    return a.priority != b.priority ? a.priority > b.priority : a.priority_class < b.priority_class;
  });
  std::stable_sort(out.longest_waiting.begin(), out.longest_waiting.end(),
                   [](const auto& a, const auto& b) { return a.waited > b.waited; });
  if (out.longest_waiting.size() > DisruptionCost::kListed) out.longest_waiting.resize(DisruptionCost::kListed);
  return out;
}

}  // namespace kpsim::report
