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

/// Does converting `number` (a Python number of known value) into `to` raise
/// in PyTorch `v`? Measured with fill_/full (scripts/probes/scalar_conversion.py):
///  - bool targets and bool numbers never raise;
///  - a complex number into a real type raises for a non-zero imaginary part,
///    else its real part is converted; into a complex type each part is;
///  - a float into an integral type raises for NaN and infinities, below the
///    type's lowest value (-0.5 into uint8, -128.5 into int8), and above its
///    largest: in 1.13 anything above (127.5 into int8 raises), in 2.14 only
///    what truncates past it (127.5 fits int8, 128.0 does not);
///  - a float into a floating type raises for a finite value beyond the
///    largest (1e5 into float16), and for an infinity where the type has none
///    (float8_e4m3fn, the fnuz types); a float into float8_e8m0fnu (powers of
///    two) must be positive (an int is checked against the largest only);
///  - an int into an unsigned type may be negative down to -max (wrapping:
///    -255 into uint8 is fine, -256 is not); into a signed or floating type
///    it must lie within the type's range.
/// Unknown values (and non-numbers) never raise here: false.
bool conversionOverflows(const Value &number, DType to, TorchVersion v);

} // namespace dtf
