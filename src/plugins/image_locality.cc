#include "plugins/image_locality.h"

#include <algorithm>
#include <set>

namespace kpsim::plugins {

namespace {

// The distinct image names a node lists.
std::set<std::string_view> NodeImageNames(const Node& node) {
  std::set<std::string_view> names;
  for (const ContainerImage& image : node.images) {
    for (const std::string& name : image.names) names.insert(name);
  }
  return names;
}

// The size of the image `node` lists under `name` (the last listing wins, as upstream's
// map assignment in `NodeInfo` image states), or nullptr when absent.
const std::int64_t* NodeImageSize(const Node& node, std::string_view name) {
  const std::int64_t* size = nullptr;
  for (const ContainerImage& image : node.images) {
    for (const std::string& n : image.names) {
      if (n == name) size = &image.size_bytes;
    }
  }
  return size;
}

}  // namespace

void ImageCounts::AddNode(const Node& node) {
  ++total_nodes;
  for (std::string_view name : NodeImageNames(node)) {
    auto it = nodes_with_image.find(name);
    if (it == nodes_with_image.end()) it = nodes_with_image.emplace(std::string(name), 0).first;
    ++it->second;
  }
}

void ImageCounts::RemoveNode(const Node& node) {
  if (total_nodes > 0) --total_nodes;
  for (std::string_view name : NodeImageNames(node)) {
    auto it = nodes_with_image.find(name);
    if (it == nodes_with_image.end()) continue;
    if (--it->second <= 0) nodes_with_image.erase(it);
  }
}

int ImageCounts::NumNodes(std::string_view name) const {
  auto it = nodes_with_image.find(name);
  return it == nodes_with_image.end() ? 0 : it->second;
}

ImageCounts BuildImageCounts(const std::vector<Node>& nodes) {
  ImageCounts counts;
  for (const Node& node : nodes) counts.AddNode(node);
  return counts;
}

// Mirrors `normalizedImageName` (parsers.DefaultImageTag is "latest").
std::string NormalizedImageName(std::string_view name) {
  const std::size_t colon = name.rfind(':');
  const std::size_t slash = name.rfind('/');
  // strings.LastIndex returns -1 when absent; npos plays that role on both sides.
  const bool has_tag =
      colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash);
  std::string out(name);
  if (!has_tag) out += ":latest";
  return out;
}

// Mirrors `scaledImageScore`. Bad input (a negative size, a size near int64's limit) is clamped
// to [0, kImageScoreCap] instead of overflowing the conversion.
std::int64_t ScaledImageScore(std::int64_t size_bytes, int num_nodes, int total_nodes) {
  if (total_nodes <= 0 || num_nodes <= 0 || size_bytes <= 0) return 0;
  const double spread = static_cast<double>(num_nodes) / static_cast<double>(total_nodes);
  const double scaled = static_cast<double>(size_bytes) * spread;
  if (scaled >= static_cast<double>(kImageScoreCap)) return kImageScoreCap;
  return static_cast<std::int64_t>(scaled);
}

// Mirrors `sumImageScores` (v1.37: init containers, then containers).
std::int64_t SumImageScores(const PodSpec& pod, const Node& node, const ImageCounts& counts) {
  std::int64_t sum = 0;
  for (const std::string& image : pod.images) {
    const std::string name = NormalizedImageName(image);
    if (const std::int64_t* size = NodeImageSize(node, name)) {
      // Saturates: the score is clamped to the ceiling anyway.
      sum = std::min(kImageScoreCap,
                     sum + ScaledImageScore(*size, counts.NumNodes(name), counts.total_nodes));
    }
  }
  return sum;
}

// Mirrors `calculatePriority(sumScores, numContainers)`.
std::int64_t CalculateImagePriority(std::int64_t sum_scores, std::int64_t num_containers) {
  num_containers =
      std::clamp<std::int64_t>(num_containers, 0, kImageScoreCap / kImageMaxContainerThreshold);
  const std::int64_t max_threshold = kImageMaxContainerThreshold * num_containers;
  if (sum_scores < kImageMinThreshold) {
    sum_scores = kImageMinThreshold;
  } else if (sum_scores > max_threshold) {
    sum_scores = max_threshold;
  }
  if (max_threshold == kImageMinThreshold) return 0;  // unreachable for whole containers
  return kMaxNodeScore * (sum_scores - kImageMinThreshold) / (max_threshold - kImageMinThreshold);
}

// Mirrors `ImageLocality.Score`.
std::int64_t ImageLocalityScore(const PodSpec& pod, const Node& node, const ImageCounts& counts) {
  return CalculateImagePriority(SumImageScores(pod, node, counts),
                                static_cast<std::int64_t>(pod.images.size()));
}

}  // namespace kpsim::plugins

namespace kpsim::engine {

ImageLocality::ImageLocality(const ClusterModel& model) : model_(model) {}

void ImageLocality::PreScore(const PodInfo& pod, std::span<const NodeId> /*feasible*/) {
  if (counted_generation_ != model_.node_spec_generation()) {
    counts_ = {};
    for (NodeId id : model_.node_order()) counts_.AddNode(*model_.node(id).api);
    counted_generation_ = model_.node_spec_generation();
  }
  any_image_present_ = std::any_of(
      pod.pod.spec.images.begin(), pod.pod.spec.images.end(), [&](const std::string& image) {
        return counts_.NumNodes(plugins::NormalizedImageName(image)) > 0;
      });
}

// Mirrors `ImageLocality.Score` (totalNumNodes: all nodes of the snapshot, present ones).
std::int64_t ImageLocality::Score(const PodInfo& pod, NodeId /*node_id*/,
                                  const NodeInfo& node) const {
  if (!any_image_present_) return 0;
  return plugins::ImageLocalityScore(pod.pod.spec, *node.api, counts_);
}

}  // namespace kpsim::engine
