//===- dtype/promotion.h - promote_types and result_type --------*- C++ -*-===//
//
// PyTorch's type promotion for concrete operands (c10::promoteTypes and
// TensorIterator's three-tier result_type), plus the sound lifting of
// result_type to operands whose dtype, rank or number kind is unknown.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype.h"
#include "dtype/lattice.h"

#include <optional>
#include <span>

namespace dtf {

/// c10::promoteTypes for the modelled dtypes (total: every pair has an answer).
DType promoteTypes(DType a, DType b);

/// The three operand tiers of result_type: a lower tier only matters when it
/// is in a strictly higher category.
enum class Tier : uint8_t { Dim = 0, ZeroDim = 1, Wrapped = 2 };

/// One concrete operand of result_type.
struct PromotionOperand {
  DType dtype; ///< for Wrapped: bool/int64/float32/complex64 by Python kind
  Tier tier;
};

/// The dtype a wrapped Python number of this kind contributes (default dtype
/// float32, default complex complex64).
DType wrappedNumberDType(NumKind kind);

/// The dtype of the tensor a Python number is wrapped into (scalar_to_tensor:
/// bool, int64, float64, complex128), before result_type reads it by kind.
DType storedNumberDType(NumKind kind);

/// at::result_type over concrete operands; nullopt when there are none.
std::optional<DType> resultType(std::span<const PromotionOperand> operands);

/// result_type over abstract operands (tensors or numbers). Returns every
/// dtype the result may have: a singleton when the unknowns cannot change
/// the answer, a larger set when they can. Never a guess.
DTypeSet resultTypeSet(std::span<const Value> operands);

} // namespace dtf
