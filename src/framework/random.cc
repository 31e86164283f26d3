#include "framework/random.h"

namespace kpsim::engine {

void Mt19937_64::Seed(result_type seed) {
  words_[0] = seed;
  for (std::size_t i = 1; i < kWords; ++i) {
    words_[i] = 6364136223846793005ULL * (words_[i - 1] ^ (words_[i - 1] >> 62)) + i;
  }
  tempered_.fill(0);  // recomputed at the first draw; zero so that equal seeds compare equal
  next_ = kWords;
}

}  // namespace kpsim::engine
