#pragma once

// ImageLocality (score, weight 1 in the default profile): favours nodes that already hold the
// pod's images (`Node::images`, status.images), scaled down when the image is on few nodes.
// Mirrors pkg/scheduler/framework/plugins/imagelocality/image_locality.go with v1.37 semantics:
// init containers count as well as containers, and the upper threshold grows with the number of
// containers (`maxContainerThreshold * numContainers`). The stored upstream file is older
// (containers only, a fixed 1000 MB ceiling); we follow the current code, the target of kpsim.

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "framework/plugin.h"
#include "kpsim/api/types.h"
#include "plugins/scores.h"
#include "snapshot/cluster.h"

namespace kpsim::plugins {

inline constexpr std::string_view kImageLocalityName = "ImageLocality";
inline constexpr std::int64_t kImageMiB = 1024 * 1024;
// Upstream `minThreshold` and `maxContainerThreshold`.
inline constexpr std::int64_t kImageMinThreshold = 23 * kImageMiB;
inline constexpr std::int64_t kImageMaxContainerThreshold = 1000 * kImageMiB;
// The largest per-image and summed score kept (2^53 bytes, 8 PiB): a guard against overflow on
// bad input, far above any ceiling `CalculateImagePriority` uses.
inline constexpr std::int64_t kImageScoreCap = std::int64_t{1} << 53;

// The cluster-wide spread of images (upstream `ImageStateSummary.NumNodes`, kept by the
// scheduler cache's `addNodeImageStates`): image name -> number of nodes listing it under that
// name, and the number of nodes (`len(NodeInfos().List())`). Names are taken as the node
// reports them (upstream does not normalize node image names).
struct ImageCounts {
  std::map<std::string, int, std::less<>> nodes_with_image;
  int total_nodes = 0;

  // Adds or removes one node's images (a name listed twice on a node counts once).
  void AddNode(const Node& node);
  void RemoveNode(const Node& node);
  // Nodes holding `name`, 0 if none.
  int NumNodes(std::string_view name) const;
};
ImageCounts BuildImageCounts(const std::vector<Node>& nodes);

// `normalizedImageName`: appends ":latest" when the name has no tag, i.e. when its last ':'
// is not after its last '/' (so "registry:5000/app" gets one, "app@sha256:..." does not).
std::string NormalizedImageName(std::string_view name);

// `scaledImageScore`: the image size scaled by its spread (nodes holding it / all nodes).
// Returns 0 when `total_nodes` <= 0.
std::int64_t ScaledImageScore(std::int64_t size_bytes, int num_nodes, int total_nodes);

// `sumImageScores`: over the pod's init containers and containers (`PodSpec::images`), the
// scaled score of each image `node` holds (matched on its normalized name). An image used by
// two containers counts twice, as upstream.
std::int64_t SumImageScores(const PodSpec& pod, const Node& node, const ImageCounts& counts);

// `calculatePriority`: `sum_scores` clamped to [23 MB, 1000 MB * num_containers] and mapped
// linearly onto 0..100.
std::int64_t CalculateImagePriority(std::int64_t sum_scores, std::int64_t num_containers);

// `ImageLocality.Score`: the node's score, 0..100 (no NormalizeScore).
std::int64_t ImageLocalityScore(const PodSpec& pod, const Node& node, const ImageCounts& counts);

}  // namespace kpsim::plugins

namespace kpsim::engine {

// ImageLocality in the cycle (weight 1): `plugins::ImageLocalityScore` of the node against the
// image spread of all the model's nodes (counted once: kpsim's nodes never change). Upstream has
// no PreScore or NormalizeScore for it; ours only notices that none of the pod's images is on
// any node, where every node scores `CalculateImagePriority(0, n)` = 0 anyway.
class ImageLocality final : public ScorePlugin {
 public:
  explicit ImageLocality(const ClusterModel& model);
  std::string_view name() const override { return plugins::kImageLocalityName; }
  void PreScore(const PodInfo& pod, std::span<const NodeId> feasible) override;
  std::int64_t Score(const PodInfo& pod, NodeId node_id, const NodeInfo& node) const override;
  bool Uniform() const override { return !any_image_present_; }

 private:
  const ClusterModel& model_;
  // The images of the nodes in the cluster, counted again when a node changes, comes or goes.
  plugins::ImageCounts counts_;
  std::uint64_t counted_generation_ = 0;  // the model's node_spec_generation counts_ are of
  bool any_image_present_ = false;  // some node holds one of this cycle's pod's images
};

}  // namespace kpsim::engine
