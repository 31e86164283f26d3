#include "book/decision_record.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

namespace kpsim::book::internal {

void TopCandidates::Insert(const Candidate& c, const std::vector<int>& victims) {
  // Better is a strict total order: the insertion point is unique. The last one drops out when
  // all kShown are taken.
  std::size_t at = 0;
  while (at < size_ && !Better(c, ranked_[at].candidate)) ++at;
  if (at == kShown) return;
  if (size_ < kShown) ++size_;
  for (std::size_t i = size_ - 1; i > at; --i) ranked_[i] = ranked_[i - 1];
  ranked_[at] = RankedCandidate{c, &victims};
}

bool SameRanking(const TopCandidates& a, const TopCandidates& b) {
  if (a.count() != b.count() || a.ranked().size() != b.ranked().size()) return false;
  for (std::size_t i = 0; i < a.ranked().size(); ++i) {
    const RankedCandidate& x = a.ranked()[i];
    const RankedCandidate& y = b.ranked()[i];
    // Better is a strict total order over every field it ranks (node names are unique): neither
    // better than the other means the same node with the same values.
    if (Better(x.candidate, y.candidate) || Better(y.candidate, x.candidate)) return false;
  }
  return true;
}

PreemptionDecision MakeBookDecision(const BookState& state, int pod, const TopCandidates& top,
                                    std::int64_t nodes_evaluated) {
  const std::span<const RankedCandidate> ranked = top.ranked();
  const RankedCandidate& best = ranked.front();
  PreemptionDecision d;
  d.preemptor = pod;
  d.node = best.candidate.node;
  d.victims.assign(best.victims->begin(), best.victims->end());
  d.decided_by_label = ranked.size() == 1 ? "only candidate" : DecidedBy(best.candidate, ranked[1].candidate);
  d.decided_by = DecidedById(d.decided_by_label);
  d.candidates.reserve(ranked.size());
  for (const RankedCandidate& r : ranked) {
    DecisionCandidate c;
    c.node = r.candidate.node;
    const std::size_t shown = std::min(r.victims->size(), PreemptionDecision::kDecisionVictimsShown);
    c.victims.assign(r.victims->begin(), r.victims->begin() + static_cast<std::ptrdiff_t>(shown));
    c.victim_count = static_cast<std::int64_t>(r.victims->size());
    c.pdb_violations = r.candidate.violations;
    // The chapter's `better`, in order; the node name (the last criterion) is the node itself.
    c.AddTieBreaker({"pdbViolations", r.candidate.violations, false});
    c.AddTieBreaker({"highestPriority", r.candidate.top_victim, false});
    c.AddTieBreaker({"victims", r.candidate.victim_count, false});
    d.candidates.push_back(std::move(c));
  }
  d.candidate_count = top.count();
  d.nodes_evaluated = nodes_evaluated;
  // PDBs: as `violations` counts them, against the running pods before the evictions.
  std::vector<std::pair<int, std::vector<ResultIndex>>> met;
  for (int victim : *best.victims) {
    for (int pdb : state.pod(victim).pdbs) {
      auto it = std::find_if(met.begin(), met.end(), [&](const auto& e) { return e.first == pdb; });
      if (it == met.end()) {
        met.emplace_back(pdb, std::vector<ResultIndex>{});
        it = met.end() - 1;
      }
      it->second.push_back(victim);
    }
  }
  for (auto& [pdb, pods] : met) {
    const PdbRec& rec = state.pdb(pdb);
    DecisionPdb out;
    out.pdb = pdb;
    out.allowed_before = std::max(0, rec.running - rec.min_available);
    out.allowed_after = out.allowed_before - static_cast<std::int32_t>(pods.size());
    out.victims = std::move(pods);
    d.pdbs.push_back(std::move(out));
  }
  std::sort(d.pdbs.begin(), d.pdbs.end(), [&](const DecisionPdb& a, const DecisionPdb& b) {
    return state.pdb(a.pdb).key < state.pdb(b.pdb).key;
  });
  return d;
}

}  // namespace kpsim::book::internal
