#pragma once

// `Mt19937_64`: the 64-bit Mersenne Twister, the same stream as std::mt19937_64 for the same
// integer seed (tests/framework/random_test.cc holds them equal), with a twist the compiler can
// vectorise. selectHost's reservoir sampling draws once per tied node (rand.Intn(cntOfMaxScore)
// in kube-scheduler's selectHost), so at thousands of nodes a scheduling cycle draws thousands of
// numbers (read as a block by PickAmongTop); libstdc++'s twist (a conditional per word, not
// vectorised) was 13 % of SchedulingBasic 5000 / 50k and this one is about a third of its cost.
// Parameters from Matsumoto and Nishimura's mt19937-64.c (the values [rand.mersenne.twister]
// names for mt19937_64).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace kpsim::engine {

class Mt19937_64 {
 public:
  using result_type = std::uint64_t;

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  explicit Mt19937_64(result_type seed = 5489u) { Seed(seed); }

  void Seed(result_type seed);

  result_type operator()() {
    if (next_ >= kWords) Twist();
    return tempered_[next_++];
  }

  // As `n` calls would: moves past the next `n` draws.
  void Discard(std::uint64_t n) {
    while (n > 0) {
      if (next_ >= kWords) Twist();
      const std::uint64_t take = std::min<std::uint64_t>(n, kWords - next_);
      next_ += static_cast<std::size_t>(take);
      n -= take;
    }
  }
  // As `n` calls would: the next `n` draws, into out[0, n).
  void Generate(result_type* out, std::size_t n) {
    while (n > 0) {
      if (next_ >= kWords) Twist();
      const std::size_t take = std::min(n, kWords - next_);
      std::copy_n(tempered_.data() + next_, take, out);
      out += take;
      next_ += take;
      n -= take;
    }
  }

  friend bool operator==(const Mt19937_64&, const Mt19937_64&) = default;

 private:
  static result_type Temper(result_type z) {
    z ^= (z >> 29) & 0x5555555555555555ULL;
    z ^= (z << 17) & 0x71D67FFFEDA60000ULL;
    z ^= (z << 37) & 0xFFF7EEE000000000ULL;
    return z ^ (z >> 43);
  }

  static constexpr std::size_t kWords = 312;  // n
  static constexpr std::size_t kShift = 156;  // m
  // The next kWords words.
  void Twist() {
    // Words [0, n - m) read words not yet replaced; [n - m, n - 1) read replaced ones m - n back.
    for (std::size_t i = 0; i < kWords - kShift; ++i) {
      words_[i] = Mix(words_[i], words_[i + 1], words_[i + kShift]);
    }
    for (std::size_t i = kWords - kShift; i < kWords - 1; ++i) {
      words_[i] = Mix(words_[i], words_[i + 1], words_[i + kShift - kWords]);
    }
    words_[kWords - 1] = Mix(words_[kWords - 1], words_[0], words_[kShift - 1]);
    // The outputs of the block, tempered at once (a loop that vectorises) rather than per draw.
    for (std::size_t i = 0; i < kWords; ++i) tempered_[i] = Temper(words_[i]);
    next_ = 0;
  }
  // One word of the recurrence: `far` xor the twisted concatenation of `word`'s upper and
  // `next`'s lower bits; the matrix multiply by a mask, not a branch, so the loops vectorise.
  static result_type Mix(result_type word, result_type next, result_type far) {
    constexpr result_type kUpperMask = ~result_type{0} << 31;  // the upper 33 bits
    constexpr result_type kMatrixA = 0xB5026F5AA96619E9ULL;
    const result_type y = (word & kUpperMask) | (next & ~kUpperMask);
    return far ^ (y >> 1) ^ ((result_type{0} - (y & 1)) & kMatrixA);
  }

  alignas(64) std::array<result_type, kWords> words_{};
  alignas(64) std::array<result_type, kWords> tempered_{};  // the draws of `words_`
  std::size_t next_ = kWords;
};

}  // namespace kpsim::engine
