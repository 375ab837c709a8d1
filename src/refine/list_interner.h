//===- refine/list_interner.h - one payload per distinct element list -*- C++ -*-===//
//
// Lists and tuples built from the same elements (`[1, 1]` strides appear
// dozens of times in a conv net) share one payload: no allocation after the
// first, and later memo lookups compare one pointer and reuse one hash. Open
// addressing by element hash, linear probing, power-of-two size; past
// `maxEntries` new lists are made but not kept (bounded memory). Used by the
// solver (prim::ListConstruct / TupleConstruct) and by GraphPlan (lists of
// constants).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/lattice.h"

#include <utility>
#include <vector>

namespace dtf::refine {

class ListInterner {
public:
  explicit ListInterner(size_t maxEntries) : max_(maxEntries) {}

  /// The list (or tuple) of the `n` elements `at(0) .. at(n-1)`.
  template <typename At>
  Value intern(bool tuple, size_t n, At at) {
    size_t h = tuple;
    for (size_t i = 0; i < n; ++i) h = h * 0x100000001b3ULL ^ at(i).hash();
    h |= 1; // 0 marks a free slot
    if (slots_.empty()) slots_.resize(64);
    size_t mask = slots_.size() - 1, slot = h & mask;
    for (; slots_[slot].first != 0; slot = (slot + 1) & mask) {
      if (slots_[slot].first != h) continue;
      const Value &cand = slots_[slot].second;
      if (cand.isTuple() != tuple || cand.elements().size() != n) continue;
      bool same = true;
      for (size_t i = 0; i < n && same; ++i) same = cand.elements()[i].identical(at(i));
      if (same) return cand;
    }
    std::vector<Value> elems;
    elems.reserve(n);
    for (size_t i = 0; i < n; ++i) elems.push_back(at(i));
    Value made = tuple ? Value::tuple(std::move(elems)) : Value::list(std::move(elems));
    if (count_ >= max_) return made;
    slots_[slot] = {h, made};
    if (++count_ * 2 > slots_.size()) grow();
    return made;
  }

private:
  void grow() { // rehash into twice the slots
    std::vector<std::pair<size_t, Value>> old(slots_.size() * 2);
    old.swap(slots_);
    size_t mask = slots_.size() - 1;
    for (auto &[h, v] : old) {
      if (h == 0) continue;
      size_t s = h & mask;
      while (slots_[s].first != 0) s = (s + 1) & mask;
      slots_[s] = {h, std::move(v)};
    }
  }

  std::vector<std::pair<size_t, Value>> slots_; ///< (element hash | 1, list); 0: free
  size_t count_ = 0, max_;
};

} // namespace dtf::refine
