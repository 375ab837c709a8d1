//===- tests/custom_op/dtf_test_ops.cpp - custom ops for the conformance check -===//
//
// A small operator library as a team would write one (TORCH_LIBRARY, CPU
// kernels), loaded by the conformance harness with --load-library and checked
// against its rule file, dtf_test_ops.toml, case by case. Each kernel decides
// its result dtype and shape the way such kernels do (a dtype check, at::
// result_type, a dtype argument, the reduced shape) and computes in a wide
// type, so no ATen kernel gap hides a dtype question.
//
//===----------------------------------------------------------------------===//
#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/WrapDimUtilsMulti.h>
#include <ATen/native/TypeProperties.h>
#include <torch/library.h>

namespace {

/// The type a kernel computes in: the widest of the result's kind.
at::ScalarType wide(at::ScalarType t) {
  if (t == at::kBool) return at::kBool;
  if (at::isComplexType(t)) return at::kComplexDouble;
  if (at::isFloatingType(t)) return at::kDouble;
  return at::kLong;
}

// Floating inputs only; the result keeps x's dtype and shape.
at::Tensor fusedGelu(const at::Tensor &x, double approximate) {
  TORCH_CHECK(at::isFloatingType(x.scalar_type()), "fused_gelu: x must be a floating tensor, got ", x.scalar_type());
  at::Tensor w = x.to(at::kDouble);
  at::Tensor y = approximate > 0 ? 0.5 * w * (1 + at::tanh(0.7978845608 * (w + 0.044715 * w * w * w)))
                                 : w * at::sigmoid(1.702 * w);
  return y.to(x.scalar_type());
}

// x * scale + shift in result_type(x, scale, shift), integers computed as the default float dtype.
at::Tensor scaleShift(const at::Tensor &x, const at::Tensor &scale, const at::Scalar &shift) {
  at::native::ResultTypeState state{};
  state = at::native::update_result_type_state(x, state);
  state = at::native::update_result_type_state(scale, state);
  state = at::native::update_result_type_state(shift, state);
  at::ScalarType out = at::native::result_type(state);
  if (at::isIntegralType(out, /*includeBool=*/true)) out = at::typeMetaToScalarType(at::get_default_dtype());
  at::ScalarType w = wide(out);
  at::Tensor y = x.to(w) * scale.to(w) + at::scalar_tensor(shift, at::TensorOptions().dtype(w));
  return y.to(out);
}

// A sum whose dtype is `dtype` when given, else x's (int64 for bool and integers).
at::Tensor sumTo(const at::Tensor &x, at::OptionalIntArrayRef dim, bool keepdim, c10::optional<at::ScalarType> dtype) {
  at::ScalarType out = dtype ? *dtype : at::isIntegralType(x.scalar_type(), true) ? at::kLong : x.scalar_type();
  at::ScalarType w = wide(x.scalar_type()) == at::kBool ? at::kLong : wide(x.scalar_type());
  return at::sum(x.to(w), dim, keepdim).to(out);
}

// Elementwise equality of two tensors of one dtype, broadcast.
at::Tensor sameClose(const at::Tensor &a, const at::Tensor &b) {
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "same_close: a is ", a.scalar_type(), " and b is ", b.scalar_type());
  at::ScalarType w = wide(a.scalar_type());
  return at::eq(a.to(w), b.to(w));
}

// The mean (floating for integer inputs) and the element count, as 0-dim tensors.
std::tuple<at::Tensor, at::Tensor> stats(const at::Tensor &x) {
  at::ScalarType out = at::isIntegralType(x.scalar_type(), true) ? at::kFloat : x.scalar_type();
  at::ScalarType w = at::isComplexType(out) ? at::kComplexDouble : at::kDouble;
  at::Tensor mean = x.to(w).mean().to(out);
  return {mean, at::scalar_tensor(x.numel(), at::kLong)};
}

} // namespace

TORCH_LIBRARY(dtf_test, m) {
  m.def("fused_gelu(Tensor x, float approximate=0.0) -> Tensor");
  m.def("scale_shift(Tensor x, Tensor scale, Scalar shift=0) -> Tensor");
  m.def("sum_to(Tensor x, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor");
  m.def("same_close(Tensor a, Tensor b) -> Tensor");
  m.def("stats(Tensor x) -> (Tensor mean, Tensor count)");
}

TORCH_LIBRARY_IMPL(dtf_test, CPU, m) {
  m.impl("fused_gelu", fusedGelu);
  m.impl("scale_shift", scaleShift);
  m.impl("sum_to", sumTo);
  m.impl("same_close", sameClose);
  m.impl("stats", stats);
}
