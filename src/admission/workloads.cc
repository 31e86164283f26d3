// `ExpandWorkloads`: Deployments, ReplicaSets, StatefulSets, Jobs and DaemonSets into the pods
// their controllers create, before admission (so the pods go through the Priority admission
// plugin like any created pod).

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "admission/admitters.h"
#include "kpsim/admission.h"

namespace kpsim {
namespace {

constexpr std::string_view kDefaultNamespace = "default";
// Bounds on what an input can make kpsim create (a `replicas: 2000000000` must not exhaust memory).
constexpr std::size_t kMaxPodsPerWorkload = 100000;
constexpr std::size_t kMaxCreatedPods = 500000;
// Kubernetes' name-suffix alphabet (k8s.io/apimachinery/pkg/util/rand), as the engine uses.
constexpr std::string_view kSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";


std::uint32_t Fnv1a32(std::string_view data) {
  std::uint32_t h = 2166136261U;
  for (const char c : data) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619U;
  }
  return h;
}

// Mirrors `rand.SafeEncodeString(fmt.Sprint(hash))`, the shape of pod-template-hash and
// controller-revision-hash values.
std::string SafeEncode(std::uint32_t hash) {
  std::string out;
  for (const char c : std::to_string(hash)) {
    out += kSuffixAlphabet[static_cast<unsigned char>(c) % kSuffixAlphabet.size()];
  }
  return out;
}

// SplitMix64: a small seeded generator for name suffixes.
class SuffixGenerator {
 public:
  explicit SuffixGenerator(std::uint64_t seed) : state_(seed) {}
  std::string Next() {
    std::string s;
    for (int i = 0; i < 5; ++i) s += kSuffixAlphabet[Step() % kSuffixAlphabet.size()];
    return s;
  }

 private:
  std::uint64_t Step() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::uint64_t state_;
};

std::string EffectiveNamespace(const ObjectMeta& meta) {
  return meta.namespace_.empty() ? std::string(kDefaultNamespace) : meta.namespace_;
}

// The ownerReference that names the pod's controller: the one with `controller: true`, or the
// first when none is marked (hand-written manifests often omit the flag).
const OwnerReference* ControllerRef(const ObjectMeta& meta) {
  for (const OwnerReference& ref : meta.owner_references) {
    if (ref.controller) return &ref;
  }
  return meta.owner_references.empty() ? nullptr : &meta.owner_references.front();
}

bool RefersTo(const OwnerReference& ref, std::string_view kind, const ObjectMeta& owner) {
  if (ref.kind != kind || ref.name != owner.name) return false;
  return ref.uid.empty() || owner.uid.empty() || ref.uid == owner.uid;
}

// Pods the controllers count as active (`controller.FilterActivePods`).
bool IsActive(const Pod& pod) {
  return !pod.meta.deletion_timestamp && pod.status.phase != "Succeeded" &&
         pod.status.phase != "Failed";
}

void SetLabel(Labels& labels, std::string key, std::string value) {
  auto it = std::lower_bound(labels.begin(), labels.end(), key,
                             [](const auto& entry, const std::string& k) { return entry.first < k; });
  if (it != labels.end() && it->first == key) {
    it->second = std::move(value);
  } else {
    labels.emplace(it, std::move(key), std::move(value));
  }
}

// A stable digest of what a template decides for scheduling (kpsim's stand-in for
// `controller.ComputeHash` over the whole PodTemplateSpec).
std::uint32_t TemplateHash(const Workload& w) {
  std::string text = fmt::format("{}/{}/{}|", WorkloadKindName(w.kind), EffectiveNamespace(w.meta),
                                 w.meta.name);
  for (const auto& [k, v] : w.pod_template.meta.labels) text += fmt::format("{}={},", k, v);
  const PodSpec& s = w.pod_template.spec;
  text += fmt::format("|{}|{}|{}|{}|{}", s.priority_class_name, s.scheduler_name, s.requests.milli_cpu,
                      s.requests.memory, s.requests.ephemeral_storage);
  for (const auto& [name, value] : s.requests.scalar) text += fmt::format("|{}={}", name, value);
  for (const auto& [k, v] : s.node_selector) text += fmt::format("|ns:{}={}", k, v);
  return Fnv1a32(text);
}

// Mirrors `AddOrUpdateTolerationInPodSpec` (pkg/apis/core/v1/helper): a toleration with the same
// key, operator, value and effect is replaced, else the new one is appended.
void AddOrUpdateToleration(std::vector<Toleration>& tolerations, const Toleration& t) {
  for (Toleration& existing : tolerations) {
    if (existing.key == t.key && existing.op == t.op && existing.value == t.value &&
        existing.effect == t.effect) {
      existing = t;
      return;
    }
  }
  tolerations.push_back(t);
}

// Mirrors `AddOrUpdateDaemonPodTolerations` (pkg/controller/daemon/util/daemonset_util.go).
void AddDaemonPodTolerations(PodSpec& spec, bool host_network) {
  auto exists = [](std::string key, TaintEffect effect) {
    Toleration t;
    t.key = std::move(key);
    t.op = TolerationOperator::kExists;
    t.effect = effect;
    return t;
  };
  AddOrUpdateToleration(spec.tolerations, exists("node.kubernetes.io/not-ready", TaintEffect::kNoExecute));
  AddOrUpdateToleration(spec.tolerations, exists("node.kubernetes.io/unreachable", TaintEffect::kNoExecute));
  AddOrUpdateToleration(spec.tolerations, exists("node.kubernetes.io/disk-pressure", TaintEffect::kNoSchedule));
  AddOrUpdateToleration(spec.tolerations, exists("node.kubernetes.io/memory-pressure", TaintEffect::kNoSchedule));
  AddOrUpdateToleration(spec.tolerations, exists("node.kubernetes.io/pid-pressure", TaintEffect::kNoSchedule));
  AddOrUpdateToleration(spec.tolerations, exists("node.kubernetes.io/unschedulable", TaintEffect::kNoSchedule));
  if (host_network) {
    AddOrUpdateToleration(spec.tolerations,
                          exists("node.kubernetes.io/network-unavailable", TaintEffect::kNoSchedule));
  }
}

// Mirrors `NodeShouldRunDaemonPod`'s shouldRun (pkg/controller/daemon/daemon_controller.go) for a
// pod built by `NewPod` (template spec plus the daemon tolerations): the template's nodeName, its
// required node affinity (`nodeaffinity.GetRequiredNodeAffinity`: nodeSelector and required
// terms) and every NoSchedule/NoExecute taint tolerated.
bool NodeShouldRunDaemonPod(const Node& node, const PodSpec& daemon_spec) {
  if (!daemon_spec.node_name.empty() && daemon_spec.node_name != node.meta.name) return false;
  for (const auto& [key, value] : daemon_spec.node_selector) {
    const std::string* got = FindLabel(node.meta.labels, key);
    if (got == nullptr || *got != value) return false;
  }
  if (daemon_spec.affinity.node_affinity_required &&
      !daemon_spec.affinity.node_affinity_required->Matches(node.meta.name, node.meta.labels)) {
    return false;
  }
  for (const Taint& taint : node.taints) {
    if (taint.effect != TaintEffect::kNoSchedule && taint.effect != TaintEffect::kNoExecute) continue;
    const bool tolerated = std::any_of(daemon_spec.tolerations.begin(), daemon_spec.tolerations.end(),
                                       [&](const Toleration& t) { return t.Tolerates(taint); });
    if (!tolerated) return false;
  }
  return true;
}

// Mirrors `GetTargetNodeName`: a daemon pod's node is its nodeName, else the single
// `metadata.name In [node]` matchFields value of its required node affinity.
std::string TargetNodeName(const Pod& pod) {
  if (!pod.spec.node_name.empty()) return pod.spec.node_name;
  if (!pod.spec.affinity.node_affinity_required) return {};
  for (const NodeSelectorTerm& term : pod.spec.affinity.node_affinity_required->terms) {
    for (const NodeSelectorRequirement& req : term.match_fields) {
      if (req.key == "metadata.name" && req.op == NodeSelectorOperator::kIn && req.values.size() == 1) {
        return req.values.front();
      }
    }
  }
  return {};
}

class Expander {
 public:
  Expander(const std::vector<Object>& objects, std::uint64_t seed) : objects_(objects), seed_(seed) {
    std::map<std::string, std::size_t> node_index;
    for (const Object& object : objects) {
      if (const Pod* pod = std::get_if<Pod>(&object.value); pod && object.kind == ObjectKind::kPod) {
        const std::string key = EffectiveNamespace(pod->meta) + "/" + pod->meta.name;
        if (taken_.insert(key).second) AddPod(*pod);
      } else if (const Node* node = std::get_if<Node>(&object.value);
                 node && object.kind == ObjectKind::kNode) {
        // A later definition of a node updates it.
        auto [it, inserted] = node_index.emplace(node->meta.name, nodes_.size());
        if (inserted) {
          nodes_.push_back(*node);
        } else {
          nodes_[it->second] = *node;
        }
      }
    }
  }

  WorkloadExpansion Run(const std::vector<Workload>& workloads) {
    WorkloadExpansion out;
    // The last definition of a workload is the one its controller reconciles.
    std::vector<bool> superseded(workloads.size(), false);
    {
      std::map<std::tuple<WorkloadKind, std::string, std::string>, std::size_t> last;
      for (std::size_t i = 0; i < workloads.size(); ++i) {
        const Workload& w = workloads[i];
        if (w.meta.name.empty()) continue;
        auto [it, inserted] = last.emplace(std::make_tuple(w.kind, EffectiveNamespace(w.meta), w.meta.name), i);
        if (!inserted) {
          superseded[it->second] = true;
          const Workload& old = workloads[it->second];
          out.warnings.push_back(Warning{
              old.source, fmt::format("{} {}", WorkloadKindName(old.kind), old.DisplayName()),
              "WorkloadUpdated",
              fmt::format("defined again at {}; only the last definition is expanded",
                          w.source.ToString())});
          it->second = i;
        }
      }
    }
    // ReplicaSets, StatefulSets, Jobs and DaemonSets first, so that a Deployment counts the pods
    // its own ReplicaSets (when given) just created.
    std::vector<std::vector<Object>> created(workloads.size());
    std::vector<std::optional<WorkloadOutcome>> outcomes(workloads.size());
    std::vector<std::optional<PodController>> controllers(workloads.size());
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i = 0; i < workloads.size(); ++i) {
        if (superseded[i]) continue;
        const bool deployment = workloads[i].kind == WorkloadKind::kDeployment;
        if (deployment != (pass == 1)) continue;
        WorkloadOutcome outcome;
        controller_.reset();
        created[i] = Expand(workloads[i], workloads, outcome, out.warnings);
        outcomes[i] = std::move(outcome);
        controllers[i] = std::move(controller_);
      }
    }
    // The controllers selecting pods, in input order, once each: a ReplicaSet given in the input
    // wins over the one a Deployment's expansion stands for under the same name.
    {
      std::set<std::tuple<std::string, std::string, std::string>> given;
      for (std::size_t i = 0; i < workloads.size(); ++i) {
        const std::optional<PodController>& c = controllers[i];
        if (c && workloads[i].kind != WorkloadKind::kDeployment) given.emplace(c->kind, c->namespace_, c->name);
      }
      std::set<std::tuple<std::string, std::string, std::string>> seen;
      for (std::size_t i = 0; i < workloads.size(); ++i) {
        std::optional<PodController>& c = controllers[i];
        if (!c) continue;
        const auto key = std::make_tuple(c->kind, c->namespace_, c->name);
        if (workloads[i].kind == WorkloadKind::kDeployment && given.count(key) > 0) continue;
        if (seen.insert(key).second) out.controllers.push_back(std::move(*c));
      }
    }
    // Insert each workload's pods at its place in the input.
    std::vector<std::size_t> order(workloads.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return workloads[a].position < workloads[b].position;
    });
    out.objects.reserve(objects_.size());
    std::size_t next = 0;
    for (std::size_t pos = 0; pos <= objects_.size(); ++pos) {
      while (next < order.size() && workloads[order[next]].position <= pos) {
        for (Object& o : created[order[next]]) out.objects.push_back(std::move(o));
        ++next;
      }
      if (pos < objects_.size()) out.objects.push_back(objects_[pos]);
    }
    for (std::size_t i = 0; i < workloads.size(); ++i) {
      if (outcomes[i]) out.outcomes.push_back(std::move(*outcomes[i]));
    }
    return out;
  }

 private:
  std::vector<Object> Expand(const Workload& w, const std::vector<Workload>& all, WorkloadOutcome& outcome,
                             std::vector<Warning>& warnings) {
    outcome.kind = w.kind;
    outcome.source = w.source;
    const std::string ns = EffectiveNamespace(w.meta);
    Workload named = w;
    SuffixGenerator rng(seed_ ^ admission::Fnv1a(fmt::format("{}/{}/{}/{}", WorkloadKindName(w.kind), ns,
                                                    w.meta.name, w.meta.generate_name)));
    if (named.meta.name.empty()) named.meta.name = w.meta.generate_name + rng.Next();
    outcome.name = ns + "/" + named.meta.name;
    outcome.controller = fmt::format("{} {}", WorkloadKindName(w.kind), outcome.name);
    capped_ = false;
    std::vector<Object> out;
    switch (w.kind) {
      case WorkloadKind::kReplicaSet:
        out = ExpandReplicaSet(named, ns, rng, outcome);
        controller_ = PodController{"ReplicaSet", ns, named.meta.name, w.selector};
        break;
      case WorkloadKind::kDeployment:
        out = ExpandDeployment(named, ns, all, rng, outcome);
        break;
      case WorkloadKind::kStatefulSet:
        out = ExpandStatefulSet(named, ns, outcome, warnings);
        controller_ = PodController{"StatefulSet", ns, named.meta.name, w.selector};
        break;
      case WorkloadKind::kJob:
        out = ExpandJob(named, ns, rng, outcome);
        break;
      case WorkloadKind::kDaemonSet:
        out = ExpandDaemonSet(named, ns, rng, outcome);
        break;
    }
    if (capped_) {
      warnings.push_back(Warning{
          w.source, fmt::format("{} {}", WorkloadKindName(w.kind), outcome.name), "WorkloadCapped",
          fmt::format("only {} of its pods were created: kpsim creates at most {} pods per workload and "
                      "{} in all",
                      outcome.created.size(), kMaxPodsPerWorkload, kMaxCreatedPods)});
    }
    return out;
  }

  // False (and the workload marked capped) once no more pods may be created.
  bool Room(const WorkloadOutcome& outcome) {
    if (outcome.created.size() < kMaxPodsPerWorkload && created_total_ < kMaxCreatedPods) return true;
    capped_ = true;
    return false;
  }

  // Mirrors `controller.GetPodFromTemplate`: the template's labels and spec, the controller's
  // namespace, a controller ownerReference and `generateName: <prefix>`.
  Pod FromTemplate(const Workload& w, const std::string& ns, std::string_view owner_kind,
                   std::string_view owner_api, const std::string& owner_name,
                   const std::string& owner_uid) const {
    Pod pod;
    pod.meta.labels = w.pod_template.meta.labels;
    pod.meta.namespace_ = ns;
    pod.meta.generate_name = owner_name + "-";
    pod.meta.owner_references.push_back(OwnerReference{std::string(owner_api), std::string(owner_kind),
                                                       owner_name, owner_uid, true});
    pod.meta.creation_timestamp = w.meta.creation_timestamp;
    pod.spec = w.pod_template.spec;
    pod.status.phase = "Pending";
    return pod;
  }

  Object Emit(Pod pod, const Workload& w, WorkloadOutcome& outcome) {
    const std::string key = pod.meta.namespace_ + "/" + pod.meta.name;
    taken_.insert(key);
    ++created_total_;
    outcome.created.push_back(key);
    AddPod(pod);
    Object object;
    object.kind = ObjectKind::kPod;
    object.source = w.source;
    object.value = std::move(pod);
    return object;
  }

  std::string UniqueName(const std::string& ns, const std::string& prefix, SuffixGenerator& rng) const {
    for (;;) {
      std::string name = prefix + rng.Next();
      if (taken_.count(ns + "/" + name) == 0) return name;
    }
  }

  static std::string OwnerKey(const std::string& ns, std::string_view kind, std::string_view name) {
    return fmt::format("{}\x1f{}\x1f{}", ns, kind, name);
  }

  // Keeps `pod` and indexes it by its controller reference.
  void AddPod(const Pod& pod) {
    pods_.push_back(pod);
    if (const OwnerReference* ref = ControllerRef(pod.meta)) {
      by_owner_[OwnerKey(EffectiveNamespace(pod.meta), ref->kind, ref->name)].emplace_back(pods_.size() - 1,
                                                                                         &pods_.back());
    }
  }

  // A controller name to look pods up by: exactly, or (`prefix`) every name starting with it.
  struct OwnerName {
    std::string name;
    bool prefix = false;
  };

  // Active pods in namespace `ns` whose controller reference is of `kind`, named as one of
  // `names` says, and satisfies `owned`; in input order, once each.
  template <typename F>
  std::vector<const Pod*> OwnedPods(const std::string& ns, std::string_view kind,
                                    const std::vector<OwnerName>& names, F&& owned) const {
    std::vector<std::pair<std::size_t, const Pod*>> found;
    for (const OwnerName& n : names) {
      const std::string key = OwnerKey(ns, kind, n.name);
      for (auto it = by_owner_.lower_bound(key);
           it != by_owner_.end() && (n.prefix ? it->first.starts_with(key) : it->first == key); ++it) {
        for (const auto& [seq, pod] : it->second) {
          if (IsActive(*pod) && owned(*ControllerRef(pod->meta), *pod)) found.emplace_back(seq, pod);
        }
      }
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    std::vector<const Pod*> out;
    out.reserve(found.size());
    for (const auto& [seq, pod] : found) out.push_back(pod);
    return out;
  }

  // The ReplicaSet controller (`manageReplicas`): replicas minus active owned pods.
  std::vector<Object> ExpandReplicaSet(const Workload& w, const std::string& ns, SuffixGenerator& rng,
                                       WorkloadOutcome& outcome) {
    outcome.desired = w.replicas.value_or(1);
    outcome.existing = static_cast<int>(
        OwnedPods(ns, "ReplicaSet", {{w.meta.name, false}},
                  [&](const OwnerReference& ref, const Pod&) { return RefersTo(ref, "ReplicaSet", w.meta); })
            .size());
    const std::string hash = [&] {
      const std::string* label = FindLabel(w.pod_template.meta.labels, "pod-template-hash");
      return label != nullptr ? *label : std::string();
    }();
    std::vector<Object> out;
    for (int i = outcome.existing; i < outcome.desired && Room(outcome); ++i) {
      Pod pod = FromTemplate(w, ns, "ReplicaSet", "apps/v1", w.meta.name, w.meta.uid);
      if (!hash.empty()) SetLabel(pod.meta.labels, "pod-template-hash", hash);
      pod.meta.name = UniqueName(ns, pod.meta.generate_name, rng);
      out.push_back(Emit(std::move(pod), w, outcome));
    }
    return out;
  }

  // The Deployment controller creates one ReplicaSet `<name>-<pod-template-hash>` that owns the
  // pods; pods of the Deployment's ReplicaSets already in the input count.
  std::vector<Object> ExpandDeployment(const Workload& w, const std::string& ns, const std::vector<Workload>& all,
                                       SuffixGenerator& rng, WorkloadOutcome& outcome) {
    // Its ReplicaSets given in the input (owner chain through the ReplicaSet object).
    std::set<std::string> owned_sets;
    std::string newest_set;
    for (const Workload& rs : all) {
      if (rs.kind != WorkloadKind::kReplicaSet || EffectiveNamespace(rs.meta) != ns) continue;
      const OwnerReference* ref = ControllerRef(rs.meta);
      if (ref != nullptr && RefersTo(*ref, "Deployment", w.meta)) {
        owned_sets.insert(rs.meta.name);
        newest_set = rs.meta.name;
      }
    }
    // Or a ReplicaSet named `<deployment>-<hash>` whose pods carry that pod-template-hash and match
    // the Deployment's selector (a pods-only snapshot).
    const std::string prefix = w.meta.name + "-";
    std::string existing_set;
    std::vector<OwnerName> names{{prefix, true}};
    for (const std::string& set : owned_sets) names.push_back({set, false});
    const auto existing = OwnedPods(ns, "ReplicaSet", names, [&](const OwnerReference& ref, const Pod& pod) {
      if (owned_sets.count(ref.name) > 0) return true;
      if (!ref.name.starts_with(prefix)) return false;
      const std::string suffix = ref.name.substr(prefix.size());
      const std::string* hash = FindLabel(pod.meta.labels, "pod-template-hash");
      if (hash == nullptr || *hash != suffix) return false;
      return !w.selector || w.selector->Matches(pod.meta.labels);
    });
    for (const Pod* pod : existing) {
      const std::string& set = ControllerRef(pod->meta)->name;
      if (owned_sets.count(set) == 0) {
        existing_set = set;
        break;
      }
    }
    outcome.desired = w.replicas.value_or(1);
    outcome.existing = static_cast<int>(existing.size());
    std::string set_name;
    std::string hash;
    if (!newest_set.empty()) {
      set_name = newest_set;
    } else if (!existing_set.empty()) {
      set_name = existing_set;
    } else {
      hash = SafeEncode(TemplateHash(w));
      set_name = prefix + hash;
    }
    if (hash.empty()) {
      hash = set_name.size() > prefix.size() && set_name.starts_with(prefix) ? set_name.substr(prefix.size())
                                                                               : SafeEncode(TemplateHash(w));
    }
    outcome.controller = fmt::format("ReplicaSet {}/{}", ns, set_name);
    // The ReplicaSet's selector: the Deployment's plus its pod-template-hash (the deployment
    // controller's `getNewReplicaSet`); a ReplicaSet from the input brings its own.
    if (w.selector && newest_set.empty()) {
      controller_ = PodController{"ReplicaSet", ns, set_name, w.selector};
      SetLabel(controller_->selector->match_labels, "pod-template-hash", hash);
    }
    std::vector<Object> out;
    for (int i = outcome.existing; i < outcome.desired && Room(outcome); ++i) {
      Pod pod = FromTemplate(w, ns, "ReplicaSet", "apps/v1", set_name, "");
      SetLabel(pod.meta.labels, "pod-template-hash", hash);
      pod.meta.name = UniqueName(ns, pod.meta.generate_name, rng);
      out.push_back(Emit(std::move(pod), w, outcome));
    }
    return out;
  }

  // The StatefulSet controller: pod `<name>-<ordinal>` for each ordinal in
  // [start, start + replicas) that has no pod yet.
  std::vector<Object> ExpandStatefulSet(const Workload& w, const std::string& ns, WorkloadOutcome& outcome,
                                        std::vector<Warning>& warnings) {
    outcome.desired = w.replicas.value_or(1);
    outcome.existing = static_cast<int>(
        OwnedPods(ns, "StatefulSet", {{w.meta.name, false}},
                  [&](const OwnerReference& ref, const Pod&) { return RefersTo(ref, "StatefulSet", w.meta); })
            .size());
    const std::string revision = w.meta.name + "-" + SafeEncode(TemplateHash(w));
    std::vector<Object> out;
    int missing = 0;
    for (std::int64_t ordinal = w.ordinals_start;
         ordinal < static_cast<std::int64_t>(w.ordinals_start) + outcome.desired && Room(outcome); ++ordinal) {
      const std::string name = fmt::format("{}-{}", w.meta.name, ordinal);
      if (taken_.count(ns + "/" + name) > 0) continue;
      ++missing;
      Pod pod = FromTemplate(w, ns, "StatefulSet", "apps/v1", w.meta.name, w.meta.uid);
      pod.meta.generate_name.clear();
      pod.meta.name = name;
      SetLabel(pod.meta.labels, "statefulset.kubernetes.io/pod-name", name);
      SetLabel(pod.meta.labels, "apps.kubernetes.io/pod-index", std::to_string(ordinal));
      SetLabel(pod.meta.labels, "controller-revision-hash", revision);
      out.push_back(Emit(std::move(pod), w, outcome));
    }
    if (missing > 1 && w.pod_management_policy != "Parallel") {
      warnings.push_back(Warning{
          w.source, fmt::format("StatefulSet {}", outcome.name), "NotModelled",
          fmt::format("podManagementPolicy OrderedReady is not modelled: its {} missing pods are created "
                      "at once, as with Parallel (the controller would create each after the previous "
                      "one is Running and Ready)",
                      missing)});
    }
    return out;
  }

  // Mirrors the Job controller's `manageJob`: active pods wanted = parallelism (default 1) when
  // completions is unset, else min(parallelism, completions - succeeded); a suspended Job wants 0.
  std::vector<Object> ExpandJob(const Workload& w, const std::string& ns, SuffixGenerator& rng,
                                WorkloadOutcome& outcome) {
    const std::int32_t parallelism = w.parallelism.value_or(1);
    // API defaulting: with neither set, both are 1.
    std::optional<std::int32_t> completions = w.completions;
    if (!completions && !w.parallelism) completions = 1;
    std::int64_t want = parallelism;
    if (completions) {
      want = std::min<std::int64_t>(parallelism, std::max<std::int64_t>(0, std::int64_t{*completions} - w.succeeded));
    } else if (w.succeeded > 0) {
      want = 0;  // "leave whatever is running, running"
    }
    if (w.suspend) want = 0;
    const auto existing =
        OwnedPods(ns, "Job", {{w.meta.name, false}},
                  [&](const OwnerReference& ref, const Pod&) { return RefersTo(ref, "Job", w.meta); });
    outcome.desired = static_cast<int>(want);
    outcome.existing = static_cast<int>(existing.size());
    std::set<std::int64_t> taken_indexes;
    for (const Pod* pod : existing) {
      if (const std::string* index = FindLabel(pod->meta.labels, "batch.kubernetes.io/job-completion-index")) {
        taken_indexes.insert(std::atoll(index->c_str()));
      }
    }
    std::vector<Object> out;
    std::int64_t next_index = 0;
    for (std::int64_t i = outcome.existing; i < want && Room(outcome); ++i) {
      Pod pod = FromTemplate(w, ns, "Job", "batch/v1", w.meta.name, w.meta.uid);
      SetLabel(pod.meta.labels, "batch.kubernetes.io/job-name", w.meta.name);
      SetLabel(pod.meta.labels, "job-name", w.meta.name);
      if (!w.meta.uid.empty()) {
        SetLabel(pod.meta.labels, "batch.kubernetes.io/controller-uid", w.meta.uid);
        SetLabel(pod.meta.labels, "controller-uid", w.meta.uid);
      }
      if (w.indexed) {
        // Indexed completion mode: the lowest free index, pod `<job>-<index>-<5 chars>`.
        while (taken_indexes.count(next_index) > 0) ++next_index;
        if (completions && next_index >= *completions) break;
        taken_indexes.insert(next_index);
        SetLabel(pod.meta.labels, "batch.kubernetes.io/job-completion-index", std::to_string(next_index));
        pod.meta.generate_name = fmt::format("{}-{}-", w.meta.name, next_index);
      }
      pod.meta.name = UniqueName(ns, pod.meta.generate_name, rng);
      out.push_back(Emit(std::move(pod), w, outcome));
    }
    return out;
  }

  // The DaemonSet controller: one pod per node `NodeShouldRunDaemonPod` selects and that has no
  // daemon pod yet, pinned by `ReplaceDaemonSetPodNodeNameNodeAffinity` (node affinity
  // matchFields metadata.name In [node]) and carrying the daemon tolerations.
  std::vector<Object> ExpandDaemonSet(const Workload& w, const std::string& ns, SuffixGenerator& rng,
                                      WorkloadOutcome& outcome) {
    PodSpec daemon_spec = w.pod_template.spec;
    AddDaemonPodTolerations(daemon_spec, w.host_network);
    const auto existing =
        OwnedPods(ns, "DaemonSet", {{w.meta.name, false}},
                  [&](const OwnerReference& ref, const Pod&) { return RefersTo(ref, "DaemonSet", w.meta); });
    std::set<std::string> covered;
    for (const Pod* pod : existing) covered.insert(TargetNodeName(*pod));
    const std::string hash = SafeEncode(TemplateHash(w));
    std::vector<Object> out;
    for (const Node& node : nodes_) {
      if (!NodeShouldRunDaemonPod(node, daemon_spec)) continue;
      ++outcome.desired;
      if (covered.count(node.meta.name) > 0) {
        ++outcome.existing;
        continue;
      }
      if (!Room(outcome)) continue;
      Pod pod = FromTemplate(w, ns, "DaemonSet", "apps/v1", w.meta.name, w.meta.uid);
      pod.spec = daemon_spec;
      NodeSelectorTerm term;
      term.match_fields.push_back(
          NodeSelectorRequirement{"metadata.name", NodeSelectorOperator::kIn, {node.meta.name}});
      NodeSelector selector;
      selector.terms.push_back(std::move(term));
      pod.spec.affinity.node_affinity_required = std::move(selector);
      SetLabel(pod.meta.labels, "controller-revision-hash", hash);
      SetLabel(pod.meta.labels, "pod-template-generation", "1");
      pod.meta.name = UniqueName(ns, pod.meta.generate_name, rng);
      out.push_back(Emit(std::move(pod), w, outcome));
    }
    return out;
  }

  const std::vector<Object>& objects_;
  std::uint64_t seed_;
  std::deque<Pod> pods_;        // input pods, then created ones (a deque: `OwnedPods` pointers stay valid)
  // "ns\x1fkind\x1fname" of a controller reference -> its pods (index into `pods_`, pod).
  std::map<std::string, std::vector<std::pair<std::size_t, const Pod*>>, std::less<>> by_owner_;
  std::set<std::string> taken_;  // "ns/name" of every pod
  std::vector<Node> nodes_;      // last definition of each node, in first-appearance order
  std::size_t created_total_ = 0;
  bool capped_ = false;
  std::optional<PodController> controller_;  // the last expanded workload's pods' controller
};

}  // namespace

WorkloadExpansion ExpandWorkloads(const std::vector<Object>& objects, const std::vector<Workload>& workloads,
                                  std::uint64_t seed) {
  if (workloads.empty()) {
    WorkloadExpansion out;
    out.objects = objects;
    return out;
  }
  return Expander(objects, seed).Run(workloads);
}

StepWorkloadExpansion ExpandStepWorkloads(const std::vector<Object>& objects, const std::vector<Workload>& workloads,
                                          const std::vector<PodController>& controllers,
                                          const std::vector<Scenario>& scenarios, std::uint64_t seed) {
  StepWorkloadExpansion out;
  const bool any = std::any_of(scenarios.begin(), scenarios.end(), [](const Scenario& s) {
    return std::any_of(s.steps.begin(), s.steps.end(), [](const ScenarioStep& step) { return step.workload.has_value(); });
  });
  if (!any) {
    out.scenarios = scenarios;
    return out;
  }
  using Key = std::tuple<WorkloadKind, std::string, std::string>;
  std::set<Key> known_workloads;
  for (const Workload& w : workloads) known_workloads.emplace(w.kind, EffectiveNamespace(w.meta), w.meta.name);
  std::set<std::tuple<std::string, std::string, std::string>> known_controllers;
  for (const PodController& c : controllers) known_controllers.emplace(c.kind, c.namespace_, c.name);
  // What exists when each step runs (as far as the controllers can tell): the input, then the
  // pods earlier steps applied or created.
  std::vector<Object> known = objects;
  // Per scenario and step: the pod applies that follow it.
  std::vector<std::vector<std::vector<ScenarioStep>>> created(scenarios.size());
  for (std::size_t i = 0; i < scenarios.size(); ++i) created[i].resize(scenarios[i].steps.size());
  std::vector<Scenario> result = scenarios;
  for (const admission::StepRef& ref : admission::StepsInTimeOrder(scenarios)) {
    ScenarioStep& step = result[ref.scenario].steps[ref.step];
    if (step.action != StepAction::kApply) continue;
    if (step.object) {
      if (step.object->kind == ObjectKind::kPod) known.push_back(*step.object);
      continue;
    }
    if (!step.workload) continue;
    Workload w = *step.workload;
    w.position = known.size();
    const Key key{w.kind, EffectiveNamespace(w.meta), w.meta.name};
    const bool update = !w.meta.name.empty() && !known_workloads.insert(key).second;
    WorkloadExpansion expansion = Expander(known, seed).Run({w});
    const std::string who = fmt::format("{} {}", WorkloadKindName(w.kind), w.DisplayName());
    const std::string where = fmt::format("Scenario {} step {}", scenarios[ref.scenario].meta.name, step.index);
    for (Warning& warning : expansion.warnings) {
      warning.object = where + ": " + warning.object;
      out.warnings.push_back(std::move(warning));
    }
    for (PodController& c : expansion.controllers) {
      if (known_controllers.emplace(c.kind, c.namespace_, c.name).second) out.controllers.push_back(std::move(c));
    }
    std::vector<std::string> names;
    int desired = 0, existing = 0;
    if (!expansion.outcomes.empty()) {
      names = expansion.outcomes.front().created;
      desired = expansion.outcomes.front().desired;
      existing = expansion.outcomes.front().existing;
    }
    for (std::size_t k = known.size(); k < expansion.objects.size(); ++k) {
      Object& pod = expansion.objects[k];
      pod.source = w.source;
      ScenarioStep apply;
      apply.index = step.index;
      apply.source = step.source;
      apply.at_us = step.at_us;
      apply.action = StepAction::kApply;
      apply.object = pod;
      created[ref.scenario][ref.step].push_back(std::move(apply));
      known.push_back(std::move(pod));
    }
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
    step.expansion = fmt::format("apply {}: {}; its controller wants {} pod(s), has {}, creates {}{}{}", who,
                                 update ? "updated" : "created", desired, existing, names.size(),
                                 names.empty() ? "" : ": ", list);
    if (update && existing > desired) {
      out.warnings.push_back(Warning{
          step.source, where, "NotModelled",
          fmt::format("apply {}: it wants {} pod(s) and has {}; scaling down (and rolling out a changed template) "
                      "during a run is not modelled: the pods it has keep running",
                      who, desired, existing)});
    }
  }
  // Each workload step, then the pod applies it made, in place.
  for (std::size_t i = 0; i < result.size(); ++i) {
    std::vector<ScenarioStep> steps;
    for (std::size_t j = 0; j < result[i].steps.size(); ++j) {
      steps.push_back(std::move(result[i].steps[j]));
      for (ScenarioStep& pod : created[i][j]) steps.push_back(std::move(pod));
    }
    result[i].steps = std::move(steps);
  }
  out.scenarios = std::move(result);
  return out;
}

}  // namespace kpsim

namespace kpsim {

AdmissionResult AdmitInput(const std::vector<Object>& objects,
                           const std::vector<Workload>& workloads, const FeatureGates& gates,
                           AdmissionMode mode, std::uint64_t seed,
                           const std::vector<Scenario>& scenarios, std::vector<PodMetrics> pod_metrics) {
  WorkloadExpansion expansion = ExpandWorkloads(objects, workloads, seed);
  StepWorkloadExpansion steps =
      ExpandStepWorkloads(expansion.objects, workloads, expansion.controllers, scenarios, seed);
  AdmissionResult admission = Admit(expansion.objects, gates, mode, steps.scenarios);
  admission.state.controllers = std::move(expansion.controllers);
  for (PodController& c : steps.controllers) admission.state.controllers.push_back(std::move(c));
  expansion.warnings.insert(expansion.warnings.end(), steps.warnings.begin(), steps.warnings.end());
  admission.state.pod_metrics = std::move(pod_metrics);
  admission.warnings.insert(admission.warnings.begin(), expansion.warnings.begin(),
                            expansion.warnings.end());
  return admission;
}

}  // namespace kpsim
