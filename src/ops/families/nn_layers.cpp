//===- ops/families/nn_layers.cpp - pooling, normalization, embeddings ... -===//
//
// Most layers keep their input's dtype and rank; integer and bool kernels are
// often missing on CPU (kernel gaps, not dtype rules). The dtype checks that
// 1.13 applies (measured on CPU) are reproduced: parameters of the norms must
// match the input, index tensors must be int64, adaptive average pooling to
// size 1 is a mean (integer input raises), dropout in training needs a
// floating input. Losses: nn_losses.cpp; fft, attention, RNNs: nn_sequence.cpp.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/unit_dims.h"
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"
#include "ops/shape_rules.h"

#include <cmath>
#include <fmt/ranges.h>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dtf {
namespace {

std::optional<RuleError> requireInt64(const OpCall &c, std::string_view n) {
  if (c.dtype(n) != DType::Int64)
    return c.semantic("expected {} to be int64, but got {}", n, name(c.dtype(n)));
  return std::nullopt;
}

std::optional<RuleError> requireRankAtLeast(const OpCall &c, std::string_view n, int k) {
  if (auto r = c.rank(n).value(); r && *r < k)
    return c.semantic("{} must have at least {} dimensions, got {}-D", n, k, *r);
  return std::nullopt;
}

/// Keep the input's dtype and rank (input must have at least `minRank` dims).
RuleFn keepInput(std::string in, int minRank = 0) {
  return [in, minRank](const OpCall &c) -> RuleResult {
    if (auto e = requireRankAtLeast(c, in, minRank)) return *e;
    return tensorOf(c.dtype(in), c.rank(in));
  };
}

uint32_t bitOf(int i) { return i >= 0 && i < 32 ? uint32_t{1} << i : 0; }

/// Upsampling's size arguments: output_size (and scale_factors of the .vec
/// overloads) give one entry per spatial dim; a .vec call gives exactly one.
RuleFn upsampleArgs(RuleFn fn, int spatial) {
  return [fn = std::move(fn), spatial](const OpCall &c) -> RuleResult {
    const Value &size = c.arg("output_size");
    if (c.has("scale_factors")) {
      const Value &scales = c.arg("scale_factors");
      if ((size.isNone() && scales.isNone()) || (size.isList() && scales.isList()))
        return c.semantic("must specify exactly one of output_size and scale_factors");
    }
    for (const char *name : {"output_size", "scale_factors"}) {
      const Value *lp = c.argIf(name);
      if (!lp) continue;
      const Value &l = *lp;
      if (l.isList() && l.lengthKnown() && static_cast<int>(l.elements().size()) != spatial)
        return c.semantic("expected {} to have {} entries (one per spatial dim), got {}", name, spatial,
                          l.elements().size());
    }
    return fn(c);
  };
}

/// Size-1 facts for layers that keep the leading (batch, channel) dims and
/// resize the `spatial` trailing ones: the leading facts of `in` are kept;
/// a known output size list (`sizes`) gives the trailing ones.
RuleFn leadingFacts(RuleFn fn, std::string in, int spatial, std::string sizes = "") {
  return [fn = std::move(fn), in, spatial, sizes](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    const Value &x = c.arg(in);
    auto rk = x.rank().value();
    if (!r.ok() || !rk || *rk > 32 || *rk < spatial) return r;
    UnitDims f = x.unitDims(), u;
    uint32_t lead = bitOf(*rk - spatial) - 1;
    u.ones = f.ones & lead;
    u.others = f.others & lead;
    if (!sizes.empty()) {
      const Value &l = c.arg(sizes);
      if (l.isList() && l.lengthKnown() && static_cast<int>(l.elements().size()) == spatial)
        for (int i = 0; i < spatial; ++i) {
          auto v = l.elements()[i].isNumber() ? l.elements()[i].intValue() : std::nullopt;
          if (v && *v == 1) u.ones |= bitOf(*rk - spatial + i);
          else if (v && *v > 1) u.others |= bitOf(*rk - spatial + i);
        }
    }
    std::vector<Value> outs = r.outputs();
    for (Value &o : outs)
      if (o.isTensor() && o.rank() == x.rank()) o = o.withUnitDims(u);
    return r.possibleError() ? RuleResult(std::move(outs), *r.possibleError()) : RuleResult(std::move(outs));
  };
}

/// Padding: dims whose two pad amounts are known zeros, and the dims before
/// the padded ones, keep their size-1 facts.
RuleFn padFacts(RuleFn fn, std::string in, std::string pad) {
  return [fn = std::move(fn), in, pad](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    const Value &x = c.arg(in);
    const Value &p = c.arg(pad);
    auto rk = x.rank().value();
    if (!r.ok() || !rk || *rk > 32 || !p.isList() || !p.lengthKnown() || p.elements().size() % 2) return r;
    int k = static_cast<int>(p.elements().size()) / 2;
    if (k > *rk) return r;
    uint32_t keep = bitOf(*rk - k) - 1;
    for (int i = 0; i < k; ++i) {
      auto a = p.elements()[2 * i].intValue(), b = p.elements()[2 * i + 1].intValue();
      if (a && b && *a == 0 && *b == 0) keep |= bitOf(*rk - 1 - i);
    }
    UnitDims f = x.unitDims();
    std::vector<Value> outs = r.outputs();
    for (Value &o : outs)
      if (o.isTensor() && o.rank() == x.rank()) o = o.withUnitDims({f.ones & keep, f.others & keep});
    return r.possibleError() ? RuleResult(std::move(outs), *r.possibleError()) : RuleResult(std::move(outs));
  };
}

/// (input dtype, int64 indices), both of the input's rank.
RuleFn withIndices(int minRank) {
  return [minRank](const OpCall &c) -> RuleResult {
    if (auto e = requireRankAtLeast(c, "self", minRank)) return *e;
    Rank r = c.rank("self");
    return std::vector<Value>{tensorOf(c.dtype("self"), r), tensorOf(DType::Int64, r)};
  };
}

/// adaptive_avg_pool{k}d wants a (k+1)-D or (k+2)-D self, except that
/// adaptive_avg_pool2d/3d to an all-ones size is 1.13's mean() over the
/// last k dims, which takes any self of at least k dims (not their .out
/// forms: `meanShortcut` false). A mean of integers raises (1d runs through
/// 2d, so its all-ones size does too).
RuleFn adaptiveAvg(int k, bool meanShortcut = true) {
  return [k, meanShortcut](const OpCall &c) -> RuleResult {
    DType d = c.dtype("self");
    const Value &os = c.arg("output_size");
    bool allOnes = os.isList() && os.lengthKnown() && !os.elements().empty();
    if (allOnes)
      for (const Value &v : os.elements())
        if (v.intValue() != std::optional<int64_t>(1)) allOnes = false;
    if (auto rk = c.rank("self").value()) {
      if (allOnes && k >= 2 && meanShortcut ? *rk < k : *rk < k + 1 || *rk > k + 2)
        return c.semantic("adaptive_avg_pool{}d: expected a {}-D or {}-D self, got {}-D", k, k + 1, k + 2, *rk);
    }
    if (allOnes && meanShortcut && isIntegral(d, true))
      return c.semantic("mean(): could not infer output dtype: input dtype must be floating point or complex, got {}",
                        name(d));
    if (!meanShortcut && isIntegral(d, true)) return c.missingKernel("no adaptive_avg_pool kernel for {}", name(d));
    return tensorOf(d, c.rank("self"));
  };
}

/// batch_norm-style: every present parameter has one dtype P; P equals the
/// input's, or the input is bf16 (2.14: or f16) and P is f32 (CPU mixed mode).
std::optional<RuleError> normParams(const OpCall &c, std::string_view in,
                                    std::initializer_list<std::string_view> params, bool allowMixed,
                                    std::optional<DType> *paramDtype = nullptr) {
  DType d = c.dtype(in);
  std::optional<DType> p;
  for (std::string_view n : params) {
    if (!c.isTensor(n)) continue;
    DType q = c.dtype(n);
    if (!p) p = q;
    else if (q != *p)
      return c.semantic("expected parameter {} to have dtype {}, but got {}", n, name(*p), name(q));
  }
  if (paramDtype) *paramDtype = p;
  if (!p || *p == d) return std::nullopt;
  bool reduced = d == DType::BFloat16 || (d == DType::Float16 && !c.lacksCpuKernel(CpuKernel::MixedNorm, d));
  if (allowMixed && reduced && *p == DType::Float32) return std::nullopt;
  return c.semantic("expected parameters to have dtype {} like the input, but got {}", name(d), name(*p));
}

RuleFn batchNormRule(bool native) {
  return [native](const OpCall &c) -> RuleResult {
    // Evaluation mode reads the running statistics: both must be given.
    // (native_batch_norm in eval mode without them crashes 1.13: not modelled.)
    if (!native)
      if (auto tr = c.arg("training").boolValue(); tr && !*tr)
        for (const char *n : {"running_mean", "running_var"})
          if (c.isNone(n)) return c.semantic("{} must be defined in evaluation mode", n);
    std::optional<DType> p;
    if (auto e = normParams(c, "input", {"weight", "bias", "running_mean", "running_var"}, true, &p)) return *e;
    DType d = c.dtype("input");
    Value out = tensorOf(d, c.rank("input"));
    if (!native) return out;
    // Statistics are computed in the parameters' dtype (float32 in the mixed bf16 mode, either training mode).
    Value stat = tensorOf(p.value_or(d), Rank::exact(1));
    return std::vector<Value>{out, stat, stat};
  };
}

/// Dropout in training with 0 < p < 1 needs a floating (or complex) input.
/// True when dropout really draws a mask: train and 0 < p < 1 (p == 0,
/// !train return the input, p == 1 multiplies by zero). Unknown: nullopt.
std::optional<bool> dropoutDraws(const OpCall &c) {
  // native_dropout's `bool? train`: None trains.
  auto train = c.isNone("train") ? std::optional<bool>(true) : c.arg("train").boolValue();
  auto p = c.arg("p").floatValue();
  if (train && !*train) return false;
  if (p && (*p <= 0 || *p >= 1)) return false;
  if (train && p) return true;
  return std::nullopt;
}

std::optional<RuleError> dropoutCheck(const OpCall &c, std::string_view in) {
  DType d = c.dtype(in);
  if (!isIntegral(d, true)) return std::nullopt;
  if (dropoutDraws(c).value_or(false))
    return c.semantic("result type float32 can't be cast to the desired output type {}", name(d));
  return std::nullopt;
}

RuleFn dropoutRule(std::string in, bool feature) {
  return [in, feature](const OpCall &c) -> RuleResult {
    // _dropout_impl checks p first, whatever train is.
    if (auto p = c.arg("p").floatValue(); p && !(*p >= 0 && *p <= 1))
      return c.semantic("dropout probability has to be between 0 and 1, but got {}", *p);
    // The feature noise (which needs 2 dims) is drawn only when dropout draws.
    if (feature && dropoutDraws(c).value_or(false))
      if (auto e = requireRankAtLeast(c, in, 2)) return *e;
    if (auto e = dropoutCheck(c, in)) return *e;
    return tensorOf(c.dtype(in), c.rank(in));
  };
}

/// _pad_enum(self, pad, mode, value) (F.pad in TorchScript, 1.13's
/// at::padding_mode: 0 reflect, 1 replicate, 2 circular, 3 constant),
/// measured on every dtype: the pad list must have an even length of at most
/// 2 * rank; constant mode is constant_pad_nd (any dtype, any rank, any
/// value); the other modes refuse a non-zero value and exist only for 2 pads
/// of a 2-D/3-D input, 4 of a 3-D/4-D, 6 of a 4-D/5-D (NotImplementedError
/// otherwise, and for a mode out of range); circular also wants exactly
/// 2 * (rank - 2) pads. The result keeps self's dtype and rank (the reflect
/// and replicate CPU kernels run float32/64 and complex64/128 only, 3-D
/// reflection float16/bfloat16 too: kernel gaps, as for reflection_pad*).
/// 2.14 (`NoBatchCircular`) also pads a circular input without its batch dim
/// (2 * (rank - 1) pads).
template <bool NoBatchCircular> RuleResult padEnum(const OpCall &c) {
  DType d = c.dtype("self");
  Rank r = c.rank("self");
  auto rk = r.value();
  const Value &pad = c.arg("pad");
  std::optional<int> n;
  if (pad.isList() && pad.lengthKnown()) n = static_cast<int>(pad.elements().size());
  if (n && *n % 2) return c.semantic("padding length must be divisible by 2, got {}", *n);
  if (n && rk && *n > 2 * *rk) return c.semantic("padding length too large ({} for a {}-D input)", *n, *rk);
  auto mode = c.arg("mode").intValue();
  // Constant mode fills with a given value (2.14: 0.0 does not fit float8_e8m0fnu).
  if (mode && *mode == 3 && !c.isNone("value"))
    if (auto e = checkedFill(c, "value", d, r)) return *e;
  if (!mode || *mode == 3) return tensorOf(d, r);
  if (!c.isNone("value"))
    if (auto v = c.arg("value").floatValue(); v && *v != 0)
      return c.semantic("padding mode {} doesn't take in value argument", *mode);
  if (!n || !rk) return tensorOf(d, r);
  bool supported = *mode >= 0 && *mode <= 2 &&
                   ((*n == 2 && (*rk == 2 || *rk == 3)) || (*n == 4 && (*rk == 3 || *rk == 4)) ||
                    (*n == 6 && (*rk == 4 || *rk == 5)));
  if (!supported)
    return c.semantic("only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now (mode {}, {} pads, "
                      "{}-D input)", *mode, *n, *rk);
  if (*mode == 2 && *n != 2 * (*rk - 2) && !(NoBatchCircular && *n == 2 * (*rk - 1)))
    return c.semantic("circular padding: invalid padding size, expected {} but got {}", 2 * (*rk - 2), *n);
  return tensorOf(d, r);
}

/// _upsample_bilinear2d_aa (antialiased bilinear interpolation, as in
/// torchvision's resize): a 4-D input; the CPU kernel runs float32 and
/// float64 only, 2.14 also uint8 (measured; CUDA has half and bfloat16).
RuleFn upsampleAa(std::string in) {
  return [in](const OpCall &c) -> RuleResult {
    if (auto rk = c.rank(in).value(); rk && *rk != 4)
      return c.semantic("expected a 4-D input (N, C, H, W), got {}-D", *rk);
    DType d = c.dtype(in);
    if (d != DType::Float32 && d != DType::Float64 && !(d == DType::UInt8 && !c.lacksCpuKernel(CpuKernel::AntialiasUpsample, d)))
      return c.missingKernel("no CPU antialiased upsampling kernel for {}", name(d));
    return tensorOf(d, Rank::exact(4));
  };
}

/// Pooling: max, average, adaptive and fractional.
void registerPooling(Registry &r) {
  const char *pool = "nn.pool";
  struct Pool { const char *key; int rank; const char *kernel; const char *outKey = nullptr; };
  for (Pool p : std::vector<Pool>{{"aten::max_pool1d", 3, "[1]"}, {"aten::max_pool2d", 4, "[1,1]"},
                                  {"aten::max_pool3d", 5, "[1,1,1]"}, {"aten::avg_pool1d", 3, "[1]"},
                                  {"aten::avg_pool2d", 4, "[1,1]"}, {"aten::avg_pool3d", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    const bool isMax = std::string_view(p.key).starts_with("aten::max");
    auto e = r.add(p.key, pool, leadingFacts(keepInput("self", p.rank - 1), "self", p.rank - 2)).sample("self", shape)
        .sample("kernel_size", p.kernel).variant({{"self", shape}, {"kernel_size", p.kernel}, {"stride", p.kernel}})
        .atLeast("kernel_size", 1, "kernel size should be greater than zero")
        .atLeast("stride", 1, "stride should not be zero")
        .refuse(checks::poolWindow(p.rank - 2, isMax), {{"padding", "[1]"}})
        .variant({{"kernel_size", p.rank == 3 ? "[1,1]" : "[1,1,1,1]"}});
    if (isMax) e.variant({{"dilation", "[0]"}});
    if (!isMax && p.rank > 3)
      e.refuse(checks::notEqual("divisor_override", 0, "divisor must be not zero"), {{"divisor_override", "0"}});
  }
  for (Pool p : std::vector<Pool>{{"aten::max_pool1d_with_indices", 3, "[1]"},
                                  {"aten::max_pool2d_with_indices", 4, "[1,1]"},
                                  {"aten::max_pool3d_with_indices", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    r.add(p.key, pool, leadingFacts(withIndices(p.rank - 1), "self", p.rank - 2)).sample("self", shape)
        .sample("kernel_size", p.kernel)
        .atLeast("kernel_size", 1, "kernel size should be greater than zero")
        .atLeast("stride", 1, "stride should not be zero")
        .refuse(checks::poolWindow(p.rank - 2, true), {{"padding", "[1]"}}).variant({{"dilation", "[0]"}})
        .variant({{"stride", p.rank == 3 ? "[1,1]" : "[1,1,1,1]"}});
  }
  // fractional_max_pool2d/3d: float32/float64 (CPU), random_samples of the
  // input's dtype; the values and int64 indices keep the input's rank.
  for (auto [k, key] : {std::pair{2, "aten::fractional_max_pool2d"}, std::pair{3, "aten::fractional_max_pool3d"}}) {
    r.add(key, pool, [k = k](const OpCall &c) -> RuleResult {
       DType d = c.dtype("self");
       auto rk = c.rank("self").value();
       if (rk && *rk != k + 1 && *rk != k + 2)
         return c.semantic("fractional_max_pool{}d: expected a {}-D or {}-D input, got {}-D", k, k + 1, k + 2, *rk);
       if (d != DType::Float32 && d != DType::Float64 &&
           !((d == DType::Float16 || d == DType::BFloat16) && !c.lacksCpuKernel(CpuKernel::FractionalMaxPool, d)))
         return c.missingKernel("no fractional_max_pool kernel for {}", name(d));
       if (c.dtype("random_samples") != d)
         return c.semantic("random_samples ({}) must have the input's dtype ({})", name(c.dtype("random_samples")), name(d));
       Rank r = c.rank("self");
       return std::vector<Value>{tensorOf(d, r), tensorOf(DType::Int64, r)};
     }).sample("self", k == 2 ? "sweep![1,1,4,4]" : "sweep![1,1,4,4,4]").sample("kernel_size", k == 2 ? "[2,2]" : "[2,2,2]")
        .sample("output_size", k == 2 ? "[2,2]" : "[2,2,2]").sample("random_samples", "sweep![1,1," + std::to_string(k) + "]=0.5");
  }
  for (Pool p : std::vector<Pool>{{"aten::adaptive_avg_pool1d", 3, "[1]"},
                                  {"aten::adaptive_avg_pool2d", 4, "[1,1]", "aten::adaptive_avg_pool2d.out"},
                                  {"aten::adaptive_avg_pool3d", 5, "[1,1,1]", "aten::adaptive_avg_pool3d.out"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    const std::string twos = p.rank == 3 ? "[2]" : p.rank == 4 ? "[2,2]" : "[2,2,2]";
    r.add(p.key, pool, leadingFacts(adaptiveAvg(p.rank - 2), "self", p.rank - 2, "output_size")).sample("self", shape)
        .sample("output_size", p.kernel)
        .variant({{"self", "sweep![2,2]"}, {"output_size", p.kernel}})      // k dims: the mean shortcut only
        .variant({{"self", "sweep![2,2,2,2,2,2]"}, {"output_size", p.kernel}})
        .variant({{"self", "float32[2,2,2,2,2,2]"}, {"output_size", twos}})
        .variant({{"self", "float32[2]"}, {"output_size", p.kernel}})
        .atLeast("output_size", 0, "elements of output_size must be greater than or equal to 0");
    if (!p.outKey) continue;
    // The .out forms: the pooling kernel itself, out of self's dtype (another: unknown).
    RuleFn kernel = leadingFacts(adaptiveAvg(p.rank - 2, false), "self", p.rank - 2, "output_size");
    r.add(p.outKey, "out_variant", [kernel](const OpCall &c) -> RuleResult {
       RuleResult res = kernel(c);
       return res.ok() ? RuleResult(intoOutArguments(c, res.takeOutputs(), 1)) : res;
     }).sample("self", shape).sample("output_size", p.kernel).sample("out", "float32[2]")
        .variant({{"self", "sweep![2,2]"}, {"output_size", p.kernel}, {"out", "float32[2]"}})
        .variant({{"self", "sweep![2,2,2,2,2,2]"}, {"output_size", p.kernel}, {"out", "float64[2]"}});
  }
  r.add("aten::_adaptive_avg_pool2d", pool, keepInput("self", 3))
      .sample("self", "sweep![1,1,2,2]").sample("output_size", "[1,1]");
  for (Pool p : std::vector<Pool>{{"aten::adaptive_max_pool1d", 3, "[1]"},
                                  {"aten::adaptive_max_pool2d", 4, "[1,1]"},
                                  {"aten::adaptive_max_pool3d", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    r.add(p.key, pool, leadingFacts(withIndices(p.rank - 1), "self", p.rank - 2, "output_size")).sample("self", shape)
        .sample("output_size", p.kernel)
        .atLeast("output_size", 0, "elements of output_size must be greater than or equal to 0");
  }
  auto unpool = [](const OpCall &c) -> RuleResult {
    if (auto e = requireInt64(c, "indices")) return *e;
    return tensorOf(c.dtype("self"), c.rank("self"));
  };
  r.add("aten::max_unpool2d", pool, unpool)
      .sample("self", "sweep![1,1,2,2]").sample("indices", "sweep![1,1,2,2]=0").sample("output_size", "[2,2]")
      .refuse(checks::rankIn("self", {3, 4}, "Input to max_unpooling2d should be a 3d or 4d Tensor"),
              {{"self", "float32[2,2]"}, {"indices", "int64[2,2]=0"}});
  r.add("aten::max_unpool3d", pool, checks::before(checks::rankIn("self", {4, 5}, "Input to max_unpooling3d should be a 4d or 5d Tensor"), unpool))
      .sample("self", "sweep![1,1,2,2,2]").sample("indices", "sweep![1,1,2,2,2]=0")
      .sample("output_size", "[2,2,2]").sample("stride", "[1,1,1]").sample("padding", "[0,0,0]")
      .variant({{"self", "float32[2,2]"}, {"indices", "int64[2,2]=0"}});
  r.add("aten::max_pool2d_with_indices_backward", pool, [](const OpCall &c) -> RuleResult {
     if (auto e = requireInt64(c, "indices")) return *e;
     if (auto e = requireSame(c, {"self", "grad_output"})) return *e;
     return tensorOf(c.dtype("self"), c.rank("self"));
   }).sample("grad_output", "sweep![1,1,2,2]").sample("self", "sweep![1,1,2,2]").sample("indices", "sweep![1,1,2,2]=0")
      .sample("kernel_size", "[1,1]").sample("stride", "[1,1]").sample("padding", "[0,0]").sample("dilation", "[1,1]")
      .sample("ceil_mode", "False");
}

/// Normalization: batch, instance, layer and group norms.
void registerNormalization(Registry &r) {
  // Normalization.
  const char *norm = "nn.norm";
  r.add("aten::batch_norm", norm, batchNormRule(false))
      .sample("input", "sweep![2,2,2]").sample("weight", "sweep![2]").sample("bias", "sweep![2]")
      .sample("running_mean", "sweep![2]").sample("running_var", "sweep![2]").sample("training", "False")
      .sample("momentum", "0.1").sample("eps", "1e-05").sample("cudnn_enabled", "False")
      .variant({{"input", "float32[2,3,4]"}, {"weight", "float32[3]"}, {"bias", "float32[3]"},
                {"running_mean", "float32[3]"}, {"running_var", "float32[3]"}});
  // 2.14's native_batch_norm wants both running statistics or neither.
  const RuleFn bothOrNeither = [bn = batchNormRule(true)](const OpCall &c) -> RuleResult {
    if (c.isNone("running_mean") != c.isNone("running_var"))
      return c.semantic("running_mean and running_var must either both be None or neither be None");
    return bn(c);
  };
  // native_batch_norm.out has no CPU kernel in 1.13 (every call raises
  // "Could not run ... with arguments from the 'CPU' backend"), so no rule of
  // it could be checked here: left without one.
  r.declare("aten::native_batch_norm.out", OpFact::NoOutRule);
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), batchNormRule(true)},
                             std::pair{r.since(TorchVersion::V2_14), bothOrNeither}})
    scope.add("aten::native_batch_norm", norm, rule)
        .sample("input", "sweep![2,2,2]").sample("weight", "sweep![2]").sample("bias", "sweep![2]")
        .sample("running_mean", "sweep![2]").sample("running_var", "sweep![2]").sample("training", "True")
        .sample("momentum", "0.1").sample("eps", "1e-05")
        .variant({{"input", "float32[2,3,4]"}, {"weight", "float32[3]"}, {"bias", "float32[3]"},
                  {"running_mean", "float32[3]"}, {"running_var", "float32[3]"}, {"training", "False"}})
        .variant({{"input", "float64[2,3]"}, {"weight", "None"}, {"bias", "None"}, {"running_mean", "None"},
                  {"running_var", "None"}});
  // 2.x's _native_batch_norm_legit family (what torch.export's core ATen
  // decomposes batch_norm into): native_batch_norm's dtypes. no_stats has no
  // running statistics; the functional form also returns the updated ones.
  const RuleFn legit = batchNormRule(true);
  // (libtorch 2.14 crashes running no_stats out of training: only training is sampled there.)
  auto bnSamples = [](Registry::Entry e, bool stats, bool training, bool evalToo = true) {
    e.sample("input", "sweep![2,2,2]").sample("weight", "sweep![2]").sample("bias", "sweep![2]")
        .sample("momentum", "0.1").sample("eps", "1e-05");
    if (stats) e.sample("running_mean", "sweep![2]").sample("running_var", "sweep![2]");
    if (training) e.sample("training", "True");
    if (training && evalToo) e.variant({{"training", "False"}});
  };
  bnSamples(r.add("aten::_native_batch_norm_legit", norm, legit), true, true);
  bnSamples(r.add("aten::_native_batch_norm_legit_no_training", norm, legit), true, false);
  bnSamples(r.add("aten::_native_batch_norm_legit.no_stats", norm, [](const OpCall &c) -> RuleResult {
              std::optional<DType> p;
              if (auto e = normParams(c, "input", {"weight", "bias"}, true, &p)) return *e;
              DType d = c.dtype("input");
              Value stat = tensorOf(p.value_or(d), Rank::exact(1));
              return std::vector<Value>{tensorOf(d, c.rank("input")), stat, stat};
            }), false, true, false);
  bnSamples(r.add("aten::_native_batch_norm_legit_functional", norm, [legit](const OpCall &c) -> RuleResult {
              RuleResult out = legit(c);
              if (!out.ok()) return out;
              std::vector<Value> v = out.takeOutputs();
              for (const char *n : {"running_mean", "running_var"}) v.push_back(tensorOf(c.dtype(n), c.rank(n)));
              return v;
            }), true, true);
  r.add("aten::instance_norm", norm, [](const OpCall &c) -> RuleResult {
     if (auto u = c.arg("use_input_stats").boolValue(); u && !*u)
       if (c.isNone("running_mean") || c.isNone("running_var"))
         return c.semantic("expected running_mean and running_var to be defined when use_input_stats is false");
     if (auto e = normParams(c, "input", {"weight", "bias", "running_mean", "running_var"}, true)) return *e;
     return tensorOf(c.dtype("input"), c.rank("input"));
   }).sample("input", "sweep![2,2,2]").sample("weight", "sweep![2]").sample("bias", "sweep![2]")
      .sample("running_mean", "None").sample("running_var", "None").sample("use_input_stats", "True")
      .sample("momentum", "0.1").sample("eps", "1e-05").sample("cudnn_enabled", "False");
  // 1.13: one dtype for input and parameters. 2.14: also the mixed mode of
  // batch_norm (a bfloat16 or float16 input, float32 parameters; the
  // statistics in the parameters' dtype).
  for (auto [scope, mixed] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_6), true}}) {
    auto params = [mixed = mixed](const OpCall &c, DType &stat) -> std::optional<RuleError> {
      stat = c.dtype("input");
      if (!mixed) return requireSame(c, {"input", "weight", "bias"});
      std::optional<DType> p;
      auto e = normParams(c, "input", {"weight", "bias"}, true, &p);
      stat = p.value_or(stat);
      return e;
    };
    scope.add("aten::layer_norm", norm, keepingShape([params](const OpCall &c) -> RuleResult {
       DType stat;
       if (auto e = params(c, stat)) return *e;
       return tensorOf(c.dtype("input"), c.rank("input"));
     }, "input")).sample("input", "sweep![2,2,2]").sample("normalized_shape", "[2]").sample("weight", "sweep![2]")
        .sample("bias", "sweep![2]");
    scope.add("aten::native_layer_norm", norm, [params](const OpCall &c) -> RuleResult {
       DType stat;
       if (auto e = params(c, stat)) return *e;
       Value s = tensorOf(stat, c.rank("input"));
       return std::vector<Value>{tensorOf(c.dtype("input"), c.rank("input")), s, s};
     }).sample("input", "sweep![2,2,2]").sample("normalized_shape", "[2]").sample("weight", "sweep![2]")
        .sample("bias", "sweep![2]").sample("eps", "1e-05");
    scope.add("aten::group_norm", norm, [params](const OpCall &c) -> RuleResult {
       DType stat;
       if (auto e = params(c, stat)) return *e;
       return tensorOf(c.dtype("input"), c.rank("input"));
     }).atLeast("num_groups", 1, "Expected num groups to be greater than 0")
        .sample("input", "sweep![2,2,2]").sample("num_groups", "1").sample("weight", "sweep![2]")
        .sample("bias", "sweep![2]");
    scope.add("aten::native_group_norm", norm, [params](const OpCall &c) -> RuleResult {
       DType stat;
       if (auto e = params(c, stat)) return *e;
       return std::vector<Value>{tensorOf(c.dtype("input"), c.rank("input")), tensorOf(stat, Rank::exact(2)),
                                 tensorOf(stat, Rank::exact(2))};
     }).sample("input", "sweep![2,2,2]").sample("weight", "sweep![2]").sample("bias", "sweep![2]")
        .sample("N", "2").sample("C", "2").sample("HxW", "2").sample("group", "1").sample("eps", "1e-05");
  }
}

/// rms_norm and the weight norms.
void registerRmsAndWeightNorms(Registry &r) {
  const char *norm = "nn.norm";
  // 2.14: input's dtype whatever the weight's (a weight of another dtype takes
  // the composite path, which casts back: measured on 2.14). 2.6's composite
  // casts back before it multiplies by the weight, so its result is
  // promote(input, weight) (measured on 2.6.0: float16 input, float32 weight
  // gives float32).
  // The normalized input (in its compute type) is multiplied by the weight:
  // that promotion raises where it does (2.14: with a float8 weight).
  // normalized_shape names input's last dims: at least one, and no more
  // than input has (so a 0-dim input always raises; measured on 2.14.1).
  for (auto [scope, castsBack] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_14), true}})
  scope.add("aten::rms_norm", norm, keepingShape([castsBack = castsBack](const OpCall &c) -> RuleResult {
     const Value &shape = c.arg("normalized_shape");
     if (shape.isList() && shape.lengthKnown() && shape.elements().empty())
       return c.error(ErrorKind::ValueDependent, "Expected normalized_shape to be at least 1-dimensional, i.e., "
                                                 "containing at least one element, but got normalized_shape = []");
     const size_t least = shape.isList() && shape.lengthKnown() ? shape.elements().size() : 1;
     if (auto k = c.rank("input").value(); k && static_cast<size_t>(*k) < least)
       return c.semantic("Input tensor must have at least {} dimensions, but got {}", least, *k);
     if (c.isTensor("weight") && !castsBack) return tensorOf(c.promote(c.dtype("input"), c.dtype("weight")), c.rank("input"));
     if (c.isTensor("weight")) (void)c.promote(computeType(c.dtype("input")), c.dtype("weight"));
     return tensorOf(c.dtype("input"), c.rank("input"));
   }, "input")).sample("input", "sweep![2,2,2]").sample("normalized_shape", "[2]").sample("weight", "sweep![2]")
      .variant({{"input", "sweep![2,2]"}, {"normalized_shape", "[2]"}, {"weight", "None"}})
      .variant({{"input", "sweep![]"}, {"normalized_shape", "[1]"}, {"weight", "None"}})
      .variant({{"input", "float32[2]"}, {"normalized_shape", "[]"}, {"weight", "None"}})
      .variant({{"input", "float32[2]"}, {"normalized_shape", "[1,2]"}, {"weight", "None"}});
  // The norms are float32 for a bfloat16 v, and in 2.14 (which has a
  // float16 kernel) for a float16 one (scripts/probes/weight_norm_ldexp.py).
  for (auto [scope, halfNormsFloat] : {std::pair{r.since(TorchVersion::V1_13), false},
                                       std::pair{r.since(TorchVersion::V2_14), true}})
    scope.add("aten::_weight_norm_interface", norm, [halfNormsFloat = halfNormsFloat](const OpCall &c) -> RuleResult {
       if (auto e = requireSame(c, {"v", "g"})) return *e;
       DType d = c.dtype("v");
       DType nd = d == DType::BFloat16 || (halfNormsFloat && d == DType::Float16) ? DType::Float32 : d;
       return std::vector<Value>{tensorOf(d, c.rank("v")), tensorOf(nd, c.rank("g"))};
     }).sample("v", "sweep![2,2]").sample("g", "sweep![2,1]");
  // _weight_norm(v, g, dim) (what nn.utils.weight_norm traces to): the fused
  // kernel above when neither is half and dim is 0 or v's last (one dtype:
  // float, double or bfloat16); otherwise v * (g / norm_except_dim(v, 2,
  // dim)), which promotes (dim -1: a 0-dim norm). 2.14's fused kernel also
  // takes float16 (`halfFused`), so half no longer goes the composite way
  // (2.6 answers as 1.13: scripts/probes/weight_norm_ldexp.py).
  for (auto [scope, halfFused] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_14), true}})
  scope.add("aten::_weight_norm", norm, [halfFused = halfFused](const OpCall &c) -> RuleResult {
     const DType v = c.dtype("v"), g = c.dtype("g");
     const Rank rv = c.rank("v"), rg = c.rank("g");
     const auto k = rv.value();
     const auto dim = c.arg("dim").intValue();
     if (!k || !dim || *k == 0) return Value::tensor(DTypeSet::all(), Rank::top());
     if (*dim >= *k || *dim < -*k)
       return c.semantic("Dimension out of range (expected to be in range of [{}, {}], but got {})", -*k, *k - 1, *dim);
     const bool half = !halfFused && (v == DType::Float16 || g == DType::Float16);
     if (!half && (*dim == 0 || *dim == *k - 1)) {
       if (v != g) return c.semantic("expected scalar type {} but found {}", name(v), name(g));
       if (v != DType::Float32 && v != DType::Float64 && v != DType::BFloat16 && !(halfFused && v == DType::Float16))
         return c.missingKernel("weight_norm_kernel not implemented for {}", name(v));
       return tensorOf(v, rv);
     }
     if (!isFloating(v) && !isComplex(v))
       return c.semantic("norm(): input dtype should be either floating point or complex, got {}", name(v));
     const Rank rn = *dim == -1 ? Rank::exact(0) : rv, rq = broadcastRank({rg, rn});
     const PromotionOperand quotient[] = {{g, tierOf(rg)}, {toRealValueType(v), tierOf(rn)}};
     const PromotionOperand product[] = {{v, tierOf(rv)}, {c.resultType(quotient), tierOf(rq)}};
     return tensorOf(c.resultType(product), broadcastRank({rv, rq}));
   }).sample("v", "sweep![2,2]").sample("g", "sweep![2,1]")
      .variant({{"v", "sweep![2,3]"}, {"g", "sweep![1,3]"}, {"dim", "1"}})
      .variant({{"v", "sweep![2,3]"}, {"g", "sweep![]"}, {"dim", "-1"}})
      .variant({{"v", "sweep![2,3,2]"}, {"g", "sweep![1,3,1]"}, {"dim", "1"}})
      .variant({{"v", "sweep![2,3]"}, {"g", "sweep![2,1]"}, {"dim", "-2"}});
}

/// Embeddings and embedding bags.
void registerEmbeddings(Registry &r) {
  // Embeddings.
  const char *emb = "nn.embedding";
  r.add("aten::embedding", emb, [](const OpCall &c) -> RuleResult {
     DType i = c.dtype("indices");
     if (i != DType::Int32 && i != DType::Int64)
       return c.semantic("expected indices to be int32 or int64, but got {}", name(i));
     Rank ir = c.rank("indices");
     Rank out = ir.value() ? Rank::exact(*ir.value() + 1) : Rank::atLeast1();
     return tensorOf(c.dtype("weight"), out);
   }).sample("weight", "sweep![2,2]").sample("indices", "sweep[2]=0")
      .refuse(checks::rankIn("weight", {2}, "'weight' must be 2-D"), {{"weight", "float32[2]"}});
  // embedding_renorm: rescales rows of a floating or complex weight in place.
  for (const char *k : {"aten::embedding_renorm", "aten::embedding_renorm_"})
    r.add(k, emb, [](const OpCall &c) -> RuleResult {
       DType d = c.dtype("self"), i = c.dtype("indices");
       if (!isFloating(d) && !isComplex(d)) return c.missingKernel("no embedding_renorm kernel for {}", name(d));
       if (i != DType::Int32 && i != DType::Int64)
         return c.semantic("expected indices to be int32 or int64, but got {}", name(i));
       return tensorOf(d, c.rank("self"));
     }).sample("self", "sweep![3,2]").sample("indices", "sweep[2]=0").sample("max_norm", "1.0").sample("norm_type", "2.0")
        .refuse(checks::rankIn("self", {2}, "Expected 2-dimensional tensor for argument #1 'self'"),
                {{"self", "float32[3,2,1]"}});
  // 2.14 also takes a bfloat16 weight.
  auto bag = [](const OpCall &c, bool bfloat16Weight) -> RuleResult {
    DType w = c.dtype("weight");
    if (w != DType::Float16 && w != DType::Float32 && w != DType::Float64 && !(bfloat16Weight && w == DType::BFloat16))
      return c.semantic("expected weight to be float16, float32 or float64, but got {}", name(w));
    // 1.13 first promotes indices and offsets to their common type, then
    // requires that to be int32 or int64 (uint8 + int32 indices work).
    DType i = c.dtype("indices"), o = c.dtype("offsets");
    DType idx = c.promote(i, o);
    if (idx != DType::Int32 && idx != DType::Int64)
      return c.semantic("expected indices ({}) and offsets ({}) to promote to int32 or int64, but got {}", name(i),
                        name(o), name(idx));
    if (c.isTensor("per_sample_weights")) {
      auto mode = c.arg("mode").intValue();
      if (mode && *mode != 0)
        return c.semantic("per_sample_weights only supported with mode='sum'");
      if (c.dtype("per_sample_weights") != w)
        return c.semantic("expected per_sample_weights to have the dtype of weight ({}), got {}", name(w),
                          name(c.dtype("per_sample_weights")));
    }
    auto mode = c.arg("mode").intValue();
    Rank maxRank = mode ? Rank::exact(*mode == 2 ? 2 : 1) : Rank::atLeast1();
    return std::vector<Value>{tensorOf(w, Rank::exact(2)), tensorOf(idx, Rank::exact(1)),
                              tensorOf(idx, Rank::exact(1)), tensorOf(idx, maxRank)};
  };
  // _embedding_bag_forward_only is what embedding_bag runs when nothing
  // requires grad (and what core-ATen decompositions record); its results'
  // dtypes are _embedding_bag's.
  for (const char *k : {"aten::embedding_bag", "aten::_embedding_bag", "aten::_embedding_bag_forward_only",
                        "aten::embedding_bag.padding_idx"})
    for (auto [scope, bfloat16Weight] : {std::pair{r.since(TorchVersion::V1_13), false},
                                         std::pair{r.since(TorchVersion::V2_6), true}}) {
      auto e = scope.add(k, emb, [bag, bfloat16Weight = bfloat16Weight](const OpCall &c) { return bag(c, bfloat16Weight); });
      e.sample("weight", "sweep![2,2]").sample("indices", "sweep![2]=0").sample("offsets", "sweep![1]=0")
          .sample("per_sample_weights", "None");
      if (std::string(k) == "aten::embedding_bag.padding_idx")
        e.sample("scale_grad_by_freq", "False").sample("mode", "0").sample("sparse", "False")
            .sample("include_last_offset", "False").sample("padding_idx", "None");
      // Sizes: mean and max bags (sum's offset2bag depends on the kernel's path).
      for (const char *mode : {"1", "2"})
        e.variant({{"weight", "float32[5,3]"}, {"indices", "int64[4]=0"}, {"offsets", "int64[2]=0"}, {"mode", mode}});
    }
}

/// Dropout.
void registerDropout(Registry &r) {
  // Dropout.
  const char *drop = "nn.dropout";
  for (const char *k : {"aten::dropout", "aten::alpha_dropout"})
    r.add(k, drop, keepingShape(dropoutRule("input", false), "input")).sample("p", "0.5").sample("train", "True")
        .variant({{"train", "False"}}).variant({{"p", "2.0"}, {"train", "False"}});
  for (const char *k : {"aten::feature_dropout", "aten::feature_alpha_dropout"})
    r.add(k, drop, keepingShape(dropoutRule("input", true), "input")).sample("input", "sweep![2,2]").sample("p", "0.5").sample("train", "True")
        .variant({{"input", "sweep[2]"}, {"train", "False"}}).variant({{"input", "sweep[2]"}, {"p", "1.0"}})
        .variant({{"input", "sweep[2]"}}).variant({{"p", "1.5"}, {"train", "False"}});
  for (const char *k : {"aten::dropout_", "aten::alpha_dropout_"})
    r.add(k, drop, dropoutRule("self", false)).sample("p", "0.5").sample("train", "True");
  for (const char *k : {"aten::feature_dropout_", "aten::feature_alpha_dropout_"})
    r.add(k, drop, dropoutRule("self", true)).sample("self", "sweep![2,2]").sample("p", "0.5").sample("train", "True")
        .variant({{"self", "sweep[2]"}, {"train", "False"}});
  r.add("aten::native_dropout", drop, keepingShape([](const OpCall &c) -> RuleResult { // output and mask
     // The CPU kernel draws bernoulli(1 - p) only when training.
     auto train = c.isNone("train") ? std::optional<bool>(true) : c.arg("train").boolValue();
     if (auto p = c.arg("p").floatValue(); train && *train && p && !(*p >= 0 && *p <= 1))
       return c.semantic("bernoulli_ expects p to be in [0, 1], but got p={}", 1 - *p);
     if (auto e = dropoutCheck(c, "input")) return *e;
     // Training multiplies the input by the bool mask: a promotion that
     // raises where it does (2.14: float8).
     if (train && *train) (void)c.promote(c.dtype("input"), DType::Bool);
     Rank rk = c.rank("input");
     return std::vector<Value>{tensorOf(c.dtype("input"), rk), tensorOf(DType::Bool, rk)};
   }, "input")).sample("p", "0.5").sample("train", "True").variant({{"train", "False"}})
      .variant({{"p", "1.5"}}).variant({{"p", "1.5"}, {"train", "False"}}).variant({{"train", "None"}});
}

/// float32 variants whose sizes exercise the shape rules (non-trivial
/// batch and channel sizes, a non-integral scale, the size errors).
void sizeVariants(Registry::Entry &e, std::string_view key, const std::string &in, int rank) {
  const int spatial = rank - 2;
  auto dims = [](std::initializer_list<int> all, int n) {
    std::vector<std::string> v;
    for (int d : all) v.push_back(std::to_string(d));
    v.resize(n);
    return fmt::format("{}", fmt::join(v, ","));
  };
  auto scales = [](int n) { // 1.7 * 3 = 5.1, 0.6 * 5 = 3.0, 2.5 * 7 = 17.5: truncated
    std::vector<std::string> v{"1.7", "0.6", "2.5"};
    v.resize(n);
    return fmt::format("[{}]", fmt::join(v, ","));
  };
  if (key.find("upsample") != std::string::npos) {
    std::string x = "float32[2,3," + dims({3, 5, 7}, spatial) + "]";
    if (key.ends_with(".vec"))
      e.variant({{in, x}, {"output_size", "None"}, {"scale_factors", scales(spatial)}});
    e.variant({{in, x}, {"output_size", "[" + dims({5, 1, 4}, spatial) + "]"}});
  } else if (key.find("_pad") != std::string::npos) {
    const int padded = rank - 1; // (the least rank is the unbatched one)
    std::string x = "float32[2,3," + dims({3, 5, 4}, padded) + "]";
    e.variant({{in, x}, {"padding", "[" + dims({2, 0, 1, 2, 0, 1}, 2 * padded) + "]"}});
    e.variant({{in, x}, {"padding", "[" + dims({3, 1, 0, 0, 1, 1}, 2 * padded) + "]"}}); // reflection: too large
  } else if (key == "aten::pixel_shuffle") {
    e.variant({{in, "float32[2,8,3,5]"}}).variant({{in, "float32[2,5,3,5]"}});
  } else if (key == "aten::pixel_unshuffle") {
    e.variant({{in, "float32[2,3,4,6]"}}).variant({{in, "float32[2,3,4,5]"}});
  }
}

/// Resampling, padding, shuffles: the input's dtype and rank.
void registerResampling(Registry &r) {
  // Resampling, padding, shuffles: the input's dtype and rank.
  const char *rs = "nn.resample";
  struct Keep { const char *key; const char *in; int minRank; std::map<std::string, std::string, std::less<>> s; };
  for (const Keep &k : std::vector<Keep>{
           {"aten::upsample_nearest1d", "self", 3, {{"self", "sweep![1,1,2]"}, {"output_size", "[4]"}}},
           {"aten::upsample_nearest2d", "self", 4, {{"self", "sweep![1,1,2,2]"}, {"output_size", "[4,4]"}}},
           {"aten::upsample_nearest3d", "self", 5, {{"self", "sweep![1,1,2,2,2]"}, {"output_size", "[4,4,4]"}}},
           {"aten::upsample_bilinear2d", "self", 4, {{"self", "sweep![1,1,2,2]"}, {"output_size", "[4,4]"}, {"align_corners", "False"}}},
           {"aten::upsample_linear1d", "self", 3, {{"self", "sweep![1,1,2]"}, {"output_size", "[4]"}, {"align_corners", "False"}}},
           {"aten::upsample_bicubic2d", "self", 4, {{"self", "sweep![1,1,2,2]"}, {"output_size", "[4,4]"}, {"align_corners", "False"}}},
           {"aten::upsample_trilinear3d", "self", 5, {{"self", "sweep![1,1,2,2,2]"}, {"output_size", "[4,4,4]"}, {"align_corners", "False"}}},
           {"aten::upsample_nearest1d.vec", "input", 3, {{"input", "sweep![1,1,2]"}, {"output_size", "[4]"}, {"scale_factors", "None"}}},
           {"aten::upsample_nearest2d.vec", "input", 4, {{"input", "sweep![1,1,2,2]"}, {"output_size", "[4,4]"}, {"scale_factors", "None"}}},
           {"aten::upsample_nearest3d.vec", "input", 5, {{"input", "sweep![1,1,2,2,2]"}, {"output_size", "[4,4,4]"}, {"scale_factors", "None"}}},
           {"aten::upsample_bilinear2d.vec", "input", 4, {{"input", "sweep![1,1,2,2]"}, {"output_size", "[4,4]"}, {"align_corners", "False"}, {"scale_factors", "None"}}},
           {"aten::upsample_linear1d.vec", "input", 3, {{"input", "sweep![1,1,2]"}, {"output_size", "[4]"}, {"align_corners", "False"}, {"scale_factors", "None"}}},
           {"aten::upsample_bicubic2d.vec", "input", 4, {{"input", "sweep![1,1,2,2]"}, {"output_size", "[4,4]"}, {"align_corners", "False"}, {"scale_factors", "None"}}},
           {"aten::upsample_trilinear3d.vec", "input", 5, {{"input", "sweep![1,1,2,2,2]"}, {"output_size", "[4,4,4]"}, {"align_corners", "False"}, {"scale_factors", "None"}}},
           {"aten::_upsample_nearest_exact1d", "self", 3, {{"self", "sweep![1,1,2]"}, {"output_size", "[4]"}}},
           {"aten::_upsample_nearest_exact2d", "self", 4, {{"self", "sweep![1,1,2,2]"}, {"output_size", "[4,4]"}}},
           {"aten::_upsample_nearest_exact3d", "self", 5, {{"self", "sweep![1,1,2,2,2]"}, {"output_size", "[4,4,4]"}}},
           {"aten::_upsample_nearest_exact1d.vec", "input", 3, {{"input", "sweep![1,1,2]"}, {"output_size", "[4]"}, {"scale_factors", "None"}}},
           {"aten::_upsample_nearest_exact2d.vec", "input", 4, {{"input", "sweep![1,1,2,2]"}, {"output_size", "[4,4]"}, {"scale_factors", "None"}}},
           {"aten::_upsample_nearest_exact3d.vec", "input", 5, {{"input", "sweep![1,1,2,2,2]"}, {"output_size", "[4,4,4]"}, {"scale_factors", "None"}}},
           {"aten::__interpolate", "input", 3, {{"input", "sweep![1,1,2,2]"}, {"size", "4"}}},
           {"aten::__interpolate.scale_list", "input", 3, {{"input", "sweep![1,1,2,2]"}, {"scale_factor", "[2.0,2.0]"}}},
           {"aten::__interpolate.size_list", "input", 3, {{"input", "sweep![1,1,2,2]"}, {"size", "[4,4]"}}},
           {"aten::__interpolate.size_list_scale_list", "input", 3, {{"input", "sweep![1,1,2,2]"}, {"size", "[4,4]"}}},
           {"aten::reflection_pad1d", "self", 2, {{"self", "sweep![1,1,2]"}, {"padding", "[1,1]"}}},
           {"aten::reflection_pad2d", "self", 3, {{"self", "sweep![1,1,2,2]"}, {"padding", "[1,1,1,1]"}}},
           {"aten::reflection_pad3d", "self", 4, {{"self", "sweep![1,1,2,2,2]"}, {"padding", "[1,1,1,1,1,1]"}}},
           {"aten::replication_pad1d", "self", 2, {{"self", "sweep![1,1,2]"}, {"padding", "[1,1]"}}},
           {"aten::replication_pad2d", "self", 3, {{"self", "sweep![1,1,2,2]"}, {"padding", "[1,1,1,1]"}}},
           {"aten::replication_pad3d", "self", 4, {{"self", "sweep![1,1,2,2,2]"}, {"padding", "[1,1,1,1,1,1]"}}},
           {"aten::pixel_shuffle", "self", 3, {{"self", "sweep![1,4,2,2]"}, {"upscale_factor", "2"}}},
           {"aten::pixel_unshuffle", "self", 3, {{"self", "sweep![1,1,2,2]"}, {"downscale_factor", "2"}}},
           {"aten::channel_shuffle", "self", 3, {{"self", "sweep![1,2,2,2]"}, {"groups", "2"}}},
       }) {
    // Upsampling keeps N and C (and takes a known output size); padding
    // keeps what it does not pad.
    std::string key = k.key;
    RuleFn fn = keepInput(k.in, k.minRank);
    if (key.find("upsample") != std::string::npos)
      fn = upsampleArgs(leadingFacts(fn, k.in, k.minRank - 2, "output_size"), k.minRank - 2);
    else if (key.find("_pad") != std::string::npos) fn = padFacts(fn, k.in, "padding");
    if (key.find("channel_shuffle") != std::string::npos) // groups <= 0: refused (native_: SIGFPE in 1.13)
      fn = [fn](const OpCall &c) -> RuleResult {
        if (auto g = c.arg("groups").intValue(); g && *g <= 0)
          return c.semantic("number of groups to divide channels in must be positive, got {}", *g);
        return fn(c);
      };
    auto e = r.add(k.key, rs, fn);
    for (auto &[a, v] : k.s) e.sample(a, v);
    if (key.find("upsample") != std::string::npos) {
      e.variant({{"output_size", "[4,4,4,4]"}});
      e.atLeast("output_size", 1, "output sizes should be greater than 0");
      if (key.ends_with(".vec")) {
        std::string scales = "[2.0", refused = "[0.0";
        for (int i = 1; i < k.minRank - 2; ++i) scales += ",2.0", refused += ",2.0";
        e.variant({{"output_size", "None"}, {"scale_factors", scales + "]"}})
            .variant({{"output_size", "None"}, {"scale_factors", "None"}})
            .variant({{"scale_factors", scales + "]"}})
            .refuse(checks::positiveElements("scale_factors", "output sizes should be greater than 0: scale factors"),
                    {{"output_size", "None"}, {"scale_factors", refused + "]"}});
      }
    }
    if (key == "aten::pixel_shuffle") e.atLeast("upscale_factor", 1, "pixel_shuffle expects a positive upscale_factor");
    if (key == "aten::pixel_unshuffle")
      e.atLeast("downscale_factor", 1, "pixel_unshuffle expects a positive downscale_factor");
    if (key == "aten::channel_shuffle") e.variant({{"groups", "0"}});
    sizeVariants(e, key, k.in, k.minRank);
  }
  // native_channel_shuffle takes a 2-D input in 1.13 and 2.6; 2.14 wants more
  // than 2 dims, as channel_shuffle. groups <= 0: refused (SIGFPE in 1.13).
  for (auto [scope, minRank] : {std::pair{r.since(TorchVersion::V1_13), 2}, std::pair{r.since(TorchVersion::V2_14), 3}})
    scope.add("aten::native_channel_shuffle", rs, [fn = keepInput("self", minRank)](const OpCall &c) -> RuleResult {
       if (auto g = c.arg("groups").intValue(); g && *g <= 0)
         return c.semantic("number of groups to divide channels in must be positive, got {}", *g);
       return fn(c);
     }).sample("self", "sweep![1,2,2,2]").sample("groups", "2")
        .variant({{"self", "sweep![2,2]"}}).variant({{"self", "float32[2]"}});
  r.add("aten::constant_pad_nd", rs, padFacts(keepInput("self"), "self", "pad")).sample("self", "sweep![2,2]").sample("pad", "[1,1]")
      .variant({{"self", "sweep![1,1,2]"}, {"pad", "[1,1,0,0]"}})
      .sample("value", "0")
      .refuse(checks::padLength("self", "pad"), {{"pad", "[1,1,1]"}}).variant({{"pad", "[1,1,1,1,1,1]"}})
      .variant({{"self", "float32[3,4]"}, {"pad", "[-1,0,1,2]"}}).variant({{"self", "float32[3,4]"}, {"pad", "[-3,-2]"}});
  r.add("aten::pad", rs, padFacts(keepInput("self"), "self", "pad")).sample("self", "sweep![2,2]").sample("pad", "[1,1]")
      .variant({{"self", "sweep![1,1,2]"}, {"pad", "[0,0,1,0]"}})
      .variant({{"self", "float32[2,3,4]"}, {"pad", "[2,1,-1,0]"}})
      .variant({{"self", "float32[2,3,4]"}, {"pad", "[4,1]"}, {"mode", "'reflect'"}})
      .variant({{"self", "float32[2,3,4]"}, {"pad", "[2,1]"}, {"mode", "'reflect'"}})
      .variant({{"self", "float32[2,3,4]"}, {"pad", "[2,1,0,1]"}, {"mode", "'replicate'"}})
      .variant({{"self", "float32[2,3,4]"}, {"pad", "[2,1]"}, {"mode", "'circular'"}})
      .refuse(checks::padLength("self", "pad"), {{"pad", "[1,1,1]"}}).variant({{"pad", "[1,1,1,1,1,1]"}});
  // _pad_enum: see padEnum (mode 0 reflect, 1 replicate, 2 circular, 3 constant).
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), RuleFn(padEnum<false>)},
                             std::pair{r.since(TorchVersion::V2_6), RuleFn(padEnum<true>)}}) {
    Registry::Entry e = scope.add("aten::_pad_enum", rs, padFacts(rule, "self", "pad"));
    e.sample("self", "sweep[1,1,2]").sample("pad", "[1,1]").sample("mode", "3").sample("value", "None");
    for (const char *mode : {"0", "1", "2", "3"}) {
      if (std::string_view(mode) != "3") // (the main sample)
        e.variant({{"self", "sweep[1,1,2]"}, {"pad", "[1,1]"}, {"mode", mode}, {"value", "None"}});
      e.variant({{"self", "sweep![1,1,2,2]"}, {"pad", "[1,1,1,1]"}, {"mode", mode}, {"value", "None"}});
      e.variant({{"self", "sweep![1,1,2,2,2]"}, {"pad", "[1,1,0,0,1,1]"}, {"mode", mode}, {"value", "0.0"}});
      e.variant({{"self", "sweep![2,2]"}, {"pad", "[1,1]"}, {"mode", mode}, {"value", "None"}});
      e.variant({{"self", "sweep![1,1,2,2]"}, {"pad", "[1,1]"}, {"mode", mode}, {"value", "None"}});
      e.variant({{"self", "sweep![1,2,2]"}, {"pad", "[1,1,1,1]"}, {"mode", mode}, {"value", "None"}});
      e.variant({{"self", "sweep![1,1,2]"}, {"pad", "[1,1]"}, {"mode", mode}, {"value", "2.5"}});
    }
    e.variant({{"self", "sweep[2]"}, {"pad", "[0,1]"}, {"mode", "3"}, {"value", "2.5"}})
        .variant({{"self", "sweep[2]"}, {"pad", "[]"}, {"mode", "3"}, {"value", "None"}})
        .variant({{"self", "sweep[1,1,2]"}, {"pad", "[1]"}, {"mode", "3"}, {"value", "None"}})
        .variant({{"self", "sweep![1,1,2]"}, {"pad", "[1,1]"}, {"mode", "4"}, {"value", "None"}})
        .variant({{"self", "sweep![2,1,2]"}, {"pad", "[1,1,0,0]"}, {"mode", "3"}, {"value", "None"}});
  }
}

/// Antialiased bilinear upsampling.
void registerAntialiasedUpsampling(Registry &r) {
  const char *rs = "nn.resample";
  // Antialiased bilinear upsampling: see upsampleAa; N and C are kept, a
  // known output size gives the spatial size-1 facts.
  r.add("aten::_upsample_bilinear2d_aa", rs, upsampleArgs(leadingFacts(upsampleAa("self"), "self", 2, "output_size"), 2))
      .sample("self", "sweep[1,1,2,2]").sample("output_size", "[4,4]").sample("align_corners", "False")
      .variant({{"self", "sweep![1,1,2,2]"}, {"output_size", "[1,4]"}, {"align_corners", "True"}})
      .variant({{"self", "sweep![1,1,2,2]"}, {"output_size", "[4]"}})
      .variant({{"self", "sweep![1,2,2]"}, {"output_size", "[4,4]"}})
      .variant({{"self", "sweep![2,1,1,2,2]"}, {"output_size", "[4,4]"}})
      .variant({{"self", "sweep![1,1,2,2]"}, {"output_size", "[4,4]"}, {"scales_h", "2.0"}, {"scales_w", "2.0"}});
  r.add("aten::_upsample_bilinear2d_aa.vec", rs,
        upsampleArgs(leadingFacts(upsampleAa("input"), "input", 2, "output_size"), 2))
      .sample("input", "sweep[1,1,2,2]").sample("output_size", "[4,4]").sample("align_corners", "False")
      .sample("scale_factors", "None")
      .variant({{"input", "sweep![1,1,2,2]"}, {"output_size", "None"}, {"scale_factors", "[2.0,2.0]"}})
      .variant({{"input", "sweep![1,1,2,2]"}, {"output_size", "None"}, {"scale_factors", "None"}})
      .variant({{"input", "sweep![1,1,2,2]"}, {"output_size", "[4,4]"}, {"scale_factors", "[2.0,2.0]"}})
      .variant({{"input", "sweep![1,1,2,2]"}, {"output_size", "[1,4]"}, {"scale_factors", "None"}})
      .variant({{"input", "sweep![1,1,2,2]"}, {"output_size", "[4,4,4]"}, {"scale_factors", "None"}})
      .variant({{"input", "sweep![1,2,2]"}, {"output_size", "[4,4]"}, {"scale_factors", "None"}})
      .variant({{"input", "sweep![1,2,2]"}, {"output_size", "None"}, {"scale_factors", "[2.0]"}});
  for (const char *k : {"aten::grid_sampler", "aten::grid_sampler_2d", "aten::grid_sampler_3d"}) {
    bool threeD = std::string_view(k).ends_with("3d");
    r.add(k, rs, [](const OpCall &c) -> RuleResult {
       if (auto e = requireSame(c, {"input", "grid"})) return *e;
       return tensorOf(c.dtype("input"), c.rank("input"));
     }).sample("input", threeD ? "sweep![1,1,2,2,2]" : "sweep![1,1,2,2]")
        .sample("grid", threeD ? "sweep![1,2,2,2,3]" : "sweep![1,2,2,2]").sample("interpolation_mode", "0")
        .sample("padding_mode", "0").sample("align_corners", "False");
  }
  // affine_grid: the grid is theta's dtype (floating only: it is built with
  // linspace in theta's dtype), rank len(size) (N,H,W,2 or N,D,H,W,3).
  r.add("aten::affine_grid_generator", rs, [](const OpCall &c) -> RuleResult {
     DType d = c.dtype("theta");
     const Value &size = c.arg("size");
     Rank rk = size.isList() && size.lengthKnown() ? Rank::exact(size.elements().size()) : Rank::top();
     if (rk.isExact() && rk != Rank::exact(4) && rk != Rank::exact(5))
       return c.semantic("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs");
     if (!isFloating(d)) return Value::tensor(DTypeSet::all(), rk);
     return tensorOf(d, rk);
   }).sample("theta", "sweep![1,2,3]").sample("size", "[1,1,2,2]").sample("align_corners", "False")
      .variant({{"theta", "sweep![1,3,4]"}, {"size", "[1,1,2,2,2]"}}).variant({{"size", "[1,2]"}})
      .variant({{"size", "[]"}}).variant({{"theta", "sweep![1,3,4]"}, {"size", "[1,1,2,2,2,2]"}});
  r.add("aten::im2col", rs, [](const OpCall &c) -> RuleResult {
     auto rk = c.rank("self").value();
     return tensorOf(c.dtype("self"), rk ? Rank::exact(*rk - 1) : Rank::top());
   }).sample("self", "sweep![1,1,2,2]").sample("kernel_size", "[1,1]").sample("dilation", "[1,1]")
      .sample("padding", "[0,0]").sample("stride", "[1,1]")
      .refuse(checks::rankIn("self", {3, 4}, "Expected 3D or 4D (batch mode) tensor for input"), {{"self", "sweep[2]"}})
      .variant({{"self", "sweep![2,2]"}}).variant({{"self", "sweep![1,1,2]"}}).variant({{"self", "sweep![1,1,1,2,2]"}})
      .variant({{"self", "float32[2,3,5,6]"}, {"kernel_size", "[2,3]"}, {"dilation", "[1,2]"}, {"padding", "[1,0]"},
                {"stride", "[2,1]"}})
      .atLeast("kernel_size", 1, "kernel size should be greater than zero")
      .atLeast("dilation", 1, "dilation should be greater than zero")
      .atLeast("padding", 0, "padding should be non-negative")
      .atLeast("stride", 1, "stride should be greater than zero");
  r.add("aten::col2im", rs, [](const OpCall &c) -> RuleResult {
     auto rk = c.rank("self").value();
     return tensorOf(c.dtype("self"), rk ? Rank::exact(*rk + 1) : Rank::top());
   }).sample("self", "sweep![1,1,4]").sample("output_size", "[2,2]").sample("kernel_size", "[1,1]")
      .sample("dilation", "[1,1]").sample("padding", "[0,0]").sample("stride", "[1,1]")
      .refuse(checks::rankIn("self", {2, 3}, "Expected 2D or 3D (batch mode) tensor for input"), {{"self", "sweep[4]"}})
      .variant({{"self", "sweep![1,4]"}}).variant({{"self", "sweep![1,1,1,4]"}})
      .variant({{"self", "float32[2,12,6]"}, {"output_size", "[4,5]"}, {"kernel_size", "[2,2]"}, {"stride", "[1,2]"}})
      .atLeast("kernel_size", 1, "kernel size should be greater than zero")
      .atLeast("dilation", 1, "dilation should be greater than zero")
      .atLeast("padding", 0, "padding should be non-negative")
      .atLeast("stride", 1, "stride should be greater than zero");
}

/// The arguments the layers only read (indices, offsets).
void registerReadOnlyArguments(Registry &r) {
  // Indices look rows up; they are never converted into the result's dtype
  // (refine/audit.h counts no promotion of them).
  r.declareRead("aten::embedding", {"indices"});
  for (const char *k : {"aten::embedding_bag", "aten::_embedding_bag", "aten::_embedding_bag_forward_only"})
    r.declareRead(k, {"indices", "offsets"});
  for (const char *k : {"aten::max_unpool2d", "aten::max_unpool3d"}) r.declareRead(k, {"indices"});
}

} // namespace

void registerNnLayers(Registry &r) {
  registerPooling(r);
  registerNormalization(r);
  registerRmsAndWeightNorms(r);
  registerEmbeddings(r);
  registerDropout(r);
  registerResampling(r);
  registerAntialiasedUpsampling(r);
  registerReadOnlyArguments(r);
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h)
//===----------------------------------------------------------------------===//

namespace {

/// at::pooling_output_shape: (in + 2p - d(k-1) - 1 [+ s-1 with ceil]) // s + 1,
/// one less with ceil_mode when the last window would start in the padding.
Dim poolOutput(const Dim &in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
  auto x = in.value();
  if (!x) { // symbolic: only the floor form, without the ceil correction
    if (ceil || s <= 0) return Dim();
    return floorDiv(in + Dim(2) * Dim(p) - Dim(d) * (Dim(k) - Dim(1)) - Dim(1), Dim(s)) + Dim(1);
  }
  if (s <= 0) return Dim();
  using W = __int128; // no overflow for any int64 arguments
  W num = W(*x) + 2 * W(p) - W(d) * (W(k) - 1) - 1 + (ceil ? W(s) - 1 : 0);
  W out = (num >= 0 ? num / s : -((-num + s - 1) / s)) + 1;
  if (ceil && (out - 1) * s >= W(*x) + p) --out;
  if (out < INT64_MIN || out > INT64_MAX) return Dim();
  return Dim(static_cast<int64_t>(out));
}

/// max_poolNd / avg_poolNd over the last `n` dims (stride [] = kernel).
ShapeResult poolShape(const OpCall &c, size_t n, size_t outputs) {
  auto self = dimsOf(c, "self");
  auto kernel = intListArg(c, "kernel_size");
  auto ceil = c.has("ceil_mode") ? boolArg(c, "ceil_mode") : std::optional<bool>(false);
  if (!self || !kernel || !ceil || self->size() < n + 1 || self->size() > n + 2) return {};
  auto expand = [&](std::optional<std::vector<int64_t>> v, int64_t dflt) -> std::optional<std::vector<int64_t>> {
    if (!v) return std::nullopt;
    if (v->empty()) v->assign(n, dflt);
    if (v->size() == 1) v->assign(n, (*v)[0]);
    if (v->size() != n) return std::nullopt;
    return v;
  };
  kernel = expand(kernel, 0);
  auto stride = expand(intListArg(c, "stride"), 0);
  if (!kernel || !stride) return {};
  if (c.arg("stride").isList() && c.arg("stride").elements().empty()) stride = kernel;
  auto padding = expand(c.has("padding") ? intListArg(c, "padding") : std::vector<int64_t>{0}, 0);
  auto dilation = expand(c.has("dilation") ? intListArg(c, "dilation") : std::vector<int64_t>{1}, 1);
  if (!padding || !dilation) return {};
  Dims out(self->begin(), self->end() - n);
  for (size_t i = 0; i < n; ++i) {
    if ((*kernel)[i] <= 0 || (*stride)[i] <= 0 || (*padding)[i] * 2 > (*kernel)[i]) return {}; // raises
    out.push_back(poolOutput((*self)[self->size() - n + i], (*kernel)[i], (*stride)[i], (*padding)[i],
                             (*dilation)[i], *ceil));
  }
  for (const Dim &d : out)
    if (auto v = d.value(); v && *v <= 0) return {}; // "Output size is too small"
  return std::vector<std::optional<Dims>>(outputs, out);
}

/// adaptive_*_poolNd: the last `n` dims become output_size.
ShapeResult adaptiveShape(const OpCall &c, size_t n, size_t outputs) {
  auto self = dimsOf(c, "self");
  auto size = sizeListArg(c, "output_size");
  if (!self || !size || self->size() < n + 1 || self->size() > n + 2) return {};
  if (size->size() == 1) size->assign(n, (*size)[0]);
  if (size->size() != n) return {};
  Dims out(self->begin(), self->end() - n);
  out.insert(out.end(), size->begin(), size->end());
  return std::vector<std::optional<Dims>>(outputs, out);
}

enum class PadMode { Constant, Reflect, Replicate, Circular };

/// Padding: the last len(pad)/2 dims grow by their two pads (pad lists the
/// last dim first); negative pads crop. Reflection needs each pad smaller
/// than the dim; replication and constant padding a size of at least 1 (0 for
/// constant in 2.x: unknown here). Circular padding that wraps more than once
/// is left unknown.
ShapeResult padShape(const OpCall &c, std::string_view in, std::string_view padArg, PadMode mode) {
  auto self = dimsOf(c, in);
  auto pad = sizeListArg(c, padArg);
  if (!self || !pad || pad->size() % 2 || pad->size() > 2 * self->size()) return {};
  Dims out = *self;
  for (size_t i = 0; i < pad->size() / 2; ++i) {
    size_t d = self->size() - 1 - i;
    const Dim &a = (*pad)[2 * i], &b = (*pad)[2 * i + 1];
    Dim grown = (*self)[d] + a + b;
    auto size = (*self)[d].value(), l = a.value(), r = b.value(), n = grown.value();
    if (mode == PadMode::Reflect && size && l && r && (*l >= *size || *r >= *size))
      return c.semantic("padding size should be less than the corresponding input dimension, but got: padding "
                        "({}, {}) at dimension {} of input {}", *l, *r, d, dimsText(*self));
    if (n && *n < 1) {
      if (mode == PadMode::Replicate || (mode == PadMode::Constant && *n < 0))
        return c.semantic("input (size {} at dim {}) is too small for padding ({}, {}): output size {}",
                          (*self)[d].str(), d, a.str(), b.str(), *n);
      grown = Dim();
    }
    if (mode == PadMode::Circular && !(l && r && size && *l >= 0 && *r >= 0 && *l <= *size && *r <= *size))
      grown = Dim(); // wrapping more than once, or a negative pad: not modelled
    out[d] = grown;
  }
  return out;
}

ShapeResult padByName(const OpCall &c) {
  auto mode = c.arg("mode").text();
  if (!mode) return {};
  if (*mode == "constant") return padShape(c, "self", "pad", PadMode::Constant);
  if (*mode == "reflect") return padShape(c, "self", "pad", PadMode::Reflect);
  if (*mode == "replicate") return padShape(c, "self", "pad", PadMode::Replicate);
  if (*mode == "circular") return padShape(c, "self", "pad", PadMode::Circular);
  return {};
}

/// Upsampling keeps N and C; each spatial dim is output_size's, or
/// floor(size * scale) (PyTorch multiplies in double and truncates; a
/// symbolic size is exact only for an integral scale).
ShapeResult upsampleShape(const OpCall &c, std::string_view in, size_t spatial) {
  auto self = dimsOf(c, in);
  if (!self || self->size() != spatial + 2) return {};
  Dims out(self->begin(), self->begin() + 2);
  const Value &size = c.arg("output_size");
  if (!size.isNone()) {
    auto given = sizeListArg(c, "output_size");
    if (!given || given->size() != spatial || (c.has("scale_factors") && !c.arg("scale_factors").isNone())) return {};
    out.insert(out.end(), given->begin(), given->end());
    return out;
  }
  const Value &scales = c.has("scale_factors") ? c.arg("scale_factors") : Value::none();
  if (!scales.isList() || !scales.lengthKnown() || scales.elements().size() != spatial) return {};
  for (size_t i = 0; i < spatial; ++i) {
    auto f = scales.elements()[i].floatValue();
    const Dim &d = (*self)[2 + i];
    if (!f || !(*f > 0) || *f > 1e9) return {};
    if (auto v = d.value()) out.push_back(Dim(static_cast<int64_t>(static_cast<double>(*v) * *f)));
    else if (std::floor(*f) == *f) out.push_back(d * Dim(static_cast<int64_t>(*f)));
    else out.push_back(Dim());
  }
  for (const Dim &d : out)
    if (auto v = d.value(); v && *v <= 0) return {}; // "output sizes should be greater than 0"
  return out;
}

/// __interpolate (TorchScript's F.interpolate): N and C kept; each spatial
/// dim is `size` (an int for all, or one per dim), else floor(size *
/// scale_factor) (one float for all, or one per dim), as upsampleShape.
ShapeResult interpolateShape(const OpCall &c) {
  auto in = dimsOf(c, "input");
  if (!in || in->size() < 3) return {};
  const size_t spatial = in->size() - 2;
  const Value &size = c.arg("size"), &scale = c.arg("scale_factor");
  if (size.isNone() == scale.isNone()) return {}; // PyTorch raises: exactly one is given
  Dims out(in->begin(), in->begin() + 2);
  if (!size.isNone()) {
    std::optional<Dims> given = size.isList() ? sizeListArg(c, "size") : std::optional<Dims>(Dims(spatial, symIntArg(c, "size")));
    if (!given || given->size() != spatial) return {};
    out.insert(out.end(), given->begin(), given->end());
    for (const Dim &d : out)
      if (!d.known()) return {};
    return out;
  }
  std::vector<double> factors;
  if (scale.isList() && scale.lengthKnown())
    for (const Value &f : scale.elements()) factors.push_back(f.floatValue().value_or(-1));
  else if (auto f = scale.floatValue()) factors.assign(spatial, *f);
  if (factors.size() != spatial) return {};
  for (size_t i = 0; i < spatial; ++i) {
    const double f = factors[i];
    const Dim &d = (*in)[2 + i];
    if (!(f > 0) || f > 1e9) return {};
    if (auto v = d.value()) out.push_back(Dim(static_cast<int64_t>(std::floor(static_cast<double>(*v) * f))));
    else if (std::floor(f) == f) out.push_back(d * Dim(static_cast<int64_t>(f)));
    else return {};
  }
  for (const Dim &d : out)
    if (auto v = d.value(); v && *v <= 0) return {}; // PyTorch raises
  return out;
}

/// pixel_shuffle / pixel_unshuffle over the last three dims (C, H, W).
ShapeResult pixelShuffleShape(const OpCall &c, bool up) {
  auto self = dimsOf(c, "self");
  auto f = intArg(c, up ? "upscale_factor" : "downscale_factor");
  if (!self || !f || *f <= 0 || self->size() < 3) return {};
  Dims out = *self;
  Dim &ch = out[out.size() - 3], &h = out[out.size() - 2], &w = out[out.size() - 1];
  const Dim k(*f), k2(*f * *f);
  auto divides = [](const Dim &a, const Dim &b) { return mod(a, b).value() == 0; };
  if (up) {
    if (auto v = ch.value(); v && *v % (*f * *f) != 0)
      return c.semantic("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                        "upscale_factor, but input.size(-3)={} is not divisible by {}", *v, *f * *f);
    ch = divides(ch, k2) ? floorDiv(ch, k2) : Dim();
    h = h * k;
    w = w * k;
    return out;
  }
  for (auto [d, name] : {std::pair{&h, "height"}, std::pair{&w, "width"}}) {
    if (auto v = d->value(); v && *v % *f != 0)
      return c.semantic("pixel_unshuffle expects {} to be divisible by downscale_factor, but input.size({})={} is "
                        "not divisible by {}", name, name == std::string_view("height") ? -2 : -1, *v, *f);
    *d = divides(*d, k) ? floorDiv(*d, k) : Dim();
  }
  ch = ch * k2;
  return out;
}

/// im2col: [N,] C*kh*kw, L where L counts the sliding blocks.
ShapeResult im2colShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto k = intListArg(c, "kernel_size"), d = intListArg(c, "dilation"), p = intListArg(c, "padding"),
       s = intListArg(c, "stride");
  if (!self || !k || !d || !p || !s || (self->size() != 3 && self->size() != 4)) return {};
  for (auto *v : {&*k, &*d, &*p, &*s})
    if (v->size() != 2) return {};
  const size_t b = self->size() - 3;
  Dim blocks(1);
  for (size_t i = 0; i < 2; ++i) {
    if ((*k)[i] <= 0 || (*d)[i] <= 0 || (*s)[i] <= 0 || (*p)[i] < 0) return {};
    Dim n = poolOutput((*self)[b + 1 + i], (*k)[i], (*s)[i], (*p)[i], (*d)[i], false);
    if (auto v = n.value(); v && *v <= 0) return {}; // PyTorch raises: "should be greater than zero"
    blocks = blocks * n;
  }
  Dims out(self->begin(), self->begin() + b);
  out.push_back((*self)[b] * Dim((*k)[0] * (*k)[1]));
  out.push_back(blocks);
  return out;
}

/// col2im: [N,] C*kh*kw, L -> [N,] C, output_size.
ShapeResult col2imShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto size = sizeListArg(c, "output_size");
  auto k = intListArg(c, "kernel_size");
  if (!self || !size || !k || size->size() != 2 || k->size() != 2 || (self->size() != 2 && self->size() != 3))
    return {};
  const size_t b = self->size() - 2;
  const Dim kk((*k)[0] * (*k)[1]);
  const Dim &cols = (*self)[b];
  if (kk.value() <= 0 || !cols.value() || *cols.value() % *kk.value() != 0) return {}; // raises, or not known
  Dims out(self->begin(), self->begin() + b);
  out.push_back(floorDiv(cols, kk));
  out.insert(out.end(), size->begin(), size->end());
  return out;
}

/// Padding, resampling and shuffles.
void registerResamplingShapes(Registry &r) {
  r.shape("aten::constant_pad_nd", [](const OpCall &c) { return padShape(c, "self", "pad", PadMode::Constant); });
  r.shape("aten::pad", padByName);
  r.shape("aten::_pad_enum", [](const OpCall &c) -> ShapeResult {
    auto mode = intArg(c, "mode");
    if (!mode || *mode < 0 || *mode > 3) return {};
    static constexpr PadMode kModes[] = {PadMode::Reflect, PadMode::Replicate, PadMode::Circular, PadMode::Constant};
    return padShape(c, "self", "pad", kModes[*mode]);
  });
  for (const char *k : {"aten::reflection_pad1d", "aten::reflection_pad2d", "aten::reflection_pad3d"})
    r.shape(k, [](const OpCall &c) { return padShape(c, "self", "padding", PadMode::Reflect); });
  for (const char *k : {"aten::replication_pad1d", "aten::replication_pad2d", "aten::replication_pad3d"})
    r.shape(k, [](const OpCall &c) { return padShape(c, "self", "padding", PadMode::Replicate); });
  for (size_t n : {1, 2, 3}) {
    std::vector<std::string> keys{fmt::format("aten::upsample_nearest{}d", n),
                                  fmt::format("aten::_upsample_nearest_exact{}d", n)};
    if (n == 1) keys.push_back("aten::upsample_linear1d");
    if (n == 2)
      for (const char *k : {"aten::upsample_bilinear2d", "aten::upsample_bicubic2d", "aten::_upsample_bilinear2d_aa"})
        keys.push_back(k);
    if (n == 3) keys.push_back("aten::upsample_trilinear3d");
    for (const std::string &k : keys) {
      r.shape(k, [n](const OpCall &c) { return upsampleShape(c, "self", n); });
      r.shape(k + ".vec", [n](const OpCall &c) { return upsampleShape(c, "input", n); });
    }
  }
  r.shape("aten::pixel_shuffle", [](const OpCall &c) { return pixelShuffleShape(c, true); });
  r.shape("aten::pixel_unshuffle", [](const OpCall &c) { return pixelShuffleShape(c, false); });
  for (const char *k : {"aten::__interpolate", "aten::__interpolate.scale_list", "aten::__interpolate.size_list",
                        "aten::__interpolate.size_list_scale_list"})
    r.shape(k, interpolateShape);
  r.shape("aten::im2col", im2colShape);
  r.shape("aten::col2im", col2imShape);
}

/// native_batch_norm's saved statistics: [C] when it computes them
/// (training, or no running statistics), [0] in evaluation mode with them.
ShapeResult nativeBatchNormShape(const OpCall &c) {
  auto in = dimsOf(c, "input");
  auto training = boolArg(c, "training");
  if (!in || in->size() < 2 || !training) return {};
  const bool stats = !c.isNone("running_mean") && !c.isNone("running_var");
  if (!*training && !stats) return {};
  const Dims saved{*training ? (*in)[1] : Dim(0)};
  return std::vector<std::optional<Dims>>{*in, saved, saved};
}

/// 2.x's _native_batch_norm_legit family: native_batch_norm's sizes, the
/// statistics [C] in training, [0] out of it; no_stats only in training
/// (out of it libtorch 2.14 crashes); the functional form adds the updated
/// running statistics (their own sizes).
ShapeFn legitBatchNormShape(std::optional<bool> training, bool functional) {
  return [=](const OpCall &c) -> ShapeResult {
    auto in = dimsOf(c, "input");
    auto train = training ? training : boolArg(c, "training");
    if (!in || in->size() < 2 || !train) return {};
    if (!c.has("running_mean") && !*train) return {};
    const Dims saved{*train ? (*in)[1] : Dim(0)};
    std::vector<std::optional<Dims>> out{*in, saved, saved};
    if (functional) {
      out.push_back(dimsOf(c, "running_mean"));
      out.push_back(dimsOf(c, "running_var"));
    }
    return out;
  };
}

/// embedding_bag over 1-D indices [N] and offsets [O]: B = O bags (O - 1
/// with include_last_offset), output [B, D]; offset2bag [N] for mean and
/// max (sum's is [0] or [N] by the kernel's path: unknown); bag_size and
/// max_indices [B] ([B, D] for max's indices), except that embedding_bag's
/// sum gives them O entries (measured on 1.13 and 2.14).
ShapeFn embeddingBagShape(bool underscore) {
  return [underscore](const OpCall &c) -> ShapeResult {
    auto w = dimsOf(c, "weight"), idx = dimsOf(c, "indices"), off = dimsOf(c, "offsets");
    auto mode = intArg(c, "mode");
    auto last = boolArg(c, "include_last_offset");
    if (!w || !idx || !off || !mode || !last || w->size() != 2 || idx->size() != 1 || off->size() != 1 || *mode < 0 ||
        *mode > 2)
      return {};
    const Dim bags = (*off)[0] - Dim(*last ? 1 : 0);
    const Dim perBag = *mode == 0 && !underscore ? (*off)[0] : bags;
    std::vector<std::optional<Dims>> out{Dims{bags, (*w)[1]}, std::nullopt, Dims{perBag},
                                         *mode == 2 ? Dims{bags, (*w)[1]} : Dims{perBag}};
    if (*mode != 0) out[1] = *idx;
    return out;
  };
}

/// native_layer_norm: mean and rstd keep input's leading dims, the
/// normalized ones as 1.
ShapeResult nativeLayerNormShape(const OpCall &c) {
  auto in = dimsOf(c, "input");
  auto norm = sizeListArg(c, "normalized_shape");
  if (!in || !norm || norm->empty() || norm->size() > in->size()) return {};
  Dims stat(in->begin(), in->end() - norm->size());
  stat.resize(in->size(), Dim(1));
  return std::vector<std::optional<Dims>>{*in, stat, stat};
}

/// _weight_norm_interface's norms: v's dim `dim` (0 or the last: the fused
/// kernel's only ones), every other dim 1.
ShapeResult weightNormInterfaceShape(const OpCall &c) {
  auto v = dimsOf(c, "v");
  auto dim = intArg(c, "dim");
  if (!v || v->empty() || !dim || (*dim != 0 && *dim != static_cast<int64_t>(v->size()) - 1)) return {};
  Dims norms(v->size(), Dim(1));
  norms[*dim] = (*v)[*dim];
  return std::vector<std::optional<Dims>>{*v, norms};
}

/// affine_grid_generator: [N, H, W, 2] or [N, D, H, W, 3] of size [N, C, ...].
ShapeResult affineGridShape(const OpCall &c) {
  auto size = sizeListArg(c, "size");
  if (!size || (size->size() != 4 && size->size() != 5)) return {};
  Dims out{(*size)[0]};
  out.insert(out.end(), size->begin() + 2, size->end());
  out.push_back(Dim(static_cast<int64_t>(size->size()) - 2));
  return out;
}

/// grid_sampler: [N, C] of input, the grid's spatial dims.
ShapeResult gridSamplerShape(const OpCall &c) {
  auto in = dimsOf(c, "input"), grid = dimsOf(c, "grid");
  if (!in || !grid || in->size() < 4 || grid->size() != in->size()) return {};
  Dims out{(*in)[0], (*in)[1]};
  out.insert(out.end(), grid->begin() + 1, grid->end() - 1);
  return out;
}

/// `s`'s first output for each of `n` outputs.
ShapeResult repeatedShapeOf(ShapeResult s, size_t n) {
  if (s.outputs.empty() || !s.outputs[0]) return s;
  return repeatedShape(*s.outputs[0], n);
}

/// max_unpoolNd (and fractional_max_poolNd): self's leading dims,
/// output_size's spatial ones.
ShapeResult maxUnpoolShape(const OpCall &c, size_t spatial) {
  auto self = dimsOf(c, "self");
  auto size = sizeListArg(c, "output_size");
  if (!self || !size || size->size() != spatial || self->size() < spatial + 1 || self->size() > spatial + 2) return {};
  Dims out(self->begin(), self->end() - spatial);
  out.insert(out.end(), size->begin(), size->end());
  return out;
}

} // namespace

void registerNnLayerShapes(Registry &r) {
  for (const char *k : {"aten::batch_norm", "aten::layer_norm", "aten::group_norm", "aten::instance_norm",
                        "aten::dropout", "aten::alpha_dropout", "aten::feature_dropout", "aten::feature_alpha_dropout",
                        "aten::rms_norm", "aten::channel_shuffle", "aten::native_channel_shuffle"})
    if (!r.skips(k)) // (else its schema is not parsed)
      r.shape(k, sameShapeAs(r.schemas().find(k) && r.schemas().find(k)->argIndex("self") >= 0 ? "self" : "input"));
  r.shape("aten::embedding", [](const OpCall &c) -> ShapeResult {
    auto w = dimsOf(c, "weight"), idx = dimsOf(c, "indices");
    if (!w || !idx || w->size() != 2) return {};
    idx->push_back((*w)[1]);
    return *idx;
  });
  r.shape("aten::max_pool1d", [](const OpCall &c) { return poolShape(c, 1, 1); });
  r.shape("aten::max_pool2d", [](const OpCall &c) { return poolShape(c, 2, 1); });
  r.shape("aten::max_pool3d", [](const OpCall &c) { return poolShape(c, 3, 1); });
  r.shape("aten::max_pool1d_with_indices", [](const OpCall &c) { return poolShape(c, 1, 2); });
  r.shape("aten::max_pool2d_with_indices", [](const OpCall &c) { return poolShape(c, 2, 2); });
  r.shape("aten::max_pool3d_with_indices", [](const OpCall &c) { return poolShape(c, 3, 2); });
  r.shape("aten::avg_pool1d", [](const OpCall &c) { return poolShape(c, 1, 1); });
  r.shape("aten::avg_pool2d", [](const OpCall &c) { return poolShape(c, 2, 1); });
  r.shape("aten::avg_pool3d", [](const OpCall &c) { return poolShape(c, 3, 1); });
  r.shape("aten::adaptive_avg_pool1d", [](const OpCall &c) { return adaptiveShape(c, 1, 1); });
  for (const char *k : {"aten::adaptive_avg_pool2d", "aten::_adaptive_avg_pool2d"})
    r.shape(k, [](const OpCall &c) { return adaptiveShape(c, 2, 1); });
  r.shape("aten::adaptive_avg_pool3d", [](const OpCall &c) { return adaptiveShape(c, 3, 1); });
  r.shape("aten::adaptive_max_pool1d", [](const OpCall &c) { return adaptiveShape(c, 1, 2); });
  r.shape("aten::adaptive_max_pool2d", [](const OpCall &c) { return adaptiveShape(c, 2, 2); });
  r.shape("aten::adaptive_max_pool3d", [](const OpCall &c) { return adaptiveShape(c, 3, 2); });
  registerResamplingShapes(r);
  // (issue 35, shapes-cover) normalisations' statistics, grids, unpooling.
  r.shape("aten::native_batch_norm", nativeBatchNormShape);
  r.shape("aten::native_layer_norm", nativeLayerNormShape);
  r.shape("aten::native_group_norm", [](const OpCall &c) -> ShapeResult {
    auto in = dimsOf(c, "input");
    auto group = intArg(c, "group");
    if (!in || !group || *group <= 0) return {};
    const Dims stat{symIntArg(c, "N"), Dim(*group)};
    return std::vector<std::optional<Dims>>{*in, stat, stat};
  });
  r.shape("aten::_weight_norm_interface", weightNormInterfaceShape);
  r.shape("aten::_weight_norm", sameShapeAs("v"));
  r.shape("aten::affine_grid_generator", affineGridShape);
  for (const char *k : {"aten::grid_sampler", "aten::grid_sampler_2d", "aten::grid_sampler_3d"})
    r.shape(k, gridSamplerShape);
  r.shape("aten::max_unpool2d", [](const OpCall &c) { return maxUnpoolShape(c, 2); });
  r.shape("aten::max_unpool3d", [](const OpCall &c) { return maxUnpoolShape(c, 3); });
  r.shape("aten::max_pool2d_with_indices_backward", sameShapeAs());
  r.shape("aten::_native_batch_norm_legit", legitBatchNormShape(std::nullopt, false));
  r.shape("aten::_native_batch_norm_legit.no_stats", legitBatchNormShape(std::nullopt, false));
  r.shape("aten::_native_batch_norm_legit_no_training", legitBatchNormShape(false, false));
  r.shape("aten::_native_batch_norm_legit_functional", legitBatchNormShape(std::nullopt, true));
  // fractional_max_poolNd: output and indices take output_size's spatial dims.
  r.shape("aten::fractional_max_pool2d", [](const OpCall &c) { return repeatedShapeOf(maxUnpoolShape(c, 2), 2); });
  r.shape("aten::fractional_max_pool3d", [](const OpCall &c) { return repeatedShapeOf(maxUnpoolShape(c, 3), 2); });
  for (const char *k : {"aten::embedding_renorm", "aten::embedding_renorm_"}) r.shape(k, sameShapeAs());
  r.shape("aten::_embedding_bag", embeddingBagShape(true));
  // The forward-only kernel sizes its results as embedding_bag's (which runs
  // it): a sum's bag_size keeps one entry per offset.
  for (const char *k : {"aten::embedding_bag", "aten::_embedding_bag_forward_only", "aten::embedding_bag.padding_idx"})
    r.shape(k, embeddingBagShape(false));
}

} // namespace dtf
