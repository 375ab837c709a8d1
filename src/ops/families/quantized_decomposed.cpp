//===- ops/families/quantized_decomposed.cpp - PT2E quantize/dequantize ---===//
//
// quantized_decomposed::* (torch/ao/quantization/fx/_decomposed.py, 2.x):
// what torch.export programs of PT2E-quantized models call around every
// quantized op. They are Python ops (torch.library), so libtorch's C++
// harness cannot run them: python/tests/test_dtypeflow.py checks these rules
// against the real ops under 2.14 over every dtype.
//
// Measured on 2.14 (scripts/probes/quantized_decomposed.py):
//  - quantize_*: the input must be float32 (float16/bfloat16 are cast to it
//    first; anything else raises), `dtype` one of the quantized value types
//    (uint8, int8, int16, int32, uint16, float8_e5m2, float8_e4m3fn: others
//    raise "Unsupported dtype"), quant_min/quant_max within that type; the
//    result has `dtype` and the input's shape.
//  - dequantize_per_tensor: the input must have `dtype` (checked first);
//    (x.to(out_dtype) - zero_point) * scale, so an integral out_dtype gives
//    float32, a bool one raises; out_dtype None is float32.
//  - dequantize_per_channel: the same checks; the result is cast to
//    out_dtype (any); uint16 and float8 values meet the int64 zero points in
//    a promotion that raises.
// The .tensor forms read scale and zero_point with .item(): quantize casts
// to dtype last whatever the number; dequantize's result follows a floating
// scale tensor as the number, others are not modelled (unknown).
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/vocabulary.h"

#include <cmath>

namespace dtf {
namespace {

bool isQuantValueType(DType d) {
  switch (d) {
  case DType::UInt8: case DType::Int8: case DType::Int16: case DType::Int32: case DType::UInt16:
  case DType::Float8E5M2: case DType::Float8E4M3FN:
    return true;
  default:
    return false;
  }
}

/// Types the bounds table may or may not hold in another 2.x (sub-byte
/// ints, the other float8s, uint32/64): not measured, so unknown.
bool quantValueTypeUnmeasured(DType d) {
  return (isBeyondClassic(d) && !isQuantValueType(d) && d != DType::BComplex32 && d != DType::Complex32) ||
         isQuantized(d);
}

/// `dtype` is a quantized value type and known quant_min/quant_max fit it.
std::optional<RuleError> boundsCheck(const OpCall &c, DType d) {
  if (!isQuantValueType(d)) return c.semantic("Unsupported dtype: {}", name(d));
  const long double max = largestValue(d);
  const long double lo = isFloating(d) ? -max : d == DType::UInt8 || d == DType::UInt16 ? 0 : -max - 1;
  if (c.arg("quant_min").isNumber())
    if (auto q = c.arg("quant_min").intValue(); q && *q < lo)
      return c.error(ErrorKind::ValueDependent, "quant_min out of bounds for dtype ({} < {})", *q, static_cast<double>(lo));
  if (c.arg("quant_max").isNumber())
    if (auto q = c.arg("quant_max").intValue(); q && *q > max)
      return c.error(ErrorKind::ValueDependent, "quant_max out of bounds for dtype ({} > {})", *q, static_cast<double>(max));
  return std::nullopt;
}

/// A .tensor form whose scale tensor is not floating: .item() gives another
/// kind of number, not modelled.
bool scaleNotModelled(const OpCall &c) { return c.arg("scale").isTensor() && !isFloating(c.dtype("scale")); }

RuleResult quantize(const OpCall &c) {
  const DType in = c.dtype("input"), d = *c.dtypeArg("dtype");
  if (in != DType::Float32 && in != DType::Float16 && in != DType::BFloat16)
    return c.semantic("Expecting input to have dtype torch.float32, but got dtype: {}", name(in));
  if (c.has("axis"))
    if (auto a = c.arg("axis").intValue(); a && c.rank("input").value() && *a >= *c.rank("input").value())
      return c.semantic("Expecting axis to be < {}", *c.rank("input").value());
  if (quantValueTypeUnmeasured(d)) return Value::tensor(DTypeSet::all(), c.rank("input"));
  if (auto e = boundsCheck(c, d)) return *e;
  return tensorOf(d, c.rank("input")); // cast to dtype last, whatever the scale's kind

}

template <bool PerChannel> RuleResult dequantize(const OpCall &c) {
  const DType in = c.dtype("input"), d = *c.dtypeArg("dtype");
  if (in != d) return c.semantic("Expecting input to have dtype: {}, but got {}", name(d), name(in));
  if (quantValueTypeUnmeasured(d)) return Value::tensor(DTypeSet::all(), c.rank("input"));
  if (!isQuantValueType(d)) return c.semantic("Unsupported dtype in dequantize: {}", name(d));
  const DType out = c.dtypeArg("out_dtype").value_or(DType::Float32);
  if (PerChannel) {
    // The int64 zero points meet the input and the scales in promotions:
    // uint16 and float8 raise there (measured with int64 zero points only).
    if (!c.isTensor("zero_points") || c.dtype("zero_points") != DType::Int64)
      return Value::tensor(DTypeSet::all(), c.rank("input"));
    (void)c.promote(d, DType::Int64);
    (void)c.promote(DType::Int64, c.dtype("scales"));
    return tensorOf(out, c.rank("input"));
  }
  if (scaleNotModelled(c)) return Value::tensor(DTypeSet::all(), c.rank("input"));
  if (out == DType::Bool) return c.semantic("Subtraction, the `-` operator, with a bool tensor is not supported");
  if (quantValueTypeUnmeasured(out) || isQuantized(out)) return Value::tensor(DTypeSet::all(), c.rank("input"));
  return tensorOf(isIntegral(out) ? DType::Float32 : out, c.rank("input"));
}

} // namespace

void registerQuantizedDecomposed(Registry &r) {
  const char *fam = "quantized_decomposed";
  const char *python = "a Python op (torch.ao.quantization.fx._decomposed): checked by python/tests";
  for (const char *k : {"quantized_decomposed::quantize_per_tensor", "quantized_decomposed::quantize_per_tensor.tensor",
                        "quantized_decomposed::quantize_per_tensor.tensor2", "quantized_decomposed::quantize_per_channel"})
    r.add(k, fam, quantize).skipConformance(python);
  for (const char *k : {"quantized_decomposed::dequantize_per_tensor", "quantized_decomposed::dequantize_per_tensor.tensor",
                        "quantized_decomposed::dequantize_per_tensor.tensor2"})
    r.add(k, fam, dequantize<false>).skipConformance(python);
  r.add("quantized_decomposed::dequantize_per_channel", fam, dequantize<true>).skipConformance(python);
}

void registerQuantizedDecomposedShapes(Registry &r) {
  // Element-wise: input's sizes (checked by python/tests, QuantizedDecomposedTest).
  for (const char *k : {"quantized_decomposed::quantize_per_tensor", "quantized_decomposed::quantize_per_tensor.tensor",
                        "quantized_decomposed::quantize_per_tensor.tensor2", "quantized_decomposed::quantize_per_channel",
                        "quantized_decomposed::dequantize_per_tensor", "quantized_decomposed::dequantize_per_tensor.tensor",
                        "quantized_decomposed::dequantize_per_tensor.tensor2", "quantized_decomposed::dequantize_per_channel"})
    r.shape(k, sameShapeAs("input"));
}

} // namespace dtf
