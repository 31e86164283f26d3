#include "snapshot/chunked_vector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace kpsim::engine {
namespace {

// Chunks of 4 elements, so that a few elements cross several chunks.
using Small = ChunkedVector<std::string, 2>;

TEST(ChunkedVectorTest, ReferencesStayValidAcrossChunks) {
  Small v;
  std::vector<const std::string*> seen;
  for (int i = 0; i < 19; ++i) {
    seen.push_back(&v.emplace_back(std::to_string(i)));
  }
  ASSERT_EQ(v.size(), 19u);
  for (int i = 0; i < 19; ++i) {
    EXPECT_EQ(&v[static_cast<std::size_t>(i)], seen[static_cast<std::size_t>(i)]) << i;
    EXPECT_EQ(v[static_cast<std::size_t>(i)], std::to_string(i));
  }
  EXPECT_EQ(v.back(), "18");
}

TEST(ChunkedVectorTest, IteratesInOrderAndMeasuresDistances) {
  Small v;
  for (int i = 0; i < 10; ++i) v.push_back(std::to_string(i));
  std::vector<std::string> copy(v.begin(), v.end());
  ASSERT_EQ(copy.size(), 10u);
  for (std::size_t i = 0; i < copy.size(); ++i) EXPECT_EQ(copy[i], std::to_string(i));
  const Small& c = v;
  auto it = std::find(c.begin(), c.end(), "7");
  EXPECT_EQ(it - c.begin(), 7);
  EXPECT_EQ(*(it - 3), "4");
  EXPECT_EQ(it[-7], "0");
  EXPECT_TRUE(c.begin() < it && it < c.end());
  Small::const_iterator from_mutable = v.begin() + 2;
  EXPECT_EQ(*from_mutable, "2");
  EXPECT_EQ(std::distance(c.begin(), c.end()), 10);
}

TEST(ChunkedVectorTest, CopiesMovesAndClearsEveryElement) {
  // shared_ptr use counts show that every element is copied, moved or destroyed once.
  auto token = std::make_shared<int>(0);
  ChunkedVector<std::shared_ptr<int>, 1> v;
  for (int i = 0; i < 7; ++i) v.push_back(token);
  EXPECT_EQ(token.use_count(), 8);
  {
    auto copy = v;
    EXPECT_EQ(token.use_count(), 15);
    auto moved = std::move(copy);
    EXPECT_EQ(token.use_count(), 15);
    EXPECT_EQ(moved.size(), 7u);
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  }
  EXPECT_EQ(token.use_count(), 8);
  v.clear();
  EXPECT_EQ(token.use_count(), 1);
  EXPECT_TRUE(v.empty());
  v.push_back(token);  // usable after clear
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(token.use_count(), 2);
}

}  // namespace
}  // namespace kpsim::engine
