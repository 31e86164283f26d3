#include "framework/random.h"

namespace kpsim::engine {

namespace {

constexpr std::uint64_t kUpperMask = ~std::uint64_t{0} << 31;  // the upper 33 bits
constexpr std::uint64_t kLowerMask = ~kUpperMask;
constexpr std::uint64_t kMatrixA = 0xB5026F5AA96619E9ULL;

// One word of the recurrence: `far` xor the twisted concatenation of `word`'s upper and `next`'s
// lower bits; the matrix multiply by a mask, not a branch, so the loops vectorise.
std::uint64_t Mix(std::uint64_t word, std::uint64_t next, std::uint64_t far) {
  const std::uint64_t y = (word & kUpperMask) | (next & kLowerMask);
  return far ^ (y >> 1) ^ ((std::uint64_t{0} - (y & 1)) & kMatrixA);
}

}  // namespace

void Mt19937_64::Seed(result_type seed) {
  words_[0] = seed;
  for (std::size_t i = 1; i < kWords; ++i) {
    words_[i] = 6364136223846793005ULL * (words_[i - 1] ^ (words_[i - 1] >> 62)) + i;
  }
  next_ = kWords;
}

void Mt19937_64::Twist() {
  // Words [0, n - m) read words not yet replaced; [n - m, n - 1) read replaced ones m - n back.
  for (std::size_t i = 0; i < kWords - kShift; ++i) {
    words_[i] = Mix(words_[i], words_[i + 1], words_[i + kShift]);
  }
  for (std::size_t i = kWords - kShift; i < kWords - 1; ++i) {
    words_[i] = Mix(words_[i], words_[i + 1], words_[i + kShift - kWords]);
  }
  words_[kWords - 1] = Mix(words_[kWords - 1], words_[0], words_[kShift - 1]);
  next_ = 0;
}

}  // namespace kpsim::engine
