// libFuzzer target: reader + admission + a bounded run + renderers (see fuzz_entry.h).
// Built only with -DKPSIM_FUZZ=ON and clang; `make fuzz` runs it.

#include <cstddef>
#include <cstdint>

#include "fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return kpsim::fuzz::RunOneInput(data, size);
}
