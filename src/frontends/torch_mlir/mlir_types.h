//===- frontends/torch_mlir/mlir_types.h - Torch-dialect types --*- C++ -*-===//
//
// `!torch.vtensor<[2,?,3],f32>`, `!torch.tensor<*,si64>`, `!torch.vtensor`,
// `!torch.int`, `!torch.list<vtensor>`, `!torch.optional<tensor>` ... read
// into the program IR's TypeExpr (its `text` is the MLIR spelling), and the
// refined spelling of a tensor type once dtypeflow knows its dtype (and rank).
//
// Element types as torch-mlir writes them: i1, ui8, si8..si64, ui16..ui64,
// f16, bf16, f32, f64, the float8 types, complex<f16|f32|f64>, the quantized
// `!torch.qint8`, `!torch.quint8`, `!torch.qint32`; `unk` leaves the dtype unknown.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/lattice.h"
#include "graph/type_expr.h"

#include <optional>
#include <string>
#include <string_view>

namespace dtf::torch_mlir {

/// The type `text` spells (whitespace allowed). Any type MLIR may write is
/// accepted: what is not a torch type is opaque (TypeExpr::Kind::Other).
/// Returns null when `text` is not a type at all.
ir::TypePtr parseType(std::string_view text);

/// The dtype an element type names (`f32`, `si64`, `complex<f32>`), or nullopt.
std::optional<DType> elementDType(std::string_view elem);
/// How torch-mlir writes a dtype as an element type; empty for one it has no spelling for.
std::string_view elementName(DType d);

/// A written tensor type split into its parts; nullopt for other types.
struct TensorSpelling {
  bool valueSemantics = true;         ///< vtensor (else tensor)
  std::optional<std::string> sizes;   ///< `[2,?]` as written, without spaces; nullopt: `*` or no details
  std::optional<std::string> element; ///< `f32`; nullopt: `unk` or no details
};
std::optional<TensorSpelling> tensorSpelling(std::string_view text);

/// The type to print for a value written `written` that dtypeflow inferred
/// as `v`: with dtypeflow's dtype where it knows one (it wins over a written
/// one that conflicts), the written sizes kept, `[?,?]` where only the rank
/// is known, `*` otherwise. `written` itself when nothing is learnt.
std::string refinedTypeText(std::string_view written, const Value &v);

/// `written` without whitespace (types are compared this way).
std::string squeeze(std::string_view written);
/// squeeze(a) == squeeze(b), without making either (the printer compares a type per use).
bool sameType(std::string_view a, std::string_view b);

} // namespace dtf::torch_mlir
