//===- schema/schema.h - operator schemas as libtorch declares them -*- C++ -*-===//
//
// `aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`
// parsed into names, types and defaults. The table of every libtorch schema
// of each version is compiled in from data/torch_schemas-<V>.txt, so this
// library never links libtorch; custom schemas can be parsed at run time.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/torch_version.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <cstdint>
#include <memory>
#include <span>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtf {

/// A schema type: `Tensor`, `int[2]`, `Tensor?[]`, `(Tensor, Tensor)` ...
struct SchemaType {
  enum class Kind {
    Tensor, Int, Float, Bool, Complex, Number /* Scalar */, Str, Device,
    ScalarType, Layout, MemoryFormat, Generator, Dimname, Storage, Stream,
    Any, TypeVar, List, Optional, Tuple, Dict, Future, Other
  };
  Kind kind = Kind::Other;
  std::string spelling;                       ///< the base name as written
  std::vector<std::shared_ptr<const SchemaType>> children; ///< List/Optional/Tuple/Dict
  std::optional<int> fixedSize;               ///< `int[2]`
  bool mutated = false;                       ///< alias annotation with `!`
  bool aliased = false;                       ///< any alias annotation (`(a)`, `(a!)`, `(*)`)

  bool isTensorLike() const; ///< Tensor, Tensor?, or a list of them
  const SchemaType *inner() const { return children.empty() ? nullptr : children[0].get(); }
  std::string str() const;
};
using SchemaTypePtr = std::shared_ptr<const SchemaType>;

class Value;

/// The value of an argument's default, kept once read (ops/infer.h's
/// defaultValue reads it): calls that leave defaults out (a `.pt2` node
/// names only what differs) would otherwise parse the text on every call.
/// Shared by every thread that reads the schema; a copy keeps what was read.
class KeptDefault {
public:
  KeptDefault() = default;
  KeptDefault(const KeptDefault &o) : v_(o.load()) {}
  KeptDefault &operator=(const KeptDefault &o) {
    v_.store(o.load(), std::memory_order_release);
    return *this;
  }
  std::shared_ptr<const Value> load() const { return v_.load(std::memory_order_acquire); }
  void store(std::shared_ptr<const Value> v) const { v_.store(std::move(v), std::memory_order_release); }

private:
  mutable std::atomic<std::shared_ptr<const Value>> v_;
};

struct SchemaArg {
  std::string name;
  SchemaTypePtr type;
  std::optional<std::string> defaultText; ///< as written, e.g. `1`, `None`, `[0,1]`
  bool kwargOnly = false;
  KeptDefault kept; ///< defaultText's value, once read
};

/// See argNameKey.
struct ArgNameKey {
  uint64_t head, tail;
  bool operator==(const ArgNameKey &) const = default;
  /// A slot of a table of `mask` + 1 slots (argSlots).
  size_t slot(size_t mask) const { return ((head ^ tail * 31) * 0x9e3779b97f4a7c15ULL >> 40) & mask; }
};

struct Schema {
  std::string name;     ///< `aten::add`
  std::string overload; ///< `Tensor`, empty for the default overload
  std::vector<SchemaArg> args;
  std::vector<SchemaArg> returns;
  bool varargs = false;    ///< `...` in the arguments
  bool varReturns = false; ///< `-> ...`
  std::string text;        ///< the original declaration
  bool mutatesList = false; ///< some argument is a mutated list (`t[](a!)`)
  /// (argument, result) pairs where the result is the mutated tensor argument
  /// (`Tensor(a!) self -> Tensor(a!)`: the k-th mutated tensor result is the k-th such argument).
  std::vector<std::pair<uint32_t, uint32_t>> inPlace;
  /// Arguments that name dims of tensor argument `dimsOf` (`self`, else
  /// `input`) by aten's naming convention: int, int? or int[] arguments named
  /// dim, dim0, dim1, dim2, start_dim, end_dim, dimension, dims, axis0, axis1,
  /// source or destination. Empty when the op has no such tensor. The op's
  /// own facts refine this (ops/op_facts.h: tile's `dims` are counts).
  std::vector<uint32_t> dimArgs;
  int32_t dimsOf = -1;
  /// By argument: argNameKey of its name; and an open-addressing table of
  /// them (1 + argument index; 0: free), a power of two at most half full
  /// (indexArgs fills both; argIndex compares these words before any string).
  std::vector<ArgNameKey> argKeys;
  std::vector<uint8_t> argSlots;
  /// Fill argKeys and argSlots from args (parseSchema calls it).
  void indexArgs();

  /// `aten::add.Tensor`, or `aten::add` for the default overload.
  std::string key() const { return overload.empty() ? name : name + "." + overload; }
  /// Index of the argument with this name, or -1.
  int argIndex(std::string_view argName) const;
};

/// Two words that differ for names that differ in length, in their first 7
/// bytes (the bytes, and the length in the top byte) or in their last 8:
/// equal keys and a name of at most 15 bytes mean equal names.
inline ArgNameKey argNameKey(std::string_view n) {
  const size_t size = n.size();
  ArgNameKey k{static_cast<uint64_t>(std::min<size_t>(size, 255)) << 56, 0};
  if (size >= 8) { // two unaligned loads (little-endian: byte i at bits 8i)
    uint64_t head, tail;
    std::memcpy(&head, n.data(), 8);
    std::memcpy(&tail, n.data() + size - 8, 8);
    k.head |= head & 0x00ffffffffffffffULL;
    k.tail = tail;
    return k;
  }
  auto byte = [&](size_t i) { return static_cast<uint64_t>(static_cast<unsigned char>(n[i])) << (8 * i); };
  switch (size) { // one jump, no loop
  case 7: k.head |= byte(6); [[fallthrough]];
  case 6: k.head |= byte(5); [[fallthrough]];
  case 5: k.head |= byte(4); [[fallthrough]];
  case 4: k.head |= byte(3); [[fallthrough]];
  case 3: k.head |= byte(2); [[fallthrough]];
  case 2: k.head |= byte(1); [[fallthrough]];
  case 1: k.head |= byte(0); [[fallthrough]];
  default: break;
  }
  return k;
}

/// Parse one declaration; on failure, the message names the column.
struct SchemaParseResult {
  std::optional<Schema> schema;
  std::string error;
};
SchemaParseResult parseSchema(std::string_view text);

/// A libtorch schema table (data/torch_schemas-<V>.txt for version V). Declarations are indexed by key up
/// front and parsed on first use (thread-safe), so a CLI call pays only for
/// the schemas it touches. A layered table (custom ops, ops/custom_rules.h)
/// holds schemas of its own over a base table it does not change.
class SchemaTable {
public:
  /// `base` (not owned: it must outlive this table) with `extra` on top,
  /// none of whose keys `base` has.
  SchemaTable(const SchemaTable &base, std::vector<Schema> extra);
  /// The table this one is layered on (null: a version's own table).
  const SchemaTable *base() const { return base_; }
  /// The table of a modelled PyTorch version (ops/semantics.h hands it out).
  static const SchemaTable &of(TorchVersion v);
  /// By key: `aten::add.Tensor`, `aten::sum` (default overload).
  const Schema *find(std::string_view key) const;
  /// Every overload of a name (`aten::add`), in key order.
  std::vector<const Schema *> overloads(std::string_view name) const;
  /// The same, kept by the table (computed once per name, thread-safe): a
  /// stable span, so its address can identify the op across graphs. A
  /// layered table keeps spans of its own, so memo keys of a table and of
  /// the layers over it never meet.
  std::span<const Schema *const> overloadSpan(std::string_view name) const;
  /// The one overload with this key (`aten::add.Tensor`) as a span of its
  /// own, empty when the table lacks it: stable, and never an overloadSpan's
  /// address, so it identifies "this overload, pinned" (Graph::internPinnedKind).
  std::span<const Schema *const> pinnedSpan(std::string_view key) const;
  size_t size() const;
  /// Every key with its declaration's text, in key order (a layer's and its
  /// base's merged): what `dtypeflow versions` compares between tables.
  std::vector<std::pair<std::string_view, std::string_view>> declarations() const;
  /// Parse every declaration; throws std::runtime_error naming the first bad line.
  void parseAll() const;

  explicit SchemaTable(std::string_view source);
  ~SchemaTable();

private:
  struct Entry;
  const Schema *at(size_t i) const;
  std::unique_ptr<Entry[]> entries_; // sorted by key
  size_t count_ = 0;
  const SchemaTable *base_ = nullptr;
  std::vector<std::unique_ptr<const Schema>> extra_; ///< a layer's own schemas, sorted by key
  struct SpanCache;
  std::unique_ptr<SpanCache> spans_;
};

} // namespace dtf
