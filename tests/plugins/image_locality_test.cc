#include "plugins/image_locality.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "kpsim/api/types.h"

namespace kpsim::plugins {
namespace {

constexpr std::int64_t kMiB = 1024 * 1024;

Node MakeNode(std::string name, std::vector<ContainerImage> images) {
  Node node;
  node.meta.name = std::move(name);
  node.images = std::move(images);
  return node;
}

TEST(NormalizedImageNameTest, AddsLatestOnlyWithoutTag) {
  EXPECT_EQ(NormalizedImageName("nginx"), "nginx:latest");
  EXPECT_EQ(NormalizedImageName("nginx:1.25"), "nginx:1.25");
  EXPECT_EQ(NormalizedImageName("registry:5000/app"), "registry:5000/app:latest");
  EXPECT_EQ(NormalizedImageName("registry:5000/app:v2"), "registry:5000/app:v2");
  EXPECT_EQ(NormalizedImageName("app@sha256:abcd"), "app@sha256:abcd");
  EXPECT_EQ(NormalizedImageName(""), ":latest");
}

TEST(ImageCountsTest, CountsNodesPerNameOnceAndRemoves) {
  const Node a = MakeNode("a", {{{"x:1", "x:1"}, 10}, {{"y:1"}, 5}});
  const Node b = MakeNode("b", {{{"x:1"}, 10}});
  ImageCounts counts = BuildImageCounts({a, b, MakeNode("c", {})});
  EXPECT_EQ(counts.total_nodes, 3);
  EXPECT_EQ(counts.NumNodes("x:1"), 2);
  EXPECT_EQ(counts.NumNodes("y:1"), 1);
  EXPECT_EQ(counts.NumNodes("z:1"), 0);
  counts.RemoveNode(a);
  EXPECT_EQ(counts.total_nodes, 2);
  EXPECT_EQ(counts.NumNodes("x:1"), 1);
  EXPECT_EQ(counts.NumNodes("y:1"), 0);
  EXPECT_FALSE(counts.nodes_with_image.contains("y:1"));
}

TEST(ScaledImageScoreTest, ScalesBySpread) {
  EXPECT_EQ(ScaledImageScore(400 * kMiB, 1, 4), 100 * kMiB);
  EXPECT_EQ(ScaledImageScore(400 * kMiB, 4, 4), 400 * kMiB);
  EXPECT_EQ(ScaledImageScore(400 * kMiB, 1, 0), 0);
}

TEST(ScaledImageScoreTest, BadSizesNeverOverflow) {
  EXPECT_EQ(ScaledImageScore(-5, 1, 1), 0);
  EXPECT_EQ(ScaledImageScore(std::numeric_limits<std::int64_t>::max(), 1, 1), kImageScoreCap);
  const Node huge = MakeNode("huge", {{{"a:1"}, std::numeric_limits<std::int64_t>::max()},
                                      {{"b:1"}, std::numeric_limits<std::int64_t>::max()}});
  PodSpec pod;
  pod.images = {"a:1", "b:1", "a:1"};
  const ImageCounts counts = BuildImageCounts({huge});
  EXPECT_EQ(SumImageScores(pod, huge, counts), kImageScoreCap);
  EXPECT_EQ(ImageLocalityScore(pod, huge, counts), 100);
  EXPECT_EQ(CalculateImagePriority(kImageScoreCap, std::numeric_limits<std::int64_t>::max()), 100);
}

TEST(CalculateImagePriorityTest, ClampsToThresholdsPerContainer) {
  EXPECT_EQ(CalculateImagePriority(0, 1), 0);
  EXPECT_EQ(CalculateImagePriority(23 * kMiB, 1), 0);
  EXPECT_EQ(CalculateImagePriority(1000 * kMiB, 1), 100);
  EXPECT_EQ(CalculateImagePriority(5000 * kMiB, 1), 100);
  // (500-23)/(1000-23) * 100 = 48.8 -> 48.
  EXPECT_EQ(CalculateImagePriority(500 * kMiB, 1), 48);
  // Two containers: the ceiling is 2000 MB, (1000-23)/(2000-23) * 100 = 49.4 -> 49.
  EXPECT_EQ(CalculateImagePriority(1000 * kMiB, 2), 49);
  EXPECT_EQ(CalculateImagePriority(0, 0), 0);  // no containers: no images, no score, no crash
}

TEST(ImageLocalityScoreTest, InitContainersCountAndSpreadScalesDown) {
  const Node big = MakeNode("big", {{{"app:latest"}, 800 * kMiB}, {{"init:v1"}, 300 * kMiB}});
  const Node other = MakeNode("other", {{{"init:v1"}, 300 * kMiB}});
  const ImageCounts counts = BuildImageCounts({big, other});
  PodSpec pod;
  pod.images = {"init:v1", "app"};  // init container first, "app" normalizes to app:latest
  // app on 1 of 2 nodes: 400 MiB; init on 2 of 2: 300 MiB; sum 700 MiB of a 2000 MiB ceiling.
  EXPECT_EQ(SumImageScores(pod, big, counts), 700 * kMiB);
  EXPECT_EQ(ImageLocalityScore(pod, big, counts), 100 * (700 - 23) / (2000 - 23));
  EXPECT_EQ(SumImageScores(pod, other, counts), 300 * kMiB);
  EXPECT_EQ(ImageLocalityScore(pod, other, counts), 100 * (300 - 23) / (2000 - 23));
  // Without the init container the ceiling is 1000 MiB and only app counts.
  PodSpec app_only;
  app_only.images = {"app:latest"};
  EXPECT_EQ(ImageLocalityScore(app_only, big, counts), 100 * (400 - 23) / (1000 - 23));
  EXPECT_EQ(ImageLocalityScore(app_only, other, counts), 0);
  EXPECT_EQ(ImageLocalityScore(PodSpec{}, big, counts), 0);
}

}  // namespace
}  // namespace kpsim::plugins
