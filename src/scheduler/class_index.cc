// The class index: for one equivalence class (pods with equal requests, priority, namespace and
// node-local constraints), the Filter status and the preemption dry run of every node, kept
// current from the cluster's change log, with the aggregates a scheduling cycle needs: the
// feasible nodes in node order, the reason histograms of the FitError texts, and the
// candidates ordered by pickOneNodeForPreemption's criteria. A cycle then costs what changed
// since the class was last scheduled, not a pass over every node, and decides exactly what the
// per-node path (Framework::Decide without the index) decides: the property tests compare the
// two with `disable_caches`.

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>
#include <set>
#include <span>

#include <fmt/format.h>

#include "preemption/decision_record.h"
#include "scheduler/class_index.h"

#include "kpsim/engine_options.h"

namespace kpsim::engine {
namespace {

// Indexes are kept per class while their memory stays within this budget; beyond it the least
// recently used go (an entry is 16 bytes a node: 5000 nodes x 1000 classes is 80 MB).
constexpr std::size_t kIndexBudgetBytes = std::size_t{256} << 20;

}  // namespace

Framework::~Framework() = default;

bool Framework::IndexUsable(const PodInfo& pod, const AffinityState* affinity) const {
  // The index keeps every node of the model by its node order position: while a node is absent
  // (a Scenario step adds it later, or deleted it) the cycle takes the plain path.
  // With candidate sampling the index serves pods without a nominated node (whose own dry run
  // would differ from the class's there).
  return CachesUsable(pod, affinity) &&
         (options_.candidate_sampling == CandidateSampling::kExact || pod.nominated == kNoId) &&
         model_.node_order().size() == model_.nodes().size();
}

Framework::ClassIndex& Framework::IndexFor(const PodInfo& pod) {
  ++index_clock_;
  if (index_node_set_generation_ != model_.node_set_generation()) {
    // The indexes keep feasibility by node order position: a node added or deleted moves them all.
    indexes_.clear();
    index_bytes_ = 0;
    index_node_set_generation_ = model_.node_set_generation();
  }
  const auto cls = static_cast<std::size_t>(pod.equivalence_class);
  if (indexes_.size() <= cls) indexes_.resize(cls + 1);
  if (!status_table_) status_table_ = std::make_unique<StatusTable>();
  std::unique_ptr<ClassIndex>& slot = indexes_[cls];
  if (slot) {
    slot->last_used = index_clock_;
    RefreshIndex(*slot, pod);
  } else {
    auto index = std::make_unique<ClassIndex>();
    index->table = status_table_.get();
    index->cls = pod.equivalence_class;
    index->last_used = index_clock_;
    index->entries.resize(model_.nodes().size());
    index->feasible.resize((model_.nodes().size() + 63) / 64);
    index->pdb_log_pos = model_.pdb_change_log().size();
    for (NodeId node : model_.nodes().ids()) {
      index->AddStatus(node, model_.order_position(node),
                       FilterWithNominated(pod, node, model_.node(node).requested, nullptr, nullptr),
                       model_.node(node).generation);
    }
    index->log_pos = model_.change_log().size();
    slot = std::move(index);
  }
  AccountIndex(*slot);
  return *slot;
}

void Framework::AccountIndex(ClassIndex& index) {
  index_bytes_ -= index.bytes;
  index.bytes = index.Bytes();
  index_bytes_ += index.bytes;
  // Over budget: drop the least recently used indexes other than `index`.
  while (index_bytes_ > kIndexBudgetBytes) {
    std::unique_ptr<ClassIndex>* oldest = nullptr;
    for (auto& other : indexes_) {
      if (other && other.get() != &index && (oldest == nullptr || other->last_used < (*oldest)->last_used)) {
        oldest = &other;
      }
    }
    if (oldest == nullptr) break;
    index_bytes_ -= (*oldest)->bytes;
    oldest->reset();
  }
}

void Framework::RefreshIndex(ClassIndex& index, const PodInfo& pod) {
  const auto& log = model_.change_log();
  for (; index.log_pos < log.size(); ++index.log_pos) {
    const NodeId id = log[index.log_pos];
    const NodeInfo& node = model_.node(id);
    ClassIndex::Entry& e = index.entries[id];
    if (e.generation == node.generation) continue;
    const std::int32_t pos = model_.order_position(id);
    index.RemoveStatus(id, pos);
    index.AddStatus(id, pos, FilterWithNominated(pod, id, node.requested, nullptr, nullptr),
                    node.generation);
  }
  const auto& pdb_log = model_.pdb_change_log();
  if (index.pdb_log_pos < pdb_log.size()) {
    // Budgets changed: a dry run that classified victims may classify them differently if one
    // of its victims is selected by a changed PDB. Those victims are bound to the node the dry
    // run was for (a node whose pods changed was recomputed above), so only the nodes the
    // changed PDBs' pods are bound to are invalidated, unless that is more than a full pass.
    auto invalidate = [&](NodeId id) {
      const ClassIndex::Entry& e = index.entries[id];
      if (e.pdb_dependent() && index.table->Get(e.status).code() == Code::kUnschedulable) {
        index.RemoveDry(id, model_.order_position(id));
        if (!index.dry_suspended) index.stale_dry.push_back(id);
      }
    };
    const std::uint64_t refresh = ++index.refreshes;
    index.pdb_seen.resize(model_.pdbs().size(), 0);
    std::vector<PdbId>& changed = pdb_scratch_;
    changed.clear();
    std::size_t pods = 0;
    for (; index.pdb_log_pos < pdb_log.size(); ++index.pdb_log_pos) {
      const PdbId pdb = pdb_log[index.pdb_log_pos];
      if (index.pdb_seen[pdb] == refresh) continue;
      index.pdb_seen[pdb] = refresh;
      changed.push_back(pdb);
      pods += model_.pdb_pods(pdb).size();
    }
    if (pods > index.entries.size()) {
      for (NodeId id : index.entries.ids()) invalidate(id);
    } else {
      for (PdbId pdb : changed) {
        for (PodId p : model_.pdb_pods(pdb)) {
          const NodeId node = model_.pod(p).node;
          if (node != kNoId) invalidate(node);
        }
      }
    }
  }
}

void Framework::RefreshDryRuns(ClassIndex& index, const PodInfo& pod) {
  if (index.dry_time != now_) {
    // Unstarted victims count as starting now: those dry runs age with the clock.
    for (NodeId id : index.time_dependent) {
      const ClassIndex::Entry& e = index.entries[id];
      if (e.time_dependent()) {
        index.RemoveDry(id, model_.order_position(id));
        index.stale_dry.push_back(id);
      }
    }
    index.time_dependent.clear();
    index.dry_time = now_;
  }
  for (NodeId id : index.stale_dry) {
    ClassIndex::Entry& e = index.entries[id];
    if (e.dry_valid() || index.table->Get(e.status).code() != Code::kUnschedulable) continue;
    index.AddDry(id, model_.order_position(id), victims_.SelectVictimsOnNode(pod, id, nullptr, nullptr, nullptr));
    if (e.time_dependent()) index.time_dependent.push_back(id);
  }
  index.stale_dry.clear();
}

const std::vector<NodeId>& Framework::FeasibleFromIndex(const ClassIndex& index, std::int32_t nominated_pos,
                                                       bool nominated_fits) {
  const std::size_t n = model_.node_order().size();
  // The first `to_find` feasible nodes in circular node order from the start index.
  const std::size_t to_find = NumFeasibleNodesToFind(n, options_.percentage_of_nodes_to_score);
  const auto start = static_cast<std::int32_t>(next_start_node_index_);
  auto distance = [&](std::int32_t pos) {
    return static_cast<std::size_t>((pos - start + static_cast<std::int32_t>(n)) % static_cast<std::int32_t>(n));
  };
  // Hands `put` the feasible positions of [first, last) in order, the nominated node's skipped,
  // until `taken` (which `put` counts) reaches `want`; a word of 64 feasible positions that all
  // count goes to `put_word` at once (while a class has room, most words are full).
  auto take = [&](std::int32_t first, std::int32_t last, std::size_t want, const std::size_t& taken, auto put,
                  auto put_word) {
    if (first >= last) return;
    auto word = static_cast<std::size_t>(first) / 64;
    const auto last_word = static_cast<std::size_t>(last - 1) / 64;
    std::uint64_t bits = index.feasible[word] & (~std::uint64_t{0} << (static_cast<unsigned>(first) % 64));
    for (;;) {
      const auto base = static_cast<std::int32_t>(word * 64);
      if (bits == ~std::uint64_t{0} && base + 64 <= last && taken + 64 <= want &&
          (nominated_pos < base || nominated_pos >= base + 64)) {
        put_word(base);
        bits = 0;
      }
      while (bits != 0) {
        const auto p = static_cast<std::int32_t>(word * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
        if (p >= last || taken >= want) return;
        bits &= bits - 1;
        if (p != nominated_pos) put(p);
      }
      if (++word > last_word) return;
      bits = index.feasible[word];
    }
  };
  std::vector<NodeId>& feasible = feasible_scratch_;
  std::int32_t last_pos = -1;  // the last feasible node taken
  std::size_t taken = 0;
  if (nominated_fits) {
    // The nominated node joins in its place in the circular order: one more position, sorted.
    std::vector<std::int32_t>& found = found_scratch_;
    found.clear();
    const auto put = [&](std::int32_t p) {
      found.push_back(p);
      ++taken;
    };
    const auto put_word = [&](std::int32_t base) {
      for (std::int32_t p = base; p < base + 64; ++p) found.push_back(p);
      taken += 64;
    };
    take(start, static_cast<std::int32_t>(n), to_find + 1, taken, put, put_word);
    take(0, start, to_find + 1, taken, put, put_word);
    // `found` is in circular order from the start already: the nominated node goes in its place.
    found.insert(std::upper_bound(found.begin(), found.end(), nominated_pos,
                                  [&](std::int32_t a, std::int32_t b) { return distance(a) < distance(b); }),
                 nominated_pos);
    if (found.size() > to_find) found.resize(to_find);
    feasible.clear();
    for (std::int32_t pos : found) feasible.push_back(model_.node_at_position(pos));
    last_pos = found.back();
  } else {
    // Into a buffer sized up front, reading the node order through a local pointer: the loop
    // stores node ids, which the compiler cannot tell apart from a vector's own pointers.
    feasible.resize(std::min(to_find, n));
    NodeId* const out = feasible.data();
    const NodeId* const order = model_.node_order().data();
    const auto put = [&](std::int32_t p) {
      out[taken++] = order[p];
      last_pos = p;
    };
    const auto put_word = [&](std::int32_t base) {
      std::copy_n(order + base, 64, out + taken);
      taken += 64;
      last_pos = base + 63;
    };
    take(start, static_cast<std::int32_t>(n), to_find, taken, put, put_word);
    take(0, start, to_find, taken, put, put_word);
    feasible.resize(taken);
  }
  const std::size_t processed = feasible.size() == to_find ? distance(last_pos) + 1 : n;
  next_start_node_index_ = (next_start_node_index_ + processed) % n;
  return feasible;
}

Decision Framework::DecideIndexed(const PodInfo& pod, ClassIndex& index,
                                  const std::string* no_preemption) {
  const std::size_t n = model_.node_order().size();
  const NodeId nominated = pod.nominated;
  const std::int32_t nominated_pos = nominated == kNoId ? -1 : model_.order_position(nominated);
  // The pod's own nominated node differs from the class entry: its own nomination does not count.
  Status nominated_status;
  if (nominated != kNoId) {
    nominated_status = FilterWithNominated(
        pod, nominated, model_.node(nominated).requested, nullptr, &pod);
  }
  const ClassIndex::Entry* nominated_entry =
      nominated == kNoId ? nullptr : &index.entries[nominated];

  const std::vector<NodeId>& feasible =
      FeasibleFromIndex(index, nominated_pos, nominated != kNoId && nominated_status.IsSuccess());

  Decision d;
  if (!feasible.empty()) {
    d.kind = Decision::Kind::kBind;
    d.node = SelectHost(pod, feasible, &index);
    return d;
  }

  // Every node failed. The FitError histogram, with the nominated node's own status.
  std::vector<int> counts = index.filter_counts;
  std::array<int, 16> plugins = index.plugin_counts;
  std::size_t potential = index.potential;
  if (nominated_entry != nullptr) {
    const Status& entry_status = index.table->Get(nominated_entry->status);
    Count(counts, entry_status, -1);
    Count(counts, nominated_status, +1);
    --plugins[static_cast<std::size_t>(entry_status.plugin())];
    ++plugins[static_cast<std::size_t>(nominated_status.plugin())];
    if (entry_status.code() == Code::kUnschedulable) --potential;
    if (nominated_status.code() == Code::kUnschedulable) ++potential;
  }
  for (std::size_t p = 0; p < plugins.size(); ++p) {
    if (plugins[p] > 0) d.rejectors |= PluginMask{1} << p;
  }
  const std::string fit_error = FitErrorFromCounts(n, counts, n, "");
  if (SkipsPostFilter(fit_error, no_preemption, d)) return d;
  ++preemption_attempts_;

  // 1) Eligibility.
  NodeStatuses statuses;  // Ineligible reads only the nominated node's status
  if (nominated != kNoId) {
    statuses.resize(model_.nodes().size());
    statuses[nominated] = nominated_status;
  }
  if (auto why = Ineligible(pod, statuses)) {
    d.message = fit_error + " preemption: " + *why;
    return d;
  }
  // 2) Candidates: the class's, with the nominated node's own dry run in place of its entry.
  dry_runs_ += static_cast<std::int64_t>(potential);
  // Sampling draws its offset among the potential nodes first (GetOffsetAndNumCandidates).
  std::int64_t offset_rank = 0;
  if (options_.candidate_sampling == CandidateSampling::kKubernetes) {
    if (!index.sampling) StartSampling(index);
    if (potential > 0) offset_rank = static_cast<std::int64_t>(rng_() % potential);
  }
  if (pod.priority <= model_.min_bound_victim_priority()) {
    // No bound pod has a lower priority: SelectVictimsOnNode finds no victim on any potential
    // node (step 1), the nominated one included. The class keeps no dry runs until that changes.
    if (!index.dry_suspended) {
      index.dry_suspended = true;
      index.stale_dry.clear();
    }
    std::vector<int> dry(static_cast<std::size_t>(no_victims_reason_) + 1, 0);
    dry[no_victims_reason_] = static_cast<int>(potential);
    d.message = fit_error + " preemption: " +
                FitErrorFromCounts(n, dry, potential, model_.reasons().Text(not_helpful_reason_));
    d.clear_nomination = true;
    return d;
  }
  if (index.dry_suspended) {
    index.dry_suspended = false;
    index.stale_dry.clear();
    for (NodeId id : index.entries.ids()) index.stale_dry.push_back(id);
  }
  RefreshDryRuns(index, pod);
  AccountIndex(index);
  if (index.sampling) return SampledDecision(pod, index, offset_rank, fit_error, std::move(d));
  std::optional<DryRunResult> nominated_dry;
  if (nominated != kNoId && nominated_status.code() == Code::kUnschedulable) {
    nominated_dry = victims_.SelectVictimsOnNode(pod, nominated, nullptr, nullptr, &pod);
  }
  const Candidate* best = nullptr;
  for (const CandidateKey& key : index.candidates) {
    if (key.pos == nominated_pos) continue;
    best = &index.CandidateOf(
        index.entries[model_.node_at_position(key.pos)]);
    break;
  }
  if (nominated_dry && nominated_dry->candidate &&
      (best == nullptr || CandidateKey::Of(*nominated_dry->candidate, nominated_pos) <
                              CandidateKey::Of(*best, model_.order_position(best->node)))) {
    best = &*nominated_dry->candidate;
  }
  if (best == nullptr) {
    std::vector<int> dry = index.dry_counts;
    std::size_t dry_failing = index.dry_failing;
    if (nominated_entry != nullptr && nominated_entry->dry_valid() && !nominated_entry->has_candidate()) {
      Count(dry, index.DryStatusOf(*nominated_entry), -1);
      --dry_failing;
    }
    if (nominated_dry && !nominated_dry->candidate) {
      Count(dry, nominated_dry->status, +1);
      ++dry_failing;
    }
    d.message = fit_error + " preemption: " +
                FitErrorFromCounts(n, dry, dry_failing, model_.reasons().Text(not_helpful_reason_));
    d.clear_nomination = true;
    return d;
  }
  SetPreemptionFound(d, fit_error, *best);
  d.record = IndexedDecision(index, pod, nominated_pos,
                             nominated_dry && nominated_dry->candidate ? &*nominated_dry->candidate : nullptr,
                             nominated_entry != nullptr && nominated_entry->has_candidate(),
                             static_cast<std::int64_t>(potential));
  return d;
}

void Framework::StartSampling(ClassIndex& index) {
  // A class's first preemption attempt: classes that only ever bind keep no sampling index. Its
  // candidates so far (none, unless dry runs were kept before) move from the exact search's set.
  index.sampling = std::make_unique<SamplingIndex>(index.entries.size());
  for (NodeId id : index.entries.ids()) {
    const ClassIndex::Entry& e = index.entries[id];
    if (e.generation == 0) continue;
    const std::int32_t pos = model_.order_position(id);
    if (index.table->Get(e.status).code() == Code::kUnschedulable) index.sampling->AddPotential(pos, +1);
    if (e.has_candidate()) {
      const Candidate& c = index.CandidateOf(e);
      index.sampling->AddCandidate(pos, CandidateKey::Of(c, pos), c.pdb_violations == 0);
    }
  }
  index.candidates.clear();
}

Decision Framework::SampledDecision(const PodInfo& pod, ClassIndex& index, std::int64_t offset_rank,
                                    const std::string& fit_error, Decision d) {
  SamplingIndex& s = *index.sampling;
  using Lane = SamplingIndex::Lane;
  const auto n = static_cast<std::int32_t>(model_.node_order().size());
  const std::int64_t np = s.counts.Total(Lane::kPotential);
  auto not_helpful = [&] {
    // No list holds a candidate: every potential node was visited, and the failing ones say why.
    d.message = fit_error + " preemption: " +
                FitErrorFromCounts(static_cast<std::size_t>(n), index.dry_counts, index.dry_failing,
                                   model_.reasons().Text(not_helpful_reason_));
    d.clear_nomination = true;
    return d;
  };
  if (np == 0) return not_helpful();
  // GetOffsetAndNumCandidates with the profile's args (Evaluator::Preempt).
  const auto pct = static_cast<std::int64_t>(std::clamp(options_.min_candidate_nodes_percentage, 0, 100));
  const auto abs = static_cast<std::int64_t>(std::max(options_.min_candidate_nodes_absolute, 0));
  std::int64_t m = np * pct / 100;
  if (m < abs) m = abs;
  m = std::min(m, np);
  // The visit: potential nodes in node order from the offset-th one, circularly.
  const std::int32_t start = s.counts.Select(Lane::kPotential, offset_rank + 1);
  auto visit_rank = [&](std::int32_t pos) { return (pos - start + n) % n; };
  // Every lane's count before `start`, asked of the tree once rather than per question.
  const SamplingIndex::Counts::Sums before_start = s.counts.Prefix(start);
  auto kth = [&](Lane lane, std::int64_t k) -> std::int32_t {  // from `start`; -1: fewer than k
    const std::int64_t after = s.counts.Total(lane) - before_start[lane];
    if (k <= after) return s.counts.Select(lane, before_start[lane] + k);
    if (k - after <= before_start[lane]) return s.counts.Select(lane, k - after);
    return -1;
  };
  // From `start` up to `last` inclusive (-1: all), every lane.
  auto within = [&](std::int32_t last) -> SamplingIndex::Counts::Sums {
    SamplingIndex::Counts::Sums c{};
    if (last < 0) {
      for (std::size_t l = 0; l < c.size(); ++l) c[l] = s.counts.Total(l);
      return c;
    }
    const SamplingIndex::Counts::Sums upto = s.counts.Prefix(last + 1);
    for (std::size_t l = 0; l < c.size(); ++l) {
      c[l] = last >= start ? upto[l] - before_start[l] : s.counts.Total(l) - before_start[l] + upto[l];
    }
    return c;
  };
  // DryRunPreemption stops at the first candidate where it holds one violating no PDB and
  // numCandidates in all (each list keeps numCandidates at most); `last` is that node, -1 for
  // a visit of every potential node.
  std::int32_t last = -1;
  if (m > 0 && s.counts.Total(Lane::kClean) > 0 && s.counts.Total(Lane::kCandidates) >= m) {
    const std::int32_t mth = kth(Lane::kCandidates, m);
    const std::int32_t first_clean = kth(Lane::kClean, 1);
    last = visit_rank(mth) > visit_rank(first_clean) ? mth : first_clean;
  }
  const SamplingIndex::Counts::Sums seen = within(last);
  const std::int64_t visited = seen[Lane::kPotential];
  const std::int64_t clean = m > 0 ? seen[Lane::kClean] : 0;
  const std::int64_t violating_seen = m > 0 ? seen[Lane::kViolating] : 0;
  const std::int64_t violating = std::min(violating_seen, m);
  if (clean + violating == 0) return not_helpful();
  // The violating list ends at its numCandidates-th.
  const std::int32_t violating_last = violating_seen > m ? kth(Lane::kViolating, m) : last;
  // pickOneNodeForPreemption over the lists (violating none first, each in visit order; the
  // first wins a full tie): the best keys of the visited ranges, best first. A list's range is one
  // or two runs of positions (the visit wraps at the end of the node order); the next best after
  // a run's best lies in one of the two runs it splits that run into, so the ranking asks the
  // trees a few range questions and changes nothing.
  std::array<const Candidate*, PreemptionDecision::kCandidatesShown> ranked{};
  std::size_t ranked_count = 0;
  auto take = [&](const BestKeys& keys, std::int32_t until) {
    if (ranked_count == ranked.size()) return;
    struct Run {
      const CandidateKey* best;
      std::int32_t first, end;  // positions [first, end)
      int order;  // 0 for the run from `start`, 1 for the one after the wrap: the visit's order
    };
    std::array<Run, 2 + 2 * PreemptionDecision::kCandidatesShown> runs{};
    std::size_t run_count = 0;
    auto add = [&](std::int32_t first, std::int32_t end, int order) {
      const CandidateKey& best = keys.Best(first, end);
      if (!BestKeys::IsAbsent(best)) runs.at(run_count++) = Run{&best, first, end, order};
    };
    auto before = [](const Run& a, const Run& b) {
      if (const int rows = a.best->CompareRows(*b.best); rows != 0) return rows < 0;
      return a.order != b.order ? a.order < b.order : a.best->pos < b.best->pos;
    };
    if (until >= start) {
      add(start, until + 1, 0);
    } else {
      add(start, n, 0);
      add(0, until >= 0 ? until + 1 : start, 1);
    }
    while (ranked_count < ranked.size() && run_count > 0) {
      std::size_t pick = 0;
      for (std::size_t i = 1; i < run_count; ++i) {
        if (before(runs[i], runs[pick])) pick = i;
      }
      const Run run = runs[pick];
      runs[pick] = runs[--run_count];
      ranked.at(ranked_count++) = &index.CandidateOf(index.entries[model_.node_at_position(run.best->pos)]);
      if (ranked_count == ranked.size()) break;
      add(run.first, run.best->pos, run.order);
      add(run.best->pos + 1, run.end, run.order);
    }
  };
  if (clean > 0) take(s.clean_keys, last);
  if (violating > 0) take(s.violating_keys, violating_last);
  dry_runs_ += visited - np;  // the caller counted every potential node
  assert(ranked_count > 0 && "a list with candidates in its range has a best key there");
  SetPreemptionFound(d, fit_error, *ranked.front());
  d.record = MakePodDecision(model_, pod, std::span(ranked.data(), ranked_count), clean + violating, visited);
  return d;
}

PreemptionDecision Framework::IndexedDecision(const ClassIndex& index, const PodInfo& pod,
                                              std::int32_t nominated_pos, const Candidate* nominated,
                                              bool nominated_in_index,
                                              std::int64_t nodes_evaluated) const {
  // The class's candidates are kept in tie-breaker order (CandidateKey): the first ones, with
  // the nominated node's own dry run in place of its entry, are the ranking the Evaluator's pick makes.
  std::vector<const Candidate*> ranked;
  const CandidateKey nominated_key =
      nominated ? CandidateKey::Of(*nominated, nominated_pos) : CandidateKey{};
  bool nominated_placed = nominated == nullptr;
  for (const CandidateKey& key : index.candidates) {
    if (ranked.size() >= PreemptionDecision::kCandidatesShown) break;
    if (key.pos == nominated_pos) continue;
    if (!nominated_placed && nominated_key < key) {
      ranked.push_back(nominated);
      nominated_placed = true;
      if (ranked.size() >= PreemptionDecision::kCandidatesShown) break;
    }
    ranked.push_back(&index.CandidateOf(
        index.entries[model_.node_at_position(key.pos)]));
  }
  if (!nominated_placed && ranked.size() < PreemptionDecision::kCandidatesShown) ranked.push_back(nominated);
  const auto count = static_cast<std::int64_t>(index.candidates.size()) - (nominated_in_index ? 1 : 0) +
                     (nominated != nullptr ? 1 : 0);
  return MakePodDecision(model_, pod, ranked, count, nodes_evaluated);
}

}  // namespace kpsim::engine
