#pragma once

// The default profile's plugins, as one literal list (kube-scheduler's plugins/registry.go and the
// default profile's plugin set): the filter plugins in the order they run and the score plugins
// with their weights. Adding a filter: its file in plugins/, one line here (registry.cc), one test.

#include "framework/plugin.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

// The filter plugins of `model`'s cycles, in the default profile's order; node-local ones first.
FilterPlugins NewFilterPlugins(ClusterModel& model);

// The score plugins with their weights in the default profile (InterPodAffinity's reads the
// namespaces' labels, which the model interns on first use).
ScorePlugins NewScorePlugins(ClusterModel& model);

}  // namespace kpsim::engine
