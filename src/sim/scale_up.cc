// kpsim::SimulateScaleUp: the scale-up world of `simulate --scale-up`, the Cluster Autoscaler's
// answer to pods that cannot be placed, on the same input as the preemption world.
//
// The autoscaler's loop, as far as kpsim mirrors it (cluster-autoscaler core/static_autoscaler.go
// RunOnce, core/scaleup/orchestrator ScaleUp, estimator/binpacking_estimator.go, expander/):
// - Every scan interval it looks at the pods the scheduler marked unschedulable. kpsim's loop
//   runs on the simulated clock's scan grid (0, 10s, 20s, ...): the first loop at or after a
//   pod's failure sees it.
// - For every node group (a template Node) the BinpackingNodeEstimator packs those pods onto new
//   nodes made from the template, largest first (cpu and memory as fractions of the template's,
//   summed), each onto an already opened new node if the scheduler's filters accept it there,
//   else onto a new one if they accept it on an empty one. kpsim runs kube-scheduler's own
//   filter chain (every filter plugin) for it, against the new nodes and the pods packed so far.
// - The expander picks one group (least-waste, most-pods or random; ties go to random, as the
//   autoscaler's fallback does), its nodes join the cluster `delay` later, and the pods the
//   choice does not cover wait for the next loop (a scan interval later) and the next choice.
// - Then the scheduler places the pods as it would, on the new nodes or elsewhere. Pods it still
//   leaves pending start another round after the nodes are Ready. This is where kpsim's answer is
//   the scheduler's packing rather than the estimator's: the count is what it took for the
//   scheduler to place them.
// Not mirrored: node group minimum and maximum sizes (one cap, `max_new_nodes`), the price and
// priority expanders, balancing similar node groups, scale-down, and the existing nodes' pods in
// the estimate (inter-pod affinity and topology spread see only the pods packed onto the new
// nodes; the scheduler's run then sees everything).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "framework/filter_runner.h"
#include "kpsim/engine.h"
#include "plugins/registry.h"
#include "snapshot/cluster.h"

namespace kpsim {
namespace {

constexpr std::string_view kScenarioName = "cluster-autoscaler";
// Rounds of the scale-up world at most (each one simulation): the loop stops earlier when every
// pod is placed, the cap is reached or the new nodes helped nobody.
constexpr int kMaxRounds = 32;
constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";

// A copy of `tmpl` named `name` (its hostname label too, as a new node's kubelet sets it).
Node NewNode(const Node& tmpl, const std::string& name) {
  Node node = tmpl;
  node.meta.name = name;
  node.meta.uid.clear();
  node.meta.creation_timestamp.reset();
  std::erase_if(node.meta.annotations, [](const auto& a) { return a.first == kNodeTemplateAnnotation; });
  Labels& labels = node.meta.labels;
  const auto it = std::lower_bound(labels.begin(), labels.end(), kHostnameLabel,
                                   [](const auto& l, std::string_view key) { return l.first < key; });
  if (it != labels.end() && it->first == kHostnameLabel) {
    it->second = name;
  } else {
    labels.emplace(it, std::string(kHostnameLabel), name);
  }
  return node;
}

// The pods a run may leave pending, by "ns/name": the input's and those Scenario steps apply.
std::unordered_map<std::string, const Pod*> PodsByKey(const ClusterState& state) {
  std::unordered_map<std::string, const Pod*> out;
  auto add = [&out](const Pod& pod) { out.emplace(pod.meta.namespace_ + "/" + pod.meta.name, &pod); };
  for (const Pod& pod : state.pods) add(pod);
  for (const TimedStep& timed : state.steps) {
    if (!timed.step.object) continue;
    if (const auto* pod = std::get_if<Pod>(&timed.step.object->value)) add(*pod);
  }
  return out;
}

// One node group's estimate for `pods` (BinpackingNodeEstimator.Estimate).
struct Estimate {
  int nodes = 0;
  std::vector<std::size_t> packed;  // indices into the pods asked, in packing order
  ResourceList requested;           // what the packed pods request
  // Indices of the pods no empty new node accepts, with the filter's reasons.
  std::vector<std::pair<std::size_t, std::string>> refused;
};

Estimate Binpack(const ClusterState& base, const Node& tmpl, const std::vector<const Pod*>& pods,
                 int max_nodes, const EngineOptions& options) {
  Estimate out;
  if (pods.empty()) return out;
  ClusterState est;
  est.priority_classes = base.priority_classes;
  est.namespaces = base.namespaces;
  est.services = base.services;
  est.controllers = base.controllers;
  const int slots = std::max(1, std::min<int>(max_nodes, static_cast<int>(pods.size())));
  for (int i = 0; i < slots; ++i) est.nodes.push_back(NewNode(tmpl, fmt::format("{}-estimate-{}", tmpl.meta.name, i)));
  est.pods.reserve(pods.size());
  for (const Pod* pod : pods) {
    Pod copy = *pod;
    copy.status.nominated_node_name.clear();
    est.pods.push_back(std::move(copy));
  }
  engine::ClusterModel model(est, options);
  engine::FilterRunner filters(model, options, engine::NewFilterPlugins(model));
  // Largest first: cpu and memory as fractions of the template's, summed (the estimator's
  // ordering); ties keep the pods' order.
  auto fraction = [](std::int64_t want, std::int64_t have) {
    return have > 0 ? static_cast<double>(want) / static_cast<double>(have) : 0.0;
  };
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t i = 0; i < pods.size(); ++i) {
    const ResourceList& r = model.pod(engine::PodId(i)).request;
    order.emplace_back(-(fraction(r.milli_cpu, tmpl.allocatable.milli_cpu) +
                         fraction(r.memory, tmpl.allocatable.memory)),
                       i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& entry : order) {
    const std::size_t i = entry.second;
    const engine::PodId id(i);
    const engine::PodInfo& pod = model.pod(id);
    engine::AffinityState affinity_state;
    const engine::AffinityState* affinity = filters.PreFilter(pod, affinity_state) ? &affinity_state : nullptr;
    std::optional<engine::NodeId> chosen;
    for (int n = 0; n < out.nodes && !chosen; ++n) {
      const engine::NodeId node(n);
      if (filters.Run(pod, node, model.node(node).requested, affinity).IsSuccess()) chosen = node;
    }
    if (!chosen && out.nodes < slots) {
      const engine::NodeId node(out.nodes);
      const engine::Status s = filters.Run(pod, node, model.node(node).requested, affinity);
      if (s.IsSuccess()) {
        chosen = node;
        ++out.nodes;
      } else if (model.node(node).pods.empty()) {
        std::vector<std::string> reasons;
        for (int r = 0; r < s.reason_count(); ++r) reasons.push_back(model.reasons().Text(s.reason(r)));
        out.refused.emplace_back(i, fmt::format("{}", fmt::join(reasons, ", ")));
      }
    }
    if (!chosen) continue;
    model.Bind(id, *chosen, SimTime{});
    out.packed.push_back(i);
    out.requested += pod.request;
  }
  return out;
}

// least-waste's score (expander/waste): the new nodes' unused cpu and memory, as fractions.
double Waste(const Estimate& e, const Node& tmpl) {
  auto wasted = [&e](std::int64_t requested, std::int64_t per_node) {
    const double total = static_cast<double>(per_node) * e.nodes;
    return total > 0 ? (total - static_cast<double>(requested)) / total : 0.0;
  };
  return wasted(e.requested.milli_cpu, tmpl.allocatable.milli_cpu) +
         wasted(e.requested.memory, tmpl.allocatable.memory);
}

// The expander's choice among `options` (those packing at least one pod); the random fallback
// breaks ties. Returns an index into `options`, or nullopt when none packs a pod.
std::optional<std::size_t> Expand(Expander expander, const std::vector<ScaleUpOption>& options,
                                  std::mt19937_64& rng) {
  std::vector<std::size_t> best;
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (options[i].pods == 0) continue;
    if (best.empty()) {
      best.push_back(i);
      continue;
    }
    const ScaleUpOption& a = options[i];
    const ScaleUpOption& b = options[best.front()];
    int cmp = 0;  // < 0: a is better
    if (expander == Expander::kLeastWaste) {
      cmp = a.waste < b.waste ? -1 : a.waste > b.waste ? 1 : 0;
    } else if (expander == Expander::kMostPods) {
      cmp = a.pods > b.pods ? -1 : a.pods < b.pods ? 1 : 0;
    }
    if (cmp < 0) best.clear();
    if (cmp <= 0) best.push_back(i);
  }
  if (best.empty()) return std::nullopt;
  if (best.size() == 1) return best.front();
  return best[static_cast<std::size_t>(rng() % best.size())];
}

SimTime CeilToScan(SimTime t, SimDuration scan) {
  if (scan.count() <= 0) return t;
  const auto n = (t.time_since_epoch().count() + scan.count() - 1) / scan.count();
  return SimTime(scan * n);
}

// The first FailedScheduling of each pod that is pending at the end of `result` (not gated),
// as the autoscaler can act on it: not before `from` (the world before it was answered already)
// nor before the nodes promised to the pod are Ready (the autoscaler counts upcoming nodes: a pod
// they are for is not asked for again until they are up and it still fails).
std::vector<std::pair<SimTime, std::string>> Unschedulable(const SimulationResult& result, SimTime from,
                                                            const std::unordered_map<std::string, SimTime>& promised) {
  std::unordered_map<std::string_view, SimTime> first;
  for (const SimEvent& e : result.events) {
    if (e.reason == EventReason::kFailedScheduling) first.emplace(e.pod, e.time);
  }
  std::vector<std::pair<SimTime, std::string>> out;
  for (const PodOutcome& pod : result.pods) {
    if (pod.state != PodState::kPending || !pod.condition.empty()) continue;
    const auto it = first.find(pod.pod);
    if (it == first.end()) continue;
    SimTime t = std::max(from, it->second);
    if (const auto p = promised.find(pod.pod.string()); p != promised.end()) t = std::max(t, p->second);
    out.emplace_back(t, pod.pod);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

// The autoscaler's state across the rounds of the scale-up world.
class Autoscaler {
 public:
  Autoscaler(const ClusterState& state, const EngineOptions& options, const ScaleUpOptions& scale_up,
             ScaleUpRun& run)
      : options_(options), scale_up_(scale_up), run_(run), pods_by_key_(PodsByKey(state)),
        next_suffix_(scale_up.templates.size(), 1), rng_(options.seed ^ 0x6175746f7363616cULL) {  // "autoscal"
    for (const Node& n : state.nodes) names_.insert(n.meta.name);
    for (const TimedStep& timed : state.steps) {
      if (!timed.step.object) continue;
      if (const auto* n = std::get_if<Node>(&timed.step.object->value)) names_.insert(n->meta.name);
    }
  }

  // One round over the world as last simulated: the loops from the first unschedulable pod until
  // the first new node joins (after that the world differs). Returns whether it added nodes;
  // `from` becomes the time the next round starts at.
  bool Round(SimTime& from) {
    ScaleUpReport& report = run_.report;
    const std::vector<std::pair<SimTime, std::string>> failing = Unschedulable(run_.result, from, promised_);
    std::vector<std::string> asked;
    std::size_t next = 0;  // the first of `failing` not yet seen by a loop
    std::optional<SimTime> horizon;  // the first new node's arrival
    SimTime decided{};
    std::vector<std::string> packed_now;
    for (;;) {
      if (asked.empty()) {
        // The next loop that sees an unschedulable pod.
        while (next < failing.size() && unhelped_.contains(failing[next].second)) ++next;
        if (next == failing.size()) break;
        decided = std::max(decided, CeilToScan(failing[next].first, scale_up_.scan_interval));
      }
      if (horizon && decided >= *horizon) break;
      for (; next < failing.size() && failing[next].first <= decided; ++next) {
        const std::string& pod = failing[next].second;
        if (unhelped_.contains(pod)) continue;
        if (pods_by_key_.contains(pod)) {
          asked.push_back(pod);
        } else {
          unhelped_.insert(pod);
          report.no_template.push_back({pod, "created during the run (by a controller): kpsim does not estimate it"});
        }
      }
      if (asked.empty()) continue;
      if (added_ >= scale_up_.max_new_nodes) {
        report.stop = fmt::format("the max-new-nodes cap ({}) is reached", scale_up_.max_new_nodes);
        break;
      }
      if (options_.until && decided + scale_up_.delay > SimTime(*options_.until)) {
        report.stop = fmt::format("nodes decided at {:.0f}s would be Ready after --until", ToSeconds(decided));
        break;
      }
      const std::optional<ScaleUpAddition> addition = Decide(decided, asked);
      if (addition) {
        if (!horizon) horizon = addition->ready_at;
        for (const std::string& p : addition->pods) {
          promised_[p] = addition->ready_at;
          packed_now.push_back(p);
        }
        std::erase_if(asked, [&addition](const std::string& p) {
          return std::find(addition->pods.begin(), addition->pods.end(), p) != addition->pods.end();
        });
        report.additions.push_back(*addition);
      }
      std::erase_if(asked, [this](const std::string& p) { return unhelped_.contains(p); });
      if (!addition) asked.clear();  // no group takes any of them
      decided += scale_up_.scan_interval;
    }
    if (!horizon) return false;
    // New nodes that helped none of the pods they were for will not help them next time either
    // (the estimate and the scheduler disagree: topology, affinity to pods elsewhere).
    last_packed_ = std::move(packed_now);
    from = *horizon;
    return true;
  }

  // Whether every pod the previous round's nodes were for is still unschedulable in the world
  // just simulated (the round before this one then helped nobody).
  bool Stalled() const {
    if (last_packed_.empty()) return false;
    const auto failing = Unschedulable(run_.result, SimTime{}, {});
    for (const std::string& p : last_packed_) {
      if (std::none_of(failing.begin(), failing.end(), [&p](const auto& f) { return f.second == p; })) return false;
    }
    return true;
  }
  const std::vector<std::string>& last_packed() const { return last_packed_; }

 private:
  // One loop of the autoscaler at `decided` for `asked`: every group's estimate, the expander's
  // choice, its nodes applied to the world. Pods no group takes join `unhelped_`.
  std::optional<ScaleUpAddition> Decide(SimTime decided, const std::vector<std::string>& asked) {
    std::vector<const Pod*> pods;
    for (const std::string& p : asked) pods.push_back(pods_by_key_.at(p));
    std::vector<ScaleUpOption> choices;
    std::vector<Estimate> estimates;
    std::vector<std::size_t> refusals(asked.size(), 0);
    std::vector<std::string> why(asked.size());
    for (const Node& tmpl : scale_up_.templates) {
      Estimate e = Binpack(run_.world, tmpl, pods, scale_up_.max_new_nodes - added_, options_);
      for (const auto& [i, reason] : e.refused) {
        ++refusals[i];
        why[i] += fmt::format("{}{}: {}", why[i].empty() ? "" : "; ", tmpl.meta.name, reason);
      }
      ScaleUpOption option;
      option.template_name = tmpl.meta.name;
      option.nodes = e.nodes;
      option.pods = static_cast<int>(e.packed.size());
      option.waste = e.nodes > 0 ? Waste(e, tmpl) : 0;
      choices.push_back(std::move(option));
      estimates.push_back(std::move(e));
    }
    for (std::size_t i = 0; i < asked.size(); ++i) {
      if (refusals[i] == scale_up_.templates.size() && unhelped_.insert(asked[i]).second) {
        run_.report.no_template.push_back({asked[i], why[i]});
      }
    }
    const std::optional<std::size_t> pick = Expand(scale_up_.expander, choices, rng_);
    if (!pick) return std::nullopt;
    const Node& tmpl = scale_up_.templates[*pick];
    ScaleUpAddition addition;
    addition.decided_at = decided;
    addition.ready_at = decided + scale_up_.delay;
    addition.template_name = tmpl.meta.name;
    addition.options = std::move(choices);
    for (int n = 0; n < estimates[*pick].nodes; ++n) {
      std::string name;
      do {
        name = fmt::format("{}-{}", tmpl.meta.name, next_suffix_[*pick]++);
      } while (names_.contains(name));
      names_.insert(name);
      TimedStep timed;
      timed.scenario = std::string(kScenarioName);
      timed.step.index = step_index_++;
      timed.step.source.file = "--scale-up";
      timed.step.at_us = addition.ready_at.time_since_epoch().count();
      timed.step.action = StepAction::kApply;
      Object object;
      object.kind = ObjectKind::kNode;
      object.source = timed.step.source;
      object.value = NewNode(tmpl, name);
      timed.step.object = std::move(object);
      // Steps run in time order, ties in the order given: after every step at that time.
      auto& steps = run_.world.steps;
      const auto at = std::upper_bound(steps.begin(), steps.end(), timed.step.at_us,
                                       [](std::int64_t us, const TimedStep& s) { return us < s.step.at_us; });
      steps.insert(at, std::move(timed));
      addition.nodes.push_back(name);
      ++added_;
    }
    for (std::size_t i : estimates[*pick].packed) addition.pods.push_back(asked[i]);
    return addition;
  }

  const EngineOptions& options_;
  const ScaleUpOptions& scale_up_;
  ScaleUpRun& run_;
  const std::unordered_map<std::string, const Pod*> pods_by_key_;
  std::set<std::string> names_;  // every node name in use, so that new ones are unique
  std::vector<int> next_suffix_;
  std::mt19937_64 rng_;
  std::set<std::string> unhelped_;
  std::unordered_map<std::string, SimTime> promised_;  // pod -> when its new nodes are Ready
  std::vector<std::string> last_packed_;  // the pods the last round's nodes were for
  int added_ = 0;
  int step_index_ = 0;
};

}  // namespace

ScaleUpRun SimulateScaleUp(const ClusterState& state, const EngineOptions& options,
                           const ScaleUpOptions& scale_up) {
  ScaleUpRun run;
  ScaleUpReport& report = run.report;
  report.expander = scale_up.expander;
  report.delay = scale_up.delay;
  report.scan_interval = scale_up.scan_interval;
  report.max_new_nodes = scale_up.max_new_nodes;
  for (const Node& t : scale_up.templates) report.templates.push_back(t.meta.name);
  report.preempt = Simulate(state, options);

  EngineOptions world_options = options;
  world_options.preemption = false;
  run.world = state;
  Autoscaler autoscaler(state, options, scale_up, run);
  SimTime from{};
  for (int round = 0;; ++round) {
    run.result = Simulate(run.world, world_options);
    ++report.worlds;
    report.stop.clear();
    if (run.result.end_reason == "cancelled") break;
    if (autoscaler.Stalled()) {
      report.stop = fmt::format("the scheduler placed none of the {} pod(s) the last nodes were for "
                                "(first: {}) on them",
                                autoscaler.last_packed().size(), autoscaler.last_packed().front());
      break;
    }
    if (round >= kMaxRounds) {
      report.stop = fmt::format("{} rounds of new nodes did not place every pod", kMaxRounds);
      break;
    }
    if (!autoscaler.Round(from)) break;  // nothing added: the run stands
  }
  return run;
}

}  // namespace kpsim
