#pragma once

// SharedString: an immutable string in 8 bytes, whose copies share one text. A long run's result
// keeps a SimEvent per scheduling event and a PodOutcome per pod (millions at 130,000 nodes).
// Their fields name the same pods and nodes over and over, and most of their other fields (a pod
// group, a Scenario step, a nomination) are empty: a std::string would take 32 bytes for each,
// plus a heap copy of every name longer than 15 characters. A SharedString takes one pointer, is
// null when empty, and a copy only counts one more reference to the text it shares.
//
// The text never changes once made (there is no mutable access), so sharing it is invisible:
// values read, compare and assign as the std::string they replace. The count is atomic, so that
// values may be copied on different threads (a sweep's runs).

#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace kpsim {

class SharedString {
 public:
  SharedString() = default;
  SharedString(std::string text) { Assign(std::move(text)); }  // NOLINT: implicit, as std::string
  SharedString(std::string_view text) : SharedString(std::string(text)) {}  // NOLINT
  SharedString(const char* text) : SharedString(std::string(text)) {}      // NOLINT
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
  SharedString& operator=(std::string text) { return *this = SharedString(std::move(text)); }
  SharedString& operator=(std::string_view text) { return *this = SharedString(text); }
  SharedString& operator=(const char* text) { return *this = SharedString(text); }
  ~SharedString() { Release(); }

  // The text ("" when empty); the reference lives as long as this value is not assigned or gone.
  const std::string& str() const { return rep_ != nullptr ? rep_->text : Empty(); }
  operator const std::string&() const { return str(); }  // NOLINT: reads as a std::string
  operator std::string_view() const { return str(); }    // NOLINT
  bool empty() const { return rep_ == nullptr; }
  std::size_t size() const { return str().size(); }
  const char* c_str() const { return str().c_str(); }

  // Two values made by copying one another hold the same text (for tests of sharing).
  bool SharesTextWith(const SharedString& other) const { return rep_ == other.rep_; }

  friend bool operator==(const SharedString& a, const SharedString& b) {
    return a.rep_ == b.rep_ || a.str() == b.str();
  }
  friend bool operator==(const SharedString& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const SharedString& a, std::string_view b) { return std::string_view(a.str()) == b; }
  friend bool operator==(const SharedString& a, const char* b) { return std::string_view(a.str()) == b; }
  friend std::string operator+(const SharedString& a, std::string_view b) { return Concat(a.str(), b); }
  friend std::string operator+(std::string_view a, const SharedString& b) { return Concat(a, b.str()); }
  friend std::ostream& operator<<(std::ostream& out, const SharedString& s) { return out << s.str(); }

 private:
  struct Rep {
    explicit Rep(std::string t) : text(std::move(t)) {}
    std::atomic<std::uint32_t> refs{1};
    const std::string text;
  };
  static const std::string& Empty() {
    static const std::string empty;
    return empty;
  }
  static std::string Concat(std::string_view a, std::string_view b) {
    std::string out;
    out.reserve(a.size() + b.size());
    out.append(a).append(b);
    return out;
  }
  // An empty text is held as no text at all, so that empty() is one comparison.
  void Assign(std::string text) {
    if (!text.empty()) rep_ = new Rep(std::move(text));
  }
  void Release() noexcept {
    if (rep_ != nullptr && rep_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete rep_;
    rep_ = nullptr;
  }
  Rep* rep_ = nullptr;
};

}  // namespace kpsim
