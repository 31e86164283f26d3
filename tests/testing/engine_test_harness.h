#pragma once

// Shared set-up for the engine's unit tests: a `ClusterState` built as admission leaves it, and
// one scheduling cycle (`Framework::Decide`) run against a fresh `ClusterModel`, either as the
// simulator runs it (`Decide`) or traced as `explain` runs it (`Trace`).

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine_options.h"
#include "kpsim/explain.h"
#include "scheduler/framework.h"
#include "snapshot/cluster.h"
#include "testing/builders.h"

namespace kpsim::engine::test {

// Wall time of simulated time 0 in these tests (2023-11-14T22:13:20Z).
inline constexpr std::int64_t kOriginUs = 1'700'000'000'000'000;

// A wall time `seconds` before the origin, for status.startTime.
inline WallTime SecondsBeforeOrigin(std::int64_t seconds) {
  return WallTime{kOriginUs - seconds * 1'000'000};
}

// Fills in what admission would: the namespace, spec.priority and spec.preemptionPolicy.
inline Pod Admitted(Pod pod) {
  if (pod.meta.namespace_.empty()) pod.meta.namespace_ = "default";
  if (!pod.spec.priority) pod.spec.priority = 0;
  if (!pod.spec.preemption_policy) pod.spec.preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  return pod;
}

// A node with room for 110 pods.
inline kpsim::testing::NodeBuilder NodeWithCpu(std::string name, std::string_view cpu) {
  kpsim::testing::NodeBuilder b(std::move(name));
  b.Cpu(cpu).Memory("64Gi").Pods(110);
  return b;
}

// Marks `pod` as terminating because the scheduler preempted it (DisruptionTarget condition).
inline Pod TerminatingByPreemption(Pod pod, std::int64_t deletion_in_seconds = 30) {
  pod.meta.deletion_timestamp = WallTime{kOriginUs + deletion_in_seconds * 1'000'000};
  pod.status.conditions.push_back(PodCondition{"DisruptionTarget", "True", "PreemptionByScheduler",
                                               "default-scheduler: preempting"});
  return pod;
}

class CycleHarness {
 public:
  CycleHarness() { options.origin = WallTime{kOriginUs}; }

  void AddNode(Node node) { state.nodes.push_back(std::move(node)); }
  void AddPod(Pod pod) { state.pods.push_back(Admitted(std::move(pod))); }
  void AddPdb(PodDisruptionBudget pdb) {
    if (pdb.meta.namespace_.empty()) pdb.meta.namespace_ = "default";
    state.pdbs.push_back(std::move(pdb));
  }

  // Runs one scheduling cycle for `pod` ("name" in namespace default, or "ns/name") as the
  // simulator does, against the state at time 0.
  Decision Decide(std::string_view pod) {
    Reset();
    return framework_->Decide(Id(pod));
  }

  // The same cycle with the diagnosis `explain` adds to it.
  ExplainResult Trace(std::string_view pod) {
    Reset();
    ExplainResult out;
    const PodId id = Id(pod);
    const Decision d = framework_->Decide(id);
    framework_->Diagnose(id, d, /*chosen_only=*/false, out);
    return out;
  }

  // "ns/name" of each victim of a preemption decision, in the decision's order.
  std::vector<std::string> Victims(const Decision& d) const {
    std::vector<std::string> out;
    if (!d.candidate) return out;
    for (const Victim& v : d.candidate->victims) out.push_back(PodKey(v.pod));
    return out;
  }
  // The victims flagged as PDB-violating.
  std::vector<std::string> ViolatingVictims(const Decision& d) const {
    std::vector<std::string> out;
    if (!d.candidate) return out;
    for (const Victim& v : d.candidate->victims) {
      if (v.pdb_violating) out.push_back(PodKey(v.pod));
    }
    return out;
  }
  std::string NodeName(NodeId id) const {
    if (id == kNoId) return "";
    return model_->node(id).name.string();
  }
  std::string PodKey(PodId id) const { return model_->pod(id).key.string(); }
  ClusterModel& model() { return *model_; }

  ClusterState state;
  EngineOptions options;

 private:
  void Reset() {
    framework_.reset();
    model_ = std::make_unique<ClusterModel>(state, options);
    framework_ = std::make_unique<Framework>(*model_, options);
  }
  PodId Id(std::string_view pod) {
    const std::string key = pod.find('/') == std::string_view::npos ? "default/" + std::string(pod)
                                                                    : std::string(pod);
    const std::optional<PodId> id = model_->FindPod(key);
    EXPECT_TRUE(id.has_value()) << "no pod " << key;
    return id.value_or(PodId(0));
  }

  std::unique_ptr<ClusterModel> model_;
  std::unique_ptr<Framework> framework_;
};

// Fixture of the engine tests: a cycle harness over `state` with the default options. The class
// index and the plain per-node path are not run twice here: debug builds (the ASan suite) check
// every indexed decision against the plain path (Framework::Decide), and the property tests
// compare `--disable-caches` runs with the default ones over random clusters.
class EngineTest : public ::testing::Test, public CycleHarness {};

}  // namespace kpsim::engine::test
