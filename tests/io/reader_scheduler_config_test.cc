// KubeSchedulerConfiguration: what kpsim reads, kube-scheduler's validation messages, and the
// warnings for what it does not model.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kpsim/io.h"

namespace kpsim::io {
namespace {

const std::string kData = std::string(KPSIM_SOURCE_DIR) + "/tests/io/data";

std::vector<std::string> Messages(const ReadResult& r) {
  std::vector<std::string> out;
  for (const DecodeError& e : r.errors) out.push_back(e.message);
  return out;
}

std::vector<std::string> WarningCodes(const ReadResult& r) {
  std::vector<std::string> out;
  for (const Warning& w : r.warnings) out.push_back(w.code);
  return out;
}

ReadResult Config(const std::string& body) {
  return ReadManifestText(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" + body,
      "cfg.yaml");
}

TEST(SchedulerConfigTest, CheckedInConfigSetsEveryModelledValue) {
  const ReadResult r = ReadManifests({kData + "/scheduler-config.yaml"});
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0].message);
  EXPECT_TRUE(r.objects.empty());
  EXPECT_TRUE(r.ignored.empty());  // read, not ignored
  ASSERT_TRUE(r.scheduler_config.has_value());
  const SchedulerConfig& c = *r.scheduler_config;
  EXPECT_EQ(c.percentage_of_nodes_to_score, 30);
  EXPECT_TRUE(c.preemption_args);
  EXPECT_EQ(c.min_candidate_nodes_percentage, 25);
  EXPECT_EQ(c.min_candidate_nodes_absolute, 2);
  EXPECT_EQ(c.pod_initial_backoff_seconds, 3);
  EXPECT_EQ(c.pod_max_backoff_seconds, 30);
  EXPECT_EQ(c.source.file, kData + "/scheduler-config.yaml");
}

TEST(SchedulerConfigTest, EmptyConfigKeepsKubeSchedulerDefaults) {
  const ReadResult r = Config("");
  ASSERT_TRUE(r.scheduler_config.has_value());
  EXPECT_EQ(r.scheduler_config->percentage_of_nodes_to_score, 0);
  EXPECT_FALSE(r.scheduler_config->preemption_args);
  EXPECT_EQ(r.scheduler_config->min_candidate_nodes_percentage, 10);
  EXPECT_EQ(r.scheduler_config->min_candidate_nodes_absolute, 100);
  EXPECT_EQ(r.scheduler_config->pod_initial_backoff_seconds, 1);
  EXPECT_EQ(r.scheduler_config->pod_max_backoff_seconds, 10);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(SchedulerConfigTest, ProfilePercentageOverridesTheTopLevelOne) {
  EXPECT_EQ(Config("percentageOfNodesToScore: 40\n")
                .scheduler_config->percentage_of_nodes_to_score,
            40);
  EXPECT_EQ(Config("percentageOfNodesToScore: 40\nprofiles:\n- percentageOfNodesToScore: 70\n")
                .scheduler_config->percentage_of_nodes_to_score,
            70);
}

TEST(SchedulerConfigTest, PreemptionArgsMissingOneFieldDefaultTheOther) {
  const ReadResult r = Config(
      "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args: "
      "{minCandidateNodesAbsolute: 7}\n");
  ASSERT_TRUE(r.scheduler_config.has_value());
  EXPECT_TRUE(r.scheduler_config->preemption_args);
  EXPECT_EQ(r.scheduler_config->min_candidate_nodes_percentage, 10);
  EXPECT_EQ(r.scheduler_config->min_candidate_nodes_absolute, 7);
}

TEST(SchedulerConfigTest, InvalidConfigIsRefusedWithKubeSchedulersMessages) {
  const ReadResult r = ReadManifests({kData + "/scheduler-config-invalid.yaml"});
  EXPECT_FALSE(r.scheduler_config.has_value());
  const std::string f = kData + "/scheduler-config-invalid.yaml";
  EXPECT_EQ(Messages(r),
            (std::vector<std::string>{
                f + ":8 (document 1): KubeSchedulerConfiguration: "
                    "profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range "
                    "[0-100]",
                f + ":12 (document 1): KubeSchedulerConfiguration: "
                    "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: "
                    "0: cannot be zero at the same time as minCandidateNodesAbsolute",
                f + ":13 (document 1): KubeSchedulerConfiguration: "
                    "profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: 0: "
                    "cannot be zero at the same time as minCandidateNodesPercentage",
                f + ":3 (document 1): KubeSchedulerConfiguration: percentageOfNodesToScore: "
                    "Invalid value: 101: not in valid range [0-100]",
                f + ":5 (document 1): KubeSchedulerConfiguration: podMaxBackoffSeconds: Invalid "
                    "value: 2: must be greater than or equal to PodInitialBackoffSeconds"}));
  EXPECT_EQ(r.errors[0].kind, "KubeSchedulerConfiguration");
  EXPECT_EQ(r.errors[0].field, "profiles[0].percentageOfNodesToScore");
}

TEST(SchedulerConfigTest, RangeChecksOfDefaultPreemptionArgs) {
  const ReadResult r = Config(
      "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n"
      "      minCandidateNodesPercentage: 101\n      minCandidateNodesAbsolute: -1\n");
  EXPECT_FALSE(r.scheduler_config.has_value());
  EXPECT_EQ(Messages(r),
            (std::vector<std::string>{
                "cfg.yaml:7 (document 1): KubeSchedulerConfiguration: "
                "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 101: "
                "not in valid range [0, 100]",
                "cfg.yaml:8 (document 1): KubeSchedulerConfiguration: "
                "profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: -1: "
                "not in valid range [0, inf)"}));
}

TEST(SchedulerConfigTest, BackoffAndProfileChecks) {
  const ReadResult r = Config(
      "podInitialBackoffSeconds: 0\nparallelism: 0\nprofiles:\n- schedulerName: a\n- "
      "schedulerName: a\n- {}\n");
  EXPECT_FALSE(r.scheduler_config.has_value());
  std::vector<std::string> fields;
  for (const DecodeError& e : r.errors) {
    // The message ends "<field>: <kube-scheduler's text>".
    const std::string tail = e.message.substr(e.message.find(e.field + ": ") + e.field.size() + 2);
    fields.push_back(e.field + " | " + tail);
  }
  EXPECT_EQ(fields, (std::vector<std::string>{
                        "parallelism | Invalid value: 0: should be an integer value greater than zero",
                        "profiles[1].schedulerName | Duplicate value: \"a\"",
                        "profiles[2].schedulerName | Required value",
                        "podInitialBackoffSeconds | Invalid value: 0: must be greater than 0"}));
}

TEST(SchedulerConfigTest, HugeBackoffIsRefusedNotWrapped) {
  const ReadResult r =
      Config("podInitialBackoffSeconds: 9223372036855\npodMaxBackoffSeconds: 9223372036855\n");
  EXPECT_FALSE(r.scheduler_config.has_value());
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_NE(r.errors[0].message.find("kpsim's simulated clock holds at most"), std::string::npos);
}

TEST(SchedulerConfigTest, WrongTypeIsADecodeError) {
  const ReadResult r = Config("percentageOfNodesToScore: lots\n");
  EXPECT_FALSE(r.scheduler_config.has_value());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].field, "percentageOfNodesToScore");
  EXPECT_NE(r.errors[0].message.find("expected an integer"), std::string::npos);
}

TEST(SchedulerConfigTest, OtherVersionsAreRefused) {
  const ReadResult r = ReadManifestText(
      "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
      "old.yaml");
  EXPECT_FALSE(r.scheduler_config.has_value());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].field, "apiVersion");
}

TEST(SchedulerConfigTest, WhatIsNotModelledIsAWarning) {
  const ReadResult r = Config(R"(extenders:
- urlPrefix: http://x
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [{name: MyPlugin}]
    score:
      disabled: [{name: "*"}]
  pluginConfig:
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: MostAllocated}}
- schedulerName: gpu-scheduler
somethingNew: 1
)");
  ASSERT_TRUE(r.scheduler_config.has_value());
  EXPECT_EQ(WarningCodes(r),
            (std::vector<std::string>{"ProfileNotModelled", "ExtendersNotModelled", "UnknownField",
                                      "PluginsNotModelled", "PluginConfigNotModelled"}));
  EXPECT_NE(r.warnings[3].message.find("multiPoint.enabled: MyPlugin, score.disabled: *"),
            std::string::npos)
      << r.warnings[3].message;
  EXPECT_EQ(r.warnings[0].object, "KubeSchedulerConfiguration");
}

TEST(SchedulerConfigTest, NoDefaultSchedulerProfileAppliesDefaults) {
  const ReadResult r = Config("profiles:\n- schedulerName: other\n  percentageOfNodesToScore: 80\n");
  ASSERT_TRUE(r.scheduler_config.has_value());
  EXPECT_EQ(r.scheduler_config->percentage_of_nodes_to_score, 0);
  EXPECT_EQ(WarningCodes(r), (std::vector<std::string>{"ProfileNotModelled", "ProfileNotModelled"}));
}

TEST(SchedulerConfigTest, ALaterConfigReplacesAnEarlierOneWithAWarning) {
  const ReadResult r = ReadManifestText(R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
podMaxBackoffSeconds: 20
---
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
podMaxBackoffSeconds: 30
)",
                                        "two.yaml");
  ASSERT_TRUE(r.scheduler_config.has_value());
  EXPECT_EQ(r.scheduler_config->pod_max_backoff_seconds, 30);
  EXPECT_EQ(WarningCodes(r), (std::vector<std::string>{"SchedulerConfigReplaced"}));
}

TEST(SchedulerConfigTest, ConfigNextToObjectsInOneFile) {
  const ReadResult r = ReadManifestText(R"(apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
percentageOfNodesToScore: 100
)",
                                        "mixed.yaml");
  EXPECT_EQ(r.objects.size(), 1u);
  ASSERT_TRUE(r.scheduler_config.has_value());
  EXPECT_EQ(r.scheduler_config->percentage_of_nodes_to_score, 100);
  EXPECT_EQ(r.scheduler_config->source.document, 2);
}

}  // namespace
}  // namespace kpsim::io
