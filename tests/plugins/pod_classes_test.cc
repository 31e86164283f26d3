// PodClasses (src/plugins/pod_classes.h) against the model it caches: built on first use, then
// following binds, terminations and removals through the model's change log only.

#include "plugins/pod_classes.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "kpsim/engine_options.h"
#include "testing/builders.h"
#include "testing/engine_test_harness.h"

namespace kpsim::engine::test {
namespace {

using namespace kpsim::engine::id_literals;  // NOLINT(google-build-using-namespace)

using kpsim::testing::MakeNode;
using kpsim::testing::MakePod;

// The counts of the class of pods labelled app=`app`, by node id (empty when the class does not
// exist yet).
std::map<NodeId, std::int64_t> CountsOf(const PodClasses& classes, const ClusterModel& model,
                                        const std::string& app) {
  for (const PodClasses::Class& c : classes.classes()) {
    const std::string* label = FindLabel(model.pod(c.representative).pod.meta.labels, "app");
    if (label != nullptr && *label == app) return c.nodes;
  }
  return {};
}

// Setup: n0 runs web-a, n1 runs db; web-b is pending. Classes by namespace and labels, counting
// pods that are not terminating, flagging app=web. Expect: nothing classified before the first
// CatchUp; then web {n0: 1}; web-b bound to n1 shows after the next CatchUp (web {n0: 1, n1: 1},
// flagged 2); web-a terminating leaves the count (and the flagged total) though it is still on
// n0; removing db empties its class.
TEST(PodClassesTest, FollowsBindsTerminationsAndRemovalsThroughTheChangeLog) {
  ClusterState state;
  state.nodes.push_back(MakeNode("n0").Cpu("4").Pods(110).Build());
  state.nodes.push_back(MakeNode("n1").Cpu("4").Pods(110).Build());
  state.pods.push_back(Admitted(MakePod("web-a").Node("n0").Label("app", "web").Build()));
  state.pods.push_back(Admitted(MakePod("db").Node("n1").Label("app", "db").Build()));
  state.pods.push_back(Admitted(MakePod("web-b").Label("app", "web").Build()));
  ClusterModel model(state, EngineOptions{});
  PodClasses classes(
      model, NamespaceAndLabels, nullptr, [](const PodInfo& p) { return !p.IsTerminating(); },
      [](const Pod& p) {
        const std::string* app = FindLabel(p.meta.labels, "app");
        return app != nullptr && *app == "web";
      });
  EXPECT_TRUE(classes.classes().empty());  // lazy
  classes.CatchUp();
  EXPECT_EQ(CountsOf(classes, model, "web"), (std::map<NodeId, std::int64_t>{{0_node, 1}}));
  EXPECT_EQ(CountsOf(classes, model, "db"), (std::map<NodeId, std::int64_t>{{1_node, 1}}));
  EXPECT_EQ(classes.flagged_total(), 1);

  model.Bind(2_pod, 1_node, SimTime{});
  EXPECT_EQ(classes.flagged_total(), 1);  // not caught up yet
  classes.CatchUp();
  EXPECT_EQ(CountsOf(classes, model, "web"), (std::map<NodeId, std::int64_t>{{0_node, 1}, {1_node, 1}}));
  EXPECT_EQ(classes.flagged_total(), 2);

  model.MarkTerminating(0_pod, /*by_preemption=*/true);
  classes.CatchUp();
  EXPECT_EQ(CountsOf(classes, model, "web"), (std::map<NodeId, std::int64_t>{{1_node, 1}}));
  EXPECT_EQ(classes.flagged_total(), 1);

  model.Remove(1_pod, SimTime{});
  classes.CatchUp();
  EXPECT_TRUE(CountsOf(classes, model, "db").empty());
  ASSERT_EQ(classes.classes().size(), 2U);
  EXPECT_EQ(classes.classes()[0].total + classes.classes()[1].total, 1);
}

}  // namespace
}  // namespace kpsim::engine::test
