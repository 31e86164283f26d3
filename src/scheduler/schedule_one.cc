#include "scheduler/framework.h"

#include "kpsim/engine_options.h"
#include "kpsim/explain.h"
#include "plugins/registry.h"
#include "preemption/decision_record.h"
#include "scheduler/class_index.h"
#include "scheduler/pick_among_top.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace kpsim::engine {

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


Framework::Framework(ClusterModel& model, const EngineOptions& options)
    : model_(model),
      options_(options),
      filters_(model, options, NewFilterPlugins(model)),
      scores_(NewScorePlugins(model)),
      victims_(model, filters_),
      rng_(options.seed),
      evaluator_(model_, options_, filters_, victims_, rng_) {
  no_victims_reason_ = victims_.no_victims_reason();
  not_helpful_reason_ = model_.reasons().Intern("Preemption is not helpful for scheduling");
}

void Framework::ReleaseCaches() {
  indexes_ = decltype(indexes_)();
  status_table_.reset();
  index_bytes_ = 0;
  statuses_ = {};
  score_totals_ = {};
  top_draws_ = {};
  found_scratch_ = {};
  feasible_scratch_ = {};
  scored_nodes_ = {};
  victims_.ReleaseCaches();
  evaluator_.ReleaseCaches();
}

std::int64_t Framework::NodeLocalScore(const PodInfo& pod, NodeId id, const NodeInfo& node) const {
  std::int64_t total = 0;
  for (const WeightedScorePlugin& score : scores_) {
    if (score.plugin->NodeLocal()) total += score.weight * score.plugin->Score(pod, id, node);
  }
  return total;
}

NodeId Framework::SelectHost(const PodInfo& pod, const std::vector<NodeId>& feasible, ClassIndex* index) {
  if (feasible.size() == 1) return feasible.front();
  if (keep_scored_) {
    scored_pod_ = &pod;
    scored_nodes_ = feasible;
  }
  // prioritizeNodes: the weighted sum per node. A plugin that scores every node alike this cycle
  // (Uniform) adds the same to each, which moves neither the pick nor its ties: it is left out.
  std::vector<std::int64_t>& totals = score_totals_;
  totals.assign(feasible.size(), 0);
  for (const WeightedScorePlugin& score : scores_) {
    if (score.plugin->NodeLocal()) continue;
    score.plugin->PreScore(pod, feasible);
    if (score.plugin->Uniform()) continue;
    for (std::size_t i = 0; i < feasible.size(); ++i) {
      totals[i] += score.weight * score.plugin->Score(pod, feasible[i], model_.node(feasible[i]));
    }
  }
  // The node-local scores join the totals; from the class's cache where it holds them.
  const std::size_t count = feasible.size();
  const NodeId* const ids = feasible.data();
  std::int64_t* const sums = totals.data();
  if (index != nullptr && index->UsesLocalScoresOf(pod)) {
    if (index->local_scores.size() != model_.nodes().size()) {
      index->local_scores.resize(model_.nodes().size());
      AccountIndex(*index);  // the cache joins the index's memory budget now
    }
    const IdView<NodeId, const ClassIndex::Entry> entries = std::as_const(index->entries).view();
    const IdView<NodeId, ClassIndex::LocalScore> cache = index->local_scores.view();
    for (std::size_t i = 0; i < count; ++i) {
      // The index was refreshed for this cycle: its entry's generation is the node's (and
      // reading it leaves the NodeInfo untouched where the score is cached).
      const NodeId id = ids[i];
      const std::uint64_t generation = entries[id].generation;
      assert(generation == model_.node(id).generation);
      ClassIndex::LocalScore& cached = cache[id];
      if (cached.generation != generation) [[unlikely]] {
        cached.score = NodeLocalScore(pod, id, model_.node(id));
        cached.generation = generation;
      }
      assert(cached.score == NodeLocalScore(pod, id, model_.node(id)));
      sums[i] += cached.score;
    }
  } else {
    for (std::size_t i = 0; i < count; ++i) sums[i] += NodeLocalScore(pod, ids[i], model_.node(ids[i]));
  }
  return ids[PickAmongTop(sums, count, rng_, divisibility_, top_draws_)];
}

std::string Framework::FitErrorText(std::size_t num_nodes, const NodeStatuses& statuses,
                                    const std::string& absent_reason) const {
  std::vector<int>& counts = reason_counts_;
  counts.assign(model_.reasons().size(), 0);
  std::size_t present = 0;
  for (NodeId id : IdRange<NodeId>(statuses.size())) {
    const Status& s = statuses[id];
    if (s.IsSuccess() || !model_.node(id).present) continue;
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

void Framework::SetPreemptionFound(Decision& d, const std::string& fit_error,
                                   const Candidate& best) const {
  d.kind = Decision::Kind::kPreempt;
  d.node = best.node;
  d.message = fmt::format("{} preemption: found a potential placement for pod on node {}, preempting {} victims",
                          fit_error, model_.node(best.node).name,
                          best.victims.size());
  d.candidate = best;
}

bool Framework::SkipsPostFilter(const std::string& fit_error, const std::string* no_preemption,
                                Decision& d) const {
  if (!options_.preemption) {
    d.message = fit_error;
  } else if (no_preemption != nullptr) {
    d.message = fit_error + " preemption: " + *no_preemption;
  } else {
    return false;
  }
  return true;
}

Decision Framework::Preempt(const PodInfo& pod, const NodeStatuses& statuses,
                            const std::string& fit_error, PluginMask rejectors,
                            const AffinityState* affinity) {
  ++preemption_attempts_;
  Decision d;
  d.rejectors = rejectors;
  PreemptionOutcome out = evaluator_.Preempt(pod, statuses, affinity);
  dry_runs_ += out.dry_runs;
  switch (out.kind) {
    case PreemptionOutcome::Kind::kIneligible:
      d.message = fit_error + " preemption: " + out.ineligible;
      break;
    case PreemptionOutcome::Kind::kNotHelpful:
      d.message = fit_error + " preemption: " +
                  FitErrorText(model_.node_order().size(), out.dry_statuses, model_.reasons().Text(not_helpful_reason_));
      d.clear_nomination = true;
      break;
    case PreemptionOutcome::Kind::kFound:
      SetPreemptionFound(d, fit_error, *out.best);
      d.record = std::move(out.record);
      break;
  }
  return d;
}

Decision Framework::Decide(PodId pod_id, const std::string* no_preemption) {
  const PodInfo& pod = model_.pod(pod_id);
  Decision d;
  scored_pod_ = nullptr;
  if (model_.node_order().empty()) {
    d.message = "no nodes available to schedule pods";
    return d;
  }
  // Upstream takes nextStartNodeIndex modulo the node count at use: nodes may have gone.
  next_start_node_index_ %= model_.node_order().size();
  AffinityState affinity_state;
  const AffinityState* affinity =
      filters_.PreFilter(pod, affinity_state) ? &affinity_state : nullptr;

  // The nominated node first (schedulePod: evaluateNominatedNode).
  if (pod.nominated != kNoId) {
    const NodeInfo& node = model_.node(pod.nominated);
    if (FilterWithNominated(pod, pod.nominated, node.requested, affinity, &pod).IsSuccess()) {
      d.kind = Decision::Kind::kBind;
      d.node = pod.nominated;
      return d;
    }
  }
  if (!IndexUsable(pod, affinity)) return DecidePlain(pod, affinity, no_preemption);
#ifdef NDEBUG
  return DecideIndexed(pod, IndexFor(pod), no_preemption);
#else
  // Debug builds decide on both paths and require the same decision: the class index must be
  // an optimisation of the per-node path, nothing else. The per-node run starts from the same
  // generator and start index and leaves the indexed run's state (and statistics) in place.
  const auto rng_before = rng_;
  const std::size_t start_before = next_start_node_index_;
  Decision indexed = DecideIndexed(pod, IndexFor(pod), no_preemption);
  const auto rng_after = rng_;
  const std::size_t start_after = next_start_node_index_;
  const std::int64_t dry_runs = dry_runs_;
  const std::int64_t attempts = preemption_attempts_;
  rng_ = rng_before;
  next_start_node_index_ = start_before;
  const Decision plain = DecidePlain(pod, affinity, no_preemption);
  assert(SameDecision(indexed, plain) && "the class index decided otherwise than the per-node path");
  assert(rng_ == rng_after && next_start_node_index_ == start_after &&
         "the class index left the generator or the start index otherwise than the per-node path");
  rng_ = rng_after;
  next_start_node_index_ = start_after;
  dry_runs_ = dry_runs;
  preemption_attempts_ = attempts;
  return indexed;
#endif
}

bool SameDecision(const Decision& a, const Decision& b) {
  auto victims = [](const Decision& d) {
    std::vector<std::pair<PodId, bool>> out;
    if (d.candidate) {
      for (const Victim& v : d.candidate->victims) out.emplace_back(v.pod, v.pdb_violating);
    }
    return out;
  };
  return a.kind == b.kind && a.node == b.node && a.message == b.message &&
         a.clear_nomination == b.clear_nomination && victims(a) == victims(b);
}

Decision Framework::DecidePlain(const PodInfo& pod, const AffinityState* affinity,
                                const std::string* no_preemption) {
  const auto& order = model_.node_order();
  const std::size_t num_nodes = order.size();
  Decision d;
  // Filter: stop once enough feasible nodes were found (numFeasibleNodesToFind), starting
  // where the previous cycle stopped (findNodesThatPassFilters).
  const std::size_t to_find = NumFeasibleNodesToFind(num_nodes, options_.percentage_of_nodes_to_score);
  NodeStatuses& statuses = statuses_;
  statuses.resize(model_.nodes().size());  // every processed node's entry is written below
  std::vector<NodeId> feasible;
  std::size_t processed = 0;
  const std::size_t start = next_start_node_index_;
  for (std::size_t i = 0; i < num_nodes; ++i) {
    const NodeId id = order[(start + i) % num_nodes];
    Status s = CachedFilter(pod, id, affinity);
    statuses[id] = s;
    ++processed;
    if (s.IsSuccess()) {
      feasible.push_back(id);
      if (feasible.size() >= to_find) break;
    }
  }
  next_start_node_index_ = (next_start_node_index_ + processed) % num_nodes;
  if (!feasible.empty()) {
    d.kind = Decision::Kind::kBind;
    d.node = SelectHost(pod, feasible);
    return d;
  }
  PluginMask rejectors = 0;
  for (const Status& s : statuses) {
    if (!s.IsSuccess()) rejectors |= MaskOf(s.plugin());
  }
  const std::string fit_error = FitErrorText(num_nodes, statuses, "");
  d.rejectors = rejectors;
  if (SkipsPostFilter(fit_error, no_preemption, d)) return d;
  return Preempt(pod, statuses, fit_error, rejectors, affinity);
}

DryRunResult Framework::ResizeDryRun(const PodInfo& probe, NodeId node, Status& filter) {
  AffinityState affinity_state;
  const AffinityState* affinity = filters_.PreFilter(probe, affinity_state) ? &affinity_state : nullptr;
  filter = filters_.FilterWithNominated(probe, node, model_.node(node).requested, affinity, &probe);
  if (filter.code() != Code::kUnschedulable) return DryRunResult{};
  ++preemption_attempts_;
  ++dry_runs_;
  return victims_.SelectVictimsOnNode(probe, node, affinity, nullptr, &probe);
}

}  // namespace kpsim::engine
