#pragma once

// SparseString: a string that is empty in most of the values that hold it, in 8 bytes rather than
// std::string's 32. A long run's result keeps a SimEvent per scheduling event and a PodOutcome
// per pod (millions at 130,000 nodes); most of their fields name a pod group, a Scenario step or
// a nomination that most events and pods do not have.

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace kpsim {

class SparseString {
 public:
  SparseString() = default;
  SparseString(std::string text) { Assign(std::move(text)); }  // NOLINT: implicit, as std::string
  SparseString(std::string_view text) : SparseString(std::string(text)) {}  // NOLINT
  SparseString(const char* text) : SparseString(std::string(text)) {}      // NOLINT
  SparseString(const SparseString& other) : text_(other.text_ ? std::make_unique<std::string>(*other.text_) : nullptr) {}
  SparseString(SparseString&&) noexcept = default;
  SparseString& operator=(const SparseString& other) {
    if (this != &other) *this = SparseString(other);
    return *this;
  }
  SparseString& operator=(SparseString&&) noexcept = default;
  SparseString& operator=(std::string text) {
    Assign(std::move(text));
    return *this;
  }
  SparseString& operator=(std::string_view text) { return *this = std::string(text); }
  SparseString& operator=(const char* text) { return *this = std::string(text); }
  ~SparseString() = default;

  // The text ("" when empty); the reference lives until the next assignment.
  const std::string& str() const { return text_ ? *text_ : Empty(); }
  operator const std::string&() const { return str(); }  // NOLINT: reads as a std::string
  operator std::string_view() const { return str(); }    // NOLINT
  bool empty() const { return text_ == nullptr; }
  std::size_t size() const { return str().size(); }

  friend bool operator==(const SparseString& a, const SparseString& b) { return a.str() == b.str(); }
  friend bool operator==(const SparseString& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const SparseString& a, std::string_view b) { return std::string_view(a.str()) == b; }
  friend bool operator==(const SparseString& a, const char* b) { return std::string_view(a.str()) == b; }
  friend std::ostream& operator<<(std::ostream& out, const SparseString& s) { return out << s.str(); }

 private:
  static const std::string& Empty() {
    static const std::string empty;
    return empty;
  }
  // An empty text is held as no text at all, so that empty() is one comparison.
  void Assign(std::string text) {
    text_ = text.empty() ? nullptr : std::make_unique<std::string>(std::move(text));
  }
  std::unique_ptr<std::string> text_;
};

}  // namespace kpsim
