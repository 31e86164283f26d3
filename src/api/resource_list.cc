// ResourceList arithmetic. Scalar (extended) resources are kept sorted by name with no zero
// entries, so `==` compares values, not representations.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim {
namespace {

using ScalarVec = std::vector<std::pair<std::string, std::int64_t>>;

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// A simplified `validation.IsQualifiedName`: optional DNS-subdomain prefix and "/", then a name
// of at most 63 characters of [A-Za-z0-9_.-] that starts and ends alphanumeric.
bool IsQualifiedName(std::string_view s) {
  std::string_view name = s;
  const std::size_t slash = s.find('/');
  if (slash != std::string_view::npos) {
    std::string_view prefix = s.substr(0, slash);
    name = s.substr(slash + 1);
    if (prefix.empty() || prefix.size() > 253) return false;
    for (char c : prefix) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) return false;
    }
    if (!IsAlnum(prefix.front()) || !IsAlnum(prefix.back())) return false;
  }
  if (name.empty() || name.size() > 63) return false;
  if (!IsAlnum(name.front()) || !IsAlnum(name.back())) return false;
  for (char c : name) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// Mirrors `schedutil.IsScalarResourceName` (k8s pkg/apis/core/v1/helper): extended resources
// (`vendor.io/name` outside the kubernetes.io domain), hugepages, prefixed native resources and
// attachable volumes. Other unknown names are ignored by the scheduler.
bool IsScalarResourceName(std::string_view name) {
  const bool prefixed_native = name.find("kubernetes.io/") != std::string_view::npos;
  if (name.starts_with("hugepages-") || prefixed_native ||
      name.starts_with("attachable-volumes-")) {
    return true;
  }
  const bool native = name.find('/') == std::string_view::npos;
  if (native || name.starts_with("requests.")) return false;
  return IsQualifiedName(std::string("requests.") + std::string(name));
}

template <typename Op>
ScalarVec MergeScalars(const ScalarVec& a, const ScalarVec& b, Op op) {
  ScalarVec out;
  out.reserve(a.size() + b.size());
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() || j < b.size()) {
    std::int64_t value = 0;
    std::string name;
    if (j >= b.size() || (i < a.size() && a[i].first < b[j].first)) {
      name = a[i].first;
      value = op(a[i].second, 0);
      ++i;
    } else if (i >= a.size() || b[j].first < a[i].first) {
      name = b[j].first;
      value = op(0, b[j].second);
      ++j;
    } else {
      name = a[i].first;
      value = op(a[i].second, b[j].second);
      ++i;
      ++j;
    }
    if (value != 0) out.emplace_back(std::move(name), value);
  }
  return out;
}

}  // namespace

void ResourceList::Set(std::string_view name, const Quantity& q) {
  if (name == kResourceCpu) {
    milli_cpu = q.MilliValue();
  } else if (name == kResourceMemory) {
    memory = q.Value();
  } else if (name == kResourceEphemeralStorage) {
    ephemeral_storage = q.Value();
  } else if (name == kResourcePods) {
    pods = q.Value();
  } else if (IsScalarResourceName(name)) {
    SetScalar(name, q.Value());
  }
}

std::int64_t ResourceList::Scalar(std::string_view name) const {
  auto it = std::lower_bound(scalar.begin(), scalar.end(), name,
                             [](const auto& entry, std::string_view n) { return entry.first < n; });
  return (it != scalar.end() && it->first == name) ? it->second : 0;
}

void ResourceList::SetScalar(std::string_view name, std::int64_t value) {
  auto it = std::lower_bound(scalar.begin(), scalar.end(), name,
                             [](const auto& entry, std::string_view n) { return entry.first < n; });
  const bool present = it != scalar.end() && it->first == name;
  if (value == 0) {
    if (present) scalar.erase(it);
  } else if (present) {
    it->second = value;
  } else {
    scalar.emplace(it, std::string(name), value);
  }
}

ResourceList& ResourceList::operator+=(const ResourceList& other) {
  milli_cpu += other.milli_cpu;
  memory += other.memory;
  ephemeral_storage += other.ephemeral_storage;
  pods += other.pods;
  if (!other.scalar.empty()) {
    scalar =
        MergeScalars(scalar, other.scalar, [](std::int64_t x, std::int64_t y) { return x + y; });
  }
  return *this;
}

ResourceList& ResourceList::operator-=(const ResourceList& other) {
  milli_cpu -= other.milli_cpu;
  memory -= other.memory;
  ephemeral_storage -= other.ephemeral_storage;
  pods -= other.pods;
  if (!other.scalar.empty()) {
    scalar =
        MergeScalars(scalar, other.scalar, [](std::int64_t x, std::int64_t y) { return x - y; });
  }
  return *this;
}

ResourceList ResourceList::Max(const ResourceList& a, const ResourceList& b) {
  ResourceList out;
  out.milli_cpu = std::max(a.milli_cpu, b.milli_cpu);
  out.memory = std::max(a.memory, b.memory);
  out.ephemeral_storage = std::max(a.ephemeral_storage, b.ephemeral_storage);
  out.pods = std::max(a.pods, b.pods);
  out.scalar = MergeScalars(a.scalar, b.scalar,
                            [](std::int64_t x, std::int64_t y) { return std::max(x, y); });
  return out;
}

bool ResourceList::Fits(const ResourceList& request) const {
  if (request.milli_cpu > milli_cpu || request.memory > memory ||
      request.ephemeral_storage > ephemeral_storage || request.pods > pods) {
    return false;
  }
  for (const auto& [name, value] : request.scalar) {
    if (value > Scalar(name)) return false;
  }
  return true;
}

bool ResourceList::IsZero() const {
  return milli_cpu == 0 && memory == 0 && ephemeral_storage == 0 && pods == 0 && scalar.empty();
}

}  // namespace kpsim
