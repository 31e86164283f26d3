#pragma once

// A passive observer of one scheduling cycle: hooks the cycle calls as it decides, so that explain
// can record a diagnosis without changing which code runs. Every hook is empty by default; an
// observer reads what it is given and never changes the cycle's decision.

#include "framework/status.h"
#include "snapshot/cluster.h"

namespace kpsim::engine {

class CycleObserver {
 public:
  virtual ~CycleObserver() = default;
  // The filter verdict of `node` for `pod` (after the nominated pods were considered).
  virtual void OnFilter(const PodInfo& /*pod*/, NodeId /*node*/, const Status& /*status*/) {}
  // The node a cycle selected (SelectHost) for `pod`.
  virtual void OnSelectHost(const PodInfo& /*pod*/, NodeId /*node*/) {}
};

}  // namespace kpsim::engine
