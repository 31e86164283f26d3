#pragma once

// Helpers for the manifest reader tests.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <variant>

#include "kpsim/io.h"

namespace kpsim::io::testing_util {

// Returns the only decoded object's value of type T; fails the test if there is not exactly one
// object or it has another type.
template <typename T>
T Only(const ReadResult& r) {
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0].message);
  EXPECT_TRUE(r.file_errors.empty()) << (r.file_errors.empty() ? "" : r.file_errors[0].message);
  EXPECT_EQ(r.objects.size(), 1u);
  if (r.objects.size() != 1 || !std::holds_alternative<T>(r.objects[0].value)) return T{};
  return std::get<T>(r.objects[0].value);
}

// Decodes a one-document text expected to yield exactly one decode error and nothing else.
inline DecodeError OnlyError(std::string_view text, const std::string& file = "c.yaml") {
  const ReadResult r = ReadManifestText(text, file);
  EXPECT_TRUE(r.objects.empty());
  EXPECT_TRUE(r.file_errors.empty());
  EXPECT_EQ(r.errors.size(), 1u);
  return r.errors.empty() ? DecodeError{} : r.errors[0];
}

}  // namespace kpsim::io::testing_util
