//===- ops/families/nn_losses.cpp - distances and losses -----------------===//
//
// Losses keep self's dtype or promote as ATen does (measured on 1.13 CPU):
// class-index targets must be int64 (uint8 too for nll_loss), weights must
// match self, reduction none keeps the elementwise rank and the others give
// a 0-dim result.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"

#include <cmath>

#include <string>
#include <vector>

namespace dtf {
namespace {

PromotionOperand operandOf(const OpCall &c, std::string_view n) {
  return {c.dtype(n), tierOf(c.rank(n))};
}

DType promote2(const OpCall &c, std::string_view a, std::string_view b) {
  std::vector<PromotionOperand> ops{operandOf(c, a), operandOf(c, b)};
  return c.resultType(ops);
}

Rank lossRank(const OpCall &c, Rank elementwise) {
  auto red = c.arg("reduction").intValue();
  if (!red) return Rank::top();
  if (*red == 1 || *red == 2) return Rank::exact(0);
  if (*red == 0) return elementwise;
  // Another value: most losses reduce only for mean (1) and sum (2) and return
  // the elementwise loss (l1, kl_div, bce, huber ...), some reduce anyway
  // (nll_loss, soft_margin): not known here.
  return Rank::top();
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
  // Unreduced, the loss has one value per sample: self's rank less the class
  // dim, so a 1-D self (one sample, or 1.13's batch of a same-size target) gives 0-dim.
  Rank perSample = selfRank ? Rank::exact(std::max(*selfRank - 1, 0)) : Rank::top();
  return tensorOf(c.dtype("self"), lossRank(c, perSample));
}

RuleResult nllRule(const OpCall &c) { return nllRuleImpl(c, true); }
RuleResult nll2dRule(const OpCall &c) { return nllRuleImpl(c, false); }

/// The loss's rank for self's (lossRank).
Rank lossOfSelf(const OpCall &c) { return lossRank(c, c.rank("self")); }

/// A pointwise loss on meta in 2.6 and 2.14, where FakeTensor runs its
/// Python decomposition: the promoted dtype of self and target, not self's
/// (huber_loss, soft_margin_loss; measured over every dtype pair with
/// reduction mean: promote_types, and two bools raise). An integral result
/// with another reduction was not measured: unknown.
RuleFn promotedLossOnMeta() {
  return [](const OpCall &c) -> RuleResult {
    DType s = c.dtype("self"), t = c.dtype("target");
    if (s == DType::Bool && t == DType::Bool) return Value::unknownTensor();
    DType p = promote2(c, "self", "target");
    auto red = c.arg("reduction").intValue();
    if (!isFloating(p) && !isComplex(p) && red != 1) return Value::unknownTensor();
    return tensorOf(p, lossRank(c, broadcast2(c, "self", "target")));
  };
}

/// binary_cross_entropy_with_logits on 2.6's meta (FakeTensor): without
/// weights, floating or complex self and target give their promoted dtype
/// (the CPU kernel gives target's); measured over every dtype pair. Other
/// calls answer as the CPU (integral operands raise on both).
RuleFn bceWithLogitsOnMeta26(RuleFn cpu) {
  return [cpu = std::move(cpu)](const OpCall &c) -> RuleResult {
    DType s = c.dtype("self"), t = c.dtype("target");
    auto floatLike = [](DType d) { return isFloating(d) || isComplex(d); };
    if (c.isTensor("weight") || c.isTensor("pos_weight") || !floatLike(s) || !floatLike(t)) return cpu(c);
    return tensorOf(promote2(c, "self", "target"), lossRank(c, broadcast2(c, "self", "target")));
  };
}

/// cosine_similarity and pdist.
void registerSimilarities(Registry &r) {
  const char *loss = "nn.loss";
  // cosine_similarity: result_type(x1, x2) must be floating. 1.13 computes
  // in it. 2.14 casts only an integral (or bool) operand to it, expands both
  // and divides and multiplies them, so the result promotes their dtypes as
  // tensors of one rank: a 0-dim float64 x1 with a 2-D bfloat16 x2 gives
  // float64 (1.13: bfloat16), bfloat16 with float16 gives float32 (measured
  // on 2.14.1; pairwise_distance and cdist kept 1.13's way).
  for (auto [scope, expandFirst] : {std::pair{r.since(TorchVersion::V1_13), false},
                                    std::pair{r.since(TorchVersion::V2_6), true}})
    scope.add("aten::cosine_similarity", loss, [expandFirst = expandFirst](const OpCall &c) -> RuleResult {
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
       if (expandFirst) {
         auto cast = [&](std::string_view x) { return isIntegral(c.dtype(x), true) ? d : c.dtype(x); };
         d = c.promote(cast("x1"), cast("x2"));
       }
       return tensorOf(d, b.value() ? Rank::exact(std::max(*b.value() - 1, 0)) : Rank::top());
     }).sample("x1", "sweep![2,2]").sample("x2", "sweep![2,2]").variant({{"x1", "sweep[2]"}, {"x2", "float32[2]"}})
        .variant({{"x1", "sweep![]"}, {"x2", "sweep![2,2]"}, {"dim", "1"}})
        .variant({{"x1", "sweep![2,2]"}, {"x2", "sweep![]"}, {"dim", "1"}});
  r.add("aten::pdist", loss, [](const OpCall &c) -> RuleResult {
     if (!isFloating(c.dtype("self")))
       return c.semantic("pdist only supports floating-point dtypes, got {}", name(c.dtype("self")));
     return tensorOf(c.dtype("self"), Rank::exact(1));
   }).sample("self", "sweep![2,2]").variant({{"self", "sweep![4,2]"}})
      .refuse(checks::numberWithin("p", 0, INFINITY, "pdist only supports non-negative p values"), {{"p", "-1.0"}})
      .refuse(checks::rankIn("self", {2}, "pdist only supports 2D tensors"), {{"self", "float32[2]"}});
  // pdist's kernel called directly (what a traced F.pdist records): no dtype
  // or rank check before the kernel, which has float and double only and is
  // not reached for fewer than two rows (any dtype, a 1-D input too): those
  // raise by size, not known here. A 0-dim input has no rows to count.
  r.add("aten::_pdist_forward", loss, [](const OpCall &c) -> RuleResult {
     if (c.rank("self") == Rank::exact(0)) return c.semantic("dimension specified as 0 but tensor has no dimensions");
     return tensorOf(c.dtype("self"), Rank::exact(1));
   }).sample("self", "sweep[3,2]").variant({{"self", "sweep![2,3,2]"}});
}

/// mse, smooth_l1, l1, huber and kl_div.
void registerRegressionLosses(Registry &r) {
  const char *loss = "nn.loss";
  // Their kernels assert a reduction of 0, 1 or 2; smooth_l1's beta must not be negative.
  for (const char *k : {"aten::mse_loss", "aten::smooth_l1_loss"}) {
    auto e = r.add(k, loss, [](const OpCall &c) -> RuleResult {
       return tensorOf(promote2(c, "self", "target"), lossRank(c, broadcast2(c, "self", "target")));
     }).sample("self", "sweep![2,2]").sample("target", "sweep![2,2]").variant({{"reduction", "0"}})
      .refuse(checks::numberWithin("reduction", 0, 2, "reduction must be 0 (none), 1 (mean) or 2 (sum)"),
              {{"reduction", "3"}});
    if (std::string_view(k) == "aten::smooth_l1_loss")
      e.refuse(checks::numberWithin("beta", 0, INFINITY, "smooth_l1_loss does not support negative values for beta"),
               {{"beta", "-1.0"}});
  }
  r.add("aten::l1_loss", loss, [](const OpCall &c) -> RuleResult {
     if (c.dtype("self") == DType::Bool || c.dtype("target") == DType::Bool)
       return c.semantic("subtraction with a bool tensor is not supported");
     DType d = toRealValueType(promote2(c, "self", "target"));
     auto red = c.arg("reduction").intValue();
     if (red && *red == 1 && isIntegral(d))
       return c.semantic("mean(): could not infer output dtype: input dtype must be floating point, got {}", name(d));
     if (red && *red == 2 && isIntegral(d)) return tensorOf(DType::Int64, Rank::exact(0)); // an integer sum
     return tensorOf(d, lossRank(c, broadcast2(c, "self", "target")));
   }).sample("self", "sweep![2,2]").sample("target", "sweep![2,2]").variant({{"reduction", "0"}})
      .variant({{"reduction", "2"}}).variant({{"self", "sweep![]"}, {"target", "sweep![2]"}, {"reduction", "2"}});
  // huber_loss.out takes a result that would not cast to self's dtype (measured).
  r.declare("aten::huber_loss.out", OpFact::OutErrorsOwn);
  const RuleFn huber = [](const OpCall &c) -> RuleResult {
    DType s = c.dtype("self"), p = promote2(c, "self", "target");
    if (!canCast(p, s))
      return c.semantic("result type {} can't be cast to the desired output type {}", name(p), name(s));
    return tensorOf(s, lossRank(c, broadcast2(c, "self", "target")));
  };
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), huber},
                             std::pair{r.since(TorchVersion::V2_6), metaByReference(huber, promotedLossOnMeta())}})
    scope.add("aten::huber_loss", loss, rule)
        .sample("self", "sweep![2,2]").sample("target", "sweep![2,2]").variant({{"reduction", "0"}})
        .refuse(checks::numberAbove("delta", 0, "huber_loss does not support non-positive values for delta"),
                {{"delta", "0.0"}});
  r.add("aten::kl_div", loss, [](const OpCall &c) -> RuleResult {
     for (const char *n : {"self", "target"}) {
       if (isIntegral(c.dtype(n), true)) return c.semantic("kl_div: integral inputs not supported");
       if (isComplex(c.dtype(n))) return c.semantic("kl_div: complex inputs not supported");
     }
     return tensorOf(promote2(c, "self", "target"), lossRank(c, broadcast2(c, "self", "target")));
   }).sample("self", "sweep![2,2]").sample("target", "sweep![2,2]");
}

/// binary_cross_entropy and its with_logits form.
void registerBinaryCrossEntropies(Registry &r) {
  const char *loss = "nn.loss";
  // The loss has self's dtype (target must match); the weight is applied
  // in place (loss.mul_(weight)): any weight the loss can absorb.
  r.add("aten::binary_cross_entropy", loss, [](const OpCall &c) -> RuleResult {
     if (auto e = requireSame(c, {"self", "target"})) return *e;
     DType s = c.dtype("self");
     if (c.isTensor("weight")) {
       Rank lr = broadcast2(c, "self", "target");
       std::vector<PromotionOperand> ops{{s, tierOf(lr)}, operandOf(c, "weight")};
       DType p = c.resultType(ops);
       if (!canCast(p, s))
         return c.semantic("result type {} can't be cast to the desired output type {}", name(p), name(s));
     }
     return tensorOf(s, lossRank(c, c.rank("self")));
   }).sample("self", "sweep![2,2]=0.5").sample("target", "sweep![2,2]=0.5")
      .variant({{"self", "float32[2,2]=0.5"}, {"target", "float32[2,2]=0.5"}, {"reduction", "0"}});
  const RuleFn bceWithLogits = [](const OpCall &c) -> RuleResult {
     // 1.13: max_val = (-input).clamp_min_(0); with pos_weight,
     // log_weight = (pos_weight - 1).mul(target).add_(1); loss =
     // (1 - target).mul_(input).add_(...) (with pos_weight: .add_(
     // log_weight.mul_(<input-dtype term>))); then loss.mul_(weight).
     DType s = c.dtype("self"), t = c.dtype("target");
     auto inplace = [&](DType dst, Rank dstRank, DType src, Rank srcRank) -> std::optional<RuleError> {
       std::vector<PromotionOperand> ops{{dst, tierOf(dstRank)}, {src, tierOf(srcRank)}};
       DType r = c.resultType(ops);
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
       DType lw = c.resultType(ops);
       Rank lwR = broadcast2(c, "pos_weight", "target");
       if (auto e = inplace(lw, lwR, s, c.rank("self"))) return *e;
       if (auto e = inplace(t, lossR, lw, lwR)) return *e;
     }
     if (c.isTensor("weight"))
       if (auto e = inplace(t, lossR, c.dtype("weight"), c.rank("weight"))) return *e;
     return tensorOf(t, lossRank(c, lossR));
  };
  // 2.14 also refuses, with a pos_weight, a self and target whose promoted
  // type does not cast back into self's (a float16 self, a complex target).
  const ArgCheck promotedIntoSelf = [](const OpCall &c) -> std::optional<RuleError> {
    const DType s = c.dtype("self");
    if (!isFloating(s) || !c.isTensor("pos_weight")) return std::nullopt; // refused by the rule, or no such step
    if (DType p = promote2(c, "self", "target"); !canCast(p, s))
      return c.semantic("result type {} can't be cast to the desired output type {}", name(p), name(s));
    // ... and writes that step into a tensor of self's shape.
    auto sr = c.rank("self").value(), br = broadcastRank({c.rank("self"), c.rank("target"), c.rank("pos_weight")}).value();
    if (sr && br && *br > *sr)
      return c.semantic("output with {} dims doesn't match the broadcast shape of {} dims (self, target, pos_weight)", *sr, *br);
    return std::nullopt;
  };
  const RuleFn bce26 = checks::before(promotedIntoSelf, bceWithLogits);
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), bceWithLogits},
                             std::pair{r.since(TorchVersion::V2_6), metaByReference(bce26, bceWithLogitsOnMeta26(bce26))},
                             std::pair{r.since(TorchVersion::V2_14), bce26}})
    scope.add("aten::binary_cross_entropy_with_logits", loss, rule)
        .sample("self", "sweep![2,2]=0.5").sample("target", "sweep![2,2]=0.5")
        .variant({{"self", "float32[2,2]=0.5"}, {"target", "float32[]=0.5"}})
        .variant({{"self", "float32[]=0.5"}, {"target", "float32[2,2]=0.5"}, {"reduction", "0"}})
        .variant({{"self", "float32[2,2]=0.5"}, {"target", "float32[2]=0.5"}})
        .variant({{"self", "float32[2]=0.5"}, {"target", "float32[2]=0.5"}, {"weight", "float32[2,2]"}, {"reduction", "0"}});
}

/// poisson_nll_loss and the nll losses.
void registerNllLosses(Registry &r) {
  const char *loss = "nn.loss";
  // 1.13's composite: exp(input) - target * input (log_input), or
  // input - target * log(input + eps); `full` then adds, in place, the
  // Stirling term of target (float, masked where target <= 1).
  r.add("aten::poisson_nll_loss", loss, [](const OpCall &c) -> RuleResult {
     auto logIn = c.arg("log_input").boolValue();
     auto full = c.arg("full").boolValue();
     Rank br = broadcast2(c, "input", "target");
     if (!logIn || !full) return Value::tensor(DTypeSet::all(), lossRank(c, br));
     const DType in = c.dtype("input"), target = c.dtype("target");
     const Rank ri = c.rank("input"), rt = c.rank("target");
     DType lossType;
     if (*logIn) {
       DType a = applyKind(PromotionKind::IntToFloat, in);
       DType b = promote2(c, "target", "input");
       if (b == DType::Bool) return c.semantic("subtraction with a bool tensor is not supported");
       lossType = c.resultType(std::vector<PromotionOperand>{{a, tierOf(ri)}, {b, tierOf(br)}});
     } else {
       if (in == DType::Bool) return c.semantic("subtraction with a bool tensor (input) is not supported");
       DType logged = applyKind(PromotionKind::IntToFloat, in); // log(input + eps)
       DType scaled = c.resultType(std::vector<PromotionOperand>{{target, tierOf(rt)}, {logged, tierOf(ri)}});
       lossType = c.resultType(std::vector<PromotionOperand>{{in, tierOf(ri)}, {scaled, tierOf(br)}});
     }
     if (*full) {
       if (target == DType::Bool) return c.semantic("subtraction with a bool tensor (target) is not supported");
       if (isComplex(target)) return c.semantic("target <= 1 is not supported for complex tensors");
       DType stirling = applyKind(PromotionKind::IntToFloat, target);
       DType sum = c.resultType(std::vector<PromotionOperand>{{lossType, tierOf(br)}, {stirling, tierOf(rt)}});
       if (!canCast(sum, lossType))
         return c.semantic("result type {} can't be cast to the desired output type {}", c10Name(sum), c10Name(lossType));
     }
     return tensorOf(lossType, lossRank(c, br));
   }).sample("input", "sweep![2,2]").sample("target", "sweep![2,2]").sample("log_input", "True")
      .sample("full", "False").sample("eps", "1e-08").sample("reduction", "1")
      .variant({{"log_input", "False"}})
      .variant({{"full", "True"}, {"target", "sweep![2,2]=2"}})
      .variant({{"log_input", "False"}, {"full", "True"}, {"input", "sweep![2]"}, {"target", "sweep![]=2"}, {"reduction", "0"}})
      .variant({{"log_input", "False"}, {"input", "sweep![]"}, {"target", "sweep![2]"}});
  r.add("aten::nll_loss", loss, nllRule).sample("self", "sweep![2,2]").sample("target", "sweep![2]=0")
      .sample("weight", "None").variant({{"self", "sweep![1,2,1,1]"}, {"target", "int64[1,1,1]=0"}})
      .variant({{"reduction", "0"}}).variant({{"self", "sweep![2]"}, {"target", "int64[2]=0"}, {"reduction", "0"}})
      .variant({{"self", "sweep![2]"}, {"target", "int64[]=0"}, {"reduction", "0"}});
  // What F.cross_entropy / F.nll_loss trace to for inputs of any rank.
  r.add("aten::nll_loss_nd", loss, nllRule).sample("self", "sweep![2,2]").sample("target", "sweep![2]=0")
      .sample("weight", "None").variant({{"self", "float32[1,2,1,1]"}, {"target", "sweep![1,1,1]=0"}})
      .variant({{"self", "float32[1,2,1]"}, {"target", "sweep![1,1]=0"}})
      .variant({{"self", "float32[1,2,1]"}, {"target", "sweep![1,1]=0"}, {"reduction", "0"}})
      .variant({{"self", "sweep![2]"}, {"target", "int64[2]=0"}, {"reduction", "0"}});
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
      .sample("weight", "None").sample("reduction", "1").sample("ignore_index", "-100")
      .variant({{"self", "sweep![2]"}, {"target", "int64[2]=0"}, {"weight", "None"}, {"reduction", "0"},
                {"ignore_index", "-100"}});
  r.add("aten::nll_loss2d_forward", loss, withTotalWeight(nll2dRule)).sample("self", "sweep![1,2,1,1]")
      .sample("target", "sweep![1,1,1]=0").sample("weight", "None").sample("reduction", "1").sample("ignore_index", "-100")
      .variant({{"self", "sweep![1,2,1,1]"}, {"target", "sweep![1,1,1]=0"}, {"weight", "None"}, {"reduction", "0"},
                {"ignore_index", "-100"}});
  r.add("aten::nll_loss_backward", loss, [](const OpCall &c) -> RuleResult {
     DType t = c.dtype("target");
     if (t != DType::Int64 && t != DType::UInt8)
       return c.semantic("expected target to be int64, but got {}", name(t));
     if (auto e = requireSame(c, {"self", "grad_output", "weight"})) return *e;
     // total_weight only scales a reduced loss: reduction 'none' (0) never reads it (measured on 1.13).
     const std::optional<int64_t> reduction = c.arg("reduction").intValue();
     if (c.dtype("total_weight") != c.dtype("self")) {
       if (!reduction)
         return c.error(ErrorKind::ValueDependent, "total_weight {} differs from self {}: raises unless reduction is 0",
                        name(c.dtype("total_weight")), name(c.dtype("self")));
       if (*reduction != 0) return *requireSame(c, {"self", "total_weight"});
     }
     return tensorOf(c.dtype("self"), c.rank("self"));
   }).sample("grad_output", "sweep![]").sample("self", "sweep![2,2]").sample("target", "sweep![2]=0")
      .sample("weight", "None").sample("reduction", "1").sample("ignore_index", "-100")
      .sample("total_weight", "sweep![]")
      .variant({{"grad_output", "sweep![2]"}, {"self", "float32[2,2]"}, {"target", "int64[2]=0"}, {"weight", "None"},
                {"reduction", "0"}, {"ignore_index", "-100"}, {"total_weight", "sweep![]"}});
}

/// cosine_embedding, margin_ranking, hinge, soft_margin and triplet margin losses.
void registerEmbeddingLosses(Registry &r) {
  const char *loss = "nn.loss";
  // cosine_embedding_loss: one loss per row (rank of the input minus 1).
  // 1.13's composite: cos = sum(x1 * x2) / sqrt((sum(x1 * x1) + eps) *
  // (sum(x2 * x2) + eps)), then 1 - cos and (cos - margin).clamp_min_(0)
  // picked by the target. Integer sums are int64 and `+ eps` makes them
  // float32, so the loss is the true division of the two sides' dtypes;
  // complex refuses the clamp, and float16 has no CPU sqrt.
  r.add("aten::cosine_embedding_loss", loss, [](const OpCall &c) -> RuleResult {
     Rank b = broadcast2(c, "input1", "input2");
     Rank out = lossRank(c, b.value() ? Rank::exact(std::max(*b.value() - 1, 0)) : Rank::top());
     auto summed = [](DType d) { return isIntegral(d, true) ? DType::Int64 : d; };
     auto magnitude = [](DType d) { return isIntegral(d, true) ? DType::Float32 : d; };
     DType a = c.dtype("input1"), bb = c.dtype("input2");
     DType num = summed(promote2(c, "input1", "input2"));
     DType den = c.promote(magnitude(a), magnitude(bb));
     DType cos = applyKind(PromotionKind::IntToFloat, c.promote(num, den));
     if (isComplex(cos)) return c.semantic("clamp is not supported for complex types ({})", name(cos));
     if (den == DType::Float16 && c.lacksCpuKernel(CpuKernel::Sqrt, den)) return c.missingKernel("sqrt has no CPU kernel for float16");
     return tensorOf(cos, out);
   }).sample("input1", "sweep![2,3]").sample("input2", "sweep![2,3]").sample("target", "float32[2]")
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
                                       {promote2(c, "input1", "input2"), tierOf(diffRank)}};
     DType d = c.resultType(ops);
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
  const RuleFn softMargin = [](const OpCall &c) -> RuleResult {
    auto sr = c.rank("self").value(), br = broadcast2(c, "self", "target").value();
    if (sr && br && *br > *sr)
      return c.semantic("output with {} dims doesn't match the broadcast shape of {} dims", *sr, *br);
    DType d = c.dtype("self"), t = c.dtype("target");
    if (d == DType::Bool) return c.semantic("negation on a bool tensor is not supported");
    if (isIntegral(d)) return c.semantic("result type float can't be cast to the desired output type {}", name(d));
    if (isComplex(t) && !isComplex(d))
      return c.semantic("result type {} can't be cast to the desired output type {}", name(t), name(d));
    (void)promoteArgs(c, {"self", "target"}); // -target * self: raises where result_type does (2.14: float8)
    return tensorOf(d, lossOfSelf(c));
  };
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), softMargin},
                             std::pair{r.since(TorchVersion::V2_6), metaByReference(softMargin, promotedLossOnMeta())}})
    scope.add("aten::soft_margin_loss", loss, rule)
        .sample("self", "sweep![3]").sample("target", "sweep![3]").variant({{"reduction", "0"}})
        .variant({{"self", "float32[3]"}, {"target", "float32[2,3]"}, {"reduction", "0"}})
        .variant({{"self", "float32[2,3]"}, {"target", "float32[3]"}, {"reduction", "0"}})
        .variant({{"self", "sweep![2,3]"}, {"target", "sweep![]"}});
  // 1.13's composite: clamp_min(margin + d(anchor, positive) - d(anchor,
  // negative), 0) with d = pairwise_distance (with swap, d(a, n) is
  // min(d(a, n), d(p, n))); the three inputs must have one rank.
  r.add("aten::triplet_margin_loss", loss, [](const OpCall &c) -> RuleResult {
     auto ra = c.rank("anchor").value(), rp = c.rank("positive").value(), rn = c.rank("negative").value();
     if (ra && rp && rn && (*ra != *rp || *rp != *rn))
       return c.semantic("All inputs should have same dimension but got {}D, {}D and {}D inputs.", *ra, *rp, *rn);
     for (const char *n : {"anchor", "positive", "negative"})
       if (c.dtype(n) == DType::Bool) return c.semantic("subtraction with a bool tensor ({}) is not supported", n);
     Rank b = broadcastRank({c.rank("anchor"), c.rank("positive"), c.rank("negative")});
     Rank out = lossRank(c, b.value() ? Rank::exact(std::max(*b.value() - 1, 0)) : Rank::top());
     // The distances all have one rank (so one promotion tier).
     auto distance = [&](const char *x, const char *y) {
       return toRealValueType(applyKind(PromotionKind::IntToFloat, promote2(c, x, y)));
     };
     auto swap = c.arg("swap").boolValue();
     if (!swap) return Value::tensor(DTypeSet::all(), out);
     DType d = c.promote(distance("anchor", "positive"), distance("anchor", "negative"));
     if (*swap) d = c.promote(d, distance("positive", "negative"));
     return tensorOf(d, out);
   }).sample("anchor", "sweep![2,3]").sample("positive", "sweep![2,3]").sample("negative", "sweep![2,3]")
      .variant({{"reduction", "0"}}).variant({{"swap", "True"}})
      .variant({{"anchor", "sweep![3]"}, {"positive", "sweep![3]"}, {"negative", "float16[3]"}})
      .variant({{"anchor", "float32[2,3]"}, {"positive", "float32[3]"}, {"negative", "float32[2,3]"}});
}

/// The multi(label) margin losses and ctc_loss.
void registerMultiMarginAndCtcLosses(Registry &r) {
  const char *loss = "nn.loss";
  // multi(label)_margin_loss: an int64 target; CPU kernels for float/double
  // only (half and bf16 exist on CUDA: left unknown). multilabel's loss per
  // sample has self's rank minus 1; multi_margin's unreduced loss is 1-D
  // whenever the target is (a 1-D or 0-dim self gives [1]), else 0-dim.
  auto marginLoss = [](bool label) {
    return [label](const OpCall &c) -> RuleResult {
      DType d = c.dtype("self");
      auto sr = c.rank("self").value();
      Rank elem = sr ? Rank::exact(std::max(*sr - 1, 0)) : Rank::top(); // one loss per sample
      if (!label) {
        if (auto e = checkedConversion(c, "p", DType::Int32)) return *e; // p.toInt() (a C++ int), before any check
        if (auto p = c.arg("p").floatValue(); p && std::trunc(*p) != 1 && std::trunc(*p) != 2)
          return c.semantic("only p == 1 and p == 2 supported, got {}", c.arg("p").str());
        if (sr && *sr > 2)
          return c.semantic("Expected non-empty vector or matrix with optional 0-dim batch size, but got a {}-D self", *sr);
        auto tr = c.rank("target").value();
        elem = tr ? Rank::exact(*tr > 0 ? 1 : 0) : Rank::top();
      }
      Rank out = lossRank(c, elem);
      if (d != DType::Float32 && d != DType::Float64) return Value::tensor(DTypeSet::all(), out);
      if (!label)
        if (auto e = checkedConversion(c, "margin", d)) return *e; // margin.to<scalar_t>() in the kernel
      if (c.dtype("target") != DType::Int64)
        return c.semantic("expected scalar type Long but found {}", name(c.dtype("target")));
      if (!label && c.arg("weight").isTensor() && c.dtype("weight") != d) return Value::tensor(DTypeSet::all(), out);
      return tensorOf(d, out);
    };
  };
  r.add("aten::multi_margin_loss", loss, marginLoss(false))
      .sample("self", "sweep![2,3]").sample("target", "sweep![2]=0").sample("weight", "None")
      .variant({{"reduction", "0"}}).variant({{"self", "float64[2,3]"}, {"target", "int64[2]=0"}, {"weight", "sweep![3]"}})
      .variant({{"self", "sweep![3]"}, {"target", "sweep![1]=0"}, {"weight", "None"}, {"reduction", "0"}})
      .variant({{"self", "sweep![]"}, {"target", "int64[1]=0"}, {"weight", "None"}, {"reduction", "0"}})
      .variant({{"self", "sweep![1,3]"}, {"target", "int64[]=0"}, {"weight", "None"}, {"reduction", "0"}})
      .variant({{"self", "float32[2,3,1]"}, {"target", "int64[2]=0"}, {"weight", "None"}})
      .variant({{"self", "sweep![2,3]"}, {"target", "int64[2]=0"}, {"margin", "magnitudes"}})
      .variant({{"self", "float32[2,3]"}, {"target", "int64[2]=0"}, {"p", "magnitudes"}});
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
       Rank out = !red ? Rank::top() : *red != 0 ? lossRank(c, Rank::top()) : lp ? Rank::exact(*lp == 3 ? 1 : 0) : Rank::top();
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
}

/// pairwise_distance, cdist and cross_entropy_loss.
void registerDistancesAndCrossEntropy(Registry &r) {
  const char *loss = "nn.loss";
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
     }).sample("x1", "sweep![2,3]").sample("x2", "sweep![2,3]").sample("p", "2.0").sample("compute_mode", "None")
        .variant({{"x1", "float32[2,2,3]"}, {"x2", "sweep![4,3]"}})
        .refuse(checks::numberWithin("p", 0, INFINITY, "cdist only supports non-negative p values"), {{"p", "-1.0"}})
        .refuse(checks::rankAtLeast("x1", 2, "cdist only supports at least 2D tensors"), {{"x1", "float32[3]"}})
        .refuse(checks::rankAtLeast("x2", 2, "cdist only supports at least 2D tensors"), {{"x2", "float32[3]"}});

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

/// The class indices the losses only read.
void registerReadTargets(Registry &r) {
  // Class indices pick the term of each sample; never converted (refine/audit.h).
  for (const char *k : {"aten::nll_loss", "aten::nll_loss_forward", "aten::nll_loss2d", "aten::nll_loss2d_forward",
                        "aten::nll_loss_nd", "aten::cross_entropy_loss", "aten::multi_margin_loss",
                        "aten::multilabel_margin_loss"})
    r.declareRead(k, {"target"});
}

} // namespace

void registerNnLosses(Registry &r) {
  registerSimilarities(r);
  registerRegressionLosses(r);
  registerBinaryCrossEntropies(r);
  registerNllLosses(r);
  registerEmbeddingLosses(r);
  registerMultiMarginAndCtcLosses(r);
  registerDistancesAndCrossEntropy(r);
  registerReadTargets(r);
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h) for the losses and distances whose dtype
// rules give no sizes (the others keep or reduce their input's through
// their dtype rules).
//===----------------------------------------------------------------------===//

namespace {

/// An element-wise loss: with reduction 'none' (0) the broadcast of `args`
/// (None skipped), with 'mean' (1) or 'sum' (2) a 0-dim result.
ShapeFn pointwiseLoss(std::vector<std::string> args) {
  return [args = std::move(args)](const OpCall &c) -> ShapeResult {
    auto reduction = intArg(c, "reduction");
    if (reduction == 1 || reduction == 2) return Dims{};
    if (reduction != 0) return {};
    std::vector<Dims> shapes;
    for (const std::string &a : args) {
      if (c.isNone(a)) continue;
      auto d = dimsOf(c, a);
      if (!d) return {};
      shapes.push_back(*d);
    }
    Broadcast out = broadcastShapes(shapes);
    return out.dims ? ShapeResult(*out.dims) : ShapeResult{};
  };
}

/// A loss over class scores with class-index targets: with reduction 'none'
/// one loss per target element (target's sizes), else 0-dim; `totalWeight`:
/// a second, 0-dim result.
ShapeFn perTarget(bool totalWeight) {
  return [totalWeight](const OpCall &c) -> ShapeResult {
    auto reduction = intArg(c, "reduction");
    auto target = dimsOf(c, "target");
    std::optional<Dims> loss;
    if (reduction == 1 || reduction == 2) loss = Dims{};
    else if (reduction == 0) loss = target;
    if (!loss) return {};
    std::vector<std::optional<Dims>> out{loss};
    if (totalWeight) out.push_back(Dims{});
    return out;
  };
}

} // namespace

void registerNnLossShapes(Registry &r) {
  for (const char *k : {"aten::nll_loss", "aten::nll_loss_nd", "aten::multi_margin_loss"}) r.shape(k, perTarget(false));
  for (const char *k : {"aten::nll_loss_forward", "aten::nll_loss2d_forward"}) r.shape(k, perTarget(true));
  // cross_entropy: class indices as nll_loss; class probabilities (a
  // floating target of self's sizes) lose the class dim (1; 0 unbatched).
  r.shape("aten::cross_entropy_loss", [](const OpCall &c) -> ShapeResult {
    auto d = c.arg("target").dtype();
    if (!d) return {};
    if (!isFloating(*d)) return perTarget(false)(c);
    auto reduction = intArg(c, "reduction");
    if (reduction == 1 || reduction == 2) return Dims{};
    auto self = dimsOf(c, "self");
    if (reduction != 0 || !self || self->empty()) return {};
    self->erase(self->begin() + (self->size() == 1 ? 0 : 1));
    return *self;
  });
  for (const char *k : {"aten::mse_loss", "aten::l1_loss", "aten::smooth_l1_loss", "aten::huber_loss",
                        "aten::soft_margin_loss", "aten::hinge_embedding_loss", "aten::kl_div"})
    r.shape(k, pointwiseLoss({"self", "target"}));
  // (binary_cross_entropy requires target's sizes to be self's; the weight expands to them.)
  r.shape("aten::binary_cross_entropy", pointwiseLoss({"self"}));
  r.shape("aten::binary_cross_entropy_with_logits", pointwiseLoss({"self", "target", "weight", "pos_weight"}));
  r.shape("aten::poisson_nll_loss", pointwiseLoss({"input", "target"}));
  r.shape("aten::margin_ranking_loss", pointwiseLoss({"input1", "input2", "target"}));
  // cdist(x1 [*, P, M], x2 [*, R, M]): the batch dims broadcast, then [P, R].
  for (const char *k : {"aten::cdist", "aten::_cdist_forward"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto a = dimsOf(c, "x1"), b = dimsOf(c, "x2");
      if (!a || !b || a->size() < 2 || b->size() < 2) return {};
      std::vector<Dims> batches{Dims(a->begin(), a->end() - 2), Dims(b->begin(), b->end() - 2)};
      Broadcast batch = broadcastShapes(batches);
      if (!batch.dims) return {};
      batch.dims->push_back((*a)[a->size() - 2]);
      batch.dims->push_back((*b)[b->size() - 2]);
      return *batch.dims;
    });
  // pdist(self [N, M]): the N * (N - 1) / 2 distances of distinct rows.
  for (const char *k : {"aten::pdist", "aten::_pdist_forward"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto self = dimsOf(c, "self");
      if (!self || self->size() != 2) return {};
      const Dim &n = (*self)[0];
      return Dims{floorDiv(n * (n - Dim(1)), Dim(2))};
    });
  // cosine_similarity: the broadcast operands summed over dim.
  r.shape("aten::cosine_similarity", [](const OpCall &c) -> ShapeResult {
    auto a = dimsOf(c, "x1"), b = dimsOf(c, "x2");
    if (!a || !b) return {};
    std::vector<Dims> both{*a, *b};
    Broadcast out = broadcastShapes(both);
    if (!out.dims) return {};
    if (out.dims->empty()) return *out.dims;
    auto dim = wrappedDimArg(c, "dim", out.dims->size());
    if (!dim) return {};
    out.dims->erase(out.dims->begin() + static_cast<std::ptrdiff_t>(*dim));
    return *out.dims;
  });
  // multilabel_margin_loss_forward: the loss per row with reduction 'none'
  // (0) on a batch, else 0-dim; is_target has target's sizes.
  r.shape("aten::multilabel_margin_loss_forward", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self"), target = dimsOf(c, "target");
    auto reduction = intArg(c, "reduction");
    if (!self || !target || !reduction) return {};
    const bool perRow = *reduction == 0 && target->size() == 2 && self->size() == 2;
    if (*reduction == 0 && !perRow && target->size() > 1) return {};
    return std::vector<std::optional<Dims>>{perRow ? Dims{(*self)[0]} : Dims{}, *target};
  });
  r.shape("aten::nll_loss_backward", sameShapeAs());
  r.shape("aten::multilabel_margin_loss", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self"), target = dimsOf(c, "target");
    auto reduction = intArg(c, "reduction");
    if (!self || !target || !reduction) return {};
    if (*reduction != 0 || target->size() <= 1) return Dims{};
    if (self->size() != 2 || target->size() != 2) return {};
    return Dims{(*self)[0]};
  });
  // pairwise_distance: norm(x1 - x2 + eps) over the broadcast's last dim.
  r.shape("aten::pairwise_distance", [](const OpCall &c) -> ShapeResult {
    auto a = dimsOf(c, "x1"), b = dimsOf(c, "x2");
    auto keep = boolArg(c, "keepdim");
    if (!a || !b || !keep) return {};
    std::vector<Dims> both{*a, *b};
    Broadcast out = broadcastShapes(both);
    if (!out.dims) return {};
    if (out.dims->empty()) return *out.dims;
    if (*keep) out.dims->back() = Dim(1);
    else out.dims->pop_back();
    return *out.dims;
  });
  // (issue 35, shapes-cover) triplet_margin_loss: with reduction 'none' the
  // distances of the broadcast inputs over their last dim; else 0-dim.
  r.shape("aten::triplet_margin_loss", [](const OpCall &c) -> ShapeResult {
    auto reduction = intArg(c, "reduction");
    if (reduction == 1 || reduction == 2) return Dims{};
    std::vector<Dims> shapes;
    for (const char *a : {"anchor", "positive", "negative"})
      if (auto d = dimsOf(c, a)) shapes.push_back(*d);
    if (reduction != 0 || shapes.size() != 3) return {};
    Broadcast out = broadcastShapes(shapes);
    if (!out.dims || out.dims->empty()) return {};
    out.dims->pop_back();
    return *out.dims;
  });
  // ctc_loss: one loss per batch item ([N] of log_probs [T, N, C]; 0-dim
  // unbatched) with reduction 'none', else 0-dim.
  for (const char *k : {"aten::ctc_loss.IntList", "aten::ctc_loss.Tensor"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto reduction = intArg(c, "reduction");
      auto lp = dimsOf(c, "log_probs");
      if (reduction == 1 || reduction == 2) return Dims{};
      if (reduction != 0 || !lp || (lp->size() != 2 && lp->size() != 3)) return {};
      return lp->size() == 3 ? Dims{(*lp)[1]} : Dims{};
    });
}

} // namespace dtf
