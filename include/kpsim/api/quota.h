#pragma once

// ResourceQuota for pods, as the API server's ResourceQuota admission plugin and the quota
// controller count it (pkg/quota/v1/evaluator/core/pods.go: podComputeUsageHelper,
// podMatchesScopeFunc, Constraints; staging/.../admission/plugin/resourcequota/controller.go:
// checkRequest). Admission checks the pods the input creates; the simulator checks the pods
// controllers and Scenario steps create during the run.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim {

// Resource name -> amount, sorted by name: milli-units for the cpu names ("cpu", "requests.cpu",
// "limits.cpu"), whole units (bytes, counts) for the rest.
using QuotaAmounts = std::vector<std::pair<std::string, std::int64_t>>;

// What one pod counts for (podComputeUsageHelper): pods and count/pods 1, requests.cpu/memory/
// ephemeral-storage (and their bare names), limits.* where the pod sets limits, requests.<extended>.
QuotaAmounts PodQuotaUsage(const Pod& pod);

// podMatchesScopeFunc for one requirement: Terminating/NotTerminating (activeDeadlineSeconds),
// BestEffort/NotBestEffort (no requests or limits at all), PriorityClass (the pod's
// priorityClassName as the label "PriorityClass", set only when the name is not empty: In, NotIn,
// Exists, DoesNotExist), CrossNamespacePodAffinity.
bool PodMatchesScope(const Pod& pod, const ScopeRequirement& requirement);

// The quota's hard resource names, value by name (milli for cpu names).
QuotaAmounts QuotaHard(const ResourceQuota& quota);

// A quota and what its namespace's pods use of it now.
struct QuotaStatus {
  ResourceQuota quota;
  QuotaAmounts hard;
  QuotaAmounts used;  // every hard resource, 0 when nothing uses it
};

// Keeps every quota's usage as pods come and go, and answers what the admission plugin says to
// a new pod.
class QuotaTracker {
 public:
  QuotaTracker() = default;
  explicit QuotaTracker(std::optional<QuotaAdmissionConfig> config) : config_(std::move(config)) {}

  void SetConfig(std::optional<QuotaAdmissionConfig> config) { config_ = std::move(config); }
  // A quota created (or replaced, same namespace and name); `pods` are the pods that exist now.
  void ApplyQuota(const ResourceQuota& quota, const std::vector<const Pod*>& pods);
  // A quota deleted: it limits nothing from then on. False when there is none of that name.
  bool DeleteQuota(std::string_view namespace_, std::string_view name);
  // checkRequest for creating `pod`: nullopt when admitted, else the reason as the API server
  // words it after `pods "NAME" is forbidden: ` ("exceeded quota: ...", "failed quota: ...",
  // "insufficient quota to match these scopes: ...", "insufficient quota to consume: ...").
  std::optional<std::string> Check(const Pod& pod) const;
  // The pod now exists (counts in every quota of its namespace that matches it) / is gone.
  void Add(const Pod& pod) { Count(pod, 1); }
  void Remove(const Pod& pod) { Count(pod, -1); }
  const std::vector<QuotaStatus>& quotas() const { return quotas_; }
  bool empty() const { return quotas_.empty() && !config_; }

 private:
  void Count(const Pod& pod, int sign);
  std::optional<QuotaAdmissionConfig> config_;
  std::vector<QuotaStatus> quotas_;
};

// "requests.cpu=500m,pods=1" (prettyPrint: sorted names, the quantities as Kubernetes prints them).
std::string FormatQuotaAmounts(const QuotaAmounts& amounts);
std::string FormatQuotaAmount(std::string_view name, std::int64_t amount);

}  // namespace kpsim
