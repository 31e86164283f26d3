// The read-only diagnosis `explain` adds to a decided cycle (Framework::Diagnose).

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "framework/cycle_state.h"
#include "kpsim/explain.h"
#include "scheduler/framework.h"

namespace kpsim::engine {
namespace {

void FillStatus(const ReasonTable& reasons, const Status& s, FilterOutcome& out) {
  out.fits = s.IsSuccess();
  out.code = std::string(CodeName(s.code()));
  for (int i = 0; i < s.reason_count(); ++i) out.reasons.push_back(reasons.Text(s.reason(i)));
  if (!out.fits) out.plugin = std::string(PluginName(s.plugin()));
}

// The lower-priority pods on `node` that match all of `pod`'s required pod affinity terms: the
// ones preemption would remove although the pod needs them.
std::vector<std::string> NeededLowerPriorityPods(ClusterModel& model, const PodInfo& pod, NodeId node) {
  std::vector<std::string> out;
  const auto& terms = pod.pod.spec.affinity.pod_affinity_required;
  if (terms.empty()) return out;
  for (PodId id : model.node(node).pods) {
    const PodInfo& other = model.pod(id);
    if (other.IsTerminating() || other.victim_priority >= pod.priority) continue;
    const bool needed = std::all_of(terms.begin(), terms.end(), [&](const PodAffinityTerm& term) {
      return TermMatches(model, term, pod, other);
    });
    if (needed) out.push_back(fmt::format("{} (priority {})", other.key, other.victim_priority));
  }
  return out;
}

// Pods on other nodes of `node`'s topology domains that match one of `pod`'s required pod
// anti-affinity terms: what keeps the pod off `node` that preemption on `node` cannot remove.
std::vector<std::string> CrossNodeBlockers(ClusterModel& model, const PodInfo& pod, NodeId node) {
  std::vector<std::string> out;
  const Labels& labels = model.node(node).api->meta.labels;
  for (const PodAffinityTerm& term : pod.pod.spec.affinity.pod_anti_affinity_required) {
    const std::string* value = FindLabel(labels, term.topology_key);
    if (value == nullptr) continue;
    for (NodeId other : model.node_order()) {
      if (other == node) continue;
      const std::string* v = FindLabel(model.node(other).api->meta.labels, term.topology_key);
      if (v == nullptr || *v != *value) continue;
      for (PodId id : model.node(other).pods) {
        const PodInfo& blocker = model.pod(id);
        if (blocker.IsTerminating() || !TermMatches(model, term, pod, blocker)) continue;
        out.push_back(fmt::format("{} on node {} ({} {})", blocker.key, model.node(other).name, term.topology_key, *value));
      }
    }
  }
  return out;
}

}  // namespace

// What every diagnosis states first: the requests the filters see and the chain they run in.
void Framework::DescribeRequestAndChain(const PodInfo& pod, ExplainResult& out) const {
  out.requests = pod.request;
  for (const auto& plugin : filters_.plugins()) out.filter_plugins.emplace_back(PluginName(plugin->id()));
}

// prioritizeNodes as the cycle ran it, per plugin: PreScore over the nodes SelectHost ranked (the
// same state, so the same plugin state), then each plugin's normalized score per node.
void Framework::ScoreTable(const PodInfo& pod, ExplainResult& out) {
  for (const WeightedScorePlugin& score : scores_) {
    out.score_plugins.emplace_back(score.plugin->name());
    score.plugin->PreScore(pod, scored_nodes_);
  }
  out.scores.reserve(scored_nodes_.size());
  for (NodeId id : scored_nodes_) {
    const NodeInfo& node = model_.node(id);
    NodeScore row;
    row.node = node.name;
    for (const WeightedScorePlugin& score : scores_) {
      PluginScore cell{std::string(score.plugin->name()), score.plugin->Score(pod, id, node), score.weight};
      row.total += cell.score * cell.weight;
      row.plugins.push_back(std::move(cell));
    }
    out.scores.push_back(std::move(row));
  }
}

void Framework::Diagnose(PodId pod_id, const Decision& d, bool chosen_only, ExplainResult& out) {
  const PodInfo& pod = model_.pod(pod_id);
  out.profile = Profile::kDefault;
  out.pod = pod.key;
  out.priority = pod.priority;
  out.eligible = pod.preemption_policy != PreemptionPolicy::kNever;
  if (!out.eligible) out.eligibility_message = "not eligible due to preemptionPolicy=Never.";
  out.message = d.message;
  DescribeRequestAndChain(pod, out);
  const std::vector<NodeId>& order = model_.node_order();
  if (order.empty()) return;
  AffinityState affinity_state;
  const AffinityState* affinity = filters_.PreFilter(pod, affinity_state) ? &affinity_state : nullptr;

  // Every node's verdict, as the cycle saw it (the cycle itself stops at numFeasibleNodesToFind).
  NodeStatuses statuses(model_.nodes().size());
  out.filter.reserve(order.size());
  for (NodeId id : order) {
    const Status s = CachedFilter(pod, id, affinity);
    FilterOutcome outcome;
    outcome.node = model_.node(id).name;
    FillStatus(model_.reasons(), s, outcome);
    out.filter.push_back(std::move(outcome));
    statuses[id] = s;
  }
  if (d.kind == Decision::Kind::kBind) {
    const SharedString& node = model_.node(d.node).name;
    out.fits_node = node;
    out.message = d.node == pod.nominated
                      ? fmt::format("the pod fits on its nominated node {}, which is tried first; "
                                    "kube-scheduler binds it there",
                                    node)
                      : fmt::format("the pod fits without preemption; kube-scheduler would bind it to {}",
                                    node);
    if (scored_pod_ == &pod) ScoreTable(pod, out);
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
    if (statuses[id].code() != Code::kUnschedulable) continue;
    const bool chosen = d.kind == Decision::Kind::kPreempt && id == d.node;
    if (chosen_only && !chosen) continue;
    CandidateOutcome outcome;
    const DryRunResult r = victims_.SelectVictimsOnNode(pod, id, affinity, &outcome, &pod);
    outcome.node = model_.node(id).name;
    if (!r.candidate) {
      // Not a candidate: keep the reason as the only step.
      ReprieveStep step;
      step.why = "not a candidate: " + victims_.ReasonsText(r.status);
      if (r.status.plugin() == PluginId::kInterPodAffinity) {
        // The documented caveat: affinity to lower-priority pods. SelectVictimsOnNode removes every
        // lower-priority pod first and does not consider keeping those the affinity needs.
        if (std::vector<std::string> needed = NeededLowerPriorityPods(model_, pod, id); !needed.empty()) {
          std::string list;
          for (const std::string& n : needed) list += (list.empty() ? "" : ", ") + n;
          step.why += fmt::format(
              " (its required pod affinity is met here only by lower-priority pods preemption would remove: {}; "
              "kube-scheduler does not preempt for affinity to lower-priority pods, so the node is skipped)",
              list);
          Warning w;
          w.object = "Pod " + pod.key;
          w.code = "AffinityToLowerPriority";
          w.message = fmt::format(
              "node {} is not a preemption candidate: the pod's required pod affinity is met there only by "
              "lower-priority pods ({}), which preemption would remove first (SelectVictimsOnNode); give them a "
              "priority at least the pod's, or drop the affinity",
              model_.node(id).name, list);
          out.warnings.push_back(std::move(w));
        }
        // The other documented caveat: no cross-node preemption.
        if (std::vector<std::string> blockers = CrossNodeBlockers(model_, pod, id); !blockers.empty()) {
          std::string list;
          for (const std::string& b : blockers) list += (list.empty() ? "" : ", ") + b;
          step.why += fmt::format(
              " (blocked by {}, which matches its pod anti-affinity from another node; preemption removes victims "
              "only from the node it preempts on, so cross-node preemption is not done)",
              list);
        }
      }
      outcome.steps.push_back(std::move(step));
    }
    out.candidates.push_back(std::move(outcome));
  }
  if (d.kind == Decision::Kind::kPreempt && d.candidate) {
    ChosenCandidate chosen;
    chosen.node = model_.node(d.node).name;
    for (const Victim& v : d.candidate->victims) {
      chosen.victims.push_back(model_.pod(v.pod).key.string());
    }
    if (d.record) chosen.decided_by = d.record->decided_by_label;
    out.chosen = std::move(chosen);
  }
}

void Framework::DiagnoseResize(const PodInfo& probe, NodeId node, const Status& filter,
                               const DryRunResult& decided, ExplainResult& out) {
  out.profile = Profile::kDefault;
  out.pod = probe.key;
  out.priority = probe.priority;
  out.eligible = true;
  DescribeRequestAndChain(probe, out);
  const SharedString& name = model_.node(node).name;
  for (NodeId id : model_.node_order()) {
    FilterOutcome outcome;
    outcome.node = model_.node(id).name;
    if (id == node) {
      FillStatus(model_.reasons(), filter, outcome);
    } else {
      // The resize domain is the pod's own node (rule 19.2).
      outcome.code = std::string(CodeName(Code::kUnschedulableAndUnresolvable));
      outcome.reasons.emplace_back("pod assigned to different node");
    }
    out.filter.push_back(std::move(outcome));
  }
  if (filter.IsSuccess()) {
    out.fits_node = name;
    out.message = fmt::format("the resize fits on {}: pod resize fits, waiting for Kubelet actuation", name);
    return;
  }
  if (filter.code() != Code::kUnschedulable) {
    out.message = fmt::format("the resize does not fit on {} and preemption cannot help there", name);
    return;
  }
  AffinityState affinity_state;
  const AffinityState* affinity = filters_.PreFilter(probe, affinity_state) ? &affinity_state : nullptr;
  CandidateOutcome outcome;
  const DryRunResult r = victims_.SelectVictimsOnNode(probe, node, affinity, &outcome, &probe);
  outcome.node = name;
  if (!r.candidate) {
    ReprieveStep step;
    step.why = "not a candidate: " + victims_.ReasonsText(r.status);
    outcome.steps.push_back(std::move(step));
  }
  out.candidates.push_back(std::move(outcome));
  if (decided.candidate) {
    ChosenCandidate chosen;
    chosen.node = name;
    for (const Victim& v : decided.candidate->victims) chosen.victims.push_back(model_.pod(v.pod).key.string());
    chosen.decided_by = "only candidate (a resize preempts on the pod's own node only)";
    out.chosen = std::move(chosen);
    out.message = fmt::format("resize preemption on {}: {} victim(s); no nominatedNodeName (the pod is bound)", name,
                              decided.candidate->victims.size());
  } else {
    out.message = fmt::format("resize preemption on {}: no victims", name);
  }
}

}  // namespace kpsim::engine
