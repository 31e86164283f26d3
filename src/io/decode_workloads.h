#pragma once

// Decoders for the workload kinds (apps/v1 Deployment, ReplicaSet, StatefulSet, DaemonSet and
// batch/v1 Job) into `Workload`, with the checks of Kubernetes' API validation that decide whether
// the controller could create any pod at all (`ValidateDeploymentSpec`, `ValidateReplicaSetSpec`,
// `ValidateStatefulSetSpec`, `ValidateDaemonSetSpec`, `ValidateJobSpec` in pkg/apis/{apps,batch}/
// validation). A refused workload throws `DecodeFailure` with Kubernetes' field and message.
// Included from decode_objects.h.

#include <optional>
#include <string>
#include <string_view>

#include "fmt/format.h"
#include "io/decode_objects.h"
#include "io/manifest_node.h"
#include "kpsim/api/types.h"

namespace kpsim::io::internal {

// Go's JSON rendering of a string map, as newer API servers print an invalid labels value.
inline std::string LabelsAsJson(const Labels& labels) {
  std::string out = "{";
  for (const auto& [key, value] : labels) {
    if (out.size() > 1) out += ',';
    out += fmt::format("\"{}\":\"{}\"", key, value);
  }
  return out + "}";
}

inline std::string SelectorAsJson(const LabelSelector& s) {
  if (s.IsEmpty()) return "{}";
  std::string out = "{";
  if (!s.match_labels.empty()) out += "\"matchLabels\":" + LabelsAsJson(s.match_labels);
  if (!s.match_expressions.empty()) {
    if (out.size() > 1) out += ',';
    out += fmt::format("\"matchExpressions\":[{} requirement(s)]", s.match_expressions.size());
  }
  return out + "}";
}

// `field.Invalid(path, value, "must be greater than or equal to 0")` for a negative count.
template <typename V>
std::optional<std::int32_t> NonNegativeInt32(const V& v, const Path& p) {
  std::optional<std::int32_t> n = OptInt32(v, p);
  if (n && *n < 0) {
    Fail(v, p, fmt::format("Invalid value: {}: must be greater than or equal to 0", *n));
  }
  return n;
}

template <typename V>
Workload DecodeWorkload(const V& v, const Path& p, WorkloadKind kind) {
  Workload w;
  w.kind = kind;
  std::optional<V> template_node;
  std::optional<V> selector_node;
  std::optional<V> spec_node;
  std::optional<V> labels_node;
  std::optional<V> restart_node;
  bool has_containers = false;
  std::string restart_policy;
  const Path spec_path = p.Field("spec");
  const Path template_path = spec_path.Field("template");
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "metadata") {
      w.meta = DecodeMeta(c, cp);
    } else if (key == "spec") {
      spec_node = c;
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "replicas" && kind != WorkloadKind::kJob && kind != WorkloadKind::kDaemonSet) {
          w.replicas = NonNegativeInt32(f, fp);
        } else if (k == "selector") {
          selector_node = f;
          w.selector = OptLabelSelector(f, fp);
        } else if (k == "template") {
          if (f.type() == NodeType::kNull) return;
          template_node = f;
          w.pod_template = DecodePod(f, fp);
          Fields(f, fp, [&](std::string_view tk, const V& tv, const Path& tp) {
            if (tk == "metadata") {
              Fields(tv, tp, [&](std::string_view mk, const V& mv, const Path&) {
                if (mk == "labels") labels_node = mv;
              });
            } else if (tk != "spec") {
              return;
            }
            Fields(tv, tp, [&](std::string_view sk, const V& sv, const Path& sp) {
              if (sk == "hostNetwork") {
                w.host_network = Bool(sv, sp);
              } else if (sk == "restartPolicy") {
                restart_node = sv;
                restart_policy = Str(sv, sp);
              } else if (sk == "containers") {
                if (sv.type() == NodeType::kSeq) {
                  sv.ForEachItem([&](int, const V&) { has_containers = true; });
                }
              }
            });
          });
        } else if (kind == WorkloadKind::kStatefulSet) {
          if (k == "serviceName") {
            w.service_name = Str(f, fp);
          } else if (k == "podManagementPolicy") {
            w.pod_management_policy = Str(f, fp);
            if (w.pod_management_policy != "OrderedReady" && w.pod_management_policy != "Parallel" &&
                !w.pod_management_policy.empty()) {
              FailUnsupported(f, fp, w.pod_management_policy, "\"OrderedReady\", \"Parallel\"");
            }
          } else if (k == "ordinals") {
            Fields(f, fp, [&](std::string_view ok, const V& ov, const Path& op) {
              if (ok == "start") w.ordinals_start = NonNegativeInt32(ov, op).value_or(0);
            });
          }
        } else if (kind == WorkloadKind::kJob) {
          if (k == "parallelism") {
            w.parallelism = NonNegativeInt32(f, fp);
          } else if (k == "completions") {
            w.completions = NonNegativeInt32(f, fp);
          } else if (k == "completionMode") {
            const std::string mode = Str(f, fp);
            if (mode == "Indexed") {
              w.indexed = true;
            } else if (!mode.empty() && mode != "NonIndexed") {
              FailUnsupported(f, fp, mode, "\"NonIndexed\", \"Indexed\"");
            }
          } else if (k == "suspend") {
            w.suspend = Bool(f, fp);
          } else if (k == "manualSelector") {
            w.manual_selector = Bool(f, fp);
          }
        }
      });
    } else if (key == "status" && kind == WorkloadKind::kJob) {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k == "succeeded") w.succeeded = NonNegativeInt32(f, fp).value_or(0);
      });
    }
  });

  // metadata.name (ValidateObjectMeta): a name, or a generateName to make one from.
  if (w.meta.name.empty() && w.meta.generate_name.empty()) {
    Fail(v, p.Field("metadata").Field("name"), "Required value: name or generateName is required");
  }
  // The pod template (ValidatePodTemplateSpec): at least one container.
  const V& spec_or_object = spec_node ? *spec_node : v;
  if (!template_node || !has_containers) {
    Fail(template_node ? *template_node : spec_or_object,
         template_path.Field("spec").Field("containers"), "Required value");
  }
  // restartPolicy: Always for the apps kinds; OnFailure or Never for a Job (API defaulting makes
  // an unset policy Always, which a Job refuses).
  const V& restart_or_template = restart_node ? *restart_node : *template_node;
  const Path template_spec_path = template_path.Field("spec");  // `Path` links to its parent
  const Path restart_path = template_spec_path.Field("restartPolicy");
  if (kind == WorkloadKind::kJob) {
    if (restart_policy != "OnFailure" && restart_policy != "Never") {
      FailUnsupported(restart_or_template, restart_path,
                      restart_policy.empty() ? "Always" : restart_policy,
                      "\"OnFailure\", \"Never\"");
    }
  } else if (!restart_policy.empty() && restart_policy != "Always") {
    FailUnsupported(restart_or_template, restart_path, restart_policy, "\"Always\"");
  }
  // The selector: required and non-empty for the apps kinds; a Job's is generated unless
  // manualSelector (`ValidateGeneratedSelector`).
  const Path selector_path = spec_path.Field("selector");
  const V& selector_or_spec = selector_node ? *selector_node : spec_or_object;
  bool check_match = true;
  if (kind == WorkloadKind::kJob && !w.manual_selector) {
    check_match = false;
    if (w.selector && !w.selector->IsEmpty()) {
      const bool generated = FindLabel(w.selector->match_labels,
                                       "batch.kubernetes.io/controller-uid") != nullptr ||
                             FindLabel(w.selector->match_labels, "controller-uid") != nullptr;
      if (!generated) {
        Fail(selector_or_spec, selector_path,
             fmt::format("Invalid value: {}: `selector` not auto-generated",
                         SelectorAsJson(*w.selector)));
      }
      check_match = true;
    }
  } else if (!w.selector) {
    Fail(selector_or_spec, selector_path, "Required value");
  } else if (w.selector->IsEmpty()) {
    std::string_view what = "deployment";  // ReplicaSet validation says "deployment" too
    if (kind == WorkloadKind::kStatefulSet) what = "statefulset";
    if (kind == WorkloadKind::kDaemonSet) what = "daemonset";
    if (kind == WorkloadKind::kJob) what = "job";
    Fail(selector_or_spec, selector_path,
         fmt::format("Invalid value: {{}}: empty selector is invalid for {}", what));
  }
  if (check_match && w.selector && !w.selector->Matches(w.pod_template.meta.labels)) {
    Fail(labels_node ? *labels_node : *template_node,
         template_path.Field("metadata").Field("labels"),
         fmt::format("Invalid value: {}: `selector` does not match template `labels`",
                     LabelsAsJson(w.pod_template.meta.labels)));
  }
  return w;
}

}  // namespace kpsim::io::internal
