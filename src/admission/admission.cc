// `Admit`: objects in input order, each a create or an update of what came before, like
// successive `kubectl apply` against one API server.

#include "kpsim/admission.h"

#include <algorithm>
#include <cstdint>
#include <map>
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

constexpr std::string_view kDefaultNamespace = "default";

// FNV-1a, 64 bit: a stable hash (std::hash is not specified across implementations).
std::uint64_t Fnv1a(std::string_view data, std::uint64_t h = 14695981039346656037ULL) {
  for (const char c : data) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

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
  }
  return false;
}

// Holds the state built so far and admits one object at a time.
class Admitter {
 public:
  explicit Admitter(const FeatureGates& gates) : gates_(gates) {
    for (PriorityClass& pc : admission::BuiltInPriorityClasses()) {
      index_[Key{ObjectKind::kPriorityClass, "", pc.meta.name}] = state_.priority_classes.size();
      state_.priority_classes.push_back(std::move(pc));
    }
  }

  void AdmitOne(const Object& object, std::size_t position) {
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

  AdmissionResult Finish() && {
    AdmissionResult result;
    result.state = std::move(state_);
    result.outcomes = std::move(outcomes_);
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

  Expected<PriorityClass> Run(PriorityClass v, const PriorityClass* old) {
    return AdmitPriorityClass(std::move(v), old, state_.priority_classes);
  }
  Expected<Pod> Run(Pod v, const Pod* old) {
    return AdmitPod(std::move(v), old, state_.priority_classes);
  }
  Expected<PodGroup> Run(PodGroup v, const PodGroup* old) {
    return AdmitPodGroup(std::move(v), old, state_.priority_classes, gates_);
  }
  Expected<PodDisruptionBudget> Run(PodDisruptionBudget v, const PodDisruptionBudget*) {
    return AdmitPodDisruptionBudget(std::move(v));
  }
  Expected<Node> Run(Node v, const Node*) { return AdmitNode(std::move(v)); }
  Expected<Namespace> Run(Namespace v, const Namespace*) { return AdmitNamespace(std::move(v)); }

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

  template <typename T>
  void AdmitTyped(T value, const Object& object, std::size_t position,
                  AdmissionOutcome& outcome) {
    // 1) What the API server fills in before anything else: the namespace, a generated name.
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
    outcome.name = namespaced ? meta.namespace_ + "/" + meta.name : meta.name;

    // 2) Create or update.
    const Key key{object.kind, meta.namespace_, meta.name};
    const auto existing = meta.name.empty() ? index_.end() : index_.find(key);
    std::vector<T>& store = Store(static_cast<const T*>(nullptr));
    const T* old = existing == index_.end() ? nullptr : &store[existing->second];
    outcome.operation = old == nullptr ? Operation::kCreate : Operation::kUpdate;

    // 3) Admit, then store.
    Expected<T> admitted = Run(std::move(value), old);
    if (!admitted.ok()) {
      outcome.message = admitted.error().message;
      return;
    }
    outcome.admitted = true;
    if constexpr (std::is_same_v<T, Pod>) {
      outcome.priority = admitted->spec.priority;
      outcome.priority_class_name = admitted->spec.priority_class_name;
      outcome.preemption_policy = admitted->spec.preemption_policy;
    } else if constexpr (std::is_same_v<T, PodGroup>) {
      outcome.priority = admitted->priority;
      outcome.priority_class_name = admitted->priority_class_name;
      outcome.preemption_policy = admitted->preemption_policy;
    }
    if (old != nullptr) {
      store[existing->second] = std::move(admitted).value();
    } else {
      index_[key] = store.size();
      store.push_back(std::move(admitted).value());
    }
  }

  const FeatureGates& gates_;
  ClusterState state_;
  std::vector<AdmissionOutcome> outcomes_;
  std::map<Key, std::size_t> index_;  // admitted objects -> position in their `state_` vector
};

}  // namespace

AdmissionResult Admit(const std::vector<Object>& objects, const FeatureGates& gates) {
  Admitter admitter(gates);
  for (std::size_t position = 0; position < objects.size(); ++position) {
    admitter.AdmitOne(objects[position], position);
  }
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

}  // namespace kpsim::admission
