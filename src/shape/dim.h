//===- shape/dim.h - one tensor dim: known, symbolic or unknown -*- C++ -*-===//
//
// The size lattice of one dim: bottom is never stored (an unreached tensor
// has no dims), a known size is a constant expression, a symbolic one an
// expression over size symbols, and top is "unknown". `join` keeps a dim
// only where both sides agree; arithmetic on an unknown dim, or one that
// overflows, is unknown (sound: nothing is guessed).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "shape/sym_expr.h"

#include <optional>
#include <string>
#include <vector>

namespace dtf {

class Dim {
public:
  Dim() = default; ///< unknown
  Dim(int64_t v) : e_(SymExpr(v)) {}
  Dim(SymExpr e) : e_(std::move(e)) {}
  static Dim unknown() { return Dim(); }

  /// Known exactly or symbolically.
  bool known() const { return e_.has_value(); }
  /// The size when it is a known int.
  std::optional<int64_t> value() const { return e_ ? e_->constant() : std::nullopt; }
  const SymExpr *expr() const { return e_ ? &*e_ : nullptr; }
  /// The values the dim may take ({0, inf} when unknown: a size is >= 0).
  SymRange range() const {
    if (!e_) return {};
    SymRange r = e_->range();
    return {std::max<int64_t>(r.lo, 0), r.hi}; // a size is never negative
  }
  /// Whether the dim is 1: true / false when decided, nullopt otherwise.
  std::optional<bool> isOne() const {
    if (e_ && e_->isConstant()) return e_->constantTerm() == 1; // a known size, without the range
    SymRange r = range();
    if (r.lo == 1 && r.hi == 1) return true;
    if (!r.contains(1)) return false;
    return std::nullopt;
  }
  /// `7`, `s0`, `2*s0 + 1`, or `?` when unknown.
  std::string str() const { return e_ ? e_->str() : "?"; }
  size_t hash() const { return e_ ? e_->hash() : 0x2545f4914f6cdd1dULL; }
  bool operator==(const Dim &o) const { return e_ == o.e_; }

  static Dim join(const Dim &a, const Dim &b) { return a == b ? a : Dim(); }

private:
  std::optional<SymExpr> e_;
};

/// A tensor's sizes, one Dim per dim (its length is the rank).
using Dims = std::vector<Dim>;

// Arithmetic on dims: unknown in, or an overflow, gives unknown.
Dim operator+(const Dim &a, const Dim &b);
Dim operator-(const Dim &a, const Dim &b);
Dim operator*(const Dim &a, const Dim &b);
Dim floorDiv(const Dim &a, const Dim &b); ///< unknown also for a known 0 divisor
Dim mod(const Dim &a, const Dim &b);
Dim maxDim(const Dim &a, const Dim &b);
Dim minDim(const Dim &a, const Dim &b);
/// The product of `dims` (numel), unknown if one is.
Dim product(const Dims &dims);

/// Two dims that must be equal (matmul's inner dims, cat's other dims,
/// broadcasting): Equal / Differ when the sizes decide it, MayDiffer when
/// only symbols' values do (the condition torch.export would guard on).
enum class DimsEqual : uint8_t { Equal, Differ, MayDiffer };
DimsEqual compareDims(const Dim &a, const Dim &b);

/// `[2, s0, ?]`
std::string dimsText(const Dims &dims);

} // namespace dtf
