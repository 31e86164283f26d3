// Pod requests combined as Kubernetes' resourcehelper.PodRequests does, and quantities in context.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "io/reader_test_util.h"
#include "kpsim/io.h"

namespace kpsim::io {
namespace {

using testing_util::Only;

ResourceList RequestsOf(std::string_view spec_yaml) {
  const std::string text = "kind: Pod\nmetadata: {name: p}\nspec:\n" + std::string(spec_yaml);
  return Only<Pod>(ReadManifestText(text, "p.yaml")).spec.requests;
}

TEST(ReaderRequestsTest, SumsRegularContainers) {
  const ResourceList r = RequestsOf(R"(
  containers:
  - resources: {requests: {cpu: 100m, memory: 100Mi, example.com/gpu: 1}}
  - resources: {requests: {cpu: "1.5", ephemeral-storage: 1Gi}}
)");
  EXPECT_EQ(r.milli_cpu, 1600);
  EXPECT_EQ(r.memory, 100LL << 20);
  EXPECT_EQ(r.ephemeral_storage, 1LL << 30);
  EXPECT_EQ(r.Scalar("example.com/gpu"), 1);
}

TEST(ReaderRequestsTest, LimitsStandInForMissingRequestsPerResource) {
  // cpu has a request (kept); memory has only a limit (used as the request).
  const ResourceList r = RequestsOf(R"(
  containers:
  - resources: {requests: {cpu: 100m}, limits: {cpu: "2", memory: 1Gi}}
)");
  EXPECT_EQ(r.milli_cpu, 100);
  EXPECT_EQ(r.memory, 1LL << 30);
}

TEST(ReaderRequestsTest, RegularInitContainerRaisesTheFloorButDoesNotAdd) {
  // Setup: containers need 300m; one init container needs 1 cpu and little memory.
  // Expect: max per resource, not a sum.
  const ResourceList r = RequestsOf(R"(
  initContainers:
  - resources: {requests: {cpu: "1", memory: 10Mi}}
  containers:
  - resources: {requests: {cpu: 300m, memory: 200Mi}}
)");
  EXPECT_EQ(r.milli_cpu, 1000);
  EXPECT_EQ(r.memory, 200LL << 20);
}

TEST(ReaderRequestsTest, SidecarsAddToContainersAndToLaterInitContainers) {
  // Setup (KEP-753 example shape): sidecar s1 (200m) starts first, then regular init i1 (500m),
  // then sidecar s2 (100m); containers need 300m.
  // Expect: containers + sidecars = 600m; i1 needs 500m + s1 200m = 700m, the larger.
  const ResourceList r = RequestsOf(R"(
  initContainers:
  - {name: s1, restartPolicy: Always, resources: {requests: {cpu: 200m}}}
  - {name: i1, resources: {requests: {cpu: 500m}}}
  - {name: s2, restartPolicy: Always, resources: {requests: {cpu: 100m}}}
  containers:
  - resources: {requests: {cpu: 300m}}
)");
  EXPECT_EQ(r.milli_cpu, 700);
}

TEST(ReaderRequestsTest, SidecarsWinWhenTheyOutweighInitContainers) {
  const ResourceList r = RequestsOf(R"(
  initContainers:
  - {name: i1, resources: {requests: {cpu: 100m}}}
  - {name: s1, restartPolicy: Always, resources: {requests: {cpu: 400m, memory: 1Gi}}}
  containers:
  - resources: {requests: {cpu: 300m}}
)");
  EXPECT_EQ(r.milli_cpu, 700);
  EXPECT_EQ(r.memory, 1LL << 30);
}

TEST(ReaderRequestsTest, OverheadIsAddedAfterTheMax) {
  const ResourceList r = RequestsOf(R"(
  overhead: {cpu: 50m, memory: 10Mi}
  initContainers:
  - resources: {requests: {cpu: "1"}}
  containers:
  - resources: {requests: {cpu: 300m, memory: 100Mi}}
)");
  EXPECT_EQ(r.milli_cpu, 1050);
  EXPECT_EQ(r.memory, 110LL << 20);
}

TEST(ReaderRequestsTest, PodLevelRequestsOverrideCpuAndMemory) {
  const ResourceList r = RequestsOf(R"(
  resources: {requests: {cpu: "2"}, limits: {memory: 2Gi}}
  containers:
  - resources: {requests: {cpu: 300m, memory: 100Mi, example.com/gpu: 1}}
)");
  EXPECT_EQ(r.milli_cpu, 2000);
  EXPECT_EQ(r.memory, 2LL << 30);
  EXPECT_EQ(r.Scalar("example.com/gpu"), 1);
}

TEST(ReaderRequestsTest, NoContainersMeansZeroRequests) {
  EXPECT_TRUE(RequestsOf("  containers: []\n").IsZero());
}

struct QuantityContextCase {
  std::string_view name;
  std::string_view cpu;  // as written in YAML
  std::int64_t milli_cpu;
};

constexpr QuantityContextCase kQuantityCases[] = {
    {"QuotedMilli", "\"250m\"", 250}, {"PlainMilli", "250m", 250}, {"YamlInteger", "2", 2000},
    {"YamlFloat", "0.5", 500},        {"Exponent", "1e-1", 100},   {"Nano", "1n", 1},
};

class ReaderQuantityTest : public testing::TestWithParam<QuantityContextCase> {};

TEST_P(ReaderQuantityTest, CpuRequestParsesInYaml) {
  const std::string spec =
      "  containers: [{resources: {requests: {cpu: " + std::string(GetParam().cpu) + "}}}]\n";
  EXPECT_EQ(RequestsOf(spec).milli_cpu, GetParam().milli_cpu);
}

INSTANTIATE_TEST_SUITE_P(Forms, ReaderQuantityTest, testing::ValuesIn(kQuantityCases),
                         [](const auto& p) { return std::string(p.param.name); });

TEST(ReaderQuantityTest, MemoryInPlainBytesAndBinarySuffixes) {
  EXPECT_EQ(RequestsOf("  containers: [{resources: {requests: {memory: 129e6}}}]\n").memory,
            129000000);
  EXPECT_EQ(RequestsOf("  containers: [{resources: {requests: {memory: 128974848}}}]\n").memory,
            128974848);
  EXPECT_EQ(RequestsOf("  containers: [{resources: {requests: {memory: 123Mi}}}]\n").memory,
            123LL << 20);
  EXPECT_EQ(RequestsOf("  containers: [{resources: {requests: {memory: 1G}}}]\n").memory,
            1000000000);
}

}  // namespace
}  // namespace kpsim::io
