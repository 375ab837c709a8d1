//===- ops/families/ternary.cpp - where, clamp, masked_*, lerp, addc* -------===//
//
// Measured on 1.13 CPU + meta:
//  - where: cond bool (uint8 still accepted, with a warning), result promotes
//    self and other (numbers as wrapped scalars), rank = broadcast of all.
//  - clamp/clip: result_type(self, min, max) over the non-None bounds; both
//    None raises; complex raises; a bool result has no kernel (the Tensor
//    clamp_min/clamp_max forms run maximum/minimum and accept bool).
//  - masked_fill: self's dtype; value tensor must be 0-dim; mask dtype is
//    not checked in 1.13. masked_scatter: source must have self's dtype.
//    2.14 refuses a mask that is not bool in both (and in masked_select):
//    scripts/probes/index_and_mask_dtypes.py.
//  - lerp: self, end and a weight tensor share one floating/complex dtype.
//  - addcmul/addcdiv: result_type of the three tensors; addcdiv rejects two
//    integral (or bool) divisor operands; addcmul has no bool kernel.
// A complex Python value cast into a real kernel (masked_fill value, lerp
// weight, addcmul/addcdiv value, a clamp bound on a floating self) fails only
// for a non-zero imaginary part ("value cannot be converted to type float
// without overflow"; bool targets accept it): a value-dependent error when the
// value is known, accepted otherwise.
//  - clamp with Scalar bounds: a floating self keeps its dtype (the bounds do
//    not promote it); only a non-floating self promotes with the bounds.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/unit_dims.h"
#include "ops/vocabulary.h"

#include <cmath>
#include <tuple>

namespace dtf {
namespace {

std::string s(const OpCall &c, std::string_view n) { return c.arg(n).str(); }

/// Where a number operand of where() is converted into, in 2.14 (measured,
/// scripts/probes/scalar_arguments.py): an int into an integral result, a
/// float into float32's range (inf fits, 1e39 does not) for an integral or
/// float32 result, into complex32's halves as in 1.13; nothing is checked
/// for a float16, bfloat16 or float8 result, nor an imaginary part outside
/// complex32; a real number into a complex result fits its parts' type
/// (1e39 does not fit complex64). nullopt: no check.
std::optional<DType> whereNumberCheckedType(const Value &number, DType r) {
  if (r == DType::Complex32) return r;
  if (isComplex(r) && number.numKind() != NumKind::Complex) return r;
  if (number.numKind() == NumKind::Int && isIntegral(r)) return r;
  if (number.numKind() == NumKind::Float && (isIntegral(r) || r == DType::Float32)) return DType::Float32;
  if (number.numKind() == NumKind::Int && r == DType::Float32) return r;
  return std::nullopt;
}

template <bool NumbersIntoResult> RuleResult where(const OpCall &c) {
  DType cond = c.dtype("condition");
  if (cond != DType::Bool && cond != DType::UInt8)
    return c.semantic("condition must be a bool tensor, not {}", name(cond));
  DType r = promoteArgs(c, {"self", "other"});
  for (const char *n : {"self", "other"}) { // a number operand is converted into the result's dtype
    std::optional<DType> into = r;
    if (!NumbersIntoResult) into = c.arg(n).isNumber() ? whereNumberCheckedType(c.arg(n), r) : std::nullopt;
    if (into)
      if (auto e = checkedConversion(c, n, *into, ComplexHalfParts::AsHalf)) return *e;
  }
  return withBroadcastUnitDims(c, tensorOf(r, broadcastArgs(c, {"condition", "self", "other"})), {"condition", "self", "other"});
}

/// where(condition) = nonzero(condition, as_tuple=True): rank(cond) int64 vectors.
RuleResult whereNonzero(const OpCall &c) {
  Value idx = tensorOf(DType::Int64, Rank::exact(1));
  if (auto n = c.rank("condition").value()) {
    // A 0-dim condition is treated as 1-dim.
    int k = *n == 0 ? 1 : *n;
    return Value::list(std::vector<Value>(k, idx));
  }
  return Value::listOf(idx);
}

/// clamp family over whichever of min/max the schema has.
RuleFn clampRule(bool tensorBounds, bool floatingKeepsSelf = false) {
  return [tensorBounds, floatingKeepsSelf](const OpCall &c) -> RuleResult {
    bool hasMin = c.has("min"), hasMax = c.has("max");
    bool minNone = !hasMin || c.isNone("min");
    bool maxNone = !hasMax || c.isNone("max");
    if (minNone && maxNone)
      return c.semantic("at least one of 'min' or 'max' must not be None");
    // clamp(Tensor, Scalar?, Scalar?) promotes only a non-floating self; a
    // floating self converts the bounds to its own dtype.
    DType self = c.dtype("self");
    // A NaN bound fills the result with NaN before any bound is converted.
    bool nanBound = false;
    for (const char *b : {"min", "max"})
      if (auto f = c.has(b) ? c.arg(b).floatValue() : std::nullopt; f && std::isnan(*f)) nanBound = true;
    auto converted = [&](DType into) -> std::optional<RuleError> {
      if (nanBound) return std::nullopt;
      for (const char *b : {"min", "max"})
        if (auto e = checkedConversion(c, b, into)) return e;
      return std::nullopt;
    };
    if (floatingKeepsSelf && isFloating(self)) {
      if (auto e = converted(self)) return *e;
      return withBroadcastUnitDims(c, tensorOf(self, c.rank("self")), {"self"});
    }
    std::vector<PromotionOperand> ops;
    std::vector<Rank> ranks{c.rank("self")};
    auto addArg = [&](std::string_view n) {
      const Value &v = c.arg(n);
      if (v.isTensor()) {
        ops.push_back({*v.dtype(), tierOf(v.rank())});
        ranks.push_back(v.rank());
      } else if (v.isNumber()) {
        ops.push_back({wrappedNumberDType(*v.numKind()), Tier::Wrapped});
      }
    };
    addArg("self");
    if (!minNone) addArg("min");
    if (!maxNone) addArg("max");
    DType r = c.resultType(ops);
    if (isComplex(r))
      return c.semantic("clamp is not supported for complex types (promoted {})", name(r));
    // Scalar bounds and clamp(min, max) with tensors have no bool kernel;
    // clamp_min/clamp_max with a tensor bound run maximum/minimum.
    bool oneTensorBound = tensorBounds && (minNone || maxNone);
    if (isBool(r) && !oneTensorBound)
      return c.semantic("clamp is not implemented for bool");
    if (auto e = converted(r)) return *e; // number bounds are converted into the result's dtype
    std::vector<std::string> shaped{"self"}; // what broadcasts into the result (numbers as 0-dim)
    if (!minNone) shaped.emplace_back("min");
    if (!maxNone) shaped.emplace_back("max");
    return withBroadcastUnitDims(c, tensorOf(r, broadcastRank(ranks)), shaped);
  };
}

/// Which masks an op takes: 1.13 does not check the mask dtype of
/// masked_fill / masked_scatter (a non-bool mask is read byte-wise; whether
/// that raises depends on its values): accepted. 2.14 takes bool only.
enum class Masks : uint8_t { AnyDType, BoolOnly };

std::optional<RuleError> maskCheck(const OpCall &c, Masks masks, std::string_view op) {
  if (masks == Masks::BoolOnly && c.dtype("mask") != DType::Bool)
    return c.semantic("{} only supports boolean masks, but got mask with dtype {}", op, name(c.dtype("mask")));
  return std::nullopt;
}

template <Masks M> RuleResult maskedFill(const OpCall &c) {
  if (auto e = maskCheck(c, M, "masked_fill_")) return *e;
  const Value &v = c.arg("value");
  if (v.isTensor() && v.rank().mayBeNonZero() && !v.rank().mayBeZero())
    return c.semantic("only supports a 0-dimensional value tensor, not {}", v.str());
  if (auto e = checkedConversion(c, "value", c.dtype("self"), ComplexHalfParts::AsHalf)) return *e;
  return withBroadcastUnitDims(c, tensorOf(c.dtype("self"), broadcastArgs(c, {"self", "mask"})), {"self", "mask"});
}

template <Masks M> RuleResult maskedScatter(const OpCall &c) {
  if (auto e = maskCheck(c, M, "masked_scatter_")) return *e;
  DType a = c.dtype("self"), b = c.dtype("source");
  if (a != b)
    return c.semantic("source ({}) must have the same dtype as self ({})", name(b), name(a));
  return withBroadcastUnitDims(c, tensorOf(a, broadcastArgs(c, {"self", "mask"})), {"self", "mask"});
}

/// lerp: self, end and a weight tensor of one dtype. 2.14 takes a 0-dim
/// weight of any dtype and promotes it like a 0-dim operand (a complex64
/// 0-dim weight makes a float32 lerp complex64; scripts/probes/lerp_isin.py).
template <bool ZeroDimWeightPromotes> RuleResult lerp(const OpCall &c) {
  DType a = c.dtype("self"), e = c.dtype("end");
  if (a != e) return c.semantic("expected dtype {} for end but got {}", name(a), name(e));
  const Value &w = c.arg("weight");
  if (w.isTensor() && *w.dtype() != a) {
    if (!ZeroDimWeightPromotes || !w.rank().mayBeZero())
      return c.semantic("expected dtype {} for weight but got {}", name(a), name(*w.dtype()));
    // 0-dim (or, of unknown rank, the answer when it is 0-dim: otherwise it raises)
    const DType r = c.resultType({tensorOperand(a, c.arg("self")), tensorOperand(e, c.arg("end")),
                                  PromotionOperand{*w.dtype(), Tier::ZeroDim}});
    if (isIntegral(r, true)) return c.semantic("lerp is not implemented for {}", name(r));
    return withBroadcastUnitDims(c, tensorOf(r, broadcastArgs(c, {"self", "end", "weight"})), {"self", "end", "weight"});
  }
  if (isIntegral(a, true)) return c.semantic("lerp is not implemented for {}", name(a));
  if (auto e = checkedConversion(c, "weight", computeType(a))) return *e;
  return withBroadcastUnitDims(c, tensorOf(a, broadcastArgs(c, {"self", "end", "weight"})), {"self", "end", "weight"});
}

/// `halfParts` (2.14): value goes into a complex32 result as complex<half>.
RuleFn addc(bool isDiv, bool halfParts) {
  return [isDiv, halfParts](const OpCall &c) -> RuleResult {
    if (isDiv && isIntegral(c.dtype("tensor1"), true) && isIntegral(c.dtype("tensor2"), true))
      return c.semantic("integer division with addcdiv is not supported (tensor1 {}, tensor2 {})",
                        s(c, "tensor1"), s(c, "tensor2"));
    DType r = promoteArgs(c, {"self", "tensor1", "tensor2"});
    if (isBool(r)) return c.semantic("not implemented for bool");
    if (halfParts && r == DType::Complex32) {
      if (auto e = checkedConversion(c, "value", r, ComplexHalfParts::AsHalf)) return *e;
    } else if (auto e = checkedConversion(c, "value", computeType(r))) return *e;
    return withBroadcastUnitDims(c, tensorOf(r, broadcastArgs(c, {"self", "tensor1", "tensor2"})), {"self", "tensor1", "tensor2"});
  };
}

} // namespace

void registerTernary(Registry &r) {
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), RuleFn(where<true>)},
                             std::pair{r.since(TorchVersion::V2_14), RuleFn(where<false>)}}) {
    scope.add("aten::where.self", "where", rule);
    scope.add("aten::where.Scalar", "where", rule);
    scope.add("aten::where.ScalarOther", "where", rule)
        .variant({{"condition", "bool[2]"}, {"self", "sweep![2]"}, {"other", "magnitudes"}});
    scope.add("aten::where.ScalarSelf", "where", rule)
        .variant({{"condition", "bool[2]"}, {"self", "magnitudes"}, {"other", "sweep![2]"}});
  }
  r.add("aten::where", "where", whereNonzero);

  struct Clamp { const char *key, *tensorKey, *inPlaceKey, *inPlaceTensorKey; };
  for (Clamp k : {Clamp{"aten::clamp", "aten::clamp.Tensor", "aten::clamp_", "aten::clamp_.Tensor"},
                  Clamp{"aten::clip", "aten::clip.Tensor", "aten::clip_", "aten::clip_.Tensor"}}) {
    // (size-1 facts: a [2,1] self keeps its 1, broadcast with a [3] bound it becomes 3)
    r.add(k.key, "clamp", clampRule(false, true)).variant({{"min", "None"}, {"max", "sweep"}})
        .variant({{"self", "sweep[2,1]"}, {"min", "1"}, {"max", "None"}})
        .variant({{"self", "sweep![2]"}, {"min", "magnitudes"}, {"max", "None"}})
        .variant({{"self", "sweep![2]"}, {"min", "magnitudes"}, {"max", "nan"}});
    r.add(k.tensorKey, "clamp", clampRule(true)).variant({{"min", "None"}, {"max", "sweep"}})
        .variant({{"self", "sweep[2,1]"}, {"min", "float32[3]"}, {"max", "None"}})
        .variant({{"self", "sweep[2,1]"}, {"min", "int64[1]"}, {"max", "None"}});
    r.add(k.inPlaceKey, "clamp", inPlace(clampRule(false, true)))
        .variant({{"min", "None"}, {"max", "sweep"}});
    r.add(k.inPlaceTensorKey, "clamp", inPlace(clampRule(true), {{"min", "max"}}))
        .variant({{"min", "None"}, {"max", "sweep"}});
  }
  for (auto [k, bound] : {std::pair{Clamp{"aten::clamp_min", "aten::clamp_min.Tensor", "aten::clamp_min_",
                                           "aten::clamp_min_.Tensor"}, "min"},
                          std::pair{Clamp{"aten::clamp_max", "aten::clamp_max.Tensor", "aten::clamp_max_",
                                           "aten::clamp_max_.Tensor"}, "max"}}) {
    r.add(k.key, "clamp", clampRule(false)).variant({{"self", "sweep![2]"}, {bound, "magnitudes"}});
    r.add(k.tensorKey, "clamp", clampRule(true));
    r.add(k.inPlaceKey, "clamp", inPlace(clampRule(false)));
    r.add(k.inPlaceTensorKey, "clamp", inPlace(clampRule(true), {{bound}}));
  }

  // One registration per mask rule: 1.13's any mask dtype, 2.14's bool only.
  auto masked = [&](Registry::Scoped scope, RuleFn fill, RuleFn scatter) {
    scope.add("aten::masked_fill.Scalar", "masked", fill).sample("mask", "sweep")
        .variant({{"self", "sweep![2]"}, {"mask", "bool[2]"}, {"value", "magnitudes"}})
        .variant({{"self", "float32[3,1]"}, {"mask", "bool[4]"}, {"value", "2"}});
    scope.add("aten::masked_fill.Tensor", "masked", fill).sample("mask", "sweep")
        .variant({{"self", "float32[3,1]"}, {"mask", "bool[4]"}, {"value", "float32[]"}});
    for (const char *k : {"aten::masked_fill_.Scalar", "aten::masked_fill_.Tensor"})
      scope.add(k, "masked", inPlace(fill, {{"mask"}, /*castToSelf=*/false}));
    scope.add("aten::masked_scatter", "masked", scatter).sample("mask", "bool[2]=0").variant({{"mask", "sweep![2]=0"}})
        .variant({{"self", "float32[3,1]"}, {"mask", "bool[4]=0"}, {"source", "float32[12]"}});
    scope.add("aten::masked_scatter_", "masked", inPlace(scatter, {{"mask"}, false}))
        .sample("mask", "bool[2]=0").variant({{"mask", "sweep![2]=0"}});
  };
  masked(r.since(TorchVersion::V1_13), maskedFill<Masks::AnyDType>, maskedScatter<Masks::AnyDType>);
  masked(r.since(TorchVersion::V2_6), maskedFill<Masks::BoolOnly>, maskedScatter<Masks::BoolOnly>);

  for (auto [key, inKey, scalarWeight] : {std::tuple{"aten::lerp.Scalar", "aten::lerp_.Scalar", true},
                                          std::tuple{"aten::lerp.Tensor", "aten::lerp_.Tensor", false}}) {
    for (auto [scope, rule, castToSelf] : {std::tuple{r.since(TorchVersion::V1_13), RuleFn(lerp<false>), false},
                                           std::tuple{r.since(TorchVersion::V2_14), RuleFn(lerp<true>), true}}) {
      Registry::Entry e = scope.add(key, "lerp", rule);
      scope.add(inKey, "lerp", inPlace(rule, {{"end", "weight"}, castToSelf}));
      if (scalarWeight) // the weight is converted: magnitudes per floating dtype
        for (const char *d : {"float16[2]", "bfloat16[2]", "float32[2]", "complex64[2]"})
          e.variant({{"self", d}, {"end", d}, {"weight", "magnitudes"}});
    }
  }

  // (bool tensors promote to self's dtype: the value is converted into it)
  const std::map<std::string, std::string, std::less<>> magnitudes{
      {"self", "sweep![2]"}, {"tensor1", "bool[2]"}, {"tensor2", "bool[2]"}, {"value", "magnitudes"}};
  for (auto [scope, halfParts] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_6), true}}) {
    scope.add("aten::addcmul", "addc", addc(false, halfParts)).variant(magnitudes);
    scope.add("aten::addcmul_", "addc", inPlace(addc(false, halfParts), {{"tensor1", "tensor2"}})).variant(magnitudes);
    scope.add("aten::addcdiv", "addc", addc(true, halfParts));
    scope.add("aten::addcdiv_", "addc", inPlace(addc(true, halfParts), {{"tensor1", "tensor2"}}));
  }
  // A condition or a mask selects; it is never converted into the result's
  // dtype (refine/audit.h counts no promotion of it).
  r.declareRead("aten::where", {"condition"});
  for (const char *k : {"aten::masked_fill", "aten::masked_fill_", "aten::masked_scatter", "aten::masked_scatter_"})
    r.declareRead(k, {"mask"});
}

} // namespace dtf
