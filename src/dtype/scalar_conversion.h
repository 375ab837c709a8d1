//===- dtype/scalar_conversion.h - a Python number into a dtype -*- C++ -*-===//
//
// Kernels turn Scalar arguments into their element type with c10's checked
// conversion (Scalar::to<T>), which raises "value cannot be converted to type
// T without overflow" for a value outside T's range: a value-dependent error
// a rule can predict when it knows the number.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/lattice.h"

namespace dtf {

/// Does converting `number` (a Python number of known value) into `to` raise?
/// Measured on 1.13 (c10's `overflows`):
///  - bool targets and bool numbers never raise;
///  - a complex number into a real type raises for a non-zero imaginary part,
///    else its real part is converted; into a complex type each part is;
///  - a float into an integral type raises outside [lowest, max] (127.5 into
///    int8, -0.5 into uint8), and for NaN and infinities; into a floating
///    type only for a finite value beyond the largest (1e5 into float16);
///  - an int into an unsigned type may be negative down to -max (wrapping:
///    -255 into uint8 is fine, -256 is not); into a signed or floating type
///    it must lie within the type's range.
/// Unknown values (and non-numbers) never raise here: false.
bool conversionOverflows(const Value &number, DType to);

} // namespace dtf
