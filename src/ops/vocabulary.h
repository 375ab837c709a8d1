//===- ops/vocabulary.h - one-line rules for the common families -*- C++ -*-===//
//
// The small helper vocabulary most rules are written in (cf. ONNX's
// propagateElemTypeFromInputToOutput). Each returns a RuleFn; ranks follow
// broadcasting of the tensor arguments.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/rule.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace dtf {

/// torch/_prims_common ELEMENTWISE_TYPE_PROMOTION_KIND: how the promoted
/// dtype R becomes the result dtype.
enum class PromotionKind : uint8_t {
  Default,        ///< R
  IntToFloat,     ///< bool/integral R -> float32 (the default dtype)
  AlwaysBool,     ///< bool
  ComplexToFloat, ///< complex R -> its real type
  BoolToLong,     ///< bool R -> int64
};

/// Apply a promotion kind to the promoted dtype.
DType applyKind(PromotionKind kind, DType promoted);

/// Result = kind(result_type(args...)), rank = broadcast of the tensor args.
RuleFn elementwise(PromotionKind kind, std::vector<std::string> args);
/// Single-input shorthand over `self`.
inline RuleFn unary(PromotionKind kind) { return elementwise(kind, {"self"}); }

/// Result has the dtype of `arg` and the same rank.
RuleFn sameAs(std::string arg);
/// Result has the dtype of `dtypeFrom` and `numResults` results all alike.
RuleFn sameAsN(std::string dtypeFrom, int numResults);
/// Result always has dtype `d`; rank copied from `rankFrom` (empty: unknown).
RuleFn always(DType d, std::string rankFrom = "self");

/// The in-place form (`aten::relu_`) of an out-of-place rule: the result is
/// self (its dtype and rank); PyTorch raises when the out-of-place result
/// dtype cannot be cast to self's (torch.can_cast).
RuleFn inPlace(RuleFn outOfPlace);

/// Every tensor argument among `names` that is present (not None) must have
/// the first one's dtype (mm, conv, norms: no promotion in those kernels).
std::optional<RuleError> requireSame(const OpCall &c, std::initializer_list<std::string_view> names);

/// Rank of the broadcast of these tensor arguments (numbers count as rank 0).
Rank broadcastArgs(const OpCall &c, std::initializer_list<std::string_view> args);
Rank broadcastArgs(const OpCall &c, const std::vector<std::string> &args);

/// The dtype of a tensor, or of a number as a wrapped scalar.
DType dtypeOrWrapped(const Value &v);

} // namespace dtf
