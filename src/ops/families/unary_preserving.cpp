//===- ops/families/unary_preserving.cpp - unary ops keeping the dtype ----===//
//
// neg, abs, sign, ceil/floor/round/trunc, bitwise_not, the is* predicates,
// square, angle, real/imag, clone/detach/contiguous, zero, fill, copy ...
//
// Checked on torch 1.13 (CPU + meta) for all 13 dtypes at rank 0 and 1, with
// every Scalar kind. Where the CPU kernel merely lacks a dtype (frac of an
// integer, bitwise_not of a float, abs of bool ...) the rule gives the dtype
// meta gives; dtype checks PyTorch makes on every device (neg of bool, sign
// and ceil of complex, imag of a real tensor, in-place casts) are errors.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/unit_dims.h"
#include "ops/vocabulary.h"

#include <functional>

namespace dtf {
namespace {

using DTypePred = std::function<bool(DType)>;

/// `fn`, but raising `what` when self's dtype satisfies `rejects`.
RuleFn rejecting(DTypePred rejects, std::string what, RuleFn fn) {
  return [rejects = std::move(rejects), what = std::move(what), fn = std::move(fn)](const OpCall &c) -> RuleResult {
    if (rejects(c.dtype("self"))) return c.semantic("{} (self is {})", what, name(c.dtype("self")));
    return fn(c);
  };
}

bool complexDType(DType d) { return isComplex(d); }
bool boolDType(DType d) { return isBool(d); }

/// Result = f(self dtype), same rank.
RuleFn mapDType(DType (*f)(DType)) {
  return [f](const OpCall &c) -> RuleResult { return tensorOf(f(c.dtype("self")), c.rank("self")); };
}

/// copy(self, src) / copy_: self's dtype and shape; src must broadcast to self.
RuleFn copyRule(std::string srcArg) {
  return [srcArg = std::move(srcArg)](const OpCall &c) -> RuleResult {
    Rank self = c.rank("self"), src = c.rank(srcArg);
    auto selfRank = self.value();
    bool srcTooBig = selfRank && ((src.value() && *src.value() > *selfRank) || (!src.value() && *selfRank == 0));
    if (srcTooBig)
      return c.semantic("{} (rank {}) does not broadcast to self's shape (rank {})", srcArg, src.value().value_or(1),
                        *selfRank);
    return tensorOf(c.dtype("self"), self);
  };
}

/// fill.Tensor / fill_.Tensor: self's dtype; the value must be 0-dim.
RuleFn fillTensorRule() {
  return [](const OpCall &c) -> RuleResult {
    if (!c.rank("value").mayBeZero())
      return c.semantic("fill_ only supports 0-dimension value tensor, value has rank {}",
                        c.rank("value").value() ? std::to_string(*c.rank("value").value()) : std::string(">= 1"));
    return tensorOf(c.dtype("self"), c.rank("self"));
  };
}

} // namespace

void registerUnaryPreserving(Registry &reg) {
  // Every op here keeps self's shape, so its size-1 facts too.
  struct ShapeKeeping {
    Registry &reg;
    Registry::Entry add(std::string_view key, std::string_view fam, RuleFn fn) {
      return reg.add(key, fam, keepingShape(std::move(fn)));
    }
  } r{reg};
  const std::string same = "unary.same";
  RuleFn id = sameAs("self");
  auto both = [&](std::string_view key, std::string_view inPlaceKey, const std::string &fam, const RuleFn &f) {
    r.add(key, fam, f);
    r.add(inPlaceKey, fam, inPlace(f));
  };

  // Negation rejects bool on every device ("-" on a bool tensor).
  RuleFn neg = rejecting(boolDType, "negation, the `-` operator, on a bool tensor is not supported", id);
  both("aten::neg", "aten::neg_", same, neg);
  both("aten::negative", "aten::negative_", same, neg);
  r.add("aten::positive", same,
        rejecting(boolDType, "the `+` operator, on a bool tensor is not supported", id));

  // abs: complex -> real (c32 -> f16); bool has no CPU kernel (meta: bool).
  // In-place abs rejects complex.
  RuleFn abs = mapDType(toRealValueType);
  RuleFn absInPlace = rejecting(complexDType, "in-place abs is not supported for complex tensors", inPlace(id));
  for (auto [key, inPlaceKey] : {std::pair{"aten::abs", "aten::abs_"}, std::pair{"aten::absolute", "aten::absolute_"}}) {
    r.add(key, "unary.complex_to_float", abs);
    r.add(inPlaceKey, "unary.complex_to_float", absInPlace);
  }
  both("aten::sgn", "aten::sgn_", same, id);
  both("aten::sign", "aten::sign_", same,
       rejecting(complexDType, "unlike numpy, torch.sign is not intended to support complex numbers, use torch.sgn",
                 id));

  // Rounding: integers (and bool) pass through; ceil/floor/trunc reject
  // complex, round has no complex kernel anywhere (meta keeps complex).
  for (auto [key, inPlaceKey, what] : {std::tuple{"aten::ceil", "aten::ceil_", "ceil"},
                                      std::tuple{"aten::floor", "aten::floor_", "floor"},
                                      std::tuple{"aten::trunc", "aten::trunc_", "trunc"},
                                      std::tuple{"aten::fix", "aten::fix_", "trunc"}})
    both(key, inPlaceKey, same, rejecting(complexDType, std::string(what) + " is not supported for complex inputs", id));
  both("aten::round", "aten::round_", same, id);
  r.add("aten::round.decimals", same, id).sample("decimals", "1");
  r.add("aten::round_.decimals", same, inPlace(id)).sample("decimals", "1");
  r.add("aten::special_round", same, id);
  both("aten::frac", "aten::frac_", same, id);
  // bitwise_not has kernels for bool/integers only (float: a kernel gap, meta
  // keeps the dtype).
  both("aten::bitwise_not", "aten::bitwise_not_", same, id);
  both("aten::nan_to_num", "aten::nan_to_num_", same, id);

  // Predicates: always bool.
  const std::string pred = "unary.always_bool";
  for (const char *k : {"aten::isnan", "aten::isinf", "aten::isfinite", "aten::isreal"})
    r.add(k, pred, always(DType::Bool));
  r.add("aten::isposinf", pred,
        rejecting(complexDType, "isposinf does not support complex inputs", always(DType::Bool)));
  r.add("aten::isneginf", pred,
        rejecting(complexDType, "isneginf does not support complex inputs", always(DType::Bool)));
  r.add("aten::signbit", pred,
        rejecting(complexDType, "signbit is not implemented for complex tensors", always(DType::Bool)));
  r.add("aten::logical_not", pred, always(DType::Bool));
  r.add("aten::logical_not_", pred, id); // writes bools into self's dtype

  // square = pow(self, 2): bool -> int64 (BOOL_TO_LONG); square_ of bool raises.
  RuleFn square = mapDType([](DType d) { return isBool(d) ? DType::Int64 : d; });
  r.add("aten::square", "unary.bool_to_long", square);
  r.add("aten::square_", "unary.bool_to_long", inPlace(square));

  // angle: integers -> float32, complex -> real.
  r.add("aten::angle", "unary.complex_to_float", mapDType([](DType d) {
          if (isIntegral(d, /*includeBool=*/true)) return DType::Float32;
          return toRealValueType(d);
        }));
  r.add("aten::real", "unary.complex_to_float", mapDType(toRealValueType));
  r.add("aten::imag", "unary.complex_to_float",
        rejecting([](DType d) { return !isComplex(d); },
                  "imag is not implemented for tensors with non-complex dtypes", mapDType(toRealValueType)));

  // Identity-dtype copies and views.
  const std::string ident = "unary.identity";
  for (const char *k : {"aten::clone", "aten::contiguous"}) reg.declare(k, OpFact::MemoryFormatKeepsShape);
  for (const char *k : {"aten::conj", "aten::conj_physical", "aten::resolve_conj", "aten::resolve_neg", "aten::clone",
                        "aten::contiguous", "aten::detach", "aten::lift", "aten::lift_fresh", "aten::lift_fresh_copy",
                        "aten::zero", "aten::conj_physical_", "aten::detach_", "aten::zero_"})
    r.add(k, ident, id);

  // fill: self's dtype. The value must fit it (value-dependent: 1+0j and
  // 255 fill uint8, 1j and 256 raise; checkedFill: a 0-dim tensor in 2.14).
  RuleFn fillScalar = [](const OpCall &c) -> RuleResult {
    if (auto e = checkedFill(c, "value", c.dtype("self"), c.rank("self"))) return *e;
    return tensorOf(c.dtype("self"), c.rank("self"));
  };
  for (const char *k : {"aten::fill.Scalar", "aten::fill_.Scalar"})
    r.add(k, ident, fillScalar).variant({{"self", "sweep![2]"}, {"value", "magnitudes"}})
        .variant({{"self", "sweep![]"}, {"value", "magnitudes"}});
  r.add("aten::fill.Tensor", ident, fillTensorRule());
  r.add("aten::fill_.Tensor", ident, fillTensorRule());
  // copy: any src dtype is cast to self's (complex -> real drops imag).
  r.add("aten::copy", ident, copyRule("src"));
  r.add("aten::copy_", ident, copyRule("src"));
  // TorchScript's own copy_ overloads (used by `t[...] = x` lowering).
  r.add("aten::copy_.Tensor", ident, copyRule("other"));
  r.add("aten::copy_.int", ident, id);
  r.add("aten::copy_.float", ident, id);
}

} // namespace dtf
