#pragma once

// The one entry point shared by the libFuzzer target (manifest_fuzzer.cc) and the regression
// replayer (replay_main.cc), so a reproducer replays through exactly the code that found it.

#include <cstddef>
#include <cstdint>

namespace kpsim::fuzz {

// Reads `data` as one manifest text (JSON when its first non-blank byte is `{` or `[`, else YAML),
// admits it, and, when the admitted cluster is small, simulates it for a bounded simulated time
// under both profiles and renders every output; with Nodes marked as templates, runs it as
// `simulate --scale-up` too. The same bytes go to the sweep's readers: a Sweep spec, and JSON
// lines as `sweep merge` joins and summarizes them. Aborts (a finding) if a run is not
// deterministic or a reader breaks its contract. Returns 0 always (libFuzzer's convention).
int RunOneInput(const std::uint8_t* data, std::size_t size);

}  // namespace kpsim::fuzz
