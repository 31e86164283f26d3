// Google Benchmarks of kube-scheduler's scheduler_perf preemption shapes (issues 2 and 3), run by
// `make bench`, never by `make test`. Each shape is generated in memory as the kubectl JSON List
// that tools/gen_scheduler_perf.py writes (byte for byte: `kpsim_bench --kpsim_dump=<shape>`
// prints it), then measured in three separate stages:
//   Load      io::ReadManifestText of the JSON text;
//   Admit     Admit of the decoded objects;
//   Simulate  the whole simulation (default profile, exact candidate search; book profile too).
// Counters: pods/s (input pods per second), decisions/s (scheduling attempts per second), both
// benchmark::Counter::kIsRate (per CPU second), s/attempt (CPU time per scheduling attempt, the
// inverse of decisions/s), preemptions (PostFilter runs, pod-group preemptions included) and
// peak RSS of the process (VmHWM, MiB; run one benchmark per process to read it per shape) and,
// for Simulate, the simulation's own peak above its input (simPeak_MiB, and per input pod) and
// the fresh pages it touched (faulted_MiB: above simPeak, memory given back and taken again).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "app/huge_pages.h"
#include "bench_util.h"

#include "kpsim/admission.h"
#include "kpsim/engine.h"
#include "kpsim/engine_options.h"
#include "kpsim/feature_gates.h"
#include "kpsim/io.h"
#include "kpsim/report.h"
#include "kpsim/results.h"

namespace kpsim {
namespace {

// ---------------------------------------------------------------------------------------------
// The generator (mirrors tools/gen_scheduler_perf.py; keep the two in step).

std::string PriorityClassItem(std::string_view name, int value) {
  return fmt::format(
      R"({{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{{"name":"{}"}},"value":{}}})",
      name, value);
}

std::string NodeItem(std::string_view name) {
  const std::string res = R"({"cpu":"4","memory":"32Gi","pods":"110"})";
  return fmt::format(
      R"({{"apiVersion":"v1","kind":"Node","metadata":{{"name":"{}","labels":{{"kubernetes.io/hostname":"{}"}}}},"status":{{"capacity":{},"allocatable":{}}}}})",
      name, name, res, res);
}

// Default member initializers let callers name only the fields they set (designated
// initializers) without -Wmissing-field-initializers.
struct PodSpecArgs {
  std::string_view cpu{};
  std::string_view memory{};          // empty: none
  std::string_view node_name{};       // empty: pending
  std::string_view priority_class{};  // empty: none
  int grace = -1;                     // -1: unset
  std::string_view group{};           // empty: none
  bool limits = false;                // limits equal to the requests
  int container_port = 0;             // 0: none
};

std::string PodItem(std::string_view name, const PodSpecArgs& a) {
  std::string requests = fmt::format(R"("cpu":"{}")", a.cpu);
  if (!a.memory.empty()) requests += fmt::format(R"(,"memory":"{}")", a.memory);
  std::string spec;
  if (!a.node_name.empty()) spec += fmt::format(R"("nodeName":"{}",)", a.node_name);
  if (!a.priority_class.empty()) {
    spec += fmt::format(R"("priorityClassName":"{}",)", a.priority_class);
  }
  if (a.grace >= 0) spec += fmt::format(R"("terminationGracePeriodSeconds":{},)", a.grace);
  if (!a.group.empty()) spec += fmt::format(R"("schedulingGroup":{{"podGroupName":"{}"}},)", a.group);
  const std::string ports =
      a.container_port == 0 ? "" : fmt::format(R"("ports":[{{"containerPort":{}}}],)", a.container_port);
  const std::string limits = a.limits ? fmt::format(R"("limits":{{{}}},)", requests) : "";
  spec += fmt::format(
      R"("containers":[{{"name":"pause","image":"registry.k8s.io/pause:3.9",{}"resources":{{{}"requests":{{{}}}}}}}])",
      ports, limits, requests);
  const std::string status = a.node_name.empty() ? "" : R"(,"status":{"phase":"Running"})";
  return fmt::format(
      R"({{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"{}","namespace":"default"}},"spec":{{{}}}{}}})",
      name, spec, status);
}

std::string PodGroupItem(std::string_view name, std::string_view mode) {
  return fmt::format(
      R"({{"apiVersion":"scheduling.k8s.io/v1beta1","kind":"PodGroup","metadata":{{"name":"{}","namespace":"default"}},"spec":{{"schedulingPolicy":{{"basic":{{}}}},"disruptionMode":{{"{}":{{}}}},"priorityClassName":"victim"}}}})",
      name, mode);
}

std::string RenderList(const std::vector<std::string>& items) {
  std::string out = R"({"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[)";
  out += "\n";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += items[i];
    out += i + 1 < items.size() ? ",\n" : "\n";
  }
  out += "]}\n";
  return out;
}

// PreemptionBasic: `nodes` nodes, 4 running p0 pods each, `nodes` pending p10 pods of 3 CPU.
std::string PreemptionBasic(int nodes) {
  std::vector<std::string> items = {PriorityClassItem("preemptor", 10)};
  for (int n = 0; n < nodes; ++n) items.push_back(NodeItem(fmt::format("node-{:05d}", n)));
  for (int n = 0; n < nodes; ++n) {
    const std::string node = fmt::format("node-{:05d}", n);
    for (int i = 0; i < 4; ++i) {
      items.push_back(PodItem(fmt::format("low-{:05d}-{}", n, i),
                              {.cpu = "900m", .memory = "500Mi", .node_name = node, .grace = 0}));
    }
  }
  for (int n = 0; n < nodes; ++n) {
    items.push_back(PodItem(fmt::format("high-{:05d}", n),
                            {.cpu = "3", .memory = "500Mi", .priority_class = "preemptor"}));
  }
  return RenderList(items);
}

// SchedulingBasic (scheduler_perf misc/performance-config.yaml): `nodes` nodes, then `init` and
// `measure` pending pods of the pod-default template (100m / 500Mi, limits equal, container port
// 80), all created at once; the shape's name is scheduling-basic-NODES-MEASURE and init = NODES,
// as in 5000Nodes_50000Pods.
std::string SchedulingBasic(int nodes, int measure) {
  std::vector<std::string> items;
  for (int n = 0; n < nodes; ++n) items.push_back(NodeItem(fmt::format("node-{:05d}", n)));
  for (int i = 0; i < nodes + measure; ++i) {
    items.push_back(PodItem(fmt::format("pod-{:06d}", i),
                            {.cpu = "100m", .memory = "500Mi", .limits = true, .container_port = 80}));
  }
  return RenderList(items);
}

// PreemptionPodGroupDisruptionMode: 1000 nodes, 1000 groups of 10 pods of 300m (p1000), 100
// preemptors of 3970m (p10000). `variant` is "plain", "single" or "all".
std::string PodGroupDisruption(std::string_view variant) {
  constexpr int kNodes = 1000, kGroups = 1000, kGroupSize = 10, kPreemptors = 100;
  constexpr int kStride = kNodes / kGroupSize;
  std::vector<std::string> items = {PriorityClassItem("victim", 1000),
                                    PriorityClassItem("preemptor", 10000)};
  for (int n = 0; n < kNodes; ++n) items.push_back(NodeItem(fmt::format("node-{:05d}", n)));
  const bool plain = variant == "plain";
  for (int g = 0; g < kGroups; ++g) {
    const std::string group = fmt::format("group-{:04d}", g);
    if (!plain) items.push_back(PodGroupItem(group, variant));
    for (int j = 0; j < kGroupSize; ++j) {
      const std::string node = fmt::format("node-{:05d}", (g + j * kStride) % kNodes);
      items.push_back(PodItem(fmt::format("victim-{:04d}-{}", g, j),
                              {.cpu = "300m",
                               .node_name = node,
                               .priority_class = "victim",
                               .grace = 0,
                               .group = plain ? std::string_view() : std::string_view(group)}));
    }
  }
  for (int p = 0; p < kPreemptors; ++p) {
    items.push_back(
        PodItem(fmt::format("preemptor-{:03d}", p), {.cpu = "3970m", .priority_class = "preemptor"}));
  }
  return RenderList(items);
}

// The realistic shape of tools/gen_realistic.py (kubectl-shaped objects with labels,
// ownerReferences, managedFields, affinity, several containers, PriorityClasses and PDBs), written
// by the generator into a temporary file at bench time; "" if python3 or the tool is missing.
std::string Realistic(int nodes) {
  const std::string path = fmt::format("/tmp/kpsim-bench-realistic-{}-{}.json", nodes, getpid());
  const std::string command =
      fmt::format("python3 '{}/tools/gen_realistic.py' --compact --nodes {} -o '{}'",
                  KPSIM_SOURCE_DIR, nodes, path);
  if (std::system(command.c_str()) != 0) return "";
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  return text;
}

// Shapes by name, as `kpsim_bench --kpsim_dump=<name>` and the benchmark arguments use them.
std::string GenerateShape(std::string_view shape) {
  if (shape.rfind("realistic-", 0) == 0) return Realistic(std::stoi(std::string(shape.substr(10))));
  if (shape.rfind("preemption-basic-", 0) == 0) {
    return PreemptionBasic(std::stoi(std::string(shape.substr(17))));
  }
  if (shape.rfind("podgroup-disruption-", 0) == 0) return PodGroupDisruption(shape.substr(20));
  if (shape.rfind("scheduling-basic-", 0) == 0) {
    const std::string sizes(shape.substr(17));
    const std::size_t dash = sizes.find('-');
    if (dash == std::string::npos) return "";
    return SchedulingBasic(std::stoi(sizes.substr(0, dash)), std::stoi(sizes.substr(dash + 1)));
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Prepared inputs, built once per shape outside the timed loops.

struct Prepared {
  std::string text;
  io::ReadResult read;
  AdmissionResult admission;
  FeatureGates gates;
  std::int64_t pods = 0;
};

const Prepared& Prepare(const std::string& shape) {
  static std::map<std::string, Prepared>* cache = new std::map<std::string, Prepared>();
  auto it = cache->find(shape);
  if (it != cache->end()) return it->second;
  Prepared& p = (*cache)[shape];
  p.text = GenerateShape(shape);
  p.read = io::ReadManifestText(p.text, shape + ".json");
  if (shape.rfind("podgroup-disruption-", 0) == 0) {
    auto gates = FeatureGates::Parse("GenericWorkload=true");
    if (gates.ok()) p.gates = *gates;
  }
  p.admission = Admit(p.read.objects, p.gates, AdmissionMode::kExisting);
  p.pods = static_cast<std::int64_t>(p.admission.state.pods.size());
  return p;
}

void ReportInputErrors(benchmark::State& state, const Prepared& p) {
  std::size_t rejected = p.read.errors.size() + p.read.file_errors.size();
  for (const AdmissionOutcome& o : p.admission.outcomes) rejected += o.admitted ? 0 : 1;
  if (rejected != 0) state.SkipWithError("the generated shape has rejected objects");
}

void BM_Load(benchmark::State& state, std::string shape) {
  const Prepared& p = Prepare(shape);
  ReportInputErrors(state, p);
  std::size_t objects = 0;
  for (auto _ : state) {
    io::ReadResult read = io::ReadManifestText(p.text, shape + ".json");
    objects = read.objects.size();
    benchmark::DoNotOptimize(read);
  }
  state.counters["pods/s"] = benchmark::Counter(static_cast<double>(p.pods) * state.iterations(),
                                                benchmark::Counter::kIsRate);
  state.counters["objects"] = static_cast<double>(objects);
  state.counters["MB"] = static_cast<double>(p.text.size()) / 1e6;
  state.counters["peakRSS_MiB"] = bench::PeakRssMiB();
}

void BM_Admit(benchmark::State& state, std::string shape) {
  const Prepared& p = Prepare(shape);
  ReportInputErrors(state, p);
  for (auto _ : state) {
    AdmissionResult admission = Admit(p.read.objects, p.gates, AdmissionMode::kExisting);
    benchmark::DoNotOptimize(admission);
  }
  state.counters["pods/s"] = benchmark::Counter(static_cast<double>(p.pods) * state.iterations(),
                                                benchmark::Counter::kIsRate);
  state.counters["peakRSS_MiB"] = bench::PeakRssMiB();
}

void BM_Simulate(benchmark::State& state, std::string shape, Profile profile,
                 CandidateSampling sampling) {
  const Prepared& p = Prepare(shape);
  ReportInputErrors(state, p);
  EngineOptions options;
  options.profile = profile;
  options.gates = p.gates;
  options.candidate_sampling = sampling;
  SimulationStats stats;
  // The simulation's own peak: what it adds to the resident set above its input (the text, the
  // decoded objects and the admitted state, which the benchmark holds throughout).
  const bool peak_reset = bench::ResetPeakRss();
  const double rss_before = bench::RssMiB();
  const long faults_before = bench::MinorFaults();
  bench::ProfileSection(true);
  for (auto _ : state) {
    SimulationResult result = Simulate(p.admission.state, options);
    stats = result.stats;
    benchmark::DoNotOptimize(result);
  }
  bench::ProfileSection(false);
  const double iterations = static_cast<double>(state.iterations());
  // The fresh pages the runs touched, per run: above simPeak_MiB, memory went back to the system
  // and was taken again.
  state.counters["faulted_MiB"] = static_cast<double>(bench::MinorFaults() - faults_before) *
                                  static_cast<double>(bench::PageBytes()) / (1024.0 * 1024.0) / iterations;
  state.counters["pods/s"] =
      benchmark::Counter(static_cast<double>(p.pods) * iterations, benchmark::Counter::kIsRate);
  state.counters["decisions/s"] =
      benchmark::Counter(static_cast<double>(stats.scheduling_attempts) * iterations,
                         benchmark::Counter::kIsRate);
  state.counters["s/attempt"] =
      benchmark::Counter(static_cast<double>(stats.scheduling_attempts) * iterations,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["attempts"] = static_cast<double>(stats.scheduling_attempts);
  state.counters["preemptions"] = static_cast<double>(stats.preemption_attempts);
  state.counters["victims"] = static_cast<double>(stats.victims);
  state.counters["scheduled"] = static_cast<double>(stats.pods_scheduled);
  state.counters["peakRSS_MiB"] = bench::PeakRssMiB();
  if (peak_reset) {
    const double added = bench::PeakRssMiB() - rss_before;
    state.counters["simPeak_MiB"] = added;
    state.counters["simPeak_B/pod"] = added * 1024 * 1024 / static_cast<double>(p.pods);
  }
}

// The sizes of issue 11, registered only with --kpsim_large (minutes and GiBs each; run one per
// process to read its peak RSS): PreemptionBasic up to 130,000 nodes with both candidate searches,
// SchedulingBasic 5000/50k and 50k/500k.
void RegisterLarge() {
  for (const std::string shape : {"preemption-basic-5000", "preemption-basic-20000", "preemption-basic-50000",
                                  "preemption-basic-130000"}) {
    benchmark::RegisterBenchmark(("SimulateDefault/" + shape).c_str(), BM_Simulate, shape,
                                 Profile::kDefault, CandidateSampling::kExact)
        ->Unit(benchmark::kMillisecond)->Iterations(1);
    benchmark::RegisterBenchmark(("SimulateSampling/" + shape).c_str(), BM_Simulate, shape,
                                 Profile::kDefault, CandidateSampling::kKubernetes)
        ->Unit(benchmark::kMillisecond)->Iterations(1);
  }
  for (const std::string shape : {"scheduling-basic-5000-50000", "scheduling-basic-20000-200000",
                                  "scheduling-basic-50000-500000"}) {
    benchmark::RegisterBenchmark(("SimulateDefault/" + shape).c_str(), BM_Simulate, shape,
                                 Profile::kDefault, CandidateSampling::kExact)
        ->Unit(benchmark::kMillisecond)->Iterations(1);
  }
}

void RegisterAll() {
  const std::vector<std::string> shapes = {
      "preemption-basic-500",         "preemption-basic-2000",         "preemption-basic-5000",
      "podgroup-disruption-plain",    "podgroup-disruption-single",    "podgroup-disruption-all"};
  for (const std::string& shape : shapes) {
    benchmark::RegisterBenchmark(("Load/" + shape).c_str(), BM_Load, shape)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("Admit/" + shape).c_str(), BM_Admit, shape)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("SimulateDefault/" + shape).c_str(), BM_Simulate, shape,
                                 Profile::kDefault, CandidateSampling::kExact)
        ->Unit(benchmark::kMillisecond);
  }
  for (const std::string shape : {"realistic-3000", "realistic-5000"}) {
    benchmark::RegisterBenchmark(("Load/" + shape).c_str(), BM_Load, shape)
        ->Unit(benchmark::kMillisecond)->Iterations(1);
    benchmark::RegisterBenchmark(("Admit/" + shape).c_str(), BM_Admit, shape)
        ->Unit(benchmark::kMillisecond)->Iterations(1);
    benchmark::RegisterBenchmark(("SimulateDefault/" + shape).c_str(), BM_Simulate, shape,
                                 Profile::kDefault, CandidateSampling::kExact)
        ->Unit(benchmark::kMillisecond)->Iterations(1);
    // The two candidate searches on realistic objects, whose candidates differ in their victims
    // and PDBs (PreemptionBasic's all tie, so the exact search takes neighbouring nodes in turn).
    benchmark::RegisterBenchmark(("SimulateSampling/" + shape).c_str(), BM_Simulate, shape,
                                 Profile::kDefault, CandidateSampling::kKubernetes)
        ->Unit(benchmark::kMillisecond)->Iterations(1);
  }
  for (const std::string shape : {"preemption-basic-2000", "preemption-basic-5000"}) {
    benchmark::RegisterBenchmark(("SimulateBook/" + shape).c_str(), BM_Simulate, shape,
                                 Profile::kBook, CandidateSampling::kExact)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace kpsim

int main(int argc, char** argv) {
  kpsim::app::UseHugePages(argv);  // as kpsim itself does
  constexpr std::string_view kDump = "--kpsim_dump=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], kDump.data(), kDump.size()) == 0) {
      const std::string text = kpsim::GenerateShape(argv[i] + kDump.size());
      if (text.empty()) {
        std::fprintf(stderr, "unknown shape %s\n", argv[i] + kDump.size());
        return 2;
      }
      std::fwrite(text.data(), 1, text.size(), stdout);
      return 0;
    }
  }
  bool large = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--kpsim_large") == 0) {
      large = true;
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      break;
    }
  }
  if (large) {
    kpsim::RegisterLarge();
  } else {
    kpsim::RegisterAll();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
