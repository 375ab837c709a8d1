//===- ops/families/nn_layers.cpp - pooling, normalization, losses ... ---===//
//
// Most layers keep their input's dtype and rank; integer and bool kernels are
// often missing on CPU (kernel gaps, not dtype rules). The dtype checks that
// 1.13 applies (measured on CPU) are reproduced: parameters of the norms must
// match the input, index tensors must be int64, adaptive average pooling to
// size 1 is a mean (integer input raises), dropout in training needs a
// floating input, the losses promote or check as ATen does.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/unit_dims.h"
#include "ops/vocabulary.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dtf {
namespace {

PromotionOperand operandOf(const OpCall &c, std::string_view n) {
  return {c.dtype(n), c.rank(n).mayBeZero() ? Tier::ZeroDim : Tier::Dim};
}

DType promote2(const OpCall &c, std::string_view a, std::string_view b) {
  std::vector<PromotionOperand> ops{operandOf(c, a), operandOf(c, b)};
  return *resultType(ops);
}

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
      if (!c.has(name)) continue;
      const Value &l = c.arg(name);
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
    return outs;
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
    return outs;
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

/// adaptive_avg_pool to an all-ones size is a mean: integer input raises.
RuleFn adaptiveAvg(int minRank) {
  return [minRank](const OpCall &c) -> RuleResult {
    if (auto e = requireRankAtLeast(c, "self", minRank)) return *e;
    DType d = c.dtype("self");
    const Value &os = c.arg("output_size");
    bool allOnes = os.isList() && os.lengthKnown() && !os.elements().empty();
    if (allOnes)
      for (const Value &v : os.elements())
        if (v.intValue() != std::optional<int64_t>(1)) allOnes = false;
    if (allOnes && isIntegral(d, true))
      return c.semantic("mean(): could not infer output dtype: input dtype must be floating point or complex, got {}",
                        name(d));
    return tensorOf(d, c.rank("self"));
  };
}

/// batch_norm-style: every present parameter has one dtype P; P equals the
/// input's, or the input is bf16 and P is f32 (CPU mixed mode).
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
  if (allowMixed && d == DType::BFloat16 && *p == DType::Float32) return std::nullopt;
  return c.semantic("expected parameters to have dtype {} like the input, but got {}", name(d), name(*p));
}

RuleFn batchNormRule(bool native) {
  return [native](const OpCall &c) -> RuleResult {
    // Evaluation mode reads the running statistics: both must be given.
    // (native_batch_norm in eval mode without them crashes 1.13: not modelled.)
    if (auto tr = c.arg("training").boolValue(); !native && tr && !*tr)
      for (const char *n : {"running_mean", "running_var"})
        if (c.isNone(n)) return c.semantic("{} must be defined in evaluation mode", n);
    std::optional<DType> p;
    if (auto e = normParams(c, "input", {"weight", "bias", "running_mean", "running_var"}, true, &p)) return *e;
    DType d = c.dtype("input");
    Value out = tensorOf(d, c.rank("input"));
    if (!native) return out;
    Value stat = (!p || *p == d) ? tensorOf(d, Rank::exact(1)) : Value::tensor(DTypeSet::all(), Rank::exact(1));
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

Rank lossRank(const OpCall &c, Rank elementwise) {
  auto red = c.arg("reduction").intValue();
  if (!red) return Rank::top();
  return *red == 0 ? elementwise : Rank::exact(0);
}

Rank broadcast2(const OpCall &c, std::string_view a, std::string_view b) {
  return broadcastRank({c.rank(a), c.rank(b)});
}

/// nll_loss takes int64 or uint8 targets; nll_loss2d only int64 (measured).
RuleResult nllRuleImpl(const OpCall &c, bool allowByte) {
  auto selfRank = c.rank("self").value();
  if (c.key() == "aten::nll_loss" || c.key() == "aten::nll_loss_forward") {
    // nll_loss's own checks (nll_loss_nd routes other ranks elsewhere).
    if (selfRank && (*selfRank < 1 || *selfRank > 2)) return c.semantic("input tensor should be 1D or 2D");
    if (auto tr = c.rank("target").value(); tr && *tr > 1)
      return c.semantic("0D or 1D target tensor expected, multi-target not supported");
  } else if (c.key() == "aten::nll_loss_nd" && selfRank && *selfRank >= 3) {
    allowByte = false; // goes through nll_loss2d
  }
  DType t = c.dtype("target");
  if (t != DType::Int64 && !(allowByte && t == DType::UInt8))
    return c.semantic("expected target to be int64, but got {}", name(t));
  if (c.isTensor("weight") && c.dtype("weight") != c.dtype("self"))
    return c.semantic("expected weight ({}) to have the dtype of self ({})", name(c.dtype("weight")),
                      name(c.dtype("self")));
  return tensorOf(c.dtype("self"), lossRank(c, c.rank("target")));
}

RuleResult nllRule(const OpCall &c) { return nllRuleImpl(c, true); }
RuleResult nll2dRule(const OpCall &c) { return nllRuleImpl(c, false); }

/// The fused RNNs and cells: input, hidden states and weights share one
/// dtype (the matmul kernels check it; measured on 1.13 CPU). Integral
/// inputs raise in the in-place gate activations; bool has no matmul kernel
/// and CPU none for half. Returns the common dtype, or nullopt when a list
/// of unknown length may mix dtypes (then the results are unknown).
struct RnnCheck {
  std::optional<RuleError> error;
  std::optional<DType> dtype;
};

/// The gate activation decides what integer inputs do: relu keeps them; the
/// tanh cell's out-of-place tanh makes float32; the rest run in place and raise.
enum class RnnAct : uint8_t { InPlace, Relu, TanhCell };

RnnCheck rnnCheck(const OpCall &c, std::string_view in, std::initializer_list<std::string_view> args,
                  RnnAct act = RnnAct::InPlace) {
  DType d = c.dtype(in);
  bool mayMix = false;
  for (std::string_view n : args) {
    const Value &v = c.arg(n);
    std::vector<DTypeSet> sets;
    if (v.isTensor()) sets.push_back(DTypeSet(c.dtype(n)));
    else if (v.isList() && v.lengthKnown())
      for (size_t i = 0; i < v.elements().size(); ++i) {
        // An LSTM's cell state c only meets the gates elementwise: another
        // dtype is accepted (1.13), with results not modelled here.
        if (n == "hx" && i == 1 && !(v.elements()[i].dtypes() == DTypeSet(d))) mayMix = true;
        else sets.push_back(v.elements()[i].dtypes());
      }
    else if (v.isList()) {
      Value s = v.elementSummary();
      if (s.isTensor() && !(s.dtypes() == DTypeSet(d))) mayMix = true;
    }
    for (const DTypeSet &ds : sets)
      if (!(ds == DTypeSet(d)))
        return {c.semantic("mat1 and mat2 must have the same dtype ({} and {})", name(d), name(*ds.begin())), {}};
  }
  if (d == DType::Bool || d == DType::Float16 || d == DType::Complex32)
    return {c.missingKernel("no CPU matmul kernel for {}", name(d)), {}};
  if (isIntegral(d) && act == RnnAct::Relu) return {std::nullopt, mayMix ? std::nullopt : std::optional(d)};
  if (isIntegral(d) && act == RnnAct::TanhCell) return {std::nullopt, mayMix ? std::nullopt : std::optional(DType::Float32)};
  if (isIntegral(d))
    return {c.semantic("result type float32 can't be cast to the desired output type {}", name(d)), {}};
  if (isComplex(d) && act == RnnAct::Relu) return {c.semantic("clamp is not supported for complex types"), {}};
  if (mayMix) return {};
  return {std::nullopt, d};
}

/// Samples for an RNN rule: the main one sweeps `in` with float32 weights;
/// one variant per dtype with every tensor of that dtype; one sweeping each
/// other argument. `shapes` maps argument -> shape (lists: "[..],[..]").
void rnnSamples(Registry::Entry e, std::string in, std::vector<std::pair<std::string, std::vector<std::string>>> shapes,
                std::map<std::string, std::string, std::less<>> fixed) {
  auto spec = [](const std::string &dt, const std::vector<std::string> &sh, bool list) {
    std::string out = list ? "[" : "";
    for (size_t i = 0; i < sh.size(); ++i) out += (i ? "," : "") + dt + sh[i];
    return list ? out + "]" : out;
  };
  auto with = [&](const std::string &sweepArg, const std::string &dt) {
    std::map<std::string, std::string, std::less<>> m = fixed;
    for (auto &[a, sh] : shapes) {
      bool list = sh.size() > 1 || a == "hx_list" || a == "params";
      std::string name = a == "hx_list" ? "hx" : a;
      m[name] = spec(a == sweepArg ? "sweep!" : dt, sh, list);
    }
    return m;
  };
  for (auto &[a, v] : with(in, "float32")) e.sample(a, v);
  for (const char *dt : {"float64", "bfloat16", "complex64", "float16", "int32", "bool"}) e.variant(with("", dt));
  for (auto &[a, sh] : shapes)
    if (a != in) e.variant(with(a, "float32"));
}

/// Composite losses whose CPU result, when every listed tensor has one
/// floating dtype, is that dtype (measured); other mixes stay unknown.
RuleFn sameFloatLoss(std::vector<std::string> args, std::function<Rank(const OpCall &)> rank) {
  return [args, rank](const OpCall &c) -> RuleResult {
    DType d = c.dtype(args[0]);
    for (const std::string &n : args)
      if (c.arg(n).isTensor() && c.dtype(n) != d) return Value::tensor(DTypeSet::all(), rank(c));
    if (!isFloating(d)) return Value::tensor(DTypeSet::all(), rank(c));
    return tensorOf(d, rank(c));
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
RuleResult padEnum(const OpCall &c) {
  DType d = c.dtype("self");
  Rank r = c.rank("self");
  auto rk = r.value();
  const Value &pad = c.arg("pad");
  std::optional<int> n;
  if (pad.isList() && pad.lengthKnown()) n = static_cast<int>(pad.elements().size());
  if (n && *n % 2) return c.semantic("padding length must be divisible by 2, got {}", *n);
  if (n && rk && *n > 2 * *rk) return c.semantic("padding length too large ({} for a {}-D input)", *n, *rk);
  auto mode = c.arg("mode").intValue();
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
  if (*mode == 2 && *n != 2 * (*rk - 2))
    return c.semantic("circular padding: invalid padding size, expected {} but got {}", 2 * (*rk - 2), *n);
  return tensorOf(d, r);
}

/// _upsample_bilinear2d_aa (antialiased bilinear interpolation, as in
/// torchvision's resize): a 4-D input; the CPU kernel runs float32 and
/// float64 only (measured; CUDA has half and bfloat16).
RuleFn upsampleAa(std::string in) {
  return [in](const OpCall &c) -> RuleResult {
    if (auto rk = c.rank(in).value(); rk && *rk != 4)
      return c.semantic("expected a 4-D input (N, C, H, W), got {}-D", *rk);
    DType d = c.dtype(in);
    if (d != DType::Float32 && d != DType::Float64)
      return c.missingKernel("no CPU antialiased upsampling kernel for {}", name(d));
    return tensorOf(d, Rank::exact(4));
  };
}

/// _transformer_encoder_layer_fwd: nn.TransformerEncoderLayer's fast path
/// (eval, no_grad, batch_first), measured on 1.13 CPU over every dtype of
/// each tensor, both activations and both norm orders:
///  - every tensor has src's dtype (the bmm/addmm/layer_norm kernels and
///    _transform_bias_rescale_qkv check it);
///  - ranks: src 3-D (native MHA's `query`), qkv_weight, proj_weight and the
///    ffn weights 2-D, qkv_bias and the norm parameters 1-D (shape
///    [embed_dim]), the other biases at most 2-D (addmm expands them);
///  - a mask (any dtype: cast to bool) is a 2-D [B, T] padding mask or a 4-D
///    [B, H, T, T] one, and needs mask_type 0, 1 or 2 (None raises); the CPU
///    softmax refuses mask_type 0; without a mask, mask_type is ignored;
///  - CPU kernels for float32, float64 and bfloat16 only (half: addmm;
///    integers and complex: transform_bias_rescale_qkv; with norm_first:
///    layer_norm).
/// The result has src's dtype and shape. (An empty src is returned cloned
/// before any check: a value-dependent exception, not modelled.)
/// The order of the reads keeps the on-demand enumeration small for a module
/// whose twelve parameters are of unknown dtype and rank (prim::GetAttr):
/// dtypes first (one call per refused dtype), the biases' ranks (read only
/// to refuse a known rank above 2, both alternatives go on) last.
RuleResult transformerEncoderLayer(const OpCall &c) {
  if (auto v = c.rank("src").value(); v && *v != 3) return c.semantic("expected 3-D `query` (src), got {}-D", *v);
  DType d = c.dtype("src");
  for (const char *n : {"qkv_weight", "qkv_bias", "proj_weight", "proj_bias", "norm_weight_1", "norm_bias_1",
                        "norm_weight_2", "norm_bias_2", "ffn_weight_1", "ffn_bias_1", "ffn_weight_2", "ffn_bias_2"})
    if (c.dtype(n) != d)
      return c.semantic("expected {} to have src's dtype {}, but got {}", n, name(d), name(c.dtype(n)));
  struct Want { const char *arg; int rank; };
  for (Want w : {Want{"qkv_weight", 2}, {"qkv_bias", 1}, {"proj_weight", 2}, {"norm_weight_1", 1}, {"norm_bias_1", 1},
                 {"norm_weight_2", 1}, {"norm_bias_2", 1}, {"ffn_weight_1", 2}, {"ffn_weight_2", 2}})
    if (auto v = c.rank(w.arg).value(); v && *v != w.rank)
      return c.semantic("expected {} to be {}-D, got {}-D", w.arg, w.rank, *v);
  if (c.isTensor("mask")) {
    if (auto mr = c.rank("mask").value(); mr && *mr != 2 && *mr != 4)
      return c.semantic("mask shape should match input shape (a 2-D or 4-D mask, got {}-D)", *mr);
    if (c.isNone("mask_type")) return c.semantic("mask type should be defined");
    auto mt = c.arg("mask_type").intValue();
    if (mt && (*mt < 0 || *mt > 2))
      return c.semantic("mask type should be 0 (src_mask), 1 (src_key_padding_mask) or 2 (default_mask), got {}", *mt);
    if (mt && *mt == 0) return c.missingKernel("src_mask (mask_type 0) is not supported on CPU");
  }
  if (d != DType::Float32 && d != DType::Float64 && d != DType::BFloat16)
    return c.missingKernel("no CPU kernel for a {} encoder layer (float32, float64, bfloat16 only)", name(d));
  for (const char *n : {"proj_bias", "ffn_bias_1", "ffn_bias_2"})
    if (auto v = c.rank(n).value(); v && *v > 2)
      return c.semantic("expected {} to have at most 2 dims (addmm expands it), got {}-D", n, *v);
  return tensorOf(d, Rank::exact(3)).withUnitDims(c.arg("src").unitDims());
}

} // namespace

void registerNnLayers(Registry &r) {
  const char *pool = "nn.pool";
  struct Pool { const char *key; int rank; const char *kernel; };
  for (Pool p : std::vector<Pool>{{"aten::max_pool1d", 3, "[1]"}, {"aten::max_pool2d", 4, "[1,1]"},
                                  {"aten::max_pool3d", 5, "[1,1,1]"}, {"aten::avg_pool1d", 3, "[1]"},
                                  {"aten::avg_pool2d", 4, "[1,1]"}, {"aten::avg_pool3d", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    r.add(p.key, pool, leadingFacts(keepInput("self", p.rank - 1), "self", p.rank - 2)).sample("self", shape)
        .sample("kernel_size", p.kernel).variant({{"self", shape}, {"kernel_size", p.kernel}, {"stride", p.kernel}});
  }
  for (Pool p : std::vector<Pool>{{"aten::max_pool1d_with_indices", 3, "[1]"},
                                  {"aten::max_pool2d_with_indices", 4, "[1,1]"},
                                  {"aten::max_pool3d_with_indices", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    r.add(p.key, pool, leadingFacts(withIndices(p.rank - 1), "self", p.rank - 2)).sample("self", shape)
        .sample("kernel_size", p.kernel);
  }
  // fractional_max_pool2d/3d: float32/float64 (CPU), random_samples of the
  // input's dtype; the values and int64 indices keep the input's rank.
  for (int k : {2, 3}) {
    std::string key = "aten::fractional_max_pool" + std::to_string(k) + "d";
    r.add(key, pool, [k](const OpCall &c) -> RuleResult {
       DType d = c.dtype("self");
       auto rk = c.rank("self").value();
       if (rk && *rk != k + 1 && *rk != k + 2)
         return c.semantic("fractional_max_pool{}d: expected a {}-D or {}-D input, got {}-D", k, k + 1, k + 2, *rk);
       if (d != DType::Float32 && d != DType::Float64) return c.missingKernel("no fractional_max_pool kernel for {}", name(d));
       if (c.dtype("random_samples") != d)
         return c.semantic("random_samples ({}) must have the input's dtype ({})", name(c.dtype("random_samples")), name(d));
       Rank r = c.rank("self");
       return std::vector<Value>{tensorOf(d, r), tensorOf(DType::Int64, r)};
     }).sample("self", k == 2 ? "sweep![1,1,4,4]" : "sweep![1,1,4,4,4]").sample("kernel_size", k == 2 ? "[2,2]" : "[2,2,2]")
        .sample("output_size", k == 2 ? "[2,2]" : "[2,2,2]").sample("random_samples", "sweep![1,1," + std::to_string(k) + "]=0.5");
  }
  for (Pool p : std::vector<Pool>{{"aten::adaptive_avg_pool1d", 3, "[1]"},
                                  {"aten::adaptive_avg_pool2d", 4, "[1,1]"},
                                  {"aten::adaptive_avg_pool3d", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    r.add(p.key, pool, leadingFacts(adaptiveAvg(p.rank - 1), "self", p.rank - 2, "output_size")).sample("self", shape)
        .sample("output_size", p.kernel);
  }
  r.add("aten::_adaptive_avg_pool2d", pool, keepInput("self", 3))
      .sample("self", "sweep![1,1,2,2]").sample("output_size", "[1,1]");
  for (Pool p : std::vector<Pool>{{"aten::adaptive_max_pool1d", 3, "[1]"},
                                  {"aten::adaptive_max_pool2d", 4, "[1,1]"},
                                  {"aten::adaptive_max_pool3d", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    r.add(p.key, pool, leadingFacts(withIndices(p.rank - 1), "self", p.rank - 2, "output_size")).sample("self", shape)
        .sample("output_size", p.kernel);
  }
  auto unpool = [](const OpCall &c) -> RuleResult {
    if (auto e = requireInt64(c, "indices")) return *e;
    return tensorOf(c.dtype("self"), c.rank("self"));
  };
  r.add("aten::max_unpool2d", pool, unpool)
      .sample("self", "sweep![1,1,2,2]").sample("indices", "sweep![1,1,2,2]=0").sample("output_size", "[2,2]");
  r.add("aten::max_unpool3d", pool, unpool)
      .sample("self", "sweep![1,1,2,2,2]").sample("indices", "sweep![1,1,2,2,2]=0")
      .sample("output_size", "[2,2,2]").sample("stride", "[1,1,1]").sample("padding", "[0,0,0]");
  r.add("aten::max_pool2d_with_indices_backward", pool, [](const OpCall &c) -> RuleResult {
     if (auto e = requireInt64(c, "indices")) return *e;
     if (auto e = requireSame(c, {"self", "grad_output"})) return *e;
     return tensorOf(c.dtype("self"), c.rank("self"));
   }).sample("grad_output", "sweep![1,1,2,2]").sample("self", "sweep![1,1,2,2]").sample("indices", "sweep![1,1,2,2]=0")
      .sample("kernel_size", "[1,1]").sample("stride", "[1,1]").sample("padding", "[0,0]").sample("dilation", "[1,1]")
      .sample("ceil_mode", "False");

  // Normalization.
  const char *norm = "nn.norm";
  r.add("aten::batch_norm", norm, batchNormRule(false))
      .sample("input", "sweep![2,2,2]").sample("weight", "sweep![2]").sample("bias", "sweep![2]")
      .sample("running_mean", "sweep![2]").sample("running_var", "sweep![2]").sample("training", "False")
      .sample("momentum", "0.1").sample("eps", "1e-05").sample("cudnn_enabled", "False");
  r.add("aten::native_batch_norm", norm, batchNormRule(true))
      .sample("input", "sweep![2,2,2]").sample("weight", "sweep![2]").sample("bias", "sweep![2]")
      .sample("running_mean", "sweep![2]").sample("running_var", "sweep![2]").sample("training", "True")
      .sample("momentum", "0.1").sample("eps", "1e-05");
  r.add("aten::instance_norm", norm, [](const OpCall &c) -> RuleResult {
     if (auto u = c.arg("use_input_stats").boolValue(); u && !*u)
       if (c.isNone("running_mean") || c.isNone("running_var"))
         return c.semantic("expected running_mean and running_var to be defined when use_input_stats is false");
     if (auto e = normParams(c, "input", {"weight", "bias", "running_mean", "running_var"}, true)) return *e;
     return tensorOf(c.dtype("input"), c.rank("input"));
   }).sample("input", "sweep![2,2,2]").sample("weight", "sweep![2]").sample("bias", "sweep![2]")
      .sample("running_mean", "None").sample("running_var", "None").sample("use_input_stats", "True")
      .sample("momentum", "0.1").sample("eps", "1e-05").sample("cudnn_enabled", "False");
  r.add("aten::layer_norm", norm, [](const OpCall &c) -> RuleResult {
     if (auto e = requireSame(c, {"input", "weight", "bias"})) return *e;
     return tensorOf(c.dtype("input"), c.rank("input"));
   }).sample("input", "sweep![2,2,2]").sample("normalized_shape", "[2]").sample("weight", "sweep![2]")
      .sample("bias", "sweep![2]");
  r.add("aten::native_layer_norm", norm, [](const OpCall &c) -> RuleResult {
     if (auto e = requireSame(c, {"input", "weight", "bias"})) return *e;
     Value v = tensorOf(c.dtype("input"), c.rank("input"));
     return std::vector<Value>{v, v, v};
   }).sample("input", "sweep![2,2,2]").sample("normalized_shape", "[2]").sample("weight", "sweep![2]")
      .sample("bias", "sweep![2]").sample("eps", "1e-05");
  r.add("aten::group_norm", norm, [](const OpCall &c) -> RuleResult {
     if (auto e = requireSame(c, {"input", "weight", "bias"})) return *e;
     return tensorOf(c.dtype("input"), c.rank("input"));
   }).sample("input", "sweep![2,2,2]").sample("num_groups", "1").sample("weight", "sweep![2]")
      .sample("bias", "sweep![2]");
  r.add("aten::native_group_norm", norm, [](const OpCall &c) -> RuleResult {
     if (auto e = requireSame(c, {"input", "weight", "bias"})) return *e;
     DType d = c.dtype("input");
     return std::vector<Value>{tensorOf(d, c.rank("input")), tensorOf(d, Rank::exact(2)), tensorOf(d, Rank::exact(2))};
   }).sample("input", "sweep![2,2,2]").sample("weight", "sweep![2]").sample("bias", "sweep![2]")
      .sample("N", "2").sample("C", "2").sample("HxW", "2").sample("group", "1").sample("eps", "1e-05");
  r.add("aten::_weight_norm_interface", norm, [](const OpCall &c) -> RuleResult {
     if (auto e = requireSame(c, {"v", "g"})) return *e;
     DType d = c.dtype("v");
     DType nd = d == DType::BFloat16 ? DType::Float32 : d;
     return std::vector<Value>{tensorOf(d, c.rank("v")), tensorOf(nd, c.rank("g"))};
   }).sample("v", "sweep![2,2]").sample("g", "sweep![2,1]");

  // Embeddings.
  const char *emb = "nn.embedding";
  r.add("aten::embedding", emb, [](const OpCall &c) -> RuleResult {
     DType i = c.dtype("indices");
     if (i != DType::Int32 && i != DType::Int64)
       return c.semantic("expected indices to be int32 or int64, but got {}", name(i));
     Rank ir = c.rank("indices");
     Rank out = ir.value() ? Rank::exact(*ir.value() + 1) : Rank::atLeast1();
     return tensorOf(c.dtype("weight"), out);
   }).sample("weight", "sweep![2,2]").sample("indices", "sweep[2]=0");
  // embedding_renorm: rescales rows of a floating or complex weight in place.
  for (const char *k : {"aten::embedding_renorm", "aten::embedding_renorm_"})
    r.add(k, emb, [](const OpCall &c) -> RuleResult {
       DType d = c.dtype("self"), i = c.dtype("indices");
       if (!isFloating(d) && !isComplex(d)) return c.missingKernel("no embedding_renorm kernel for {}", name(d));
       if (i != DType::Int32 && i != DType::Int64)
         return c.semantic("expected indices to be int32 or int64, but got {}", name(i));
       return tensorOf(d, c.rank("self"));
     }).sample("self", "sweep![3,2]").sample("indices", "sweep[2]=0").sample("max_norm", "1.0").sample("norm_type", "2.0");
  auto bag = [](const OpCall &c) -> RuleResult {
    DType w = c.dtype("weight");
    if (w != DType::Float16 && w != DType::Float32 && w != DType::Float64)
      return c.semantic("expected weight to be float16, float32 or float64, but got {}", name(w));
    // 1.13 first promotes indices and offsets to their common type, then
    // requires that to be int32 or int64 (uint8 + int32 indices work).
    DType i = c.dtype("indices"), o = c.dtype("offsets");
    DType idx = promoteTypes(i, o);
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
  for (const char *k : {"aten::embedding_bag", "aten::_embedding_bag", "aten::embedding_bag.padding_idx"}) {
    auto e = r.add(k, emb, bag);
    e.sample("weight", "sweep![2,2]").sample("indices", "sweep![2]=0").sample("offsets", "sweep![1]=0")
        .sample("per_sample_weights", "None");
    if (std::string(k) == "aten::embedding_bag.padding_idx")
      e.sample("scale_grad_by_freq", "False").sample("mode", "0").sample("sparse", "False")
          .sample("include_last_offset", "False").sample("padding_idx", "None");
  }

  // Dropout.
  const char *drop = "nn.dropout";
  for (const char *k : {"aten::dropout", "aten::alpha_dropout"})
    r.add(k, drop, dropoutRule("input", false)).sample("p", "0.5").sample("train", "True")
        .variant({{"train", "False"}}).variant({{"p", "2.0"}, {"train", "False"}});
  for (const char *k : {"aten::feature_dropout", "aten::feature_alpha_dropout"})
    r.add(k, drop, dropoutRule("input", true)).sample("input", "sweep![2,2]").sample("p", "0.5").sample("train", "True")
        .variant({{"input", "sweep[2]"}, {"train", "False"}}).variant({{"input", "sweep[2]"}, {"p", "1.0"}})
        .variant({{"input", "sweep[2]"}}).variant({{"p", "1.5"}, {"train", "False"}});
  for (const char *k : {"aten::dropout_", "aten::alpha_dropout_"})
    r.add(k, drop, dropoutRule("self", false)).sample("p", "0.5").sample("train", "True");
  for (const char *k : {"aten::feature_dropout_", "aten::feature_alpha_dropout_"})
    r.add(k, drop, dropoutRule("self", true)).sample("self", "sweep![2,2]").sample("p", "0.5").sample("train", "True")
        .variant({{"self", "sweep[2]"}, {"train", "False"}});
  r.add("aten::native_dropout", drop, [](const OpCall &c) -> RuleResult {
     // The CPU kernel draws bernoulli(1 - p) only when training.
     auto train = c.isNone("train") ? std::optional<bool>(true) : c.arg("train").boolValue();
     if (auto p = c.arg("p").floatValue(); train && *train && p && !(*p >= 0 && *p <= 1))
       return c.semantic("bernoulli_ expects p to be in [0, 1], but got p={}", 1 - *p);
     if (auto e = dropoutCheck(c, "input")) return *e;
     Rank rk = c.rank("input");
     return std::vector<Value>{tensorOf(c.dtype("input"), rk), tensorOf(DType::Bool, rk)};
   }).sample("p", "0.5").sample("train", "True").variant({{"train", "False"}})
      .variant({{"p", "1.5"}}).variant({{"p", "1.5"}, {"train", "False"}}).variant({{"train", "None"}});

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
           {"aten::native_channel_shuffle", "self", 2, {{"self", "sweep![1,2,2,2]"}, {"groups", "2"}}},
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
      if (key.ends_with(".vec")) {
        std::string scales = "[2.0";
        for (int i = 1; i < k.minRank - 2; ++i) scales += ",2.0";
        e.variant({{"output_size", "None"}, {"scale_factors", scales + "]"}})
            .variant({{"output_size", "None"}, {"scale_factors", "None"}})
            .variant({{"scale_factors", scales + "]"}});
      }
    }
    if (key == "aten::native_channel_shuffle") e.variant({{"self", "sweep![2,2]"}}).variant({{"self", "float32[2]"}});
    if (key == "aten::channel_shuffle") e.variant({{"groups", "0"}});
  }
  r.add("aten::constant_pad_nd", rs, padFacts(keepInput("self"), "self", "pad")).sample("self", "sweep![2,2]").sample("pad", "[1,1]")
      .variant({{"self", "sweep![1,1,2]"}, {"pad", "[1,1,0,0]"}})
      .sample("value", "0");
  r.add("aten::pad", rs, padFacts(keepInput("self"), "self", "pad")).sample("self", "sweep![2,2]").sample("pad", "[1,1]")
      .variant({{"self", "sweep![1,1,2]"}, {"pad", "[0,0,1,0]"}});
  // _pad_enum: see padEnum (mode 0 reflect, 1 replicate, 2 circular, 3 constant).
  {
    Registry::Entry e = r.add("aten::_pad_enum", rs, padFacts(padEnum, "self", "pad"));
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
     if (!isFloating(d)) return Value::tensor(DTypeSet::all(), rk);
     return tensorOf(d, rk);
   }).sample("theta", "sweep![1,2,3]").sample("size", "[1,1,2,2]").sample("align_corners", "False")
      .variant({{"theta", "sweep![1,3,4]"}, {"size", "[1,1,2,2,2]"}});
  r.add("aten::im2col", rs, [](const OpCall &c) -> RuleResult {
     auto rk = c.rank("self").value();
     return tensorOf(c.dtype("self"), rk ? Rank::exact(*rk - 1) : Rank::top());
   }).sample("self", "sweep![1,1,2,2]").sample("kernel_size", "[1,1]").sample("dilation", "[1,1]")
      .sample("padding", "[0,0]").sample("stride", "[1,1]");
  r.add("aten::col2im", rs, [](const OpCall &c) -> RuleResult {
     auto rk = c.rank("self").value();
     return tensorOf(c.dtype("self"), rk ? Rank::exact(*rk + 1) : Rank::top());
   }).sample("self", "sweep![1,1,4]").sample("output_size", "[2,2]").sample("kernel_size", "[1,1]")
      .sample("dilation", "[1,1]").sample("padding", "[0,0]").sample("stride", "[1,1]");

  // Distances and losses.
  const char *loss = "nn.loss";
  r.add("aten::cosine_similarity", loss, [](const OpCall &c) -> RuleResult {
     DType d = promote2(c, "x1", "x2");
     if (!isFloating(d))
       return c.semantic("expected common dtype to be floating point, yet common dtype is {}", name(d));
     Rank b = broadcast2(c, "x1", "x2");
     // The norms are summed over dim of the broadcast operands.
     auto n = b.value();
     if (auto dim = c.arg("dim").intValue(); n && dim) {
       int64_t m = std::max(*n, 1);
       if (*dim < -m || *dim >= m)
         return c.semantic("dimension out of range (expected to be in range of [{}, {}], but got {})", -m, m - 1, *dim);
     }
     return tensorOf(d, b.value() ? Rank::exact(std::max(*b.value() - 1, 0)) : Rank::top());
   }).sample("x1", "sweep![2,2]").sample("x2", "sweep![2,2]").variant({{"x1", "sweep[2]"}, {"x2", "float32[2]"}});
  r.add("aten::pdist", loss, [](const OpCall &c) -> RuleResult {
     if (!isFloating(c.dtype("self")))
       return c.semantic("pdist only supports floating-point dtypes, got {}", name(c.dtype("self")));
     return tensorOf(c.dtype("self"), Rank::exact(1));
   }).sample("self", "sweep![2,2]");
  for (const char *k : {"aten::mse_loss", "aten::smooth_l1_loss"})
    r.add(k, loss, [](const OpCall &c) -> RuleResult {
       return tensorOf(promote2(c, "self", "target"), lossRank(c, broadcast2(c, "self", "target")));
     }).sample("self", "sweep![2,2]").sample("target", "sweep![2,2]").variant({{"reduction", "0"}});
  r.add("aten::l1_loss", loss, [](const OpCall &c) -> RuleResult {
     if (c.dtype("self") == DType::Bool || c.dtype("target") == DType::Bool)
       return c.semantic("subtraction with a bool tensor is not supported");
     DType d = toRealValueType(promote2(c, "self", "target"));
     auto red = c.arg("reduction").intValue();
     if (red && *red == 1 && isIntegral(d))
       return c.semantic("mean(): could not infer output dtype: input dtype must be floating point, got {}", name(d));
     if (red && *red == 2 && isIntegral(d)) return Value::tensor(DTypeSet::all(), Rank::exact(0));
     return tensorOf(d, lossRank(c, broadcast2(c, "self", "target")));
   }).sample("self", "sweep![2,2]").sample("target", "sweep![2,2]").variant({{"reduction", "0"}});
  r.add("aten::huber_loss", loss, [](const OpCall &c) -> RuleResult {
     DType s = c.dtype("self"), p = promote2(c, "self", "target");
     if (!canCast(p, s))
       return c.semantic("result type {} can't be cast to the desired output type {}", name(p), name(s));
     return tensorOf(s, lossRank(c, broadcast2(c, "self", "target")));
   }).sample("self", "sweep![2,2]").sample("target", "sweep![2,2]").variant({{"reduction", "0"}});
  r.add("aten::kl_div", loss, [](const OpCall &c) -> RuleResult {
     for (const char *n : {"self", "target"}) {
       if (isIntegral(c.dtype(n), true)) return c.semantic("kl_div: integral inputs not supported");
       if (isComplex(c.dtype(n))) return c.semantic("kl_div: complex inputs not supported");
     }
     return tensorOf(promote2(c, "self", "target"), lossRank(c, broadcast2(c, "self", "target")));
   }).sample("self", "sweep![2,2]").sample("target", "sweep![2,2]");
  // The loss has self's dtype (target must match); the weight is applied
  // in place (loss.mul_(weight)): any weight the loss can absorb.
  r.add("aten::binary_cross_entropy", loss, [](const OpCall &c) -> RuleResult {
     if (auto e = requireSame(c, {"self", "target"})) return *e;
     DType s = c.dtype("self");
     if (c.isTensor("weight")) {
       Rank lr = broadcast2(c, "self", "target");
       std::vector<PromotionOperand> ops{{s, lr.mayBeZero() ? Tier::ZeroDim : Tier::Dim}, operandOf(c, "weight")};
       DType p = *resultType(ops);
       if (!canCast(p, s))
         return c.semantic("result type {} can't be cast to the desired output type {}", name(p), name(s));
     }
     return tensorOf(s, lossRank(c, c.rank("self")));
   }).sample("self", "sweep![2,2]=0.5").sample("target", "sweep![2,2]=0.5")
      .variant({{"self", "float32[2,2]=0.5"}, {"target", "float32[2,2]=0.5"}, {"reduction", "0"}});
  r.add("aten::binary_cross_entropy_with_logits", loss, [](const OpCall &c) -> RuleResult {
     // 1.13: max_val = (-input).clamp_min_(0); with pos_weight,
     // log_weight = (pos_weight - 1).mul(target).add_(1); loss =
     // (1 - target).mul_(input).add_(...) (with pos_weight: .add_(
     // log_weight.mul_(<input-dtype term>))); then loss.mul_(weight).
     DType s = c.dtype("self"), t = c.dtype("target");
     auto tierOf = [](Rank r) { return r.mayBeZero() ? Tier::ZeroDim : Tier::Dim; };
     auto inplace = [&](DType dst, Rank dstRank, DType src, Rank srcRank) -> std::optional<RuleError> {
       std::vector<PromotionOperand> ops{{dst, tierOf(dstRank)}, {src, tierOf(srcRank)}};
       DType r = *resultType(ops);
       if (!canCast(r, dst))
         return c.semantic("result type {} can't be cast to the desired output type {}", name(r), name(dst));
       return std::nullopt;
     };
     if (c.isTensor("pos_weight") && c.dtype("pos_weight") == DType::Bool)
       return c.semantic("subtraction with a bool tensor (pos_weight) is not supported");
     if (s == DType::Bool) return c.semantic("negation on a bool tensor is not supported");
     if (isIntegral(s)) return c.semantic("result type float32 can't be cast to the desired output type {}", name(s));
     if (isComplex(s)) return c.semantic("clamp is not supported for complex types");
     if (t == DType::Bool) return c.semantic("subtraction with bool tensors is not supported");
     DType p = promote2(c, "self", "target");
     if (!canCast(p, t))
       return c.semantic("result type {} can't be cast to the desired output type {}", name(p), name(t));
     Rank lossR = broadcast2(c, "self", "target");
     // The loss is built in place from (1 - target): target's shape.
     auto tr = c.rank("target").value(), lr = lossR.value();
     if (tr && lr && *lr > *tr)
       return c.semantic("output with {} dims doesn't match the broadcast shape of {} dims (self and target)", *tr, *lr);
     if (c.isTensor("weight"))
       if (auto wr = c.rank("weight").value(); wr && lr && *wr > *lr)
         return c.semantic("output with {} dims doesn't match the broadcast shape of {} dims (weight)", *lr, *wr);
     if (c.isTensor("pos_weight")) {
       std::vector<PromotionOperand> ops{operandOf(c, "pos_weight"), operandOf(c, "target")};
       DType lw = *resultType(ops);
       Rank lwR = broadcast2(c, "pos_weight", "target");
       if (auto e = inplace(lw, lwR, s, c.rank("self"))) return *e;
       if (auto e = inplace(t, lossR, lw, lwR)) return *e;
     }
     if (c.isTensor("weight"))
       if (auto e = inplace(t, lossR, c.dtype("weight"), c.rank("weight"))) return *e;
     return tensorOf(t, lossRank(c, lossR));
   }).sample("self", "sweep![2,2]=0.5").sample("target", "sweep![2,2]=0.5")
      .variant({{"self", "float32[2,2]=0.5"}, {"target", "float32[]=0.5"}})
      .variant({{"self", "float32[]=0.5"}, {"target", "float32[2,2]=0.5"}, {"reduction", "0"}})
      .variant({{"self", "float32[2,2]=0.5"}, {"target", "float32[2]=0.5"}})
      .variant({{"self", "float32[2]=0.5"}, {"target", "float32[2]=0.5"}, {"weight", "float32[2,2]"}, {"reduction", "0"}});
  r.add("aten::poisson_nll_loss", loss, [](const OpCall &c) -> RuleResult {
     auto logIn = c.arg("log_input").boolValue();
     auto full = c.arg("full").boolValue();
     if (!logIn || !*logIn || !full || *full) return Value::unknownTensor();
     // exp(input) - target * input, then reduced.
     DType a = applyKind(PromotionKind::IntToFloat, c.dtype("input"));
     DType b = promote2(c, "target", "input");
     if (b == DType::Bool) return c.semantic("subtraction with a bool tensor is not supported");
     Rank br = broadcast2(c, "input", "target");
     std::vector<PromotionOperand> ops{{a, c.rank("input").mayBeZero() ? Tier::ZeroDim : Tier::Dim},
                                       {b, br.mayBeZero() ? Tier::ZeroDim : Tier::Dim}};
     return tensorOf(*resultType(ops), lossRank(c, br));
   }).sample("input", "sweep![2,2]").sample("target", "sweep![2,2]").sample("log_input", "True")
      .sample("full", "False").sample("eps", "1e-08").sample("reduction", "1");
  r.add("aten::nll_loss", loss, nllRule).sample("self", "sweep![2,2]").sample("target", "sweep![2]=0")
      .sample("weight", "None").variant({{"self", "sweep![1,2,1,1]"}, {"target", "int64[1,1,1]=0"}});
  // What F.cross_entropy / F.nll_loss trace to for inputs of any rank.
  r.add("aten::nll_loss_nd", loss, nllRule).sample("self", "sweep![2,2]").sample("target", "sweep![2]=0")
      .sample("weight", "None").variant({{"self", "float32[1,2,1,1]"}, {"target", "sweep![1,1,1]=0"}})
      .variant({{"self", "float32[1,2,1]"}, {"target", "sweep![1,1]=0"}});
  // nll_loss2d needs a 4-D input and a 3-D target.
  r.add("aten::nll_loss2d", loss, nll2dRule).sample("self", "sweep![1,2,1,1]").sample("target", "sweep![1,1,1]=0")
      .sample("weight", "None");
  // The *_forward ops also return the total weight (0-dim, self's dtype).
  auto withTotalWeight = [](RuleFn rule) {
    return [rule](const OpCall &c) -> RuleResult {
      RuleResult out = rule(c);
      if (!out.ok()) return out;
      return std::vector<Value>{out.outputs()[0], tensorOf(c.dtype("self"), Rank::exact(0))};
    };
  };
  r.add("aten::nll_loss_forward", loss, withTotalWeight(nllRule)).sample("self", "sweep![2,2]").sample("target", "sweep![2]=0")
      .sample("weight", "None").sample("reduction", "1").sample("ignore_index", "-100");
  r.add("aten::nll_loss2d_forward", loss, withTotalWeight(nll2dRule)).sample("self", "sweep![1,2,1,1]")
      .sample("target", "sweep![1,1,1]=0").sample("weight", "None").sample("reduction", "1").sample("ignore_index", "-100")
      .variant({{"self", "sweep![1,2,1,1]"}, {"target", "sweep![1,1,1]=0"}, {"weight", "None"}, {"reduction", "0"},
                {"ignore_index", "-100"}});
  r.add("aten::nll_loss_backward", loss, [](const OpCall &c) -> RuleResult {
     DType t = c.dtype("target");
     if (t != DType::Int64 && t != DType::UInt8)
       return c.semantic("expected target to be int64, but got {}", name(t));
     if (auto e = requireSame(c, {"self", "grad_output", "weight", "total_weight"})) return *e;
     return tensorOf(c.dtype("self"), c.rank("self"));
   }).sample("grad_output", "sweep![]").sample("self", "sweep![2,2]").sample("target", "sweep![2]=0")
      .sample("weight", "None").sample("reduction", "1").sample("ignore_index", "-100")
      .sample("total_weight", "sweep![]");
  auto lossOfSelf = [](const OpCall &c) { return lossRank(c, c.rank("self")); };
  // cosine_embedding_loss: one loss per row (rank of the input minus 1).
  r.add("aten::cosine_embedding_loss", loss, sameFloatLoss({"input1", "input2"}, [](const OpCall &c) {
     Rank b = broadcast2(c, "input1", "input2");
     return lossRank(c, b.value() ? Rank::exact(std::max(*b.value() - 1, 0)) : Rank::top());
   })).sample("input1", "sweep![2,3]").sample("input2", "sweep![2,3]").sample("target", "float32[2]")
      .variant({{"input1", "float32[2,3]"}, {"input2", "float32[2,3]"}, {"target", "sweep![2]"}})
      .variant({{"reduction", "0"}});
  // margin_ranking (1.13): (-target * (input1 - input2) + margin).clamp_min_(0):
  // bool operands refuse - (binary or unary), integers become float32 with
  // the float margin, complex refuses the clamp.
  r.add("aten::margin_ranking_loss", loss, [](const OpCall &c) -> RuleResult {
     if (c.dtype("input1") == DType::Bool || c.dtype("input2") == DType::Bool)
       return c.semantic("subtraction with a bool tensor is not supported");
     if (c.dtype("target") == DType::Bool) return c.semantic("negation on a bool tensor is not supported");
     Rank diffRank = broadcast2(c, "input1", "input2");
     std::vector<PromotionOperand> ops{operandOf(c, "target"),
                                       {promote2(c, "input1", "input2"), diffRank.mayBeZero() ? Tier::ZeroDim : Tier::Dim}};
     DType d = *resultType(ops);
     if (isComplex(d)) return c.semantic("clamp is not supported for complex types ({})", name(d));
     if (isIntegral(d)) d = DType::Float32; // + margin, a float
     return tensorOf(d, lossRank(c, broadcastRank({diffRank, c.rank("target")})));
   }).sample("input1", "sweep![3]").sample("input2", "sweep![3]").sample("target", "float32[3]")
      .variant({{"input1", "float64[3]"}, {"input2", "float64[3]"}, {"target", "sweep![3]"}})
      .variant({{"input1", "int32[]"}, {"input2", "sweep![3]"}, {"target", "sweep![]"}})
      .variant({{"reduction", "0"}});
  // hinge (1.13): margin_clamp = (margin - self).clamp_min_(0) is built in
  // self's dtype (`Scalar - Tensor` fills a tensor like self), then
  // where(target ...) broadcasts it with target and the sum keeps self's
  // dtype; the target's dtype never matters (measured on every pair).
  r.add("aten::hinge_embedding_loss", loss, [](const OpCall &c) -> RuleResult {
     DType d = c.dtype("self");
     if (d == DType::Bool) return c.semantic("subtraction with a bool tensor is not supported");
     if (isComplex(d)) return c.semantic("clamp is not supported for complex types");
     Rank out = lossRank(c, broadcast2(c, "self", "target"));
     if (!isIntegral(d)) return tensorOf(d, out);
     auto red = c.arg("reduction").intValue();
     if (!red) return Value::tensor(DTypeSet::join(d, DType::Int64), out);
     if (*red == 1) return c.semantic("mean(): could not infer output dtype: {} is not floating or complex", name(d));
     return tensorOf(*red == 2 ? DType::Int64 : d, out); // sum of integers is int64
   }).sample("self", "sweep![3]").sample("target", "sweep![3]").variant({{"reduction", "0"}})
      .variant({{"reduction", "2"}}).variant({{"self", "int32[3]"}, {"target", "sweep![3]"}, {"reduction", "0"}})
      .variant({{"self", "float32[3]"}, {"target", "float32[2,3]"}, {"reduction", "0"}})
      .variant({{"self", "float32[]"}, {"target", "float32[3]"}, {"reduction", "0"}});
  // soft_margin: log1p(exp(-self * target)) written into a tensor of self's
  // dtype and shape: integral selfs cannot hold the float result, complex
  // targets make any real self complex, and a target that broadcasts to more
  // dims is refused.
  r.add("aten::soft_margin_loss", loss, [lossOfSelf](const OpCall &c) -> RuleResult {
     auto sr = c.rank("self").value(), br = broadcast2(c, "self", "target").value();
     if (sr && br && *br > *sr)
       return c.semantic("output with {} dims doesn't match the broadcast shape of {} dims", *sr, *br);
     DType d = c.dtype("self"), t = c.dtype("target");
     if (d == DType::Bool) return c.semantic("negation on a bool tensor is not supported");
     if (isIntegral(d)) return c.semantic("result type float can't be cast to the desired output type {}", name(d));
     if (isComplex(t) && !isComplex(d))
       return c.semantic("result type {} can't be cast to the desired output type {}", name(t), name(d));
     return tensorOf(d, lossOfSelf(c));
   }).sample("self", "sweep![3]").sample("target", "sweep![3]").variant({{"reduction", "0"}})
      .variant({{"self", "float32[3]"}, {"target", "float32[2,3]"}, {"reduction", "0"}})
      .variant({{"self", "float32[2,3]"}, {"target", "float32[3]"}, {"reduction", "0"}})
      .variant({{"self", "sweep![2,3]"}, {"target", "sweep![]"}});
  r.add("aten::triplet_margin_loss", loss, sameFloatLoss({"anchor", "positive", "negative"}, [](const OpCall &c) {
     Rank b = broadcastRank({c.rank("anchor"), c.rank("positive"), c.rank("negative")});
     return lossRank(c, b.value() ? Rank::exact(std::max(*b.value() - 1, 0)) : Rank::top());
   })).sample("anchor", "sweep![2,3]").sample("positive", "sweep![2,3]").sample("negative", "float32[2,3]")
      .variant({{"reduction", "0"}});
  // multi(label)_margin_loss: an int64 target; CPU kernels for float/double
  // only (half and bf16 exist on CUDA: left unknown).
  auto marginLoss = [](bool label) {
    return [label](const OpCall &c) -> RuleResult {
      DType d = c.dtype("self");
      auto sr = c.rank("self").value();
      Rank elem = sr ? Rank::exact(std::max(*sr - 1, 0)) : Rank::top(); // one loss per sample
      Rank out = lossRank(c, elem);
      if (d != DType::Float32 && d != DType::Float64) return Value::tensor(DTypeSet::all(), out);
      if (c.dtype("target") != DType::Int64)
        return c.semantic("expected scalar type Long but found {}", name(c.dtype("target")));
      if (!label && c.arg("weight").isTensor() && c.dtype("weight") != d) return Value::tensor(DTypeSet::all(), out);
      return tensorOf(d, out);
    };
  };
  r.add("aten::multi_margin_loss", loss, marginLoss(false))
      .sample("self", "sweep![2,3]").sample("target", "sweep![2]=0").sample("weight", "None")
      .variant({{"reduction", "0"}}).variant({{"self", "float64[2,3]"}, {"target", "int64[2]=0"}, {"weight", "sweep![3]"}});
  r.add("aten::multilabel_margin_loss", loss, marginLoss(true))
      .sample("self", "sweep![2,3]").sample("target", "sweep![2,3]=0").variant({{"reduction", "0"}});
  // ctc_loss: float32/float64 log-probabilities (T, N, C) or unbatched (T, C),
  // targets of any dtype (cast to int64), integral length tensors; one loss
  // per batch item for reduction='none'.
  for (const char *k : {"aten::ctc_loss.IntList", "aten::ctc_loss.Tensor"}) {
    bool tensors = std::string_view(k).ends_with("Tensor");
    r.add(k, loss, [](const OpCall &c) -> RuleResult {
       DType d = c.dtype("log_probs");
       for (const char *len : {"input_lengths", "target_lengths"})
         if (c.arg(len).isTensor() && !isIntegral(c.dtype(len), false))
           return c.semantic("ctc_loss: {} must be integral, got {}", len, name(c.dtype(len)));
       if (d != DType::Float32 && d != DType::Float64) return c.missingKernel("no ctc_loss kernel for {}", name(d));
       auto lp = c.rank("log_probs").value();
       if (lp && *lp != 2 && *lp != 3) return c.semantic("ctc_loss: log_probs must be 2-D or 3-D, got {}-D", *lp);
       auto red = c.arg("reduction").intValue();
       Rank out = !red ? Rank::top() : *red != 0 ? Rank::exact(0) : lp ? Rank::exact(*lp == 3 ? 1 : 0) : Rank::top();
       return tensorOf(d, out);
     }).sample("log_probs", "sweep![5,1,3]=-1").sample("targets", "sweep![1,2]=1")
        .sample("input_lengths", tensors ? "int64[1]=5" : "[5]").sample("target_lengths", tensors ? "int64[1]=2" : "[2]")
        .variant({{"log_probs", "sweep![5,1,3]=-1"}, {"targets", "int64[1,2]=1"}, {"input_lengths", tensors ? "sweep![1]=5" : "[5]"},
                  {"target_lengths", tensors ? "sweep![1]=2" : "[2]"}, {"reduction", "0"}});
  }
  // The forward op also returns is_target: self's dtype and shape.
  r.add("aten::multilabel_margin_loss_forward", loss, [marginLoss](const OpCall &c) -> RuleResult {
     RuleResult out = marginLoss(true)(c);
     if (!out.ok()) return out;
     const Value &loss = out.outputs()[0];
     return std::vector<Value>{loss, Value::tensor(loss.dtypes(), c.rank("self"))};
   }).sample("self", "sweep![2,3]").sample("target", "sweep![2,3]=0").sample("reduction", "1")
      .variant({{"self", "sweep![2,3]"}, {"target", "sweep![2,3]=0"}, {"reduction", "0"}})
      .variant({{"self", "sweep![3]"}, {"target", "sweep![3]=0"}, {"reduction", "0"}});
  // pairwise_distance is norm(x1 - x2 + eps, p, -1): the real type of the
  // promoted difference (integers: float32); no bool subtraction.
  r.add("aten::pairwise_distance", loss, [](const OpCall &c) -> RuleResult {
     if (c.dtype("x1") == DType::Bool || c.dtype("x2") == DType::Bool)
       return c.semantic("subtraction with a bool tensor is not supported");
     DType d = toRealValueType(applyKind(PromotionKind::IntToFloat, promote2(c, "x1", "x2")));
     Rank b = broadcast2(c, "x1", "x2");
     auto keep = c.arg("keepdim").boolValue();
     if (!keep) return Value::tensor(DTypeSet(d), Rank::top());
     return tensorOf(d, *keep ? b : (b.value() ? Rank::exact(std::max(*b.value() - 1, 0)) : Rank::top()));
   }).sample("x1", "sweep![2,3]").sample("x2", "sweep![2,3]").variant({{"keepdim", "True"}})
      .variant({{"x1", "sweep[3]"}, {"x2", "float32[3]"}});
  // cdist: float or double operands of one dtype (CPU; half/bf16 are CUDA
  // only), batch dims broadcast: rank of the larger operand.
  for (const char *k : {"aten::cdist", "aten::_cdist_forward"})
    r.add(k, loss, [](const OpCall &c) -> RuleResult {
       DType a = c.dtype("x1"), b = c.dtype("x2");
       for (DType d : {a, b})
         if (!isFloating(d)) return c.semantic("cdist only supports floating-point dtypes, got {}", name(d));
       Rank rk = broadcast2(c, "x1", "x2");
       if (a == DType::Float16 || a == DType::BFloat16) return Value::tensor(DTypeSet::all(), rk);
       if (a != b) return c.semantic("expected scalar type {} but found {}", name(a), name(b));
       return tensorOf(a, rk);
     }).sample("x1", "sweep![2,3]").sample("x2", "sweep![2,3]").sample("p", "2.0").sample("compute_mode", "None");

  // Spectral ops: integers go through the default float; CPU (pocketfft)
  // rejects half precision with "Unsupported dtype".
  const char *spec = "nn.spectral";
  // Every transformed dim must exist (fft2's default dims -2, -1 need 2 dims;
  // a 0-dim tensor wraps like a 1-D one).
  auto fftDims = [](const OpCall &c) -> std::optional<RuleError> {
    auto rk = c.rank("self").value();
    if (!rk || !c.has("dim")) return std::nullopt;
    const Value &dim = c.arg("dim");
    std::vector<Value> dims = dim.isList() && dim.lengthKnown() ? dim.elements() : std::vector<Value>{dim};
    int n = std::max(*rk, 1);
    for (const Value &d : dims)
      if (auto v = d.intValue(); v && (*v < -n || *v >= n))
        return c.semantic("dimension out of range (expected to be in range of [{}, {}], but got {})", -n, n - 1, *v);
    return std::nullopt;
  };
  auto fftRule = [fftDims](bool realOnly) {
    return [realOnly, fftDims](const OpCall &c) -> RuleResult {
      if (auto e = fftDims(c)) return *e;
      DType d = c.dtype("self");
      if (d == DType::Float16 || d == DType::BFloat16 || d == DType::Complex32)
        return c.semantic("unsupported dtype {}", name(d));
      if (realOnly && isComplex(d)) return c.semantic("rfft expects a real input tensor, but got {}", name(d));
      DType out = (d == DType::Float64 || d == DType::Complex128) ? DType::Complex128 : DType::Complex64;
      return tensorOf(out, c.rank("self"));
    };
  };
  r.add("aten::fft_fft", spec, fftRule(false)).sample("self", "sweep![4]");
  r.add("aten::fft_ifft", spec, fftRule(false)).sample("self", "sweep![4]");
  r.add("aten::fft_rfft", spec, fftRule(true)).sample("self", "sweep![4]");
  for (const char *k : {"aten::fft_fft2", "aten::fft_ifft2"})
    r.add(k, spec, fftRule(false)).sample("self", "sweep![4,4]").variant({{"self", "sweep[4]"}});
  for (const char *k : {"aten::fft_fftn", "aten::fft_ifftn"})
    r.add(k, spec, fftRule(false)).sample("self", "sweep![4,4]");
  for (const char *k : {"aten::fft_rfft2", "aten::fft_rfftn", "aten::fft_ihfft2", "aten::fft_ihfftn"})
    r.add(k, spec, fftRule(true)).sample("self", "sweep![4,4]");
  r.add("aten::fft_ihfft", spec, fftRule(true)).sample("self", "sweep![4]");
  // The inverse real transforms (and hfft) give the real type of the complex
  // input (a real input is made complex first).
  auto realOut = [fftDims](const OpCall &c) -> RuleResult {
    if (auto e = fftDims(c)) return *e;
    DType d = c.dtype("self");
    if (d == DType::Float16 || d == DType::BFloat16 || d == DType::Complex32)
      return c.semantic("unsupported dtype {}", name(d));
    DType out = (d == DType::Float64 || d == DType::Complex128) ? DType::Float64 : DType::Float32;
    return tensorOf(out, c.rank("self"));
  };
  r.add("aten::fft_irfft", spec, realOut).sample("self", "sweep![4]");
  r.add("aten::fft_hfft", spec, realOut).sample("self", "sweep![4]");
  for (const char *k : {"aten::fft_irfft2", "aten::fft_irfftn", "aten::fft_hfft2", "aten::fft_hfftn"})
    r.add(k, spec, realOut).sample("self", "sweep![4,4]");
  // fftshift is a roll over the dims: any dtype, same rank (a 0-dim tensor
  // has no dim to roll: "`shifts` required").
  for (const char *k : {"aten::fft_fftshift", "aten::fft_ifftshift"})
    r.add(k, spec, [](const OpCall &c) -> RuleResult {
       if (auto rk = c.rank("self").value(); rk && *rk == 0) return c.semantic("`shifts` required");
       return tensorOf(c.dtype("self"), c.rank("self"));
     }).sample("self", "sweep[4]");
  // fftfreq: arange(n) scaled by 1/(n*d), in dtype= (default float32),
  // which must be floating or complex.
  for (const char *k : {"aten::fft_fftfreq", "aten::fft_rfftfreq"})
    r.add(k, spec, [](const OpCall &c) -> RuleResult {
       DType d = c.dtypeArg("dtype").value_or(DType::Float32);
       if (!isFloating(d) && !isComplex(d)) return c.semantic("requires a floating point or complex dtype, got {}", name(d));
       return tensorOf(d, Rank::exact(1));
     }).sample("n", "4");
  // stft (measured on 1.13): self must be a 1-D or 2-D floating or complex
  // tensor; it is multiplied by the window (plain promotion, both dim-tier);
  // return_complex defaults to "self or window is complex" (None on a real
  // input only warns in 1.13); the real form is view_as_real (one more dim).
  auto stftRule = [](const OpCall &c) -> RuleResult {
    DType d = c.dtype("self");
    if (!isFloating(d) && !isComplex(d))
      return c.semantic("expected a tensor of floating point or complex values, got {}", name(d));
    auto rk = c.rank("self").value();
    if (rk && *rk != 1 && *rk != 2) return c.semantic("expected a 1D or 2D tensor, got {}-D", *rk);
    // The hop defaults to n_fft / 4: 0 for n_fft < 4, which is refused.
    auto nfft = c.arg("n_fft").intValue();
    auto hop = c.isNone("hop_length") && nfft ? std::optional<int64_t>(*nfft / 4) : c.arg("hop_length").intValue();
    if (nfft && *nfft <= 0) return c.semantic("stft: expected 0 < n_fft, got n_fft={}", *nfft);
    if (hop && *hop <= 0) return c.semantic("stft: expected hop_length > 0, got hop_length={}", *hop);
    bool win = c.isTensor("window");
    DType p = win ? promoteTypes(d, c.dtype("window")) : d;
    const Value &rcArg = c.arg("return_complex");
    auto rc = rcArg.boolValue();
    if (!rcArg.isNone() && !rc) return Value::unknownTensor();
    bool complexOut = rc ? *rc : (isComplex(d) || (win && isComplex(c.dtype("window"))));
    Rank out = rk ? Rank::exact(*rk + (complexOut ? 1 : 2)) : Rank::atLeast1();
    // Half-precision FFTs: CPU (pocketfft) has none, CUDA has some.
    if (p == DType::Float16 || p == DType::BFloat16 || p == DType::Complex32)
      return Value::tensor(DTypeSet::all(), out);
    if (complexOut) return tensorOf(*toComplexType(p), out);
    return tensorOf(toRealValueType(p), out);
  };
  for (const char *k : {"aten::stft", "aten::stft.center"})
    r.add(k, spec, stftRule).sample("self", "sweep![8]").sample("n_fft", "4").sample("window", "None")
        .sample("return_complex", "True")
        .variant({{"return_complex", "False"}})
        .variant({{"return_complex", "None"}})
        .variant({{"window", "sweep![4]"}})
        .variant({{"window", "sweep![4]"}, {"return_complex", "False"}})
        .variant({{"window", "sweep![4]"}, {"return_complex", "None"}})
        .variant({{"self", "sweep![2,8]"}, {"return_complex", "None"}})
        .variant({{"n_fft", "2"}}).variant({{"n_fft", "2"}, {"hop_length", "1"}});

  // istft: the inverse of a complex stft (freq, frames) or batched; a real
  // signal unless return_complex; the window joins the dtype.
  r.add("aten::istft", spec, [](const OpCall &c) -> RuleResult {
     DType d = c.dtype("self");
     if (!isComplex(d)) return c.semantic("istft requires a complex-valued input tensor, got {}", name(d));
     auto rk = c.rank("self").value();
     if (rk && *rk != 2 && *rk != 3) return c.semantic("expected a 2D or 3D tensor, got {}-D", *rk);
     Rank out = rk ? Rank::exact(*rk - 1) : Rank::atLeast1();
     if (d == DType::Complex32) return Value::tensor(DTypeSet::all(), out);
     auto rc = c.arg("return_complex").boolValue();
     if (!rc || c.isTensor("window")) return Value::tensor(DTypeSet::all(), out);
     return tensorOf(*rc ? d : toRealValueType(d), out);
   }).sample("self", "sweep![5,3]").sample("n_fft", "8").sample("window", "None").sample("return_complex", "False")
      .variant({{"self", "sweep![2,5,3]"}, {"return_complex", "False"}});

  // The fused attention of nn.MultiheadAttention (torchvision ViT): every
  // operand must share query's dtype (the bmm/addmm kernels check it);
  // query/key/value are 3-D; the weights are averaged over heads (3-D) or
  // per head (4-D), and undefined (None) when need_weights=False.
  r.add("aten::_native_multi_head_attention", "nn.attention", [](const OpCall &c) -> RuleResult {
     if (auto rk = c.rank("query").value(); rk && *rk != 3)
       return c.semantic("expected 3-D `query`, got {}-D tensor", *rk);
     if (auto e = requireSame(c, {"query", "key", "value", "qkv_weight", "qkv_bias", "proj_weight", "proj_bias"}))
       return *e;
     DType d = c.dtype("query");
     Value out = tensorOf(d, Rank::exact(3));
     auto need = c.arg("need_weights").boolValue();
     auto avg = c.arg("average_attn_weights").boolValue();
     Value weights = Value::unknownTensor();
     // need_weights=False: an undefined tensor (None in Python).
     if (need && !*need) weights = Value::unknownTensor();
     else if (need && avg) weights = tensorOf(d, Rank::exact(*avg ? 3 : 4));
     return std::vector<Value>{out, weights};
   })
      .sample("query", "float32[1,3,4]").sample("key", "float32[1,3,4]").sample("value", "float32[1,3,4]")
      .sample("embed_dim", "4").sample("num_head", "2").sample("qkv_weight", "float32[12,4]")
      .sample("qkv_bias", "float32[12]").sample("proj_weight", "float32[4,4]").sample("proj_bias", "float32[4]")
      .sample("mask", "None")
      .variant({{"query", "float64[1,3,4]"}, {"key", "float64[1,3,4]"}, {"value", "float64[1,3,4]"}, {"qkv_weight", "float64[12,4]"}, {"qkv_bias", "float64[12]"}, {"proj_weight", "float64[4,4]"}, {"proj_bias", "float64[4]"}})
      .variant({{"query", "bfloat16[1,3,4]"}, {"key", "bfloat16[1,3,4]"}, {"value", "bfloat16[1,3,4]"}, {"qkv_weight", "bfloat16[12,4]"}, {"qkv_bias", "bfloat16[12]"}, {"proj_weight", "bfloat16[4,4]"}, {"proj_bias", "bfloat16[4]"}})
      .variant({{"query", "float16[1,3,4]"}, {"key", "float16[1,3,4]"}, {"value", "float16[1,3,4]"}, {"qkv_weight", "float16[12,4]"}, {"qkv_bias", "float16[12]"}, {"proj_weight", "float16[4,4]"}, {"proj_bias", "float16[4]"}})
      .variant({{"query", "int64[1,3,4]"}, {"key", "int64[1,3,4]"}, {"value", "int64[1,3,4]"}, {"qkv_weight", "int64[12,4]"}, {"qkv_bias", "int64[12]"}, {"proj_weight", "int64[4,4]"}, {"proj_bias", "int64[4]"}})
      .variant({{"query", "int32[1,3,4]"}, {"key", "int32[1,3,4]"}, {"value", "int32[1,3,4]"}, {"qkv_weight", "int32[12,4]"}, {"qkv_bias", "int32[12]"}, {"proj_weight", "int32[4,4]"}, {"proj_bias", "int32[4]"}})
      .variant({{"query", "complex64[1,3,4]"}, {"key", "complex64[1,3,4]"}, {"value", "complex64[1,3,4]"}, {"qkv_weight", "complex64[12,4]"}, {"qkv_bias", "complex64[12]"}, {"proj_weight", "complex64[4,4]"}, {"proj_bias", "complex64[4]"}})
      .variant({{"query", "bool[1,3,4]"}, {"key", "bool[1,3,4]"}, {"value", "bool[1,3,4]"}, {"qkv_weight", "bool[12,4]"}, {"qkv_bias", "bool[12]"}, {"proj_weight", "bool[4,4]"}, {"proj_bias", "bool[4]"}})
      .variant({{"query", "sweep![1,3,4]"}})
      .variant({{"key", "sweep![1,3,4]"}})
      .variant({{"value", "sweep![1,3,4]"}})
      .variant({{"qkv_weight", "sweep![12,4]"}})
      .variant({{"qkv_bias", "sweep![12]"}})
      .variant({{"proj_weight", "sweep![4,4]"}})
      .variant({{"proj_bias", "sweep![4]"}})
      .variant({{"average_attn_weights", "False"}})
      .variant({{"need_weights", "False"}});

  // _transform_bias_rescale_qkv (native MHA's first step): qkv [B, T, 3E]
  // plus its bias, split into q, k, v of [B, heads, T, E/heads]. A floating
  // qkv (the CPU kernel has half and bfloat16 too), a bias of qkv's dtype
  // (its shape is not checked); fewer than 3 dims raise (measured).
  r.add("aten::_transform_bias_rescale_qkv", "nn.attention", [](const OpCall &c) -> RuleResult {
     if (auto rk = c.rank("qkv").value(); rk && *rk < 3)
       return c.semantic("expected qkv of shape [B, T, 3 * embed_dim], got a {}-D tensor", *rk);
     DType d = c.dtype("qkv");
     if (!isFloating(d)) return c.missingKernel("no CPU transform_bias_rescale_qkv kernel for {}", name(d));
     if (c.dtype("qkv_bias") != d)
       return c.semantic("expected qkv_bias of qkv's dtype {}, but found {}", name(d), name(c.dtype("qkv_bias")));
     Value v = tensorOf(d, Rank::exact(4));
     return std::vector<Value>{v, v, v};
   }).sample("qkv", "sweep[2,3,12]").sample("qkv_bias", "float32[12]").sample("num_heads", "2")
      .variant({{"qkv", "float64[2,3,12]"}, {"qkv_bias", "sweep[12]"}})
      .variant({{"qkv", "sweep![2,3,12]"}, {"qkv_bias", "float16[12]"}})
      .variant({{"qkv", "sweep![2,3,12]"}, {"qkv_bias", "bfloat16[12]"}})
      .variant({{"qkv", "sweep![3,12]"}, {"qkv_bias", "float32[12]"}})
      .variant({{"qkv", "sweep![2,3,12,1]"}, {"qkv_bias", "float32[12]"}});

  // nn.TransformerEncoderLayer's fused fast path: see transformerEncoderLayer.
  {
    // embed_dim 4, 2 heads, feed-forward 8, a batch of 2 sequences of 3.
    const std::vector<std::pair<std::string, std::string>> shapes{
        {"src", "[2,3,4]"},      {"qkv_weight", "[12,4]"}, {"qkv_bias", "[12]"},     {"proj_weight", "[4,4]"},
        {"proj_bias", "[4]"},    {"norm_weight_1", "[4]"}, {"norm_bias_1", "[4]"},   {"norm_weight_2", "[4]"},
        {"norm_bias_2", "[4]"},  {"ffn_weight_1", "[8,4]"}, {"ffn_bias_1", "[8]"},   {"ffn_weight_2", "[4,8]"},
        {"ffn_bias_2", "[4]"}};
    auto allOf = [&](const std::string &dt) {
      std::map<std::string, std::string, std::less<>> m;
      for (auto &[a, sh] : shapes) m[a] = dt + sh;
      return m;
    };
    auto with = [&](std::map<std::string, std::string, std::less<>> m,
                    std::initializer_list<std::pair<const std::string, std::string>> more) {
      for (auto &[k, v] : more) m[k] = v;
      return m;
    };
    Registry::Entry e = r.add("aten::_transformer_encoder_layer_fwd", "nn.attention", transformerEncoderLayer);
    for (auto &[a, v] : allOf("float32")) e.sample(a, v);
    e.sample("embed_dim", "4").sample("num_heads", "2").sample("use_gelu", "False").sample("norm_first", "False")
        .sample("eps", "1e-05").sample("mask", "None").sample("mask_type", "None");
    // Every tensor of one dtype, with each activation and norm order.
    for (const char *dt : {"float64", "bfloat16", "float16", "int64", "int32", "complex64", "bool"}) {
      e.variant(allOf(dt));
      e.variant(with(allOf(dt), {{"use_gelu", "True"}, {"norm_first", "True"}}));
    }
    // Each tensor swept (every dtype, rank 0 and its rank) among float32 ones.
    for (auto &[a, sh] : shapes) {
      e.variant(with(allOf("float32"), {{a, "sweep" + sh}}));
      e.variant(with(allOf("float32"), {{a, "sweep" + sh}, {"use_gelu", "True"}, {"norm_first", "True"}}));
    }
    // Masks: a [B, T] padding mask of any dtype, a [B, H, T, T] one, 0-D and
    // 1-D ones; mask_type None, 0 (CUDA only), 1, 2 and out of range.
    e.variant(with(allOf("float32"), {{"mask", "sweep![2,3]"}, {"mask_type", "1"}}));
    e.variant(with(allOf("bfloat16"), {{"mask", "bool[2,3]"}, {"mask_type", "1"}}));
    e.variant(with(allOf("float32"), {{"mask", "sweep[3]"}, {"mask_type", "2"}}));
    e.variant(with(allOf("float32"), {{"mask", "bool[2,2,3,3]"}, {"mask_type", "2"}}));
    e.variant(with(allOf("float32"), {{"mask", "bool[2,3]"}, {"mask_type", "None"}}));
    e.variant(with(allOf("float32"), {{"mask", "bool[2,3]"}, {"mask_type", "0"}}));
    e.variant(with(allOf("float32"), {{"mask", "bool[2,3]"}, {"mask_type", "3"}}));
    e.variant(with(allOf("float32"), {{"mask", "None"}, {"mask_type", "1"}}));
    e.variant(with(allOf("float32"), {{"src", "float32[2,1,4]"}, {"mask", "bool[2,1]"}, {"mask_type", "1"}}));
    e.variant(with(allOf("float32"), {{"proj_bias", "float32[1,1,4]"}}));
  }

  // Recurrent layers (nn.LSTM/GRU/RNN and the cells trace to these). Results
  // keep the common dtype; the output sequence is 3-D (2-D packed data),
  // hidden states have the rank of the given ones.
  const char *rnn = "nn.rnn";
  std::map<std::string, std::string, std::less<>> flags{
      {"has_biases", "True"}, {"num_layers", "1"}, {"dropout", "0.0"}, {"train", "False"}, {"bidirectional", "False"}};
  auto inputFlags = flags;
  inputFlags["batch_first"] = "False";
  // A hidden state out has the shape of the one given (rank and size-1 facts).
  auto hiddenLike = [](const Value &h, const DTypeSet &ds) {
    return h.isTensor() ? Value::tensor(ds, h.rank()).withUnitDims(h.unitDims()) : Value::tensor(ds, Rank::top());
  };
  auto rankAt = [hiddenLike](const Value &l, size_t i, const DTypeSet &ds) {
    return l.isList() && l.lengthKnown() && l.elements().size() > i ? hiddenLike(l.elements()[i], ds)
                                                                      : Value::tensor(ds, Rank::top());
  };
  // kind: 0 = lstm (hx is a list of h and c), 1 = gru/rnn (one hx).
  auto seqRule = [rankAt, hiddenLike](bool lstm, bool packed, RnnAct act = RnnAct::InPlace) {
    return [=](const OpCall &c) -> RuleResult {
      std::string in = packed ? "data" : "input";
      int want = packed ? 2 : 3;
      if (auto rk = c.rank(in).value(); rk && *rk != want)
        return c.semantic("expected a {}-D {}, got {}-D", want, in, *rk);
      if (packed && c.dtype("batch_sizes") != DType::Int64)
        return c.semantic("batch_sizes must be int64, got {}", name(c.dtype("batch_sizes")));
      RnnCheck k = rnnCheck(c, in, {"hx", "params"}, act);
      if (k.error) return *k.error;
      DTypeSet ds = k.dtype ? DTypeSet(*k.dtype) : DTypeSet::all();
      // The output keeps the input's (seq, batch) dims (packed: its rows);
      // its last dim is hidden_size * directions.
      UnitDims f = c.arg(in).unitDims();
      uint32_t kept = packed ? 0b1 : 0b11;
      std::vector<Value> out{Value::tensor(ds, Rank::exact(want)).withUnitDims({f.ones & kept, f.others & kept})};
      if (lstm) {
        out.push_back(rankAt(c.arg("hx"), 0, ds));
        out.push_back(rankAt(c.arg("hx"), 1, ds));
      } else {
        out.push_back(hiddenLike(c.arg("hx"), ds));
      }
      return out;
    };
  };
  rnnSamples(r.add("aten::lstm.input", rnn, seqRule(true, false)), "input",
             {{"input", {"[3,1,4]"}}, {"hx_list", {"[1,1,2]", "[1,1,2]"}}, {"params", {"[8,4]", "[8,2]", "[8]", "[8]"}}},
             inputFlags);
  rnnSamples(r.add("aten::gru.input", rnn, seqRule(false, false)), "input",
             {{"input", {"[3,1,4]"}}, {"hx", {"[1,1,2]"}}, {"params", {"[6,4]", "[6,2]", "[6]", "[6]"}}}, inputFlags);
  for (const char *k : {"aten::rnn_tanh.input", "aten::rnn_relu.input"})
    rnnSamples(r.add(k, rnn, seqRule(false, false, std::string_view(k).find("relu") != std::string_view::npos
                                                        ? RnnAct::Relu : RnnAct::InPlace)), "input",
               {{"input", {"[3,1,4]"}}, {"hx", {"[1,1,2]"}}, {"params", {"[2,4]", "[2,2]", "[2]", "[2]"}}}, inputFlags);
  auto packedFlags = flags;
  packedFlags["batch_sizes"] = "int64[3]";
  rnnSamples(r.add("aten::lstm.data", rnn, seqRule(true, true)), "data",
             {{"data", {"[3,4]"}}, {"hx_list", {"[1,1,2]", "[1,1,2]"}}, {"params", {"[8,4]", "[8,2]", "[8]", "[8]"}}},
             packedFlags);
  rnnSamples(r.add("aten::gru.data", rnn, seqRule(false, true)), "data",
             {{"data", {"[3,4]"}}, {"hx", {"[1,1,2]"}}, {"params", {"[6,4]", "[6,2]", "[6]", "[6]"}}}, packedFlags);
  for (const char *k : {"aten::rnn_tanh.data", "aten::rnn_relu.data"})
    rnnSamples(r.add(k, rnn, seqRule(false, true, std::string_view(k).find("relu") != std::string_view::npos
                                                       ? RnnAct::Relu : RnnAct::InPlace)), "data",
               {{"data", {"[3,4]"}}, {"hx", {"[1,1,2]"}}, {"params", {"[2,4]", "[2,2]", "[2]", "[2]"}}}, packedFlags);
  // Cells: hx (h, c for LSTM) gives the result ranks.
  rnnSamples(r.add("aten::lstm_cell", rnn, [rankAt](const OpCall &c) -> RuleResult {
               RnnCheck k = rnnCheck(c, "input", {"hx", "w_ih", "w_hh", "b_ih", "b_hh"});
               if (k.error) return *k.error;
               DTypeSet ds = k.dtype ? DTypeSet(*k.dtype) : DTypeSet::all();
               return std::vector<Value>{rankAt(c.arg("hx"), 0, ds), rankAt(c.arg("hx"), 1, ds)};
             }),
             "input", {{"input", {"[1,4]"}}, {"hx_list", {"[1,2]", "[1,2]"}}, {"w_ih", {"[8,4]"}}, {"w_hh", {"[8,2]"}},
                       {"b_ih", {"[8]"}}, {"b_hh", {"[8]"}}}, {});
  for (const char *k : {"aten::gru_cell", "aten::rnn_tanh_cell", "aten::rnn_relu_cell"}) {
    std::string g = std::string(k) == "aten::gru_cell" ? "6" : "2";
    RnnAct act = std::string(k) == "aten::rnn_relu_cell" ? RnnAct::Relu
                 : std::string(k) == "aten::rnn_tanh_cell" ? RnnAct::TanhCell : RnnAct::InPlace;
    rnnSamples(r.add(k, rnn, [act, hiddenLike](const OpCall &c) -> RuleResult {
                 RnnCheck kk = rnnCheck(c, "input", {"hx", "w_ih", "w_hh", "b_ih", "b_hh"}, act);
                 if (kk.error) return *kk.error;
                 return hiddenLike(c.arg("hx"), kk.dtype ? DTypeSet(*kk.dtype) : DTypeSet::all());
               }),
               "input", {{"input", {"[1,4]"}}, {"hx", {"[1,2]"}}, {"w_ih", {"[" + g + ",4]"}}, {"w_hh", {"[" + g + ",2]"}},
                         {"b_ih", {"[" + g + "]"}}, {"b_hh", {"[" + g + "]"}}}, {});
  }
  // Packing for the .data forms: lengths must be a 1-D int64 tensor.
  r.add("aten::_pack_padded_sequence", rnn, [](const OpCall &c) -> RuleResult {
     if (c.dtype("lengths") != DType::Int64)
       return c.semantic("'lengths' argument should be a 1D CPU int64 tensor, but got {}", name(c.dtype("lengths")));
     auto rk = c.rank("input").value();
     if (rk && *rk < 2) return c.semantic("expected a batched input of at least 2 dims, got {}-D", *rk);
     return std::vector<Value>{tensorOf(c.dtype("input"), rk ? Rank::exact(*rk - 1) : Rank::atLeast1()),
                               tensorOf(DType::Int64, Rank::exact(1))};
   }).sample("input", "sweep![2,1,3]").sample("lengths", "sweep![1]=2").sample("batch_first", "False");
  r.add("aten::_pad_packed_sequence", rnn, [](const OpCall &c) -> RuleResult {
     auto rk = c.rank("data").value();
     auto br = c.rank("batch_sizes").value();
     if (c.dtype("batch_sizes") != DType::Int64 || (br && *br != 1))
       return c.semantic("'lengths' argument should be a 1D CPU int64 tensor, but got {} {}-D",
                         name(c.dtype("batch_sizes")), br ? std::to_string(*br) : std::string("?"));
     if (rk && *rk == 0) return c.semantic("data must have at least 1 dim, got a 0-dim tensor");
     return std::vector<Value>{tensorOf(c.dtype("data"), rk ? Rank::exact(*rk + 1) : Rank::atLeast1()),
                               tensorOf(DType::Int64, Rank::exact(1))};
   }).sample("data", "sweep![2,3]").sample("batch_sizes", "int64[2]").sample("batch_first", "False")
      .sample("padding_value", "0.0").sample("total_length", "2")
      .variant({{"data", "float32[3]"}, {"batch_sizes", "sweep![2]"}}).variant({{"batch_sizes", "int64[1,2]"}});

  r.add("aten::cross_entropy_loss", loss, [](const OpCall &c) -> RuleResult {
     DType s = c.dtype("self"), t = c.dtype("target");
     auto sr = c.rank("self").value(), tr = c.rank("target").value();
     if (sr && tr && *sr == *tr) {
       // Class probabilities.
       if (!isFloating(t)) return c.semantic("expected floating point type for target with class probabilities, got {}", name(t));
       // -(log_softmax(self) * target * weight).sum(...): the weight takes
       // part in the promotion; reduction none sums the class dim away.
       DType d = promote2(c, "self", "target");
       if (c.isTensor("weight")) {
         if (auto wr = c.rank("weight").value(); wr && *wr != 1)
           return c.semantic("weight tensor should be defined either for all classes or no classes, got a {}-D weight", *wr);
         d = promoteArgs(c, {"self", "target", "weight"});
       }
       auto red = c.arg("reduction").intValue();
       Rank rk = !red ? Rank::top() : *red != 0 ? Rank::exact(0) : *sr > 0 ? Rank::exact(*sr - 1) : Rank::top();
       return tensorOf(d, rk);
     }
     if (!sr || !tr) {
       if (isFloating(t)) return Value::unknownTensor();
     }
     if (t != DType::Int64 && t != DType::UInt8)
       return c.semantic("expected target to be int64, but got {}", name(t));
     if (c.isTensor("weight") && c.dtype("weight") != s)
       return c.semantic("expected weight to have the dtype of self ({})", name(s));
     return tensorOf(s, lossRank(c, c.rank("target")));
   }).sample("self", "sweep![2,2]").sample("target", "sweep![2]=0").sample("weight", "None")
      .variant({{"target", "sweep![2,2]=0"}})
      .variant({{"self", "float32[2,2]"}, {"target", "float32[2,2]"}, {"weight", "sweep![2]"}, {"reduction", "0"}})
      .variant({{"self", "sweep![2,2,2]"}, {"target", "sweep![2,2,2]"}, {"reduction", "0"}});
}

} // namespace dtf
