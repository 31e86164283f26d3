#pragma once

// `Mt19937_64`: the 64-bit Mersenne Twister, the same stream as std::mt19937_64 for the same
// integer seed (tests/framework/random_test.cc holds them equal), with a twist the compiler can
// vectorise. selectHost's reservoir sampling draws once per tied node (rand.Intn(cntOfMaxScore)
// in kube-scheduler's selectHost), so at thousands of nodes a scheduling cycle draws thousands of
// numbers; libstdc++'s twist, with a branch per word, was 13 % of SchedulingBasic 5000 / 50k
// and this one is about a third of its cost. Parameters from Matsumoto and Nishimura's
// mt19937-64.c (the values [rand.mersenne.twister] names for mt19937_64).

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
    // Tempering.
    result_type z = words_[next_++];
    z ^= (z >> 29) & 0x5555555555555555ULL;
    z ^= (z << 17) & 0x71D67FFFEDA60000ULL;
    z ^= (z << 37) & 0xFFF7EEE000000000ULL;
    z ^= z >> 43;
    return z;
  }

  friend bool operator==(const Mt19937_64&, const Mt19937_64&) = default;

 private:
  static constexpr std::size_t kWords = 312;  // n
  static constexpr std::size_t kShift = 156;  // m
  void Twist();  // the next kWords words

  alignas(64) std::array<result_type, kWords> words_{};
  std::size_t next_ = kWords;
};

}  // namespace kpsim::engine
