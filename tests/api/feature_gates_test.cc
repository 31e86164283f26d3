#include "kpsim/feature_gates.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace kpsim {
namespace {

TEST(FeatureGatesTest, EmptyTextKeepsDefaults) {
  Expected<FeatureGates> g = FeatureGates::Parse("");
  ASSERT_TRUE(g.ok());
  EXPECT_FALSE(g->generic_workload);
  EXPECT_TRUE(g->scheduler_async_preemption);
  EXPECT_TRUE(g->scheduler_pop_from_backoff_q);
  EXPECT_FALSE(g->WorkloadAwarePreemptionEnabled());
}

TEST(FeatureGatesTest, SetsEveryKnownGate) {
  Expected<FeatureGates> g = FeatureGates::Parse(
      "GenericWorkload=true,CompositePodGroup=true,PodGroupPreemptionPolicy=true,"
      "WorkloadAwarePreemption=true,GangScheduling=true,TopologyAwareWorkloadScheduling=true,"
      "SchedulerAsyncPreemption=false,SchedulerPopFromBackoffQ=false");
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_TRUE(g->generic_workload);
  EXPECT_TRUE(g->composite_pod_group);
  EXPECT_TRUE(g->pod_group_preemption_policy);
  EXPECT_TRUE(g->workload_aware_preemption);
  EXPECT_TRUE(g->gang_scheduling);
  EXPECT_TRUE(g->topology_aware_workload_scheduling);
  EXPECT_FALSE(g->scheduler_async_preemption);
  EXPECT_FALSE(g->scheduler_pop_from_backoff_q);
}

TEST(FeatureGatesTest, TrimsSpacesSkipsEmptyItemsAndAcceptsParseBoolSpellings) {
  Expected<FeatureGates> g =
      FeatureGates::Parse(" GenericWorkload = True ,,SchedulerAsyncPreemption=0");
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_TRUE(g->generic_workload);
  EXPECT_FALSE(g->scheduler_async_preemption);
  EXPECT_TRUE(g->WorkloadAwarePreemptionEnabled());
}

TEST(FeatureGatesTest, OldWorkloadAwarePreemptionGateAlsoEnablesIt) {
  Expected<FeatureGates> g = FeatureGates::Parse("WorkloadAwarePreemption=true");
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE(g->WorkloadAwarePreemptionEnabled());
}

TEST(FeatureGatesTest, UnknownGateUsesKubernetesWording) {
  Expected<FeatureGates> g = FeatureGates::Parse("GenericWorkload=true,Bogus=true");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(g.error().message, "unrecognized feature gate: Bogus");
}

TEST(FeatureGatesTest, BadValueUsesKubernetesWording) {
  Expected<FeatureGates> g = FeatureGates::Parse("GenericWorkload=yes");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().message,
            "invalid value of GenericWorkload=yes, err: strconv.ParseBool: parsing \"yes\": "
            "invalid syntax");
}

TEST(FeatureGatesTest, ValuesAreCheckedBeforeNamesAsKubernetesDoes) {
  Expected<FeatureGates> g = FeatureGates::Parse("Bogus=true,GenericWorkload=maybe");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message.find("invalid value of GenericWorkload=maybe"), std::string::npos);
}

TEST(FeatureGatesTest, PairWithoutEqualsIsMalformed) {
  Expected<FeatureGates> g = FeatureGates::Parse("GenericWorkload");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().message, "malformed pair, expect string=bool");
}

TEST(FeatureGatesTest, DescribeListsEveryGateSortedByName) {
  FeatureGates g;
  g.generic_workload = true;
  const std::vector<std::string> d = g.Describe();
  ASSERT_EQ(d.size(), 9u);
  EXPECT_TRUE(std::is_sorted(d.begin(), d.end()));
  EXPECT_NE(std::find(d.begin(), d.end(), "GenericWorkload=true"), d.end());
  EXPECT_NE(std::find(d.begin(), d.end(), "SchedulerAsyncPreemption=true"), d.end());
  EXPECT_NE(std::find(d.begin(), d.end(), "GangScheduling=false"), d.end());
  EXPECT_NE(std::find(d.begin(), d.end(), "InPlacePodVerticalScalingSchedulerPreemption=false"), d.end());
}

}  // namespace
}  // namespace kpsim
