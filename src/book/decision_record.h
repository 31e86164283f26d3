#pragma once

// The decision record (`PreemptionDecision`) of one preemption of the book model, with the
// chapter's `better` criteria as tie-breakers.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "book/book_state.h"
#include "book/candidate.h"
#include "kpsim/results.h"

namespace kpsim::book::internal {

// A candidate with the victims its selection chose.
struct RankedCandidate {
  Candidate candidate;
  const std::vector<int>* victims = nullptr;
};

// Keeps the best `PreemptionDecision::kCandidatesShown` candidates by `Better`, best first.
class TopCandidates {
 public:
  // Inline: called per candidate node of an attempt (a full scan), or for the best fixed ranks and
  // the PDB nodes (the candidate index).
  void Offer(const Candidate& c, const std::vector<int>& victims) {
    ++count_;
    // Most candidates rank below the shown ones: one comparison with the last.
    if (size_ == kShown && !Better(c, ranked_[kShown - 1].candidate)) return;
    Insert(c, victims);
  }
  // Counts `n` candidates known to rank below the shown ones without offering them.
  void CountUnshown(std::int64_t n) { count_ += n; }
  std::span<const RankedCandidate> ranked() const { return {ranked_.data(), size_}; }
  std::int64_t count() const { return count_; }

  static constexpr std::size_t kShown = PreemptionDecision::kCandidatesShown;

 private:
  void Insert(const Candidate& c, const std::vector<int>& victims);
  std::array<RankedCandidate, kShown> ranked_{};  // inline: one TopCandidates per attempt
  std::size_t size_ = 0;
  std::int64_t count_ = 0;
};

// Whether `a` and `b` hold the same candidates (nodes and the values `Better` ranks) and count.
bool SameRanking(const TopCandidates& a, const TopCandidates& b);

// The record of `pod`'s preemption of `top.ranked()[0]`, against the state before the evictions.
// REQUIRES: top has a candidate.
PreemptionDecision MakeBookDecision(const BookState& state, int pod, const TopCandidates& top,
                                    std::int64_t nodes_evaluated);

}  // namespace kpsim::book::internal
