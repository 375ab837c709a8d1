//===- dtype/dtype_system.h - one PyTorch version's dtypes and promotion -*- C++ -*-===//
//
// Which dtypes a PyTorch version names, which of them an unknown dtype ranges
// over, and how they promote (c10::promoteTypes, result_type's three tiers,
// toComplexType). One immutable object per version, built from dtypes.def
// and the version's promotion facts; every analysis is handed it (through
// ops/semantics.h), never a process-wide table.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/promotion.h"

#include <array>
#include <span>
#include <string_view>

namespace dtf {

class DTypeSystem {
public:
  /// The dtype facts of a modelled version (constant tables, built once).
  static const DTypeSystem &of(TorchVersion v);

  TorchVersion version() const { return version_; }
  /// Every dtype this version names (torch.float8_e4m3fn exists from 2.14 on).
  DTypeSet named() const { return named_; }
  /// What an unknown dtype ranges over: the named bool, integral, floating
  /// and complex dtypes. Quantized, bits and sub-byte dtypes are known only
  /// where a program names them (a quantize op, a typed input).
  DTypeSet universe() const { return universe_; }
  bool names(DType d) const { return named_.contains(d); }
  /// The concrete dtypes a value with dtype set `s` may have here: an
  /// unknown dtype (a set covering the universe) is the universe; otherwise
  /// the version's dtypes in `s`.
  DTypeSet candidates(DTypeSet s) const {
    return universe_.within(s) ? universe_ : DTypeSet::meet(s, named_);
  }
  /// parseDType restricted to this version's names.
  std::optional<DType> parse(std::string_view text) const;
  /// fromC10Code restricted to this version's dtypes.
  std::optional<DType> fromC10Code(int64_t code) const;

  /// c10::promoteTypes. Throws PromotionError with PyTorch's message where
  /// it raises (never in 1.13 among the 13 classic dtypes).
  DType promote(DType a, DType b) const {
    const uint8_t e = table_[index(a)][index(b)];
    if (e < kNumDTypes) [[likely]] return static_cast<DType>(e);
    throwPromotionError(a, b, e);
  }
  /// nullopt where promote raises.
  std::optional<DType> tryPromote(DType a, DType b) const {
    const uint8_t e = table_[index(a)][index(b)];
    return e < kNumDTypes ? std::optional(static_cast<DType>(e)) : std::nullopt;
  }
  /// c10::toComplexType: real floating -> complex of that precision (bf16:
  /// complex64 in 1.13, bcomplex32 in 2.14); complex unchanged; nullopt for
  /// the rest (PyTorch raises "Unknown Complex ScalarType").
  std::optional<DType> toComplex(DType d) const;

  /// at::result_type over concrete operands; nullopt when there are none.
  /// Throws PromotionError where PyTorch raises.
  std::optional<DType> resultType(std::span<const PromotionOperand> operands) const;
  /// result_type over abstract operands (tensors or numbers): every dtype the
  /// result may have (a singleton when the unknowns cannot change the
  /// answer), and the cases that raise. Never a guess.
  PossibleDTypes resultTypeSet(std::span<const Value> operands) const;

  /// TensorIterator's common dtype when every operand is a wrapped number of
  /// one stored dtype: 1.13 computes in that stored dtype (torch.add(2.5, 1.5)
  /// is float64), 2.14 follows result_type (float32). Measured:
  /// scripts/probes/wrapped_numbers.py under both versions.
  bool wrappedOnlyKeepStoredDType() const { return !has(version_, VersionFact::WrappedNumbersFollowResultType); }

  /// Error codes kept in the promotion table past the dtype positions.
  enum : uint8_t { kQuantized = 64, kFloat8, kBarebonesUnsigned, kNoPromotion };

  explicit DTypeSystem(TorchVersion v);

private:
  [[noreturn]] void throwPromotionError(DType a, DType b, uint8_t code) const;
  std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) const;

  TorchVersion version_;
  DTypeSet named_, universe_;
  std::array<std::array<uint8_t, kNumDTypes>, kNumDTypes> table_{};
};

} // namespace dtf
