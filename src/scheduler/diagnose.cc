// The read-only diagnosis `explain` adds to a decided cycle (Framework::Diagnose).

#include <string>
#include <vector>

#include <fmt/format.h>

#include "kpsim/explain.h"
#include "scheduler/framework.h"

namespace kpsim::engine {
namespace {

void FillStatus(const ReasonTable& reasons, const Status& s, FilterOutcome& out) {
  out.fits = s.IsSuccess();
  out.code = std::string(CodeName(s.code()));
  for (int i = 0; i < s.reason_count(); ++i) out.reasons.push_back(reasons.Text(s.reason(i)));
}

}  // namespace

void Framework::Diagnose(PodId pod_id, const Decision& d, bool chosen_only, ExplainResult& out) {
  const PodInfo& pod = model_.pod(pod_id);
  out.profile = Profile::kDefault;
  out.pod = pod.key;
  out.priority = pod.priority;
  out.eligible = pod.preemption_policy != PreemptionPolicy::kNever;
  if (!out.eligible) out.eligibility_message = "not eligible due to preemptionPolicy=Never.";
  out.message = d.message;
  const std::vector<NodeId>& order = model_.node_order();
  if (order.empty()) return;
  AffinityState affinity_state;
  const AffinityState* affinity = filters_.PreFilter(pod, affinity_state) ? &affinity_state : nullptr;

  // Every node's verdict, as the cycle saw it (the cycle itself stops at numFeasibleNodesToFind).
  std::vector<Status> statuses(model_.nodes().size());
  out.filter.reserve(order.size());
  for (NodeId id : order) {
    const Status s = CachedFilter(pod, id, affinity);
    FilterOutcome outcome;
    outcome.node = model_.node(id).name;
    FillStatus(model_.reasons(), s, outcome);
    out.filter.push_back(std::move(outcome));
    statuses[static_cast<std::size_t>(id)] = s;
  }
  if (d.kind == Decision::Kind::kBind) {
    const std::string& node = model_.node(d.node).name;
    out.fits_node = node;
    out.message = d.node == pod.nominated
                      ? fmt::format("the pod fits on its nominated node {}, which is tried first; "
                                    "kube-scheduler binds it there",
                                    node)
                      : fmt::format("the pod fits without preemption; kube-scheduler would bind it to {}",
                                    node);
    return;
  }
  // PostFilter ran (DefaultPreemption): eligibility, then a dry run on every potential node.
  if (std::optional<std::string> why = Ineligible(pod, statuses)) {
    out.eligible = false;
    out.eligibility_message = *why;
    return;
  }
  out.eligible = true;
  for (NodeId id : order) {
    if (statuses[static_cast<std::size_t>(id)].code() != Code::kUnschedulable) continue;
    const bool chosen = d.kind == Decision::Kind::kPreempt && id == d.node;
    if (chosen_only && !chosen) continue;
    CandidateOutcome outcome;
    const DryRunResult r = victims_.SelectVictimsOnNode(pod, id, affinity, &outcome, &pod);
    outcome.node = model_.node(id).name;
    if (!r.candidate) {
      // Not a candidate: keep the reason as the only step.
      ReprieveStep step;
      step.why = "not a candidate: " + victims_.ReasonsText(r.status);
      outcome.steps.push_back(std::move(step));
    }
    out.candidates.push_back(std::move(outcome));
  }
  if (d.kind == Decision::Kind::kPreempt && d.candidate) {
    ChosenCandidate chosen;
    chosen.node = model_.node(d.node).name;
    for (const Victim& v : d.candidate->victims) {
      chosen.victims.push_back(model_.pod(v.pod).key);
    }
    if (d.record) chosen.decided_by = d.record->decided_by_label;
    out.chosen = std::move(chosen);
  }
}

}  // namespace kpsim::engine
