//===- graph/small_ids.h - a short list of ids, stored in place -*- C++ -*-===//
//
// A node's inputs, outputs and blocks. Most nodes have one to four inputs and
// one output: as std::vectors each list cost a heap block (32 bytes with
// malloc's header) and 24 bytes in the node, which at 10^6 nodes was a fifth
// of `dtypeflow annotate`'s memory and much of its page faults. Up to N ids
// live inside the object; more move to the heap, growing by doubling. The
// interface is the part of std::vector the code base uses, and the list is a
// contiguous range, so it converts to std::span<const Id>.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace dtf::ir {

template <typename Id, uint32_t N> class SmallIds {
  static_assert(std::is_trivially_copyable_v<Id> && sizeof(Id) == 4, "ids are 32-bit values");
  static_assert(N * sizeof(Id) >= sizeof(Id *), "the inline ids hold at least the heap pointer's room");

public:
  using value_type = Id;
  using size_type = size_t;
  using iterator = Id *;
  using const_iterator = const Id *;

  SmallIds() = default;
  SmallIds(std::initializer_list<Id> ids) { assign(ids.begin(), ids.end()); }
  SmallIds(const std::vector<Id> &ids) { assign(ids.data(), ids.data() + ids.size()); } // NOLINT: drop-in
  SmallIds(const SmallIds &o) { assign(o.begin(), o.end()); }
  SmallIds(SmallIds &&o) noexcept { steal(o); }
  SmallIds &operator=(const SmallIds &o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallIds &operator=(SmallIds &&o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  SmallIds &operator=(std::initializer_list<Id> ids) {
    assign(ids.begin(), ids.end());
    return *this;
  }
  SmallIds &operator=(const std::vector<Id> &ids) {
    assign(ids.data(), ids.data() + ids.size());
    return *this;
  }
  ~SmallIds() { release(); }

  Id *data() { return onHeap() ? heap_ : inline_; }
  const Id *data() const { return onHeap() ? heap_ : inline_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Id *begin() { return data(); }
  Id *end() { return data() + size_; }
  const Id *begin() const { return data(); }
  const Id *end() const { return data() + size_; }
  Id &operator[](size_t i) { return data()[i]; }
  const Id &operator[](size_t i) const { return data()[i]; }
  const Id &at(size_t i) const {
    if (i >= size_) throw std::out_of_range("SmallIds::at");
    return data()[i];
  }
  Id &front() { return data()[0]; }
  const Id &front() const { return data()[0]; }
  Id &back() { return data()[size_ - 1]; }
  const Id &back() const { return data()[size_ - 1]; }
  operator std::span<const Id>() const { return {data(), size_}; } // NOLINT: as a vector converts

  void push_back(Id id) {
    if (size_ == cap_) grow(size_ + 1);
    data()[size_++] = id;
  }
  void reserve(size_t n) {
    if (n > cap_) grow(n);
  }
  void clear() { size_ = 0; }
  void resize(size_t n, Id fill = Id{}) {
    reserve(n);
    std::fill(data() + std::min<size_t>(size_, n), data() + n, fill);
    size_ = static_cast<uint32_t>(n);
  }
  template <std::input_iterator It> void assign(It first, It last) {
    const auto n = static_cast<size_t>(std::distance(first, last));
    clear();
    reserve(n);
    std::copy(first, last, data());
    size_ = static_cast<uint32_t>(n);
  }
  void assign(size_t n, Id value) {
    clear();
    resize(n, value);
  }
  /// Inserts [first, last) before `pos` (which points into this list).
  template <std::input_iterator It> Id *insert(Id *pos, It first, It last) {
    const size_t at = static_cast<size_t>(pos - data()), n = static_cast<size_t>(std::distance(first, last));
    reserve(size_ + n);
    Id *d = data();
    std::memmove(d + at + n, d + at, (size_ - at) * sizeof(Id));
    std::copy(first, last, d + at);
    size_ += static_cast<uint32_t>(n);
    return d + at;
  }

  friend bool operator==(const SmallIds &a, const SmallIds &b) { return std::ranges::equal(a, b); }

private:
  bool onHeap() const { return cap_ > N; }
  void grow(size_t atLeast) {
    const size_t cap = std::max<size_t>(atLeast, 2 * size_t{cap_});
    if (cap > UINT32_MAX) throw std::length_error("SmallIds: too many ids");
    Id *fresh = new Id[cap];
    std::copy(begin(), end(), fresh);
    release();
    heap_ = fresh;
    cap_ = static_cast<uint32_t>(cap);
  }
  void release() {
    if (onHeap()) delete[] heap_;
    cap_ = N;
  }
  void steal(SmallIds &o) {
    size_ = o.size_;
    cap_ = o.cap_;
    if (o.onHeap()) heap_ = o.heap_;
    else std::copy(o.inline_, o.inline_ + o.size_, inline_);
    o.size_ = 0;
    o.cap_ = N;
  }

  uint32_t size_ = 0, cap_ = N;
  union {
    Id inline_[N];
    Id *heap_;
  };
};

} // namespace dtf::ir
