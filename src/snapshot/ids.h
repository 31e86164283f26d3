#pragma once

// Strong dense ids for the default profile's model: `Id<Tag>` is an index of one kind of object
// (a node, a pod, a pod group, a PodDisruptionBudget), and `IdVector<IdT, T>` is a container
// indexed only by that kind. Mixing kinds, or indexing with a raw integer, does not compile.
// The casts between an id and a container position live here and nowhere else.

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <ostream>
#include <utility>
#include <vector>

namespace kpsim::engine {

// The absent id of any kind: converts to every `Id<Tag>` (see its constructor) and compares equal
// to a default-constructed one.
struct NoId {};
inline constexpr NoId kNoId{};

// A dense index of kind `Tag`. Ordered as its value (so ids sort as the objects were added);
// never negative except for the absent id.
template <class Tag>
class Id {
 public:
  using Rep = std::int32_t;

  constexpr Id() = default;
  constexpr Id(NoId) {}  // NOLINT(google-explicit-constructor): `PodId x = kNoId;`
  template <std::integral I>
  constexpr explicit Id(I value) : value_(static_cast<Rep>(value)) {}

  constexpr Rep value() const { return value_; }
  // The position in an `IdVector` (REQUIRES: not kNoId).
  constexpr std::size_t index() const { return static_cast<std::size_t>(value_); }

  friend constexpr bool operator==(const Id&, const Id&) = default;
  friend constexpr auto operator<=>(const Id&, const Id&) = default;
  friend std::ostream& operator<<(std::ostream& out, Id id) { return out << id.value(); }

 private:
  Rep value_ = -1;
};

struct NodeTag;
struct PodTag;
struct GroupTag;
struct PdbTag;
using NodeId = Id<NodeTag>;
using PodId = Id<PodTag>;
using GroupId = Id<GroupTag>;  // a PodGroup or CompositePodGroup
using PdbId = Id<PdbTag>;      // a PodDisruptionBudget

// Every id of a kind below a count, in order: `for (NodeId n : nodes.ids())`.
template <class IdT>
class IdRange {
 public:
  class iterator {
   public:
    using value_type = IdT;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;
    using reference = IdT;
    using pointer = void;
    iterator() = default;
    explicit iterator(typename IdT::Rep v) : v_(v) {}
    IdT operator*() const { return IdT(v_); }
    iterator& operator++() {
      ++v_;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++v_;
      return old;
    }
    friend bool operator==(const iterator&, const iterator&) = default;

   private:
    typename IdT::Rep v_ = 0;
  };

  explicit IdRange(std::size_t count) : end_(static_cast<typename IdT::Rep>(count)) {}
  iterator begin() const { return iterator(0); }
  iterator end() const { return iterator(end_); }
  std::size_t size() const { return static_cast<std::size_t>(end_); }

 private:
  typename IdT::Rep end_;
};

// The elements of an `IdVector` as a plain pointer, still indexed by `IdT` only: for a hot loop
// that stores through other pointers, after which the compiler would reload the vector's own.
// Valid while the vector is not resized.
template <class IdT, class T>
class IdView {
 public:
  explicit IdView(T* items) : items_(items) {}
  T& operator[](IdT id) const { return items_[id.index()]; }

 private:
  T* items_;
};

// A sequence container indexed by `IdT` only (a `std::vector` unless `Container` says otherwise,
// e.g. a `std::deque` whose references stay valid as it grows).
template <class IdT, class T, class Container = std::vector<T>>
class IdVector {
 public:
  using value_type = T;
  using reference = typename Container::reference;
  using const_reference = typename Container::const_reference;
  using iterator = typename Container::iterator;
  using const_iterator = typename Container::const_iterator;

  IdVector() = default;
  explicit IdVector(std::size_t count) : items_(count) {}
  IdVector(std::size_t count, const T& value) : items_(count, value) {}

  reference operator[](IdT id) { return items_[id.index()]; }
  const_reference operator[](IdT id) const { return items_[id.index()]; }

  IdView<IdT, T> view() { return IdView<IdT, T>(items_.data()); }
  IdView<IdT, const T> view() const { return IdView<IdT, const T>(items_.data()); }

  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  std::size_t capacity() const { return items_.capacity(); }
  // True iff `id` names an element (false for kNoId).
  bool contains(IdT id) const { return id.value() >= 0 && id.index() < items_.size(); }
  // The id the next push_back or emplace_back gets.
  IdT next_id() const { return IdT(items_.size()); }
  IdT back_id() const { return IdT(items_.size() - 1); }
  IdRange<IdT> ids() const { return IdRange<IdT>(items_.size()); }

  void push_back(const T& value) { items_.push_back(value); }
  void push_back(T&& value) { items_.push_back(std::move(value)); }
  template <class... Args>
  reference emplace_back(Args&&... args) {
    return items_.emplace_back(std::forward<Args>(args)...);
  }
  void reserve(std::size_t n) { items_.reserve(n); }
  void resize(std::size_t n) { items_.resize(n); }
  void resize(std::size_t n, const T& value) { items_.resize(n, value); }
  void assign(std::size_t n, const T& value) { items_.assign(n, value); }
  void clear() { items_.clear(); }
  reference back() { return items_.back(); }
  const_reference back() const { return items_.back(); }

  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }

  // The id of the element an iterator points to.
  IdT id_of(const_iterator it) const { return IdT(it - items_.begin()); }

  friend bool operator==(const IdVector&, const IdVector&) = default;

 private:
  Container items_;
};

// Literal ids, mostly for tests: `model.pod(0_pod)`, `model.node(1_node)`.
namespace id_literals {
constexpr NodeId operator""_node(unsigned long long v) { return NodeId(v); }
constexpr PodId operator""_pod(unsigned long long v) { return PodId(v); }
constexpr GroupId operator""_group(unsigned long long v) { return GroupId(v); }
constexpr PdbId operator""_pdb(unsigned long long v) { return PdbId(v); }
}  // namespace id_literals

}  // namespace kpsim::engine

template <class Tag>
struct std::hash<kpsim::engine::Id<Tag>> {
  std::size_t operator()(kpsim::engine::Id<Tag> id) const noexcept {
    return std::hash<std::int32_t>{}(id.value());
  }
};
