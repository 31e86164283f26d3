#include <gtest/gtest.h>

#include "kpsim/api/types.h"

namespace kpsim {
namespace {

ResourceList Make(std::int64_t cpu, std::int64_t mem) {
  ResourceList r;
  r.milli_cpu = cpu;
  r.memory = mem;
  return r;
}

TEST(ResourceListTest, SetUsesMilliForCpuAndValueForTheRest) {
  ResourceList r;
  r.Set("cpu", *Quantity::Parse("250m"));
  r.Set("memory", *Quantity::Parse("1Ki"));
  r.Set("ephemeral-storage", *Quantity::Parse("1.5"));
  r.Set("pods", *Quantity::Parse("110"));
  r.Set("nvidia.com/gpu", *Quantity::Parse("2"));
  EXPECT_EQ(r.milli_cpu, 250);
  EXPECT_EQ(r.memory, 1024);
  EXPECT_EQ(r.ephemeral_storage, 2);  // Value() rounds up
  EXPECT_EQ(r.pods, 110);
  EXPECT_EQ(r.Scalar("nvidia.com/gpu"), 2);
}

TEST(ResourceListTest, SetKeepsScalarResourcesSortedAndIgnoresUnknownNativeNames) {
  ResourceList r;
  r.Set("z.io/b", *Quantity::Parse("1"));
  r.Set("a.io/a", *Quantity::Parse("3"));
  r.Set("hugepages-2Mi", *Quantity::Parse("4Mi"));
  r.Set("foo", *Quantity::Parse("7"));                     // not a scalar resource name
  r.Set("requests.example.com/x", *Quantity::Parse("7"));  // quota-style name
  ASSERT_EQ(r.scalar.size(), 3u);
  EXPECT_EQ(r.scalar[0].first, "a.io/a");
  EXPECT_EQ(r.scalar[1].first, "hugepages-2Mi");
  EXPECT_EQ(r.scalar[2].first, "z.io/b");
  EXPECT_EQ(r.Scalar("foo"), 0);
}

TEST(ResourceListTest, SetScalarZeroRemovesTheEntry) {
  ResourceList r;
  r.SetScalar("example.com/x", 5);
  r.SetScalar("example.com/x", 0);
  EXPECT_TRUE(r.scalar.empty());
  EXPECT_TRUE(r.IsZero());
}

TEST(ResourceListTest, AddAndSubtractAreComponentWise) {
  ResourceList a = Make(100, 200);
  a.SetScalar("example.com/gpu", 1);
  ResourceList b = Make(50, 50);
  b.SetScalar("example.com/gpu", 1);
  b.SetScalar("example.com/fpga", 2);
  ResourceList sum = a + b;
  EXPECT_EQ(sum.milli_cpu, 150);
  EXPECT_EQ(sum.memory, 250);
  EXPECT_EQ(sum.Scalar("example.com/gpu"), 2);
  EXPECT_EQ(sum.Scalar("example.com/fpga"), 2);
  ResourceList back = sum - b;
  EXPECT_EQ(back, a);  // the fpga entry dropped to zero and disappeared
}

TEST(ResourceListTest, MaxTakesEachComponentSeparately) {
  ResourceList a = Make(100, 10);
  a.SetScalar("example.com/gpu", 3);
  ResourceList b = Make(50, 20);
  b.SetScalar("example.com/fpga", 1);
  ResourceList m = ResourceList::Max(a, b);
  EXPECT_EQ(m.milli_cpu, 100);
  EXPECT_EQ(m.memory, 20);
  EXPECT_EQ(m.Scalar("example.com/gpu"), 3);
  EXPECT_EQ(m.Scalar("example.com/fpga"), 1);
}

TEST(ResourceListTest, FitsRequiresEveryComponent) {
  ResourceList free = Make(1000, 1000);
  free.pods = 10;
  ResourceList req = Make(1000, 1);
  req.pods = 1;
  EXPECT_TRUE(free.Fits(req));
  req.milli_cpu = 1001;
  EXPECT_FALSE(free.Fits(req));
  ResourceList gpu;
  gpu.SetScalar("example.com/gpu", 1);
  EXPECT_FALSE(free.Fits(gpu));  // absent scalar means zero available
  free.SetScalar("example.com/gpu", 1);
  EXPECT_TRUE(free.Fits(gpu));
}

TEST(ResourceListTest, NeitherVectorFitsTheOtherWhenIncomparable) {
  // Resource vectors are only partially ordered.
  ResourceList a = Make(2, 1);
  ResourceList b = Make(1, 2);
  EXPECT_FALSE(a.Fits(b));
  EXPECT_FALSE(b.Fits(a));
}

}  // namespace
}  // namespace kpsim
