// `Admit`: objects in input order, each a create or an update of what came before, like
// successive `kubectl apply` against one API server.

#include "kpsim/admission.h"
#include "kpsim/api/quota.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "admission/admitters.h"

namespace kpsim {
namespace {

using admission::AdmitNamespace;
using admission::AdmitNode;
using admission::AdmitPod;
using admission::AdmitPodDisruptionBudget;
using admission::AdmitPodGroup;
using admission::AdmitPriorityClass;
using admission::AdmitService;

constexpr std::string_view kDefaultNamespace = "default";

using admission::Fnv1a;

// Whether `object.value` holds the alternative `object.kind` promises.
bool KindMatchesValue(const Object& object) {
  switch (object.kind) {
    case ObjectKind::kNode:
      return std::holds_alternative<Node>(object.value);
    case ObjectKind::kPod:
      return std::holds_alternative<Pod>(object.value);
    case ObjectKind::kPriorityClass:
      return std::holds_alternative<PriorityClass>(object.value);
    case ObjectKind::kPodDisruptionBudget:
      return std::holds_alternative<PodDisruptionBudget>(object.value);
    case ObjectKind::kNamespace:
      return std::holds_alternative<Namespace>(object.value);
    case ObjectKind::kPodGroup:
    case ObjectKind::kCompositePodGroup:
      return std::holds_alternative<PodGroup>(object.value);
    case ObjectKind::kService:
      return std::holds_alternative<Service>(object.value);
    case ObjectKind::kResourceQuota:
      return std::holds_alternative<ResourceQuota>(object.value);
    case ObjectKind::kAdmissionConfiguration:
      return std::holds_alternative<QuotaAdmissionConfig>(object.value);
  }
  return false;
}

// Holds the state built so far and admits one object at a time.
class Admitter {
 public:
  Admitter(const FeatureGates& gates, AdmissionMode mode) : gates_(gates), mode_(mode) {
    for (PriorityClass& pc : admission::BuiltInPriorityClasses()) {
      index_[Key{ObjectKind::kPriorityClass, "", pc.meta.name}] = state_.priority_classes.size();
      state_.priority_classes.push_back(std::move(pc));
    }
  }

  // The ResourceQuota plugin's configuration is the API server's: it applies to every object,
  // wherever it is in the input (the last valid one).
  void ConfigureQuota(const std::vector<Object>& objects) {
    for (const Object& object : objects) {
      const auto* config = std::get_if<QuotaAdmissionConfig>(&object.value);
      if (config == nullptr) continue;
      if (Expected<QuotaAdmissionConfig> ok = admission::AdmitQuotaConfig(*config); ok.ok()) quotas_.SetConfig(*ok);
    }
  }

  void AdmitOne(const Object& object, std::size_t position) {
    ++objects_seen_;
    AdmissionOutcome outcome;
    outcome.kind = object.kind;
    outcome.source = object.source;
    if (!KindMatchesValue(object)) {
      outcome.name = object.DisplayName();
      outcome.message = fmt::format("internal error: {} object carries another kind's value",
                                    ObjectKindName(object.kind));
      outcomes_.push_back(std::move(outcome));
      return;
    }
    std::visit([&](const auto& value) { AdmitTyped(value, object, position, outcome); },
               object.value);
    outcomes_.push_back(std::move(outcome));
  }

  // The Scenarios' steps in time order (ties in input order). An apply is admitted against what
  // exists at its time: the input's objects and what earlier steps applied or deleted.
  void AdmitSteps(const std::vector<Scenario>& scenarios) {
    timed_ = true;  // a step's apply is a create sent at its time, never an existing object
    for (const admission::StepRef& ref : admission::StepsInTimeOrder(scenarios)) {
      TimedStep timed;
      timed.scenario = scenarios[ref.scenario].meta.name;
      timed.step = scenarios[ref.scenario].steps[ref.step];
      if (timed.step.action == StepAction::kDelete) {
        const std::string& ns = timed.step.namespace_;
        for (auto it = timed_latest_.begin(); it != timed_latest_.end();) {
          const auto& [kind, key_ns, name] = it->first;
          const bool same = ObjectKindName(kind) == timed.step.kind && name == timed.step.name &&
                            (key_ns.empty() || key_ns == (ns.empty() ? kDefaultNamespace : ns));
          it = same ? timed_latest_.erase(it) : std::next(it);
        }
        // A later apply of the same object is a create again.
        for (const auto& [key, position] : index_) {
          const auto& [kind, key_ns, name] = key;
          if (ObjectKindName(kind) == timed.step.kind && name == timed.step.name &&
              (key_ns.empty() || key_ns == (ns.empty() ? kDefaultNamespace : ns))) {
            deleted_.insert(key);
          }
        }
      }
      if (timed.step.action != StepAction::kApply || !timed.step.object) {
        // A workload's apply: its pods are the applies that follow it (ExpandStepWorkloads).
        state_.steps.push_back(std::move(timed));
        continue;
      }
      Object& object = *timed.step.object;
      AdmissionOutcome outcome;
      outcome.kind = object.kind;
      outcome.source = object.source;
      std::visit([&](auto& value) { AdmitTimed(value, object, outcome, timed.operation); },
                 object.value);
      if (outcome.admitted) state_.steps.push_back(std::move(timed));
      outcomes_.push_back(std::move(outcome));
    }
  }

  AdmissionResult Finish() && {
    WarnAboutState();
    AdmissionResult result;
    result.state = std::move(state_);
    result.outcomes = std::move(outcomes_);
    result.warnings = std::move(warnings_);
    return result;
  }

 private:
  using Key = std::tuple<ObjectKind, std::string, std::string>;  // kind, namespace, name

  std::vector<PriorityClass>& Store(const PriorityClass*) { return state_.priority_classes; }
  std::vector<Pod>& Store(const Pod*) { return state_.pods; }
  std::vector<PodGroup>& Store(const PodGroup*) { return state_.pod_groups; }
  std::vector<PodDisruptionBudget>& Store(const PodDisruptionBudget*) { return state_.pdbs; }
  std::vector<Node>& Store(const Node*) { return state_.nodes; }
  std::vector<Namespace>& Store(const Namespace*) { return state_.namespaces; }
  std::vector<Service>& Store(const Service*) { return state_.services; }
  std::vector<ResourceQuota>& Store(const ResourceQuota*) { return state_.resource_quotas; }
  std::vector<QuotaAdmissionConfig>& Store(const QuotaAdmissionConfig*) { return state_.quota_configs; }

  Expected<PriorityClass> Run(PriorityClass v, const PriorityClass* old) {
    return AdmitPriorityClass(std::move(v), old, state_.priority_classes);
  }
  Expected<Pod> Run(Pod v, const Pod* old) {
    if (timed_ || old != nullptr || !v.spec.priority.has_value()) {
      return AdmitPod(std::move(v), old, state_.priority_classes);
    }
    return WithExistingObjectRule(AdmitPod(v, nullptr, state_.priority_classes),
                                  [&] { return admission::AdmitExistingPod(v); });
  }
  Expected<PodGroup> Run(PodGroup v, const PodGroup* old) {
    if (timed_ || old != nullptr || !v.priority.has_value()) {
      return AdmitPodGroup(std::move(v), old, state_.priority_classes, gates_);
    }
    return WithExistingObjectRule(AdmitPodGroup(v, nullptr, state_.priority_classes, gates_),
                                  [&] { return admission::AdmitExistingPodGroup(v); });
  }

  // The existing-object rule (see `AdmissionMode`) for an object created with `spec.priority`:
  // `created` is the API server's answer to a create; `existing` admits it as an existing object.
  // Under kExisting a refused create is replaced by the existing object (noted for a warning);
  // under kCreate the refusal stands, noting that simulate would keep it.
  template <typename T, typename Existing>
  Expected<T> WithExistingObjectRule(Expected<T> created, Existing existing) {
    pending_note_.reset();
    if (created.ok() || created.error().code != ErrorCode::kForbidden) return created;
    Expected<T> kept = existing();
    if (!kept.ok()) return mode_ == AdmissionMode::kExisting ? std::move(kept) : std::move(created);
    pending_note_ = PendingNote{created.error().message, mode_ == AdmissionMode::kExisting};
    if (mode_ == AdmissionMode::kCreate) return created;
    return kept;
  }
  Expected<PodDisruptionBudget> Run(PodDisruptionBudget v, const PodDisruptionBudget*) {
    return AdmitPodDisruptionBudget(std::move(v));
  }
  Expected<Node> Run(Node v, const Node*) { return AdmitNode(std::move(v), gates_); }
  Expected<Namespace> Run(Namespace v, const Namespace*) { return AdmitNamespace(std::move(v)); }
  Expected<Service> Run(Service v, const Service*) { return AdmitService(std::move(v)); }
  Expected<ResourceQuota> Run(ResourceQuota v, const ResourceQuota*) { return admission::AdmitResourceQuota(std::move(v)); }
  Expected<QuotaAdmissionConfig> Run(QuotaAdmissionConfig v, const QuotaAdmissionConfig*) {
    return admission::AdmitQuotaConfig(std::move(v));
  }

  // Picks a name for a `generateName` object that no object of its kind and namespace has.
  std::string UniqueGeneratedName(const Object& object, const ObjectMeta& meta,
                                  std::size_t position) const {
    std::uint64_t seed = Fnv1a(object.source.file);
    seed = Fnv1a(fmt::format("\n{}\n{}\n{}", object.source.document, object.source.line,
                             position),
                 seed);
    for (std::uint64_t attempt = 0;; ++attempt) {
      std::string name =
          admission::GenerateName(meta.generate_name, Fnv1a(std::to_string(attempt), seed));
      if (!index_.contains(Key{object.kind, meta.namespace_, name})) return name;
    }
  }

  // What an admitted pod or pod group resolved (its priority, class and policy), for the outcome.
  template <typename T>
  static void NotePriority(const T& admitted, AdmissionOutcome& outcome) {
    if constexpr (std::is_same_v<T, Pod>) {
      outcome.priority = admitted.spec.priority;
      outcome.priority_class_name = admitted.spec.priority_class_name;
      outcome.preemption_policy = admitted.spec.preemption_policy;
    } else if constexpr (std::is_same_v<T, PodGroup>) {
      outcome.priority = admitted.priority;
      outcome.priority_class_name = admitted.priority_class_name;
      outcome.preemption_policy = admitted.preemption_policy;
    }
  }

  // The namespace (defaulted, or cleared for cluster-scoped kinds) and a generated name; returns
  // the object's display name ("ns/name" or "name").
  template <typename T>
  std::string FillInMeta(T& value, const Object& object, std::size_t position) const {
    ObjectMeta& meta = value.meta;
    const bool namespaced = !IsClusterScoped(object.kind);
    if (!namespaced) {
      meta.namespace_.clear();
    } else if (meta.namespace_.empty()) {
      meta.namespace_ = std::string(kDefaultNamespace);
    }
    if constexpr (std::is_same_v<T, PodGroup>) {
      value.composite = object.kind == ObjectKind::kCompositePodGroup;
    }
    if (meta.name.empty() && !meta.generate_name.empty()) {
      meta.name = UniqueGeneratedName(object, meta, position);
    }
    return namespaced ? meta.namespace_ + "/" + meta.name : meta.name;
  }

  template <typename T>
  void AdmitTyped(T value, const Object& object, std::size_t position,
                  AdmissionOutcome& outcome) {
    // 1) What the API server fills in before anything else: the namespace, a generated name.
    ObjectMeta& meta = value.meta;
    outcome.name = FillInMeta(value, object, position);

    // 2) Create or update.
    const Key key{object.kind, meta.namespace_, meta.name};
    const auto existing = meta.name.empty() ? index_.end() : index_.find(key);
    std::vector<T>& store = Store(static_cast<const T*>(nullptr));
    const T* old = existing == index_.end() ? nullptr : &store[existing->second];
    outcome.operation = old == nullptr ? Operation::kCreate : Operation::kUpdate;

    // 3) Admit, then store.
    pending_note_.reset();
    Expected<T> admitted = Run(std::move(value), old);
    const bool kept_existing = pending_note_.has_value() && pending_note_->kept;
    NoteExistingObject(object, outcome, admitted);
    if (!admitted.ok()) {
      outcome.message = admitted.error().message;
      return;
    }
    if constexpr (std::is_same_v<T, Pod>) {
      // The ResourceQuota plugin, last of the chain: a pod created now (not one the snapshot
      // already holds with its priority) must fit its namespace's quotas.
      const bool snapshot_pod = mode_ == AdmissionMode::kExisting && admitted->spec.priority.has_value() &&
                            std::get<Pod>(object.value).spec.priority.has_value();
      if (old == nullptr && !kept_existing && !snapshot_pod) {
        if (std::optional<std::string> refused = quotas_.Check(*admitted)) {
          outcome.message = fmt::format("pods \"{}\" is forbidden: {}", admitted->meta.name, *refused);
          return;
        }
      }
    }
    outcome.admitted = true;
    NotePriority(*admitted, outcome);
    if constexpr (std::is_same_v<T, PodGroup>) {
      WarnIfGroupApiOff(*admitted, object, outcome);
    }
    if constexpr (std::is_same_v<T, Pod>) {
      if (old != nullptr) quotas_.Remove(*old);
      quotas_.Add(*admitted);
    }
    if (old != nullptr) {
      store[existing->second] = std::move(admitted).value();
    } else {
      if constexpr (std::is_same_v<T, Pod>) pod_origins_.push_back({object.source, outcome.name});
      index_[key] = store.size();
      store.push_back(std::move(admitted).value());
    }
    if constexpr (std::is_same_v<T, ResourceQuota>) {
      std::vector<const Pod*> pods;
      for (const Pod& pod : state_.pods) pods.push_back(&pod);
      quotas_.ApplyQuota(store[index_[key]], pods);
    }
  }

  // A step's apply of `value` (replaced by the admitted object): a create, or an update of the
  // latest version (an earlier step's, else the input's). A PriorityClass joins the classes later
  // objects resolve against.
  template <typename T>
  void AdmitTimed(T& value, const Object& object, AdmissionOutcome& outcome, Operation& operation) {
    ObjectMeta& meta = value.meta;
    outcome.name = FillInMeta(value, object, objects_seen_ + timed_latest_.size());
    const Key key{object.kind, meta.namespace_, meta.name};
    const T* old = nullptr;
    if (auto latest = timed_latest_.find(key); latest != timed_latest_.end()) {
      old = &std::get<T>(latest->second);
    } else if (auto existing = index_.find(key); existing != index_.end() && !deleted_.contains(key)) {
      old = &Store(static_cast<const T*>(nullptr))[existing->second];
    }
    deleted_.erase(key);
    operation = old == nullptr ? Operation::kCreate : Operation::kUpdate;
    outcome.operation = operation;
    pending_note_.reset();
    Expected<T> admitted = Run(value, old);
    pending_note_.reset();
    if (!admitted.ok()) {
      outcome.message = admitted.error().message;
      return;
    }
    outcome.admitted = true;
    NotePriority(*admitted, outcome);
    value = std::move(admitted).value();
    if constexpr (std::is_same_v<T, PriorityClass>) {
      if (auto existing = index_.find(key); existing != index_.end()) {
        state_.priority_classes[existing->second] = value;
      } else {
        index_[key] = state_.priority_classes.size();
        state_.priority_classes.push_back(value);
      }
    }
    timed_latest_.insert_or_assign(key, decltype(Object::value){value});
  }

  // A PodGroup or CompositePodGroup whose API the gates leave off: the API server would not
  // serve it; kpsim keeps it in the state, and the engine schedules its pods one by one.
  void WarnIfGroupApiOff(const PodGroup& group, const Object& object,
                         const AdmissionOutcome& outcome) {
    std::string_view gate;
    if (!gates_.generic_workload) {
      gate = "GenericWorkload";
    } else if (group.composite && !gates_.composite_pod_group) {
      gate = "CompositePodGroup";
    } else {
      return;
    }
    AddWarning(object.source, fmt::format("{} {}", ObjectKindName(object.kind), outcome.name),
               "GateOff",
               fmt::format("the {} gate is off, so the API server would not serve this kind; "
                           "kpsim ignores the group and schedules its pods one by one (turn it "
                           "on with --feature-gates={}=true)",
                           gate, gate));
  }

  // Where an admitted pod came from (for warnings about the final state).
  struct PodOrigin {
    SourceRef source;
    std::string name;
  };

  void AddWarning(const SourceRef& source, std::string object, std::string code,
                  std::string message) {
    Warning w;
    w.source = source;
    w.object = std::move(object);
    w.code = std::move(code);
    w.message = std::move(message);
    warnings_.push_back(std::move(w));
  }

  // Warnings about the admitted state as a whole: what kpsim does not model that the pods use,
  // pods bound to nodes that are not in the input, pod groups whose API is off, an empty input.
  void WarnAboutState() {
    if (objects_seen_ == 0) {
      AddWarning({}, "", "NoObjects", "the input holds no object kpsim models");
    } else if (state_.nodes.empty() && !state_.pods.empty()) {
      AddWarning({}, "", "NoNodes",
                 fmt::format("{} pods and no nodes: every pending pod stays pending (\"no nodes "
                             "available to schedule pods\")",
                             state_.pods.size()));
    }
    std::set<std::string_view> node_names;
    for (const Node& node : state_.nodes) node_names.insert(node.meta.name);
    std::array<int, kUnmodeledFieldCount> uses{};
    std::array<const PodOrigin*, kUnmodeledFieldCount> first{};
    for (std::size_t pod_idx = 0; pod_idx < state_.pods.size(); ++pod_idx) {
      const Pod& pod = state_.pods[pod_idx];
      const PodOrigin& origin = pod_origins_[pod_idx];
      for (int field = 0; field < kUnmodeledFieldCount; ++field) {
        if (!pod.spec.Uses(static_cast<UnmodeledField>(field))) continue;
        if (uses[static_cast<std::size_t>(field)]++ == 0) {
          first[static_cast<std::size_t>(field)] = &origin;
        }
      }
      if (!pod.spec.node_name.empty() && !node_names.contains(pod.spec.node_name)) {
        AddWarning(origin.source, "Pod " + origin.name, "BoundToMissingNode",
                   BoundToMissingNodeWarning(pod.spec.node_name, false));
      }
    }
    for (int field = 0; field < kUnmodeledFieldCount; ++field) {
      const int count = uses[static_cast<std::size_t>(field)];
      if (count == 0) continue;
      const auto f = static_cast<UnmodeledField>(field);
      const PodOrigin& origin = *first[static_cast<std::size_t>(field)];
      const std::string consequence = fmt::format(
          "kpsim does not run {}, so they are scheduled as if the field were absent",
          UnmodeledFieldPlugin(f));
      AddWarning(origin.source, "Pod " + origin.name, "NotModelled",
                 count == 1 ? fmt::format("uses {}: {}", UnmodeledFieldName(f), consequence)
                            : fmt::format("the first of {} pods that use {}: {}", count,
                                          UnmodeledFieldName(f), consequence));
    }
  }

  // Turns the note `WithExistingObjectRule` left into a warning on the outcome's object.
  template <typename T>
  void NoteExistingObject(const Object& object, AdmissionOutcome& outcome,
                          const Expected<T>& admitted) {
    if (!pending_note_) return;
    std::int32_t priority = 0;
    if constexpr (std::is_same_v<T, Pod>) {
      priority = std::get<Pod>(object.value).spec.priority.value_or(0);
    } else if constexpr (std::is_same_v<T, PodGroup>) {
      priority = std::get<PodGroup>(object.value).priority.value_or(0);
    }
    Warning w;
    w.source = object.source;
    w.object = fmt::format("{} {}", ObjectKindName(object.kind), outcome.name);
    if (pending_note_->kept && admitted.ok()) {
      outcome.kept_against_admission = true;
      w.code = "KeptAgainstAdmission";
      w.message = fmt::format(
          "kept as an existing object with spec.priority {}; admission would refuse it on "
          "create: {}",
          priority, pending_note_->admission_message);
    } else {
      w.code = "ExistingObjectInSimulate";
      w.message = fmt::format(
          "simulate and explain take it as an existing object with spec.priority {} (an "
          "object the API server admitted earlier keeps its priority)",
          priority);
    }
    warnings_.push_back(std::move(w));
    pending_note_.reset();
  }

  struct PendingNote {
    std::string admission_message;
    bool kept = false;
  };

  const FeatureGates& gates_;
  AdmissionMode mode_;
  std::optional<PendingNote> pending_note_;
  std::vector<Warning> warnings_;
  std::vector<PodOrigin> pod_origins_;  // parallel to `state_.pods`
  std::size_t objects_seen_ = 0;
  ClusterState state_;
  std::vector<AdmissionOutcome> outcomes_;
  std::map<Key, std::size_t> index_;  // admitted objects -> position in their `state_` vector
  // What Scenario steps applied, latest version by key (deleted ones erased).
  std::map<Key, decltype(Object::value)> timed_latest_;
  bool timed_ = false;  // admitting Scenario steps
  QuotaTracker quotas_;  // ResourceQuota usage of the pods admitted so far
  std::set<Key> deleted_;  // input objects a step deleted
};

}  // namespace

AdmissionResult Admit(const std::vector<Object>& objects, const FeatureGates& gates,
                      AdmissionMode mode, const std::vector<Scenario>& scenarios) {
  Admitter admitter(gates, mode);
  admitter.ConfigureQuota(objects);
  for (std::size_t position = 0; position < objects.size(); ++position) {
    admitter.AdmitOne(objects[position], position);
  }
  admitter.AdmitSteps(scenarios);
  return std::move(admitter).Finish();
}

}  // namespace kpsim

namespace kpsim::admission {

std::string GenerateName(std::string_view base, std::uint64_t seed) {
  // Mirrors names.SimpleNameGenerator: maxNameLength 63, randomLength 5.
  constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  constexpr std::size_t kMaxGeneratedNameLength = 63 - 5;
  std::string name(base.substr(0, std::min(base.size(), kMaxGeneratedNameLength)));
  // A splitmix64 stream seeded by `seed`: deterministic, well mixed.
  std::uint64_t state = seed;
  for (int i = 0; i < 5; ++i) {
    state += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    name += kAlphabet[z % kAlphabet.size()];
  }
  return name;
}

std::vector<StepRef> StepsInTimeOrder(const std::vector<Scenario>& scenarios) {
  std::vector<StepRef> order;
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    for (std::size_t j = 0; j < scenarios[i].steps.size(); ++j) {
      order.push_back(StepRef{scenarios[i].steps[j].at_us, i, j});
    }
  }
  std::stable_sort(order.begin(), order.end(), [](const StepRef& a, const StepRef& b) { return a.at_us < b.at_us; });
  return order;
}

}  // namespace kpsim::admission
