//===- refine/audit.h - where a program's dtypes change ---------*- C++ -*-===//
//
// A mixed-precision audit over a refined graph: every node whose result has
// another dtype than its tensor operands, classified as an explicit cast
// (`.to(bfloat16)`, autocast's casts), an upcast by promotion between
// operands of different dtypes, an op that computes in another dtype
// (`softmax(dtype=float32)`, sums of ints into int64, ints into a float
// result), or a result of another kind (comparisons, indices), with whether
// precision is lost (a value of the source dtype the result cannot hold).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "refine/refine.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace dtf::refine {

enum class ChangeKind : uint8_t {
  Cast,      ///< an explicit conversion op (to, type_as, _to_copy, autocast's)
  Promotion, ///< operands of different dtypes promoted to a common one
  Compute,   ///< the op computes in (or returns) another dtype than its operand's
  Result,    ///< a result of another kind: bool predicates, integer indices
  kCount
};
std::string_view name(ChangeKind k);

struct DtypeChange {
  ir::NodeId node = ir::kNoId;
  ir::ValueId output = ir::kNoId; ///< the node's first tensor output
  ChangeKind kind = ChangeKind::Cast;
  DType to = DType::Float32;
  /// The operands whose dtype differs from `to` (each converted into it), with their dtype.
  std::vector<std::pair<ir::ValueId, DType>> from;
  bool losesPrecision = false; ///< some operand in `from` holds values `to` cannot
  std::string detail;          ///< `dtype=Float`, `autocast`, `by a Python float` ...
};

struct AuditReport {
  std::vector<DtypeChange> changes; ///< in node order
  std::array<size_t, static_cast<size_t>(ChangeKind::kCount)> counts{};
  size_t lossy = 0;
};

/// Every dtype change of `g` refined into `r`.
AuditReport audit(const ir::Graph &g, const Result &r, const Options &opts);

/// Does every value of dtype `from` convert into `to` exactly (no rounding,
/// no overflow, no lost imaginary part)? int8 -> float16 yes, int32 ->
/// float32 no, float16 <-> bfloat16 no.
bool convertsExactly(DType from, DType to);

/// Does dtype `to` hold the number `x` exactly? (0.5 in bfloat16 yes, 0.1
/// no; subnormals are not modelled.)
bool exactIn(long double x, DType to);

} // namespace dtf::refine
