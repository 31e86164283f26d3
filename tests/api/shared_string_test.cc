// SharedString (include/kpsim/shared_string.h): the result types' 8-byte immutable string, whose
// copies share one text. It must read, compare, concatenate and copy as the std::string it
// replaces.

#include "kpsim/shared_string.h"

#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace kpsim {
namespace {

static_assert(sizeof(SharedString) == sizeof(void*), "SharedString is one pointer");

TEST(SharedStringTest, EmptyByDefaultAndWhenAssignedEmpty) {
  SharedString s;
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

TEST(SharedStringTest, ReadsAsTheText) {
  const SharedString s = std::string("default/trainer-with-a-long-name");
  const std::string copy = s.string();
  const std::string explicit_copy(s);
  const std::string_view view = s;
  EXPECT_EQ(copy, "default/trainer-with-a-long-name");
  EXPECT_EQ(explicit_copy, copy);
  EXPECT_EQ("pod " + s + "!", "pod default/trainer-with-a-long-name!");
  EXPECT_EQ(std::string("[") + s, "[default/trainer-with-a-long-name");
  EXPECT_EQ(SharedString(std::string_view("a\0b", 3)).size(), 3U) << "the text is sized, not NUL-ended";
  EXPECT_EQ(SharedString("x").str(), "x");
  EXPECT_EQ(view, "default/trainer-with-a-long-name");
  EXPECT_EQ(s.size(), copy.size());
  EXPECT_EQ(fmt::format("[{}] [{}]", s, SharedString()), "[default/trainer-with-a-long-name] []");
  std::ostringstream out;
  out << s << "|" << SharedString();
  EXPECT_EQ(out.str(), "default/trainer-with-a-long-name|");
}

TEST(SharedStringTest, CopiesShareTheTextAndAssignmentsDoNotReachIt) {
  SharedString a = "default/a";
  SharedString b = a;
  EXPECT_TRUE(b.SharesTextWith(a)) << "a copy counts a reference, it does not copy the text";
  b = "default/b";
  EXPECT_FALSE(b.SharesTextWith(a));
  EXPECT_EQ(a, "default/a") << "assigning a copy leaves the other values as they were";
  EXPECT_EQ(b, "default/b");
  a = b;
  EXPECT_EQ(a, b);
  const SharedString& self = a;
  a = self;  // self-assignment keeps the text
  EXPECT_EQ(a, "default/b");
  SharedString c = std::move(a);
  EXPECT_EQ(c, "default/b");
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): a moved-from value is empty
  EXPECT_FALSE(SharedString("x") == SharedString("y"));
  EXPECT_TRUE(SharedString() == SharedString(""));
}

// The text lives as long as any value shares it, whichever goes first (ASan checks the frees).
TEST(SharedStringTest, TheTextLivesWhileAnyCopyDoes) {
  auto* first = new SharedString(std::string(100, 'x'));
  SharedString second = *first;
  SharedString third;
  third = second;
  delete first;
  EXPECT_EQ(second.str(), std::string(100, 'x'));
  second = SharedString();
  EXPECT_EQ(third.size(), 100U);
  EXPECT_EQ(third.str()[99], 'x');
  const SharedString& alias = third;
  third = alias;  // self-assignment keeps the last reference
  EXPECT_EQ(third.size(), 100U);
}

// Compares with every string type, either side first, as std::string does.
TEST(SharedStringTest, ComparesWithStrings) {
  const SharedString s = "default/a";
  const std::string same = "default/a";
  const std::string other = "default/b";
  EXPECT_TRUE(s == same);
  EXPECT_TRUE(same == s);
  EXPECT_TRUE(s != other);
  EXPECT_TRUE(s == std::string_view("default/a"));
  EXPECT_TRUE(std::string_view("default/b") != s);
  EXPECT_TRUE(s == "default/a");
  EXPECT_TRUE("default/b" != s);
  EXPECT_TRUE(SharedString() == std::string());
}

}  // namespace
}  // namespace kpsim
