#include "app/huge_pages.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace kpsim::app {
namespace {

constexpr std::string_view kTunable = "glibc.malloc.hugetlb";

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

}  // namespace

std::optional<std::string> HugePageTunables(const char* tunables, std::string_view thp_enabled,
                                            const char* opt_out, const char* preload) {
  if (opt_out != nullptr && std::string_view(opt_out) == "0") return std::nullopt;
  if (preload != nullptr && *preload != '\0') return std::nullopt;
  if (thp_enabled.find("[madvise]") == std::string_view::npos) return std::nullopt;
  const std::string_view given = tunables != nullptr ? tunables : "";
  if (given.find(kTunable) != std::string_view::npos) return std::nullopt;
  std::string out(given);
  if (!out.empty()) out += ':';  // tunables are colon-separated
  out += kTunable;
  out += "=1";
  return out;
}

void UseHugePages(char** argv) {
#if defined(__linux__) && defined(__GLIBC__)
  if (kSanitized || argv == nullptr || argv[0] == nullptr) return;
  std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
  const std::string thp((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::optional<std::string> tunables =
      HugePageTunables(std::getenv("GLIBC_TUNABLES"), thp, std::getenv("KPSIM_HUGE_PAGES"), std::getenv("LD_PRELOAD"));
  if (!tunables) return;
  const char* before = std::getenv("GLIBC_TUNABLES");
  const std::string restore = before != nullptr ? before : "";
  if (setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Only on failure: go on as this process, with the environment as it was.
  if (before != nullptr) {
    setenv("GLIBC_TUNABLES", restore.c_str(), 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
#else
  (void)argv;
#endif
}

}  // namespace kpsim::app
