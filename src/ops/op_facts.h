//===- ops/op_facts.h - what an op is, beside its dtype rule ------*- C++ -*-===//
//
// Facts about an op (by name: every overload; or by a key with an overload
// name: that overload alone) that the generic checks of ops/infer.cpp, the
// refinement pass, the audit and the derived out overloads need, declared by
// the family file that registers the op's rules (Registry::declare), so that
// op knowledge has one home next to the rule, and the pass and the schema
// parser name no op. Registry::finalize copies them onto each rule
// (OpRule::facts): a flag read on the entry, no name looked up per call.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace dtf {

enum class OpFact : uint16_t {
  /// Its dim arguments also name the dim the result adds (unsqueeze,
  /// diag_embed: one past self's last).
  DimsIncludeNew = 1 << 0,
  /// A 0-dim self takes any dim (cummax, cummin: measured).
  AnyDimOfZeroDim = 1 << 1,
  /// A 0-dim self takes no dim at all (size.int, stride.int).
  NoDimOfZeroDim = 1 << 2,
  /// The result has self's shape and `memory_format` sets its layout:
  /// channels_last needs a 4-D self, channels_last_3d a 5-D one (clone, to ...).
  MemoryFormatKeepsShape = 1 << 3,
  /// An argument named `dims` counts repeats, not dims (tile).
  DimsAreCounts = 1 << 4,
  /// The in-place form may change self's rank (unsqueeze_, resize_ ...): other
  /// names of the same tensor then read the new rank (refine/mutation.cpp).
  ReshapesSelfInPlace = 1 << 5,
  /// PyTorch's Python binding passes numbers to it as wrapped 0-dim tensors
  /// (add, sub, mul, div, true_divide, floor_divide, their aliases and
  /// in-place forms), so a traced 0-dim constant it takes may be a Python scalar.
  TakesWrappedNumbers = 1 << 6,
  /// Python syntax calls it with a scalar first (`2.5 // x`: floor_divide).
  ScalarFirstBySyntax = 1 << 7,
  /// TorchScript's graph executor turns a 0-dim tensor constant `other` of it
  /// into a Python scalar (CanonicalizeOps: add, sub, mul, div).
  ScalarizesOther = 1 << 8,
  /// Adds its other arguments to the list it is given (append, insert,
  /// extend): the pass applies that itself.
  GrowsListByElements = 1 << 9,
  /// Of those, adds the elements of the list it is given (extend), not the
  /// argument itself (append, insert).
  GrowsListByListElements = 1 << 10,
  /// A conversion: the dtype it gives is the point of the op (to, type_as,
  /// _to_copy, _cast_*, the autocast casts), so a mixed-precision audit
  /// (refine/audit.cpp) reports a cast, not a promotion.
  ConvertsDtype = 1 << 11,
  /// An out overload whose errors are not its functional's (addbmm.out takes
  /// a self of another dtype): its rule (ops/families/out_variants.cpp)
  /// answers unknown where the functional's raises. Declared by key.
  OutErrorsOwn = 1 << 12,
  /// An out overload left without a rule (native_batch_norm.out: no CPU
  /// kernel in 1.13, so no rule of it could be checked). Declared by key.
  NoOutRule = 1 << 13,
};

/// A set of OpFact.
class OpFacts {
public:
  constexpr OpFacts() = default;
  constexpr OpFacts(OpFact f) : bits_(static_cast<uint16_t>(f)) {}
  constexpr bool has(OpFact f) const { return bits_ & static_cast<uint16_t>(f); }
  constexpr OpFacts operator|(OpFacts o) const { return fromBits(bits_ | o.bits_); }
  constexpr OpFacts &operator|=(OpFacts o) { bits_ |= o.bits_; return *this; }
  constexpr OpFacts without(OpFacts o) const { return fromBits(bits_ & ~o.bits_); }
  constexpr bool empty() const { return bits_ == 0; }

private:
  static constexpr OpFacts fromBits(unsigned b) { OpFacts f; f.bits_ = static_cast<uint16_t>(b); return f; }
  uint16_t bits_ = 0;
};
constexpr OpFacts operator|(OpFact a, OpFact b) { return OpFacts(a) | OpFacts(b); }

} // namespace dtf
