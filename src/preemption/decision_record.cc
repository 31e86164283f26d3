#include "preemption/decision_record.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <tuple>
#include <utility>

#include "preemption/candidate.h"

namespace kpsim::engine {
namespace {

// The record's indices are the model's ids (kNoId is kNoIndex).
template <class Tag>
ResultIndex ToResult(Id<Tag> id) {
  return id.value();
}

std::vector<ResultIndex> ToResults(const std::vector<PodId>& ids) {
  std::vector<ResultIndex> out;
  out.reserve(ids.size());
  for (PodId id : ids) out.push_back(ToResult(id));
  return out;
}

// `out.tie_breakers()`: the table's ids (static storage) and this candidate's values, inline.
DecisionCandidate MakeCandidate(const Candidate& c) {
  DecisionCandidate out;
  out.node = ToResult(c.node);
  const std::size_t shown = std::min(c.victims.size(), PreemptionDecision::kDecisionVictimsShown);
  out.victims.reserve(shown);
  for (std::size_t i = 0; i < shown; ++i) out.victims.push_back(ToResult(c.victims[i].pod));
  out.victim_count = static_cast<std::int64_t>(c.victims.size());
  out.pdb_violations = c.pdb_violations;
  static_assert(kTieBreakers.size() <= DecisionCandidate::kMaxTieBreakers);
  for (const TieBreaker& row : kTieBreakers) out.AddTieBreaker({row.id, row.value(c), row.is_time});
  return out;
}

std::vector<ResultIndex> VictimPods(const std::vector<Victim>& victims) {
  std::vector<ResultIndex> out;
  out.reserve(victims.size());
  for (const Victim& v : victims) out.push_back(ToResult(v.pod));
  return out;
}

}  // namespace

std::pair<std::string_view, std::string_view> DecidedBy(std::span<const Candidate* const> ranked) {
  if (ranked.size() == 1) return {kOnlyCandidateId, kOnlyCandidateLabel};
  for (const TieBreaker& row : kTieBreakers) {
    if (row.Score(*ranked[0]) != row.Score(*ranked[1])) return {row.id, row.label};
  }
  return {kNodeOrderId, kNodeOrderLabel};
}

std::vector<const Candidate*> TopCandidates(const std::vector<const Candidate*>& candidates,
                                            std::size_t k) {
  // Each candidate's key once (the table's scores, then its position, so that full ties keep
  // the input order and the first candidate wins), then a partial selection of the best k.
  std::vector<CandidateKey> keys;
  keys.reserve(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    keys.push_back(CandidateKey::Of(*candidates[i], static_cast<std::int32_t>(i)));
  }
  const std::size_t shown = std::min(k, keys.size());
  std::partial_sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(shown), keys.end());
  std::vector<const Candidate*> out;
  out.reserve(shown);
  for (std::size_t i = 0; i < shown; ++i) {
    out.push_back(candidates[static_cast<std::size_t>(keys[i].pos)]);
  }
  return out;
}

PreemptionDecision MakePodDecision(const ClusterModel& model, const PodInfo& preemptor,
                                   std::span<const Candidate* const> ranked,
                                   std::int64_t candidate_count, std::int64_t nodes_evaluated) {
  const Candidate& best = *ranked.front();
  PreemptionDecision d;
  assert(&model.pod(preemptor.id) == &preemptor && "the preemptor is the model's own PodInfo");
  d.preemptor = ToResult(preemptor.id);
  d.node = ToResult(best.node);
  d.victims = VictimPods(best.victims);
  std::tie(d.decided_by, d.decided_by_label) = DecidedBy(ranked);
  const std::size_t shown = std::min(ranked.size(), PreemptionDecision::kCandidatesShown);
  d.candidates.reserve(shown);
  for (std::size_t i = 0; i < shown; ++i) d.candidates.push_back(MakeCandidate(*ranked[i]));
  d.candidate_count = candidate_count;
  d.nodes_evaluated = nodes_evaluated;
  FillDecisionPdbs(model, best.victims, d);
  return d;
}

DecisionUnit MakeDecisionUnit(const VictimUnit& unit, std::string why) {
  DecisionUnit out;
  out.group = ToResult(unit.all_group);
  out.pods = ToResults(unit.pods);
  out.priority = unit.priority;
  out.why = std::move(why);
  return out;
}

PreemptionDecision MakeGroupDecision(const ClusterModel& model, GroupId root,
                                     const std::vector<Victim>& victims,
                                     std::vector<DecisionUnit> units,
                                     const std::vector<std::pair<PodId, NodeId>>& nominations) {
  PreemptionDecision d;
  d.pod_group = ToResult(root);
  d.victims = VictimPods(victims);
  d.decided_by = kWorkloadAwareId;
  d.decided_by_label = kWorkloadAwareLabel;
  d.units = std::move(units);
  d.nominations.reserve(nominations.size());
  for (const auto& [pod, node] : nominations) d.nominations.emplace_back(ToResult(pod), ToResult(node));
  FillDecisionPdbs(model, victims, d);
  return d;
}

void FillDecisionPdbs(const ClusterModel& model, const std::vector<Victim>& victims,
                      PreemptionDecision& decision) {
  // By PDB index, in first-met order; victims and their PDBs are few.
  std::vector<std::pair<PdbId, std::vector<ResultIndex>>> met;
  for (const Victim& v : victims) {
    const PodInfo& victim = model.pod(v.pod);
    for (PdbId pdb_index : victim.pdbs) {
      const PdbState& pdb = model.pdb(pdb_index);
      if (pdb.ListsDisrupted(victim.pod.meta.name)) continue;
      auto it = std::find_if(met.begin(), met.end(),
                             [&](const auto& entry) { return entry.first == pdb_index; });
      if (it == met.end()) {
        met.emplace_back(pdb_index, std::vector<ResultIndex>{});
        it = met.end() - 1;
      }
      it->second.push_back(ToResult(v.pod));
    }
  }
  decision.pdbs.clear();
  if (met.empty()) return;
  decision.pdbs.reserve(met.size());
  for (auto& [pdb_index, pods] : met) {
    const PdbState& pdb = model.pdb(pdb_index);
    DecisionPdb out;
    out.pdb = ToResult(pdb_index);
    out.allowed_before = pdb.DisruptionsAllowed();
    out.allowed_after = out.allowed_before - static_cast<std::int32_t>(pods.size());
    out.victims = std::move(pods);
    decision.pdbs.push_back(std::move(out));
  }
  std::sort(decision.pdbs.begin(), decision.pdbs.end(), [&](const DecisionPdb& a, const DecisionPdb& b) {
    return model.pdb(PdbId(a.pdb)).key < model.pdb(PdbId(b.pdb)).key;
  });
}

}  // namespace kpsim::engine
