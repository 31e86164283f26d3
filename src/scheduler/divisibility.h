#pragma once

// `x % d == 0` without a division, for the divisors selectHost's reservoir sampling asks about
// again and again (2, 3, 4, ... up to the feasible nodes: one test per tie). d = m * 2^k with m
// odd: x is a multiple of d iff x * m^-1 mod 2^64, rotated right by k bits, is at most
// (2^64 - 1) / d (a multiple d * q gives 2^k * q, rotated q; a value at most that bound has its k
// low bits, rotated to the top, zero, so x = d * q exactly; Granlund and Montgomery; Lemire, Kaser
// and Kurz, "Faster remainder by direct computation", 2019). One multiply, one rotate, one
// comparison; each divisor's constants are computed once, when first asked about.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

namespace kpsim::engine {

class DivisibilityTable {
  struct Entry {
    std::uint64_t inverse = 1;  // of the odd part, mod 2^64
    std::uint64_t limit = 0;    // (2^64 - 1) / d
    unsigned shift = 0;         // k
  };

 public:
  // REQUIRES: d >= 1.
  bool Divides(std::uint64_t x, std::uint64_t d) { return Upto(d).Divides(x, d); }

  // The divisors 1..max as a plain table, for a loop that asks about them again and again. Valid
  // until the next Divides or Upto that grows the table.
  class Table {
   public:
    // REQUIRES: 1 <= d <= the `max` it was made for.
    bool Divides(std::uint64_t x, std::uint64_t d) const {
      const Entry& e = entries_[d];
      return std::rotr(x * e.inverse, static_cast<int>(e.shift)) <= e.limit;
    }

   private:
    friend class DivisibilityTable;
    explicit Table(const Entry* entries) : entries_(entries) {}
    const Entry* entries_;
  };
  Table Upto(std::uint64_t max) {
    if (max >= entries_.size()) Grow(max);
    return Table(entries_.data());
  }

 private:
  void Grow(std::uint64_t d) {
    std::size_t size = entries_.empty() ? 64 : entries_.size();
    while (size <= d) size *= 2;
    const std::size_t from = entries_.size();
    entries_.resize(size);
    for (std::size_t i = std::max<std::size_t>(from, 1); i < size; ++i) {
      Entry& e = entries_[i];
      e.shift = static_cast<unsigned>(std::countr_zero(static_cast<std::uint64_t>(i)));
      const std::uint64_t odd = static_cast<std::uint64_t>(i) >> e.shift;
      std::uint64_t inverse = odd;  // correct to 3 bits; each Newton step doubles them
      for (int step = 0; step < 5; ++step) inverse *= 2 - odd * inverse;
      e.inverse = inverse;
      e.limit = std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(i);
    }
  }
  std::vector<Entry> entries_;
};

}  // namespace kpsim::engine
