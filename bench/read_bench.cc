// Google Benchmarks of the manifest reader (issue 7): `io::ReadManifests` (read, parse, decode into
// kpsim objects) of one kubectl-shaped `kind: List` of Pods and Nodes, written once as JSON and as
// YAML by tools/gen_dump.py (the same objects; see that script for their shape). Counters:
// bytes_per_second (input MB/s, per CPU second), objects/s, and the peak RSS of the process (VmHWM,
// MiB; run one benchmark per process to read it per format).
//
//   ./build/bench/kpsim_bench --benchmark_filter=Read
//   KPSIM_READ_BENCH_PODS=20000 KPSIM_READ_BENCH_NODES=1000 (defaults) pick the size; the files
//   are generated once into $TMPDIR/kpsim-read-bench-<pods>-<nodes>-<hash of gen_dump.py>/ (about
//   40 s and 570 MB for the default); a dump of the same size by another generator is removed then.

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <system_error>

#include <unistd.h>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "bench_util.h"

#include "kpsim/io.h"

namespace kpsim {
namespace {

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}

// The directory holding dump.json and dump.yaml, generated on first use. Its name carries a hash
// of the generator, so that a dump written by an older tools/gen_dump.py is not read as this one's,
// and the dump is written beside it and renamed, so that an interrupted run leaves no half dump.
const std::filesystem::path& DumpDir() {
  static const std::filesystem::path dir = [] {
    const int pods = EnvInt("KPSIM_READ_BENCH_PODS", 20000);
    const int nodes = EnvInt("KPSIM_READ_BENCH_NODES", 1000);
    const std::string generator = fmt::format("{}/tools/gen_dump.py", KPSIM_SOURCE_DIR);
    std::ifstream in(generator, std::ios::binary);
    const std::string script((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (script.empty()) return std::filesystem::path();
    const std::filesystem::path d =
        std::filesystem::temp_directory_path() /
        fmt::format("kpsim-read-bench-{}-{}-{:016x}", pods, nodes, std::hash<std::string>{}(script));
    std::error_code ec;
    if (!std::filesystem::exists(d, ec)) {
      // The same size by an older generator (or before the hash was in the name): hundreds of MB
      // each, never read again.
      const std::string stale = fmt::format("kpsim-read-bench-{}-{}", pods, nodes);
      for (const auto& entry : std::filesystem::directory_iterator(d.parent_path(), ec)) {
        const std::string name = entry.path().filename().string();
        if (name == stale || (name.starts_with(stale + "-") && name.find(".partial") == std::string::npos)) {
          std::filesystem::remove_all(entry.path(), ec);
        }
      }
      std::filesystem::path partial = d;
      partial += fmt::format(".partial-{}", ::getpid());  // two bench processes do not share one
      std::filesystem::remove_all(partial, ec);
      const std::string cmd = fmt::format("python3 '{}' --pods {} --nodes {} --out '{}'", generator, pods,
                                          nodes, partial.string());
      if (std::system(cmd.c_str()) != 0) return std::filesystem::path();
      std::filesystem::rename(partial, d, ec);
      if (ec) {  // another process renamed its dump there first: use that one
        std::filesystem::remove_all(partial, ec);
        if (!std::filesystem::exists(d / "dump.yaml", ec)) return std::filesystem::path();
      }
    }
    return d;
  }();
  return dir;
}

void BM_Read(benchmark::State& state, const char* file) {
  if (DumpDir().empty()) {
    state.SkipWithError("tools/gen_dump.py could not be read or failed (see stderr)");
    return;
  }
  const std::string path = (DumpDir() / file).string();
  std::error_code ec;
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
  std::size_t objects = 0;
  for (auto _ : state) {
    io::ReadResult r = io::ReadManifests({path});
    objects = r.objects.size();
    if (!r.errors.empty() || !r.file_errors.empty()) {
      state.SkipWithError("the generated dump has read errors");
      return;
    }
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["objects/s"] = benchmark::Counter(
      static_cast<double>(objects), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["peak_rss_MiB"] = bench::PeakRssMiB();
}

BENCHMARK_CAPTURE(BM_Read, Json, "dump.json")->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK_CAPTURE(BM_Read, Yaml, "dump.yaml")->Unit(benchmark::kMillisecond)->MinTime(2);

}  // namespace
}  // namespace kpsim
