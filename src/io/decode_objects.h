#pragma once

// Decoders from a manifest tree (a `YamlView` or `JsonView`, see manifest_node.h) to api objects.
// Written once as templates over the view. Each decoder throws `DecodeFailure` (internal to io/,
// caught per object by manifest_reader.cc) on the first field of the wrong type or with an
// unparsable value; unknown fields are ignored, as kubectl output carries many we do not model.

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "io/manifest_node.h"
#include "kpsim/api/types.h"

namespace kpsim::io::internal {

// A field path as a chain of stack frames, rendered only when an error is reported.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;  // a field name or map key; empty for a list index
  int index = -1;

  Path Field(std::string_view k) const { return Path{this, k, -1}; }
  Path Index(int i) const { return Path{this, {}, i}; }

  std::string ToString() const {
    std::vector<const Path*> chain;
    for (const Path* p = this;
         p != nullptr && (p->parent != nullptr || !p->key.empty() || p->index >= 0);
         p = p->parent) {
      chain.push_back(p);
    }
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      if ((*it)->index >= 0) {
        out += fmt::format("[{}]", (*it)->index);
      } else {
        if (!out.empty()) out += '.';
        out += (*it)->key;
      }
    }
    return out;
  }
};

// The first decoding problem of an object.
struct DecodeFailure {
  std::string field;
  std::string message;
  int line = 0;  // of the offending node, 0 if unknown
};

template <typename V>
[[noreturn]] void Fail(const V& v, const Path& p, std::string message) {
  throw DecodeFailure{p.ToString(), std::move(message), v.line()};
}

template <typename V>
[[noreturn]] void FailType(const V& v, const Path& p, std::string_view expected) {
  const ScalarType scalar = v.type() == NodeType::kScalar ? v.scalar_type() : ScalarType::kString;
  Fail(v, p, fmt::format("expected {}, got {}", expected, TypeWord(v.type(), scalar)));
}

// ---------------------------------------------------------------------------------------------
// Scalars.

template <typename V>
std::string Str(const V& v, const Path& p) {
  if (v.type() == NodeType::kNull) return {};
  if (v.type() != NodeType::kScalar || v.scalar_type() != ScalarType::kString) {
    if (v.type() == NodeType::kScalar && v.is_yaml()) {
      // YAML: Kubernetes reads plain `1.0`, `true` or `no` as a number or boolean too.
      Fail(v, p,
           fmt::format("expected a string, got {} (YAML reads the plain scalar {} that way; "
                       "quote it to make it a string)",
                       TypeWord(v.type(), v.scalar_type()), v.text()));
    }
    FailType(v, p, "a string");
  }
  return v.text();
}

template <typename V>
bool Bool(const V& v, const Path& p) {
  if (v.type() == NodeType::kNull) return false;
  std::optional<bool> b = v.AsBool();
  if (!b) FailType(v, p, "a boolean");
  return *b;
}

template <typename V>
std::int64_t Int(const V& v, const Path& p, std::int64_t min, std::int64_t max) {
  std::optional<std::int64_t> i = v.AsInt();
  if (!i) {
    if (v.type() == NodeType::kScalar && v.scalar_type() == ScalarType::kInt) {
      Fail(v, p,
           fmt::format("the number {} is out of range: it does not fit a 64-bit integer",
                       v.text()));
    }
    FailType(v, p, "an integer");
  }
  if (*i < min || *i > max) {
    Fail(v, p, fmt::format("the number {} is out of range [{}, {}]", *i, min, max));
  }
  return *i;
}

template <typename V>
std::int32_t Int32(const V& v, const Path& p) {
  return static_cast<std::int32_t>(Int(v, p, std::numeric_limits<std::int32_t>::min(),
                                       std::numeric_limits<std::int32_t>::max()));
}

template <typename V>
std::int64_t Int64(const V& v, const Path& p) {
  return Int(v, p, std::numeric_limits<std::int64_t>::min(),
             std::numeric_limits<std::int64_t>::max());
}

template <typename V>
std::optional<std::int32_t> OptInt32(const V& v, const Path& p) {
  if (v.type() == NodeType::kNull) return std::nullopt;
  return Int32(v, p);
}

template <typename V>
std::optional<std::int64_t> OptInt64(const V& v, const Path& p) {
  if (v.type() == NodeType::kNull) return std::nullopt;
  return Int64(v, p);
}

// A quantity may be written as a string or a number (resource.Quantity.UnmarshalJSON); null is 0.
template <typename V>
Quantity Qty(const V& v, const Path& p) {
  if (v.type() == NodeType::kNull) return Quantity{};
  if (v.type() != NodeType::kScalar || v.scalar_type() == ScalarType::kBool) {
    FailType(v, p, "a quantity (a string or a number)");
  }
  Expected<Quantity> q = Quantity::Parse(v.text());
  if (!q.ok()) Fail(v, p, q.error().message);
  return *q;
}

template <typename V>
std::optional<WallTime> Time(const V& v, const Path& p) {
  if (v.type() == NodeType::kNull) return std::nullopt;
  Expected<WallTime> t = WallTime::Parse(Str(v, p));
  if (!t.ok()) Fail(v, p, t.error().message);
  return *t;
}

// ---------------------------------------------------------------------------------------------
// Containers. `Fields` and `Items` accept null as empty (Go decodes null into a nil map/slice).

template <typename V, typename F>
void Fields(const V& v, const Path& p, F&& f) {
  if (v.type() == NodeType::kNull) return;
  if (v.type() != NodeType::kMap) FailType(v, p, "an object");
  v.ForEachEntry([&](std::string_view key, const V& child) { f(key, child, p.Field(key)); });
}

template <typename V, typename F>
void Items(const V& v, const Path& p, F&& f) {
  if (v.type() == NodeType::kNull) return;
  if (v.type() != NodeType::kSeq) FailType(v, p, "a list");
  v.ForEachItem([&](int index, const V& child) { f(child, p.Index(index)); });
}

template <typename V>
std::vector<std::string> StringList(const V& v, const Path& p) {
  std::vector<std::string> out;
  Items(v, p, [&](const V& item, const Path& ip) { out.push_back(Str(item, ip)); });
  return out;
}

// A string map as sorted `Labels`; a repeated key keeps its last value.
template <typename V>
Labels StringMap(const V& v, const Path& p) {
  Labels out;
  Fields(v, p, [&](std::string_view key, const V& child, const Path& cp) {
    out.emplace_back(std::string(key), Str(child, cp));
  });
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  Labels unique;
  unique.reserve(out.size());
  for (auto& entry : out) {
    if (!unique.empty() && unique.back().first == entry.first) {
      unique.back().second = std::move(entry.second);
    } else {
      unique.push_back(std::move(entry));
    }
  }
  return unique;
}

// A resource map (`requests`, `allocatable`, ...) as (name, quantity) pairs in input order.
template <typename V>
std::vector<std::pair<std::string, Quantity>> ResourceMap(const V& v, const Path& p) {
  std::vector<std::pair<std::string, Quantity>> out;
  Fields(v, p, [&](std::string_view key, const V& child, const Path& cp) {
    const Quantity q = Qty(child, cp);
    // Mirrors `ValidateNonnegativeQuantity` (pkg/apis/core/validation): requests, limits,
    // overhead, capacity and allocatable are never negative.
    if (q.milli < 0) {
      Fail(child, cp,
           fmt::format("Invalid value: \"{}\": must be greater than or equal to 0", child.text()));
    }
    out.emplace_back(std::string(key), q);
  });
  return out;
}

// Whether `v` is a list with at least one item.
template <typename V>
bool NonEmptyList(const V& v) {
  if (v.type() != NodeType::kSeq) return false;
  bool any = false;
  v.ForEachItem([&](int, const V&) { any = true; });
  return any;
}

// Volume sources that kube-scheduler's volume plugins look at (the rest, such as configMap,
// secret, projected, emptyDir and downwardAPI, never affect scheduling).
inline bool IsSchedulingVolumeSource(std::string_view source) {
  for (std::string_view s : {"persistentVolumeClaim", "ephemeral", "csi", "gcePersistentDisk",
                             "awsElasticBlockStore", "azureDisk", "cinder", "iscsi", "rbd"}) {
    if (source == s) return true;
  }
  return false;
}

// kpsim's simulated clock holds int64 microseconds; a grace period above this would overflow it.
inline constexpr std::int64_t kMaxGracePeriodSeconds = 1'000'000'000'000;  // ~31,700 years

// `into += r`, refusing a sum past the int64 range (where it would wrap into a negative amount).
template <typename V>
void AddResources(ResourceList& into, const ResourceList& r, const V& v, const Path& p) {
  const auto add = [&](std::int64_t& a, std::int64_t b, std::string_view name) {
    if (__builtin_add_overflow(a, b, &a)) {
      Fail(v, p, fmt::format("the {} requests sum past the 64-bit range", name));
    }
  };
  add(into.milli_cpu, r.milli_cpu, kResourceCpu);
  add(into.memory, r.memory, kResourceMemory);
  add(into.ephemeral_storage, r.ephemeral_storage, kResourceEphemeralStorage);
  add(into.pods, r.pods, kResourcePods);
  for (const auto& [name, amount] : r.scalar) {
    std::int64_t total = into.Scalar(name);
    add(total, amount, name);
    into.SetScalar(name, total);
  }
}

inline ResourceList ToResourceList(const std::vector<std::pair<std::string, Quantity>>& m) {
  ResourceList r;
  for (const auto& [name, q] : m) r.Set(name, q);
  return r;
}

// Kubernetes' wording for an enum value outside its set.
template <typename V>
[[noreturn]] void FailUnsupported(const V& v, const Path& p, std::string_view value,
                                  std::string_view supported) {
  Fail(v, p, fmt::format("Unsupported value: \"{}\": supported values: {}", value, supported));
}

template <typename V>
std::optional<PreemptionPolicy> PreemptionPolicyField(const V& v, const Path& p,
                                                      std::optional<std::string>& raw) {
  if (v.type() == NodeType::kNull) return std::nullopt;
  std::string s = Str(v, p);
  if (s == "PreemptLowerPriority") return PreemptionPolicy::kPreemptLowerPriority;
  if (s == "Never") return PreemptionPolicy::kNever;
  raw = std::move(s);  // admission reports it with Kubernetes' NotSupported message
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Shared structures.

template <typename V>
ObjectMeta DecodeMeta(const V& v, const Path& p) {
  ObjectMeta m;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "name") {
      m.name = Str(c, cp);
    } else if (key == "generateName") {
      m.generate_name = Str(c, cp);
    } else if (key == "namespace") {
      m.namespace_ = Str(c, cp);
    } else if (key == "uid") {
      m.uid = Str(c, cp);
    } else if (key == "labels") {
      m.labels = StringMap(c, cp);
    } else if (key == "annotations") {
      Fields(c, cp, [&](std::string_view k, const V& a, const Path& ap) {
        if (k == "kubernetes.io/config.source" || k == "kubernetes.io/config.mirror" ||
            k == kNodeTemplateAnnotation) {
          m.annotations.emplace_back(std::string(k), Str(a, ap));
        }
      });
      std::sort(m.annotations.begin(), m.annotations.end());
    } else if (key == "creationTimestamp") {
      m.creation_timestamp = Time(c, cp);
    } else if (key == "deletionTimestamp") {
      m.deletion_timestamp = Time(c, cp);
    } else if (key == "ownerReferences") {
      Items(c, cp, [&](const V& item, const Path& ip) {
        OwnerReference ref;
        Fields(item, ip, [&](std::string_view k, const V& f, const Path& fp) {
          if (k == "apiVersion") {
            ref.api_version = Str(f, fp);
          } else if (k == "kind") {
            ref.kind = Str(f, fp);
          } else if (k == "name") {
            ref.name = Str(f, fp);
          } else if (k == "uid") {
            ref.uid = Str(f, fp);
          } else if (k == "controller") {
            ref.controller = Bool(f, fp);
          }
        });
        m.owner_references.push_back(std::move(ref));
      });
    }
  });
  return m;
}

// Decodes one `{key, operator, values}` requirement of a label or node selector; `ops` maps the
// operator spellings (in the order Kubernetes lists them as supported values).
template <typename Req, typename V, typename Op, std::size_t N>
Req DecodeRequirement(const V& item, const Path& ip,
                      const std::array<std::pair<std::string_view, Op>, N>& ops) {
  Req req;
  Fields(item, ip, [&](std::string_view k, const V& f, const Path& fp) {
    if (k == "key") {
      req.key = Str(f, fp);
    } else if (k == "values") {
      req.values = StringList(f, fp);
    } else if (k == "operator") {
      const std::string op = Str(f, fp);
      for (const auto& [name, value] : ops) {
        if (op == name) {
          req.op = value;
          return;
        }
      }
      std::string supported;
      for (const auto& entry : ops) {
        if (!supported.empty()) supported += ", ";
        supported += "\"" + std::string(entry.first) + "\"";
      }
      FailUnsupported(f, fp, op, supported);
    }
  });
  return req;
}

inline constexpr std::array<std::pair<std::string_view, SelectorOperator>, 4> kLabelOperators{{
    {"DoesNotExist", SelectorOperator::kDoesNotExist},
    {"Exists", SelectorOperator::kExists},
    {"In", SelectorOperator::kIn},
    {"NotIn", SelectorOperator::kNotIn},
}};

inline constexpr std::array<std::pair<std::string_view, NodeSelectorOperator>, 6> kNodeOperators{{
    {"DoesNotExist", NodeSelectorOperator::kDoesNotExist},
    {"Exists", NodeSelectorOperator::kExists},
    {"Gt", NodeSelectorOperator::kGt},
    {"In", NodeSelectorOperator::kIn},
    {"Lt", NodeSelectorOperator::kLt},
    {"NotIn", NodeSelectorOperator::kNotIn},
}};

template <typename V>
LabelSelector DecodeLabelSelector(const V& v, const Path& p) {
  LabelSelector s;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "matchLabels") {
      s.match_labels = StringMap(c, cp);
    } else if (key == "matchExpressions") {
      Items(c, cp, [&](const V& item, const Path& ip) {
        s.match_expressions.push_back(
            DecodeRequirement<LabelSelectorRequirement>(item, ip, kLabelOperators));
      });
    }
  });
  return s;
}

template <typename V>
std::optional<LabelSelector> OptLabelSelector(const V& v, const Path& p) {
  if (v.type() == NodeType::kNull) return std::nullopt;
  return DecodeLabelSelector(v, p);
}

template <typename V>
std::vector<NodeSelectorRequirement> DecodeNodeSelectorRequirements(const V& v, const Path& p) {
  std::vector<NodeSelectorRequirement> out;
  Items(v, p, [&](const V& item, const Path& ip) {
    out.push_back(DecodeRequirement<NodeSelectorRequirement>(item, ip, kNodeOperators));
  });
  return out;
}

template <typename V>
NodeSelectorTerm DecodeNodeSelectorTerm(const V& v, const Path& p) {
  NodeSelectorTerm term;
  Fields(v, p, [&](std::string_view k, const V& f, const Path& fp) {
    if (k == "matchExpressions") {
      term.match_expressions = DecodeNodeSelectorRequirements(f, fp);
    } else if (k == "matchFields") {
      term.match_fields = DecodeNodeSelectorRequirements(f, fp);
    }
  });
  return term;
}

template <typename V>
NodeSelector DecodeNodeSelector(const V& v, const Path& p) {
  NodeSelector s;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key != "nodeSelectorTerms") return;
    Items(c, cp, [&](const V& item, const Path& ip) {
      s.terms.push_back(DecodeNodeSelectorTerm(item, ip));
    });
  });
  return s;
}

template <typename V>
PodAffinityTerm DecodePodAffinityTerm(const V& v, const Path& p) {
  PodAffinityTerm term;
  Fields(v, p, [&](std::string_view k, const V& f, const Path& fp) {
    if (k == "labelSelector") {
      term.label_selector = OptLabelSelector(f, fp);
    } else if (k == "namespaces") {
      term.namespaces = StringList(f, fp);
    } else if (k == "namespaceSelector") {
      term.namespace_selector = OptLabelSelector(f, fp);
    } else if (k == "topologyKey") {
      term.topology_key = Str(f, fp);
    }
  });
  return term;
}

template <typename V>
std::vector<PodAffinityTerm> DecodePodAffinityTerms(const V& v, const Path& p) {
  std::vector<PodAffinityTerm> out;
  Items(v, p,
        [&](const V& item, const Path& ip) { out.push_back(DecodePodAffinityTerm(item, ip)); });
  return out;
}

// The weight of a preferred (node or pod) affinity term; validatePreferredSchedulingTerms and
// validateWeightedPodAffinityTerms allow 1-100.
template <typename V>
std::int32_t AffinityWeight(const V& v, const Path& p) {
  const std::int32_t weight = Int32(v, p);
  if (weight < 1 || weight > 100) {
    Fail(v, p, fmt::format("Invalid value: {}: must be in the range 1-100", weight));
  }
  return weight;
}

template <typename V>
std::vector<PreferredSchedulingTerm> DecodePreferredSchedulingTerms(const V& v, const Path& p) {
  std::vector<PreferredSchedulingTerm> out;
  Items(v, p, [&](const V& item, const Path& ip) {
    PreferredSchedulingTerm term;
    bool has_weight = false;
    Fields(item, ip, [&](std::string_view k, const V& f, const Path& fp) {
      if (k == "weight") {
        term.weight = AffinityWeight(f, fp);
        has_weight = true;
      } else if (k == "preference") {
        term.preference = DecodeNodeSelectorTerm(f, fp);
      }
    });
    if (!has_weight) Fail(item, ip.Field("weight"), "Invalid value: 0: must be in the range 1-100");
    out.push_back(std::move(term));
  });
  return out;
}

template <typename V>
std::vector<WeightedPodAffinityTerm> DecodeWeightedPodAffinityTerms(const V& v, const Path& p) {
  std::vector<WeightedPodAffinityTerm> out;
  Items(v, p, [&](const V& item, const Path& ip) {
    WeightedPodAffinityTerm term;
    bool has_weight = false;
    Fields(item, ip, [&](std::string_view k, const V& f, const Path& fp) {
      if (k == "weight") {
        term.weight = AffinityWeight(f, fp);
        has_weight = true;
      } else if (k == "podAffinityTerm") {
        term.term = DecodePodAffinityTerm(f, fp);
      }
    });
    if (!has_weight) Fail(item, ip.Field("weight"), "Invalid value: 0: must be in the range 1-100");
    out.push_back(std::move(term));
  });
  return out;
}

template <typename V>
NodeInclusionPolicy DecodeNodeInclusionPolicy(const V& v, const Path& p) {
  const std::string policy = Str(v, p);
  if (policy == "Honor") return NodeInclusionPolicy::kHonor;
  if (policy == "Ignore") return NodeInclusionPolicy::kIgnore;
  FailUnsupported(v, p, policy, "\"Honor\", \"Ignore\"");
}

// spec.topologySpreadConstraints, with validateTopologySpreadConstraints' checks of each field.
template <typename V>
std::vector<TopologySpreadConstraint> DecodeTopologySpreadConstraints(const V& v, const Path& p) {
  std::vector<TopologySpreadConstraint> out;
  Items(v, p, [&](const V& item, const Path& ip) {
    TopologySpreadConstraint c;
    bool has_when = false;
    Fields(item, ip, [&](std::string_view k, const V& f, const Path& fp) {
      if (k == "maxSkew") {
        c.max_skew = Int32(f, fp);
        if (c.max_skew <= 0) {
          Fail(f, fp, fmt::format("Invalid value: {}: must be greater than zero", c.max_skew));
        }
      } else if (k == "topologyKey") {
        c.topology_key = Str(f, fp);
      } else if (k == "whenUnsatisfiable") {
        const std::string when = Str(f, fp);
        has_when = true;
        if (when == "DoNotSchedule") {
          c.when_unsatisfiable = UnsatisfiableConstraintAction::kDoNotSchedule;
        } else if (when == "ScheduleAnyway") {
          c.when_unsatisfiable = UnsatisfiableConstraintAction::kScheduleAnyway;
        } else {
          FailUnsupported(f, fp, when, "\"DoNotSchedule\", \"ScheduleAnyway\"");
        }
      } else if (k == "labelSelector") {
        c.label_selector = OptLabelSelector(f, fp);
      } else if (k == "minDomains") {
        c.min_domains = OptInt32(f, fp);
        if (c.min_domains && *c.min_domains <= 0) {
          Fail(f, fp, fmt::format("Invalid value: {}: must be greater than zero", *c.min_domains));
        }
      } else if (k == "nodeAffinityPolicy") {
        if (f.type() != NodeType::kNull) c.node_affinity_policy = DecodeNodeInclusionPolicy(f, fp);
      } else if (k == "nodeTaintsPolicy") {
        if (f.type() != NodeType::kNull) c.node_taints_policy = DecodeNodeInclusionPolicy(f, fp);
      } else if (k == "matchLabelKeys") {
        c.match_label_keys = StringList(f, fp);
      }
    });
    if (c.max_skew == 0) {
      Fail(item, ip.Field("maxSkew"), "Invalid value: 0: must be greater than zero");
    }
    if (c.topology_key.empty()) {
      Fail(item, ip.Field("topologyKey"), "Required value: can not be empty");
    }
    if (!has_when) {
      Fail(item, ip.Field("whenUnsatisfiable"),
           "Unsupported value: \"\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"");
    }
    if (c.min_domains && c.when_unsatisfiable != UnsatisfiableConstraintAction::kDoNotSchedule) {
      Fail(item, ip.Field("minDomains"),
           fmt::format("Invalid value: {}: can only use minDomains if "
                       "whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
                       *c.min_domains));
    }
    out.push_back(std::move(c));
  });
  return out;
}

template <typename V>
TaintEffect DecodeTaintEffect(const V& v, const Path& p) {
  const std::string e = Str(v, p);
  if (e == "NoSchedule") return TaintEffect::kNoSchedule;
  if (e == "PreferNoSchedule") return TaintEffect::kPreferNoSchedule;
  if (e == "NoExecute") return TaintEffect::kNoExecute;
  FailUnsupported(v, p, e, "\"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\"");
}

// ---------------------------------------------------------------------------------------------
// Kinds.

template <typename V>
Node DecodeNode(const V& v, const Path& p) {
  Node node;
  std::vector<std::pair<std::string, Quantity>> capacity;
  std::vector<std::pair<std::string, Quantity>> allocatable;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "metadata") {
      node.meta = DecodeMeta(c, cp);
    } else if (key == "spec") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "podPreemptionPolicy") {
          node.has_pod_preemption_policy = f.type() != NodeType::kNull;
          Fields(f, fp, [&](std::string_view pk, const V& pv, const Path& pp) {
            if (pk == "disableResizePreemption") node.disable_resize_preemption = StringList(pv, pp);
          });
        } else if (k == "unschedulable") {
          node.unschedulable = Bool(f, fp);
        } else if (k == "taints") {
          Items(f, fp, [&](const V& item, const Path& ip) {
            Taint taint;
            bool has_effect = false;
            Fields(item, ip, [&](std::string_view tk, const V& tv, const Path& tp) {
              if (tk == "key") {
                taint.key = Str(tv, tp);
              } else if (tk == "value") {
                taint.value = Str(tv, tp);
              } else if (tk == "effect") {
                taint.effect = DecodeTaintEffect(tv, tp);
                has_effect = true;
              }
            });
            if (!has_effect) Fail(item, ip.Field("effect"), "Required value");
            node.taints.push_back(std::move(taint));
          });
        }
      });
    } else if (key == "status") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "capacity") {
          capacity = ResourceMap(f, fp);
        } else if (k == "allocatable") {
          allocatable = ResourceMap(f, fp);
        } else if (k == "images") {
          Items(f, fp, [&](const V& item, const Path& ip) {
            ContainerImage image;
            Fields(item, ip, [&](std::string_view ik, const V& iv, const Path& ivp) {
              if (ik == "names") {
                image.names = StringList(iv, ivp);
              } else if (ik == "sizeBytes") {
                image.size_bytes = Int64(iv, ivp);
              }
            });
            node.images.push_back(std::move(image));
          });
        }
      });
    }
  });
  // status.allocatable, falling back per resource to status.capacity.
  for (const auto& [name, q] : capacity) {
    const bool overridden = std::any_of(allocatable.begin(), allocatable.end(),
                                        [&name = name](const auto& a) { return a.first == name; });
    if (!overridden) node.allocatable.Set(name, q);
  }
  for (const auto& [name, q] : allocatable) node.allocatable.Set(name, q);
  return node;
}

// status.containerStatuses[] and status.initContainerStatuses[]: the resources the kubelet reports
// for one container (in-place pod resize).
struct ContainerResourceStatus {
  std::string name;
  bool has_resources = false;  // status.resources is set (upstream's `cs.Resources != nil`)
  ResourceList requests;       // status.resources.requests: what the runtime actuated
  ResourceList allocated;      // status.allocatedResources: what the kubelet admitted
};

// What the scheduler reads of one container besides its requests.
struct ContainerFacts {
  bool sidecar = false;  // an init container with restartPolicy Always
  bool init = false;     // from spec.initContainers
  std::string name;
  ResourceList requests;  // resources.requests, defaulted from limits
  std::string image;
  ResourceList limits;        // resources.limits as written
  std::uint8_t declared = 0;  // ContainerRequest::kRequestsCpu, ...
  struct Port {
    std::int32_t container_port = 0;
    std::int32_t host_port = 0;
    std::string protocol;
    std::string host_ip;
  };
  std::vector<Port> ports;
};

// ports[]: validateContainerPorts' range checks and supported protocols.
template <typename V>
std::vector<ContainerFacts::Port> DecodeContainerPorts(const V& v, const Path& p) {
  std::vector<ContainerFacts::Port> out;
  Items(v, p, [&](const V& item, const Path& ip) {
    ContainerFacts::Port port;
    Fields(item, ip, [&](std::string_view k, const V& f, const Path& fp) {
      const auto port_number = [&](std::int32_t min) {
        const std::int32_t n = Int32(f, fp);
        if (n < min || n > 65535) {
          Fail(f, fp, fmt::format("Invalid value: {}: must be between 1 and 65535, inclusive", n));
        }
        return n;
      };
      if (k == "containerPort") {
        port.container_port = port_number(1);
      } else if (k == "hostPort") {
        if (f.type() != NodeType::kNull) port.host_port = port_number(0);
      } else if (k == "protocol") {
        port.protocol = Str(f, fp);
        if (!port.protocol.empty() && port.protocol != "TCP" && port.protocol != "UDP" &&
            port.protocol != "SCTP") {
          FailUnsupported(f, fp, port.protocol, "\"SCTP\", \"TCP\", \"UDP\"");
        }
      } else if (k == "hostIP") {
        port.host_ip = Str(f, fp);
      }
    });
    out.push_back(std::move(port));
  });
  return out;
}

// One container's effective requests: `requests`, with `limits` standing in for any resource
// that has a limit but no request (API defaulting).
template <typename V>
ResourceList DecodeContainerRequests(const V& v, const Path& p, ContainerFacts& facts) {
  std::vector<std::pair<std::string, Quantity>> requests;
  std::vector<std::pair<std::string, Quantity>> limits;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "resources") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "requests") {
          requests = ResourceMap(f, fp);
        } else if (k == "limits") {
          limits = ResourceMap(f, fp);
        }
      });
    } else if (key == "restartPolicy") {
      facts.sidecar = Str(c, cp) == "Always";
    } else if (key == "ports") {
      facts.ports = DecodeContainerPorts(c, cp);
    } else if (key == "image") {
      facts.image = Str(c, cp);
    } else if (key == "name") {
      facts.name = Str(c, cp);
    }
  });
  ResourceList r;
  for (const auto& [name, q] : limits) {
    r.Set(name, q);
    facts.limits.Set(name, q);
    if (name == kResourceCpu) facts.declared |= ContainerRequest::kRequestsCpu | ContainerRequest::kLimitsCpu;
    if (name == kResourceMemory) facts.declared |= ContainerRequest::kRequestsMemory | ContainerRequest::kLimitsMemory;
  }
  for (const auto& [name, q] : requests) {
    r.Set(name, q);
    if (name == kResourceCpu) facts.declared |= ContainerRequest::kRequestsCpu;
    if (name == kResourceMemory) facts.declared |= ContainerRequest::kRequestsMemory;
  }
  return r;
}

template <typename V>
Toleration DecodeToleration(const V& v, const Path& p) {
  Toleration t;
  Fields(v, p, [&](std::string_view k, const V& f, const Path& fp) {
    if (k == "key") {
      t.key = Str(f, fp);
    } else if (k == "value") {
      t.value = Str(f, fp);
    } else if (k == "operator") {
      const std::string op = Str(f, fp);
      if (op.empty() || op == "Equal") {
        t.op = TolerationOperator::kEqual;
      } else if (op == "Exists") {
        t.op = TolerationOperator::kExists;
      } else {
        FailUnsupported(f, fp, op, "\"Equal\", \"Exists\"");
      }
    } else if (k == "effect") {
      if (f.type() != NodeType::kNull && !Str(f, fp).empty()) t.effect = DecodeTaintEffect(f, fp);
    } else if (k == "tolerationSeconds") {
      t.toleration_seconds = OptInt64(f, fp);
    }
  });
  return t;
}

// `AggregateContainerRequests` (k8s component-helpers resource/helpers.go): the containers'
// requests summed with the sidecars'; the i-th regular init container needs its own requests plus
// every sidecar started before it; the pod needs the larger of the two. `of(facts)` gives a
// container's requests (as written, or as its status reports them).
template <typename Of, typename V>
ResourceList AggregateContainerRequests(const std::vector<ContainerFacts>& main_containers,
                                        const std::vector<ContainerFacts>& init_containers, const Of& of,
                                        const V& v, const Path& p) {
  ResourceList containers;
  ResourceList restartable_init;  // sidecars started so far
  ResourceList init_max;
  const Path containers_path = p.Field("containers");
  const Path init_path = p.Field("initContainers");
  for (std::size_t i = 0; i < main_containers.size(); ++i) {
    AddResources(containers, of(main_containers[i]), v, containers_path.Index(static_cast<int>(i)));
  }
  for (std::size_t i = 0; i < init_containers.size(); ++i) {
    const ContainerFacts& facts = init_containers[i];
    const Path ip = init_path.Index(static_cast<int>(i));
    ResourceList r = of(facts);
    if (facts.sidecar) {
      AddResources(containers, r, v, ip);
      AddResources(restartable_init, r, v, ip);
      init_max = ResourceList::Max(init_max, restartable_init);
    } else {
      AddResources(r, restartable_init, v, ip);
      init_max = ResourceList::Max(init_max, r);
    }
  }
  return ResourceList::Max(containers, init_max);
}

// A bound pod's resize, from its status (`determineContainerReqs`, k8s component-helpers): a
// container (or sidecar) whose status reports resources counts max(spec, actuated, allocated)
// for cpu and memory, or only max(actuated, allocated) while its resize is Infeasible; a value
// neither status list names keeps the spec's. When that differs from the spec, the pod has a
// resize pending (`status.resize`): what the spec asks, and what the kubelet holds.
template <typename RequestsOf>
void ReadPendingResize(const std::vector<ContainerFacts>& main_containers,
                       const std::vector<ContainerFacts>& init_containers, const RequestsOf& pod_requests_of,
                       const std::vector<ContainerResourceStatus>& statuses, PodSpec& spec,
                       PodStatus& status) {
  if (statuses.empty()) return;
  std::string reason;
  for (const PodCondition& c : status.conditions) {
    if (c.type == "PodResizePending") reason = c.reason;
  }
  const auto status_of = [&](const ContainerFacts& facts) -> const ContainerResourceStatus* {
    if (facts.init && !facts.sidecar) return nullptr;
    for (const ContainerResourceStatus& cs : statuses) {
      if (cs.name == facts.name && cs.has_resources) return &cs;
    }
    return nullptr;
  };
  // `include_spec`: the scheduler's view (spec counted unless Infeasible); otherwise the kubelet's.
  const auto with_status = [&](bool include_spec) {
    return [&status_of, include_spec](const ContainerFacts& facts) {
      ResourceList r = facts.requests;
      const ContainerResourceStatus* cs = status_of(facts);
      if (cs == nullptr) return r;
      const auto pick = [&](std::int64_t spec_value, std::int64_t actuated, std::int64_t allocated) {
        const std::int64_t reported = std::max(actuated, allocated);
        if (actuated == 0 && allocated == 0) return spec_value;
        return include_spec ? std::max(spec_value, reported) : reported;
      };
      r.milli_cpu = pick(r.milli_cpu, cs->requests.milli_cpu, cs->allocated.milli_cpu);
      r.memory = pick(r.memory, cs->requests.memory, cs->allocated.memory);
      return r;
    };
  };
  const bool any = std::any_of(main_containers.begin(), main_containers.end(),
                               [&](const ContainerFacts& f) { return status_of(f) != nullptr; }) ||
                   std::any_of(init_containers.begin(), init_containers.end(),
                               [&](const ContainerFacts& f) { return status_of(f) != nullptr; });
  if (!any) return;
  ResourceList allocated = pod_requests_of(with_status(false));
  if (allocated.milli_cpu == spec.requests.milli_cpu && allocated.memory == spec.requests.memory) return;
  PendingResize resize;
  resize.desired = spec.requests;
  resize.reason = reason;
  spec.requests = reason == "Infeasible" ? allocated : pod_requests_of(with_status(true));
  resize.allocated = std::move(allocated);
  status.resize = std::move(resize);
}

// `statuses` and `status`: a bound pod's container statuses and its status, for a resize.
template <typename V>
void DecodePodSpec(const V& v, const Path& p, PodSpec& spec, PodStatus* status = nullptr,
                   const std::vector<ContainerResourceStatus>* statuses = nullptr) {
  ResourceList limits_containers;   // the same aggregation for limits (PodLimits)
  ResourceList limits_restartable;
  ResourceList limits_init_max;
  std::vector<std::pair<std::string, Quantity>> overhead;
  std::vector<std::pair<std::string, Quantity>> pod_requests;
  std::vector<std::pair<std::string, Quantity>> pod_limits;
  std::vector<ContainerFacts> init_containers;
  std::vector<ContainerFacts> main_containers;
  bool host_network = false;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "nodeName") {
      spec.node_name = Str(c, cp);
    } else if (key == "schedulerName") {
      spec.scheduler_name = Str(c, cp);
    } else if (key == "priority") {
      spec.priority = OptInt32(c, cp);
    } else if (key == "priorityClassName") {
      spec.priority_class_name = Str(c, cp);
    } else if (key == "preemptionPolicy") {
      spec.preemption_policy = PreemptionPolicyField(c, cp, spec.preemption_policy_raw);
    } else if (key == "nodeSelector") {
      spec.node_selector = StringMap(c, cp);
    } else if (key == "tolerations") {
      Items(c, cp, [&](const V& item, const Path& ip) {
        spec.tolerations.push_back(DecodeToleration(item, ip));
      });
    } else if (key == "terminationGracePeriodSeconds") {
      spec.termination_grace_period_seconds = OptInt64(c, cp);
      // The simulated clock counts int64 microseconds; a longer grace period would wrap.
      if (spec.termination_grace_period_seconds.value_or(0) > kMaxGracePeriodSeconds) {
        Fail(c, cp,
             fmt::format("Invalid value: {}: must be at most {} seconds (kpsim's simulated clock)",
                         *spec.termination_grace_period_seconds, kMaxGracePeriodSeconds));
      }
    } else if (key == "schedulingGates") {
      Items(c, cp, [&](const V& gate, const Path& gp) {
        std::string name;
        Fields(gate, gp, [&](std::string_view k, const V& f, const Path& fp) {
          if (k == "name") name = Str(f, fp);
        });
        spec.scheduling_gates.push_back(std::move(name));
      });
    } else if (key == "topologySpreadConstraints") {
      spec.topology_spread_constraints = DecodeTopologySpreadConstraints(c, cp);
    } else if (key == "resourceClaims") {
      if (NonEmptyList(c)) spec.NoteUse(UnmodeledField::kResourceClaims);
    } else if (key == "hostNetwork") {
      host_network = Bool(c, cp);
    } else if (key == "volumes") {
      Items(c, cp, [&](const V& volume, const Path& vp) {
        Fields(volume, vp, [&](std::string_view k, const V&, const Path&) {
          if (IsSchedulingVolumeSource(k)) spec.NoteUse(UnmodeledField::kVolumes);
        });
      });
    } else if (key == "schedulingGroup") {
      if (c.type() == NodeType::kNull) return;
      SchedulingGroup group;
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "podGroupName") group.pod_group_name = Str(f, fp);
      });
      spec.scheduling_group = std::move(group);
    } else if (key == "affinity") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        const std::string_view kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
        const std::string_view kPreferred = "preferredDuringSchedulingIgnoredDuringExecution";
        if (k == "nodeAffinity") {
          Fields(f, fp, [&](std::string_view ak, const V& av, const Path& ap) {
            if (ak == kRequired && av.type() != NodeType::kNull) {
              spec.affinity.node_affinity_required = DecodeNodeSelector(av, ap);
            } else if (ak == kPreferred) {
              spec.affinity.node_affinity_preferred = DecodePreferredSchedulingTerms(av, ap);
            }
          });
        } else if (k == "podAffinity" || k == "podAntiAffinity") {
          const bool anti = k == "podAntiAffinity";
          auto& terms =
              anti ? spec.affinity.pod_anti_affinity_required : spec.affinity.pod_affinity_required;
          auto& preferred = anti ? spec.affinity.pod_anti_affinity_preferred
                                 : spec.affinity.pod_affinity_preferred;
          Fields(f, fp, [&](std::string_view ak, const V& av, const Path& ap) {
            if (ak == kRequired) {
              terms = DecodePodAffinityTerms(av, ap);
            } else if (ak == kPreferred) {
              preferred = DecodeWeightedPodAffinityTerms(av, ap);
            }
          });
        }
      });
    } else if (key == "containers") {
      Items(c, cp, [&](const V& item, const Path& ip) {
        ContainerFacts facts;
        facts.requests = DecodeContainerRequests(item, ip, facts);
        const ResourceList& own = facts.requests;
        spec.containers.push_back(
            ContainerRequest{facts.name, own.memory, own.ephemeral_storage, facts.declared, false});
        AddResources(limits_containers, facts.limits, item, ip);
        facts.sidecar = false;  // restartPolicy means nothing on a regular container
        main_containers.push_back(std::move(facts));
      });
    } else if (key == "initContainers") {
      Items(c, cp, [&](const V& item, const Path& ip) {
        ContainerFacts facts;
        facts.init = true;
        facts.requests = DecodeContainerRequests(item, ip, facts);
        const ResourceList& r = facts.requests;
        spec.containers.push_back(ContainerRequest{facts.name, r.memory, r.ephemeral_storage, facts.declared, true});
        ResourceList l = facts.limits;
        if (facts.sidecar) {
          AddResources(limits_containers, l, item, ip);
          AddResources(limits_restartable, l, item, ip);
          limits_init_max = ResourceList::Max(limits_init_max, limits_restartable);
        } else {
          AddResources(l, limits_restartable, item, ip);
          limits_init_max = ResourceList::Max(limits_init_max, l);
        }
        init_containers.push_back(std::move(facts));
      });
    } else if (key == "overhead") {
      overhead = ResourceMap(c, cp);
    } else if (key == "resources") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "requests") {
          pod_requests = ResourceMap(f, fp);
        } else if (k == "limits") {
          pod_limits = ResourceMap(f, fp);
        }
      });
    }
  });
  // Mirrors `PodRequests`: max(containers + sidecars, init containers), then pod-level
  // requests (PodLevelResources: cpu and memory, defaulted from limits) override the aggregate,
  // then overhead is added. `of` gives each container's requests.
  const auto pod_level = [&](std::string_view name) -> std::optional<Quantity> {
    for (const auto& [n, q] : pod_requests) {
      if (n == name) return q;
    }
    for (const auto& [n, q] : pod_limits) {
      if (n == name) return q;
    }
    return std::nullopt;
  };
  const auto pod_requests_of = [&](const auto& of) {
    ResourceList requests = AggregateContainerRequests(main_containers, init_containers, of, v, p);
    if (std::optional<Quantity> cpu = pod_level(kResourceCpu)) requests.Set(kResourceCpu, *cpu);
    if (std::optional<Quantity> mem = pod_level(kResourceMemory)) {
      requests.Set(kResourceMemory, *mem);
    }
    AddResources(requests, ToResourceList(overhead), v, p.Field("overhead"));
    return requests;
  };
  const auto as_written = [](const ContainerFacts& facts) -> const ResourceList& { return facts.requests; };
  spec.requests = pod_requests_of(as_written);
  if (status != nullptr && statuses != nullptr) {
    ReadPendingResize(main_containers, init_containers, pod_requests_of, *statuses, spec, *status);
  }
  // PodLimits: the same aggregation, pod-level limits overriding cpu and memory, overhead added to
  // the limits that are set.
  ResourceList limits = ResourceList::Max(limits_containers, limits_init_max);
  for (const auto& [n, q] : pod_limits) {
    if (n == kResourceCpu || n == kResourceMemory) limits.Set(n, q);
  }
  for (const auto& [n, q] : overhead) {
    const ResourceList one = ToResourceList({{n, q}});
    if (n == kResourceCpu && limits.milli_cpu > 0) AddResources(limits, one, v, p.Field("overhead"));
    if (n == kResourceMemory && limits.memory > 0) AddResources(limits, one, v, p.Field("overhead"));
  }
  spec.limits = std::move(limits);
  // GetHostPorts: the sidecars' ports, then the containers'. With hostNetwork, API defaulting
  // (SetDefaults_Pod) gives every containerPort without a hostPort the same hostPort.
  const auto add_ports = [&](const ContainerFacts& facts) {
    for (const ContainerFacts::Port& port : facts.ports) {
      const std::int32_t host_port =
          port.host_port == 0 && host_network ? port.container_port : port.host_port;
      if (host_port <= 0) continue;
      spec.host_ports.push_back(
          HostPort{host_port, port.protocol.empty() ? "TCP" : port.protocol, port.host_ip});
    }
  };
  for (const ContainerFacts& facts : init_containers) {
    if (facts.sidecar) add_ports(facts);
  }
  for (const ContainerFacts& facts : main_containers) add_ports(facts);
  for (const ContainerFacts& facts : init_containers) spec.images.push_back(facts.image);
  for (const ContainerFacts& facts : main_containers) spec.images.push_back(facts.image);
}

// status.containerStatuses[] / initContainerStatuses[]: name, resources.requests and
// allocatedResources (what an in-place resize needs).
template <typename V>
void DecodeContainerStatuses(const V& v, const Path& p, std::vector<ContainerResourceStatus>& out) {
  Items(v, p, [&](const V& item, const Path& ip) {
    ContainerResourceStatus cs;
    Fields(item, ip, [&](std::string_view k, const V& f, const Path& fp) {
      if (k == "name") {
        cs.name = Str(f, fp);
      } else if (k == "allocatedResources") {
        cs.allocated = ToResourceList(ResourceMap(f, fp));
      } else if (k == "resources" && f.type() != NodeType::kNull) {
        cs.has_resources = true;
        Fields(f, fp, [&](std::string_view rk, const V& rf, const Path& rp) {
          if (rk == "requests") cs.requests = ToResourceList(ResourceMap(rf, rp));
        });
      }
    });
    out.push_back(std::move(cs));
  });
}

template <typename V>
Pod DecodePod(const V& v, const Path& p) {
  Pod pod;
  std::vector<ContainerResourceStatus> statuses;
  // The status first, whatever the field order: the spec's requests depend on it (resizes).
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "metadata") {
      pod.meta = DecodeMeta(c, cp);
    } else if (key == "status") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "phase") {
          pod.status.phase = Str(f, fp);
        } else if (k == "startTime") {
          pod.status.start_time = Time(f, fp);
        } else if (k == "nominatedNodeName") {
          pod.status.nominated_node_name = Str(f, fp);
        } else if (k == "conditions") {
          Items(f, fp, [&](const V& item, const Path& ip) {
            PodCondition cond;
            Fields(item, ip, [&](std::string_view ck, const V& cv, const Path& ccp) {
              if (ck == "type") {
                cond.type = Str(cv, ccp);
              } else if (ck == "status") {
                cond.status = Str(cv, ccp);
              } else if (ck == "reason") {
                cond.reason = Str(cv, ccp);
              } else if (ck == "message") {
                cond.message = Str(cv, ccp);
              }
            });
            pod.status.conditions.push_back(std::move(cond));
          });
        } else if (k == "containerStatuses" || k == "initContainerStatuses") {
          DecodeContainerStatuses(f, fp, statuses);
        }
      });
    }
  });
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "spec") DecodePodSpec(c, cp, pod.spec, &pod.status, &statuses);
  });
  return pod;
}

template <typename V>
PriorityClass DecodePriorityClass(const V& v, const Path& p) {
  PriorityClass pc;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "metadata") {
      pc.meta = DecodeMeta(c, cp);
    } else if (key == "value") {
      pc.value = Int32(c, cp);
    } else if (key == "globalDefault") {
      pc.global_default = Bool(c, cp);
    } else if (key == "description") {
      pc.description = Str(c, cp);
    } else if (key == "preemptionPolicy") {
      pc.preemption_policy = PreemptionPolicyField(c, cp, pc.preemption_policy_raw);
    }
  });
  return pc;
}

// intstr.IntOrString as used by PDBs: an int, or a string "N%".
template <typename V>
std::optional<IntOrString> DecodeIntOrPercent(const V& v, const Path& p) {
  if (v.type() == NodeType::kNull) return std::nullopt;
  if (v.type() == NodeType::kScalar && v.scalar_type() == ScalarType::kInt) {
    return IntOrString{false, Int32(v, p)};
  }
  if (v.type() != NodeType::kScalar || v.scalar_type() != ScalarType::kString) {
    FailType(v, p, "an integer or a percentage string");
  }
  const std::string s = v.text();
  if (s.empty() || s.back() != '%') {
    Fail(v, p, "invalid value for IntOrString: invalid type: string is not a percentage");
  }
  const std::string digits = s.substr(0, s.size() - 1);
  std::optional<std::int64_t> n = YamlInt(digits);
  const bool plain_decimal =
      !digits.empty() && std::all_of(digits.begin() + (digits[0] == '-' || digits[0] == '+'),
                                     digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
  if (!n || !plain_decimal || *n < std::numeric_limits<std::int32_t>::min() ||
      *n > std::numeric_limits<std::int32_t>::max()) {
    Fail(v, p,
         fmt::format("invalid value for IntOrString: invalid value \"{}\": strconv.Atoi: parsing "
                     "\"{}\": invalid syntax",
                     s, digits));
  }
  return IntOrString{true, static_cast<std::int32_t>(*n)};
}

template <typename V>
PodDisruptionBudget DecodePdb(const V& v, const Path& p) {
  PodDisruptionBudget pdb;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "metadata") {
      pdb.meta = DecodeMeta(c, cp);
    } else if (key == "spec") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "minAvailable") {
          pdb.min_available = DecodeIntOrPercent(f, fp);
        } else if (k == "maxUnavailable") {
          pdb.max_unavailable = DecodeIntOrPercent(f, fp);
        } else if (k == "selector") {
          pdb.selector = OptLabelSelector(f, fp);
        }
      });
    } else if (key == "status") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "disruptionsAllowed") {
          pdb.disruptions_allowed = OptInt32(f, fp);
        } else if (k == "disruptedPods") {
          Fields(f, fp, [&](std::string_view pod_name, const V&, const Path&) {
            pdb.disrupted_pods.emplace_back(pod_name);
          });
          std::sort(pdb.disrupted_pods.begin(), pdb.disrupted_pods.end());
        }
      });
    }
  });
  return pdb;
}

template <typename V>
Namespace DecodeNamespace(const V& v, const Path& p) {
  Namespace ns;
  if (std::optional<V> meta = v.Get("metadata")) ns.meta = DecodeMeta(*meta, p.Field("metadata"));
  return ns;
}

// A Service: its metadata and spec.selector (null: unset); the rest of the spec is not read.
template <typename V>
Service DecodeService(const V& v, const Path& p) {
  Service service;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "metadata") {
      service.meta = DecodeMeta(c, cp);
    } else if (key == "spec") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "selector" && f.type() != NodeType::kNull) service.selector = StringMap(f, fp);
      });
    }
  });
  return service;
}

// A one-of written as `{single: {}}` / `{all: {}}` (also accepts the plain strings "Single" /
// "All").
template <typename V>
std::optional<DisruptionMode> DecodeDisruptionMode(const V& v, const Path& p) {
  if (v.type() == NodeType::kNull) return std::nullopt;
  if (v.type() == NodeType::kScalar) {
    const std::string s = Str(v, p);
    if (s == "Single" || s == "single") return DisruptionMode::kSingle;
    if (s == "All" || s == "all") return DisruptionMode::kAll;
    FailUnsupported(v, p, s, "\"All\", \"Single\"");
  }
  std::optional<DisruptionMode> mode;
  Fields(v, p, [&](std::string_view k, const V& f, const Path& fp) {
    if (f.type() != NodeType::kNull && f.type() != NodeType::kMap) FailType(f, fp, "an object");
    if (k == "single") {
      mode = DisruptionMode::kSingle;
    } else if (k == "all") {
      mode = DisruptionMode::kAll;
    }
  });
  return mode;
}

template <typename V>
PodGroup DecodePodGroup(const V& v, const Path& p, bool composite) {
  PodGroup g;
  g.composite = composite;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "metadata") {
      g.meta = DecodeMeta(c, cp);
    } else if (key == "spec") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "schedulingPolicy") {
          Fields(f, fp, [&](std::string_view sk, const V& sv, const Path& sp) {
            if (sk == "gang") {
              g.scheduling_policy.gang = true;
              Fields(sv, sp, [&](std::string_view gk, const V& gv, const Path& gp) {
                if (gk == "minCount") g.scheduling_policy.min_count = Int32(gv, gp);
              });
            } else if (sk == "basic") {
              if (sv.type() != NodeType::kNull && sv.type() != NodeType::kMap) {
                FailType(sv, sp, "an object");
              }
            }
          });
        } else if (k == "disruptionMode") {
          g.disruption_mode = DecodeDisruptionMode(f, fp);
        } else if (k == "priorityClassName") {
          g.priority_class_name = Str(f, fp);
        } else if (k == "priority") {
          g.priority = OptInt32(f, fp);
        } else if (k == "preemptionPolicy") {
          g.preemption_policy = PreemptionPolicyField(f, fp, g.preemption_policy_raw);
        } else if (k == "parentCompositePodGroupName") {
          g.parent_composite_pod_group_name = Str(f, fp);
        } else if (k == "schedulingConstraints") {
          Fields(f, fp, [&](std::string_view ck, const V& cv, const Path& ccp) {
            if (ck != "topology") return;
            Items(cv, ccp, [&](const V& item, const Path& ip) {
              Fields(item, ip, [&](std::string_view tk, const V& tv, const Path& tp) {
                if (tk == "key") g.topology_keys.push_back(Str(tv, tp));
              });
            });
          });
        }
      });
    }
  });
  return g;
}

}  // namespace kpsim::io::internal

#include "io/decode_workloads.h"  // IWYU pragma: export
