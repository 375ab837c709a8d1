//===- ops/families/unary_math.cpp - int-to-float unary math --------------===//
//
// sin, exp, sqrt, erf, lgamma, the special_* functions ...: PyTorch's
// INT_TO_FLOAT kind. Bool and integer inputs compute in (and return) the
// default dtype float32; floating and complex inputs keep their dtype. The
// in-place forms keep self's dtype, so they raise for bool/integer self
// ("result type Float can't be cast to the desired output type Int").
//
// Checked on torch 1.13 (CPU + meta) for all 13 dtypes at rank 0 and 1. Many
// of these have no CPU kernel for float16/complex32 (or for complex at all:
// erf, lgamma, expm1, the bessel functions ...); those are kernel gaps, and
// the rule gives the dtype meta gives.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {
namespace {

/// `fn`, but raising for complex self with `what` ("deg2rad is not ...").
RuleFn rejectComplex(RuleFn fn, std::string what) {
  return [fn = std::move(fn), what = std::move(what)](const OpCall &c) -> RuleResult {
    if (isComplex(c.dtype("self"))) return c.semantic("{} (self is {})", what, name(c.dtype("self")));
    return fn(c);
  };
}

/// polygamma(n, self): INT_TO_FLOAT, and n must not be negative.
RuleFn polygammaRule() {
  return [](const OpCall &c) -> RuleResult {
    if (auto n = c.arg("n").intValue(); n && *n < 0)
      return c.error(ErrorKind::ValueDependent, "polygamma(n, x) does not support negative n ({})", *n);
    return tensorOf(applyKind(PromotionKind::IntToFloat, c.dtype("self")), c.rank("self"));
  };
}

/// mvlgamma(self, p): bool raises; integers compute in the default dtype.
/// Complex has no kernel anywhere (arange/lgamma), kept as complex.
RuleFn mvlgammaRule(bool inPlaceForm) {
  return [inPlaceForm](const OpCall &c) -> RuleResult {
    DType d = c.dtype("self");
    if (isBool(d)) return c.semantic("the input tensor may not be a boolean tensor");
    if (auto p = c.arg("p").intValue(); p && *p < 1)
      return c.error(ErrorKind::ValueDependent, "p has to be greater than or equal to 1 (p = {})", *p);
    // mvlgamma_ builds its arange in self's dtype: step 0.5 truncates to 0.
    if (inPlaceForm && isIntegral(d)) return c.semantic("step must be nonzero (self is {})", name(d));
    return tensorOf(applyKind(PromotionKind::IntToFloat, d), c.rank("self"));
  };
}

} // namespace

void registerUnaryMath(Registry &r) {
  const std::string fam = "unary.int_to_float";
  RuleFn i2f = unary(PromotionKind::IntToFloat);

  // Ops with an in-place `name_` overload.
  for (auto [key, inPlaceKey] : std::initializer_list<std::pair<const char *, const char *>>{
           {"aten::sin", "aten::sin_"}, {"aten::cos", "aten::cos_"}, {"aten::tan", "aten::tan_"},
           {"aten::asin", "aten::asin_"}, {"aten::acos", "aten::acos_"}, {"aten::atan", "aten::atan_"},
           {"aten::sinh", "aten::sinh_"}, {"aten::cosh", "aten::cosh_"}, {"aten::tanh", "aten::tanh_"},
           {"aten::asinh", "aten::asinh_"}, {"aten::acosh", "aten::acosh_"}, {"aten::atanh", "aten::atanh_"},
           {"aten::arcsin", "aten::arcsin_"}, {"aten::arccos", "aten::arccos_"}, {"aten::arctan", "aten::arctan_"},
           {"aten::arcsinh", "aten::arcsinh_"}, {"aten::arccosh", "aten::arccosh_"}, {"aten::arctanh", "aten::arctanh_"},
           {"aten::exp", "aten::exp_"}, {"aten::exp2", "aten::exp2_"}, {"aten::expm1", "aten::expm1_"},
           {"aten::log", "aten::log_"}, {"aten::log1p", "aten::log1p_"}, {"aten::log2", "aten::log2_"},
           {"aten::log10", "aten::log10_"}, {"aten::sqrt", "aten::sqrt_"}, {"aten::rsqrt", "aten::rsqrt_"},
           {"aten::reciprocal", "aten::reciprocal_"}, {"aten::sigmoid", "aten::sigmoid_"}, {"aten::erf", "aten::erf_"},
           {"aten::erfc", "aten::erfc_"}, {"aten::erfinv", "aten::erfinv_"}, {"aten::lgamma", "aten::lgamma_"},
           {"aten::digamma", "aten::digamma_"}, {"aten::i0", "aten::i0_"}, {"aten::sinc", "aten::sinc_"},
       }) {
    r.add(key, fam, i2f);
    r.add(inPlaceKey, fam, inPlace(i2f));
  }
  // special_* functions (no in-place overloads).
  for (const char *k :
       {"aten::special_bessel_j0", "aten::special_bessel_j1", "aten::special_bessel_y0",
        "aten::special_bessel_y1", "aten::special_modified_bessel_i0", "aten::special_modified_bessel_i1",
        "aten::special_modified_bessel_k0", "aten::special_modified_bessel_k1", "aten::special_digamma",
        "aten::special_psi", "aten::special_gammaln", "aten::special_entr", "aten::special_erf",
        "aten::special_erfc", "aten::special_erfcx", "aten::special_erfinv", "aten::special_exp2",
        "aten::special_expm1", "aten::special_expit", "aten::special_i0", "aten::special_i0e",
        "aten::special_i1", "aten::special_i1e", "aten::special_log1p", "aten::special_log_ndtr",
        "aten::special_ndtr", "aten::special_ndtri", "aten::special_sinc"})
    r.add(k, fam, i2f);
  // The same, over an argument named `x`.
  for (const char *k : {"aten::special_airy_ai", "aten::special_scaled_modified_bessel_k0",
                        "aten::special_scaled_modified_bessel_k1", "aten::special_spherical_bessel_j0"})
    r.add(k, fam, elementwise(PromotionKind::IntToFloat, {"x"}));

  // logit clamps, and clamp rejects complex (meta); CPU/CUDA have no kernel.
  RuleFn logit = rejectComplex(i2f, "clamp is not supported for complex types");
  r.add("aten::logit", fam, logit);
  r.add("aten::logit_", fam, inPlace(logit));
  r.add("aten::special_logit", fam, logit);

  for (auto [key, inPlaceKey, n] : {std::tuple{"aten::deg2rad", "aten::deg2rad_", "deg2rad"},
                                   std::tuple{"aten::rad2deg", "aten::rad2deg_", "rad2deg"}}) {
    RuleFn f = rejectComplex(i2f, std::string(n) + " is not supported for complex tensors");
    r.add(key, fam, f);
    r.add(inPlaceKey, fam, inPlace(f));
  }

  r.add("aten::polygamma", fam, polygammaRule()).sample("n", "1");
  r.add("aten::special_polygamma", fam, polygammaRule()).sample("n", "1");
  r.add("aten::polygamma_", fam, inPlace(polygammaRule())).sample("n", "1");

  r.add("aten::mvlgamma", fam, mvlgammaRule(false)).sample("p", "1");
  r.add("aten::special_multigammaln", fam, mvlgammaRule(false)).sample("p", "1");
  r.add("aten::mvlgamma_", fam, inPlace(mvlgammaRule(true))).sample("p", "1");
}

} // namespace dtf
