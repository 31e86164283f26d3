#pragma once

// Decoder for a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), on its own or as a
// kube-scheduler-simulator export's `schedulerConfig`. Keeps what kpsim models (the
// default-scheduler profile's percentageOfNodesToScore, DefaultPreemption's
// minCandidateNodesPercentage/Absolute, the pod backoff seconds), validates as kube-scheduler's
// ValidateKubeSchedulerConfiguration / ValidateDefaultPreemptionArgs do (same messages), and
// says what it does not model. Wrong field types throw `DecodeFailure` like the object decoders.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fmt/format.h"
#include "io/decode_objects.h"
#include "io/manifest_node.h"
#include "kpsim/io.h"

namespace kpsim::io::internal {

inline constexpr std::string_view kSchedulerConfigApiVersion = "kubescheduler.config.k8s.io/v1";
inline constexpr std::string_view kDefaultSchedulerName = "default-scheduler";
// kpsim's clock counts int64 microseconds; backoff beyond this many seconds is refused.
inline constexpr std::int64_t kMaxBackoffSeconds = 100000000;

struct ConfigIssue {
  std::string field;    // "profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute"
  std::string message;  // "Invalid value: -1: not in valid range [0, inf)"
  int line = 0;
};

struct DecodedConfig {
  SchedulerConfig config;
  std::vector<ConfigIssue> errors;  // validation errors: the configuration applies nothing
  std::vector<ConfigIssue> notes;   // not modelled (field = code, message = sentence)
};

namespace config_detail {

inline bool Known(std::string_view key, std::initializer_list<std::string_view> keys) {
  for (std::string_view k : keys) {
    if (k == key) return true;
  }
  return false;
}

inline std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

struct ProfileRead {
  std::string scheduler_name;
  bool name_given = false;
  int name_line = 0;
  std::optional<std::int32_t> percentage;
  int percentage_line = 0;
  std::optional<std::int32_t> min_percentage;
  std::optional<std::int32_t> min_absolute;
  std::vector<std::string> plugin_changes;  // "score.enabled: A, B"
  std::vector<std::string> other_args;      // pluginConfig names other than DefaultPreemption
  std::vector<ConfigIssue> plugin_config_errors;
};

template <typename V>
void ReadPluginSets(const V& v, const Path& p, ProfileRead& profile) {
  Fields(v, p, [&](std::string_view point, const V& set, const Path& sp) {
    Fields(set, sp, [&](std::string_view which, const V& list, const Path& lp) {
      if (which != "enabled" && which != "disabled") return;
      std::vector<std::string> names;
      Items(list, lp, [&](const V& plugin, const Path& pp) {
        if (std::optional<V> name = plugin.Get("name")) {
          names.push_back(Str(*name, pp.Field("name")));
        } else if (plugin.type() != NodeType::kMap) {
          FailType(plugin, pp, "an object");
        }
      });
      if (!names.empty()) {
        profile.plugin_changes.push_back(
            fmt::format("{}.{}: {}", point, which, JoinNames(names)));
      }
    });
  });
}

}  // namespace config_detail

// REQUIRES: `v` is a map. Field paths are relative to the configuration (as kube-scheduler's).
template <typename V>
DecodedConfig DecodeSchedulerConfig(const V& v) {
  using config_detail::Known;
  using config_detail::ProfileRead;
  const Path root;
  DecodedConfig out;
  auto invalid = [&](const Path& p, int line, const std::string& value, std::string_view what) {
    out.errors.push_back({p.ToString(), fmt::format("Invalid value: {}: {}", value, what), line});
  };
  auto note = [&](std::string code, std::string message) {
    out.notes.push_back({std::move(code), std::move(message), 0});
  };

  std::optional<std::int32_t> top_percentage;
  int top_percentage_line = 0;
  std::optional<std::int64_t> parallelism;
  int parallelism_line = 0;
  std::int64_t initial = 1;
  std::int64_t max = 10;
  int initial_line = 0;
  int max_line = 0;
  std::vector<ProfileRead> profiles;
  int extenders = 0;
  std::vector<std::string> unknown;

  Fields(v, root, [&](std::string_view key, const V& c, const Path& cp) {
    if (key == "percentageOfNodesToScore") {
      top_percentage = OptInt32(c, cp);
      top_percentage_line = c.line();
    } else if (key == "podInitialBackoffSeconds") {
      if (c.type() != NodeType::kNull) initial = Int64(c, cp);
      initial_line = c.line();
    } else if (key == "podMaxBackoffSeconds") {
      if (c.type() != NodeType::kNull) max = Int64(c, cp);
      max_line = c.line();
    } else if (key == "parallelism") {
      parallelism = OptInt64(c, cp);
      parallelism_line = c.line();
    } else if (key == "extenders") {
      Items(c, cp, [&](const V&, const Path&) { ++extenders; });
    } else if (key == "profiles") {
      Items(c, cp, [&](const V& item, const Path& ip) {
        ProfileRead profile;
        profile.name_line = item.line();
        Fields(item, ip, [&](std::string_view pk, const V& pc, const Path& pp) {
          if (pk == "schedulerName") {
            profile.scheduler_name = Str(pc, pp);
            profile.name_given = pc.type() != NodeType::kNull;
            profile.name_line = pc.line();
          } else if (pk == "percentageOfNodesToScore") {
            profile.percentage = OptInt32(pc, pp);
            profile.percentage_line = pc.line();
          } else if (pk == "plugins") {
            config_detail::ReadPluginSets(pc, pp, profile);
          } else if (pk == "pluginConfig") {
            std::set<std::string> seen;
            auto invalid_arg = [&](const Path& ip2, int line, std::int32_t value,
                                   std::string_view what) {
              profile.plugin_config_errors.push_back(
                  {ip2.ToString(), fmt::format("Invalid value: {}: {}", value, what), line});
            };
            Items(pc, pp, [&](const V& cfg, const Path& cfp) {
              std::string name;
              if (std::optional<V> n = cfg.Get("name")) name = Str(*n, cfp.Field("name"));
              if (cfg.type() != NodeType::kMap) FailType(cfg, cfp, "an object");
              if (!seen.insert(name).second) {
                profile.plugin_config_errors.push_back(
                    {cfp.ToString(), fmt::format("Duplicate value: \"{}\"", name), cfg.line()});
                return;
              }
              if (name != "DefaultPreemption") {
                profile.other_args.push_back(name);
                return;
              }
              std::optional<V> args = cfg.Get("args");
              if (!args) return;
              const Path ap = cfp.Field("args");
              int pct_line = args->line();
              int abs_line = args->line();
              Fields(*args, ap, [&](std::string_view ak, const V& ac, const Path& acp) {
                if (ak == "minCandidateNodesPercentage") {
                  profile.min_percentage = OptInt32(ac, acp);
                  pct_line = ac.line();
                } else if (ak == "minCandidateNodesAbsolute") {
                  profile.min_absolute = OptInt32(ac, acp);
                  abs_line = ac.line();
                }
              });
              // ValidateDefaultPreemptionArgs, on the defaulted args (SetDefaults_DefaultPreemptionArgs:
              // 10 and 100).
              const std::int32_t pct = profile.min_percentage.value_or(10);
              const std::int32_t abs = profile.min_absolute.value_or(100);
              const Path pct_path = ap.Field("minCandidateNodesPercentage");
              const Path abs_path = ap.Field("minCandidateNodesAbsolute");
              if (pct < 0 || pct > 100) {
                invalid_arg(pct_path, pct_line, pct, "not in valid range [0, 100]");
              }
              if (abs < 0) invalid_arg(abs_path, abs_line, abs, "not in valid range [0, inf)");
              if (pct == 0 && abs == 0) {
                invalid_arg(pct_path, pct_line, 0,
                            "cannot be zero at the same time as minCandidateNodesAbsolute");
                invalid_arg(abs_path, abs_line, 0,
                            "cannot be zero at the same time as minCandidateNodesPercentage");
              }
              if (!profile.min_percentage) profile.min_percentage = pct;
              if (!profile.min_absolute) profile.min_absolute = abs;
            });
          } else {
            unknown.push_back(pp.ToString());
          }
        });
        profiles.push_back(std::move(profile));
      });
    } else if (!Known(key, {"apiVersion", "kind", "leaderElection", "clientConnection",
                            "healthzBindAddress", "metricsBindAddress", "enableProfiling",
                            "enableContentionProfiling", "delayCacheUntilActive"})) {
      unknown.push_back(cp.ToString());
    }
  });

  // SetDefaults_KubeSchedulerConfiguration: no profiles means one default profile; a single
  // profile without a name is the default-scheduler.
  if (profiles.empty()) {
    ProfileRead p;
    p.scheduler_name = std::string(kDefaultSchedulerName);
    p.name_given = true;
    profiles.push_back(p);
  } else if (profiles.size() == 1 && !profiles[0].name_given) {
    profiles[0].scheduler_name = std::string(kDefaultSchedulerName);
    profiles[0].name_given = true;
  }

  // ValidateKubeSchedulerConfiguration, in its order.
  const Path profiles_path = root.Field("profiles");
  if (parallelism && *parallelism <= 0) {
    invalid(root.Field("parallelism"), parallelism_line, std::to_string(*parallelism),
            "should be an integer value greater than zero");
  }
  std::set<std::string> names;
  const ProfileRead* chosen = nullptr;
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    const ProfileRead& p = profiles[i];
    const Path ip = profiles_path.Index(static_cast<int>(i));
    if (p.scheduler_name.empty()) {
      out.errors.push_back({ip.Field("schedulerName").ToString(), "Required value", p.name_line});
    } else if (!names.insert(p.scheduler_name).second) {
      out.errors.push_back({ip.Field("schedulerName").ToString(),
                            fmt::format("Duplicate value: \"{}\"", p.scheduler_name),
                            p.name_line});
    }
    if (p.percentage && (*p.percentage < 0 || *p.percentage > 100)) {
      invalid(ip.Field("percentageOfNodesToScore"), p.percentage_line,
              std::to_string(*p.percentage), "not in valid range [0-100]");
    }
    // validatePluginConfig.
    out.errors.insert(out.errors.end(), p.plugin_config_errors.begin(),
                      p.plugin_config_errors.end());
    if (p.scheduler_name == kDefaultSchedulerName) {
      if (chosen == nullptr) chosen = &p;
    } else if (!p.scheduler_name.empty()) {
      note("ProfileNotModelled",
           fmt::format("scheduler profile \"{}\" is not modelled: kpsim runs only the "
                       "default-scheduler profile (pods naming another scheduler stay pending)",
                       p.scheduler_name));
    }
  }
  if (top_percentage && (*top_percentage < 0 || *top_percentage > 100)) {
    invalid(root.Field("percentageOfNodesToScore"), top_percentage_line,
            std::to_string(*top_percentage), "not in valid range [0-100]");
  }
  if (initial <= 0) {
    invalid(root.Field("podInitialBackoffSeconds"), initial_line, std::to_string(initial),
            "must be greater than 0");
  }
  if (max < initial) {
    invalid(root.Field("podMaxBackoffSeconds"), max_line, std::to_string(max),
            "must be greater than or equal to PodInitialBackoffSeconds");
  }
  // kpsim's own bound (not kube-scheduler's): the simulated clock must hold the backoff.
  if (initial > kMaxBackoffSeconds) {
    invalid(root.Field("podInitialBackoffSeconds"), initial_line, std::to_string(initial),
            fmt::format("kpsim's simulated clock holds at most {} seconds", kMaxBackoffSeconds));
  }
  if (max > kMaxBackoffSeconds) {
    invalid(root.Field("podMaxBackoffSeconds"), max_line, std::to_string(max),
            fmt::format("kpsim's simulated clock holds at most {} seconds", kMaxBackoffSeconds));
  }

  if (extenders > 0) {
    note("ExtendersNotModelled",
         fmt::format("{} scheduler extender{} not modelled: kpsim calls no extenders", extenders,
                     extenders == 1 ? " is" : "s are"));
  }
  for (const std::string& field : unknown) {
    note("UnknownField", fmt::format("field \"{}\" is not a KubeSchedulerConfiguration field kpsim "
                                     "knows; ignored",
                                     field));
  }

  SchedulerConfig& cfg = out.config;
  cfg.pod_initial_backoff_seconds = initial;
  cfg.pod_max_backoff_seconds = max;
  cfg.percentage_of_nodes_to_score = top_percentage.value_or(0);
  if (chosen == nullptr) {
    note("ProfileNotModelled",
         "no default-scheduler profile: kpsim runs the default-scheduler profile with default "
         "plugins and arguments");
    return out;
  }
  // numFeasibleNodesToFind: the profile's percentageOfNodesToScore if set, else the global one.
  if (chosen->percentage) cfg.percentage_of_nodes_to_score = *chosen->percentage;
  if (chosen->min_percentage || chosen->min_absolute) {
    cfg.preemption_args = true;
    cfg.min_candidate_nodes_percentage = chosen->min_percentage.value_or(10);
    cfg.min_candidate_nodes_absolute = chosen->min_absolute.value_or(100);
  }
  if (!chosen->plugin_changes.empty()) {
    note("PluginsNotModelled",
         fmt::format("plugins of the default-scheduler profile are not modelled ({}): kpsim runs "
                     "its default plugin set",
                     config_detail::JoinNames(chosen->plugin_changes)));
  }
  if (!chosen->other_args.empty()) {
    note("PluginConfigNotModelled",
         fmt::format("pluginConfig of {} is not modelled: kpsim uses those plugins' default "
                     "arguments (only DefaultPreemption's are read)",
                     config_detail::JoinNames(chosen->other_args)));
  }
  return out;
}

}  // namespace kpsim::io::internal
