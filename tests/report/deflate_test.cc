// Deflate + base64 for the large JSON a report embeds: a lossless, deterministic round trip, and
// text that is not one is refused rather than misread.

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>

#include "report/deflate.h"

namespace kpsim::report {
namespace {

TEST(DeflateBase64Test, RoundTripsEveryLengthModuloThree) {
  std::mt19937 rng(7);
  for (std::size_t n : {0u, 1u, 2u, 3u, 4u, 5u, 1000u, 65537u, 300001u}) {
    std::string bytes(n, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() % 7);  // compressible, with NULs
    const std::string packed = DeflateBase64(bytes);
    ASSERT_FALSE(packed.empty()) << n;
    EXPECT_EQ(packed.size() % 4, 0u) << "padded base64";
    EXPECT_EQ(packed.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="),
              std::string::npos);
    const std::optional<std::string> back = InflateBase64(packed);
    ASSERT_TRUE(back.has_value()) << n;
    EXPECT_EQ(*back, bytes) << n;
  }
}

TEST(DeflateBase64Test, IsDeterministicAndShrinksRepetitiveJson) {
  std::string json = "[";
  for (int i = 0; i < 20000; ++i) json += R"({"pod":"default/p-)" + std::to_string(i) + R"(","state":"Running"},)";
  json.back() = ']';
  const std::string packed = DeflateBase64(json);
  EXPECT_EQ(packed, DeflateBase64(json));
  EXPECT_LT(packed.size() * 5, json.size());
}

TEST(DeflateBase64Test, RefusesTextThatIsNotBase64OfAZlibStream) {
  EXPECT_FALSE(InflateBase64("not base64!").has_value());
  EXPECT_FALSE(InflateBase64("QUJD").has_value()) << "base64 of ABC, not a zlib stream";
  std::string packed = DeflateBase64("hello, hello, hello");
  EXPECT_FALSE(InflateBase64(packed.substr(0, packed.size() - 8)).has_value()) << "truncated";
  EXPECT_FALSE(InflateBase64("QQ==QQ==").has_value()) << "data after padding";
}

}  // namespace
}  // namespace kpsim::report
