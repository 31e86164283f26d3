// `book::Simulate`: the chapter's `Cluster.Run` (orchestration/preemption), round by round, with
// the same answers and without its per-round sort and full scans:
// - the queue is a heap keyed (priority desc, seq) instead of `sortQueue` every round;
// - `place` walks nodes by free CPU and stops at the first that fits (`BookState::FindPlacement`);
// - `selectVictims` results are cached per node and reused while the node and the preemptor's
//   (priority, requests) are unchanged;
// - a run of preemptors with the same (priority, requests) keeps its candidates ranked
//   (`CandidateIndex`): an attempt re-ranks only the nodes that changed since the last one and
//   those whose victims touch a PDB;
// - a (priority, requests) pair that could neither be placed nor preempt fails again at once until
//   some pod is evicted: binding pods only ever shrinks "free with every lower pod removed".

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "book/book.h"
#include "book/book_state.h"
#include "book/candidate.h"
#include "book/candidate_index.h"
#include "book/decision_record.h"
#include "kpsim/engine_options.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"

namespace kpsim::book {
namespace {

using internal::BookState;
using internal::Candidate;
using internal::CandidateIndex;
using internal::VictimSelection;

struct QueueEntry {
  std::int32_t priority = 0;
  std::uint64_t seq = 0;
  int pod = -1;
};

// Heap order: the top is the highest priority, then the earliest seq (`sortQueue`).
struct QueueEntryLess {
  bool operator()(const QueueEntry& a, const QueueEntry& b) const {
    if (a.priority != b.priority) return a.priority < b.priority;
    return a.seq > b.seq;
  }
};

// What happened to one pod, for its `PodOutcome`.
struct PodFate {
  bool stuck = false;
  std::string last_eviction;  // "preempted by api from node-a"
  bool scheduled_in_run = false;
};

// The last `SelectVictims` result of one node, valid while the key matches.
struct CachedSelection {
  bool valid = false;
  std::uint64_t node_version = 0;
  std::int32_t priority = 0;
  int request_class = 0;
  VictimSelection selection;
};

class Runner {
 public:
  Runner(const ClusterState& state, const EngineOptions& options)
      : input_(state),
        state_(state),
        options_(options),
        fates_(static_cast<size_t>(state_.pod_count())),
        cache_(static_cast<size_t>(state_.node_count())),
        index_(state_.node_count()) {}

  SimulationResult Run();

 private:
  bool Place(int pod);
  bool Preempt(int pod);
  const VictimSelection& Selection(int node, int pod);
  // What `node` offers `pod` as a candidate (its victims in `cache_`), or nullopt; PDB violations
  // against the running counts of now.
  std::optional<Candidate> CandidateOn(int node, int pod);
  // Every node ranked anew; the index rebuilt on the way when `build_index`.
  void ScanCandidates(int pod, bool build_index, internal::TopCandidates& top);
  // The same ranking from the index: dirty nodes first, then the fixed ranks and the PDB nodes.
  void IndexedCandidates(int pod, internal::TopCandidates& top);
  void Emit(EventReason reason, int pod, int node, std::string message);
  std::string Label(int pod) const;  // "api (priority 100)"

  // `--arrival sequential`: pods without a creationTimestamp, one apply at a time.
  void PlanApplies();
  bool ReleaseNextApply();

  const ClusterState& input_;
  BookState state_;
  const EngineOptions& options_;
  std::vector<std::vector<int>> applies_;
  std::size_t next_apply_ = 0;
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, QueueEntryLess> queue_;
  std::uint64_t seq_ = 0;
  std::int64_t round_ = 0;
  std::vector<PodFate> fates_;
  std::vector<CachedSelection> cache_;
  CandidateIndex index_;
  std::optional<CandidateIndex::Key> last_preemptor_key_;
  // (priority, request class) -> removal generation at which it failed both place and preempt.
  std::map<std::pair<std::int32_t, int>, std::uint64_t> failed_at_;
  SimulationResult result_;
};

std::string Runner::Label(int pod) const {
  const auto& p = state_.pod(pod);
  return p.display + " (priority " + std::to_string(p.priority) + ")";
}

void Runner::Emit(EventReason reason, int pod, int node, std::string message) {
  SimEvent event;
  event.reason = reason;
  event.pod = state_.pod(pod).key;
  if (node >= 0) event.node = state_.node(node).name;
  event.message = std::move(message);
  event.round = round_;
  result_.events.push_back(std::move(event));
}

void Runner::PlanApplies() {
  std::string last_key;
  for (int pod : state_.InitialQueue()) {
    const Pod& api = input_.pods[static_cast<size_t>(pod)];
    if (options_.arrival != Arrival::kSequential || api.meta.creation_timestamp) {
      queue_.push({state_.pod(pod).priority, ++seq_, pod});
      continue;
    }
    const std::string key = ApplyGroupKey(api);
    if (applies_.empty() || key.empty() || key != last_key) applies_.emplace_back();
    applies_.back().push_back(pod);
    last_key = key;
  }
}

bool Runner::ReleaseNextApply() {
  // The chapter's model settles when its queue is empty (stuck pods leave the queue).
  if (!queue_.empty() || next_apply_ >= applies_.size()) return false;
  const std::size_t number = ++next_apply_;
  for (int pod : applies_[number - 1]) {
    queue_.push({state_.pod(pod).priority, ++seq_, pod});
    Emit(EventReason::kCreated, pod, -1,
         Label(pod) + " applied (apply " + std::to_string(number) + " of " +
             std::to_string(applies_.size()) + ", --arrival sequential)");
  }
  return true;
}

bool Runner::Place(int pod) {
  const int node = state_.FindPlacement(pod);
  if (node < 0) return false;
  state_.Bind(pod, node);
  index_.Touch(node);
  fates_[static_cast<size_t>(pod)].scheduled_in_run = true;
  ++result_.stats.pods_scheduled;
  Emit(EventReason::kScheduled, pod, node, Label(pod) + " placed on " + state_.node(node).name);
  return true;
}

const VictimSelection& Runner::Selection(int node, int pod) {
  CachedSelection& entry = cache_[static_cast<size_t>(node)];
  const auto& p = state_.pod(pod);
  const std::uint64_t version = state_.node(node).version;
  if (!entry.valid || entry.node_version != version || entry.priority != p.priority ||
      entry.request_class != p.request_class) {
    entry.valid = true;
    entry.node_version = version;
    entry.priority = p.priority;
    entry.request_class = p.request_class;
    entry.selection = state_.SelectVictims(node, pod);
  }
  return entry.selection;
}

std::optional<Candidate> Runner::CandidateOn(int node, int pod) {
  const VictimSelection& selection = Selection(node, pod);
  if (!selection.feasible || selection.victims.empty()) return std::nullopt;
  Candidate cand;
  cand.node = node;
  cand.name_rank = state_.node(node).name_rank;
  cand.violations = selection.touches_pdb ? state_.Violations(selection.victims) : 0;
  cand.top_victim = selection.top_victim;
  cand.victim_count = static_cast<int>(selection.victims.size());
  return cand;
}

void Runner::ScanCandidates(int pod, bool build_index, internal::TopCandidates& top) {
  for (int node = 0; node < state_.node_count(); ++node) {
    const std::optional<Candidate> cand = CandidateOn(node, pod);
    const VictimSelection& selection = cache_[static_cast<size_t>(node)].selection;
    if (build_index) index_.Put(node, cand, selection.touches_pdb);
    if (cand) top.Offer(*cand, selection.victims);
  }
}

void Runner::IndexedCandidates(int pod, internal::TopCandidates& top) {
  for (int node : index_.TakeDirty()) {
    const std::optional<Candidate> cand = CandidateOn(node, pod);
    index_.Put(node, cand, cache_[static_cast<size_t>(node)].selection.touches_pdb);
  }
  // The best kShown fixed ranks are the only ones that can be shown; the rest only count.
  std::size_t offered = 0;
  for (const Candidate& cand : index_.ranked()) {
    if (offered == internal::TopCandidates::kShown) break;
    top.Offer(cand, cache_[static_cast<size_t>(cand.node)].selection.victims);
    ++offered;
  }
  top.CountUnshown(static_cast<std::int64_t>(index_.ranked().size() - offered));
  for (int node : index_.pdb_nodes()) {
    const std::optional<Candidate> cand = CandidateOn(node, pod);
    assert(cand && "a node listed for its PDB victims is a candidate until it changes");
    if (cand) top.Offer(*cand, cache_[static_cast<size_t>(node)].selection.victims);
  }
}

bool Runner::Preempt(int pod) {
  // Mirrors `preempt`: the best candidate by `better`, then evict its victims in order, each
  // requeued at the back, then bind the preemptor.
  ++result_.stats.preemption_attempts;
  result_.stats.dry_runs += state_.node_count();
  const auto& p = state_.pod(pod);
  internal::TopCandidates top;  // the best by `better` first, and the runners-up for the record
  const CandidateIndex::Key key{p.priority, p.request_class};
  if (index_.Holds(key)) {
    IndexedCandidates(pod, top);
#ifndef NDEBUG
    // The shown candidates' victims against a fresh selection (the scan below would refresh a
    // stale cache entry in place), then the ranking against a scan.
    for (const internal::RankedCandidate& r : top.ranked()) {
      assert(state_.SelectVictims(r.candidate.node, pod).victims == *r.victims &&
             "a cached selection the candidate index relied on is stale");
    }
    internal::TopCandidates scanned;
    ScanCandidates(pod, /*build_index=*/false, scanned);
    assert(internal::SameRanking(top, scanned) && "the candidate index ranked otherwise than a scan");
#endif
  } else {
    // The index pays for itself from the second preemptor of a run with one key.
    const bool build_index = last_preemptor_key_ == key;
    if (build_index) {
      index_.Reset(key);
    } else {
      index_.Drop();
    }
    ScanCandidates(pod, build_index, top);
  }
  last_preemptor_key_ = key;
  if (top.ranked().empty()) return false;
  const Candidate* best = &top.ranked().front().candidate;
  result_.decisions.push_back(internal::MakeBookDecision(state_, pod, top, state_.node_count()));
  result_.decisions.back().round = round_;

  const int node = best->node;
  const SharedString node_name = state_.node(node).name;
  const std::vector<int> victims = cache_[static_cast<size_t>(node)].selection.victims;
  for (int victim : victims) {
    const bool violates = state_.Violations({victim}) > 0;
    state_.Evict(victim);
    ++result_.stats.victims;
    std::string message = Label(pod) + " preempted " + Label(victim) + " from " + node_name;
    if (violates) message += ", breaking a PodDisruptionBudget";
    Emit(EventReason::kPreempted, victim, node, std::move(message));
    result_.events.back().by = p.key;
    result_.events.back().pdb_violation = violates;
    fates_[static_cast<size_t>(victim)].last_eviction =
        "preempted by " + p.display + " from " + node_name;
    queue_.push({state_.pod(victim).priority, ++seq_, victim});
  }
  state_.Bind(pod, node);
  index_.Touch(node);
  fates_[static_cast<size_t>(pod)].scheduled_in_run = true;
  ++result_.stats.pods_scheduled;
  Emit(EventReason::kScheduled, pod, node,
       p.display + " placed on " + node_name + " (on room made by preemption)");
  return true;
}

SimulationResult Runner::Run() {
  result_.profile = Profile::kBook;
  std::size_t pending = 0;
  for (int pod = 0; pod < state_.pod_count(); ++pod) pending += state_.IsPrebound(pod) ? 0 : 1;
  result_.ReserveFor(pending, static_cast<std::size_t>(state_.pod_count()) - pending);
  result_.origin = options_.origin.value_or(WallTime{});
  PlanApplies();
  ReleaseNextApply();

  // Mirrors `Run`: one attempt per round, at most `max_attempts` rounds.
  bool cancelled = false;
  while (round_ < options_.max_attempts && (!queue_.empty() || ReleaseNextApply())) {
    if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) {
      cancelled = true;
      break;
    }
    ++round_;
    ++result_.stats.scheduling_attempts;
    const int pod = queue_.top().pod;
    queue_.pop();
    const auto& p = state_.pod(pod);
    const auto memo_key = std::make_pair(p.priority, p.request_class);
    auto memo = failed_at_.find(memo_key);
    const bool known_to_fail =
        memo != failed_at_.end() && memo->second == state_.removal_generation();
    if (known_to_fail) {
      // Exactly what place and preempt would do: fail. Count the preemption attempt as they would.
      ++result_.stats.preemption_attempts;
      result_.stats.dry_runs += state_.node_count();
    } else {
      if (Place(pod) || Preempt(pod)) continue;
      failed_at_[memo_key] = state_.removal_generation();
    }
    // No one to preempt either: stuck for good, never retried.
    fates_[static_cast<size_t>(pod)].stuck = true;
    Emit(EventReason::kFailedScheduling, pod, -1,
         p.display + " cannot be placed anywhere (and has no one to preempt)");
  }
  result_.attempt_cap_reached = !cancelled && (!queue_.empty() || next_apply_ < applies_.size());
  result_.end_reason = cancelled                      ? "cancelled"
                       : result_.attempt_cap_reached ? "max-attempts"
                                                     : "quiescent";

  // Outcomes: pods in input order, nodes in input order.
  const std::string cap_note = "still in the queue when the round cap (" +
                               std::to_string(options_.max_attempts) + ") stopped the run";
  for (int pod_idx = 0; pod_idx < state_.pod_count(); ++pod_idx) {
    const auto& p = state_.pod(pod_idx);
    const PodFate& fate = fates_[static_cast<size_t>(pod_idx)];
    PodOutcome outcome;
    outcome.pod = p.key;
    outcome.priority = p.priority;
    outcome.requests = state_.ToResourceList(p.request);
    if (static_cast<std::size_t>(pod_idx) < input_.pods.size()) {
      outcome.priority_class = input_.pods[static_cast<std::size_t>(pod_idx)].spec.priority_class_name;
    }
    if (p.node >= 0) {
      outcome.state = PodState::kRunning;
      outcome.node = state_.node(p.node).name;
      if (fate.scheduled_in_run) outcome.scheduled_at = SimTime{};
    } else if (fate.stuck) {
      outcome.reason = p.display + " cannot be placed anywhere (and has no one to preempt)";
    } else if (!fate.last_eviction.empty()) {
      outcome.reason = fate.last_eviction + "; " + cap_note;
    } else if (state_.IsPrebound(pod_idx)) {
      // Never bound: its node is not in the cluster, and the model never schedules it.
      const std::string& node = state_.SpecNodeName(pod_idx);
      const auto& templates = options_.node_template_names;
      outcome.reason = std::find(templates.begin(), templates.end(), node) != templates.end()
                           ? BoundToMissingNodeReason(node, true)
                           : "bound to node " + node + ", which is not in the cluster";
    } else {
      outcome.reason = cap_note;
    }
    result_.pods.push_back(std::move(outcome));
  }
  for (int node_idx = 0; node_idx < state_.node_count(); ++node_idx) {
    const auto& rec = state_.node(node_idx);
    NodeOutcome outcome;
    outcome.node = rec.name;
    outcome.allocatable = state_.ToResourceList(rec.allocatable);
    internal::Amounts requested(rec.allocatable.size(), 0);
    for (int pod : rec.bind_order) {
      const auto& request = state_.pod(pod).request;
      for (size_t dim = 0; dim < requested.size(); ++dim) requested[dim] += request[dim];
      outcome.pods.push_back(pod);  // result_.pods holds the pods in the state's order
    }
    outcome.requested = state_.ToResourceList(requested);
    outcome.requested.pods = static_cast<std::int64_t>(rec.bind_order.size());
    result_.nodes.push_back(std::move(outcome));
  }
  result_.pdb_names.reserve(static_cast<std::size_t>(state_.pdb_count()));
  for (int pdb = 0; pdb < state_.pdb_count(); ++pdb) result_.pdb_names.push_back(state_.pdb(pdb).key);
  return std::move(result_);
}

}  // namespace

SimulationResult Simulate(const ClusterState& state, const EngineOptions& options) {
  return Runner(state, options).Run();
}

}  // namespace kpsim::book
