#include "kpsim/api/quota.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

namespace kpsim {
namespace {

bool IsCpuName(std::string_view name) { return name == "cpu" || name == "requests.cpu" || name == "limits.cpu"; }

bool IsMemoryLike(std::string_view name) {
  return name.find("memory") != std::string_view::npos || name.find("ephemeral-storage") != std::string_view::npos ||
         name.find("hugepages-") != std::string_view::npos;
}

// The pod evaluator's MatchingResources: the names a pod can use.
bool IsPodResource(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "pods", "count/pods", "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
      "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage"};
  for (std::string_view n : kNames) {
    if (n == name) return true;
  }
  return name.starts_with("requests.") || name.starts_with("hugepages-");
}

// What the Constraints check requires each container to declare (validationSet).
constexpr std::pair<std::string_view, std::uint8_t> kDeclarations[] = {
    {"cpu", ContainerRequest::kRequestsCpu},          {"limits.cpu", ContainerRequest::kLimitsCpu},
    {"limits.memory", ContainerRequest::kLimitsMemory}, {"memory", ContainerRequest::kRequestsMemory},
    {"requests.cpu", ContainerRequest::kRequestsCpu}, {"requests.memory", ContainerRequest::kRequestsMemory},
};

std::int64_t Amount(const QuotaAmounts& amounts, std::string_view name) {
  for (const auto& [n, v] : amounts) {
    if (n == name) return v;
  }
  return 0;
}

bool Has(const QuotaAmounts& amounts, std::string_view name) {
  return std::any_of(amounts.begin(), amounts.end(), [&](const auto& a) { return a.first == name; });
}

// getScopeSelectorsFromQuota: spec.scopes as Exists requirements, then the selector's.
std::vector<ScopeRequirement> ScopeSelectors(const ResourceQuota& quota) {
  std::vector<ScopeRequirement> out;
  for (const std::string& scope : quota.scopes) out.push_back(ScopeRequirement{scope, ScopeOperator::kExists, "", {}});
  out.insert(out.end(), quota.scope_selector.begin(), quota.scope_selector.end());
  return out;
}

bool TermCrossesNamespaces(const PodAffinityTerm& t) { return !t.namespaces.empty() || t.namespace_selector; }

bool UsesCrossNamespaceAffinity(const Pod& pod) {
  const Affinity& a = pod.spec.affinity;
  for (const auto* terms : {&a.pod_affinity_required, &a.pod_anti_affinity_required}) {
    if (std::any_of(terms->begin(), terms->end(), TermCrossesNamespaces)) return true;
  }
  for (const auto* terms : {&a.pod_affinity_preferred, &a.pod_anti_affinity_preferred}) {
    for (const WeightedPodAffinityTerm& w : *terms) {
      if (TermCrossesNamespaces(w.term)) return true;
    }
  }
  return false;
}

bool IsBestEffort(const Pod& pod) {
  const ResourceList& r = pod.spec.requests;
  const ResourceList& l = pod.spec.limits;
  return r.milli_cpu == 0 && r.memory == 0 && l.milli_cpu == 0 && l.memory == 0;
}

bool QuotaMatches(const ResourceQuota& quota, const QuotaAmounts& hard, const Pod& pod) {
  if (quota.meta.namespace_ != pod.meta.namespace_) return false;
  if (std::none_of(hard.begin(), hard.end(), [](const auto& h) { return IsPodResource(h.first); })) return false;
  for (const ScopeRequirement& r : ScopeSelectors(quota)) {
    if (!PodMatchesScope(pod, r)) return false;
  }
  return true;
}

}  // namespace

std::string FormatQuotaAmount(std::string_view name, std::int64_t amount) {
  if (IsCpuName(name)) return amount % 1000 == 0 ? std::to_string(amount / 1000) : std::to_string(amount) + "m";
  if (IsMemoryLike(name)) return FormatBinarySI(amount);
  return std::to_string(amount);
}

std::string FormatQuotaAmounts(const QuotaAmounts& amounts) {
  QuotaAmounts sorted = amounts;
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (const auto& [name, amount] : sorted) {
    if (!out.empty()) out += ",";
    out += name + "=" + FormatQuotaAmount(name, amount);
  }
  return out;
}

QuotaAmounts PodQuotaUsage(const Pod& pod) {
  QuotaAmounts out;
  if (pod.status.phase == "Succeeded" || pod.status.phase == "Failed") return out;  // QuotaV1Pod
  const ResourceList& r = pod.spec.requests;
  const ResourceList& l = pod.spec.limits;
  out = {{"count/pods", 1}, {"pods", 1}};
  const auto add = [&](std::string name, std::int64_t v) { out.emplace_back(std::move(name), v); };
  add("requests.cpu", r.milli_cpu);
  add("cpu", r.milli_cpu);
  add("requests.memory", r.memory);
  add("memory", r.memory);
  add("requests.ephemeral-storage", r.ephemeral_storage);
  add("ephemeral-storage", r.ephemeral_storage);
  if (l.milli_cpu > 0) add("limits.cpu", l.milli_cpu);
  if (l.memory > 0) add("limits.memory", l.memory);
  if (l.ephemeral_storage > 0) add("limits.ephemeral-storage", l.ephemeral_storage);
  for (const auto& [name, v] : r.scalar) {
    if (name.starts_with("hugepages-")) add(name, v);
    add("requests." + name, v);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool PodMatchesScope(const Pod& pod, const ScopeRequirement& r) {
  const std::string& scope = r.scope_name;
  if (scope == "Terminating") return pod.spec.active_deadline;
  if (scope == "NotTerminating") return !pod.spec.active_deadline;
  if (scope == "BestEffort") return IsBestEffort(pod);
  if (scope == "NotBestEffort") return !IsBestEffort(pod);
  if (scope == "CrossNamespacePodAffinity") return UsesCrossNamespaceAffinity(pod);
  if (scope == "PriorityClass") {
    const std::string& name = pod.spec.priority_class_name;
    const bool listed = std::find(r.values.begin(), r.values.end(), name) != r.values.end();
    switch (r.op) {
      case ScopeOperator::kExists: return !name.empty();
      case ScopeOperator::kIn: return listed;
      case ScopeOperator::kNotIn: return !listed;
      case ScopeOperator::kDoesNotExist: return name.empty();  // the label is set only for a named class
    }
  }
  return false;
}

QuotaAmounts QuotaHard(const ResourceQuota& quota) {
  std::map<std::string, std::int64_t> m;
  for (const auto& [name, q] : quota.hard) m[name] = IsCpuName(name) ? q.MilliValue() : q.Value();
  return QuotaAmounts(m.begin(), m.end());
}

void QuotaTracker::ApplyQuota(const ResourceQuota& quota, const std::vector<const Pod*>& pods) {
  auto it = std::find_if(quotas_.begin(), quotas_.end(), [&](const QuotaStatus& s) {
    return s.quota.meta.namespace_ == quota.meta.namespace_ && s.quota.meta.name == quota.meta.name;
  });
  if (it == quotas_.end()) it = quotas_.insert(quotas_.end(), QuotaStatus{});
  it->quota = quota;
  it->hard = QuotaHard(quota);
  it->used.clear();
  for (const auto& [name, v] : it->hard) it->used.emplace_back(name, 0);
  for (const Pod* pod : pods) {
    if (!QuotaMatches(quota, it->hard, *pod)) continue;
    const QuotaAmounts usage = PodQuotaUsage(*pod);
    for (auto& [name, used] : it->used) used += Amount(usage, name);
  }
}

bool QuotaTracker::DeleteQuota(std::string_view namespace_, std::string_view name) {
  return std::erase_if(quotas_, [&](const QuotaStatus& s) {
           return s.quota.meta.namespace_ == namespace_ && s.quota.meta.name == name;
         }) > 0;
}

void QuotaTracker::Count(const Pod& pod, int sign) {
  QuotaAmounts usage;
  for (QuotaStatus& s : quotas_) {
    if (!QuotaMatches(s.quota, s.hard, pod)) continue;
    if (usage.empty()) usage = PodQuotaUsage(pod);
    for (auto& [name, used] : s.used) used += sign * Amount(usage, name);
  }
}

std::optional<std::string> QuotaTracker::Check(const Pod& pod) const {
  const QuotaAmounts usage = PodQuotaUsage(pod);
  // limitedResources for pods: the resources consumption is limited by default for
  // (matchContains), and the scopes a covering quota must exist for (matchScopes).
  std::set<std::string> limited_names;
  std::vector<ScopeRequirement> limited_scopes;
  if (config_) {
    for (const LimitedResource& l : config_->limited_resources) {
      if (l.resource != "pods" || !l.api_group.empty()) continue;
      for (const auto& [name, v] : usage) {
        if (v <= 0) continue;  // limitedByDefault: only what the pod uses
        for (const std::string& part : l.match_contains) {
          if (name.find(part) != std::string::npos) limited_names.insert(name);
        }
      }
      for (const ScopeRequirement& r : l.match_scopes) {
        if (PodMatchesScope(pod, r)) limited_scopes.push_back(r);
      }
    }
  }
  std::vector<const QuotaStatus*> interesting;
  std::set<std::string> restricted_names;
  std::vector<ScopeRequirement> restricted_scopes;
  for (const QuotaStatus& s : quotas_) {
    if (s.quota.meta.namespace_ != pod.meta.namespace_) continue;
    for (const ScopeRequirement& r : ScopeSelectors(s.quota)) {
      if (PodMatchesScope(pod, r)) restricted_scopes.push_back(r);
    }
    if (!QuotaMatches(s.quota, s.hard, pod)) continue;
    // Constraints: with cpu or memory under quota, every container declares it.
    std::map<std::string, std::set<std::string>> missing;
    for (const auto& [name, bit] : kDeclarations) {
      if (!Has(s.hard, name)) continue;
      for (const ContainerRequest& c : pod.spec.containers) {
        if ((c.declared & bit) == 0) missing[std::string(name)].insert(c.name);
      }
    }
    if (!missing.empty()) {
      // Constraints' errors as utilerrors.NewAggregate prints them: one bare, several in [a, b].
      std::string detail;
      for (const auto& [name, containers] : missing) {
        std::string list;
        for (const std::string& c : containers) list += (list.empty() ? "" : ",") + c;
        detail += (detail.empty() ? "" : ", ") + std::string("must specify ") + name + " for: " + list;
      }
      if (missing.size() > 1) detail = "[" + detail + "]";
      return fmt::format("failed quota: {}: {}", s.quota.meta.name, detail);
    }
    interesting.push_back(&s);
    for (const auto& [name, v] : s.hard) {
      if (IsPodResource(name)) restricted_names.insert(name);
    }
  }
  std::string uncovered_names;
  for (const std::string& name : limited_names) {
    if (!restricted_names.contains(name)) uncovered_names += (uncovered_names.empty() ? "" : ",") + name;
  }
  if (!uncovered_names.empty()) return "insufficient quota to consume: " + uncovered_names;
  std::string uncovered_scopes;
  for (const ScopeRequirement& r : limited_scopes) {
    const bool covered = std::any_of(restricted_scopes.begin(), restricted_scopes.end(),
                                     [&](const ScopeRequirement& q) { return q.scope_name == r.scope_name; });
    if (!covered) uncovered_scopes += (uncovered_scopes.empty() ? "" : " ") + ScopeRequirementText(r);
  }
  if (!uncovered_scopes.empty()) return "insufficient quota to match these scopes: [" + uncovered_scopes + "]";
  for (const QuotaStatus* s : interesting) {
    QuotaAmounts requested, failed_requested, failed_used, failed_hard;
    for (const auto& [name, limit] : s->hard) {
      const std::int64_t want = Amount(usage, name);
      if (want == 0) continue;  // quota.RemoveZeros: what the pod does not use is never refused
      const std::int64_t used = Amount(s->used, name);
      if (used + want > limit) {
        failed_requested.emplace_back(name, want);
        failed_used.emplace_back(name, used);
        failed_hard.emplace_back(name, limit);
      }
    }
    if (!failed_hard.empty()) {
      return fmt::format("exceeded quota: {}, requested: {}, used: {}, limited: {}", s->quota.meta.name,
                         FormatQuotaAmounts(failed_requested), FormatQuotaAmounts(failed_used),
                         FormatQuotaAmounts(failed_hard));
    }
  }
  return std::nullopt;
}

}  // namespace kpsim
