#pragma once

// A sequence whose elements never move (references stay valid as it grows), kept in chunks of
// 2^ChunkBits elements: the model's pods (`ClusterModel::Pods`), which gain replacements while
// the simulator holds references to others.
//
// It takes the place of std::deque there because of where a lookup goes. libstdc++'s deque
// keeps 512-byte blocks, two PodInfos each, so finding the block of a pod chosen at random (a
// victim on a sampled node) reads a block map of one pointer per two pods: 2.6 MB at 650,000
// pods, a cache miss of its own before the pod's. The chunk table here is one pointer per 512
// pods (10 KB at that size, always cached), and the lookup is a shift and a mask.

#include <cassert>
#include <cstddef>
#include <iterator>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace kpsim::engine {

template <class T, unsigned ChunkBits = 9>
class ChunkedVector {
  static constexpr std::size_t kChunk = std::size_t{1} << ChunkBits;
  static constexpr std::size_t kMask = kChunk - 1;

  template <bool Const>
  class Iterator {
    using Owner = std::conditional_t<Const, const ChunkedVector, ChunkedVector>;

   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<Const, const T*, T*>;
    using reference = std::conditional_t<Const, const T&, T&>;

    Iterator() = default;
    Iterator(Owner* owner, std::size_t at) : owner_(owner), at_(at) {}
    operator Iterator<true>() const { return Iterator<true>(owner_, at_); }  // NOLINT: as std iterators

    reference operator*() const { return (*owner_)[at_]; }
    pointer operator->() const { return &(*owner_)[at_]; }
    reference operator[](difference_type n) const { return (*owner_)[Offset(n)]; }
    Iterator& operator++() { return *this += 1; }
    Iterator operator++(int) {
      Iterator old = *this;
      ++*this;
      return old;
    }
    Iterator& operator--() { return *this -= 1; }
    Iterator operator--(int) {
      Iterator old = *this;
      --*this;
      return old;
    }
    Iterator& operator+=(difference_type n) {
      at_ = Offset(n);
      return *this;
    }
    Iterator& operator-=(difference_type n) { return *this += -n; }
    friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
    friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
    friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const Iterator& a, const Iterator& b) {
      return static_cast<difference_type>(a.at_) - static_cast<difference_type>(b.at_);
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.at_ == b.at_; }
    friend auto operator<=>(const Iterator& a, const Iterator& b) { return a.at_ <=> b.at_; }

   private:
    std::size_t Offset(difference_type n) const {
      return static_cast<std::size_t>(static_cast<difference_type>(at_) + n);
    }
    Owner* owner_ = nullptr;
    std::size_t at_ = 0;
  };

 public:
  using value_type = T;
  using reference = T&;
  using const_reference = const T&;
  using iterator = Iterator<false>;
  using const_iterator = Iterator<true>;

  ChunkedVector() = default;
  ChunkedVector(const ChunkedVector& other) {
    for (const T& item : other) emplace_back(item);
  }
  ChunkedVector(ChunkedVector&& other) noexcept
      : chunks_(std::move(other.chunks_)), size_(std::exchange(other.size_, 0)) {}
  ChunkedVector& operator=(ChunkedVector other) noexcept {
    std::swap(chunks_, other.chunks_);
    std::swap(size_, other.size_);
    return *this;
  }
  ~ChunkedVector() { clear(); }

  T& operator[](std::size_t i) {
    assert(i < size_);
    return chunks_[i >> ChunkBits].get()[i & kMask];
  }
  const T& operator[](std::size_t i) const {
    assert(i < size_);
    return chunks_[i >> ChunkBits].get()[i & kMask];
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  template <class... Args>
  T& emplace_back(Args&&... args) {
    if ((size_ >> ChunkBits) == chunks_.size()) chunks_.emplace_back(Allocate());
    T* slot = chunks_[size_ >> ChunkBits].get() + (size_ & kMask);
    std::construct_at(slot, std::forward<Args>(args)...);
    ++size_;
    return *slot;
  }
  void push_back(const T& value) { emplace_back(value); }
  void push_back(T&& value) { emplace_back(std::move(value)); }

  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }

  // Destroys every element; the chunks are released.
  void clear() {
    for (std::size_t i = size_; i > 0; --i) std::destroy_at(&(*this)[i - 1]);
    size_ = 0;
    chunks_.clear();
  }

  iterator begin() { return iterator(this, 0); }
  iterator end() { return iterator(this, size_); }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size_); }

 private:
  // Raw storage for kChunk elements; elements are constructed and destroyed one by one.
  struct Release {
    void operator()(T* p) const { ::operator delete(static_cast<void*>(p), std::align_val_t{alignof(T)}); }
  };
  using Chunk = std::unique_ptr<T, Release>;
  static Chunk Allocate() {
    return Chunk(static_cast<T*>(::operator new(kChunk * sizeof(T), std::align_val_t{alignof(T)})));
  }

  std::vector<Chunk> chunks_;
  std::size_t size_ = 0;
};

}  // namespace kpsim::engine
