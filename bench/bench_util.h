#pragma once

// Helpers shared by the benchmark binaries (bench/*.cc).

#include <fstream>
#include <string>

namespace kpsim::bench {

// The process's peak resident set size so far (VmHWM of /proc/self/status), in MiB; 0 where
// /proc is not there.
inline double PeakRssMiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  }
  return 0;
}

}  // namespace kpsim::bench
