//===- ops/families/activations.cpp - activation functions ----------------===//
//
// relu, hardtanh, gelu, elu, softplus, prelu, glu, rrelu ... and their
// backward ops. Forward activations keep self's dtype; the backward ops
// promote grad with the saved tensor (TensorIterator binary ops).
//
// Checked on torch 1.13 (CPU + meta) for all 13 dtypes at rank 0 and 1 and
// every Scalar kind. Most of these have CPU kernels for floating dtypes only
// (gelu, silu, elu ... of an integer tensor): those are kernel gaps, and the
// rule gives the dtype meta gives (self's). The checks that do raise:
// relu/hardtanh of bool or complex, hardswish/log_sigmoid where meta raises,
// glu of a 0-dim tensor, and the same-dtype checks inside prelu,
// rrelu_with_noise(training), glu_backward and log_sigmoid_backward.
//
// A complex Scalar (alpha=1.5+0.5j) raises "value cannot be converted" in
// most of these unless its imaginary part is 0: a value-dependent error,
// given when the value is known.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/unit_dims.h"
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"
#include "dtype/scalar_conversion.h"

#include <cmath>
#include <vector>

namespace dtf {
namespace {

/// relu / hardtanh family: self's dtype; bool and complex raise.
RuleFn clampLike(std::string boolMessage) {
  return [boolMessage = std::move(boolMessage)](const OpCall &c) -> RuleResult {
    DType d = c.dtype("self");
    if (isBool(d)) return c.semantic("{}", boolMessage);
    if (isComplex(d)) return c.semantic("clamp is not supported for complex types (self is {})", name(d));
    return tensorOf(d, c.rank("self"));
  };
}

/// self's dtype, raising for complex (meta's clamp check: hardswish).
RuleFn sameRejectingComplex() {
  return [](const OpCall &c) -> RuleResult {
    DType d = c.dtype("self");
    if (isComplex(d)) return c.semantic("clamp is not supported for complex types (self is {})", name(d));
    return tensorOf(d, c.rank("self"));
  };
}

/// log_sigmoid: self's dtype; bool raises (it negates self).
RuleFn logSigmoid(int numResults) {
  return [numResults](const OpCall &c) -> RuleResult {
    DType d = c.dtype("self");
    if (isBool(d)) return c.semantic("negation, the `-` operator, on a bool tensor is not supported");
    Value out = tensorOf(d, c.rank("self"));
    if (numResults == 1) return out;
    // The buffer is self-shaped on CPU but an empty 1-d tensor on CUDA.
    Rank bufRank = c.rank("self").mayBeZero() ? Rank::top() : c.rank("self");
    return std::vector<Value>{out, tensorOf(d, bufRank)};
  };
}

/// softshrink: lambd must not be negative; 2.14 (`inRange`) also not above
/// a floating self's largest value.
RuleFn softshrink(bool inRange) {
  return [inRange](const OpCall &c) -> RuleResult {
    if (auto l = c.arg("lambd").floatValue(); l && !(*l >= 0)) // NaN too
      return c.error(ErrorKind::ValueDependent, "lambda must be greater or equal to 0, but found to be {}", *l);
    if (auto l = c.arg("lambd").floatValue(); inRange && l && isFloating(c.dtype("self")) && *l > largestValue(c.dtype("self")))
      return c.error(ErrorKind::ValueDependent, "lambda must be in range [0, {}] for input dtype {}, but found {}",
                     static_cast<double>(largestValue(c.dtype("self"))), name(c.dtype("self")), *l);
    return tensorOf(c.dtype("self"), c.rank("self"));
  };
}

/// glu halves `dim`: self's dtype and rank; 0-dim self raises.
RuleFn glu() {
  return [](const OpCall &c) -> RuleResult {
    if (c.rank("self").value() == 0) return c.semantic("glu does not support 0-dimensional tensors");
    return tensorOf(c.dtype("self"), c.rank("self"));
  };
}

/// prelu: self's dtype. The CPU kernel needs weight of self's dtype, except
/// in 1.13 for bfloat16 self, which takes any weight (through oneDNN on CPUs
/// with AVX-512, through the plain kernel elsewhere); 2.14 refuses that too
/// ("prelu: Type promoting not supported").
template <bool BFloat16TakesAnyWeight> RuleResult prelu(const OpCall &c) {
  {
    DType self = c.dtype("self"), weight = c.dtype("weight");
    if (self != weight && (!BFloat16TakesAnyWeight || self != DType::BFloat16))
      return c.semantic("found dtype {} but expected {} (weight must have self's dtype)", c10Name(weight),
                        c10Name(self));
    return tensorOf(self, c.rank("self"));
  }
}

/// rrelu bounds: lower <= upper when both are known.
std::optional<RuleError> checkRReLUBounds(const OpCall &c) {
  auto lo = c.arg("lower").floatValue(), hi = c.arg("upper").floatValue();
  if (lo && hi && !(*lo <= *hi)) // a NaN bound too
    return c.error(ErrorKind::ValueDependent,
                   "lower bound should be less than or equal to the upper bound ({} > {})", *lo, *hi);
  return std::nullopt;
}

/// 2.14's rrelu first refuses a bound that is not finite (NaN too), then
/// bounds out of order (1.13 only the order; rrelu_ neither: measured).
std::optional<RuleError> checkRReLUBoundsFinite(const OpCall &c) {
  for (const char *n : {"lower", "upper"})
    if (auto x = c.arg(n).floatValue(); x && !std::isfinite(*x))
      return c.error(ErrorKind::ValueDependent, "rrelu: {} bound must be finite, got {}", n, *x);
  return std::nullopt;
}

/// 2.14's rrelu_with_noise kernels first check noise has self's shape, so
/// ranks that differ raise (1.13 did not look).
std::optional<RuleError> checkNoiseShape(const OpCall &c) {
  auto self = c.rank("self").value(), noise = c.rank("noise").value();
  if (self && noise && *self != *noise)
    return c.semantic("noise tensor shape must match self tensor shape (self has {} dims, noise {})", *self, *noise);
  return std::nullopt;
}

/// rrelu / rrelu_with_noise: self's dtype. In training mode the kernel
/// writes the noise, which must then have self's dtype. Only rrelu checks
/// its bounds (measured: rrelu_with_noise(x, n, 2.0, 1.0) succeeds).
RuleFn rrelu(bool withNoise) {
  return [withNoise](const OpCall &c) -> RuleResult {
    if (!withNoise)
      if (auto e = checkRReLUBounds(c)) return *e;
    DType self = c.dtype("self");
    if (withNoise && c.arg("training").boolValue() == true && c.dtype("noise") != self)
      return c.semantic("expected scalar type {} but found {} (noise must have self's dtype in training)",
                        c10Name(self), c10Name(c.dtype("noise")));
    return tensorOf(self, c.rank("self"));
  };
}

/// Backward ops: result_type(grad, saved) broadcast.
RuleFn backward(std::string grad, std::string saved) {
  return elementwise(PromotionKind::Default, {std::move(grad), std::move(saved)});
}

/// gelu_backward: result_type(grad, self). With approximate='none' the CPU
/// kernel sends a non-0-dim self through oneDNN when oneDNN takes its dtype
/// (float32 always; bfloat16 and 2.14's float16 on the CPUs of
/// ops/cpu_capability.h), and oneDNN needs a float32/bfloat16 grad of
/// self's shape (2.14: also a float16, int8, uint8 or float8 one, `widerGrads`).
RuleFn geluBackward(bool widerGrads) {
  RuleFn base = backward("grad_output", "self");
  return [base, widerGrads](const OpCall &c) -> RuleResult {
    DType self = c.dtype("self");
    auto approx = c.arg("approximate").text();
    if (approx != std::string("none") || c.rank("self").mayBeZero()) return base(c);
    auto onOneDnn = [&]() -> RuleResult {
      DType grad = c.dtype("grad_output");
      bool wider = grad == DType::Float16 || grad == DType::Int8 || grad == DType::UInt8 || isFloat8(grad);
      if (grad != DType::Float32 && grad != DType::BFloat16 && !(widerGrads && wider))
        return c.semantic("itensor_view_from_dense expects float/bfloat16 tensor input (grad_output is {})",
                          name(grad));
      if (c.rank("grad_output").value() == 0)
        return c.semantic("could not create a primitive descriptor for a reorder primitive (0-dim grad_output)");
      // oneDNN has no reorder between the two 16-bit floats (measured: a
      // bfloat16 self with a float16 grad, 2.14 on AVX-512).
      const bool halves = (self == DType::BFloat16 && grad == DType::Float16) ||
                          (self == DType::Float16 && grad == DType::BFloat16);
      if (halves)
        return c.semantic("could not create a primitive descriptor ({} self, {} grad_output)", name(self), name(grad));
      return base(c);
    };
    if (self == DType::Float32) return onOneDnn();
    if (self != DType::BFloat16 && self != DType::Float16) return base(c);
    return c.byOneDnnPath(self, [&](bool oneDnn) { return oneDnn ? onOneDnn() : base(c); });
  };
}

/// threshold_backward on 2.14's meta device (FakeTensor, torch.export) is a
/// decomposition, where(self <= threshold, 0, grad): grad's dtype with an
/// int (bool becomes int64), broadcast, none of the CPU kernel's checks, so
/// an int64 grad with a float32 self is int64 there and float32 on the CPU
/// (measured, all dtype pairs: the conformance report's meta section).
/// A complex self or threshold (an ordering comparison) is left unknown there.
RuleFn thresholdBackwardOnMeta(RuleFn cpu) {
  return [cpu = std::move(cpu)](const OpCall &c) -> RuleResult {
    if (!c.onMeta()) return cpu(c);
    if (isComplex(c.dtype("self")) || c.arg("threshold").numKinds().contains(NumKind::Complex))
      return Value::unknownTensor();
    DType g = c.dtype("grad_output");
    return tensorOf(g == DType::Bool ? DType::Int64 : g, broadcastArgs(c, {"grad_output", "self"}));
  };
}

/// mish_backward writes into a tensor of self's dtype.
RuleFn mishBackward() {
  return [](const OpCall &c) -> RuleResult {
    DType self = c.dtype("self");
    DType r = promoteArgs(c, {"grad_output", "self"});
    if (!canCast(r, self))
      return c.semantic("result type {} can't be cast to the desired output type {}", c10Name(r), c10Name(self));
    return tensorOf(self, broadcastArgs(c, {"grad_output", "self"}));
  };
}

/// glu_backward: grad must have self's dtype; integer self raises (the
/// sigmoid it computes is float).
RuleFn gluBackward() {
  return [](const OpCall &c) -> RuleResult {
    DType self = c.dtype("self"), grad = c.dtype("grad_output");
    if (c.rank("self").value() == 0) return c.semantic("glu does not support 0-dimensional tensors");
    if (isIntegral(self, /*includeBool=*/true))
      return c.semantic("result type Float can't be cast to the desired output type {}", c10Name(self));
    if (grad != self)
      return c.semantic("found dtype {} but expected {} (grad_output must have self's dtype)", c10Name(grad),
                        c10Name(self));
    return tensorOf(self, c.rank("self"));
  };
}

/// log_sigmoid_backward: grad, self and buffer of one dtype; bool raises.
RuleFn logSigmoidBackward() {
  return [](const OpCall &c) -> RuleResult {
    DType self = c.dtype("self");
    for (const char *a : {"grad_output", "buffer"})
      if (c.dtype(a) != self)
        return c.semantic("found dtype {} but expected {} ({} must have self's dtype)", c10Name(c.dtype(a)),
                          c10Name(self), a);
    if (isBool(self)) return c.semantic("negation, the `-` operator, on a bool tensor is not supported");
    return tensorOf(self, broadcastArgs(c, {"grad_output", "self", "buffer"}));
  };
}

/// What an activation's kernel converts its Scalars into (measured with
/// values at the types' limits: 3.395e38 fits a bfloat16 elu, not a
/// bfloat16 threshold).
enum class ScalarsInto {
  ComputeType,     ///< self's compute type (elu, leaky_relu, softplus)
  SelfType,        ///< self's own dtype (threshold, hardshrink)
  /// the compute type of self's real part, a double for a bool or integral
  /// self: no imaginary part even for complex self (celu, softshrink, rrelu)
  RealComputeType,
  ImaginaryOnly,   ///< only an imaginary part into a real self is predicted (hardtanh: clamp's own path)
};

DType scalarTarget(ScalarsInto into, DType self) {
  switch (into) {
  case ScalarsInto::ComputeType: return computeType(self);
  case ScalarsInto::SelfType: return self;
  case ScalarsInto::RealComputeType:
    return isFloating(self) || isComplex(self) ? computeType(toRealValueType(self)) : DType::Float64;
  case ScalarsInto::ImaginaryOnly: break;
  }
  return isComplex(self) ? DType::Complex128 : DType::Float64;
}

/// `fn`, but the Scalars `args` are converted (c10's checked conversion): a
/// known value that does not fit raises "value cannot be converted to type
/// ... without overflow".
RuleFn convertedScalars(RuleFn fn, std::vector<std::string> args, ScalarsInto into) {
  return [fn = std::move(fn), args = std::move(args), into](const OpCall &c) -> RuleResult {
    const DType target = scalarTarget(into, c.dtype("self"));
    for (const std::string &a : args)
      if (auto e = checkedConversion(c, a, target)) return *e;
    return fn(c);
  };
}

/// A backward op whose Scalars the kernel converts (c10's checked
/// conversion) into the `into` type of the result's dtype, result_type(grad,
/// saved) (measured on 1.13 with the 'magnitudes' samples: elu, leaky_relu
/// and softplus into the compute type, float for bfloat16; hard/softshrink
/// and threshold into the dtype itself, integers included).
RuleFn backwardWithScalars(std::string grad, std::string saved, std::vector<std::string> scalars,
                           ScalarsInto into = ScalarsInto::ComputeType) {
  RuleFn base = backward(grad, saved);
  return [base, grad, saved, scalars, into](const OpCall &c) -> RuleResult {
    const DType target = scalarTarget(into, promoteArgs(c, {grad, saved}));
    for (const std::string &a : scalars)
      if (auto e = checkedConversion(c, a, target)) return *e;
    return base(c);
  };
}

/// rrelu_with_noise_backward: in training it is grad * noise (1.13 does not
/// look at upper - lower here; measured with lower == upper). Otherwise the
/// bounds are read as doubles (an imaginary part raises, whatever the
/// dtypes) and it is leaky_relu_backward(grad, self) with their mean as the
/// slope, converted into the result's compute type.
RuleFn rreluWithNoiseBackward() {
  return [](const OpCall &c) -> RuleResult {
    auto training = c.arg("training").boolValue();
    // In training only noise is read, out of it only self: each pair is
    // promoted (where 2.14's uint16 or float8 would raise) only when the
    // mode that reads it may be on.
    auto viaNoise = [&] {
      return tensorOf(promoteArgs(c, {"grad_output", "noise"}), broadcastArgs(c, {"grad_output", "noise"}));
    };
    auto viaSelf = [&] {
      return tensorOf(promoteArgs(c, {"grad_output", "self"}), broadcastArgs(c, {"grad_output", "self"}));
    };
    if (training != std::optional<bool>(true)) {
      std::optional<RuleError> refused;
      for (const char *n : {"lower", "upper"})
        if (!refused) refused = checkedConversion(c, n, DType::Float64);
      if (!refused)
        if (auto lo = c.arg("lower").floatValue(), hi = c.arg("upper").floatValue(); lo && hi) {
          const DType common = promoteArgs(c, {"grad_output", "self"});
          if (conversionOverflows(Value::floating((*lo + *hi) / 2), computeType(common), c.version()))
            refused = c.error(ErrorKind::ValueDependent, "the negative slope (lower + upper) / 2 = {} does not fit {}",
                              (*lo + *hi) / 2, name(computeType(common)));
        }
      if (refused && training) return *refused;
      if (refused) return viaNoise(); // raises unless in training
    }
    if (training) return *training ? viaNoise() : viaSelf();
    Value a = viaNoise(), b = viaSelf();
    return a == b ? a : Value::join(a, b);
  };
}

/// rrelu's bounds (value-dependent): read as doubles (no imaginary part);
/// in training each is converted into self's real type, otherwise their
/// mean, the negative slope, into self's real compute type (measured: for
/// bfloat16, 3.395e38 raises in training only, 1e39 and 0 in both). 2.14's
/// rrelu (`trainingInComputeType`) converts them into the compute type in
/// training too.
RuleFn rreluScalars(RuleFn fn, bool trainingInComputeType = false) {
  return [fn = std::move(fn), trainingInComputeType](const OpCall &c) -> RuleResult {
    for (const char *n : {"lower", "upper"})
      if (auto e = checkedConversion(c, n, DType::Float64)) return *e;
    const DType self = c.dtype("self");
    const std::optional<bool> training = c.arg("training").boolValue();
    if ((isFloating(self) || isComplex(self)) && training) {
      const DType real = toRealValueType(self);
      if (*training) {
        for (const char *n : {"lower", "upper"})
          if (auto e = checkedConversion(c, n, trainingInComputeType ? computeType(real) : real)) return *e;
      } else if (auto lo = c.arg("lower").floatValue(), hi = c.arg("upper").floatValue(); lo && hi) {
        const double slope = (*lo + *hi) / 2;
        if (conversionOverflows(Value::floating(slope), computeType(real), c.version()))
          return c.error(ErrorKind::ValueDependent, "the negative slope (lower + upper) / 2 = {} does not fit {}", slope,
                         name(computeType(real)));
      }
    }
    return fn(c);
  };
}

} // namespace

void registerActivations(Registry &r) {
  const std::string fam = "nn.activation";
  RuleFn id = sameAs("self");
  // Register `key` and its in-place `inPlaceKey` (when it exists: not
  // empty); the Scalar arguments `scalars` are converted (realScalars) and
  // sampled at the types' limits too.
  auto add = [&](std::string_view key, std::string_view inPlaceKey, const RuleFn &f,
                 std::vector<std::string> scalars = {}, ScalarsInto into = ScalarsInto::ComputeType) {
    RuleFn g = scalars.empty() ? f : convertedScalars(f, scalars, into);
    bool shapeKept = key != "aten::glu" && key != "aten::log_sigmoid_forward"; // glu halves a dim
    Registry::Entry e = r.add(key, fam, shapeKept ? keepingShape(g) : g);
    if (into != ScalarsInto::ImaginaryOnly)
      for (const std::string &s : scalars) e.variant({{"self", "sweep![2]"}, {s, "magnitudes"}});
    if (!inPlaceKey.empty()) r.add(inPlaceKey, fam, keepingShape(inPlace(g)));
    return e;
  };

  add("aten::relu", "aten::relu_", clampLike("boolean inputs not supported for relu"));
  add("aten::relu6", "aten::relu6_", clampLike("bool inputs not supported for hardtanh"));
  // uint8 refuses negative limits (the defaults are -1 and 1).
  add("aten::hardtanh", "aten::hardtanh_", [clamp = clampLike("bool inputs not supported for hardtanh")](const OpCall &c) -> RuleResult {
    if (c.dtype("self") == DType::UInt8)
      for (const char *n : {"min_val", "max_val"})
        if (auto x = c.arg(n).floatValue(); x && *x < 0)
          return c.semantic("cannot do hardtanh on an unsigned type with negative limits");
    return clamp(c);
  }, {"min_val", "max_val"}, ScalarsInto::ImaginaryOnly);

  // Self's dtype for every input (CPU kernels are floating-only: gaps).
  add("aten::leaky_relu", "aten::leaky_relu_", id, {"negative_slope"});
  add("aten::elu", "aten::elu_", id, {"alpha", "scale", "input_scale"});
  // celu divides by alpha: a known zero raises before anything (value-dependent)
  add("aten::celu", "aten::celu_", [id](const OpCall &c) -> RuleResult {
    if (auto a = c.arg("alpha").floatValue(); a && *a == 0)
      return c.error(ErrorKind::ValueDependent, "ZeroDivisionError: alpha cannot be 0 for CELU");
    return id(c);
  }, {"alpha"}, ScalarsInto::RealComputeType).variant({{"self", "sweep![2]"}, {"alpha", "0"}});
  // threshold: like threshold_backward, 2.14 converts the threshold into the
  // compute type, the value still into self's dtype; threshold_ both into
  // self's (measured).
  for (auto [scope, into] : {std::pair{r.since(TorchVersion::V1_13), ScalarsInto::SelfType},
                             std::pair{r.since(TorchVersion::V2_6), ScalarsInto::ComputeType}}) {
    RuleFn rule = convertedScalars(convertedScalars(id, {"value"}, ScalarsInto::SelfType), {"threshold"}, into);
    Registry::Entry e = scope.add("aten::threshold", fam, keepingShape(rule));
    for (const char *a : {"threshold", "value"}) e.variant({{"self", "sweep![2]"}, {a, "magnitudes"}});
  }
  r.add("aten::threshold_", fam,
        keepingShape(inPlace(convertedScalars(id, {"threshold", "value"}, ScalarsInto::SelfType))));
  for (auto [key, inPlaceKey] : {std::pair{"aten::hardsigmoid", "aten::hardsigmoid_"},
                                 std::pair{"aten::silu", "aten::silu_"}, std::pair{"aten::mish", "aten::mish_"},
                                 std::pair{"aten::selu", "aten::selu_"}})
    add(key, inPlaceKey, id);
  const ArgCheck approximate = checks::oneOf("approximate", {"none", "tanh"});
  add("aten::gelu", "aten::gelu_", checks::before(approximate, id)).variant({{"approximate", "'foo'"}});
  add("aten::softplus", "", id, {"beta", "threshold"});
  // On 2.6's and 2.14's meta FakeTensor runs hardshrink as where(|x| <= lambd,
  // 0, x): a bool self gives int64 (every other dtype keeps it); softshrink
  // on 2.6's meta gives an integral or bool self the default float32 (2.14
  // raises there as on the CPU). Measured with FakeTensorMode, every dtype.
  const RuleFn hardshrinkCpu = convertedScalars(id, {"lambd"}, ScalarsInto::SelfType);
  const RuleFn hardshrinkMeta = [](const OpCall &c) -> RuleResult {
    DType d = c.dtype("self");
    return tensorOf(d == DType::Bool ? DType::Int64 : d, c.rank("self"));
  };
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), hardshrinkCpu},
                             std::pair{r.since(TorchVersion::V2_6), metaByReference(hardshrinkCpu, hardshrinkMeta)}})
    scope.add("aten::hardshrink", fam, keepingShape(rule)).variant({{"self", "sweep![2]"}, {"lambd", "magnitudes"}});
  const auto softshrinkCpu = [](bool inRange) {
    return convertedScalars(softshrink(inRange), {"lambd"}, ScalarsInto::RealComputeType);
  };
  const RuleFn softshrink113 = softshrinkCpu(false);
  const RuleFn softshrinkMeta26 = metaByReference(softshrink113, [softshrink113](const OpCall &c) -> RuleResult {
    if (isIntegral(c.dtype("self"), true)) return tensorOf(DType::Float32, c.rank("self"));
    return softshrink113(c);
  });
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), softshrink113},
                             std::pair{r.since(TorchVersion::V2_6), softshrinkMeta26},
                             std::pair{r.since(TorchVersion::V2_14), softshrinkCpu(true)}})
    scope.add("aten::softshrink", fam, keepingShape(rule)).variant({{"self", "sweep![2]"}, {"lambd", "magnitudes"}});
  add("aten::hardswish", "aten::hardswish_", sameRejectingComplex());

  add("aten::log_sigmoid", "", logSigmoid(1));
  add("aten::log_sigmoid_forward", "", logSigmoid(2));
  add("aten::glu", "", glu()).variant({{"self", "float32[2,6]"}, {"dim", "1"}}).variant({{"self", "float32[3,2]"}, {"dim", "0"}})
      .variant({{"self", "float32[4,3]"}, {"dim", "0"}});
  r.since(TorchVersion::V1_13).add("aten::prelu", fam, prelu<true>).sample("weight", "sweep[1]")
      .variant({{"self", "float32[1,2,4]"}, {"weight", "float32[1]"}}).variant({{"self", "float32[2,3,4]"}, {"weight", "float32[3]"}});
  r.since(TorchVersion::V2_6).add("aten::prelu", fam, prelu<false>).sample("weight", "sweep[1]")
      .variant({{"self", "float32[1,2,4]"}, {"weight", "float32[1]"}}).variant({{"self", "float32[2,3,4]"}, {"weight", "float32[3]"}});
  // 2.x: the kernel prelu calls, on operands it broadcasts (a 0-dim self with
  // a 1-D weight gives a 1-D result).
  r.add("aten::_prelu_kernel", fam, [](const OpCall &c) -> RuleResult {
     RuleResult out = prelu<false>(c);
     if (!out.ok()) return out;
     return tensorOf(c.dtype("self"), broadcastArgs(c, {"self", "weight"}));
   }).sample("weight", "sweep[1]");

  const RuleFn rreluOp = rreluScalars(rrelu(false));
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), rreluOp},
                             std::pair{r.since(TorchVersion::V2_14),
                                       checks::before(checkRReLUBoundsFinite, rreluScalars(rrelu(false), true))}})
    scope.add("aten::rrelu", fam, keepingShape(rule))
        .variant({{"self", "sweep![2]"}, {"lower", "0"}, {"upper", "magnitudes"}})
        .variant({{"self", "sweep![2]"}, {"lower", "magnitudes"}, {"upper", "magnitudes"}, {"training", "True"}});
  r.add("aten::rrelu_", fam, keepingShape(inPlace(rreluOp)));
  const RuleFn withNoise = rreluScalars(rrelu(true));
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), withNoise},
                             std::pair{r.since(TorchVersion::V2_6), checks::before(checkNoiseShape, withNoise)}}) {
    scope.add("aten::rrelu_with_noise", fam, rule).variant({{"training", "True"}});
    scope.add("aten::rrelu_with_noise_", fam, inPlace(rule)).variant({{"training", "True"}});
    // 2.x's functional form also returns the noise it wrote (noise's dtype).
    scope.add("aten::rrelu_with_noise_functional", fam, [rule = rule](const OpCall &c) -> RuleResult {
       RuleResult out = rule(c);
       if (!out.ok()) return out;
       return std::vector<Value>{out.outputs()[0], tensorOf(c.dtype("noise"), c.rank("noise"))};
     }).variant({{"training", "True"}});
  }

  // Backward ops: result_type(grad, saved), Scalars fixed where they do not
  // change the dtype.
  const std::string bwd = "nn.activation_backward";
  // Each Scalar is sampled at 0.5 and, one at a time, at every kind (1j:
  // an imaginary part) and at the types' limits, which the kernels convert.
  auto addBwd = [&](std::string_view key, const RuleFn &f, std::initializer_list<const char *> scalars = {},
                    std::optional<Registry::Scoped> scope = std::nullopt) {
    Registry::Entry e = scope ? scope->add(key, bwd, f) : r.add(key, bwd, f);
    for (const char *a : scalars) e.sample(a, "0.5");
    for (const char *a : scalars) e.variant({{a, "sweep"}}).variant({{a, "magnitudes"}});
    return e;
  };
  addBwd("aten::elu_backward", backwardWithScalars("grad_output", "self_or_result", {"alpha", "scale", "input_scale"}),
         {"alpha", "scale", "input_scale"})
      .sample("is_result", "False");
  for (auto [scope, wider] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_6), true}})
    addBwd("aten::gelu_backward", checks::before(approximate, geluBackward(wider)), {}, scope)
        .variant({{"approximate", "'tanh'"}}).variant({{"approximate", "'foo'"}});
  addBwd("aten::hardtanh_backward", backwardWithScalars("grad_output", "self", {"min_val", "max_val"}), {"min_val"}).sample("max_val", "1.0");
  addBwd("aten::leaky_relu_backward", backwardWithScalars("grad_output", "self", {"negative_slope"}), {"negative_slope"})
      .sample("self_is_result", "False");
  addBwd("aten::sigmoid_backward", backward("grad_output", "output"));
  addBwd("aten::tanh_backward", backward("grad_output", "output"));
  // 2.14 converts threshold into the compute type (70000 fits a float16
  // self's float32; scripts/probes/scalar_arguments.py), 1.13 into self's.
  // 2.14's meta kernel is the decomposition (thresholdBackwardOnMeta).
  addBwd("aten::threshold_backward", backwardWithScalars("grad_output", "self", {"threshold"}, ScalarsInto::SelfType),
         {"threshold"}, r.since(TorchVersion::V1_13));
  addBwd("aten::threshold_backward",
         thresholdBackwardOnMeta(backwardWithScalars("grad_output", "self", {"threshold"}, ScalarsInto::ComputeType)),
         {"threshold"}, r.since(TorchVersion::V2_6));
  addBwd("aten::softplus_backward", backwardWithScalars("grad_output", "self", {"beta", "threshold"}), {"beta"}).sample("threshold", "20.0");
  addBwd("aten::hardsigmoid_backward", backward("grad_output", "self"));
  addBwd("aten::hardswish_backward", backward("grad_output", "self"));
  addBwd("aten::silu_backward", backward("grad_output", "self"));
  addBwd("aten::logit_backward", backward("grad_output", "self"));
  addBwd("aten::softshrink_backward", backwardWithScalars("grad_output", "self", {"lambd"}, ScalarsInto::SelfType), {"lambd"});
  addBwd("aten::hardshrink_backward", backwardWithScalars("grad_out", "self", {"lambd"}, ScalarsInto::SelfType), {"lambd"});
  // On 2.6's and 2.14's meta (FakeTensor: its Python decomposition) the
  // promoted dtype of grad_output and self, every pair (measured).
  addBwd("aten::mish_backward", mishBackward(), {}, r.since(TorchVersion::V1_13));
  addBwd("aten::mish_backward", metaByReference(mishBackward(), elementwise(PromotionKind::Default, {"grad_output", "self"})),
         {}, r.since(TorchVersion::V2_6));
  addBwd("aten::glu_backward", gluBackward()).sample("dim", "0").sample("grad_output", "sweep[1]");
  addBwd("aten::log_sigmoid_backward", logSigmoidBackward());
  Registry::Entry rreluBwd = addBwd("aten::rrelu_with_noise_backward", rreluWithNoiseBackward());
  rreluBwd.sample("training", "False")
      .sample("self_is_result", "False")
      .sample("lower", "0.1")
      .sample("upper", "0.3")
      .variant({{"training", "True"}}).variant({{"training", "True"}, {"upper", "0.1"}});
  for (const char *training : {"False", "True"})
    for (const char *bound : {"lower", "upper"})
      rreluBwd.variant({{"training", training}, {bound, "sweep"}}).variant({{"training", training}, {bound, "magnitudes"}});
}


// --- Shape rules (ops/shape_rules.h; issue 35, shapes-corpus) ---

namespace {

/// glu(self, dim): dim halved; an odd size raises.
ShapeResult gluShape(const OpCall &c) {
  auto in = dimsAndDim(c, "self", intArg(c, "dim"));
  if (!in) return {};
  const Dim &n = in->dims[in->dim];
  DimsEqual even = compareDims(mod(n, Dim(2)), Dim(0));
  if (even == DimsEqual::Differ)
    return c.semantic("Halving dimension must be even, but dimension {} is size {}", in->dim, n.str());
  ShapeResult out(withDimAt(in->dims, in->dim, floorDiv(n, Dim(2))));
  if (even != DimsEqual::Equal)
    out.possibleError = c.semantic("Halving dimension must be even, but dimension {} is size {}", in->dim, n.str());
  return out;
}

/// prelu(self, weight): self's sizes, for a weight of one element or of one
/// per channel (self's dim 1; a self of fewer dims has one channel).
ShapeResult preluShape(const OpCall &c) {
  auto self = dimsOf(c, "self"), weight = dimsOf(c, "weight");
  if (!self || !weight || self->empty() || weight->size() > 1) return {};
  Dim count = product(*weight), channels = self->size() >= 2 ? (*self)[1] : Dim(1);
  if (count.value() == 1 || compareDims(count, channels) == DimsEqual::Equal) return *self;
  return {};
}

} // namespace

void registerActivationShapes(Registry &r) {
  r.shape("aten::glu", gluShape);
  // glu_backward: grad_input has self's sizes, where grad_output has glu's result's (else unknown).
  r.shape("aten::glu_backward", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self"), grad = dimsOf(c, "grad_output");
    ShapeResult forward = gluShape(c);
    if (!self || !grad || forward.error || forward.outputs.empty() || !forward.outputs[0]) return {};
    const Dims &want = *forward.outputs[0];
    if (grad->size() != want.size()) return {};
    for (size_t i = 0; i < want.size(); ++i)
      if (compareDims((*grad)[i], want[i]) != DimsEqual::Equal) return {};
    return *self;
  });
  r.shape("aten::prelu", preluShape);
  r.shape("aten::log_sigmoid_forward", sameShapeAs("self", 2)); // the output and the CPU's buffer
}

} // namespace dtf
