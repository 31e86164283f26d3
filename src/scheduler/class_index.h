#pragma once

// The class index (see class_index.cc): per equivalence class, every node's Filter status and
// dry run with the aggregates a scheduling cycle needs.

#include <array>
#include <bit>
#include <cstdint>
#include <set>
#include <unordered_map>
#include <vector>

#include "kpsim/sim_time.h"
#include "preemption/candidate.h"
#include "scheduler/framework.h"
#include "scheduler/sampling_index.h"

namespace kpsim::engine {

inline void Count(std::vector<int>& counts, const Status& s, int delta) {
  for (int i = 0; i < s.reason_count(); ++i) {
    const auto id = static_cast<std::size_t>(s.reason(i));
    if (counts.size() <= id) counts.resize(id + 1, 0);
    counts[id] += delta;
  }
}

// Statuses interned to 32-bit ids, so that an index entry is two words (id 0 is Success).
// Distinct statuses are few: codes, plugins and interned reasons.
class StatusTable {
 public:
  std::uint32_t Intern(const Status& s) {
    if (s == statuses_[0]) return 0;
    if (last_ != 0 && statuses_[last_] == s) return last_;
    auto [it, inserted] = ids_.try_emplace(s, static_cast<std::uint32_t>(statuses_.size()));
    if (inserted) statuses_.push_back(s);
    last_ = it->second;
    return last_;
  }
  const Status& Get(std::uint32_t id) const { return statuses_[id]; }

 private:
  struct Hash {
    std::size_t operator()(const Status& s) const {
      std::uint64_t h = (static_cast<std::uint64_t>(s.code()) << 8) | static_cast<std::uint64_t>(s.plugin());
      for (int i = 0; i < s.reason_count(); ++i) h = h * 0x9E3779B97F4A7C15ULL + s.reason(i) + 1;
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };
  std::vector<Status> statuses_{Status::Success()};
  std::unordered_map<Status, std::uint32_t, Hash> ids_;
  std::uint32_t last_ = 0;
};

struct Framework::ClassIndex {
  // Per node: the generation its status was computed at, the interned Filter status and the
  // dry run: kNoDry, or (id << 3 | flags) where id is an interned status (no candidate) or a
  // slot of `slots` (a candidate).
  static constexpr std::uint32_t kNoDry = 0xFFFFFFFFu;
  static constexpr std::uint32_t kCandidateBit = 1;
  static constexpr std::uint32_t kTimeBit = 2;
  static constexpr std::uint32_t kPdbBit = 4;
  struct Entry {
    std::uint64_t generation = 0;  // 0 = never computed
    std::uint32_t status = 0;
    std::uint32_t dry = kNoDry;
    bool dry_valid() const { return dry != kNoDry; }
    bool has_candidate() const { return dry_valid() && (dry & kCandidateBit) != 0; }
    bool time_dependent() const { return dry_valid() && (dry & kTimeBit) != 0; }
    bool pdb_dependent() const { return dry_valid() && (dry & kPdbBit) != 0; }
    std::uint32_t dry_id() const { return dry >> 3; }
  };
  StatusTable* table = nullptr;
  std::int32_t cls = -1;
  std::uint64_t last_used = 0;
  std::size_t bytes = 0;  // as last accounted in Framework::index_bytes_
  std::size_t log_pos = 0;
  std::size_t pdb_log_pos = 0;  // in the model's pdb_change_log
  IdVector<PdbId, std::uint64_t> pdb_seen;  // the refresh that last looked at each PDB
  std::uint64_t refreshes = 0;
  IdVector<NodeId, Entry> entries;
  std::vector<std::uint64_t> feasible;  // bit per node order position whose status is Success
  std::size_t feasible_count = 0;
  std::vector<int> filter_counts;   // reasons of failing statuses
  std::array<int, 16> plugin_counts{};
  std::size_t failing = 0;
  std::size_t potential = 0;  // status Unschedulable
  std::vector<NodeId> stale_dry;  // potential nodes whose dry run must be recomputed
  // Dry runs are not kept while the class's priority is at or below every bound pod's (none has
  // a victim); on resuming, every potential node without a dry run is stale.
  bool dry_suspended = false;
  std::vector<NodeId> time_dependent;  // nodes whose dry run used "now" as a start time
  SimTime dry_time{};
  std::vector<int> dry_counts;    // reasons of potential nodes that are no candidate
  std::size_t dry_failing = 0;
  // The node-local score plugins' weighted sum per node, as of the node's generation (0: never),
  // for the class's non-zero requests (a class keys on requests: pods whose containers default
  // differently have other non-zero requests, and score without the cache).
  struct LocalScore {
    std::uint64_t generation = 0;
    std::int64_t score = 0;
  };
  IdVector<NodeId, LocalScore> local_scores;  // sized when first scored
  std::int64_t scored_nonzero_cpu = -1;
  std::int64_t scored_nonzero_memory = -1;
  bool UsesLocalScoresOf(const PodInfo& pod) {
    if (scored_nonzero_cpu < 0) {
      scored_nonzero_cpu = pod.nonzero_cpu;
      scored_nonzero_memory = pod.nonzero_memory;
    }
    return pod.nonzero_cpu == scored_nonzero_cpu && pod.nonzero_memory == scored_nonzero_memory;
  }
  std::set<CandidateKey> candidates;        // exact search (without `sampling`)
  // With CandidateSampling::kKubernetes instead, from the class's first preemption attempt.
  std::unique_ptr<SamplingIndex> sampling;
  std::vector<Candidate> slots;  // the candidates' dry runs
  std::vector<std::uint32_t> free_slots;
  std::size_t victims = 0;  // over `slots`, for the memory account

  const Status& StatusOf(NodeId id) const { return table->Get(entries[id].status); }
  const Status& DryStatusOf(const Entry& e) const { return table->Get(e.dry_id()); }
  const Candidate& CandidateOf(const Entry& e) const { return slots[e.dry_id()]; }
  std::size_t Bytes() const {
    return sizeof(*this) + entries.capacity() * sizeof(Entry) + feasible.capacity() * 8 +
           (filter_counts.capacity() + dry_counts.capacity()) * sizeof(int) +
           (stale_dry.capacity() + time_dependent.capacity()) * sizeof(NodeId) +
           pdb_seen.capacity() * sizeof(std::uint64_t) + local_scores.capacity() * sizeof(LocalScore) +
           candidates.size() * (sizeof(CandidateKey) + 32) + slots.capacity() * sizeof(Candidate) +
           victims * sizeof(Victim) + (sampling ? sampling->Bytes() : 0);
  }

  // The first feasible position >= from, or -1.
  std::int32_t NextFeasible(std::int32_t from) const {
    auto word = static_cast<std::size_t>(from) / 64;
    if (word >= feasible.size()) return -1;
    std::uint64_t bits = feasible[word] & (~std::uint64_t{0} << (static_cast<unsigned>(from) % 64));
    for (;;) {
      if (bits != 0) return static_cast<std::int32_t>(word * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
      if (++word >= feasible.size()) return -1;
      bits = feasible[word];
    }
  }
  void SetFeasible(std::int32_t pos, bool on) {
    const auto word = static_cast<std::size_t>(pos) / 64;
    const std::uint64_t bit = std::uint64_t{1} << (static_cast<unsigned>(pos) % 64);
    if (on) {
      feasible[word] |= bit;
      ++feasible_count;
    } else {
      feasible[word] &= ~bit;
      --feasible_count;
    }
  }

  void RemoveDry(NodeId id, std::int32_t pos) {
    Entry& e = entries[id];
    if (!e.dry_valid()) return;
    if (e.has_candidate()) {
      Candidate& c = slots[e.dry_id()];
      if (sampling) {
        sampling->RemoveCandidate(pos, c.pdb_violations == 0);
      } else {
        candidates.erase(CandidateKey::Of(c, pos));
      }
      victims -= c.victims.size();
      c = Candidate{};
      free_slots.push_back(e.dry_id());
    } else {
      Count(dry_counts, DryStatusOf(e), -1);
      --dry_failing;
    }
    e.dry = kNoDry;
  }
  void AddDry(NodeId id, std::int32_t pos, DryRunResult dry) {
    Entry& e = entries[id];
    const std::uint32_t flags = (dry.time_dependent ? kTimeBit : 0) | (dry.pdb_dependent ? kPdbBit : 0);
    if (dry.candidate) {
      std::uint32_t slot;
      if (!free_slots.empty()) {
        slot = free_slots.back();
        free_slots.pop_back();
      } else {
        slot = static_cast<std::uint32_t>(slots.size());
        slots.emplace_back();
      }
      victims += dry.candidate->victims.size();
      const CandidateKey key = CandidateKey::Of(*dry.candidate, pos);
      if (sampling) {
        sampling->AddCandidate(pos, key, dry.candidate->pdb_violations == 0);
      } else {
        candidates.insert(key);
      }
      slots[slot] = std::move(*dry.candidate);
      e.dry = (slot << 3) | kCandidateBit | flags;
    } else {
      Count(dry_counts, dry.status, +1);
      ++dry_failing;
      e.dry = (table->Intern(dry.status) << 3) | flags;
    }
  }
  void RemoveStatus(NodeId id, std::int32_t pos) {
    Entry& e = entries[id];
    if (e.generation == 0) return;
    RemoveDry(id, pos);
    const Status& s = table->Get(e.status);
    if (s.IsSuccess()) {
      SetFeasible(pos, false);
    } else {
      Count(filter_counts, s, -1);
      --plugin_counts[static_cast<std::size_t>(s.plugin())];
      --failing;
      if (s.code() == Code::kUnschedulable) {
        --potential;
        if (sampling) sampling->AddPotential(pos, -1);
      }
    }
  }
  void AddStatus(NodeId id, std::int32_t pos, const Status& s, std::uint64_t generation) {
    Entry& e = entries[id];
    e.generation = generation;
    e.status = table->Intern(s);
    if (s.IsSuccess()) {
      SetFeasible(pos, true);
    } else {
      Count(filter_counts, s, +1);
      ++plugin_counts[static_cast<std::size_t>(s.plugin())];
      ++failing;
      if (s.code() == Code::kUnschedulable) {
        ++potential;
        if (sampling) sampling->AddPotential(pos, +1);
        if (!dry_suspended) stale_dry.push_back(id);
      }
    }
  }
};

}  // namespace kpsim::engine
