// ResourceQuota (v1) and the ResourceQuota admission plugin's configuration.

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "kpsim/admission.h"
#include "kpsim/io.h"

namespace kpsim::io {
namespace {

TEST(ReaderQuotaTest, DecodesHardScopesAndTheScopeSelector) {
  const ReadResult r = ReadManifestText(R"(apiVersion: v1
kind: ResourceQuota
metadata: {name: pods-high, namespace: team-a}
spec:
  hard: {pods: "10", requests.cpu: 4, limits.memory: 8Gi}
  scopes: [NotTerminating]
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: NotIn, values: [low, batch]}
status:
  used: {pods: "3"}
)",
                                        "quota.yaml");
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().message;
  ASSERT_EQ(r.objects.size(), 1u);
  EXPECT_EQ(r.objects[0].kind, ObjectKind::kResourceQuota);
  const auto& q = std::get<ResourceQuota>(r.objects[0].value);
  ASSERT_EQ(q.hard.size(), 3u);
  EXPECT_EQ(q.hard[1].first, "requests.cpu");
  EXPECT_EQ(q.hard[1].second.MilliValue(), 4000);
  EXPECT_EQ(q.scopes, std::vector<std::string>{"NotTerminating"});
  ASSERT_EQ(q.scope_selector.size(), 1u);
  EXPECT_EQ(ScopeRequirementText(q.scope_selector[0]), "{PriorityClass NotIn [low batch]}");
}

TEST(ReaderQuotaTest, ReadsTheResourceQuotaPluginOfAnAdmissionConfiguration) {
  const ReadResult r = ReadManifestText(R"(apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: EventRateLimit
  path: eventconfig.yaml
- name: ResourceQuota
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: ResourceQuotaConfiguration
    limitedResources:
    - resource: pods
      matchScopes:
      - {scopeName: PriorityClass, operator: In, values: [cluster-services]}
)",
                                        "admission.yaml");
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().message;
  ASSERT_EQ(r.objects.size(), 1u);
  const auto& c = std::get<QuotaAdmissionConfig>(r.objects[0].value);
  ASSERT_EQ(c.limited_resources.size(), 1u);
  EXPECT_EQ(c.limited_resources[0].resource, "pods");
  EXPECT_EQ(ScopeRequirementText(c.limited_resources[0].match_scopes[0]), "{PriorityClass In [cluster-services]}");
}

TEST(ReaderQuotaTest, BadScopeSelectorsAreRefusedByAdmissionWithKubernetesMessages) {
  const ReadResult r = ReadManifestText(R"(apiVersion: v1
kind: ResourceQuota
metadata: {name: bad}
spec:
  hard: {pods: "1"}
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: In}
    - {scopeName: Priority, operator: Exists}
    - {scopeName: PriorityClass, operator: Matches, values: [x]}
)",
                                        "bad.yaml");
  ASSERT_TRUE(r.errors.empty());
  const AdmissionResult a = Admit(r.objects, FeatureGates{});
  ASSERT_EQ(a.outcomes.size(), 1u);
  EXPECT_FALSE(a.outcomes[0].admitted);
  const std::string& m = a.outcomes[0].message;
  EXPECT_NE(m.find("ResourceQuota \"bad\" is invalid"), std::string::npos) << m;
  EXPECT_NE(m.find("spec.scopeSelector.matchExpressions[0].values: Required value: must be at least one value when "
                   "`operator` is 'In' or 'NotIn' for scope selector"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("spec.scopeSelector.matchExpressions[1].scopeName: Unsupported value: \"Priority\""),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("spec.scopeSelector.matchExpressions[2].operator: Unsupported value: \"Matches\""),
            std::string::npos)
      << m;
}

}  // namespace
}  // namespace kpsim::io
