#pragma once

// The fixture of the filter plugins' tests (tests/plugins/*_test.cc): nodes and pods added one by
// one, then one pending pod filtered on one node through the registry's whole chain (the filter
// runner, InterPodAffinity's PreFilter included); each plugin's verdict, its exact reason string
// (the text kube-scheduler puts in FitError histograms) and its Status code, which decides whether
// preemption may consider the node (Unschedulable) or not (UnschedulableAndUnresolvable).

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "framework/filter_runner.h"
#include "framework/status.h"
#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "plugins/registry.h"
#include "snapshot/cluster.h"
#include "testing/builders.h"

namespace kpsim::engine::plugin_test {

using kpsim::testing::MakeNamespace;
using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

inline constexpr std::string_view kZone = "topology.kubernetes.io/zone";
inline constexpr std::string_view kHostname = "kubernetes.io/hostname";

// What admission would have filled in.
inline Pod Admitted(Pod pod) {
  if (pod.meta.namespace_.empty()) pod.meta.namespace_ = "default";
  if (!pod.spec.priority) pod.spec.priority = 0;
  if (!pod.spec.preemption_policy) pod.spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  return pod;
}

inline Toleration Tol(std::string key, TolerationOperator op, std::string value,
               std::optional<TaintEffect> effect) {
  Toleration t;
  t.key = std::move(key);
  t.op = op;
  t.value = std::move(value);
  t.effect = effect;
  return t;
}

inline NodeSelectorRequirement Req(std::string key, NodeSelectorOperator op,
                            std::vector<std::string> values) {
  return NodeSelectorRequirement{std::move(key), op, std::move(values)};
}

// A required pod (anti-)affinity term selecting `label_key=label_value` over `topology`.
inline PodAffinityTerm Term(std::string label_key, std::string label_value, std::string_view topology) {
  PodAffinityTerm t;
  t.label_selector = LabelSelector{{{std::move(label_key), std::move(label_value)}}, {}};
  t.topology_key = std::string(topology);
  return t;
}

inline Node ZonedNode(std::string name, std::string zone) {
  return MakeNode(name)
      .Cpu("4")
      .Memory("8Gi")
      .Pods(110)
      .Label(std::string(kZone), std::move(zone))
      .Label(std::string(kHostname), name)
      .Build();
}

struct Verdict {
  Code code = Code::kSuccess;
  PluginId plugin = PluginId::kNone;
  std::vector<std::string> reasons;
};

// Setup: nodes and pods added one by one (pods as admission leaves them). `Filter` builds the
// cluster model and runs the whole chain, InterPodAffinity's PreFilter included, for one
// pending pod on one node.
class FilterTest : public ::testing::Test {
 protected:
  void AddNode(Node node) { state_.nodes.push_back(std::move(node)); }
  void AddPod(Pod pod) { state_.pods.push_back(Admitted(std::move(pod))); }
  void AddNamespace(Namespace ns) { state_.namespaces.push_back(std::move(ns)); }

  Verdict Filter(std::string_view pod_key, std::string_view node_name) {
    model_.reset();
    model_.emplace(state_, options_);
    FilterRunner filters(*model_, options_, NewFilterPlugins(*model_));
    const std::string key = pod_key.find('/') == std::string_view::npos
                                ? "default/" + std::string(pod_key)
                                : std::string(pod_key);
    const std::optional<PodId> pod = model_->FindPod(key);
    const std::optional<NodeId> node = model_->FindNode(node_name);
    EXPECT_TRUE(pod.has_value()) << key;
    EXPECT_TRUE(node.has_value()) << node_name;
    if (!pod || !node) return {};
    const PodInfo& info = model_->pod(*pod);
    EXPECT_EQ(info.state, PodState::kPending) << "the pod under test must be pending";
    AffinityState affinity;
    const bool check_affinity = filters.PreFilter(info, affinity);
    const NodeInfo& n = model_->node(*node);
    const Status s = filters.Run(info, *node, n.requested, check_affinity ? &affinity : nullptr);
    Verdict v;
    v.code = s.code();
    v.plugin = s.plugin();
    for (int i = 0; i < s.reason_count(); ++i) v.reasons.push_back(model_->reasons().Text(s.reason(i)));
    return v;
  }

  ClusterState state_;
  EngineOptions options_;
  std::optional<ClusterModel> model_;
};

using Reasons = std::vector<std::string>;

}  // namespace kpsim::engine::plugin_test
