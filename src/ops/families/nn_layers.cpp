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
#include "ops/vocabulary.h"

#include <optional>
#include <string>
#include <vector>

namespace dtf {
namespace {

bool present(const OpCall &c, std::string_view n) { return c.arg(n).isTensor(); }

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
    if (!present(c, n)) continue;
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
        if (c.arg(n).isNone()) return c.semantic("{} must be defined in evaluation mode", n);
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
std::optional<RuleError> dropoutCheck(const OpCall &c, std::string_view in) {
  DType d = c.dtype(in);
  if (!isIntegral(d, true)) return std::nullopt;
  auto train = c.arg("train").boolValue();
  auto p = c.arg("p").floatValue();
  if (train && *train && p && *p > 0 && *p < 1)
    return c.semantic("result type float32 can't be cast to the desired output type {}", name(d));
  return std::nullopt;
}

RuleFn dropoutRule(std::string in, bool feature) {
  return [in, feature](const OpCall &c) -> RuleResult {
    if (feature)
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
  DType t = c.dtype("target");
  if (t != DType::Int64 && !(allowByte && t == DType::UInt8))
    return c.semantic("expected target to be int64, but got {}", name(t));
  if (present(c, "weight") && c.dtype("weight") != c.dtype("self"))
    return c.semantic("expected weight ({}) to have the dtype of self ({})", name(c.dtype("weight")),
                      name(c.dtype("self")));
  return tensorOf(c.dtype("self"), lossRank(c, c.rank("target")));
}

RuleResult nllRule(const OpCall &c) { return nllRuleImpl(c, true); }
RuleResult nll2dRule(const OpCall &c) { return nllRuleImpl(c, false); }

} // namespace

void registerNnLayers(Registry &r) {
  const char *pool = "nn.pool";
  struct Pool { const char *key; int rank; const char *kernel; };
  for (Pool p : std::vector<Pool>{{"aten::max_pool1d", 3, "[1]"}, {"aten::max_pool2d", 4, "[1,1]"},
                                  {"aten::max_pool3d", 5, "[1,1,1]"}, {"aten::avg_pool1d", 3, "[1]"},
                                  {"aten::avg_pool2d", 4, "[1,1]"}, {"aten::avg_pool3d", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    r.add(p.key, pool, keepInput("self", p.rank - 1)).sample("self", shape).sample("kernel_size", p.kernel);
  }
  for (Pool p : std::vector<Pool>{{"aten::max_pool1d_with_indices", 3, "[1]"},
                                  {"aten::max_pool2d_with_indices", 4, "[1,1]"},
                                  {"aten::max_pool3d_with_indices", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    r.add(p.key, pool, withIndices(p.rank - 1)).sample("self", shape).sample("kernel_size", p.kernel);
  }
  for (Pool p : std::vector<Pool>{{"aten::adaptive_avg_pool1d", 3, "[1]"},
                                  {"aten::adaptive_avg_pool2d", 4, "[1,1]"},
                                  {"aten::adaptive_avg_pool3d", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    r.add(p.key, pool, adaptiveAvg(p.rank - 1)).sample("self", shape).sample("output_size", p.kernel);
  }
  r.add("aten::_adaptive_avg_pool2d", pool, keepInput("self", 3))
      .sample("self", "sweep![1,1,2,2]").sample("output_size", "[1,1]");
  for (Pool p : std::vector<Pool>{{"aten::adaptive_max_pool1d", 3, "[1]"},
                                  {"aten::adaptive_max_pool2d", 4, "[1,1]"},
                                  {"aten::adaptive_max_pool3d", 5, "[1,1,1]"}}) {
    std::string shape = p.rank == 3 ? "sweep![1,1,2]" : p.rank == 4 ? "sweep![1,1,2,2]" : "sweep![1,1,2,2,2]";
    r.add(p.key, pool, withIndices(p.rank - 1)).sample("self", shape).sample("output_size", p.kernel);
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
       if (c.arg("running_mean").isNone() || c.arg("running_var").isNone())
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
    if (present(c, "per_sample_weights")) {
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
        .variant({{"train", "False"}});
  for (const char *k : {"aten::feature_dropout", "aten::feature_alpha_dropout"})
    r.add(k, drop, dropoutRule("input", true)).sample("input", "sweep![2,2]").sample("p", "0.5").sample("train", "True");
  for (const char *k : {"aten::dropout_", "aten::alpha_dropout_"})
    r.add(k, drop, dropoutRule("self", false)).sample("p", "0.5").sample("train", "True");
  for (const char *k : {"aten::feature_dropout_", "aten::feature_alpha_dropout_"})
    r.add(k, drop, dropoutRule("self", true)).sample("self", "sweep![2,2]").sample("p", "0.5").sample("train", "True");
  r.add("aten::native_dropout", drop, [](const OpCall &c) -> RuleResult {
     if (auto e = dropoutCheck(c, "input")) return *e;
     Rank rk = c.rank("input");
     return std::vector<Value>{tensorOf(c.dtype("input"), rk), tensorOf(DType::Bool, rk)};
   }).sample("p", "0.5").sample("train", "True").variant({{"train", "False"}});

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
           {"aten::native_channel_shuffle", "self", 3, {{"self", "sweep![1,2,2,2]"}, {"groups", "2"}}},
       }) {
    auto e = r.add(k.key, rs, keepInput(k.in, k.minRank));
    for (auto &[a, v] : k.s) e.sample(a, v);
  }
  r.add("aten::constant_pad_nd", rs, keepInput("self")).sample("self", "sweep![2,2]").sample("pad", "[1,1]")
      .sample("value", "0");
  r.add("aten::pad", rs, keepInput("self")).sample("self", "sweep![2,2]").sample("pad", "[1,1]");
  for (const char *k : {"aten::grid_sampler", "aten::grid_sampler_2d"})
    r.add(k, rs, [](const OpCall &c) -> RuleResult {
       if (auto e = requireSame(c, {"input", "grid"})) return *e;
       return tensorOf(c.dtype("input"), c.rank("input"));
     }).sample("input", "sweep![1,1,2,2]").sample("grid", "sweep![1,2,2,2]").sample("interpolation_mode", "0")
        .sample("padding_mode", "0").sample("align_corners", "False");
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
     return tensorOf(d, b.value() ? Rank::exact(std::max(*b.value() - 1, 0)) : Rank::top());
   }).sample("x1", "sweep![2,2]").sample("x2", "sweep![2,2]");
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
     if (present(c, "weight")) {
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
     if (present(c, "pos_weight") && c.dtype("pos_weight") == DType::Bool)
       return c.semantic("subtraction with a bool tensor (pos_weight) is not supported");
     if (s == DType::Bool) return c.semantic("negation on a bool tensor is not supported");
     if (isIntegral(s)) return c.semantic("result type float32 can't be cast to the desired output type {}", name(s));
     if (isComplex(s)) return c.semantic("clamp is not supported for complex types");
     if (t == DType::Bool) return c.semantic("subtraction with bool tensors is not supported");
     DType p = promote2(c, "self", "target");
     if (!canCast(p, t))
       return c.semantic("result type {} can't be cast to the desired output type {}", name(p), name(t));
     Rank lossR = broadcast2(c, "self", "target");
     if (present(c, "pos_weight")) {
       std::vector<PromotionOperand> ops{operandOf(c, "pos_weight"), operandOf(c, "target")};
       DType lw = *resultType(ops);
       Rank lwR = broadcast2(c, "pos_weight", "target");
       if (auto e = inplace(lw, lwR, s, c.rank("self"))) return *e;
       if (auto e = inplace(t, lossR, lw, lwR)) return *e;
     }
     if (present(c, "weight"))
       if (auto e = inplace(t, lossR, c.dtype("weight"), c.rank("weight"))) return *e;
     return tensorOf(t, lossRank(c, lossR));
   }).sample("self", "sweep![2,2]=0.5").sample("target", "sweep![2,2]=0.5");
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
      .sample("weight", "None");
  // What F.cross_entropy / F.nll_loss trace to for inputs of any rank.
  r.add("aten::nll_loss_nd", loss, nllRule).sample("self", "sweep![2,2]").sample("target", "sweep![2]=0")
      .sample("weight", "None");
  // nll_loss2d needs a 4-D input and a 3-D target.
  r.add("aten::nll_loss2d", loss, nll2dRule).sample("self", "sweep![1,2,1,1]").sample("target", "sweep![1,1,1]=0")
      .sample("weight", "None");
  r.add("aten::nll_loss_forward", loss, [](const OpCall &c) -> RuleResult {
     RuleResult out = nllRule(c);
     if (!out.ok()) return out;
     return std::vector<Value>{out.outputs()[0], tensorOf(c.dtype("self"), Rank::exact(0))};
   }).sample("self", "sweep![2,2]").sample("target", "sweep![2]=0").sample("weight", "None")
      .sample("reduction", "1").sample("ignore_index", "-100");
  r.add("aten::nll_loss_backward", loss, [](const OpCall &c) -> RuleResult {
     DType t = c.dtype("target");
     if (t != DType::Int64 && t != DType::UInt8)
       return c.semantic("expected target to be int64, but got {}", name(t));
     if (auto e = requireSame(c, {"self", "grad_output", "weight", "total_weight"})) return *e;
     return tensorOf(c.dtype("self"), c.rank("self"));
   }).sample("grad_output", "sweep![]").sample("self", "sweep![2,2]").sample("target", "sweep![2]=0")
      .sample("weight", "None").sample("reduction", "1").sample("ignore_index", "-100")
      .sample("total_weight", "sweep![]");
  // Spectral ops: integers go through the default float; CPU (pocketfft)
  // rejects half precision with "Unsupported dtype".
  const char *spec = "nn.spectral";
  auto fftRule = [](bool realOnly) {
    return [realOnly](const OpCall &c) -> RuleResult {
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
    bool win = present(c, "window");
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
        .variant({{"self", "sweep![2,8]"}, {"return_complex", "None"}});

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

  r.add("aten::cross_entropy_loss", loss, [](const OpCall &c) -> RuleResult {
     DType s = c.dtype("self"), t = c.dtype("target");
     auto sr = c.rank("self").value(), tr = c.rank("target").value();
     if (sr && tr && *sr == *tr) {
       // Class probabilities.
       if (!isFloating(t)) return c.semantic("expected floating point type for target with class probabilities, got {}", name(t));
       return tensorOf(promote2(c, "self", "target"), lossRank(c, c.rank("target")));
     }
     if (!sr || !tr) {
       if (isFloating(t)) return Value::unknownTensor();
     }
     if (t != DType::Int64 && t != DType::UInt8)
       return c.semantic("expected target to be int64, but got {}", name(t));
     if (present(c, "weight") && c.dtype("weight") != s)
       return c.semantic("expected weight to have the dtype of self ({})", name(s));
     return tensorOf(s, lossRank(c, c.rank("target")));
   }).sample("self", "sweep![2,2]").sample("target", "sweep![2]=0").sample("weight", "None")
      .variant({{"target", "sweep![2,2]=0"}});
}

} // namespace dtf
