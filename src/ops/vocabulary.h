//===- ops/vocabulary.h - one-line rules for the common families -*- C++ -*-===//
//
// The small helper vocabulary most rules are written in (cf. ONNX's
// propagateElemTypeFromInputToOutput). Each returns a RuleFn; ranks follow
// broadcasting of the tensor arguments.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/rule.h"

#include <algorithm>
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

/// What an in-place form checks besides running the out-of-place rule.
struct InPlaceChecks {
  /// Tensor arguments broadcast into self: one of higher rank than self's
  /// (or of rank >= 1 into a 0-dim self) cannot be written back.
  std::vector<std::string> fitInSelf;
  /// The out-of-place result dtype must cast to self's (torch.can_cast);
  /// off for ops whose kernels write any dtype (comparisons, masked_fill).
  bool castToSelf = true;
};

/// The in-place form (`aten::relu_`) of an out-of-place rule: the result is
/// self (its dtype and rank), after the checks PyTorch makes of `checks`.
RuleFn inPlace(RuleFn outOfPlace, InPlaceChecks checks = {});

/// FakeTensor (what torch.export records, `--kernels meta`) runs some ops as
/// torch's Python reference or decomposition instead of the meta kernel, and
/// that can give another dtype than the CPU kernel (a loss of a float32 self
/// and a float64 target is float64 there, self's float32 on the CPU). `cpu`
/// answers eager calls, `reference` calls on meta. The libtorch harness runs
/// C++ meta kernels only: each reference says where it was measured.
RuleFn metaByReference(RuleFn cpu, RuleFn reference);

/// linalg.vander / vander: 2.14's float8 and bcomplex32 refused by name.
std::optional<RuleError> vanderDType(const OpCall &c, DType d);

/// Every tensor argument among `names` that is present (not None) must have
/// the first one's dtype (mm, conv, norms: no promotion in those kernels).
std::optional<RuleError> requireSame(const OpCall &c, std::initializer_list<std::string_view> names);
std::optional<RuleError> requireSame(const OpCall &c, std::span<const std::string> names);

/// Rank of the broadcast of these tensor arguments (numbers count as rank 0).
Rank broadcastArgs(const OpCall &c, std::initializer_list<std::string_view> args);
Rank broadcastArgs(const OpCall &c, const std::vector<std::string> &args);

/// The dtypes an element of a `Tensor[]` value may have (all when it is not
/// a list of tensors): for a result taken from a list of unknown length.
DTypeSet elementDTypes(const Value &list);

/// The dtype of a tensor, or of a number as a wrapped scalar.
DType dtypeOrWrapped(const Value &v);

/// The kernel converts number argument `arg` into dtype `d` (c10's checked
/// conversion, dtype/scalar_conversion.h): a known value that does not fit
/// (an imaginary part into a real type, 300 into uint8, -1e9 into float16)
/// raises "value cannot be converted to type ... without overflow", a
/// value-dependent error. nullopt when it fits, is unknown, or is absent.
/// Into complex32 most kernels take the number as complex<float> (fill and
/// full accept 70000); scalar_tensor, masked_fill, where, add/sub (alpha)
/// and a fill of a 0-dim tensor write it as complex<half>.
enum class ComplexHalfParts { AsFloat, AsHalf };
/// The type a CPU kernel computes a `d` result in (at::opmath_type): float32
/// for float16 and bfloat16 results, complex64 for complex32, `d` otherwise.
/// Kernels that convert their Scalars there accept 3.395e38 for a bfloat16 result.
DType computeType(DType d);
std::optional<RuleError> checkedConversion(const OpCall &c, std::string_view arg, DType d,
                                           ComplexHalfParts parts = ComplexHalfParts::AsFloat);
/// How fill_ writes into a tensor of rank `r`: one element of a 0-dim tensor
/// directly (complex<half>), others through the kernel (an unknown rank is
/// read as the kernel's).
inline ComplexHalfParts fillParts(Rank r) {
  return r == Rank::exact(0) ? ComplexHalfParts::AsHalf : ComplexHalfParts::AsFloat;
}

/// A fill value (`arg`) written into a `d` tensor of rank `written` (fill_,
/// full, full_like, scalar_tensor): c10's checked conversion, with
/// fillParts for complex32. 2.14 writes into one element of a 0-dim float16,
/// bfloat16 or float8 tensor without a range check (70000 fills a 0-dim
/// float16: only an imaginary part raises; scripts/probes/scalar_arguments.py).
std::optional<RuleError> checkedFill(const OpCall &c, std::string_view arg, DType d, Rank written);

/// How an op reads a size list (`size`, `shape`, `repeats`): which known
/// entries PyTorch refuses before computing anything (value-dependent).
enum class SizeList {
  NewTensor, ///< factories: no negative size, a numel within int64
  Shape,     ///< view/reshape: at most one -1, nothing below -1
  Expand,    ///< expand: nothing below -1, no -1 in a new leading dim
  Repeats,   ///< repeat: no negative count
};
std::optional<RuleError> sizeListError(const OpCall &c, std::string_view arg, SizeList kind);

/// The values of an `int[]` argument (a single int counts as a one-element
/// list); nullopt when its length or any element is unknown.
std::optional<std::vector<int64_t>> knownInts(const Value &v);

/// c10::maybe_wrap_dim: `dim` of a tensor of `rank` dims as 0..rank-1, a
/// 0-dim tensor taking dims as if it had one (-1 and 0); nullopt when out of
/// range ("Dimension out of range").
/// (Inline, so g++ 12's -Wmaybe-uninitialized sees through the optional.)
inline std::optional<int> wrapDim(int64_t dim, int rank) {
  int64_t n = std::max(rank, 1);
  if (dim < -n || dim >= n) return std::nullopt;
  return static_cast<int>(dim < 0 ? dim + n : dim);
}

/// Dim argument `dim` of tensor argument `tensor`, wrapped, when both the
/// tensor's rank (at least 1) and the dim are known and in range.
std::optional<int> knownDim(const OpCall &c, std::string_view tensor, std::string_view dim);

/// An out overload's results from its functional op's `results` (one per
/// output argument, the call's last `numOut`): those when every output
/// argument has its result's dtype and `dtype=`, if any, is the first's;
/// else unknown of the same ranks (the op casts into them, or raises by
/// checks of its own: max.dim_max wants int64 indices).
std::vector<Value> intoOutArguments(const OpCall &c, std::vector<Value> results, size_t numOut);

} // namespace dtf
