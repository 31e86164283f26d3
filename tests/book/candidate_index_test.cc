// CandidateIndex: the ranked set, the PDB list, dirty tracking and resets.

#include "book/candidate_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace kpsim::book::internal {
namespace {

Candidate Cand(int node, int top_victim, int victim_count) {
  Candidate c;
  c.node = node;
  c.name_rank = node;
  c.top_victim = top_victim;
  c.victim_count = victim_count;
  return c;
}

std::vector<int> RankedNodes(const CandidateIndex& index) {
  std::vector<int> nodes;
  for (const Candidate& c : index.ranked()) nodes.push_back(c.node);
  return nodes;
}

std::vector<int> Sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(CandidateIndexTest, RanksByBetterAndReplacesAnEntryOnPut) {
  CandidateIndex index(4);
  index.Reset({10, 0});
  index.Put(0, Cand(0, 5, 1), false);
  index.Put(1, Cand(1, 0, 2), false);
  index.Put(2, Cand(2, 0, 1), false);
  index.Put(3, std::nullopt, false);
  EXPECT_EQ(RankedNodes(index), (std::vector<int>{2, 1, 0}));
  // Node 2 changes: its old rank leaves the set.
  index.Put(2, Cand(2, 9, 1), false);
  EXPECT_EQ(RankedNodes(index), (std::vector<int>{1, 0, 2}));
  index.Put(1, std::nullopt, false);
  EXPECT_EQ(RankedNodes(index), (std::vector<int>{0, 2}));
}

TEST(CandidateIndexTest, PdbNodesAreListedApartAndSwapRemoved) {
  CandidateIndex index(5);
  index.Reset({10, 0});
  for (int node = 0; node < 4; ++node) index.Put(node, Cand(node, 0, 1), /*touches_pdb=*/true);
  index.Put(4, Cand(4, 0, 1), false);
  EXPECT_EQ(RankedNodes(index), (std::vector<int>{4}));
  EXPECT_EQ(Sorted(index.pdb_nodes()), (std::vector<int>{0, 1, 2, 3}));
  index.Put(1, std::nullopt, false);   // from the middle
  index.Put(3, Cand(3, 0, 1), false);  // moves to the ranked set
  EXPECT_EQ(Sorted(index.pdb_nodes()), (std::vector<int>{0, 2}));
  EXPECT_EQ(RankedNodes(index), (std::vector<int>{3, 4}));
  index.Put(2, std::nullopt, false);  // the last listed one
  index.Put(0, std::nullopt, false);
  EXPECT_TRUE(index.pdb_nodes().empty());
}

TEST(CandidateIndexTest, TouchRecordsEachNodeOnceAndOnlyWhileLive) {
  CandidateIndex index(3);
  index.Touch(1);  // no index yet
  EXPECT_TRUE(index.TakeDirty().empty());
  index.Reset({1, 2});
  EXPECT_TRUE(index.Holds({1, 2}));
  EXPECT_FALSE(index.Holds({1, 3}));
  index.Touch(2);
  index.Touch(0);
  index.Touch(2);
  EXPECT_EQ(index.TakeDirty(), (std::vector<int>{2, 0}));
  EXPECT_TRUE(index.TakeDirty().empty());
  index.Touch(2);
  EXPECT_EQ(index.TakeDirty(), (std::vector<int>{2}));
}

TEST(CandidateIndexTest, ResetAndDropForgetEverything) {
  CandidateIndex index(3);
  index.Reset({1, 0});
  index.Put(0, Cand(0, 0, 1), false);
  index.Put(1, Cand(1, 0, 1), true);
  index.Touch(2);
  index.Drop();
  EXPECT_FALSE(index.Holds({1, 0}));
  EXPECT_TRUE(index.ranked().empty());
  EXPECT_TRUE(index.pdb_nodes().empty());
  index.Reset({2, 0});
  EXPECT_TRUE(index.TakeDirty().empty());
  // Entries of the old key are gone: putting node 1 afresh does not swap-remove a stale position.
  index.Put(1, Cand(1, 0, 1), false);
  index.Put(0, Cand(0, 0, 2), true);
  EXPECT_EQ(RankedNodes(index), (std::vector<int>{1}));
  EXPECT_EQ(index.pdb_nodes(), (std::vector<int>{0}));
}

}  // namespace
}  // namespace kpsim::book::internal
