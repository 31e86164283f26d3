// Reader + admission + a bounded run + renderers over one input; see fuzz_entry.h.

#include "fuzz_entry.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "app/run.h"
#include "app/sweep.h"
#include "kpsim/admission.h"
#include "kpsim/engine.h"
#include "kpsim/engine_options.h"
#include "kpsim/feature_gates.h"
#include "kpsim/io.h"
#include "kpsim/report.h"
#include "kpsim/results.h"

namespace kpsim::fuzz {
namespace {

// One input must stay well under a second: the scheduling work grows with pods x nodes (every
// cycle filters every node, preemption dry-runs every candidate), so larger clusters are only
// read and admitted.
constexpr std::size_t kMaxPodNodeProduct = 4096;
constexpr std::size_t kMaxPods = 256;
constexpr std::size_t kMaxPodGroups = 64;
// Small enough to check determinism twice over.
constexpr std::size_t kDeterminismPodNodeProduct = 256;
constexpr auto kUntil = std::chrono::minutes(10);

[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "kpsim fuzz: %s\n", what);
  std::abort();
}

std::string SimulateAndRender(const io::ReadResult& read, const AdmissionResult& admission,
                              const EngineOptions& options) {
  const SimulationResult result = Simulate(admission.state, options);
  report::RunReport run{&read, &admission, &result, &options, {}};
  return report::RenderSimulationJson(run) + report::RenderSimulationText(run);
}

// The sweep's readers over the same bytes: a Sweep spec (and its grid, when small enough to
// make), and shards' JSON lines as `kpsim sweep merge` joins them (one file, and the same file
// twice, whose every run is then a duplicate) and summarizes them.
void FuzzSweep(std::string_view text) {
  if (auto spec = io::ParseSweepSpec(text, "fuzz-sweep.yaml"); spec.ok()) {
    constexpr std::size_t kMaxGrid = 256;
    if (const std::size_t runs = app::SweepRunCount(*spec, kMaxGrid); runs > 0 && runs <= kMaxGrid) {
      const std::vector<app::SweepRun> grid = app::SweepGrid(*spec);
      if (grid.size() != runs) Die("SweepRunCount and SweepGrid disagree on the number of runs");
    }
  }
  const std::vector<app::SweepSource> one = {{"fuzz-0.jsonl", std::string(text)}};
  const auto merged = app::MergeSweepLines(one);
  if (!merged.ok()) return;
  (void)app::RenderSweepText(*merged);
  std::vector<app::SweepSource> twice = one;
  twice.push_back({"fuzz-1.jsonl", one.front().text});
  if (!merged->empty() && app::MergeSweepLines(twice).ok()) Die("two shards holding the same runs merged");
}

// The gates PodGroup inputs run with: every workload gate on (RunOneInput and FuzzScaleUp).
constexpr std::string_view kWorkloadGates =
    "GenericWorkload=true,CompositePodGroup=true,PodGroupPreemptionPolicy=true,GangScheduling=true,"
    "TopologyAwareWorkloadScheduling=true";

// `simulate --scale-up` over an input that marks some of its Nodes as templates, as the command
// runs it (templates taken from the input, both worlds run and rendered), twice when small.
void FuzzScaleUp(const io::ReadResult& read, std::size_t size, bool small, bool workload_gates) {
  app::CommonFlags common;
  common.output = size % 3 == 0 ? "json" : size % 3 == 1 ? "text" : "html";
  if (workload_gates) common.feature_gates = kWorkloadGates;
  app::EngineFlags engine;
  engine.until = "10m";
  engine.until_set = true;  // as the flag given
  engine.scale_up = true;
  engine.max_new_nodes = 8;
  const app::RunOutput out = app::RunSimulate(read, common, engine);
  if (small && !out.error && app::RunSimulate(read, common, engine).output != out.output) {
    Die("same input and options, different scale-up output");
  }
}

}  // namespace

int RunOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  const bool json = first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
  FuzzSweep(text);
  const io::ReadResult read = io::ReadManifestText(text, json ? "fuzz.json" : "fuzz.yaml");

  // PodGroup inputs run with the workload gates on, everything else with the defaults, so both
  // admission paths (groups refused while GenericWorkload is off, groups admitted) are reached.
  FeatureGates gates;
  if (text.find("PodGroup") != std::string_view::npos) {
    const Expected<FeatureGates> workload = FeatureGates::Parse(kWorkloadGates);
    if (!workload.ok()) Die("the fuzzer's workload gates do not parse");
    gates = *workload;
  }
  const AdmissionResult admission = Admit(read.objects, gates, AdmissionMode::kCreate, read.scenarios);
  (void)report::RenderValidateJson(read, admission);
  (void)report::RenderValidateText(read, admission);

  const ClusterState& state = admission.state;
  const std::size_t pods = state.pods.size();
  const std::size_t nodes = state.nodes.size();
  if (pods > kMaxPods || state.pod_groups.size() > kMaxPodGroups || state.steps.size() > kMaxPods ||
      pods * (nodes == 0 ? 1 : nodes) > kMaxPodNodeProduct) {
    return 0;
  }
  if (text.find(kNodeTemplateAnnotation) != std::string_view::npos) {
    FuzzScaleUp(read, size, pods * (nodes == 0 ? 1 : nodes) <= kDeterminismPodNodeProduct, gates.generic_workload);
  }
  // Pods with no nodes are run too: the engine ends such a run at once, every pod pending
  // ("0/0 nodes are available"; finding F1, fuzz/regressions/no-nodes-*).

  for (const Profile profile : {Profile::kDefault, Profile::kBook}) {
    EngineOptions options;
    options.profile = profile;
    options.gates = gates;
    options.until = kUntil;
    options.max_attempts = 10000;
    options.candidate_sampling = size % 2 == 0 ? CandidateSampling::kExact : CandidateSampling::kKubernetes;
    const std::string out = SimulateAndRender(read, admission, options);
    if (pods * (nodes == 0 ? 1 : nodes) <= kDeterminismPodNodeProduct &&
        SimulateAndRender(read, admission, options) != out) {
      Die("same input and options, different output");
    }
    if (pods > 0) {
      const Pod& pod = state.pods.front();
      auto explained = Explain(state, options, pod.meta.namespace_ + "/" + pod.meta.name);
      if (explained.ok()) {
        (void)report::RenderExplainJson(*explained);
        (void)report::RenderExplainText(*explained);
      }
    }
    if (profile == Profile::kDefault && gates.generic_workload && !state.pod_groups.empty()) {
      const PodGroup& group = state.pod_groups.front();
      auto explained = ExplainGroup(state, options, group.meta.namespace_ + "/" + group.meta.name);
      if (explained.ok()) (void)report::RenderExplainJson(*explained);
    }
  }
  return 0;
}

}  // namespace kpsim::fuzz
