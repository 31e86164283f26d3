#pragma once

// Decoders for ResourceQuota (v1) and the ResourceQuota admission plugin's configuration (an
// AdmissionConfiguration, or a ResourceQuotaConfiguration on its own). Same conventions as
// decode_objects.h.

#include <string>
#include <string_view>
#include <utility>

#include "io/decode_objects.h"

namespace kpsim::io::internal {

template <typename V>
ScopeRequirement DecodeScopeRequirement(const V& v, const Path& p) {
  ScopeRequirement r;
  Fields(v, p, [&](std::string_view k, const V& f, const Path& fp) {
    if (k == "scopeName") {
      r.scope_name = Str(f, fp);
    } else if (k == "operator") {
      const std::string op = Str(f, fp);
      if (op == "In") {
        r.op = ScopeOperator::kIn;
      } else if (op == "NotIn") {
        r.op = ScopeOperator::kNotIn;
      } else if (op == "Exists") {
        r.op = ScopeOperator::kExists;
      } else if (op == "DoesNotExist") {
        r.op = ScopeOperator::kDoesNotExist;
      } else {
        r.op_raw = op.empty() ? std::string("\"\"") : op;  // admission refuses it with Kubernetes' message
      }
    } else if (k == "values") {
      r.values = StringList(f, fp);
    }
  });
  return r;
}

template <typename V>
std::vector<ScopeRequirement> DecodeScopeRequirements(const V& v, const Path& p) {
  std::vector<ScopeRequirement> out;
  Items(v, p, [&](const V& item, const Path& ip) { out.push_back(DecodeScopeRequirement(item, ip)); });
  return out;
}

template <typename V>
ResourceQuota DecodeResourceQuota(const V& v, const Path& p) {
  ResourceQuota q;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "metadata") {
      q.meta = DecodeMeta(c, cp);
    } else if (key == "spec") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "hard") {
          q.hard = ResourceMap(f, fp);
        } else if (k == "scopes") {
          q.scopes = StringList(f, fp);
        } else if (k == "scopeSelector") {
          Fields(f, fp, [&](std::string_view sk, const V& s, const Path& sp) {
            if (sk == "matchExpressions") q.scope_selector = DecodeScopeRequirements(s, sp);
          });
        }
      });
    }
  });
  return q;
}

// ResourceQuotaConfiguration's fields (limitedResources), at `v`.
template <typename V>
void DecodeQuotaConfiguration(const V& v, const Path& p, QuotaAdmissionConfig& out) {
  Fields(v, p, [&](std::string_view k, const V& f, const Path& fp) {
    if (k != "limitedResources") return;
    Items(f, fp, [&](const V& item, const Path& ip) {
      LimitedResource l;
      Fields(item, ip, [&](std::string_view lk, const V& lv, const Path& lp) {
        if (lk == "apiGroup") {
          l.api_group = Str(lv, lp);
        } else if (lk == "resource") {
          l.resource = Str(lv, lp);
        } else if (lk == "matchContains") {
          l.match_contains = StringList(lv, lp);
        } else if (lk == "matchScopes") {
          l.match_scopes = DecodeScopeRequirements(lv, lp);
        }
      });
      out.limited_resources.push_back(std::move(l));
    });
  });
}

// An AdmissionConfiguration: the ResourceQuota plugin's inline `configuration` (a plugin given by
// `path` is a file kpsim does not open: DecodeFailure names it). `standalone`: the document is a
// ResourceQuotaConfiguration itself.
template <typename V>
QuotaAdmissionConfig DecodeQuotaAdmissionConfig(const V& v, const Path& p, bool standalone) {
  QuotaAdmissionConfig config;
  config.meta.name = "ResourceQuota";
  if (standalone) {
    DecodeQuotaConfiguration(v, p, config);
    return config;
  }
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key != "plugins") return;
    Items(c, cp, [&](const V& plugin, const Path& pp) {
      std::string name;
      if (std::optional<V> n = plugin.Get("name")) name = Str(*n, pp.Field("name"));
      if (name != "ResourceQuota") return;
      Fields(plugin, pp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "configuration") {
          DecodeQuotaConfiguration(f, fp, config);
        } else if (k == "path") {
          Fail(f, fp,
               "the ResourceQuota plugin's configuration is in another file; give it inline "
               "(`configuration:`) or pass that ResourceQuotaConfiguration file to kpsim");
        }
      });
    });
  });
  return config;
}

}  // namespace kpsim::io::internal
