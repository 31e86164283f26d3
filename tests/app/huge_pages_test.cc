#include "app/huge_pages.h"

#include <gtest/gtest.h>

namespace kpsim::app {
namespace {

constexpr char kMadvise[] = "always [madvise] never\n";

TEST(HugePagesTest, AddsTheTunableWhereTheKernelGivesPagesOnRequest) {
  EXPECT_EQ(HugePageTunables(nullptr, kMadvise, nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(HugePageTunables("", kMadvise, nullptr), "glibc.malloc.hugetlb=1");
  // The user's tunables are kept, colon-separated as glibc reads them.
  EXPECT_EQ(HugePageTunables("glibc.malloc.arena_max=2", kMadvise, "1"),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
}

TEST(HugePagesTest, RunsAsIsOtherwise) {
  // Every process has them, or none can.
  EXPECT_EQ(HugePageTunables(nullptr, "[always] madvise never\n", nullptr), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, "always madvise [never]\n", nullptr), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, "", nullptr), std::nullopt);  // no such file
  // Already started again, or the user chose (even 0).
  EXPECT_EQ(HugePageTunables("glibc.malloc.hugetlb=1", kMadvise, nullptr), std::nullopt);
  EXPECT_EQ(HugePageTunables("glibc.malloc.hugetlb=0:glibc.malloc.arena_max=2", kMadvise, nullptr), std::nullopt);
  // Turned off.
  EXPECT_EQ(HugePageTunables(nullptr, kMadvise, "0"), std::nullopt);
}

}  // namespace
}  // namespace kpsim::app
