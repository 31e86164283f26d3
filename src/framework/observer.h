#pragma once

// A passive observer of the scheduling cycles of a run: `explain` is the run's own decision plus a
// read-only diagnosis, recorded through this interface. The simulator asks the observer, after a
// cycle decided and before the decision is applied, whether it wants that attempt explained; if
// so the cycle's diagnosis (every node's filter verdict, every candidate's reprieve trace) is
// computed without touching anything a later decision reads (the generator, the filter start
// index, the model) and handed over. An observer never changes a decision.

#include <cstdint>
#include <span>

#include "kpsim/explain.h"
#include "kpsim/sim_time.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

// One scheduling attempt: a pod's cycle (`pod` set) or a pod group's (`group` set, `members`
// its pending pods in scheduling order).
struct Attempt {
  enum class Outcome : std::uint8_t { kBind, kPreempt, kFail };
  std::int64_t round = 0;
  SimTime time{};
  PodId pod = kNoId;
  GroupId group = kNoId;  // the root group
  std::span<const PodId> members;
  Outcome outcome = Outcome::kFail;
  const ClusterModel* model = nullptr;  // the state the attempt was decided against
};

// How much of a cycle a diagnosis covers: everything (`explain`), or only what the HTML report
// embeds per marker (filter verdicts and the chosen candidate's reprieve, no dry run of the other
// candidates).
enum class ExplainDetail : std::uint8_t { kFull, kChosenOnly };

class CycleObserver {
 public:
  virtual ~CycleObserver() = default;
  // Whether to diagnose `attempt` (its decision is made, not applied yet), and how deeply.
  virtual bool Observes(const Attempt& attempt, ExplainDetail& detail) = 0;
  // The diagnosis of an attempt Observes accepted.
  virtual void OnExplained(const Attempt& attempt, ExplainResult explained) = 0;
  // True once the observer has all it wants: the run stops after this attempt.
  virtual bool Done() const { return false; }
  // Whether Observes may accept an attempt that binds (a bind's diagnosis has the score table, so
  // the cycle keeps the nodes it scored; an observer that never wants binds spares that copy).
  virtual bool ExplainsBinds() const { return true; }
};

}  // namespace kpsim::engine
