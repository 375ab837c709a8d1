//===- ops/families/softmax.cpp - softmax, log_softmax and their backward --===//
//
// softmax(x, dim, dtype): the result is dtype= when given (the input is cast
// first), else the input's dtype; any dtype is accepted by the dtype rule
// (CPU lacks integer and complex kernels: kernel gaps, not dtype errors).
// _softmax(half_to_float=True) turns Half into Float (CUDA); any other input
// dtype is rejected. CPU rejects half_to_float altogether, a device limit.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {
namespace {

RuleResult softmaxDtype(const OpCall &c) {
  DType out = c.dtypeArg("dtype").value_or(c.dtype("self"));
  return tensorOf(out, c.rank("self"));
}

RuleResult softmaxHalfToFloat(const OpCall &c) {
  DType s = c.dtype("self");
  auto h2f = c.arg("half_to_float").boolValue();
  if (!h2f) {
    // Either answer is possible; Half gives {Half, Float}, others only self.
    if (s == DType::Float16) return Value::tensor(DTypeSet::join(DType::Float16, DType::Float32), c.rank("self"));
    return tensorOf(s, c.rank("self"));
  }
  if (!*h2f) return tensorOf(s, c.rank("self"));
  if (s != DType::Float16)
    return c.semantic("half_to_float conversion is supported for Half input only, got {}", name(s));
  return tensorOf(DType::Float32, c.rank("self"));
}

/// _softmax_backward_data(grad_output, output, dim, input_dtype): grad and
/// output must agree; the result has the grad's dtype, except a Float grad
/// for a Half input (half_to_float backward): Half on meta/CUDA, no CPU kernel.
RuleResult softmaxBackward(const OpCall &c) {
  DType g = c.dtype("grad_output"), o = c.dtype("output");
  if (g != o) return c.semantic("grad_output ({}) and output ({}) must have the same dtype", name(g), name(o));
  Rank gr = c.rank("grad_output"), orr = c.rank("output");
  bool zeroVsNonZero = (gr == Rank::exact(0) && !orr.mayBeZero()) || (orr == Rank::exact(0) && !gr.mayBeZero());
  // softmax's backward checks sizes; log_softmax's does not.
  bool checksSize = c.key() == "aten::_softmax_backward_data";
  if (checksSize && (zeroVsNonZero || (gr.value() && orr.value() && *gr.value() != *orr.value())))
    return c.semantic("grad_output and output must have the same size");
  DType in = *c.dtypeArg("input_dtype");
  // The half_to_float backward (Float grad, Half input) gives Half on meta
  // and CUDA; the CPU kernel has none ("expected scalar type Float but found
  // Half"): a missing kernel, not a dtype error.
  if (g == DType::Float32 && in == DType::Float16)
    return c.missingKernel("the CPU kernel has no half-to-float backward (grad float32, input_dtype "
                           "float16; meta/CUDA give float16)");
  return tensorOf(g, gr);
}

} // namespace

void registerSoftmax(Registry &r) {
  const std::string fam = "softmax";
  r.add("aten::softmax.int", fam, softmaxDtype).sample("dim", "0");
  r.add("aten::log_softmax.int", fam, softmaxDtype).sample("dim", "0");
  r.add("aten::special_softmax", fam, softmaxDtype).sample("dim", "0");
  r.add("aten::special_log_softmax", fam, softmaxDtype).sample("dim", "0");
  r.add("aten::_softmax", fam, softmaxHalfToFloat)
      .sample("dim", "0")
      .sample("half_to_float", "False")
      .variant({{"dim", "0"}, {"half_to_float", "True"}});
  r.add("aten::_log_softmax", fam, softmaxHalfToFloat)
      .sample("dim", "0")
      .sample("half_to_float", "False")
      .variant({{"dim", "0"}, {"half_to_float", "True"}});
  r.add("aten::_softmax_backward_data", fam, softmaxBackward).sample("dim", "0");
  r.add("aten::_log_softmax_backward_data", fam, softmaxBackward).sample("dim", "0");
}

} // namespace dtf
