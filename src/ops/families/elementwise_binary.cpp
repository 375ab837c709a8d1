//===- ops/families/elementwise_binary.cpp - promoting binary ops ---------===//
//
// Ops whose result is result_type(self, other), adjusted by PyTorch's
// ELEMENTWISE_TYPE_PROMOTION_KIND, with the dtype checks ATen applies.
//
// Measured on 1.13 (CPU and meta, every dtype at rank 0 and 1, every Python
// number kind): the outcome of each op below is a function of the promoted
// dtype P alone, apart from the checks spelled out per op (sub/rsub reject any
// bool operand, heaviside needs identical dtypes, alpha rules, pow's negative
// integer exponent). Dtype classes whose kernel exists on no backend (bool or
// complex remainder, integer hypot ...) are rejected as semantic errors;
// kernels only missing on CPU for float16 / complex32 keep the meta dtype.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/unit_dims.h"
#include "ops/vocabulary.h"

#include <limits>

namespace dtf {
namespace {

// Dtype classes an op rejects (checked on its computation dtype).
enum Reject : unsigned {
  kNone = 0,
  kBool = 1,
  kInt = 2,     // integral, not bool
  kFloat = 4,   // floating
  kComplex = 8,
};

bool rejected(unsigned mask, DType d) {
  return ((mask & kBool) && isBool(d)) || ((mask & kInt) && isIntegral(d, false)) ||
         ((mask & kFloat) && isFloating(d)) || ((mask & kComplex) && isComplex(d));
}

std::string argStr(const OpCall &c, std::string_view n) { return c.arg(n).str(); }

/// Result of a binary op over (self, other) after the promotion kind, or the
/// error for a rejected dtype class. `check` is the dtype whose class is tested.
RuleResult promoteChecked(const OpCall &c, PromotionKind kind, unsigned reject,
                          std::initializer_list<std::string_view> names = {"self", "other"}) {
  DType p = commonDTypeArgs(c, names);
  DType r = applyKind(kind, p);
  if (rejected(reject, r))
    return c.semantic("not supported for {} (promoted from {})", name(r), name(p));
  return withBroadcastUnitDims(c, tensorOf(r, broadcastArgs(c, names)), names);
}

/// alpha (add/sub/rsub) must not promote the result.
std::optional<RuleError> alphaCheck(const OpCall &c, DType r) {
  const Value &alpha = c.arg("alpha");
  NumKind ak = *alpha.numKind();
  if (ak == NumKind::Bool && !isBool(r))
    return c.semantic("boolean alpha {} is only supported for a bool result, not {}", alpha.str(),
                      name(r));
  if (ak == NumKind::Float && !isFloating(r) && !isComplex(r))
    return c.semantic("float alpha {} for an integral {} result", alpha.str(), name(r));
  if (ak == NumKind::Complex && !isComplex(r))
    return c.semantic("complex alpha {} for a non-complex {} result", alpha.str(), name(r));
  return checkedConversion(c, "alpha", r, ComplexHalfParts::AsHalf); // into the result's dtype: not 256 into uint8
}

bool isBoolOperand(const Value &v) {
  return (v.isTensor() && v.dtype() == DType::Bool) ||
         (v.isNumber() && v.numKind() == NumKind::Bool);
}

/// add / sub / rsub (Tensor and Scalar overloads).
RuleFn addLike(bool isSub) {
  return [isSub](const OpCall &c) -> RuleResult {
    if (isSub && (isBoolOperand(c.arg("self")) || isBoolOperand(c.arg("other"))))
      return c.semantic("subtraction with a bool operand is not supported (self {}, other {})",
                        argStr(c, "self"), argStr(c, "other"));
    DType r = commonDTypeArgs(c, {"self", "other"});
    if (auto e = alphaCheck(c, r)) return *e;
    return withBroadcastUnitDims(c, tensorOf(r, broadcastArgs(c, {"self", "other"})), {"self", "other"});
  };
}

RuleFn simple(PromotionKind kind, unsigned reject) {
  return [kind, reject](const OpCall &c) { return promoteChecked(c, kind, reject); };
}

/// `f` (a rounding division or remainder by a number `other`), but an
/// integral result divided by a number that is zero in its width raises
/// ZeroDivisionError (value-dependent): the number is cast into the result's
/// dtype first, so 256 is zero for uint8 and 2**32 for int32 (measured).
RuleFn byNumber(RuleFn f) {
  return [f = std::move(f)](const OpCall &c) -> RuleResult {
    RuleResult res = f(c);
    const Value &o = c.arg("other");
    if (!res.ok() || !o.isNumber() || (o.numKind() != NumKind::Int && o.numKind() != NumKind::Bool)) return res;
    auto d = res.outputs()[0].dtype();
    auto v = o.intValue();
    if (!d || !isIntegral(*d) || !v) return res;
    const int bits = 8 * elementSize(*d);
    const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    if ((static_cast<uint64_t>(*v) & mask) == 0)
      return c.error(ErrorKind::ValueDependent, "ZeroDivisionError: {} is zero as {}, the result's dtype", o.str(),
                     name(*d));
    return res;
  };
}

/// div with rounding_mode: None -> true division, 'floor'/'trunc' -> promoted
/// type (bool and complex rejected).
RuleFn divMode() {
  return [](const OpCall &c) -> RuleResult {
    const Value &mode = c.arg("rounding_mode");
    auto trueDiv = [&] { return promoteChecked(c, PromotionKind::IntToFloat, kNone); };
    auto roundDiv = [&] { return promoteChecked(c, PromotionKind::Default, kBool | kComplex); };
    if (mode.isNone()) return trueDiv();
    auto text = mode.text();
    if (!text) {
      // Unknown mode: either answer is possible.
      RuleResult a = trueDiv(), b = roundDiv();
      if (!a.ok()) return b;
      if (!b.ok()) return a;
      return Value::join(a.outputs()[0], b.outputs()[0]);
    }
    if (*text == "floor" || *text == "trunc") return roundDiv();
    return c.semantic("rounding_mode must be None, 'trunc' or 'floor', not '{}'", *text);
  };
}

/// pow: DEFAULT promotion; a bool result has no kernel; an integral base to a
/// known negative Python int raises (value-dependent).
/// `boolExponentCopies` (2.14's Tensor_Scalar): a True exponent copies self
/// and a False one fills ones, whatever the dtype (a bool result too).
/// `boolToLongOnMeta` (2.6, 2.14): FakeTensor and torch.export run pow as its
/// Python reference (torch/_refs: BOOL_TO_LONG promotion), where a bool result
/// is int64: `x_bool ** True` is recorded int64 while the CPU kernel gives bool,
/// and bool ** bool tensors run there (the CPU has no kernel); measured
/// (2.6, 2.14: CPU, meta device, FakeTensorMode). The libtorch harness cannot
/// see it (the reference is registered by torch's Python package).
RuleFn powRule(bool boolExponentCopies = false, bool boolToLongOnMeta = false) {
  return [boolExponentCopies, boolToLongOnMeta](const OpCall &c) -> RuleResult {
    std::string_view base = "self", exp = "exponent";
    DType r = promoteArgs(c, {base, exp});
    if (boolToLongOnMeta && c.onMeta() && isBool(r))
      return withBroadcastUnitDims(c, tensorOf(DType::Int64, broadcastArgs(c, {base, exp})), {base, exp});
    bool copies = boolExponentCopies && c.arg(exp).isNumber() && c.arg(exp).numKind() == NumKind::Bool;
    if (isBool(r) && !copies) return c.semantic("pow is not implemented for bool (self {}, exponent {})",
                                     argStr(c, base), argStr(c, exp));
    const Value &e = c.arg(exp);
    if (e.isNumber() && c.arg(base).isTensor() && isIntegral(c.dtype(base), true) &&
        (e.numKind() == NumKind::Int || e.numKind() == NumKind::Bool)) {
      if (auto v = e.intValue(); v && *v < 0)
        return c.error(ErrorKind::ValueDependent,
                       "integers to negative integer powers are not allowed ({} ** {})",
                       argStr(c, base), *v);
    }
    // A number exponent is converted into an integral or 16-bit floating
    // result (300 into uint8 raises); float32/64 and complex kernels take it as a double.
    if (e.isNumber() && c.arg(base).isTensor() && (isIntegral(r) || elementSize(r) == 2))
      if (auto err = checkedConversion(c, exp, r)) return *err;
    return withBroadcastUnitDims(c, tensorOf(r, broadcastArgs(c, {base, exp})), {base, exp});
  };
}

bool anyComplex(const OpCall &c, std::initializer_list<std::string_view> names) {
  for (auto n : names) {
    const Value &v = c.arg(n);
    if (v.isTensor() && isComplex(c.dtype(n))) return true;
    if (v.isNumber() && v.numKind() == NumKind::Complex) return true;
  }
  return false;
}

/// float_power: always float64, complex128 if any operand is complex.
RuleFn floatPower() {
  return [](const OpCall &c) -> RuleResult {
    DType r = anyComplex(c, {"self", "exponent"}) ? DType::Complex128 : DType::Float64;
    return withBroadcastUnitDims(c, tensorOf(r, broadcastArgs(c, {"self", "exponent"})), {"self", "exponent"});
  };
}

/// float_power_: self must already have the result dtype.
RuleFn floatPowerInplace() {
  return [](const OpCall &c) -> RuleResult {
    DType r = anyComplex(c, {"self", "exponent"}) ? DType::Complex128 : DType::Float64;
    if (c.dtype("self") != r)
      return c.semantic("the base given to float_power_ has dtype {} but the result requires {}",
                        name(c.dtype("self")), name(r));
    return tensorOf(r, c.rank("self"));
  };
}

/// heaviside: identical dtypes, not complex.
RuleFn heaviside() {
  return [](const OpCall &c) -> RuleResult {
    DType a = c.dtype("self"), b = c.dtype("values");
    if (isComplex(a) || isComplex(b))
      return c.semantic("not implemented for complex tensors (self {}, values {})", name(a),
                        name(b));
    if (a != b)
      return c.semantic("self ({}) and values ({}) must have the same dtype", name(a), name(b));
    return withBroadcastUnitDims(c, tensorOf(a, broadcastArgs(c, {"self", "values"})), {"self", "values"});
  };
}

/// ldexp(self, other) = self * pow(2.0, other): the power is float32 for a
/// bool/integral `other` (else other's dtype), with other's rank. 1.13 makes 2**other of an integral other
/// float32 first (a float16 self gives float32); 2.6 and 2.14 keep a floating or
/// complex self's dtype for an integral other (scripts/probes/weight_norm_ldexp.py),
/// but 2.6 promotes a float8 self with the integral other first, which raises
/// (`float8SelfPromotes`).
RuleFn ldexp(bool integralOtherKeepsSelf, bool float8SelfPromotes = false) {
  return [integralOtherKeepsSelf, float8SelfPromotes](const OpCall &c) -> RuleResult {
    DType o = c.dtype("other"), s = c.dtype("self");
    if (integralOtherKeepsSelf) {
      if (isIntegral(o, true) && (isFloating(s) || isComplex(s))) {
        if (float8SelfPromotes && isFloat8(s)) (void)c.promote(s, o);
        // A complex self meets a 0-dim other in a promotion (measured: uint16/32/64
        // raise there; a dimensioned other does not).
        if (isComplex(s) && c.rank("other") == Rank::exact(0)) (void)c.promote(s, o);
        return tensorOf(s, broadcastRank({c.rank("self"), c.rank("other")}));
      }
      // float8 meets the other in a promotion (raises), but for a 0-dim
      // float8 self with a dimensioned other, whose dtype wins (measured).
      const bool selfYields = c.rank("self") == Rank::exact(0) && !c.rank("other").mayBeZero();
      if (isFloat8(o) || (isFloat8(s) && !selfYields)) (void)c.promote(s, o);
    }
    DType pw = isIntegral(o, true) ? DType::Float32 : o;
    Rank ro = c.rank("other"), rs = c.rank("self");
    std::vector<PromotionOperand> ops{
        {c.dtype("self"), tierOf(rs)},
        {pw, tierOf(ro)}};
    DType r = c.resultType(ops);
    return tensorOf(r, broadcastRank({rs, ro}));
  };
}

/// The in-place form: vocabulary's inPlace with the other tensor arguments
/// fitting in self (`castCheck` off for comparisons).
RuleFn inplace(RuleFn f, std::vector<std::string> others, bool castCheck = true) {
  return inPlace(std::move(f), {std::move(others), castCheck});
}


/// _add_relu (TorchScript's FuseAddRelu pass; a CPU-only op in 1.13),
/// measured on every dtype pair at rank 0 and 1 and every Scalar kind:
///  - the result is result_type(self, other), as add's (alpha unchecked: a
///    float alpha truncates for an integral result);
///  - add_relu_impl takes its clamp bounds [0, largest value of self's
///    dtype] from *self's* dtype, which must be int8/16/32/64 or float32/64
///    (an internal assert in BinaryOps.cpp otherwise, whatever the result);
///  - add_clamp_cpu has no float16, bfloat16 or complex kernel (result dtype);
///  - a complex alpha with an imaginary part overflows (value-dependent);
///  - the upper bound is converted into the result dtype: when it does not
///    fit (an int32 0-dim self with an int8 tensor: result int8; float64
///    0-dim self with float32: result float32) the call raises "value cannot
///    be converted ... without overflow", a dtype-determined error.
/// The in-place form first checks that the result casts to self and that
/// other broadcasts into self; it then returns the tensor the kernel wrote,
/// which is of the *result* dtype (`result = iter.output()` rebinds the
/// returned handle): `_add_relu_(int8[2], int32[2])` returns int32.
RuleFn addRelu(bool inPlaceForm) {
  return [inPlaceForm](const OpCall &c) -> RuleResult {
    DType s = c.dtype("self");
    DType r = promoteArgs(c, {"self", "other"});
    if (inPlaceForm) {
      if (c.isTensor("other")) {
        Rank self = c.rank("self"), o = c.rank("other");
        if ((self.value() && o.value() && *o.value() > *self.value()) ||
            (self == Rank::exact(0) && o == Rank::atLeast1()))
          return c.semantic("in-place output {} cannot hold the broadcast with other {}", c.arg("self").str(),
                            c.arg("other").str());
      }
      if (!canCast(r, s))
        return c.semantic("result type {} can't be cast to the desired output type {}", c10Name(r), c10Name(s));
    }
    switch (s) {
    case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64: case DType::Float32: case DType::Float64:
      break;
    default:
      return c.semantic("unsupported datatype for add_relu: self is {} (int8/16/32/64 or float32/64 only)", name(s));
    }
    if (r == DType::Float16 || r == DType::BFloat16 || isComplex(r))
      return c.missingKernel("add_clamp_cpu has no kernel for the {} result", name(r));
    if (auto e = checkedConversion(c, "alpha", r)) return *e;
    if (largestValue(s) > largestValue(r))
      return c.semantic("the clamp bound (the largest {}, from self) cannot be converted to the {} result without "
                        "overflow", name(s), name(r));
    if (inPlaceForm) return tensorOf(r, c.rank("self")).withUnitDims(c.arg("self").unitDims());
    return withBroadcastUnitDims(c, tensorOf(r, broadcastArgs(c, {"self", "other"})), {"self", "other"});
  };
}

using PK = PromotionKind;

/// 2.6's FakeTensor (torch.export's records) divides integral or bool
/// operands without the int-to-float step when one of them has a symbolic
/// size: int32 / int32 of [s0] is recorded int32, bool / bool bool, bool / 2
/// int64 (the promoted dtype); the exported program runs float32. Static
/// sizes give float32 there too; unknown sizes leave it unknown. Measured
/// (2.6 and 2.14 exports with Dim.AUTO; 2.14 records float32).
RuleFn trueDivisionOnSymbolicMeta26(RuleFn division) {
  return metaByReference(division, [division](const OpCall &c) -> RuleResult {
    RuleResult r = division(c);
    const DType p = promoteArgs(c, {"self", "other"});
    if (!r.ok() || !isIntegral(p, true)) return r;
    bool symbolic = false, unknown = false;
    for (const char *n : {"self", "other"}) {
      const Value &v = c.arg(n);
      if (!v.isTensor()) continue;
      const auto dims = v.shape();
      if (!dims) { unknown = true; continue; }
      for (const Dim &d : *dims) {
        if (!d.known()) unknown = true;
        else if (!d.value()) symbolic = true;
      }
    }
    if (symbolic) return r.outputs()[0].withDTypes(DTypeSet(p));
    return unknown ? RuleResult(Value::unknownTensor()) : r;
  });
}

/// Registers the element-wise binary ops, each sub-family by one member function.
struct ElementwiseBinary {
  Registry &r;
  const std::vector<std::string> kOther{"other"};
  // Helper: out-of-place key and its in-place key.
  Registry::Entry op(std::string key, std::string family, RuleFn f, std::string inKey = "",
                     std::vector<std::string> others = {"other"}) {
    Registry::Entry e = r.add(key, family, f);
    if (!inKey.empty()) r.add(inKey, family, inplace(f, others));
    return e;
  }
  // (a divisor that is zero in an integral result's width: sampled with 0 and 256)
  const std::map<std::string, std::string, std::less<>> zeroDivisors{{"self", "sweep![2]"}, {"other", "magnitudes"}};
  void arithmetic();
  void roundingAndFloatMath();
  void orderedIntegerPow();
};

/// add / sub / rsub (and add + relu), mul, true and rounding-mode division.
void ElementwiseBinary::arithmetic() {
  // add / sub / rsub and aliases.
  for (auto [key, inKey, isSub, tensorOther] :
       {std::tuple{"aten::add.Tensor", "aten::add_.Tensor", false, true},
        std::tuple{"aten::add.Scalar", "aten::add_.Scalar", false, false},
        std::tuple{"aten::sub.Tensor", "aten::sub_.Tensor", true, true},
        std::tuple{"aten::sub.Scalar", "aten::sub_.Scalar", true, false},
        std::tuple{"aten::subtract.Tensor", "aten::subtract_.Tensor", true, true},
        std::tuple{"aten::subtract.Scalar", "aten::subtract_.Scalar", true, false}}) {
    Registry::Entry e = op(key, "binary.promote", addLike(isSub), inKey);
    // Broadcasting's size-1 facts: [2,1] with [1] stays [2,1], with [3] becomes [2,3].
    if (key == std::string_view("aten::add.Tensor"))
      e.variant({{"self", "sweep[2,1]"}, {"other", "sweep[1]"}}).variant({{"self", "sweep[2,1]"}, {"other", "sweep[3]"}});
    // alpha converted into the result's dtype (an int8 other promotes to self's, but for bool and uint8)
    if (tensorOther) e.variant({{"self", "sweep![2]"}, {"other", "int8[2]"}, {"alpha", "magnitudes"}});
  }
  // add + relu fused by TorchScript (FuseAddRelu): see addRelu. (alpha is
  // swept over every Python number kind by default.)
  r.add("aten::_add_relu.Tensor", "binary.add_relu", addRelu(false))
      .variant({{"self", "sweep[2,1]"}, {"other", "sweep[3]"}, {"alpha", "1"}})
      .variant({{"self", "sweep![2]"}, {"other", "int8[2]"}, {"alpha", "magnitudes"}});
  r.add("aten::_add_relu.Scalar", "binary.add_relu", addRelu(false));
  r.add("aten::_add_relu_.Tensor", "binary.add_relu", addRelu(true))
      .variant({{"self", "sweep[2,1]"}, {"other", "sweep[1]"}, {"alpha", "1"}});
  r.add("aten::_add_relu_.Scalar", "binary.add_relu", addRelu(true));
  r.add("aten::rsub.Tensor", "binary.promote", addLike(true));
  r.add("aten::rsub.Scalar", "binary.promote", addLike(true));

  // mul / multiply.
  for (auto [key, inKey] : {std::pair{"aten::mul.Tensor", "aten::mul_.Tensor"},
                            std::pair{"aten::mul.Scalar", "aten::mul_.Scalar"},
                            std::pair{"aten::multiply.Tensor", "aten::multiply_.Tensor"},
                            std::pair{"aten::multiply.Scalar", "aten::multiply_.Scalar"}})
    op(key, "binary.promote", simple(PK::Default, kNone), inKey);

  // True division. 2.6's FakeTensor divides integers and bools without the
  // int-to-float step when an operand has a symbolic size (trueDivisionOn-
  // SymbolicMeta26: what its torch.export records with dynamic shapes).
  for (auto [key, inKey] : {std::pair{"aten::div.Tensor", "aten::div_.Tensor"},
                            std::pair{"aten::div.Scalar", "aten::div_.Scalar"},
                            std::pair{"aten::divide.Tensor", "aten::divide_.Tensor"},
                            std::pair{"aten::divide.Scalar", "aten::divide_.Scalar"},
                            std::pair{"aten::true_divide.Tensor", "aten::true_divide_.Tensor"},
                            std::pair{"aten::true_divide.Scalar", "aten::true_divide_.Scalar"}}) {
    const RuleFn division = simple(PK::IntToFloat, kNone);
    r.add(inKey, "binary.int_to_float", inplace(division, kOther));
    for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), division},
                               std::pair{r.since(TorchVersion::V2_6), trueDivisionOnSymbolicMeta26(division)},
                               std::pair{r.since(TorchVersion::V2_14), division}})
      scope.add(key, "binary.int_to_float", rule);
  }
}

/// floor_divide, remainder, fmod; float math promoted from integers (atan2, xlogy ...), orthogonal polynomials.
void ElementwiseBinary::roundingAndFloatMath() {
  for (auto [key, inKey, number] : {std::tuple{"aten::div.Tensor_mode", "aten::div_.Tensor_mode", false},
                                    std::tuple{"aten::div.Scalar_mode", "aten::div_.Scalar_mode", true},
                                    std::tuple{"aten::divide.Tensor_mode", "aten::divide_.Tensor_mode", false},
                                    std::tuple{"aten::divide.Scalar_mode", "aten::divide_.Scalar_mode", true}}) {
    RuleFn f = number ? byNumber(divMode()) : divMode();
    Registry::Entry e = r.add(key, "binary.div_mode", f)
                            .variant({{"rounding_mode", "'floor'"}})
                            .variant({{"rounding_mode", "'trunc'"}});
    if (number) {
      auto v = zeroDivisors;
      v["rounding_mode"] = "'trunc'";
      e.variant(std::move(v));
    }
    r.add(inKey, "binary.div_mode", inplace(f, kOther))
        .variant({{"rounding_mode", "'floor'"}})
        .variant({{"rounding_mode", "'trunc'"}});
  }

  // Rounding division and remainders: no bool, no complex.
  const unsigned noBoolComplex = kBool | kComplex;
  op("aten::floor_divide", "binary.promote", simple(PK::Default, noBoolComplex),
     "aten::floor_divide_.Tensor");
  op("aten::floor_divide.Scalar", "binary.promote", byNumber(simple(PK::Default, noBoolComplex)),
     "aten::floor_divide_.Scalar").variant(zeroDivisors);
  for (auto [key, inKey, number] : {std::tuple{"aten::remainder.Tensor", "aten::remainder_.Tensor", false},
                                    std::tuple{"aten::remainder.Scalar", "aten::remainder_.Scalar", true},
                                    std::tuple{"aten::fmod.Tensor", "aten::fmod_.Tensor", false},
                                    std::tuple{"aten::fmod.Scalar", "aten::fmod_.Scalar", true}}) {
    RuleFn f = number ? byNumber(simple(PK::Default, noBoolComplex)) : simple(PK::Default, noBoolComplex);
    Registry::Entry e = op(key, "binary.promote", f, inKey);
    if (number) e.variant(zeroDivisors);
  }
  r.add("aten::remainder.Scalar_Tensor", "binary.promote", simple(PK::Default, noBoolComplex));

  // Float-only math promoted from integers.
  op("aten::atan2", "binary.int_to_float", simple(PK::IntToFloat, kComplex), "aten::atan2_");
  op("aten::arctan2", "binary.int_to_float", simple(PK::IntToFloat, kComplex), "aten::arctan2_");
  op("aten::copysign.Tensor", "binary.int_to_float", simple(PK::IntToFloat, kComplex),
     "aten::copysign_.Tensor");
  op("aten::copysign.Scalar", "binary.int_to_float", simple(PK::IntToFloat, kComplex),
     "aten::copysign_.Scalar");
  op("aten::xlogy.Tensor", "binary.int_to_float", simple(PK::IntToFloat, kComplex),
     "aten::xlogy_.Tensor");
  op("aten::xlogy.Scalar_Other", "binary.int_to_float", simple(PK::IntToFloat, kComplex),
     "aten::xlogy_.Scalar_Other");
  r.add("aten::xlogy.Scalar_Self", "binary.int_to_float", simple(PK::IntToFloat, kComplex));
  r.add("aten::special_xlogy", "binary.int_to_float", simple(PK::IntToFloat, kComplex));
  r.add("aten::special_xlogy.other_scalar", "binary.int_to_float",
        simple(PK::IntToFloat, kComplex));
  r.add("aten::special_xlogy.self_scalar", "binary.int_to_float",
        simple(PK::IntToFloat, kComplex));
  for (const char *k : {"aten::special_xlog1py", "aten::special_xlog1py.other_scalar", "aten::special_xlog1py.self_scalar",
                        "aten::special_zeta", "aten::special_zeta.other_scalar", "aten::special_zeta.self_scalar"})
    r.add(k, "binary.int_to_float", simple(PK::IntToFloat, kComplex));
  // Orthogonal polynomials P(x, n): promoted like xlog1py (measured over every
  // dtype pair and scalar kind, meta and CPU); no complex kernels anywhere,
  // and CPU (like CUDA) has no Half/BFloat16 kernel: a missing kernel, not a rule error.
  for (const char *k :
       {"aten::special_chebyshev_polynomial_t", "aten::special_chebyshev_polynomial_t.x_scalar",
        "aten::special_chebyshev_polynomial_t.n_scalar", "aten::special_chebyshev_polynomial_u",
        "aten::special_chebyshev_polynomial_u.x_scalar", "aten::special_chebyshev_polynomial_u.n_scalar",
        "aten::special_chebyshev_polynomial_v", "aten::special_chebyshev_polynomial_v.x_scalar",
        "aten::special_chebyshev_polynomial_v.n_scalar", "aten::special_chebyshev_polynomial_w",
        "aten::special_chebyshev_polynomial_w.x_scalar", "aten::special_chebyshev_polynomial_w.n_scalar",
        "aten::special_shifted_chebyshev_polynomial_t", "aten::special_shifted_chebyshev_polynomial_t.x_scalar",
        "aten::special_shifted_chebyshev_polynomial_t.n_scalar", "aten::special_shifted_chebyshev_polynomial_u",
        "aten::special_shifted_chebyshev_polynomial_u.x_scalar",
        "aten::special_shifted_chebyshev_polynomial_u.n_scalar", "aten::special_shifted_chebyshev_polynomial_v",
        "aten::special_shifted_chebyshev_polynomial_v.x_scalar",
        "aten::special_shifted_chebyshev_polynomial_v.n_scalar", "aten::special_shifted_chebyshev_polynomial_w",
        "aten::special_shifted_chebyshev_polynomial_w.x_scalar",
        "aten::special_shifted_chebyshev_polynomial_w.n_scalar", "aten::special_hermite_polynomial_h",
        "aten::special_hermite_polynomial_h.x_scalar", "aten::special_hermite_polynomial_h.n_scalar",
        "aten::special_hermite_polynomial_he", "aten::special_hermite_polynomial_he.x_scalar",
        "aten::special_hermite_polynomial_he.n_scalar", "aten::special_laguerre_polynomial_l",
        "aten::special_laguerre_polynomial_l.x_scalar", "aten::special_laguerre_polynomial_l.n_scalar",
        "aten::special_legendre_polynomial_p", "aten::special_legendre_polynomial_p.x_scalar",
        "aten::special_legendre_polynomial_p.n_scalar"})
    r.add(k, "binary.int_to_float", [](const OpCall &c) {
      return promoteChecked(c, PK::IntToFloat, kComplex, {"x", "n"});
    });
}

/// Float-only math without promotion (hypot, logaddexp), maximum / minimum, integer-only ops, heaviside, pow.
void ElementwiseBinary::orderedIntegerPow() {
  // Float-only math without integer promotion: integers have no kernel.
  const unsigned floatOnly = kBool | kInt | kComplex;
  op("aten::hypot", "binary.promote", simple(PK::Default, floatOnly), "aten::hypot_");
  op("aten::nextafter", "binary.promote", simple(PK::Default, floatOnly), "aten::nextafter_");
  // 2.14 has a complex logaddexp (logaddexp2 stays real).
  r.since(TorchVersion::V1_13).add("aten::logaddexp", "binary.promote", simple(PK::Default, floatOnly));
  r.since(TorchVersion::V2_6).add("aten::logaddexp", "binary.promote", simple(PK::Default, kBool | kInt));
  r.add("aten::logaddexp2", "binary.promote", simple(PK::Default, floatOnly));

  // Ordered min/max: no complex.
  for (const char *k : {"aten::maximum", "aten::minimum", "aten::max.other", "aten::min.other",
                        "aten::fmax", "aten::fmin"})
    r.add(k, "binary.promote", simple(PK::Default, kComplex));

  // Integer-only.
  const unsigned intOnly = kBool | kFloat | kComplex;
  op("aten::gcd", "binary.promote", simple(PK::Default, intOnly), "aten::gcd_");
  op("aten::lcm", "binary.promote", simple(PK::Default, intOnly), "aten::lcm_");

  op("aten::heaviside", "binary.same_dtype", heaviside(), "aten::heaviside_", {"values"});
  for (auto [scope, keepsSelf, float8Promotes] : {std::tuple{r.since(TorchVersion::V1_13), false, false},
                                                  std::tuple{r.since(TorchVersion::V2_6), true, true},
                                                  std::tuple{r.since(TorchVersion::V2_14), true, false}}) {
    scope.add("aten::ldexp.Tensor", "binary.ldexp", ldexp(keepsSelf, float8Promotes));
    scope.add("aten::ldexp_", "binary.ldexp", inplace(ldexp(keepsSelf, float8Promotes), {"other"}));
  }
  // From 2.6 ldexp.out refuses a float8 operand the functional's promotion takes.
  r.since(TorchVersion::V2_6).declare("aten::ldexp.out", OpFact::OutErrorsOwn);

  // pow.
  // From 2.6 the Scalar overloads' bool exponent copies and, on meta, every
  // bool result is int64 (powRule); the in-place forms then raise there.
  for (auto [scope, v26] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_6), true}}) {
    scope.add("aten::pow.Tensor_Tensor", "binary.pow", powRule(false, v26));
    scope.add("aten::pow_.Tensor", "binary.pow", inplace(powRule(false, v26), {"exponent"}));
    scope.add("aten::pow.Tensor_Scalar", "binary.pow", powRule(v26, v26))
        .variant({{"self", "sweep![2]"}, {"exponent", "magnitudes"}});
    scope.add("aten::pow_.Scalar", "binary.pow", inplace(powRule(v26, v26), {"exponent"}));
    scope.add("aten::pow.Scalar", "binary.pow", powRule(false, v26));
  }
  r.add("aten::float_power.Tensor_Tensor", "binary.float_power", floatPower());
  r.add("aten::float_power.Tensor_Scalar", "binary.float_power", floatPower());
  r.add("aten::float_power.Scalar", "binary.float_power", floatPower());
  r.add("aten::float_power_.Tensor", "binary.float_power",
        inplace(floatPowerInplace(), {"exponent"}, false));
  r.add("aten::float_power_.Scalar", "binary.float_power",
        inplace(floatPowerInplace(), {"exponent"}, false));
}

} // namespace

void registerElementwiseBinary(Registry &r) {
  // The ops Python's argument parser passes numbers to as wrapped 0-dim
  // tensors (`x * 2.5` traces to mul.Tensor with a {2.5} constant).
  for (const char *k : {"aten::add", "aten::sub", "aten::mul", "aten::div", "aten::true_divide", "aten::floor_divide",
                        "aten::multiply", "aten::subtract", "aten::divide", "aten::add_", "aten::sub_", "aten::mul_",
                        "aten::div_", "aten::true_divide_", "aten::floor_divide_", "aten::multiply_",
                        "aten::subtract_", "aten::divide_"})
    r.declare(k, OpFact::TakesWrappedNumbers);
  r.declare("aten::floor_divide", OpFact::ScalarFirstBySyntax); // `2.5 // x`
  r.declare("aten::floor_divide_", OpFact::ScalarFirstBySyntax);
  // TorchScript's CanonicalizeOps makes a 0-dim constant `other` a scalar.
  for (const char *k : {"aten::add", "aten::sub", "aten::mul", "aten::div"}) r.declare(k, OpFact::ScalarizesOther);
  ElementwiseBinary g{r};
  g.arithmetic();
  g.roundingAndFloatMath();
  g.orderedIntegerPow();
}


/// Shape rules the broadcasting dtype rules leave out (issue 35,
/// shapes-corpus): ldexp's (its own rank rule) and _add_relu_'s (self).
void registerElementwiseBinaryShapes(Registry &r) {
  r.shape("aten::ldexp.Tensor", broadcastOf({"self", "other"}));
  r.shape("aten::_add_relu_.Tensor", inPlaceOf({"other"}));
}

} // namespace dtf
