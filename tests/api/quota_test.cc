// ResourceQuota arithmetic for pods: usage, scope matching and the admission plugin's answers,
// with the API server's messages.

#include "kpsim/api/quota.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/builders.h"

namespace kpsim {
namespace {

using testing::MakePod;

ResourceQuota Quota(std::string name, std::vector<std::pair<std::string, std::string>> hard,
                    std::vector<ScopeRequirement> selector = {}, std::string ns = "default") {
  ResourceQuota q;
  q.meta.name = std::move(name);
  q.meta.namespace_ = std::move(ns);
  for (auto& [n, v] : hard) q.hard.emplace_back(n, testing::Q(v));
  q.scope_selector = std::move(selector);
  return q;
}

ScopeRequirement Scope(std::string name, ScopeOperator op, std::vector<std::string> values = {}) {
  return ScopeRequirement{std::move(name), op, "", std::move(values)};
}

Pod WithClass(Pod pod, std::string cls) {
  pod.spec.priority_class_name = std::move(cls);
  pod.meta.namespace_ = "default";
  pod.spec.containers.push_back(
      ContainerRequest{"app", 0, 0, ContainerRequest::kRequestsCpu | ContainerRequest::kRequestsMemory, false});
  return pod;
}

TEST(PodQuotaUsageTest, CountsRequestsLimitsAndExtendedResources) {
  Pod pod = MakePod("p").Cpu("500m").Memory("1Gi").Request("nvidia.com/gpu", "2").Build();
  pod.spec.limits.milli_cpu = 1000;
  const QuotaAmounts u = PodQuotaUsage(pod);
  EXPECT_EQ(FormatQuotaAmounts(u),
            "count/pods=1,cpu=500m,ephemeral-storage=0,limits.cpu=1,memory=1Gi,pods=1,requests.cpu=500m,"
            "requests.ephemeral-storage=0,requests.memory=1Gi,requests.nvidia.com/gpu=2");
  pod.status.phase = "Succeeded";
  EXPECT_TRUE(PodQuotaUsage(pod).empty());  // terminal pods use nothing
}

TEST(PodMatchesScopeTest, PriorityClassOperatorsAsTheLabelSelectorReadsThem) {
  const Pod high = WithClass(MakePod("a").Build(), "high");
  const Pod none = WithClass(MakePod("b").Build(), "");
  EXPECT_TRUE(PodMatchesScope(high, Scope("PriorityClass", ScopeOperator::kIn, {"high", "low"})));
  EXPECT_FALSE(PodMatchesScope(high, Scope("PriorityClass", ScopeOperator::kNotIn, {"high"})));
  EXPECT_TRUE(PodMatchesScope(none, Scope("PriorityClass", ScopeOperator::kNotIn, {"high"})));
  EXPECT_TRUE(PodMatchesScope(high, Scope("PriorityClass", ScopeOperator::kExists)));
  EXPECT_FALSE(PodMatchesScope(none, Scope("PriorityClass", ScopeOperator::kExists)));
  // podMatchesSelector sets the label only for a named class.
  EXPECT_TRUE(PodMatchesScope(none, Scope("PriorityClass", ScopeOperator::kDoesNotExist)));
  EXPECT_FALSE(PodMatchesScope(high, Scope("PriorityClass", ScopeOperator::kDoesNotExist)));
  EXPECT_TRUE(PodMatchesScope(none, Scope("BestEffort", ScopeOperator::kExists)));
  EXPECT_FALSE(PodMatchesScope(WithClass(MakePod("c").Cpu("1").Build(), ""), Scope("BestEffort", ScopeOperator::kExists)));
}

TEST(QuotaTrackerTest, ExceededQuotaNamesOnlyTheExceededResources) {
  const ResourceQuota q = Quota("high-pods", {{"pods", "2"}, {"requests.cpu", "4"}},
                                {Scope("PriorityClass", ScopeOperator::kIn, {"high"})});
  const Pod a = WithClass(MakePod("a").Cpu("1").Build(), "high");
  const Pod b = WithClass(MakePod("b").Cpu("1").Build(), "high");
  const Pod low = WithClass(MakePod("low").Cpu("1").Build(), "low");
  QuotaTracker t;
  t.ApplyQuota(q, {&a, &low});
  EXPECT_EQ(t.Check(b), std::nullopt);
  EXPECT_EQ(t.Check(low), std::nullopt);  // another class: not in this quota's scope
  t.Add(b);
  EXPECT_EQ(t.Check(a), "exceeded quota: high-pods, requested: pods=1, used: pods=2, limited: pods=2");
  t.Remove(b);
  EXPECT_EQ(t.Check(a), std::nullopt);
  ASSERT_EQ(t.quotas().size(), 1u);
  EXPECT_EQ(FormatQuotaAmounts(t.quotas()[0].used), "pods=1,requests.cpu=1");
}

TEST(QuotaTrackerTest, CpuOrMemoryUnderQuotaMustBeDeclaredByEveryContainer) {
  QuotaTracker t;
  t.ApplyQuota(Quota("compute", {{"limits.cpu", "4"}, {"requests.memory", "8Gi"}}), {});
  Pod pod = MakePod("p").Build();
  pod.meta.namespace_ = "default";
  pod.spec.containers = {{"app", 0, 0, ContainerRequest::kRequestsCpu, false},
                         {"init", 0, 0, ContainerRequest::kRequestsMemory, true}};
  EXPECT_EQ(t.Check(pod),
            "failed quota: compute: [must specify limits.cpu for: app,init, must specify requests.memory for: app]");
  pod.spec.containers[0].declared |= ContainerRequest::kRequestsMemory;
  EXPECT_EQ(t.Check(pod), "failed quota: compute: must specify limits.cpu for: app,init");
}

TEST(QuotaTrackerTest, LimitedScopesNeedACoveringQuota) {
  QuotaAdmissionConfig config;
  config.limited_resources.push_back(
      LimitedResource{"", "pods", {}, {Scope("PriorityClass", ScopeOperator::kIn, {"cluster-services"})}});
  QuotaTracker t(config);
  const Pod critical = WithClass(MakePod("c").Build(), "cluster-services");
  EXPECT_EQ(t.Check(critical),
            "insufficient quota to match these scopes: [{PriorityClass In [cluster-services]}]");
  EXPECT_EQ(t.Check(WithClass(MakePod("d").Build(), "high")), std::nullopt);
  // A quota in another namespace does not cover it; one in its own does, whatever its limits.
  t.ApplyQuota(Quota("other", {{"pods", "5"}}, {Scope("PriorityClass", ScopeOperator::kIn, {"cluster-services"})}, "kube-system"), {});
  EXPECT_NE(t.Check(critical), std::nullopt);
  t.ApplyQuota(Quota("mine", {{"pods", "5"}}, {Scope("PriorityClass", ScopeOperator::kExists)}), {});
  EXPECT_EQ(t.Check(critical), std::nullopt);
}

TEST(QuotaTrackerTest, WhatThePodDoesNotUseIsNeverRefused) {
  // Already over its cpu quota (a snapshot can be): a pod requesting no cpu is still admitted.
  const ResourceQuota q = Quota("cpu", {{"requests.cpu", "1"}});
  const Pod big = WithClass(MakePod("big").Cpu("2").Build(), "");
  QuotaTracker t;
  t.ApplyQuota(q, {&big});
  EXPECT_EQ(t.Check(WithClass(MakePod("none").Build(), "")), std::nullopt);
  EXPECT_NE(t.Check(WithClass(MakePod("some").Cpu("100m").Build(), "")), std::nullopt);
}

TEST(QuotaTrackerTest, MatchContainsLimitsConsumptionToCoveredResources) {
  QuotaAdmissionConfig config;
  config.limited_resources.push_back(LimitedResource{"", "pods", {"requests.cpu"}, {}});
  QuotaTracker t(config);
  const Pod pod = WithClass(MakePod("p").Cpu("1").Build(), "");
  EXPECT_EQ(t.Check(pod), "insufficient quota to consume: requests.cpu");
  EXPECT_EQ(t.Check(WithClass(MakePod("idle").Memory("1Gi").Build(), "")), std::nullopt);  // uses no cpu
  t.ApplyQuota(Quota("cpu", {{"requests.cpu", "10"}}), {});
  EXPECT_EQ(t.Check(pod), std::nullopt);
}

}  // namespace
}  // namespace kpsim
