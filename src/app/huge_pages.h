#pragma once

// Transparent huge pages for the heap. A large run reads its pods and nodes at random (a victim on
// a sampled node, a replacement's owner); with 4 KiB pages each such read also misses the TLB,
// and at 130,000 nodes that was a third or more of PreemptionBasic's time (the README's tenth
// stop: 5.05 s warm before, 3.30 s with pods in chunks and huge pages; peak memory 1 % higher).
// glibc's malloc asks the kernel for huge pages only when told at start, by the tunable
// glibc.malloc.hugetlb=1 (GLIBC_TUNABLES), so a process that wants them sets the variable and
// executes itself again, once, before doing anything else.

#include <optional>
#include <string>
#include <string_view>

namespace kpsim::app {

// The GLIBC_TUNABLES value to run again with, or nothing to run as is: when the kernel gives huge
// pages on request only (`thp_enabled`, the text of /sys/kernel/mm/transparent_hugepage/enabled,
// has "[madvise]"; with "[always]" every process has them, with "[never]" none can), the
// tunables do not name glibc.malloc.hugetlb already (the user's choice, or this process's own
// second start), KPSIM_HUGE_PAGES (`opt_out`) is not "0", and LD_PRELOAD (`preload`) is empty:
// a preloaded library is a tool watching this process (valgrind's core, a profiler) or another
// malloc, and a process started again would escape the one and gain nothing from the other.
std::optional<std::string> HugePageTunables(const char* tunables, std::string_view thp_enabled,
                                            const char* opt_out, const char* preload);

// Executes /proc/self/exe with `argv` and GLIBC_TUNABLES as HugePageTunables says, or returns (no
// change needed, not Linux with glibc, a sanitizer build whose allocator is not glibc's, or the
// exec failed: the run goes on with small pages). Call first thing in main.
void UseHugePages(char** argv);

}  // namespace kpsim::app
