#include "book/decision_record.h"

#include <algorithm>
#include <string>
#include <utility>

namespace kpsim::book::internal {

void TopCandidates::Insert(const Candidate& c, const std::vector<int>& victims) {
  // Better is a strict total order: the insertion point is unique.
  auto it = std::find_if(ranked_.begin(), ranked_.end(),
                         [&](const RankedCandidate& r) { return Better(c, r.candidate); });
  if (it == ranked_.end() && ranked_.size() >= PreemptionDecision::kCandidatesShown) return;
  ranked_.insert(it, RankedCandidate{c, &victims});
  if (ranked_.size() > PreemptionDecision::kCandidatesShown) ranked_.pop_back();
}

PreemptionDecision MakeBookDecision(const BookState& state, int pod, const TopCandidates& top,
                                    std::int64_t nodes_evaluated) {
  const std::span<const RankedCandidate> ranked = top.ranked();
  const RankedCandidate& best = ranked.front();
  PreemptionDecision d;
  d.preemptor = state.pod(pod).key;
  d.node = state.node(best.candidate.node).name;
  d.victims.reserve(best.victims->size());
  for (int victim : *best.victims) d.victims.push_back(state.pod(victim).key);
  const std::string_view label =
      ranked.size() == 1 ? "only candidate" : DecidedBy(best.candidate, ranked[1].candidate);
  d.decided_by = std::string(DecidedById(label));
  d.decided_by_label = std::string(label);
  d.candidates.reserve(ranked.size());
  for (const RankedCandidate& r : ranked) {
    // As in the default profile, the first candidate carries the labels.
    const bool labelled = &r == &ranked.front();
    auto Value = [&](std::string_view id, std::string_view text, std::int64_t value) {
      return TieBreakerValue{std::string(id), labelled ? std::string(text) : std::string(), value, false};
    };
    DecisionCandidate c;
    c.node = state.node(r.candidate.node).name;
    const std::size_t shown = std::min(r.victims->size(), PreemptionDecision::kDecisionVictimsShown);
    c.victims.reserve(shown);
    for (std::size_t i = 0; i < shown; ++i) c.victims.push_back(state.pod((*r.victims)[i]).key);
    c.victim_count = static_cast<std::int64_t>(r.victims->size());
    c.pdb_violations = r.candidate.violations;
    c.tie_breakers.reserve(3);
    // The chapter's `better`, in order; the node name (the last criterion) is the node itself.
    c.tie_breakers.push_back(Value("pdbViolations", "fewest PDB violations", r.candidate.violations));
    c.tie_breakers.push_back(
        Value("highestPriority", "lowest highest-victim priority", r.candidate.top_victim));
    c.tie_breakers.push_back(Value("victims", "fewest victims", r.candidate.victim_count));
    d.candidates.push_back(std::move(c));
  }
  d.candidate_count = top.count();
  d.nodes_evaluated = nodes_evaluated;
  // PDBs: as `violations` counts them, against the running pods before the evictions.
  std::vector<std::pair<int, std::vector<std::string>>> met;
  for (int victim : *best.victims) {
    for (int pdb : state.pod(victim).pdbs) {
      auto it = std::find_if(met.begin(), met.end(), [&](const auto& e) { return e.first == pdb; });
      if (it == met.end()) {
        met.emplace_back(pdb, std::vector<std::string>{});
        it = met.end() - 1;
      }
      it->second.push_back(state.pod(victim).key);
    }
  }
  for (auto& [pdb, pods] : met) {
    const PdbRec& rec = state.pdb(pdb);
    DecisionPdb out;
    out.name = rec.key;
    out.allowed_before = std::max(0, rec.running - rec.min_available);
    out.allowed_after = out.allowed_before - static_cast<std::int32_t>(pods.size());
    out.victims = std::move(pods);
    d.pdbs.push_back(std::move(out));
  }
  std::sort(d.pdbs.begin(), d.pdbs.end(),
            [](const DecisionPdb& a, const DecisionPdb& b) { return a.name < b.name; });
  return d;
}

}  // namespace kpsim::book::internal
