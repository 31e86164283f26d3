// The default profile's simulation: Scenario steps (kpsim.io/v1alpha1): apply, delete, node changes.

#include "sim/simulator_internal.h"

namespace kpsim::engine::internal {

// ---------------------------------------------------------------------------------------------
// Scenario steps.

void Simulator::StepEvent(const TimedStep& timed, EventReason reason, SharedString pod,
                          SharedString node, std::string message) {
  SimEvent e;
  e.time = now_;
  e.last_time = now_;
  e.reason = reason;
  e.pod = std::move(pod);
  e.node = std::move(node);
  e.message = std::move(message);
  e.scenario = timed.scenario;
  e.step_index = timed.step.index;
  e.action = std::string(StepActionName(timed.step.action));
  result_.events.push_back(std::move(e));
}

void Simulator::StepWarning(const TimedStep& timed, std::string code, std::string message) {
  Warning w;
  w.source = timed.step.source;
  w.object = fmt::format("Scenario {} step {}", timed.scenario, timed.step.index);
  w.code = std::move(code);
  w.message = std::move(message);
  result_.warnings.push_back(std::move(w));
}

void Simulator::RunStep(const TimedStep& timed) {
  switch (timed.step.action) {
    case StepAction::kApply:
      ApplyStep(timed);
      return;
    case StepAction::kDelete:
      DeleteStep(timed);
      return;
    case StepAction::kCordon:
    case StepAction::kUncordon:
    case StepAction::kTaint:
    case StepAction::kUntaint:
      ChangeNode(timed);
      return;
    case StepAction::kPressure:
      StartPressure(timed);
      return;
    case StepAction::kResize:
      StartResize(timed);
      return;
  }
}


void Simulator::UpdateNode(NodeId node, const Node& api) {
  model_.UpdateNode(node, api);
  queue_.OnEvent(ClusterEvent::kNodeUpdate, kNoId, now_);
}

namespace {

std::string TaintText(const Taint& t) {
  return t.value.empty() ? fmt::format("{}:{}", t.key, TaintEffectName(t.effect))
                         : fmt::format("{}={}:{}", t.key, t.value, TaintEffectName(t.effect));
}

}  // namespace

void Simulator::ChangeNode(const TimedStep& timed) {
  const ScenarioStep& step = timed.step;
  const std::string_view action = StepActionName(step.action);
  const std::optional<NodeId> id = model_.FindNode(step.name);
  if (!id) {
    const std::string message = fmt::format("{}: nodes \"{}\" not found; nothing changed", action, step.name);
    StepEvent(timed, EventReason::kScenarioStep, "", "", message);
    StepWarning(timed, "StepTargetNotFound", message);
    return;
  }
  Node api = *model_.node(*id).api;
  std::string message;
  switch (step.action) {
    case StepAction::kCordon:
    case StepAction::kUncordon: {
      const bool cordon = step.action == StepAction::kCordon;
      message = api.unschedulable == cordon
                    ? fmt::format("{}: node {} already {}", action, step.name, cordon ? "cordoned" : "schedulable")
                    : fmt::format("{}: node {} is {}", action, step.name,
                                  cordon ? "unschedulable (spec.unschedulable=true)" : "schedulable again");
      api.unschedulable = cordon;
      break;
    }
    case StepAction::kTaint: {
      std::erase_if(api.taints, [&](const Taint& t) { return t.key == step.taint.key && t.effect == step.taint.effect; });
      api.taints.push_back(step.taint);
      message = fmt::format("taint: node {} tainted {}", step.name, TaintText(step.taint));
      break;
    }
    case StepAction::kUntaint: {
      const std::size_t removed = std::erase_if(api.taints, [&](const Taint& t) {
        return t.key == step.taint.key && (step.any_effect || t.effect == step.taint.effect);
      });
      message = removed == 0 ? fmt::format("untaint: node {} has no taint {}; nothing changed", step.name, step.taint.key)
                             : fmt::format("untaint: removed {} taint(s) {} from node {}", removed, step.taint.key, step.name);
      break;
    }
    default:
      return;
  }
  UpdateNode(*id, api);
  StepEvent(timed, EventReason::kScenarioStep, "", step.name, std::move(message));
}

void Simulator::ApplyStep(const TimedStep& timed) {
  if (!timed.step.object) {
    // A workload: its controller's pods are the applies that follow at the same time.
    StepEvent(timed, EventReason::kScenarioStep, "", "", timed.step.expansion);
    return;
  }
  const Object& object = *timed.step.object;
  const std::string kind(ObjectKindName(object.kind));
  const std::string name = object.DisplayName();
  const bool create = timed.operation == Operation::kCreate;
  const auto not_modelled = [&](const std::string& what) {
    const std::string message = fmt::format("apply {} {}: {} during a run is not modelled; nothing changed", kind,
                                            name, what);
    StepEvent(timed, EventReason::kScenarioStep, "", "", message);
    StepWarning(timed, "NotModelled", message);
  };
  if (const auto* pod = std::get_if<Pod>(&object.value)) {
    if (!create) {
      not_modelled("updating a pod (kpsim models creating and deleting pods)");
      return;
    }
    if (std::optional<std::string> refused = model_.quotas().Check(*pod)) {
      StepEvent(timed, EventReason::kFailedCreate, name, "",
                fmt::format("Error creating: pods \"{}\" is forbidden: {}", pod->meta.name, *refused));
      return;
    }
    const PodId id = model_.AddPod(*pod, now_);
    PodInfo& info = model_.pod(id);
    Emit(EventReason::kCreated, info, "",
         fmt::format("created by Scenario {} step {}; it enters the scheduling queue", timed.scenario, timed.step.index));
    result_.events.back().scenario = timed.scenario;
    result_.events.back().step_index = timed.step.index;
    result_.events.back().action = "apply";
    if (!pod->spec.node_name.empty()) {
      if (const std::optional<NodeId> node = model_.FindNode(pod->spec.node_name)) {
        // spec.nodeName: the kubelet runs it without the scheduler.
        model_.Bind(id, *node, now_);
        Emit(EventReason::kScheduled, info, pod->spec.node_name,
             fmt::format("bound by spec.nodeName to {} (not scheduled)", pod->spec.node_name));
        queue_.OnEvent(ClusterEvent::kAssignedPodAdd, id, now_);
      } else {
        info.last_failure = fmt::format("bound to node {}, which does not exist", pod->spec.node_name);
      }
      return;
    }
    Enqueue(id);
    return;
  }
  if (const auto* pdb = std::get_if<PodDisruptionBudget>(&object.value)) {
    model_.ApplyPdb(*pdb);
    const auto& pdbs = model_.pdbs();
    const std::string key = pdb->meta.namespace_ + "/" + pdb->meta.name;
    auto it = std::find_if(pdbs.begin(), pdbs.end(), [&](const PdbState& p) { return p.key == key; });
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply PodDisruptionBudget {}: {}; it selects {} pod(s), disruptionsAllowed {}", name,
                          create ? "created" : "updated", model_.pdb_pods(pdbs.id_of(it)).size(),
                          it->DisruptionsAllowed()));
    return;
  }
  if (const auto* node = std::get_if<Node>(&object.value)) {
    // The model holds every node a step applies, absent until it is added.
    const std::optional<NodeId> id = model_.FindAnyNode(node->meta.name);
    if (!id) {
      not_modelled("adding a node");
      return;
    }
    NodeInfo& info = model_.node(*id);
    if (!info.present) {
      const std::size_t before = info.pods.size();
      model_.AddNode(*id, *node);
      info.added_at = now_;
      queue_.OnEvent(ClusterEvent::kNodeAdd, kNoId, now_);
      std::string message = fmt::format("apply Node {}: added to the cluster", name);
      if (info.pods.size() > before) {
        message += fmt::format("; {} pod(s) bound to it by spec.nodeName run there now", info.pods.size() - before);
      }
      StepEvent(timed, EventReason::kScenarioStep, "", node->meta.name, message);
      return;
    }
    UpdateNode(*id, *node);
    StepEvent(timed, EventReason::kScenarioStep, "", node->meta.name,
              fmt::format("apply Node {}: updated (labels, taints, unschedulable, allocatable)", name));
    return;
  }
  if (const auto* quota = std::get_if<ResourceQuota>(&object.value)) {
    model_.ApplyQuota(*quota);
    const auto& all = model_.quotas().quotas();
    const auto it = std::find_if(all.begin(), all.end(), [&](const QuotaStatus& q) {
      return q.quota.meta.namespace_ == quota->meta.namespace_ && q.quota.meta.name == quota->meta.name;
    });
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply ResourceQuota {}: {}; hard {}, used {} by the pods that exist now", name,
                          create ? "created" : "updated", FormatQuotaAmounts(it->hard), FormatQuotaAmounts(it->used)));
    RetryRefusedCreates();  // a raised limit may admit a refused create
    return;
  }
  if (const auto* config = std::get_if<QuotaAdmissionConfig>(&object.value)) {
    model_.SetQuotaConfig(*config);
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply {}: the ResourceQuota admission plugin's configuration replaced (limitedResources)", name));
    RetryRefusedCreates();
    return;
  }
  if (const auto* pc = std::get_if<PriorityClass>(&object.value)) {
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply PriorityClass {}: {} (value {}); objects created from now on resolve against it", name,
                          create ? "created" : "updated", pc->value));
    return;
  }
  if (const auto* ns = std::get_if<Namespace>(&object.value)) {
    // Its labels feed namespaceSelectors (InterPodAffinity). No plugin requeues on a Namespace
    // event: a pod it would now admit waits for its next retry.
    model_.ApplyNamespace(*ns);
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply Namespace {}: {}; affinity terms' namespaceSelectors see its labels from now on", name,
                          create ? "created" : "updated"));
    return;
  }
  if (const auto* service = std::get_if<Service>(&object.value)) {
    model_.ApplyService(*service);
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("apply Service {}: {}; PodTopologySpread's default constraints select by it from now on",
                          name, create ? "created" : "updated"));
    return;
  }
  if (const auto* group = std::get_if<PodGroup>(&object.value)) {
    ApplyPodGroup(timed, *group, create);
    return;
  }
  not_modelled(create ? "creating one" : "updating one");
}

void Simulator::ApplyPodGroup(const TimedStep& timed, const PodGroup& group, bool create) {
  const std::string kind(group.composite ? "CompositePodGroup" : "PodGroup");
  const std::string name = group.meta.namespace_ + "/" + group.meta.name;
  const auto not_modelled = [&](const std::string& why) {
    const std::string message = fmt::format("apply {} {}: {}; nothing changed", kind, name, why);
    StepEvent(timed, EventReason::kScenarioStep, "", "", message);
    StepWarning(timed, "NotModelled", message);
  };
  if (!model_.generic_workload()) {
    not_modelled("the GenericWorkload feature gate is off, so kube-scheduler does not read PodGroups");
    return;
  }
  if (group.composite) {
    not_modelled("creating or updating a CompositePodGroup during a run is not modelled (put it in the input)");
    return;
  }
  if (!create || model_.HasGroup(name)) {
    not_modelled("updating a PodGroup during a run is not modelled (kpsim creates them)");
    return;
  }
  const std::vector<PodId> joined = model_.AddGroup(group);
  std::size_t queued = 0;
  for (PodId id : joined) {
    if (model_.pod(id).state != PodState::kPending) continue;
    Enqueue(id);
    ++queued;
  }
  StepEvent(timed, EventReason::kScenarioStep, "", "",
            joined.empty() ? fmt::format("apply PodGroup {}: created; no pod names it yet", name)
                           : fmt::format("apply PodGroup {}: created; {} pod(s) that named it join it, {} of them "
                                         "pending and queued as the group",
                                         name, joined.size(), queued));
}

namespace {

// PodGC (gc_controller.go): a pod bound to a node that no longer exists is deleted once the node
// has been missing for quarantineTime.
constexpr SimDuration kPodGcQuarantine = std::chrono::seconds(40);

}  // namespace

void Simulator::DeletePod(PodId id, SimDuration grace) {
  PodInfo& pod = model_.pod(id);
  model_.MarkTerminating(id, /*by_preemption=*/false);
  pod.replace_when_gone = true;
  AddTimed(now_ + grace, TimedKind::kTerminationDone, id);
}

void Simulator::DeleteStep(const TimedStep& timed) {
  const ScenarioStep& step = timed.step;
  const std::string ns = step.namespace_.empty() ? std::string("default") : step.namespace_;
  const auto not_found = [&](std::string_view resource) {
    const std::string message =
        fmt::format("delete {}: {} \"{}\" not found; nothing changed", step.kind, resource, step.name);
    StepEvent(timed, EventReason::kScenarioStep, "", "", message);
    StepWarning(timed, "StepTargetNotFound", message);
  };
  if (step.kind == "Pod") {
    const std::optional<PodId> id = model_.FindPod(ns + "/" + step.name);
    if (!id || model_.pod(*id).state == PodState::kDeleted) {
      not_found("pods");
      return;
    }
    PodInfo& pod = model_.pod(*id);
    const SharedString node = pod.node != kNoId ? model_.node(pod.node).name : SharedString();
    if (pod.state == PodState::kPending || pod.node == kNoId) {
      // Nothing to terminate on a node (a pending pod, or one bound to a node not in the input).
      pod.in_queue = false;
      if (pod.state == PodState::kPending) queue_.Remove(*id);
      model_.Remove(*id, now_);
      Emit(EventReason::kDeleted, pod, "", fmt::format("deleted by Scenario {} step {}", timed.scenario, step.index));
      Replace(*id, "deleted pod");
      RetryRefusedCreates();
      return;
    }
    if (pod.IsTerminating()) {
      StepEvent(timed, EventReason::kScenarioStep, pod.key, node,
                fmt::format("delete Pod {}: already terminating", pod.key));
      return;
    }
    const std::int64_t grace_us = step.grace_period_seconds ? *step.grace_period_seconds * 1'000'000 : pod.grace_us;
    StepEvent(timed, EventReason::kScenarioStep, pod.key, node,
              fmt::format("delete Pod {}: terminating, gone after its grace period of {}s", pod.key, grace_us / 1'000'000));
    DeletePod(*id, SimDuration{grace_us});
    Replace(*id, "deleted pod");
    return;
  }
  if (step.kind == "Node") {
    const std::optional<NodeId> id = model_.FindNode(step.name);
    if (!id) {
      not_found("nodes");
      return;
    }
    NodeInfo& node = model_.node(*id);
    model_.RemoveNode(*id);
    node.deleted_at = now_;
    queue_.OnEvent(ClusterEvent::kNodeDelete, kNoId, now_);
    // The scheduler forgets the node at once; its pods stay until the pod garbage collector
    // finds them orphaned (gcOrphaned, after its quarantine).
    for (PodId pod : node.pods) AddTimed(now_ + kPodGcQuarantine, TimedKind::kOrphanGc, pod);
    StepEvent(timed, EventReason::kScenarioStep, "", step.name,
              fmt::format("delete Node {}: it leaves the cluster; the pod garbage collector deletes its {} pod(s) "
                          "after {}s (gcOrphaned) and the controllers of those that have one replace them",
                          step.name, node.pods.size(), kPodGcQuarantine.count() / 1'000'000));
    return;
  }
  if (step.kind == "ResourceQuota") {
    if (!model_.DeleteQuota(ns, step.name)) {
      not_found("resourcequotas");
      return;
    }
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("delete ResourceQuota {}/{}: it limits nothing from then on", ns, step.name));
    RetryRefusedCreates();
    return;
  }
  if (step.kind == "Service") {
    if (!model_.DeleteService(ns, step.name)) {
      not_found("services");
      return;
    }
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("delete Service {}/{}: PodTopologySpread's default constraints no longer select by it", ns,
                          step.name));
    return;
  }
  if (step.kind == "PodDisruptionBudget") {
    if (!model_.DeletePdb(ns + "/" + step.name)) {
      not_found("poddisruptionbudgets.policy");
      return;
    }
    StepEvent(timed, EventReason::kScenarioStep, "", "",
              fmt::format("delete PodDisruptionBudget {}/{}: it protects no pod any more", ns, step.name));
    return;
  }
  const std::string message = fmt::format(
      "delete {} {}: deleting a {} during a run is not modelled (kpsim deletes Pods, Nodes, PodDisruptionBudgets, ResourceQuotas and Services); "
      "nothing changed",
      step.kind, step.name, step.kind);
  StepEvent(timed, EventReason::kScenarioStep, "", "", message);
  StepWarning(timed, "NotModelled", message);
}

}  // namespace kpsim::engine::internal
