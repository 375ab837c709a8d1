//===- ops/families/nn_sequence.cpp - spectral, attention, recurrent ----===//
//
// Transforms over signals and sequences (fft, stft), the fused attention and
// transformer-encoder ops of nn.MultiheadAttention / TransformerEncoderLayer,
// and the recurrent layers: every operand shares one dtype (the matmul
// kernels check it, measured on 1.13 CPU); spectral ops take integers
// through the default float and reject half precision on CPU.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/unit_dims.h"
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"
#include "shape/unbacked.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dtf {
namespace {

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
  if (c.lacksCpuKernel(CpuKernel::Matmul, d)) return {c.missingKernel("no CPU matmul kernel for {}", name(d)), {}};
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
template <bool BiasAnyDtype> RuleResult transformerEncoderLayer(const OpCall &c) {
  if (auto v = c.rank("src").value(); v && *v != 3) return c.semantic("expected 3-D `query` (src), got {}-D", *v);
  DType d = c.dtype("src");
  bool otherBias = false;
  for (const char *n : {"qkv_weight", "qkv_bias", "proj_weight", "proj_bias", "norm_weight_1", "norm_bias_1",
                        "norm_weight_2", "norm_bias_2", "ffn_weight_1", "ffn_bias_1", "ffn_weight_2", "ffn_bias_2"})
    if (c.dtype(n) != d) {
      if (BiasAnyDtype && std::string_view(n) == "qkv_bias") { otherBias = true; continue; }
      return c.semantic("expected {} to have src's dtype {}, but got {}", n, name(d), name(c.dtype(n)));
    }
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
  if (d != DType::Float32 && d != DType::Float64 && d != DType::BFloat16 &&
      !(d == DType::Float16 && !c.lacksCpuKernel(CpuKernel::EncoderLayer, d)))
    return c.missingKernel("no CPU kernel for a {} encoder layer", name(d));
  for (const char *n : {"proj_bias", "ffn_bias_1", "ffn_bias_2"})
    if (auto v = c.rank(n).value(); v && *v > 2)
      return c.semantic("expected {} to have at most 2 dims (addmm expands it), got {}-D", n, *v);
  if (otherBias) return Value::unknownTensor();
  return tensorOf(d, Rank::exact(3)).withUnitDims(c.arg("src").unitDims());
}

} // namespace

namespace {
/// scaled_dot_product_attention (2.x; the math path on CPU, measured on
/// 2.14 CPU and meta): query, key and value of one dtype, not integral
/// ("expected scalar type Float"); a mask of bool, float32 or the query's
/// dtype; the query's dtype over the broadcast batch dims.
RuleResult scaledDotProductAttention(const OpCall &c) {
  DType q = c.dtype("query");
  for (const char *n : {"key", "value"})
    if (c.dtype(n) != q)
      return c.semantic("Expected query, key, and value to have the same dtype, but got query.dtype: {}, {}.dtype: {}",
                        name(q), n, name(c.dtype(n)));
  if (!isFloating(q) && !isComplex(q)) return c.semantic("expected scalar type Float but found {}", c10Name(q));
  if (c.isTensor("attn_mask")) {
    DType m = c.dtype("attn_mask");
    if (m != DType::Bool && m != DType::Float32 && m != q)
      return c.semantic("Expected attn_mask dtype to be bool or float or to match query dtype, got {}", name(m));
  }
  return tensorOf(q, broadcastRank({c.rank("query"), c.rank("key"), c.rank("value")}));
}

/// scaled_dot_product_attention.
void registerScaledDotProductAttention(Registry &r) {
  r.add("aten::scaled_dot_product_attention", "nn.attention", scaledDotProductAttention)
      .sample("query", "sweep![2,3,4]").sample("key", "sweep![2,3,4]").sample("value", "sweep![2,3,4]")
      .variant({{"query", "float32[2,3,4]"}, {"key", "float32[2,3,4]"}, {"value", "float32[2,3,4]"}, {"attn_mask", "sweep![3,3]"}})
      .variant({{"query", "sweep![2,3,4]"}, {"key", "sweep![2,3,4]"}, {"value", "sweep![2,3,4]"}, {"attn_mask", "sweep![3,3]"}});
}

/// The FFTs: integers go through the default float; the transformed dims and lengths checked.
void registerFfts(Registry &r) {
  // Spectral ops: integers go through the default float; CPU (pocketfft)
  // rejects half precision with "Unsupported dtype".
  const char *spec = "nn.spectral";
  // Every transformed dim must exist (fft2's default dims -2, -1 need 2 dims;
  // a 0-dim tensor wraps like a 1-D one): infer's generic check of `dim`.
  // (also float8 and bcomplex32, 2.14's).
  auto unsupported = [](DType d) { return isLowPrecision(d); };
  auto fftRule = [unsupported](bool realOnly) {
    return [realOnly, unsupported](const OpCall &c) -> RuleResult {
      DType d = c.dtype("self");
      if (unsupported(d))
        return c.semantic("unsupported dtype {}", name(d));
      if (realOnly && isComplex(d)) return c.semantic("rfft expects a real input tensor, but got {}", name(d));
      DType out = (d == DType::Float64 || d == DType::Complex128) ? DType::Complex128 : DType::Complex64;
      return tensorOf(out, c.rank("self"));
    };
  };
  // The transform's length: n >= 1; in s, -1 (self's size) or >= 1. norm: a known mode.
  const ArgCheck norm = checks::oneOf("norm", {"forward", "backward", "ortho"});
  auto lengths = [&](Registry::Entry e) {
    e.refuse(norm, {{"norm", "'bad'"}});
    if (!e.rule().schema) return; // not in this version's schema table
    if (e.rule().schema->argIndex("n") >= 0) // the 1-D transforms: of self's last dim, which a 0-dim self lacks
      e.atLeast("n", 1, "Invalid number of data points specified")
          .refuse(checks::rankAtLeast("self", 1, "Invalid number of data points: a 0-dim input"), {{"self", "float32[]"}});
    if (e.rule().schema->argIndex("s") >= 0)
      e.refuse(checks::sameLength("s", "dim", "When given, dim and shape arguments must have the same length"),
               {{"s", "[2]"}, {"dim", "[0,1]"}})
          .atLeast("s", -1, "Invalid number of data points specified")
          .refuse(checks::notEqual("s", 0, "Invalid number of data points specified"), {{"s", "[0]"}});
  };
  lengths(r.add("aten::fft_fft", spec, fftRule(false)).sample("self", "sweep![4]"));
  lengths(r.add("aten::fft_ifft", spec, fftRule(false)).sample("self", "sweep![4]"));
  lengths(r.add("aten::fft_rfft", spec, fftRule(true)).sample("self", "sweep![4]").variant({{"self", "sweep![2,5]"}, {"n", "7"}}));
  for (const char *k : {"aten::fft_fft2", "aten::fft_ifft2"})
    lengths(r.add(k, spec, fftRule(false)).sample("self", "sweep![4,4]").variant({{"self", "sweep[4]"}}));
  for (const char *k : {"aten::fft_fftn", "aten::fft_ifftn"})
    lengths(r.add(k, spec, fftRule(false)).sample("self", "sweep![4,4]").variant({{"self", "sweep![3,4,5]"}, {"s", "[6,-1]"}, {"dim", "[2,0]"}}));
  for (const char *k : {"aten::fft_rfft2", "aten::fft_rfftn", "aten::fft_ihfft2", "aten::fft_ihfftn"})
    lengths(r.add(k, spec, fftRule(true)).sample("self", "sweep![4,4]").variant({{"self", "sweep![3,4,5]"}, {"s", "[6,-1]"}}));
  lengths(r.add("aten::fft_ihfft", spec, fftRule(true)).sample("self", "sweep![4]"));
  // The inverse real transforms (and hfft) give the real type of the complex
  // input (a real input is made complex first).
  auto realOut = [unsupported](const OpCall &c) -> RuleResult {
    DType d = c.dtype("self");
    if (unsupported(d))
      return c.semantic("unsupported dtype {}", name(d));
    DType out = (d == DType::Float64 || d == DType::Complex128) ? DType::Float64 : DType::Float32;
    return tensorOf(out, c.rank("self"));
  };
  lengths(r.add("aten::fft_irfft", spec, realOut).sample("self", "sweep![4]").variant({{"self", "sweep![2,5]"}, {"n", "7"}, {"dim", "0"}}));
  lengths(r.add("aten::fft_hfft", spec, realOut).sample("self", "sweep![4]"));
  for (const char *k : {"aten::fft_irfft2", "aten::fft_irfftn", "aten::fft_hfft2", "aten::fft_hfftn"})
    lengths(r.add(k, spec, realOut).sample("self", "sweep![4,4]").variant({{"self", "sweep![3,4,5]"}, {"s", "[2,-1]"}}));
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
}

/// stft and istft, which 2.14 changed.
void registerStftIstft(Registry &r) {
  const char *spec = "nn.spectral";
  // stft (measured on 1.13): self must be a 1-D or 2-D floating or complex
  // tensor; it is multiplied by the window (plain promotion, both dim-tier);
  // return_complex defaults to "self or window is complex" (None on a real
  // input only warns in 1.13); the real form is view_as_real (one more dim).
  // 2.14 refuses return_complex=None on a real input (1.13 warned).
  auto stftRule = [](const OpCall &c, bool realNeedsReturnComplex) -> RuleResult {
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
    DType p = win ? c.promote(d, c.dtype("window")) : d;
    const Value &rcArg = c.arg("return_complex");
    if (realNeedsReturnComplex && rcArg.isNone() && !isComplex(d) && !(win && isComplex(c.dtype("window"))))
      return c.semantic("stft requires the return_complex parameter be given for real inputs");
    auto rc = rcArg.boolValue();
    if (!rcArg.isNone() && !rc) return Value::unknownTensor();
    bool complexOut = rc ? *rc : (isComplex(d) || (win && isComplex(c.dtype("window"))));
    Rank out = rk ? Rank::exact(*rk + (complexOut ? 1 : 2)) : Rank::atLeast1();
    // float8 has no complex type even for a real result (computed complex,
    // then viewed as real); bcomplex32 has no kernel that takes it.
    if (isFloat8(p)) return c.semantic("Unknown Complex ScalarType for {}", c10Name(p));
    if (p == DType::BComplex32) return c.semantic("expected scalar type ComplexDouble but found BComplex32");
    // Half-precision FFTs: CPU (pocketfft) has none, CUDA has some.
    if (p == DType::Float16 || p == DType::BFloat16 || p == DType::Complex32)
      return Value::tensor(DTypeSet::all(), out);
    if (!complexOut) return tensorOf(toRealValueType(p), out);
    if (auto z = c.toComplex(p)) return tensorOf(*z, out);
    return c.semantic("Unknown Complex ScalarType for {}", c10Name(p)); // float8
  };
  for (const char *k : {"aten::stft", "aten::stft.center"})
    for (auto [scope, realNeedsReturnComplex] : {std::pair{r.since(TorchVersion::V1_13), false},
                                                 std::pair{r.since(TorchVersion::V2_6), true}})
      scope.add(k, spec, [stftRule, realNeedsReturnComplex = realNeedsReturnComplex](const OpCall &c) { return stftRule(c, realNeedsReturnComplex); })
          .sample("self", "sweep![8]").sample("n_fft", "4").sample("window", "None")
          .sample("return_complex", "True")
          .variant({{"return_complex", "False"}})
          .variant({{"return_complex", "None"}})
          .variant({{"window", "sweep![4]"}})
          .variant({{"window", "sweep![4]"}, {"return_complex", "False"}})
          .variant({{"window", "sweep![4]"}, {"return_complex", "None"}})
          .variant({{"self", "sweep![2,8]"}, {"return_complex", "None"}})
          .variant({{"n_fft", "2"}}).variant({{"n_fft", "2"}, {"hop_length", "1"}});

  // istft: the inverse of a complex stft (freq, frames) or batched; a real
  // signal unless return_complex; the window joins the dtype. 1.13 still
  // takes (with a warning) the old real form, a float/double input whose
  // last dim of 2 holds (re, im): read as its complex view.
  // 1.13 still reads the old real (..., 2) form; 2.14 wants a complex input
  // (bcomplex32 goes through view_as_complex, which refuses it).
  for (auto [scope, realForm] : {std::pair{r.since(TorchVersion::V1_13), true}, std::pair{r.since(TorchVersion::V2_6), false}})
  scope.add("aten::istft", spec, [realForm = realForm](const OpCall &c) -> RuleResult {
     DType d = c.dtype("self");
     auto rk = c.rank("self").value();
     if (d == DType::BComplex32)
       return c.semantic("view_as_complex is only supported for half, float and double tensors, but got BFloat16");
     if (!isComplex(d) && !realForm)
       return c.semantic("istft requires a complex-valued input tensor matching the output from stft with "
                         "return_complex=True.");
     if (!isComplex(d)) {
       if (d != DType::Float32 && d != DType::Float64)
         return c.semantic("istft requires a complex-valued input tensor (or the old float/double (..., 2) form), "
                           "got {}", name(d));
       if (rk && *rk == 0) return c.semantic("istft of a real 0-dim input");
       if (rk && c.arg("self").unitDims().sizeIsOne(*rk - 1) == true)
         return c.semantic("istft of a real input needs a last dim of 2 (re, im), got 1");
       d = *c.toComplex(d);
       if (rk) rk = *rk - 1;
     }
     if (rk && *rk != 2 && *rk != 3) return c.semantic("expected a 2D or 3D tensor, got {}-D", *rk);
     Rank out = rk ? Rank::exact(*rk - 1) : Rank::atLeast1();
     if (d == DType::Complex32) return Value::tensor(DTypeSet::all(), out);
     auto rc = c.arg("return_complex").boolValue();
     if (!rc || c.isTensor("window")) return Value::tensor(DTypeSet::all(), out);
     return tensorOf(*rc ? d : toRealValueType(d), out);
   }).sample("self", "sweep![5,3]").sample("n_fft", "8").sample("window", "None").sample("return_complex", "False")
      .variant({{"self", "sweep![2,5,3]"}, {"return_complex", "False"}})
      .variant({{"self", "float32[5,3,2]"}, {"return_complex", "False"}})
      .variant({{"self", "float64[2,5,3,2]"}, {"return_complex", "False"}})
      .variant({{"self", "float64[5,3,2]"}, {"window", "sweep![8]"}, {"return_complex", "False"}})
      .variant({{"self", "int64[5,3,2]"}, {"return_complex", "False"}})
      .variant({{"self", "bfloat16[5,3,2]"}, {"return_complex", "False"}});
}

/// The fused attention ops of nn.MultiheadAttention and the transformer layers.
void registerFusedAttention(Registry &r) {
  // The fused attention of nn.MultiheadAttention (torchvision ViT): every
  // operand must share query's dtype (the bmm/addmm kernels check it);
  // query/key/value are 3-D; the weights are averaged over heads (3-D) or
  // per head (4-D), and undefined (None) when need_weights=False.
  // 2.14 (`biasAnyDtype`) also takes a qkv_bias of another dtype (bool and
  // int8 measured), with results not modelled: unknown.
  for (auto [scope, biasAnyDtype] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_6), true}})
  scope.add("aten::_native_multi_head_attention", "nn.attention", [biasAnyDtype = biasAnyDtype](const OpCall &c) -> RuleResult {
     if (auto rk = c.rank("query").value(); rk && *rk != 3)
       return c.semantic("expected 3-D `query`, got {}-D tensor", *rk);
     if (auto e = requireSame(c, {"query", "key", "value", "qkv_weight", "proj_weight", "proj_bias"})) return *e;
     if (c.dtype("qkv_bias") != c.dtype("query")) {
       if (biasAnyDtype) return std::vector<Value>{Value::unknownTensor(), Value::unknownTensor()};
       if (auto e = requireSame(c, {"query", "qkv_bias"})) return *e;
     }
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
  // 2.14 (`biasAnyDtype`) takes a float32 bias with a float16, bfloat16 or float64 qkv: unknown results.
  for (auto [scope, biasAnyDtype] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_6), true}})
  scope.add("aten::_transform_bias_rescale_qkv", "nn.attention", [biasAnyDtype = biasAnyDtype](const OpCall &c) -> RuleResult {
     if (auto rk = c.rank("qkv").value(); rk && *rk < 3)
       return c.semantic("expected qkv of shape [B, T, 3 * embed_dim], got a {}-D tensor", *rk);
     DType d = c.dtype("qkv");
     if (!isFloating(d)) return c.missingKernel("no CPU transform_bias_rescale_qkv kernel for {}", name(d));
     if (c.dtype("qkv_bias") != d) {
       if (biasAnyDtype) return std::vector<Value>(3, Value::unknownTensor());
       return c.semantic("expected qkv_bias of qkv's dtype {}, but found {}", name(d), name(c.dtype("qkv_bias")));
     }
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
    // 2.14 also takes a qkv_bias of another dtype (bool, uint8, int8 measured): unknown results.
    for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), RuleFn(transformerEncoderLayer<false>)},
                               std::pair{r.since(TorchVersion::V2_6), RuleFn(transformerEncoderLayer<true>)}}) {
    Registry::Entry e = scope.add("aten::_transformer_encoder_layer_fwd", "nn.attention", rule);
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
  }
}

/// Whether `c` asks for lstm.input's results as 2.6's torch.export records them:
/// h_n and c_n keep a step dim of 1 where the batch is not 1 ([L*D, 1, B, H]),
/// VersionFact::LstmDecompositionSqueezesStepDim. Eager and the exported module
/// run [L*D, B, H]; `check` of a 2.6 archive accepts either (--kernels meta).
bool recordsLstmStepDim(const OpCall &c) {
  return c.onMeta() && has(c.version(), VersionFact::LstmDecomposedOnExport) &&
         !has(c.version(), VersionFact::LstmDecompositionSqueezesStepDim);
}

/// A hidden state lstm.input returns, as recordsLstmStepDim has it: `given`'s
/// facts, a step dim of 1 inserted at 1 unless its batch (dim 1) is 1; rank
/// unknown where the batch's size is.
Value hiddenWithStepDim(const Value &given, const DTypeSet &ds) {
  if (!given.isTensor() || given.rank() != Rank::exact(3)) return Value::tensor(ds, Rank::top());
  const UnitDims u = given.unitDims();
  const std::optional<bool> batchIsOne = u.sizeIsOne(1);
  if (!batchIsOne) return Value::tensor(ds, Rank::top());
  if (*batchIsOne) return Value::tensor(ds, Rank::exact(3)).withUnitDims(u);
  auto widen = [](uint32_t bits) { return (bits & 1u) | (bits & 0b110u) << 1; }; // dims 1, 2 -> 2, 3
  return Value::tensor(ds, Rank::exact(4)).withUnitDims({widen(u.ones) | 0b10u, widen(u.others)});
}

/// Recurrent layers, their cells and packing.
void registerRecurrentLayers(Registry &r) {
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
  // `mixedParamsUnknown`: 2.14's lstm runs a float32 input through oneDNN,
  // which takes biases of other dtypes (bool, int16, half: measured) and
  // refuses others: parameters of another dtype give unknown results there.
  auto seqRule = [rankAt, hiddenLike](bool lstm, bool packed, RnnAct act = RnnAct::InPlace, bool mixedParamsUnknown = false) {
    return [=](const OpCall &c) -> RuleResult {
      std::string in = packed ? "data" : "input";
      int want = packed ? 2 : 3;
      if (auto rk = c.rank(in).value(); rk && *rk != want)
        return c.semantic("expected a {}-D {}, got {}-D", want, in, *rk);
      if (packed && c.dtype("batch_sizes") != DType::Int64)
        return c.semantic("batch_sizes must be int64, got {}", name(c.dtype("batch_sizes")));
      if (mixedParamsUnknown && c.dtype(in) == DType::Float32) {
        const Value &ps = c.arg("params");
        if (!ps.isList() || !ps.lengthKnown()) return std::vector<Value>(3, Value::unknownTensor());
        for (const Value &p : ps.elements())
          if (!(p.dtypes() == DTypeSet(DType::Float32))) return std::vector<Value>(3, Value::unknownTensor());
      }
      RnnCheck k = rnnCheck(c, in, {"hx", "params"}, act);
      if (k.error) return *k.error;
      DTypeSet ds = k.dtype ? DTypeSet(*k.dtype) : DTypeSet::all();
      // The output keeps the input's (seq, batch) dims (packed: its rows);
      // its last dim is hidden_size * directions.
      UnitDims f = c.arg(in).unitDims();
      uint32_t kept = packed ? 0b1 : 0b11;
      std::vector<Value> out{Value::tensor(ds, Rank::exact(want)).withUnitDims({f.ones & kept, f.others & kept})};
      if (lstm && !packed && recordsLstmStepDim(c)) {
        const Value &hx = c.arg("hx");
        for (size_t i : {0, 1})
          out.push_back(hx.isList() && hx.lengthKnown() && hx.elements().size() > i
                            ? hiddenWithStepDim(hx.elements()[i], ds)
                            : Value::tensor(ds, Rank::top()));
      } else if (lstm) {
        out.push_back(rankAt(c.arg("hx"), 0, ds));
        out.push_back(rankAt(c.arg("hx"), 1, ds));
      } else {
        out.push_back(hiddenLike(c.arg("hx"), ds));
      }
      return out;
    };
  };
  auto packedFlags = flags;
  packedFlags["batch_sizes"] = "int64[3]";
  // The padded (.input: [T, N, in]) and packed (.data: [sum of lengths, in]) forms.
  struct Form {
    const char *lstm, *gru, *rnnTanh, *rnnRelu; ///< the keys of this form
    const char *seq, *shape;
    bool packed;
    const decltype(flags) &fixed;
  };
  for (const Form &f : {Form{"aten::lstm.input", "aten::gru.input", "aten::rnn_tanh.input", "aten::rnn_relu.input",
                             "input", "[3,1,4]", false, inputFlags},
                        Form{"aten::lstm.data", "aten::gru.data", "aten::rnn_tanh.data", "aten::rnn_relu.data", "data",
                             "[3,4]", true, packedFlags}}) {
    for (auto [scope, mixed] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_6), true}})
      rnnSamples(scope.add(f.lstm, rnn, seqRule(true, f.packed, RnnAct::InPlace, mixed)), f.seq,
                 {{f.seq, {f.shape}}, {"hx_list", {"[1,1,2]", "[1,1,2]"}}, {"params", {"[8,4]", "[8,2]", "[8]", "[8]"}}},
                 f.fixed);
    Registry::Entry gru = r.add(f.gru, rnn, seqRule(false, f.packed));
    rnnSamples(gru, f.seq, {{f.seq, {f.shape}}, {"hx", {"[1,1,2]"}}, {"params", {"[6,4]", "[6,2]", "[6]", "[6]"}}}, f.fixed);
    // Two directions over a batch of 2, batch first: the output's [2, 3, 2 * 2] is no input's shape.
    if (!f.packed)
      gru.variant({{"input", "sweep![2,3,4]"}, {"hx", "float32[2,2,2]"}, {"batch_first", "True"}, {"bidirectional", "True"},
                   {"params", "[float32[6,4],float32[6,2],float32[6],float32[6],float32[6,4],float32[6,2],float32[6],float32[6]]"}});
    for (RnnAct act : {RnnAct::InPlace, RnnAct::Relu})
      rnnSamples(r.add(act == RnnAct::Relu ? f.rnnRelu : f.rnnTanh, rnn, seqRule(false, f.packed, act)), f.seq,
                 {{f.seq, {f.shape}}, {"hx", {"[1,1,2]"}}, {"params", {"[2,4]", "[2,2]", "[2]", "[2]"}}}, f.fixed);
  }
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
     const Rank out = rk ? Rank::exact(*rk + 1) : Rank::atLeast1();
     if (auto e = checkedFill(c, "padding_value", c.dtype("data"), out)) return *e; // the padding fills it first
     return std::vector<Value>{tensorOf(c.dtype("data"), out),
                               tensorOf(DType::Int64, Rank::exact(1))};
   }).sample("data", "sweep![2,3]").sample("batch_sizes", "int64[2]").sample("batch_first", "False")
      .sample("padding_value", "0.0").sample("total_length", "2")
      .variant({{"data", "float32[3]"}, {"batch_sizes", "sweep![2]"}}).variant({{"batch_sizes", "int64[1,2]"}});
}

} // namespace

void registerNnSequence(Registry &r) {
  registerScaledDotProductAttention(r);
  registerFfts(r);
  registerStftIstft(r);
  registerFusedAttention(r);
  registerRecurrentLayers(r);
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h) for the recurrent layers: the output keeps
// the input's leading dims (seq and batch in either order, or the packed
// rows) with hidden size times directions last; each hidden state out has
// the sizes of the one given (h: [layers * directions, batch, hidden or
// proj_size], c: [.., hidden]). PyTorch checks the given ones against the
// weights (check_rnn_cell_forward_hidden, RNN.cpp's check_attributes).
//===----------------------------------------------------------------------===//

namespace {

/// The sizes of element `i` of list argument `list`.
std::optional<Dims> elementDims(const OpCall &c, std::string_view list, size_t i) {
  const Value &l = c.arg(list);
  if (!l.isList() || !l.lengthKnown() || l.elements().size() <= i) return std::nullopt;
  return l.elements()[i].shape();
}

ShapeFn recurrentShape(bool lstm, bool packed) {
  return [=](const OpCall &c) -> ShapeResult {
    auto in = dimsOf(c, packed ? "data" : "input");
    auto h = lstm ? elementDims(c, "hx", 0) : dimsOf(c, "hx");
    auto directions = boolArg(c, "bidirectional");
    if (!in || !h || in->empty() || h->empty() || !directions) return {};
    std::vector<std::optional<Dims>> out{*in, *h};
    out[0]->back() = Dim(*directions ? 2 : 1) * h->back();
    if (lstm) out.push_back(elementDims(c, "hx", 1));
    if (lstm && !packed && recordsLstmStepDim(c)) // [L*D, 1, B, H] unless B is 1 (the dtype rule's rank)
      for (size_t i : {1, 2}) {
        if (!out[i] || out[i]->size() != 3) {
          out[i].reset();
          continue;
        }
        // out[i] came from hx's element i - 1, so hx holds it.
        std::optional<bool> batchIsOne = (*out[i])[1].isOne();
        if (!batchIsOne) batchIsOne = c.arg("hx").elements()[i - 1].unitDims().sizeIsOne(1);
        if (!batchIsOne) out[i].reset();
        else if (!*batchIsOne) out[i]->insert(out[i]->begin() + 1, Dim(1));
      }
    return out;
  };
}

/// Which half of a real signal's spectrum a transform's last dim holds.
enum class Half : uint8_t {
  None,    ///< complex to complex: the length
  Forward, ///< real to complex (rfft, ihfft): length // 2 + 1
  Inverse, ///< complex to real (irfft, hfft): the given length, else 2 * (size - 1)
};

/// The FFTs: each transformed dim becomes its length (`n`, or `s`'s entry;
/// absent or -1: the input's size), the last one by `half`.
ShapeFn fftShape(bool oneDim, Half half) {
  return [=](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    if (!self || self->empty()) return {};
    const int rank = static_cast<int>(self->size());
    std::vector<int64_t> dims;
    Dims lengths; // unknown Dim: the input's size
    if (oneDim) {
      auto d = intArg(c, "dim");
      if (!d) return {};
      dims = {*d};
      lengths = {c.arg("n").isNone() ? Dim() : symIntArg(c, "n")};
      if (!c.arg("n").isNone() && !lengths[0].known()) return {};
    } else {
      std::optional<Dims> s;
      if (!c.arg("s").isNone() && !(s = sizeListArg(c, "s"))) return {};
      if (!c.arg("dim").isNone()) {
        auto d = intListArg(c, "dim");
        if (!d) return {};
        dims = *d;
      } else {
        for (int i = s ? rank - static_cast<int>(s->size()) : 0; i < rank; ++i) dims.push_back(i);
      }
      lengths = s ? *s : Dims(dims.size());
      if (lengths.size() != dims.size()) return {};
      for (Dim &l : lengths)
        if (!s) break;
        else if (l.value() == -1) l = Dim();
        else if (!l.known()) return {}; // a symbolic length that may be -1
    }
    if (dims.empty()) return *self;
    for (size_t i = 0; i < dims.size(); ++i) {
      auto w = wrapDim(dims[i], rank);
      if (!w) return {};
      Dim &out = (*self)[*w];
      const bool last = i + 1 == dims.size();
      if (last && half == Half::Forward) out = floorDiv(lengths[i].known() ? lengths[i] : out, Dim(2)) + Dim(1);
      else if (last && half == Half::Inverse) out = lengths[i].known() ? lengths[i] : Dim(2) * (out - Dim(1));
      else if (lengths[i].known()) out = lengths[i];
    }
    return *self;
  };
}

/// stft: [*, freq, frames] (complex) or [*, freq, frames, 2] (real):
/// frames = 1 + (L - n_fft) // hop over the signal (stft.center with
/// center pads n_fft // 2 on each side), hop n_fft // 4 by default; freq
/// n_fft // 2 + 1 when onesided (the default for a real input and window),
/// else n_fft.
ShapeResult stftShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto nfft = intArg(c, "n_fft");
  if (!self || (self->size() != 1 && self->size() != 2) || !nfft || *nfft <= 0) return {};
  auto hop = c.isNone("hop_length") ? std::optional<int64_t>(*nfft / 4) : intArg(c, "hop_length");
  auto center = c.has("center") ? boolArg(c, "center") : std::optional<bool>(false);
  auto selfDtype = c.arg("self").dtype();
  if (!hop || *hop <= 0 || !center || !selfDtype) return {};
  bool complexIn = isComplex(*selfDtype);
  if (c.isTensor("window")) {
    auto w = c.arg("window").dtype();
    if (!w) return {};
    complexIn = complexIn || isComplex(*w);
  }
  auto onesided = c.isNone("onesided") ? std::optional<bool>(!complexIn) : boolArg(c, "onesided");
  auto complexOut = c.isNone("return_complex") ? (complexIn ? std::optional<bool>(true) : std::nullopt)
                                                : boolArg(c, "return_complex");
  if (!onesided || !complexOut) return {};
  const Dim length = self->back() + Dim(*center ? 2 * (*nfft / 2) : 0);
  if (auto l = length.value(); l && *l < *nfft) return {}; // PyTorch raises
  Dims out(self->begin(), self->end() - 1);
  out.push_back(Dim(*onesided ? *nfft / 2 + 1 : *nfft));
  out.push_back(floorDiv(length - Dim(*nfft), Dim(*hop)) + Dim(1));
  if (!*complexOut) out.push_back(Dim(2));
  return out;
}

/// istft of a complex [*, freq, frames]: [*, length], or n_fft + hop *
/// (frames - 1) samples less the n_fft // 2 on each side that center
/// padded. (A real input, 1.13's view_as_real form, is left unknown.)
ShapeResult istftShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto nfft = intArg(c, "n_fft");
  auto d = c.arg("self").dtype();
  if (!self || (self->size() != 2 && self->size() != 3) || !nfft || *nfft <= 0 || !d || !isComplex(*d)) return {};
  Dims out(self->begin(), self->end() - 2);
  if (!c.isNone("length")) {
    Dim length = symIntArg(c, "length");
    if (!length.known()) return {};
    out.push_back(length);
    return out;
  }
  auto hop = c.isNone("hop_length") ? std::optional<int64_t>(*nfft / 4) : intArg(c, "hop_length");
  auto center = boolArg(c, "center");
  if (!hop || *hop <= 0 || !center) return {};
  Dim samples = Dim(*nfft) + Dim(*hop) * (self->back() - Dim(1)) - Dim(*center ? 2 * (*nfft / 2) : 0);
  if (auto v = samples.value(); v && *v < 0) return {};
  out.push_back(samples);
  return out;
}

/// _pack_padded_sequence: the data's rows are sum(lengths) and batch_sizes
/// has max(lengths) entries, both values of `lengths`: data-dependent, two
/// unbacked symbols (shape/unbacked.h), at most T*B and T; the data's other
/// dims are the input's past seq and batch.
/// PyTorch checks len(lengths) against the batch size.
ShapeResult packPaddedShape(const OpCall &c) {
  auto in = dimsOf(c, "input"), lengths = dimsOf(c, "lengths");
  auto batchFirst = boolArg(c, "batch_first");
  if (!in || !lengths || !batchFirst || in->size() < 2 || lengths->size() != 1) return {};
  const Dim &batch = (*in)[*batchFirst ? 0 : 1];
  ShapeResult out;
  if (compareDims((*lengths)[0], batch) == DimsEqual::Differ && (*lengths)[0].value() && batch.value())
    return c.semantic("Expected `len(lengths)` to be equal to batch_size, but got {} (batch_size={})",
                      (*lengths)[0].str(), batch.str());
  const Dim &steps = (*in)[*batchFirst ? 1 : 0];
  Dims data{unbackedDim(0, {0, (steps * batch).range().hi})};
  data.insert(data.end(), in->begin() + 2, in->end());
  out.outputs = {data, Dims{unbackedDim(1, {0, steps.range().hi})}};
  return out;
}

/// _pad_packed_sequence: [T, B, *data[1:]] (batch_first: [B, T, ...]) and
/// lengths [B]. B is batch_sizes[0], a value (an unbacked symbol); T is
/// len(batch_sizes), or total_length when positive (PyTorch raises when it
/// is shorter).
ShapeResult padPackedShape(const OpCall &c) {
  auto data = dimsOf(c, "data"), sizes = dimsOf(c, "batch_sizes");
  auto batchFirst = boolArg(c, "batch_first");
  if (!data || !sizes || !batchFirst || data->empty() || sizes->size() != 1) return {};
  Dim steps = (*sizes)[0];
  const Dim total = symIntArg(c, "total_length");
  if (auto t = total.value(); t && *t > 0) {
    if (auto n = steps.value(); n && *t < *n)
      return c.semantic("Expected total_length to be at least the length of the longest sequence in input, but got "
                        "total_length={} and max sequence length being {}", *t, *n);
    steps = total;
  } else if (!total.value() && !(compareDims(total, steps) == DimsEqual::Equal && total.range().lo > 0)) {
    steps = Dim(); // a symbolic total_length: which one wins is not known
  }
  const Dim batch = unbackedDim(0, {0, (*data)[0].range().hi}); // at most one sequence per row
  Dims padded{steps, batch};
  if (*batchFirst) std::swap(padded[0], padded[1]);
  padded.insert(padded.end(), data->begin() + 1, data->end());
  return std::vector<std::optional<Dims>>{padded, Dims{batch}};
}

/// pad_sequence (torch.nn.utils.rnn): [longest, len(sequences), *first's
/// trailing dims], the first two swapped with batch_first.
ShapeResult padSequenceShape(const OpCall &c) {
  const Value &l = c.arg("sequences");
  auto batchFirst = boolArg(c, "batch_first");
  if (!l.isList() || !l.lengthKnown() || l.elements().empty() || !batchFirst) return {};
  auto first = l.elements()[0].shape();
  if (!first || first->empty()) return {};
  Dim longest = (*first)[0];
  for (const Value &e : l.elements()) {
    auto d = e.shape();
    if (!d || d->empty()) return {};
    longest = maxDim(longest, (*d)[0]);
  }
  Dims out{longest, Dim(static_cast<int64_t>(l.elements().size()))};
  if (*batchFirst) std::swap(out[0], out[1]);
  out.insert(out.end(), first->begin() + 1, first->end());
  return out;
}

} // namespace

void registerNnSequenceShapes(Registry &r) {
  for (auto [k, half] : {std::pair{"aten::fft_fft", Half::None}, {"aten::fft_ifft", Half::None},
                         {"aten::fft_rfft", Half::Forward}, {"aten::fft_ihfft", Half::Forward},
                         {"aten::fft_irfft", Half::Inverse}, {"aten::fft_hfft", Half::Inverse}})
    r.shape(k, fftShape(true, half));
  for (auto [k, half] : {std::pair{"aten::fft_fft2", Half::None}, {"aten::fft_ifft2", Half::None},
                         {"aten::fft_fftn", Half::None}, {"aten::fft_ifftn", Half::None},
                         {"aten::fft_rfft2", Half::Forward}, {"aten::fft_rfftn", Half::Forward},
                         {"aten::fft_ihfft2", Half::Forward}, {"aten::fft_ihfftn", Half::Forward},
                         {"aten::fft_irfft2", Half::Inverse}, {"aten::fft_irfftn", Half::Inverse},
                         {"aten::fft_hfft2", Half::Inverse}, {"aten::fft_hfftn", Half::Inverse}})
    r.shape(k, fftShape(false, half));
  for (const char *k : {"aten::fft_fftshift", "aten::fft_ifftshift"}) r.shape(k, sameShapeAs());
  // The fused attention: the encoder layer keeps src's sizes; native MHA's
  // output has query's, its weights [B, (H,) T, S] when asked for.
  r.shape("aten::_transformer_encoder_layer_fwd", sameShapeAs("src"));
  r.shape("aten::_native_multi_head_attention", [](const OpCall &c) -> ShapeResult {
    auto q = dimsOf(c, "query"), k = dimsOf(c, "key");
    auto heads = intArg(c, "num_head");
    auto need = boolArg(c, "need_weights"), average = boolArg(c, "average_attn_weights");
    if (!q || !k || q->size() != 3 || k->size() != 3) return {};
    std::vector<std::optional<Dims>> out{*q, std::nullopt};
    if (need == true && average && heads)
      out[1] = *average ? Dims{(*q)[0], (*q)[1], (*k)[1]} : Dims{(*q)[0], Dim(*heads), (*q)[1], (*k)[1]};
    return out;
  });
  // scaled_dot_product_attention: softmax(q k^T + mask) v, batch dims
  // broadcast as matmul's: [*, L, Ev]. (With enable_gqa, k and v have fewer
  // heads than q: not claimed.)
  r.shape("aten::scaled_dot_product_attention", [](const OpCall &c) -> ShapeResult {
    if (c.has("enable_gqa") && boolArg(c, "enable_gqa") != false) return {};
    std::vector<Dims> batches;
    for (const char *a : {"query", "key", "value", "attn_mask"}) {
      if (c.isNone(a)) continue;
      auto d = dimsOf(c, a);
      if (!d || d->size() < 2) return {};
      batches.emplace_back(d->begin(), d->end() - 2);
    }
    Broadcast out = broadcastShapes(batches);
    auto q = dimsOf(c, "query"), v = dimsOf(c, "value");
    if (!out.dims) return {};
    out.dims->push_back((*q)[q->size() - 2]);
    out.dims->push_back(v->back());
    return *out.dims;
  });
  // q, k, v of qkv [B, T, 3 * D]: each [B, heads, T, D / heads].
  r.shape("aten::_transform_bias_rescale_qkv", [](const OpCall &c) -> ShapeResult {
    auto qkv = dimsOf(c, "qkv");
    auto heads = intArg(c, "num_heads");
    if (!qkv || qkv->size() != 3 || !heads || *heads <= 0) return {};
    auto width = (*qkv)[2].value();
    if (!width || *width % (3 * *heads) != 0) return {};
    return repeatedShape(Dims{(*qkv)[0], Dim(*heads), (*qkv)[1], Dim(*width / (3 * *heads))}, 3);
  });
  r.shape("aten::fft_fftfreq", [](const OpCall &c) -> ShapeResult {
    auto n = newTensorSizes(c, "n");
    return n ? ShapeResult(*n) : ShapeResult{};
  });
  r.shape("aten::fft_rfftfreq", [](const OpCall &c) -> ShapeResult {
    auto n = newTensorSizes(c, "n");
    return n ? ShapeResult(Dims{floorDiv((*n)[0], Dim(2)) + Dim(1)}) : ShapeResult{};
  });
  for (bool packed : {false, true}) {
    const std::string form = packed ? ".data" : ".input";
    r.shape("aten::lstm" + form, recurrentShape(true, packed));
    for (const char *k : {"aten::gru", "aten::rnn_tanh", "aten::rnn_relu"}) r.shape(k + form, recurrentShape(false, packed));
  }
  r.shape("aten::lstm_cell", [](const OpCall &c) -> ShapeResult {
    return std::vector<std::optional<Dims>>{elementDims(c, "hx", 0), elementDims(c, "hx", 1)};
  });
  for (const char *k : {"aten::gru_cell", "aten::rnn_tanh_cell", "aten::rnn_relu_cell"}) r.shape(k, sameShapeAs("hx"));
  for (const char *k : {"aten::stft", "aten::stft.center"}) r.shape(k, stftShape);
  r.shape("aten::istft", istftShape);
  r.shape("aten::_pack_padded_sequence", packPaddedShape);
  r.shape("aten::_pad_packed_sequence", padPackedShape);
  // pad_sequence's dtype rule is in shape_views.cpp (the joins); its sizes
  // are the recurrent layers' padding.
  r.shape("aten::pad_sequence", padSequenceShape);
}

} // namespace dtf
