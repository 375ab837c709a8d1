//===- ops/families/softmax.cpp - softmax, log_softmax and their backward --===//
//
// softmax(x, dim, dtype): the result is dtype= when given (the input is cast
// first), else the input's dtype; any dtype is accepted by the dtype rule
// (CPU lacks integer and complex kernels: kernel gaps, not dtype errors).
// _softmax(half_to_float=True) turns Half into Float (CUDA); any other input
// dtype is rejected. CPU rejects half_to_float altogether, a device limit.
// _masked_softmax (the fused attention's) keeps self's dtype and shape, with
// the mask and mask_type checks of its CPU kernel.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/unit_dims.h"
#include "ops/vocabulary.h"

#include <algorithm>

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


/// _masked_softmax(self, mask, dim, mask_type): the fused attention's
/// softmax, CPU-only here (measured on 1.13, every dtype of self and mask):
/// the mask must be bool, of self's shape (the CPU kernel has no [B, T] or
/// [T, T] form), a given dim must name a dim of self, and mask_type must be
/// 0, 1 or 2 (None raises: "Mask Type should be defined"). The CPU kernel
/// runs float32, float64 and bfloat16 only, and refuses mask_type 0
/// ("src_mask not currently supported on CPU"). The result has self's dtype
/// and shape.
/// `MaskTypeOptional` (2.14): a None mask_type is taken, and one out of range
/// (it only matters on CUDA), as is src_mask.
template <bool MaskTypeOptional> RuleResult maskedSoftmax(const OpCall &c) {
  DType m = c.dtype("mask");
  if (m != DType::Bool) return c.semantic("mask should be a boolean tensor, got {}", name(m));
  Rank sr = c.rank("self"), mr = c.rank("mask");
  if ((sr.value() && mr.value() && *sr.value() != *mr.value()) || (sr == Rank::exact(0) && mr == Rank::atLeast1()) ||
      (mr == Rank::exact(0) && sr == Rank::atLeast1()))
    return c.semantic("mask shape should match input shape (mask {}, input {})", c.arg("mask").str(), c.arg("self").str());
  if (!c.isNone("dim")) {
    auto d = c.arg("dim").intValue();
    auto rk = sr.value();
    if (d && rk && !wrapDim(*d, *rk)) {
      int n = std::max(*rk, 1);
      return c.semantic("dimension out of range (expected to be in range of [{}, {}], but got {})", -n, n - 1, *d);
    }
  }
  if (c.isNone("mask_type") && !MaskTypeOptional) return c.semantic("mask type should be defined");
  auto mt = c.isNone("mask_type") ? std::nullopt : c.arg("mask_type").intValue();
  if (mt && (*mt < 0 || *mt > 2) && !MaskTypeOptional)
    return c.semantic("mask type should be 0 (src_mask), 1 (src_key_padding_mask) or 2 (default_mask), got {}", *mt);
  DType d = c.dtype("self");
  if (d != DType::Float32 && d != DType::Float64 && d != DType::BFloat16 &&
      !(d == DType::Float16 && !c.lacksCpuKernel(CpuKernel::MaskedSoftmax, d)))
    return c.missingKernel("no CPU masked_softmax kernel for {}", name(d));
  if (mt && *mt == 0 && c.lacksCpuKernel(CpuKernel::MaskedSoftmaxSrcMask, d))
    return c.missingKernel("src_mask (mask_type 0) is not supported on CPU");
  return tensorOf(d, sr);
}

} // namespace

void registerSoftmax(Registry &r) {
  const std::string fam = "softmax";
  r.add("aten::softmax.int", fam, keepingShape(softmaxDtype)).sample("dim", "0");
  r.add("aten::log_softmax.int", fam, keepingShape(softmaxDtype)).sample("dim", "0");
  r.add("aten::special_softmax", fam, keepingShape(softmaxDtype)).sample("dim", "0");
  r.add("aten::special_log_softmax", fam, keepingShape(softmaxDtype)).sample("dim", "0");
  // 2.x: softmax that gives 0 for rows all -inf (it tests self with isneginf,
  // which refuses complex whatever the dtype: measured on 2.14).
  r.add("aten::_safe_softmax", fam, keepingShape([](const OpCall &c) -> RuleResult {
     if (isComplex(c.dtype("self"))) return c.semantic("isneginf does not support complex inputs");
     return softmaxDtype(c);
   })).sample("dim", "0");
  r.add("aten::_softmax", fam, keepingShape(softmaxHalfToFloat))
      .sample("dim", "0")
      .sample("half_to_float", "False")
      .variant({{"dim", "0"}, {"half_to_float", "True"}});
  r.add("aten::_log_softmax", fam, keepingShape(softmaxHalfToFloat))
      .sample("dim", "0")
      .sample("half_to_float", "False")
      .variant({{"dim", "0"}, {"half_to_float", "True"}});
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), RuleFn(maskedSoftmax<false>)},
                             std::pair{r.since(TorchVersion::V2_6), RuleFn(maskedSoftmax<true>)}})
  scope.add("aten::_masked_softmax", fam, keepingShape(rule))
      .sample("self", "sweep[2,3]").sample("mask", "sweep[2,3]").sample("dim", "None").sample("mask_type", "2")
      .variant({{"self", "sweep[2,3]"}, {"mask", "bool[2,3]"}, {"mask_type", "1"}, {"dim", "-1"}})
      .variant({{"self", "sweep[2,3]"}, {"mask", "bool[2,3]"}, {"mask_type", "0"}})
      .variant({{"self", "sweep[2,3]"}, {"mask", "bool[2,3]"}, {"mask_type", "None"}})
      .variant({{"self", "sweep[2,3]"}, {"mask", "bool[2,3]"}, {"mask_type", "3"}})
      .variant({{"self", "sweep[2,3]"}, {"mask", "bool[2,3]"}, {"mask_type", "2"}, {"dim", "2"}})
      .variant({{"self", "float32[2,3]"}, {"mask", "sweep[2]"}, {"mask_type", "2"}})
      .variant({{"self", "sweep![1,2,3,3]"}, {"mask", "bool[1,2,3,3]"}, {"mask_type", "1"}, {"dim", "1"}});
  r.add("aten::_softmax_backward_data", fam, softmaxBackward).sample("dim", "0");
  r.add("aten::_log_softmax_backward_data", fam, softmaxBackward).sample("dim", "0");
}

} // namespace dtf
