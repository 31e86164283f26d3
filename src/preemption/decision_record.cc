#include "preemption/decision_record.h"

#include <algorithm>
#include <utility>

#include "preemption/candidate.h"

namespace kpsim::engine {
namespace {

const std::string& PodKey(const ClusterModel& model, PodId id) {
  return model.pods()[static_cast<std::size_t>(id)].key;
}

// `labelled`: the first candidate carries the labels (the table's header); the runners-up carry
// ids and values only, which keeps a record to a few allocations per candidate.
DecisionCandidate MakeCandidate(const ClusterModel& model, const Candidate& c, bool labelled) {
  DecisionCandidate out;
  out.node = model.nodes()[static_cast<std::size_t>(c.node)].name;
  const std::size_t shown = std::min(c.victims.size(), PreemptionDecision::kDecisionVictimsShown);
  out.victims.reserve(shown);
  for (std::size_t i = 0; i < shown; ++i) out.victims.push_back(PodKey(model, c.victims[i].pod));
  out.victim_count = static_cast<std::int64_t>(c.victims.size());
  out.pdb_violations = c.pdb_violations;
  out.tie_breakers.reserve(kTieBreakers.size());
  for (const TieBreaker& row : kTieBreakers) {
    out.tie_breakers.push_back(
        TieBreakerValue{std::string(row.id), labelled ? std::string(row.label) : std::string(),
                        row.value(c), row.is_time});
  }
  return out;
}

std::vector<std::string> VictimKeys(const ClusterModel& model, const std::vector<Victim>& victims) {
  std::vector<std::string> out;
  out.reserve(victims.size());
  for (const Victim& v : victims) out.push_back(PodKey(model, v.pod));
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
  d.preemptor = preemptor.key;
  d.node = model.nodes()[static_cast<std::size_t>(best.node)].name;
  d.victims = VictimKeys(model, best.victims);
  const auto [id, label] = DecidedBy(ranked);
  d.decided_by = std::string(id);
  d.decided_by_label = std::string(label);
  const std::size_t shown = std::min(ranked.size(), PreemptionDecision::kCandidatesShown);
  d.candidates.reserve(shown);
  for (std::size_t i = 0; i < shown; ++i) d.candidates.push_back(MakeCandidate(model, *ranked[i], i == 0));
  d.candidate_count = candidate_count;
  d.nodes_evaluated = nodes_evaluated;
  FillDecisionPdbs(model, best.victims, d);
  return d;
}

DecisionUnit MakeDecisionUnit(const ClusterModel& model, const VictimUnit& unit, std::string why) {
  DecisionUnit out;
  if (unit.all_group == kNoId) {
    out.kind = "Pod";
    out.name = PodKey(model, unit.pods.front());
  } else {
    const GroupInfo& group = model.groups()[static_cast<std::size_t>(unit.all_group)];
    out.kind = group.composite ? "CompositePodGroup" : "PodGroup";
    out.name = group.key;
  }
  out.pods.reserve(unit.pods.size());
  for (PodId id : unit.pods) out.pods.push_back(PodKey(model, id));
  out.priority = unit.priority;
  out.why = std::move(why);
  return out;
}

PreemptionDecision MakeGroupDecision(const ClusterModel& model, const GroupInfo& root,
                                     const std::vector<Victim>& victims,
                                     std::vector<DecisionUnit> units,
                                     const std::vector<std::pair<PodId, NodeId>>& nominations) {
  PreemptionDecision d;
  d.preemptor = root.key;
  d.pod_group = root.key;
  d.victims = VictimKeys(model, victims);
  d.decided_by = std::string(kWorkloadAwareId);
  d.decided_by_label = std::string(kWorkloadAwareLabel);
  d.units = std::move(units);
  d.nominations.reserve(nominations.size());
  for (const auto& [pod, node] : nominations) {
    d.nominations.emplace_back(PodKey(model, pod), model.nodes()[static_cast<std::size_t>(node)].name);
  }
  FillDecisionPdbs(model, victims, d);
  return d;
}

void FillDecisionPdbs(const ClusterModel& model, const std::vector<Victim>& victims,
                      PreemptionDecision& decision) {
  // By PDB index, in first-met order; victims and their PDBs are few.
  std::vector<std::pair<std::int32_t, std::vector<std::string>>> met;
  for (const Victim& v : victims) {
    const PodInfo& victim = model.pods()[static_cast<std::size_t>(v.pod)];
    for (std::int32_t pdb_index : victim.pdbs) {
      const PdbState& pdb = model.pdbs()[static_cast<std::size_t>(pdb_index)];
      if (pdb.ListsDisrupted(victim.pod.meta.name)) continue;
      auto it = std::find_if(met.begin(), met.end(),
                             [&](const auto& entry) { return entry.first == pdb_index; });
      if (it == met.end()) {
        met.emplace_back(pdb_index, std::vector<std::string>{});
        it = met.end() - 1;
      }
      it->second.push_back(victim.key);
    }
  }
  decision.pdbs.clear();
  decision.pdbs.reserve(met.size());
  for (auto& [pdb_index, pods] : met) {
    const PdbState& pdb = model.pdbs()[static_cast<std::size_t>(pdb_index)];
    DecisionPdb out;
    out.name = pdb.key;
    out.allowed_before = pdb.DisruptionsAllowed();
    out.allowed_after = out.allowed_before - static_cast<std::int32_t>(pods.size());
    out.victims = std::move(pods);
    decision.pdbs.push_back(std::move(out));
  }
  std::sort(decision.pdbs.begin(), decision.pdbs.end(),
            [](const DecisionPdb& a, const DecisionPdb& b) { return a.name < b.name; });
}

}  // namespace kpsim::engine
