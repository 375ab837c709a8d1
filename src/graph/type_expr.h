//===- graph/type_expr.h - TorchScript types as written ---------*- C++ -*-===//
//
// `Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)`, `Tensor`,
// `int[]`, `(Tensor, int)`, `Tensor?` ... parsed into a kind, an optional
// dtype and rank (tensors), and element types; the original spelling is kept.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/lattice.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtf::ir {

struct TypeExpr;
using TypePtr = std::shared_ptr<const TypeExpr>;

struct TypeExpr {
  enum class Kind : uint8_t {
    Tensor, Int, Float, Bool, Complex, Number, Str, Device, None,
    List, Tuple, Optional, Other
  };
  Kind kind = Kind::Other;
  std::optional<DType> dtype; ///< `Float(...)`: written dtype
  std::optional<int> rank;    ///< `Float(2, *)`: written rank
  UnitDims unitDims;          ///< `Float(1, 3)`: dim 0 is 1, dim 1 is not
  Dims dims;                  ///< `Float(2, *, s0)`: written sizes (`*`: unknown); empty if none
  std::vector<TypePtr> elems; ///< List/Optional: one; Tuple: each
  std::string text;           ///< as written
  /// valueOfType(*this, true) and (.., false), kept by finishType once the
  /// type is complete (a parsed graph's values read them on every refinement).
  std::optional<Value> inputValue, coarseValue;

  bool isTensor() const { return kind == Kind::Tensor; }
  /// A tensor type with both dtype and rank written.
  bool isFullTensor() const { return isTensor() && dtype && rank; }
};

/// The TorchScript scalar-type name (`Float`, `Long`, `BFloat16` ...) of a dtype.
std::string_view torchTypeName(DType d);
std::optional<DType> dtypeFromTorchTypeName(std::string_view name);

/// Shared, interned `Tensor` type (the default for untyped outputs).
TypePtr tensorType();

/// What a written type says about a value: dtype + rank for tensors when
/// `withTensorDetails` (graph inputs), otherwise just its coarse kind.
Value valueOfType(const TypeExpr &t, bool withTensorDetails);

/// Keep valueOfType's answers in `t` (call when `t` will not change again).
void finishType(TypeExpr &t);

/// The type to print for a value whose written type is `written`: refined
/// tensor types (`Float(*, *)`, `Long()`), or the written spelling.
std::string annotatedTypeText(const TypeExpr &written, const Value &v);

} // namespace dtf::ir
