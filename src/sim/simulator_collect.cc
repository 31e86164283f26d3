// The default profile's simulation: the result, collected from the model at the end of a run.

#include "sim/simulator_internal.h"

#include <cassert>

#if defined(__GLIBC__)
#include <malloc.h>

// g++ says -fsanitize=address by __SANITIZE_ADDRESS__, clang by __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define KPSIM_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KPSIM_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef KPSIM_ADDRESS_SANITIZER
#define KPSIM_ADDRESS_SANITIZER 0
#endif
#endif

namespace kpsim::engine::internal {

SimulationResult Simulator::Collect() {
  result_.stats.preemption_attempts = framework_.preemption_attempts();
  result_.stats.dry_runs = framework_.dry_runs();
  // The run is over: the caches and the queue make room for the outcomes.
  framework_.ReleaseCaches();
  queue_.Release();
  failure_chain_ = {};
  failure_links_ = {};
#if defined(__GLIBC__)
  // What they held is thousands of small blocks amid the heap, which the outcomes' one large
  // block (mapped on its own) cannot reuse: hand their pages back, or the peak keeps them.
  // Not under AddressSanitizer: its allocator is not glibc's, whose arenas malloc_trim would
  // then set up on first use, racing with a sweep's other threads doing the same (a SEGV in
  // mtrim, or "a->attached_threads > 0" at thread exit).
#if !KPSIM_ADDRESS_SANITIZER
  malloc_trim(0);
#endif
#endif
  result_.pods.reserve(model_.pods().size());
  result_.nodes.reserve(model_.nodes().size());
  // One text per PriorityClass name, shared by its pods' outcomes.
  std::unordered_map<std::string_view, SharedString> class_names;
  for (PodInfo& pod : model_.pods()) {
    PodOutcome& out = result_.pods.emplace_back();
    out.pod = std::move(pod.key);  // the model is done with it: below, pods are named by outcome
    out.priority = pod.priority;
    out.state = pod.state;
    if (pod.node != kNoId) out.node = model_.node(pod.node).name;
    else if (pod.state == PodState::kRunning) out.node = pod.pod.spec.node_name;
    if (pod.nominated != kNoId) {
      out.nominated_node = model_.node(pod.nominated).name;
    }
    if (pod.state == PodState::kPending || (pod.node == kNoId && !pod.last_failure.empty())) {
      out.reason = std::move(pod.last_failure);  // the model is done with it
      if (out.reason.empty() && pod.state == PodState::kPending) {
        out.reason = pod.in_queue ? "not attempted before the run ended" : "not scheduled";
      }
    }
    if (pod.state == PodState::kPending && !pod.pod.spec.scheduling_gates.empty()) {
      out.condition = "SchedulingGated";
    }
    if (pod.replacement_of != kNoId) {
      // A replacement comes after the pod it replaces, whose outcome is already made.
      assert(pod.replacement_of.index() + 1 < result_.pods.size());
      out.replacement_of = result_.pods[pod.replacement_of.index()].pod;
    }
    if (pod.pod.spec.scheduling_group) {
      out.pod_group = pod.pod.meta.namespace_ + "/" + pod.pod.spec.scheduling_group->pod_group_name;
    }
    if (pod.scheduled_at != PodInfo::kNever) out.scheduled_at = pod.scheduled_at;
    if (pod.deleted_at != PodInfo::kNever) out.deleted_at = pod.deleted_at;
    out.requests = pod.request;
    const std::string& class_name = pod.pod.spec.priority_class_name;
    if (!class_name.empty()) {
      SharedString& shared = class_names[class_name];
      if (shared.empty()) shared = class_name;
      out.priority_class = shared;
    }
  }
  for (const GroupInfo& g : model_.groups()) {
    const GroupInfo& root = model_.group(g.root);
    GroupOutcome out;
    out.group = g.key;
    out.composite = g.composite;
    if (g.parent != kNoId) out.parent = model_.group(g.parent).key;
    out.priority = g.priority;
    out.disruption_mode = g.mode == DisruptionMode::kAll ? "All" : "Single";
    out.min_count = g.min_count;
    out.preempted = g.preempted;
    for (GroupId leaf : g.leaves) {
      for (PodId id : model_.group(leaf).members) {
        const PodInfo& p = model_.pod(id);
        if (p.replaced) continue;  // its replacement counts instead
        ++out.pods;
        out.placed += p.state == PodState::kRunning ? 1 : 0;
      }
    }
    out.message = root.message;
    if (root.rejected) {
      out.state = "Rejected";
    } else if (out.pods > 0 && out.placed == out.pods) {
      out.state = "Scheduled";
    } else if (out.placed > 0) {
      out.state = g.gang && out.placed < g.min_count ? "WaitingForMinCount" : "Partial";
    } else if (g.preempted_whole) {
      out.state = "PreemptedWhole";
    } else {
      out.state = g.gang ? "WaitingForMinCount" : "Pending";
    }
    if (out.state == "Scheduled") out.message.clear();
    result_.groups.push_back(std::move(out));
  }
  for (const Resize& r : resizes_) {
    // A resize still Deferred at the end: the pod's PodResizePending condition.
    if (r.done) continue;
    PodOutcome& out = result_.pods[r.pod.index()];
    if (model_.pod(r.pod).state != PodState::kRunning) continue;
    out.condition = "PodResizePending";
    out.reason = fmt::format("resize {}: asks for {}", r.infeasible ? "Infeasible" : "Deferred", RequestsText(r.target));
  }
  for (const QuotaStatus& q : model_.quotas().quotas()) {
    QuotaOutcome out;
    out.quota = q.quota.meta.namespace_ + "/" + q.quota.meta.name;
    for (const auto& [name, v] : q.hard) out.hard.emplace_back(name, FormatQuotaAmount(name, v));
    for (const auto& [name, v] : q.used) out.used.emplace_back(name, FormatQuotaAmount(name, v));
    result_.quotas.push_back(std::move(out));
  }
  result_.pdb_names.reserve(model_.pdbs().size());
  for (const PdbState& pdb : model_.pdbs()) result_.pdb_names.push_back(pdb.key);
  for (const NodeInfo& node : model_.nodes()) {
    // Nodes a step was to add but the run ended first (they come last: steps add in time order).
    if (!node.present && !node.deleted_at) continue;
    NodeOutcome out;
    out.node = node.name;
    out.added_at = node.added_at;
    out.deleted_at = node.deleted_at;
    out.allocatable = node.allocatable;
    out.requested = node.requested;
    out.pods.reserve(node.pods.size());
    for (PodId p : node.pods) out.pods.push_back(static_cast<ResultIndex>(p.index()));
    result_.nodes.push_back(std::move(out));
  }
  return std::move(result_);
}

}  // namespace kpsim::engine::internal
