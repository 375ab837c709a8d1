#include "shape/dim.h"

#include <stdexcept>

namespace dtf {
namespace {

template <typename F> Dim lift(const Dim &a, const Dim &b, F f) {
  if (!a.known() || !b.known()) return Dim();
  try {
    return Dim(f(*a.expr(), *b.expr()));
  } catch (const std::overflow_error &) {
    return Dim();
  }
}

template <typename F> Dim liftPartial(const Dim &a, const Dim &b, F f) {
  if (!a.known() || !b.known()) return Dim();
  std::optional<SymExpr> e = f(*a.expr(), *b.expr());
  return e ? Dim(std::move(*e)) : Dim();
}

} // namespace

Dim operator+(const Dim &a, const Dim &b) { return lift(a, b, [](const SymExpr &x, const SymExpr &y) { return x + y; }); }
Dim operator-(const Dim &a, const Dim &b) { return lift(a, b, [](const SymExpr &x, const SymExpr &y) { return x - y; }); }
Dim operator*(const Dim &a, const Dim &b) { return lift(a, b, [](const SymExpr &x, const SymExpr &y) { return x * y; }); }
Dim floorDiv(const Dim &a, const Dim &b) { return liftPartial(a, b, SymExpr::floorDiv); }
Dim mod(const Dim &a, const Dim &b) { return liftPartial(a, b, SymExpr::mod); }
Dim maxDim(const Dim &a, const Dim &b) { return lift(a, b, SymExpr::max); }
Dim minDim(const Dim &a, const Dim &b) { return lift(a, b, SymExpr::min); }

Dim product(const Dims &dims) {
  Dim p(1);
  for (const Dim &d : dims) {
    if (d.value() == 0) return Dim(0); // 0 * unknown is still 0
    p = p * d;
  }
  return p;
}

DimsEqual compareDims(const Dim &a, const Dim &b) {
  if (!a.known() || !b.known()) return DimsEqual::MayDiffer;
  if (*a.expr() == *b.expr()) return DimsEqual::Equal;
  return a.expr()->provablyDifferent(*b.expr()) ? DimsEqual::Differ : DimsEqual::MayDiffer;
}

std::string dimsText(const Dims &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i].str();
  return s + "]";
}

} // namespace dtf
