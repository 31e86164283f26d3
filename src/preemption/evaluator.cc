#include "preemption/evaluator.h"

#include <algorithm>
#include <deque>

#include "preemption/decision_record.h"
#include "preemption/eligibility.h"

namespace kpsim::engine {

Evaluator::Evaluator(const ClusterModel& model, const EngineOptions& options, const FilterRunner& filters,
                     VictimSelector& victims, Mt19937_64& rng)
    : model_(model), options_(options), filters_(filters), victims_(victims), rng_(rng) {
  cache_.resize(model_.nodes().size());
}

const DryRunResult& Evaluator::CachedDryRun(const PodInfo& pod, NodeId node_id, const AffinityState* affinity,
                                            std::deque<DryRunResult>& scratch) {
  const NodeInfo& node = model_.node(node_id);
  if (!filters_.CachesUsable(affinity) || pod.nominated == node_id) {
    scratch.push_back(victims_.SelectVictimsOnNode(pod, node_id, affinity, nullptr, &pod));
    return scratch.back();
  }
  CacheEntry& entry = cache_[node_id];
  if (entry.cls != pod.equivalence_class || entry.generation != node.generation ||
      entry.pdb_generation != model_.pdb_generation() ||
      (entry.result.time_dependent && entry.computed_at != now_)) {
    entry.computed_at = now_;
    entry.cls = pod.equivalence_class;
    entry.generation = node.generation;
    entry.pdb_generation = model_.pdb_generation();
    entry.result = victims_.SelectVictimsOnNode(pod, node_id, affinity, nullptr, &pod);
  }
  return entry.result;
}

PreemptionOutcome Evaluator::Preempt(const PodInfo& pod, const NodeStatuses& statuses,
                                     const AffinityState* affinity) {
  PreemptionOutcome out;
  // 1) Ensure the preemptor is eligible.
  if (auto why = PodEligibleToPreemptOthers(model_, pod, statuses)) {
    out.ineligible = std::move(*why);
    return out;
  }
  // 2) Potential nodes: those whose failure preemption might resolve (nodesWherePreemptionMightHelp).
  const std::size_t num_nodes = model_.nodes().size();
  std::vector<NodeId> potential;
  for (NodeId id : model_.node_order()) {
    if (statuses[id].code() == Code::kUnschedulable) potential.push_back(id);
  }
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
    // DryRunPreemption: candidates with and without PDB violations, up to num_candidates each;
    // sampling stops once enough are found and one of them violates no PDB.
    for (std::size_t i = 0; i < np; ++i) {
      const NodeId id = potential[(offset + i) % np];
      ++out.dry_runs;
      const DryRunResult& r = CachedDryRun(pod, id, affinity, scratch);
      if (r.candidate) {
        auto& list = r.candidate->pdb_violations == 0 ? non_violating : violating;
        if (list.size() < num_candidates) list.push_back(&*r.candidate);
        if (sampling && !non_violating.empty() && non_violating.size() + violating.size() >= num_candidates) {
          break;
        }
      } else {
        if (out.dry_statuses.empty()) out.dry_statuses.resize(num_nodes);
        out.dry_statuses[id] = r.status;
      }
    }
  }
  if (non_violating.empty() && violating.empty()) {
    out.kind = PreemptionOutcome::Kind::kNotHelpful;
    out.dry_statuses.resize(num_nodes);
    return out;
  }
  // 3) pickOneNodeForPreemption: after each tie-breaker of kTieBreakers keep the best, which is a
  // lexicographic maximum with the first candidate winning full ties; the runners-up follow.
  std::vector<const Candidate*> all = std::move(non_violating);
  all.insert(all.end(), violating.begin(), violating.end());
  const std::vector<const Candidate*> ranked = TopCandidates(all, PreemptionDecision::kCandidatesShown);
  out.kind = PreemptionOutcome::Kind::kFound;
  out.best = *ranked.front();
  out.record = MakePodDecision(model_, pod, ranked, static_cast<std::int64_t>(all.size()), out.dry_runs);
  return out;
}

}  // namespace kpsim::engine
