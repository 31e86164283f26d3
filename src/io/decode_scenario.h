#pragma once

// Decoders for the two kinds that are not cluster objects: kpsim's own Scenario
// (kpsim.io/v1alpha1) and the metrics API's PodMetrics (metrics.k8s.io/v1beta1). Same conventions
// as decode_objects.h: templates over the view, `DecodeFailure` on the first bad field.

#include <string>
#include <string_view>
#include <utility>

#include "io/decode_objects.h"
#include "kpsim/api/duration.h"
#include "kpsim/eviction.h"

namespace kpsim::io::internal {

template <typename V>
PodMetrics DecodePodMetrics(const V& v, const Path& p) {
  PodMetrics m;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "metadata") {
      m.meta = DecodeMeta(c, cp);
    } else if (key == "containers") {
      Items(c, cp, [&](const V& item, const Path& ip) {
        ContainerMetrics container;
        Fields(item, ip, [&](std::string_view k, const V& f, const Path& fp) {
          if (k == "name") {
            container.name = Str(f, fp);
          } else if (k == "usage") {
            container.usage = ToResourceList(ResourceMap(f, fp));
          }
        });
        m.containers.push_back(std::move(container));
      });
    }
  });
  return m;
}

// "ns/name" or "name" (namespace "default"), as a step names a pod.
template <typename V>
std::string PodRef(const V& v, const Path& p) {
  std::string ref = Str(v, p);
  if (ref.empty()) Fail(v, p, "Required value: a pod as \"namespace/name\"");
  const std::size_t slash = ref.find('/');
  if (slash == std::string::npos) return "default/" + ref;
  if (slash == 0 || slash + 1 == ref.size() || ref.find('/', slash + 1) != std::string::npos) {
    Fail(v, p, fmt::format("Invalid value: \"{}\": a pod as \"namespace/name\"", ref));
  }
  return ref;
}

template <typename V>
Taint DecodeStepTaint(const V& v, const Path& p, bool effect_required, bool& has_effect) {
  Taint t;
  Fields(v, p, [&](std::string_view k, const V& f, const Path& fp) {
    if (k == "key") {
      t.key = Str(f, fp);
    } else if (k == "value") {
      t.value = Str(f, fp);
    } else if (k == "effect") {
      t.effect = DecodeTaintEffect(f, fp);
      has_effect = true;
    }
  });
  if (t.key.empty()) Fail(v, p.Field("key"), "Required value");
  if (effect_required && !has_effect) Fail(v, p.Field("effect"), "Required value");
  return t;
}

// The actions a step may name, in the order the README lists them.
inline constexpr std::array<std::pair<std::string_view, StepAction>, 8> kStepActions{{
    {"apply", StepAction::kApply},
    {"delete", StepAction::kDelete},
    {"cordon", StepAction::kCordon},
    {"uncordon", StepAction::kUncordon},
    {"taint", StepAction::kTaint},
    {"untaint", StepAction::kUntaint},
    {"pressure", StepAction::kPressure},
    {"resize", StepAction::kResize},
}};

// One step. `decode_object(view, path, step)` decodes an `apply` object into `step.object` or
// `step.workload` (its kind and apiVersion decide the decoder; it throws DecodeFailure for kinds a
// step cannot apply).
template <typename V, typename DecodeObject>
ScenarioStep DecodeStep(const V& v, const Path& p, DecodeObject&& decode_object) {
  ScenarioStep step;
  if (v.type() != NodeType::kMap) FailType(v, p, "an object");
  bool has_at = false;
  std::optional<StepAction> action;
  const auto set_action = [&](StepAction a, const V& f, const Path& fp) {
    if (action) {
      Fail(f, fp,
           fmt::format("a step has exactly one action; this one has {} and {}", StepActionName(*action),
                       StepActionName(a)));
    }
    action = a;
  };
  Fields(v, p, [&](std::string_view k, const V& f, const Path& fp) {
    if (k == "at") {
      const std::string text = Str(f, fp);
      Expected<std::int64_t> ns = ParseGoDuration(text);
      if (!ns.ok()) Fail(f, fp, ns.error().message);
      if (*ns < 0) Fail(f, fp, fmt::format("Invalid value: \"{}\": must be 0 or later", text));
      step.at_us = FloorNanosToMicros(*ns);
      has_at = true;
      return;
    }
    for (const auto& [name, a] : kStepActions) {
      if (k != name) continue;
      set_action(a, f, fp);
      switch (a) {
        case StepAction::kApply:
          decode_object(f, fp, step);
          break;
        case StepAction::kDelete:
          Fields(f, fp, [&](std::string_view dk, const V& d, const Path& dp) {
            if (dk == "kind") {
              step.kind = Str(d, dp);
            } else if (dk == "namespace") {
              step.namespace_ = Str(d, dp);
            } else if (dk == "name") {
              step.name = Str(d, dp);
            } else if (dk == "gracePeriodSeconds") {
              step.grace_period_seconds = Int(d, dp, 0, kMaxGracePeriodSeconds);
            }
          });
          if (step.kind.empty()) Fail(f, fp.Field("kind"), "Required value");
          if (step.name.empty()) Fail(f, fp.Field("name"), "Required value");
          break;
        case StepAction::kCordon:
        case StepAction::kUncordon:
          step.name = Str(f, fp);
          if (step.name.empty()) Fail(f, fp, "Required value: a node name");
          break;
        case StepAction::kTaint:
        case StepAction::kUntaint: {
          Fields(f, fp, [&](std::string_view tk, const V& t, const Path& tp) {
            if (tk == "node") step.name = Str(t, tp);
          });
          if (step.name.empty()) Fail(f, fp.Field("node"), "Required value");
          bool has_effect = false;
          step.taint = DecodeStepTaint(f, fp, /*effect_required=*/a == StepAction::kTaint, has_effect);
          step.any_effect = !has_effect;
          break;
        }
        case StepAction::kResize:
          Fields(f, fp, [&](std::string_view rk, const V& r, const Path& rp) {
            if (rk == "pod") {
              step.name = PodRef(r, rp);
            } else if (rk == "requests") {
              step.requests = ResourceMap(r, rp);
            }
          });
          if (step.name.empty()) Fail(f, fp.Field("pod"), "Required value");
          if (step.requests.empty()) Fail(f, fp.Field("requests"), "Required value: the pod's requests after the resize");
          break;
        case StepAction::kPressure:
          Fields(f, fp, [&](std::string_view pk, const V& q, const Path& qp) {
            if (pk == "node") {
              step.name = Str(q, qp);
            } else if (pk == "signal") {
              step.signal = Str(q, qp);
            } else if (pk == "available") {
              step.available = Qty(q, qp);
            } else if (pk == "threshold") {
              step.threshold = Qty(q, qp);
            } else if (pk == "usage") {
              Fields(q, qp, [&](std::string_view pod, const V& u, const Path& up) {
                PodUsage usage;
                usage.pod = std::string(pod).find('/') == std::string::npos ? "default/" + std::string(pod)
                                                                             : std::string(pod);
                usage.usage = Qty(u, up);
                step.usage.push_back(std::move(usage));
              });
            }
          });
          if (step.name.empty()) Fail(f, fp.Field("node"), "Required value");
          if (step.signal.empty()) Fail(f, fp.Field("signal"), "Required value");
          if (!ParseEvictionSignal(step.signal)) {
            FailUnsupported(f, fp.Field("signal"), step.signal, EvictionSignalNames());
          }
          break;
      }
      return;
    }
    Fail(f, fp,
         fmt::format("unknown step field \"{}\" (a step has `at` and one of: apply, delete, cordon, "
                     "uncordon, taint, untaint, pressure, resize)",
                     k));
  });
  if (!has_at) Fail(v, p.Field("at"), "Required value: when the step happens, as a Go duration (\"30s\")");
  if (!action) {
    Fail(v, p,
         "Required value: one action (apply, delete, cordon, uncordon, taint, untaint, pressure, resize)");
  }
  step.action = *action;
  return step;
}

template <typename V, typename DecodeObject>
Scenario DecodeScenario(const V& v, const Path& p, DecodeObject&& decode_object) {
  Scenario scenario;
  bool has_steps = false;
  Fields(v, p, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "metadata") {
      scenario.meta = DecodeMeta(c, cp);
    } else if (key == "spec") {
      Fields(c, cp, [&](std::string_view k, const V& f, const Path& fp) {
        if (k != "steps") return;
        has_steps = true;
        Items(f, fp, [&](const V& item, const Path& ip) {
          ScenarioStep step = DecodeStep(item, ip, decode_object);
          step.index = static_cast<int>(scenario.steps.size());
          step.source.line = item.line();
          scenario.steps.push_back(std::move(step));
        });
      });
    }
  });
  if (!has_steps) Fail(v, p.Field("spec").Field("steps"), "Required value");
  return scenario;
}

}  // namespace kpsim::io::internal
