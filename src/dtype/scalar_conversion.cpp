//===- dtype/scalar_conversion.cpp - c10's checked Scalar conversion -------===//
#include "dtype/scalar_conversion.h"

#include <cmath>
#include <cstdint>

namespace dtf {
namespace {

/// The real type a complex type's parts have.
DType partType(DType d) { return isComplex(d) ? toRealValueType(d) : d; }

/// A double into a real (non-bool) type.
bool floatOverflows(double f, DType to) {
  const long double max = largestValue(to);
  if (isFloating(to)) return std::isfinite(f) && (f > max || f < -max);
  if (std::isnan(f)) return true; // integral types have no NaN
  // c10 compares in double: the limits are rounded to double first.
  const double hi = static_cast<double>(max);
  const double lo = to == DType::UInt8 ? 0.0 : static_cast<double>(-max - 1);
  return f < lo || f > hi;
}

/// An int64 into a real (non-bool) type.
bool intOverflows(int64_t i, DType to) {
  const long double max = largestValue(to);
  const long double v = static_cast<long double>(i);
  if (isFloating(to)) return v > max || v < -max;
  if (to == DType::UInt8) return v > max || v < -max; // negatives wrap (two's complement)
  return v > max || v < -max - 1;
}

} // namespace

bool conversionOverflows(const Value &number, DType to) {
  if (!number.isNumber() || !number.hasNumValue() || isBool(to)) return false;
  const std::optional<NumKind> kind = number.numKind();
  if (!kind || *kind == NumKind::Bool) return false;
  if (*kind == NumKind::Complex) {
    auto z = number.complexValue();
    if (!z) return false;
    if (isComplex(to)) return floatOverflows(z->first, partType(to)) || floatOverflows(z->second, partType(to));
    return z->second != 0.0 || floatOverflows(z->first, to);
  }
  if (*kind == NumKind::Int) {
    auto i = number.intValue();
    return i && intOverflows(*i, partType(to));
  }
  auto f = number.floatValue();
  return f && floatOverflows(*f, partType(to));
}

} // namespace dtf
