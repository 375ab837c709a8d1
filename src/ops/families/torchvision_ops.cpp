//===- ops/families/torchvision_ops.cpp - torchvision's detection ops -----===//
//
// torchvision registers its C++ ops (torchvision::nms, roi_align ...) with the
// TorchScript operator registry, so traced detection models call them. Their
// kernels dispatch on floating dtypes only: float and double on every device,
// Half also on CPU for the RoI ops (not for nms), never BFloat16 in 0.14, so
// any other dtype raises ("nms_kernel" not implemented for 'Int'). The boxes
// or RoIs must have the input's dtype (torch checks, no promotion). Measured
// on Debian's python3-torchvision 0.14 with torch 1.13.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/vocabulary.h"
#include "shape/unbacked.h"

#include <tuple>

namespace dtf {
namespace {

/// The kernel exists for `d`: float32/float64 (and float16 when `half`).
std::optional<RuleError> floatingKernel(const OpCall &c, std::string_view kernel, DType d, bool half) {
  if (d == DType::Float32 || d == DType::Float64 || (half && d == DType::Float16)) return std::nullopt;
  // nms has a Half kernel on CUDA only; no device has BFloat16, integer, bool or complex kernels.
  ErrorKind k = d == DType::Float16 && !half ? ErrorKind::MissingKernel : ErrorKind::Semantic;
  return c.error(k, "\"{}\" not implemented for {}", kernel, name(d));
}

/// nms(dets, scores, iou_threshold) -> int64 indices of the kept boxes.
RuleResult nms(const OpCall &c) {
  DType d = c.dtype("dets"), s = c.dtype("scores");
  if (auto e = floatingKernel(c, "nms_kernel", d, false)) return *e;
  if (d != s) return c.semantic("dets ({}) and scores ({}) must have the same dtype", name(d), name(s));
  return tensorOf(DType::Int64, Rank::exact(1));
}

/// The RoI ops: (input [N,C,H,W], rois [K,5]) -> pooled [K,C',h,w] of the
/// input's dtype, and for the pooling ones an int32 argmax/channel map.
RuleFn roiOp(std::string kernel, bool withIndices) {
  return [kernel, withIndices](const OpCall &c) -> RuleResult {
    DType x = c.dtype("input"), r = c.dtype("rois");
    if (x != r)
      return c.semantic("expected tensor for argument #1 'input' ({}) to have the same type as tensor for "
                        "argument #2 'rois' ({})",
                        name(x), name(r));
    if (auto e = floatingKernel(c, kernel, x, true)) return *e;
    Value pooled = tensorOf(x, Rank::exact(4));
    if (!withIndices) return pooled;
    return std::vector<Value>{pooled, tensorOf(DType::Int32, Rank::exact(4))};
  };
}

} // namespace

void registerTorchvisionOps(Registry &r) {
  const std::string f = "torchvision";
  // deform_conv2d: one dtype for input, weight, offset and mask (the
  // kernel's matmuls check it); CPU kernels for float16/32/64 only. The bias
  // is added into the float32/float64 result, which also takes a bool or
  // bfloat16 one (measured, torchvision 0.14 and 0.27).
  r.add("torchvision::deform_conv2d", f, [](const OpCall &c) -> RuleResult {
     if (auto e = requireSame(c, {"input", "weight", "offset", "mask"})) return *e;
     DType d = c.dtype("input"), b = c.dtype("bias");
     bool biasTaken = b == d || ((d == DType::Float32 || d == DType::Float64) && (b == DType::Bool || b == DType::BFloat16));
     if (!biasTaken) return c.semantic("expected input and bias to have the same dtype, but got {} and {}", name(d), name(b));
     return tensorOf(d, Rank::exact(4));
   }).sample("input", "sweep![1,1,3,3]").sample("weight", "sweep![1,1,1,1]").sample("offset", "sweep![1,2,3,3]")
      .sample("mask", "sweep![1,1,3,3]").sample("bias", "sweep![1]").sample("stride_h", "1").sample("stride_w", "1")
      .sample("pad_h", "0").sample("pad_w", "0").sample("dilation_h", "1").sample("dilation_w", "1").sample("groups", "1")
      .sample("offset_groups", "1").sample("use_mask", "True");
  r.add("torchvision::nms", f, nms).sample("dets", "sweep![3,4]=0").sample("scores", "sweep![3]").sample("iou_threshold", "0.5");
  auto roi = [&](std::string_view key, std::string kernel, bool indices) {
    r.add(key, f, roiOp(std::move(kernel), indices))
        .sample("input", "sweep![1,4,4,4]")
        .sample("rois", "sweep![2,5]=0")
        .sample("spatial_scale", "1.0")
        .sample("pooled_height", "2")
        .sample("pooled_width", "2");
  };
  roi("torchvision::roi_align", "roi_align_forward_kernel", false);
  roi("torchvision::roi_pool", "roi_pool_forward_kernel", true);
  roi("torchvision::ps_roi_align", "ps_roi_align_forward_kernel", true);
  roi("torchvision::ps_roi_pool", "ps_roi_pool_forward_kernel", true);
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h), from torchvision's C++ kernels
// (csrc/ops/cpu/*_kernel.cpp). nms keeps a data-dependent number of boxes:
// its length stays unknown (no unbacked symbols here yet).
//===----------------------------------------------------------------------===//

namespace {

/// The RoI ops: [K, C, ph, pw] with K the RoIs and C the input's channels;
/// the position-sensitive ones pool C / (ph * pw) channels.
ShapeFn roiShape(bool positionSensitive, size_t outputs) {
  return [=](const OpCall &c) -> ShapeResult {
    auto in = dimsOf(c, "input"), rois = dimsOf(c, "rois");
    Dim ph = symIntArg(c, "pooled_height"), pw = symIntArg(c, "pooled_width");
    if (!in || !rois || in->size() != 4 || rois->size() != 2 || !ph.known() || !pw.known()) return {};
    Dim channels = (*in)[1];
    if (positionSensitive) {
      auto cv = channels.value(), hv = ph.value(), wv = pw.value();
      if (!cv || !hv || !wv || *hv <= 0 || *wv <= 0 || *cv % (*hv * *wv) != 0) return {}; // raises unless divisible
      channels = Dim(*cv / (*hv * *wv));
    }
    return repeatedShape(Dims{(*rois)[0], channels, ph, pw}, outputs);
  };
}

/// deform_conv2d: [N, out_channels, out_h, out_w], a convolution's arithmetic.
ShapeResult deformConvShape(const OpCall &c) {
  auto in = dimsOf(c, "input"), w = dimsOf(c, "weight");
  if (!in || !w || in->size() != 4 || w->size() != 4) return {};
  Dims out{(*in)[0], (*w)[0]};
  for (auto [i, s, p, d] : {std::tuple{2, "stride_h", "pad_h", "dilation_h"}, std::tuple{3, "stride_w", "pad_w", "dilation_w"}}) {
    auto stride = intArg(c, s), pad = intArg(c, p), dil = intArg(c, d);
    if (!stride || !pad || !dil || *stride <= 0) return {};
    Dim span = Dim(*dil) * ((*w)[i] - Dim(1)) + Dim(1);
    out.push_back(floorDiv((*in)[i] + Dim(2 * *pad) - span, Dim(*stride)) + Dim(1));
  }
  for (const Dim &d : out)
    if (auto v = d.value(); v && *v <= 0) return {}; // raises
  return out;
}

} // namespace

void registerTorchvisionShapes(Registry &r) {
  r.shape("torchvision::roi_align", roiShape(false, 1));
  r.shape("torchvision::roi_pool", roiShape(false, 2));
  r.shape("torchvision::ps_roi_align", roiShape(true, 2));
  r.shape("torchvision::ps_roi_pool", roiShape(true, 2));
  r.shape("torchvision::deform_conv2d", deformConvShape);
  // The kept boxes' indices: a data-dependent count (an unbacked symbol, shape/unbacked.h) of at most N boxes.
  r.shape("torchvision::nms", [](const OpCall &c) -> ShapeResult {
    auto dets = dimsOf(c, "dets");
    if (!dets || dets->size() != 2) return {};
    return Dims{unbackedDim(0, {0, (*dets)[0].range().hi})};
  });
}

} // namespace dtf
