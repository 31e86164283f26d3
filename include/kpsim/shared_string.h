#pragma once

// SharedString: an immutable string in 8 bytes, whose copies share one text. A long run's result
// keeps a SimEvent per scheduling event and a PodOutcome per pod (millions at 130,000 nodes).
// Their fields name the same pods and nodes over and over, and most of their other fields (a pod
// group, a Scenario step, a nomination) are empty: a std::string would take 32 bytes for each,
// plus a heap copy of every name longer than 15 characters. A SharedString takes one pointer, is
// null when empty, and a copy only counts one more reference to the text it shares.
//
// The text never changes once made (there is no mutable access), so sharing it is invisible.
// Values read as a std::string_view (str(), and implicitly), compare with every string type,
// concatenate into a std::string with `+`, and give a std::string copy with string(); the text is
// one block with its count and size, so a text costs one allocation. The count is atomic, so that
// values may be copied on different threads (a sweep's runs).

#include <atomic>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace kpsim {

class SharedString {
 public:
  SharedString() = default;
  SharedString(std::string_view text) : rep_(Make(text)) {}  // NOLINT: implicit, as std::string
  SharedString(const std::string& text) : SharedString(std::string_view(text)) {}  // NOLINT
  SharedString(const char* text) : SharedString(std::string_view(text)) {}         // NOLINT
  SharedString(const SharedString& other) noexcept : rep_(other.rep_) {
    if (rep_ != nullptr) rep_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  SharedString(SharedString&& other) noexcept : rep_(std::exchange(other.rep_, nullptr)) {}
  SharedString& operator=(const SharedString& other) noexcept {
    SharedString copy(other);  // before releasing ours: `other` may be `*this`
    std::swap(rep_, copy.rep_);
    return *this;
  }
  SharedString& operator=(SharedString&& other) noexcept {
    SharedString taken(std::move(other));
    std::swap(rep_, taken.rep_);
    return *this;
  }
  SharedString& operator=(std::string_view text) { return *this = SharedString(text); }
  SharedString& operator=(const std::string& text) { return *this = SharedString(text); }
  SharedString& operator=(const char* text) { return *this = SharedString(text); }
  ~SharedString() { Release(); }

  // The text ("" when empty); it lives as long as this value is not assigned or gone.
  std::string_view str() const {
    return rep_ != nullptr ? std::string_view(rep_->chars(), rep_->size) : std::string_view();
  }
  operator std::string_view() const { return str(); }  // NOLINT: reads as a string
  // A copy of the text, where a std::string is wanted.
  std::string string() const { return std::string(str()); }
  explicit operator std::string() const { return string(); }
  bool empty() const { return rep_ == nullptr; }
  std::size_t size() const { return rep_ != nullptr ? rep_->size : 0; }

  // Two values made by copying one another hold the same text (for tests of sharing).
  bool SharesTextWith(const SharedString& other) const { return rep_ == other.rep_; }

  friend bool operator==(const SharedString& a, const SharedString& b) {
    return a.rep_ == b.rep_ || a.str() == b.str();
  }
  friend bool operator==(const SharedString& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const SharedString& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const SharedString& a, const char* b) { return a.str() == b; }
  friend std::strong_ordering operator<=>(const SharedString& a, const SharedString& b) {
    return a.str() <=> b.str();
  }
  // Concatenation gives a std::string, as std::string's does.
  friend std::string operator+(const SharedString& a, std::string_view b) { return Concat(a.str(), b); }
  friend std::string operator+(const SharedString& a, const std::string& b) { return Concat(a.str(), b); }
  friend std::string operator+(const SharedString& a, const char* b) { return Concat(a.str(), b); }
  friend std::string operator+(std::string_view a, const SharedString& b) { return Concat(a, b.str()); }
  friend std::string operator+(const std::string& a, const SharedString& b) { return Concat(a, b.str()); }
  friend std::string operator+(const char* a, const SharedString& b) { return Concat(a, b.str()); }
  friend std::ostream& operator<<(std::ostream& out, const SharedString& s) { return out << s.str(); }

 private:
  // One block holds the count, the size and the characters, so that a text costs one allocation
  // (a std::string inside would take a second one for any text over 15 characters).
  // The block's header; the characters follow it.
  struct Rep {
    std::atomic<std::uint32_t> refs;
    std::uint32_t size;
    const char* chars() const { return reinterpret_cast<const char*>(this + 1); }
    char* chars() { return reinterpret_cast<char*>(this + 1); }
  };
  static std::string Concat(std::string_view a, std::string_view b) {
    std::string out;
    out.reserve(a.size() + b.size());
    out.append(a).append(b);
    return out;
  }
  // An empty text is held as no text at all, so that empty() is one comparison.
  static Rep* Make(std::string_view text) {
    if (text.empty()) return nullptr;
    if (text.size() > UINT32_MAX) throw std::length_error("SharedString: a text over 4 GiB");
    void* block = ::operator new(sizeof(Rep) + text.size());
    Rep* rep = ::new (block) Rep;
    rep->refs.store(1, std::memory_order_relaxed);
    rep->size = static_cast<std::uint32_t>(text.size());
    std::memcpy(rep->chars(), text.data(), text.size());
    return rep;
  }
  void Release() noexcept {
    if (rep_ != nullptr && rep_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      rep_->~Rep();
      ::operator delete(rep_);
    }
    rep_ = nullptr;
  }
  Rep* rep_ = nullptr;
};

}  // namespace kpsim
