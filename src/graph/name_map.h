//===- graph/name_map.h - value names to ids, one flat table -----*- C++ -*-===//
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace dtf::ir {

inline constexpr size_t kNoName = static_cast<size_t>(-1);

/// Value names to their ids, for the readers of program text (TorchScript IR,
/// Torch dialect). The keys are views into the text (or into storage the
/// reader keeps), the table one array probed linearly: a program of 10^5-10^6
/// ops looks a name up per operand, and std::unordered_map (an allocation per
/// name, a node to chase per lookup) was a sixth of reading a Torch-dialect
/// function and 16 % of annotating a 10^6-node IR file.
class NameMap {
public:
  void reserve(size_t n) {
    if (2 * n > slots_.size()) rehash(std::bit_ceil(std::max<size_t>(16, 2 * n)));
  }
  void clear() {
    slots_.clear();
    size_ = 0;
  }
  /// The def named `name`, or kNoName.
  size_t find(std::string_view name) const {
    if (slots_.empty()) return kNoName;
    for (size_t i = hash(name) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot &s = slots_[i];
      if (!s.data) return kNoName;
      if (s.key() == name) return s.def;
    }
  }
  /// Adds `name` (which must outlive the table) -> `def`; false when the name
  /// is taken. Names are shorter than 4 GB and defs fewer than 2^32 - 1 (the
  /// graphs' ids are 32-bit), which keeps a slot at 16 bytes.
  bool insert(std::string_view name, size_t def) {
    if (2 * (size_ + 1) > slots_.size()) rehash(std::max<size_t>(16, 2 * slots_.size()));
    Slot *s = probe(name);
    if (s->data) return false;
    *s = Slot{name.data(), static_cast<uint32_t>(name.size()), static_cast<uint32_t>(def)};
    ++size_;
    return true;
  }

  /// Removes `name` (backward-shift deletion: no tombstones, probes stay short).
  void erase(std::string_view name) {
    if (slots_.empty()) return;
    const size_t mask = slots_.size() - 1;
    size_t i = hash(name) & mask;
    while (slots_[i].data && slots_[i].key() != name) i = (i + 1) & mask;
    if (!slots_[i].data) return;
    for (size_t j = (i + 1) & mask; slots_[j].data; j = (j + 1) & mask) {
      size_t home = hash(slots_[j].key()) & mask;
      // Slot j may move to the hole at i when its home is not cyclically in (i, j].
      if (((j - home) & mask) >= ((j - i) & mask)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = Slot{};
    --size_;
  }

private:
  struct Slot {
    const char *data = nullptr; ///< null: empty
    uint32_t size = 0, def = 0;
    std::string_view key() const { return {data, size}; }
  };
  static size_t hash(std::string_view s) { // FNV-1a: names are short
    uint64_t h = 1469598103934665603ull;
    for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
  Slot *probe(std::string_view name) {
    for (size_t i = hash(name) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1))
      if (!slots_[i].data || slots_[i].key() == name) return &slots_[i];
  }
  void rehash(size_t capacity) {
    std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(capacity));
    for (const Slot &s : old)
      if (s.data) *probe(s.key()) = s;
  }
  std::vector<Slot> slots_; ///< a power of two long, at most half full
  size_t size_ = 0;
};

} // namespace dtf::ir
