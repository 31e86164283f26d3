// `book::Explain`: the chapter's first attempt for one pod against the state at time 0, with the
// "remove all lower, then put back" table per node. Changes nothing.
//
// Presentation choices:
// - `filter` has one entry per node (node order): "Success", or "Unschedulable" with the first
//   resource that does not fit ("Insufficient cpu", "Too many pods").
// - When the pod fits somewhere, `fits_node` is the node `place` would pick and there are no
//   candidates.
// - Otherwise a node that cannot fit the pod even with every lower-priority pod removed is no
//   candidate: its filter entry gets a second reason, "not a preemption candidate: <reason> even
//   with every lower-priority pod removed", and it has no `candidates` entry.
// - `candidates` lists the nodes that are candidates, in node order, each with its put-back steps.
//   A step's `pdb_violating` says whether evicting that pod alone at time 0 would break a budget
//   (the flag its eviction would carry); the chapter's put-back order itself ignores budgets.

#include <algorithm>
#include <string>
#include <vector>

#include "book/book.h"
#include "book/book_state.h"
#include "book/candidate.h"
#include "kpsim/engine_options.h"
#include "kpsim/explain.h"

namespace kpsim::book {

using internal::BookState;
using internal::Candidate;
using internal::PutBackStep;
using internal::VictimSelection;

namespace {

// Explain's capacity strip of `node_idx` for preemptor `pod`: allocatable, the pods at or above
// its priority (never victims), and the naive order for contrast: the lowest-priority pod first
// (the end of the put-back order) until the preemptor fits.
void AddCapacity(const BookState& state, int node_idx, int pod, CandidateOutcome& cand) {
  const internal::NodeRec& node = state.node(node_idx);
  const std::int32_t priority = state.pod(pod).priority;
  cand.allocatable = state.ToResourceList(node.allocatable);
  internal::Amounts free = node.free;
  for (int q : node.pods_by_priority) {
    const auto& rec = state.pod(q);
    if (rec.priority >= priority) cand.staying.push_back(PodSlice{rec.key.string(), rec.priority, state.ToResourceList(rec.request)});
  }
  for (auto it = node.pods_by_priority.rbegin(); it != node.pods_by_priority.rend(); ++it) {
    const auto& rec = state.pod(*it);
    if (rec.priority >= priority) break;
    for (std::size_t dim = 0; dim < free.size(); ++dim) free[dim] += rec.request[dim];
    cand.naive_victims.push_back(rec.key.string());
    if (BookState::Fits(state.pod(pod).request, free)) return;
  }
  cand.naive_victims.clear();
}

}  // namespace

Expected<ExplainResult> Explain(const ClusterState& cluster, const EngineOptions& /*options*/,
                                std::string_view pod_ref) {
  const BookState state(cluster);
  const int pod = state.FindPod(pod_ref);
  if (pod < 0) {
    return MakeError(ErrorCode::kNotFound, "pod " + std::string(pod_ref) + " not found");
  }
  const auto& p = state.pod(pod);
  ExplainResult out;
  out.profile = Profile::kBook;
  out.pod = p.key;
  out.priority = p.priority;
  out.eligible = true;  // the chapter lets every pod preempt (no preemptionPolicy)
  out.requests = state.ToResourceList(p.request);
  if (state.IsPrebound(pod)) {
    out.message = p.display + " is bound to " + state.SpecNodeName(pod) +
                  " from the start; the book model never schedules it";
    return out;
  }

  // 1) Filter: does it fit as the nodes are?
  for (int node_idx = 0; node_idx < state.node_count(); ++node_idx) {
    FilterOutcome filter;
    filter.node = state.node(node_idx).name;
    const auto insufficient = state.FirstInsufficient(p.request, state.node(node_idx).free);
    filter.fits = !insufficient.has_value();
    filter.code = filter.fits ? "Success" : "Unschedulable";
    if (insufficient.has_value()) filter.reasons.push_back(*insufficient);
    out.filter.push_back(std::move(filter));
  }
  const int placement = state.FindPlacement(pod);
  if (placement >= 0) {
    out.fits_node = state.node(placement).name;
    out.message = "fits on node " + *out.fits_node;
    return out;
  }

  // 2) Preemption: the put-back table per node, then `better`.
  std::vector<Candidate> ranked;
  for (int node_idx = 0; node_idx < state.node_count(); ++node_idx) {
    std::vector<PutBackStep> steps;
    const VictimSelection selection = state.SelectVictims(node_idx, pod, &steps);
    if (!selection.feasible) {
      const auto removed = state.FreeWithLowerRemoved(node_idx, p.priority);
      out.filter[static_cast<size_t>(node_idx)].reasons.push_back(
          "not a preemption candidate: " +
          state.FirstInsufficient(p.request, removed).value_or("") +
          " even with every lower-priority pod removed");
      continue;
    }
    if (selection.victims.empty()) continue;  // unreachable once `place` failed; as the chapter
    CandidateOutcome cand;
    cand.node = state.node(node_idx).name;
    cand.free_after_removal =
        state.ToResourceList(state.FreeWithLowerRemoved(node_idx, p.priority));
    for (int victim : selection.victims) cand.victims.push_back(state.pod(victim).key.string());
    cand.pdb_violations = state.Violations(selection.victims);
    cand.highest_victim_priority = selection.top_victim;
    for (const PutBackStep& step : steps) {
      ReprieveStep row;
      row.pod = state.pod(step.pod).key;
      row.priority = state.pod(step.pod).priority;
      row.pdb_violating = state.Violations({step.pod}) > 0;
      row.reprieved = step.reprieved;
      row.why = step.reprieved ? "fits with it back"
                               : step.insufficient.value_or("does not fit") + " with it back";
      row.free_after = state.ToResourceList(step.free_after);
      row.requests = state.ToResourceList(state.pod(step.pod).request);
      if (step.reprieved) cand.reprieved.push_back(row.pod);
      cand.steps.push_back(std::move(row));
    }
    AddCapacity(state, node_idx, pod, cand);
    Candidate key;
    key.node = node_idx;
    key.name_rank = state.node(node_idx).name_rank;
    key.violations = cand.pdb_violations;
    key.top_victim = cand.highest_victim_priority;
    key.victim_count = static_cast<int>(selection.victims.size());
    ranked.push_back(key);
    out.candidates.push_back(std::move(cand));
  }
  if (ranked.empty()) {
    out.message = p.display + " cannot be placed anywhere (and has no one to preempt)";
    return out;
  }
  std::stable_sort(ranked.begin(), ranked.end(), internal::Better);
  ChosenCandidate chosen;
  chosen.node = state.node(ranked[0].node).name;
  for (const CandidateOutcome& cand : out.candidates) {
    if (cand.node == chosen.node) chosen.victims = cand.victims;
  }
  chosen.decided_by = ranked.size() == 1 ? "only candidate"
                                         : std::string(internal::DecidedBy(ranked[0], ranked[1]));
  std::string victims_text;
  for (const std::string& victim : chosen.victims) {
    const auto& v = state.pod(state.FindPod(victim));
    if (!victims_text.empty()) victims_text += ", ";
    victims_text += v.display + " (priority " + std::to_string(v.priority) + ")";
  }
  out.message = p.display + " (priority " + std::to_string(p.priority) + ") would preempt " +
                victims_text + " from " + chosen.node + " (decided by " + chosen.decided_by + ")";
  out.chosen = std::move(chosen);
  return out;
}

}  // namespace kpsim::book
