//===- dtype/promotion.h - the vocabulary of type promotion -----*- C++ -*-===//
//
// What result_type works with: operand tiers, the dtype a Python number
// contributes, the error PyTorch raises for a pair it will not promote.
// Promotion itself depends on the PyTorch version: dtype/dtype_system.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype.h"
#include "dtype/lattice.h"

#include <optional>
#include <stdexcept>
#include <string>

namespace dtf {

/// The three operand tiers of result_type: a lower tier only matters when it
/// is in a strictly higher category.
enum class Tier : uint8_t { Dim = 0, ZeroDim = 1, Wrapped = 2 };

/// One concrete operand of result_type.
struct PromotionOperand {
  DType dtype; ///< for Wrapped: bool/int64/float32/complex64 by Python kind
  Tier tier;
};

/// PyTorch raises for this promotion (c10::promoteTypes of a quantized,
/// float8 or uint16/32/64 dtype with another; a complex counterpart a dtype
/// lacks). Thrown by DTypeSystem::promote / resultType; the rule lifting
/// (ops/infer.cpp) turns it into the op's error, as PyTorch's op raises it.
class PromotionError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The dtype a wrapped Python number of this kind contributes (default dtype
/// float32, default complex complex64).
DType wrappedNumberDType(NumKind kind);

/// The dtype of the tensor a Python number is wrapped into (scalar_to_tensor:
/// bool, int64, float64, complex128), before result_type reads it by kind.
DType storedNumberDType(NumKind kind);

/// result_type over abstract operands: every dtype the result may have, and
/// whether (and why) some of the possible cases raise.
struct PossibleDTypes {
  DTypeSet dtypes;                  ///< empty with `error`: raises in every case
  std::optional<std::string> error; ///< the first raise among the cases
  bool alwaysRaises() const { return dtypes.empty() && error.has_value(); }
};

} // namespace dtf
