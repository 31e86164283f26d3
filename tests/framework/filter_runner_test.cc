// The filter runner (src/framework/filter_runner.h) with stand-in plugins: the chain stops at the
// first rejection, node-local verdicts are computed once per (static class, node), the per-node
// verdict cache is dropped when the node changes, and (debug builds) a cached verdict that a
// fresh one contradicts is caught.

#include "framework/filter_runner.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "framework/plugin.h"
#include "framework/status.h"
#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "snapshot/cluster.h"
#include "testing/builders.h"

namespace kpsim::engine {
namespace {

using namespace kpsim::engine::id_literals;  // NOLINT(google-build-using-namespace)

using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

// Counts its calls; rejects when `reject` is set (Unschedulable, as its `id`).
class CountingPlugin final : public FilterPlugin {
 public:
  CountingPlugin(PluginId id, bool node_local, int* calls, const bool* reject)
      : id_(id), node_local_(node_local), calls_(calls), reject_(reject) {}
  PluginId id() const override { return id_; }
  bool node_local() const override { return node_local_; }
  Status Filter(const PodInfo& /*pod*/, const NodeInfo& /*node*/,
                const FilterInput& /*in*/) const override {
    ++*calls_;
    return *reject_ ? Status(Code::kUnschedulable, id_) : Status::Success();
  }

 private:
  PluginId id_;
  bool node_local_;
  int* calls_;
  const bool* reject_;
};

class FilterRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    state_.nodes.push_back(MakeNode("n1").Cpu("4").Memory("8Gi").Pods(110).Build());
    Pod pod = MakePod("p").Cpu("1").Build();
    pod.meta.namespace_ = "default";
    pod.spec.priority = 0;
    pod.spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
    state_.pods.push_back(std::move(pod));
    model_ = std::make_unique<ClusterModel>(state_, options_);
    FilterPlugins plugins;
    plugins.push_back(std::make_unique<CountingPlugin>(PluginId::kNodeName, true, &local_calls_,
                                                       &local_rejects_));
    plugins.push_back(std::make_unique<CountingPlugin>(PluginId::kNodeResourcesFit, false,
                                                       &dynamic_calls_, &dynamic_rejects_));
    runner_ = std::make_unique<FilterRunner>(*model_, options_, std::move(plugins));
  }
  const PodInfo& Pod0() const { return model_->pod(0_pod); }

  ClusterState state_;
  EngineOptions options_;
  std::unique_ptr<ClusterModel> model_;
  std::unique_ptr<FilterRunner> runner_;
  int local_calls_ = 0, dynamic_calls_ = 0;
  bool local_rejects_ = false, dynamic_rejects_ = false;
};

TEST_F(FilterRunnerTest, ChainStopsAtTheFirstRejection) {
  local_rejects_ = true;
  const Status s = runner_->Run(Pod0(), 0_node, model_->node(0_node).requested, nullptr);
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.plugin(), PluginId::kNodeName);
  EXPECT_EQ(dynamic_calls_, 0);
}

TEST_F(FilterRunnerTest, NodeLocalVerdictIsComputedOncePerClassAndNode) {
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(runner_->Run(Pod0(), 0_node, model_->node(0_node).requested, nullptr).IsSuccess());
  }
#ifdef NDEBUG
  EXPECT_EQ(local_calls_, 1);  // debug builds recompute it to check the cache
#endif
  EXPECT_EQ(dynamic_calls_, 3);
}

TEST_F(FilterRunnerTest, CachedVerdictIsReusedUntilTheNodeChanges) {
  EXPECT_TRUE(runner_->CachedFilter(Pod0(), 0_node, nullptr).IsSuccess());
  EXPECT_TRUE(runner_->CachedFilter(Pod0(), 0_node, nullptr).IsSuccess());
#ifdef NDEBUG
  EXPECT_EQ(dynamic_calls_, 1);
#endif
  // A bound pod changes the node's generation: the verdict is computed again.
  model_->Bind(0_pod, 0_node, SimTime{});
  dynamic_rejects_ = true;
  EXPECT_EQ(runner_->CachedFilter(Pod0(), 0_node, nullptr).code(), Code::kUnschedulable);
}

TEST_F(FilterRunnerTest, DisabledCachesComputeEveryVerdict) {
  options_.disable_caches = true;
  EXPECT_FALSE(runner_->CachesUsable(nullptr));
  EXPECT_TRUE(runner_->CachedFilter(Pod0(), 0_node, nullptr).IsSuccess());
  dynamic_rejects_ = true;
  EXPECT_EQ(runner_->CachedFilter(Pod0(), 0_node, nullptr).code(), Code::kUnschedulable);
}

#ifndef NDEBUG
// A plugin that claims to be node-local but is not: the debug check catches the stale verdict.
TEST_F(FilterRunnerTest, DebugBuildCatchesAStaleCachedVerdict) {
  EXPECT_TRUE(runner_->CachedFilter(Pod0(), 0_node, nullptr).IsSuccess());
  dynamic_rejects_ = true;  // the verdict changes while the node's generation does not
  EXPECT_DEATH((void)runner_->CachedFilter(Pod0(), 0_node, nullptr), "cached verdict differs");
}
#endif

}  // namespace
}  // namespace kpsim::engine
