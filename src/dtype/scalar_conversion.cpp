//===- dtype/scalar_conversion.cpp - c10's checked Scalar conversion -------===//
#include "dtype/scalar_conversion.h"

#include <cmath>
#include <cstdint>

namespace dtf {
namespace {

/// The real type a complex type's parts have.
DType partType(DType d) { return isComplex(d) ? toRealValueType(d) : d; }

/// Floating types without an infinity: converting one into them raises.
bool lacksInfinity(DType d) {
  return d == DType::Float8E4M3FN || d == DType::Float8E4M3FNUZ || d == DType::Float8E5M2FNUZ ||
         d == DType::Float8E8M0FNU;
}

bool isUnsignedIntegral(DType d) {
  return d == DType::UInt8 || d == DType::UInt16 || d == DType::UInt32 || d == DType::UInt64;
}

/// A double into a real (non-bool) type.
bool floatOverflows(double f, DType to, TorchVersion v) {
  const long double max = largestValue(to);
  if (to == DType::Float8E8M0FNU && !(f > 0)) return !std::isnan(f); // powers of two only: no sign, no zero
  if (isFloating(to)) return std::isinf(f) ? lacksInfinity(to) : (f > max || f < -max);
  if (std::isnan(f)) return true; // integral types have no NaN
  // c10 compares in double: the limits are rounded to double first.
  const double lo = isUnsignedIntegral(to) ? 0.0 : static_cast<double>(-max - 1);
  if (f < lo) return true;
  if (has(v, VersionFact::IntegralConversionTruncatesFirst)) return f >= static_cast<double>(max + 1); // what truncates into range fits
  return f > static_cast<double>(max);
}

/// An int64 into a real (non-bool) type.
bool intOverflows(int64_t i, DType to) {
  const long double max = largestValue(to);
  const long double v = static_cast<long double>(i);
  if (isFloating(to)) return v > max || v < -max;
  if (isUnsignedIntegral(to)) return v > max || v < -max; // negatives wrap (two's complement)
  return v > max || v < -max - 1;
}

} // namespace

bool conversionOverflows(const Value &number, DType to, TorchVersion v) {
  if (!number.isNumber() || !number.hasNumValue() || isBool(to)) return false;
  const std::optional<NumKind> kind = number.numKind();
  if (!kind || *kind == NumKind::Bool) return false;
  if (*kind == NumKind::Complex) {
    auto z = number.complexValue();
    if (!z) return false;
    if (isComplex(to)) return floatOverflows(z->first, partType(to), v) || floatOverflows(z->second, partType(to), v);
    return z->second != 0.0 || floatOverflows(z->first, to, v);
  }
  if (*kind == NumKind::Int) {
    auto i = number.intValue();
    return i && intOverflows(*i, partType(to));
  }
  auto f = number.floatValue();
  return f && floatOverflows(*f, partType(to), v);
}

} // namespace dtf
