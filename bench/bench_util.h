#pragma once

// Helpers shared by the benchmark binaries (bench/*.cc).

#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace kpsim::bench {

// The process's peak resident set size so far (VmHWM of /proc/self/status), in MiB; 0 where
// /proc is not there.
inline double StatusMiB(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field, 0) == 0) return std::stod(line.substr(field.size())) / 1024.0;  // kB
  }
  return 0;
}

inline double PeakRssMiB() { return StatusMiB("VmHWM:"); }

// The resident set size now (VmRSS), in MiB.
inline double RssMiB() { return StatusMiB("VmRSS:"); }

// Resets the peak resident set size to the current one (Linux's clear_refs "5"), so that a
// later PeakRssMiB() - RssMiB() taken now is what the code in between added at its peak.
// False where that is not available.
inline bool ResetPeakRss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

// The page faults the process has taken so far that needed no I/O (getrusage's ru_minflt): each
// is a fresh page the kernel zeroes. Their count over a run, against its peak, shows memory
// given back to the system and taken again.
inline long MinorFaults() {
  rusage usage{};
  return getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_minflt : 0;
}

// The size of a page, in bytes (4096 where the system does not say).
inline long PageBytes() {
  const long bytes = sysconf(_SC_PAGESIZE);
  return bytes > 0 ? bytes : 4096;
}

// Profiling only the measured code: with KPSIM_PERF_CTL naming perf's control fifo, e.g.
//   mkfifo /tmp/ctl && perf record -D -1 --control fifo:/tmp/ctl -g -- kpsim_bench ...
// ProfileSection(true) before the measured loop and ProfileSection(false) after it switch perf's
// sampling on and off, leaving the shape's preparation out of the profile.
inline void ProfileSection(bool on) {
  const char* fifo = std::getenv("KPSIM_PERF_CTL");
  if (fifo == nullptr || *fifo == '\0') return;
  std::ofstream ctl(fifo);
  ctl << (on ? "enable\n" : "disable\n");
}

}  // namespace kpsim::bench
