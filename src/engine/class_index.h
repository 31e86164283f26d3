#pragma once

// The class index (see class_index.cc): per equivalence class, every node's Filter status and
// dry run with the aggregates a scheduling cycle needs.

#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "engine/framework.h"

namespace kpsim::engine {
// Candidate order: ascending = better; ties by node order (the first candidate wins).
struct CandidateKey {
  std::int64_t pdb_violations;
  std::int64_t highest_priority;
  std::int64_t priority_sum;
  std::int64_t victims;
  std::int64_t latest_start;  // larger is better
  std::int32_t pos;

  static CandidateKey Of(const Candidate& c, std::int32_t pos) {
    return {c.pdb_violations, c.highest_priority, c.priority_sum,
            static_cast<std::int64_t>(c.victims.size()), c.latest_start, pos};
  }
  bool operator<(const CandidateKey& o) const {
    if (pdb_violations != o.pdb_violations) return pdb_violations < o.pdb_violations;
    if (highest_priority != o.highest_priority) return highest_priority < o.highest_priority;
    if (priority_sum != o.priority_sum) return priority_sum < o.priority_sum;
    if (victims != o.victims) return victims < o.victims;
    if (latest_start != o.latest_start) return latest_start > o.latest_start;
    return pos < o.pos;
  }
};

inline void Count(std::vector<int>& counts, const Status& s, int delta) {
  for (int i = 0; i < s.reason_count(); ++i) {
    const auto id = static_cast<std::size_t>(s.reason(i));
    if (counts.size() <= id) counts.resize(id + 1, 0);
    counts[id] += delta;
  }
}

struct Framework::ClassIndex {
  struct Entry {
    std::uint64_t generation = 0;  // 0 = never computed
    Status status;
    bool dry_valid = false;
    DryRunResult dry;
  };
  std::int32_t cls = -1;
  std::uint64_t last_used = 0;
  std::size_t log_pos = 0;
  std::uint64_t pdb_generation = 0;
  std::vector<Entry> entries;       // by NodeId
  std::set<std::int32_t> feasible;  // node order positions whose status is Success
  std::vector<int> filter_counts;   // reasons of failing statuses
  std::array<int, 16> plugin_counts{};
  std::size_t failing = 0;
  std::size_t potential = 0;  // status Unschedulable
  std::vector<NodeId> stale_dry;  // potential nodes whose dry run must be recomputed
  std::vector<NodeId> time_dependent;  // nodes whose dry run used "now" as a start time
  SimTime dry_time{};
  std::vector<int> dry_counts;    // reasons of potential nodes that are no candidate
  std::size_t dry_failing = 0;
  std::set<CandidateKey> candidates;

  void RemoveDry(NodeId id, std::int32_t pos) {
    Entry& e = entries[static_cast<std::size_t>(id)];
    if (!e.dry_valid) return;
    if (e.dry.candidate) {
      candidates.erase(CandidateKey::Of(*e.dry.candidate, pos));
    } else {
      Count(dry_counts, e.dry.status, -1);
      --dry_failing;
    }
    e.dry_valid = false;
    e.dry = DryRunResult{};
  }
  void AddDry(NodeId id, std::int32_t pos, DryRunResult dry) {
    Entry& e = entries[static_cast<std::size_t>(id)];
    e.dry = std::move(dry);
    e.dry_valid = true;
    if (e.dry.candidate) {
      candidates.insert(CandidateKey::Of(*e.dry.candidate, pos));
    } else {
      Count(dry_counts, e.dry.status, +1);
      ++dry_failing;
    }
  }
  void RemoveStatus(NodeId id, std::int32_t pos) {
    Entry& e = entries[static_cast<std::size_t>(id)];
    if (e.generation == 0) return;
    RemoveDry(id, pos);
    if (e.status.IsSuccess()) {
      feasible.erase(pos);
    } else {
      Count(filter_counts, e.status, -1);
      --plugin_counts[static_cast<std::size_t>(e.status.plugin())];
      --failing;
      if (e.status.code() == Code::kUnschedulable) --potential;
    }
  }
  void AddStatus(NodeId id, std::int32_t pos, const Status& s, std::uint64_t generation) {
    Entry& e = entries[static_cast<std::size_t>(id)];
    e.generation = generation;
    e.status = s;
    if (s.IsSuccess()) {
      feasible.insert(pos);
    } else {
      Count(filter_counts, s, +1);
      ++plugin_counts[static_cast<std::size_t>(s.plugin())];
      ++failing;
      if (s.code() == Code::kUnschedulable) {
        ++potential;
        stale_dry.push_back(id);
      }
    }
  }
};

}  // namespace kpsim::engine
