// Replays fuzz reproducers through the fuzzer's entry point without libFuzzer, so a fixed finding
// stays fixed in the ordinary test run: `kpsim_fuzz_replay FILE_OR_DIR...`. Directories are read
// one level deep, in name order; README* files are skipped. A crash or abort fails the test; a
// normal return prints one line per input and exits 0.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_entry.h"

namespace {

bool ReplayFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "kpsim_fuzz_replay: cannot read %s\n", path.c_str());
    return false;
  }
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  kpsim::fuzz::RunOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  std::printf("ok   %s (%zu bytes)\n", path.filename().c_str(), data.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: kpsim_fuzz_replay FILE_OR_DIR...\n");
    return 2;
  }
  int replayed = 0;
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg, ec)) {
        if (entry.is_regular_file() && !entry.path().filename().string().starts_with("README")) {
          files.push_back(entry.path());
        }
      }
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(arg);
    }
    for (const auto& f : files) {
      ok = ReplayFile(f) && ok;
      ++replayed;
    }
  }
  std::printf("%d inputs replayed\n", replayed);
  return ok ? 0 : 1;
}
