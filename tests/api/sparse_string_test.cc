// SparseString (include/kpsim/sparse_string.h): the result types' 8-byte string for mostly empty
// fields. It must read, compare and copy as the std::string it replaces.

#include "kpsim/sparse_string.h"

#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace kpsim {
namespace {

static_assert(sizeof(SparseString) == sizeof(void*), "SparseString is one pointer");

TEST(SparseStringTest, EmptyByDefaultAndWhenAssignedEmpty) {
  SparseString s;
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.str(), "");
  EXPECT_EQ(s.size(), 0U);
  s = "default/job";
  EXPECT_FALSE(s.empty());
  s = std::string();
  EXPECT_TRUE(s.empty()) << "an empty text is held as none";
  s = std::string_view("x");
  EXPECT_EQ(s, "x");
}

TEST(SparseStringTest, ReadsAsTheText) {
  const SparseString s = std::string("default/trainer-with-a-long-name");
  const std::string& ref = s;
  const std::string_view view = s;
  EXPECT_EQ(ref, "default/trainer-with-a-long-name");
  EXPECT_EQ(view, "default/trainer-with-a-long-name");
  EXPECT_EQ(s.size(), ref.size());
  EXPECT_EQ(fmt::format("[{}] [{}]", s, SparseString()), "[default/trainer-with-a-long-name] []");
  std::ostringstream out;
  out << s << "|" << SparseString();
  EXPECT_EQ(out.str(), "default/trainer-with-a-long-name|");
}

TEST(SparseStringTest, CopiesAreDeepAndMovesLeaveEmpty) {
  SparseString a = "default/a";
  SparseString b = a;
  b = "default/b";
  EXPECT_EQ(a, "default/a") << "a copy owns its text";
  EXPECT_EQ(b, "default/b");
  a = b;
  EXPECT_EQ(a, b);
  const SparseString& self = a;
  a = self;  // self-assignment keeps the text
  EXPECT_EQ(a, "default/b");
  SparseString c = std::move(a);
  EXPECT_EQ(c, "default/b");
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): a moved-from value is empty
  EXPECT_FALSE(SparseString("x") == SparseString("y"));
  EXPECT_TRUE(SparseString() == SparseString(""));
}

// Compares with every string type, either side first, as std::string does.
TEST(SparseStringTest, ComparesWithStrings) {
  const SparseString s = "default/a";
  const std::string same = "default/a";
  const std::string other = "default/b";
  EXPECT_TRUE(s == same);
  EXPECT_TRUE(same == s);
  EXPECT_TRUE(s != other);
  EXPECT_TRUE(s == std::string_view("default/a"));
  EXPECT_TRUE(std::string_view("default/b") != s);
  EXPECT_TRUE(s == "default/a");
  EXPECT_TRUE("default/b" != s);
  EXPECT_TRUE(SparseString() == std::string());
}

}  // namespace
}  // namespace kpsim
