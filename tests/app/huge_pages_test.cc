#include "app/huge_pages.h"

#include <gtest/gtest.h>

namespace kpsim::app {
namespace {

constexpr char kMadvise[] = "always [madvise] never\n";

TEST(HugePagesTest, AddsTheTunableWhereTheKernelGivesPagesOnRequest) {
  EXPECT_EQ(HugePageTunables(nullptr, kMadvise, nullptr, nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(HugePageTunables("", kMadvise, nullptr, ""), "glibc.malloc.hugetlb=1");
  // The user's tunables are kept, colon-separated as glibc reads them.
  EXPECT_EQ(HugePageTunables("glibc.malloc.arena_max=2", kMadvise, "1", nullptr),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
}

TEST(HugePagesTest, RunsAsIsOtherwise) {
  // Every process has them, or none can.
  EXPECT_EQ(HugePageTunables(nullptr, "[always] madvise never\n", nullptr, nullptr), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, "always madvise [never]\n", nullptr, nullptr), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, "", nullptr, nullptr), std::nullopt);  // no such file
  // Already started again, or the user chose (even 0).
  EXPECT_EQ(HugePageTunables("glibc.malloc.hugetlb=1", kMadvise, nullptr, nullptr), std::nullopt);
  EXPECT_EQ(HugePageTunables("glibc.malloc.hugetlb=0:glibc.malloc.arena_max=2", kMadvise, nullptr, nullptr), std::nullopt);
  // Turned off.
  EXPECT_EQ(HugePageTunables(nullptr, kMadvise, "0", nullptr), std::nullopt);
  // Under valgrind (its core is preloaded), a profiler or another malloc.
  EXPECT_EQ(HugePageTunables(nullptr, kMadvise, nullptr, "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so"),
            std::nullopt);
}

}  // namespace
}  // namespace kpsim::app
