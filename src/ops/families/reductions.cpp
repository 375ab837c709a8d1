//===- ops/families/reductions.cpp - sum, mean, var, norms, max, sort ... --===//
//
// Reduction dtype rules, measured on torch 1.13 CPU (meta where the CPU
// kernel is missing). Result ranks are exact when the reduced dims and
// keepdim are known; a full reduction gives rank 0.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/unit_dims.h"
#include "ops/arg_checks.h"
#include "ops/may_raise.h"
#include "ops/vocabulary.h"
#include "ops/shape_rules.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace dtf {
namespace {

/// A dim list known to be empty (`[]`): for all.dims / any.dims, no dim reduced.
bool noDims(const Value &dim) { return dim.isList() && dim.lengthKnown() && dim.elements().empty(); }

//===----------------------------------------------------------------------===//
// Rank helpers
//===----------------------------------------------------------------------===//

/// How many dims a `dim` argument names: nullopt = unknown; `all` = reduce
/// every dim (None, or an empty list where that means "all").
struct DimCount {
  bool all = false;
  std::optional<int> count;
  bool duplicate = false; ///< known values name one dim twice
};

DimCount dimCount(const Value &dims, std::optional<int> selfRank) {
  DimCount out;
  if (dims.isNone()) { out.all = true; return out; }
  if (dims.isNumber()) { out.count = 1; return out; }
  if (!dims.isList() || !dims.lengthKnown()) return out;
  const auto &el = dims.elements();
  if (el.empty()) { out.all = true; return out; }
  out.count = static_cast<int>(el.size());
  // Duplicates only count when every value is known and the rank is known.
  if (selfRank) {
    std::set<int64_t> seen;
    int wrap = std::max(*selfRank, 1);
    for (const Value &e : el) {
      auto v = e.intValue();
      if (!v) return out;
      int64_t d = *v < 0 ? *v + wrap : *v;
      if (!seen.insert(d).second) out.duplicate = true;
    }
  }
  return out;
}

/// Rank after reducing `dims` of a tensor of rank `self`, keepdim known or not.
Rank reducedRank(Rank self, const DimCount &dc, const Value &keepdim) {
  auto keep = keepdim.boolValue();
  Rank kept = self;
  Rank dropped = Rank::top();
  if (dc.all) dropped = Rank::exact(0);
  else if (dc.count && self.value()) dropped = Rank::exact(std::max(*self.value() - *dc.count, 0));
  if (keep) return *keep ? kept : dropped;
  return Rank::join(kept, dropped);
}

/// `dim` argument of `int[1]?` / `int[1]` / `int?` / `int` type.
Rank reduceArgs(const OpCall &c, std::string_view dimArg, std::string_view keepArg) {
  Rank self = c.rank("self");
  DimCount dc = dimCount(c.arg(dimArg), self.value());
  static const Value kFalse = Value::boolean(false);
  return reducedRank(self, dc, keepArg.empty() ? kFalse : c.arg(keepArg));
}

std::optional<RuleError> checkDims(const OpCall &c, std::string_view dimArg) {
  DimCount dc = dimCount(c.arg(dimArg), c.rank("self").value());
  if (dc.duplicate)
    return c.error(ErrorKind::ValueDependent, "a dim appears more than once in '{}'", dimArg);
  return std::nullopt;
}

/// Rank after reducing one dim given as `int` (always a single dim).
Rank singleDimRank(const OpCall &c, std::string_view keepArg) {
  Rank self = c.rank("self");
  DimCount dc;
  dc.count = 1;
  return reducedRank(self, dc, c.arg(keepArg));
}

/// `fn` whose results carry size-1 facts when the reduced dims are known
/// values: with keepdim they become 1, without they vanish. Applies to ops
/// with `dim` and `keepdim`; None or [] dims (reduce all) are left alone.
RuleFn reducing(RuleFn fn) {
  return [fn = std::move(fn)](const OpCall &c) -> RuleResult {
    RuleResult res = fn(c);
    if (!res.ok() || !c.has("dim") || !c.has("keepdim") || !c.has("self")) return res;
    const Value &self = c.arg("self");
    auto r = self.isTensor() ? self.rank().value() : std::nullopt;
    auto keep = c.arg("keepdim").boolValue();
    if (!r || *r == 0 || *r > 32 || !keep) return res;
    const Value &dims = c.arg("dim");
    std::vector<Value> one{dims};
    const std::vector<Value> &names = dims.isNumber() ? one : dims.elements();
    if (names.empty()) return res;
    uint32_t reduced = 0;
    for (const Value &e : names) {
      auto d = e.intValue();
      if (!d || *d < -*r || *d >= *r) return res;
      reduced |= uint32_t{1} << (*d < 0 ? *d + *r : *d);
    }
    UnitDims out = self.unitDims();
    if (*keep) out = {out.ones | reduced, out.others & ~reduced};
    else
      for (int d = *r - 1; d >= 0; --d)
        if (reduced >> d & 1) out = removeDim(out, d);
    int outRank = *keep ? *r : *r - std::popcount(reduced);
    std::vector<Value> outs = res.outputs();
    for (Value &o : outs)
      if (o.isTensor() && o.rank() == Rank::exact(outRank)) o = o.withUnitDims(out);
    return res.possibleError() ? RuleResult(std::move(outs), *res.possibleError()) : RuleResult(std::move(outs));
  };
}

/// Every `dim` of this family names a dim of self, wrapped by
/// c10::maybe_wrap_dim: a known dim outside [-n, n-1], n = max(rank, 1) (a
/// 0-dim tensor takes -1 and 0), raises "Dimension out of range".
RuleFn checkingDimRange(RuleFn fn) {
  return [fn = std::move(fn)](const OpCall &c) -> RuleResult {
    if (!c.has("dim") || !c.has("self") || !c.arg("self").isTensor()) return fn(c);
    auto r = c.rank("self").value();
    const Value &dims = c.arg("dim");
    if (!r || !(dims.isNumber() || dims.isList())) return fn(c);
    std::vector<Value> one{dims};
    for (const Value &e : dims.isNumber() ? one : dims.elements())
      if (auto d = e.intValue(); d && !wrapDim(*d, *r)) {
        int n = std::max(*r, 1);
        return c.semantic("dimension out of range (expected to be in range of [{}, {}], but got {})", -n, n - 1, *d);
      }
    return fn(c);
  };
}

//===----------------------------------------------------------------------===//
// Dtype helpers
//===----------------------------------------------------------------------===//

bool isFloatOrComplex(DType d) { return isFloating(d) || isComplex(d); }

/// sum/prod/cumsum: bool and integers accumulate in int64.
DType sumDType(DType self, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return isIntegral(self, /*includeBool=*/true) ? DType::Int64 : self;
}


std::optional<DType> optDtype(const OpCall &c) {
  return c.has("dtype") ? c.dtypeArg("dtype") : std::nullopt;
}

/// A Scalar that must be real (norm p, renorm maxnorm).
std::optional<RuleError> realScalar(const OpCall &c, std::string_view n) {
  const Value &v = c.arg(n);
  if (v.isNumber() && v.numKind() == NumKind::Complex)
    return c.semantic("'{}' must be a real number, got complex", n);
  return std::nullopt;
}

/// The p of the TensorIterator norm kernel (norm, dist): an int or a float.
std::optional<RuleError> normP(const OpCall &c, std::string_view n) {
  const Value &v = c.arg(n);
  if (v.isNumber() && (v.numKind() == NumKind::Complex || v.numKind() == NumKind::Bool))
    return c.semantic("the norm kernel expects '{}' to be an integer or float, got {}", n, name(*v.numKind()));
  return std::nullopt;
}

/// 2.14's var/std correction (a Scalar? read with toDouble()): a known
/// complex value with an imaginary part does not convert (1+0j does).
std::optional<RuleError> realCorrection(const OpCall &c) {
  auto z = c.arg("correction").complexValue();
  if (z && z->second != 0)
    return c.error(ErrorKind::ValueDependent, "value cannot be converted to type double without overflow");
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Rule families
//===----------------------------------------------------------------------===//

/// sum / prod / nansum with optional dim + keepdim + dtype.
RuleFn sumLike(std::string dimArg, std::string keepArg, bool nan) {
  return [=](const OpCall &c) -> RuleResult {
    DType s = c.dtype("self");
    if (nan && isComplex(s)) return c.semantic("nansum does not support complex inputs (self is {})", name(s));
    Rank r = Rank::exact(0);
    if (!dimArg.empty()) {
      if (auto e = checkDims(c, dimArg)) return *e;
      r = reduceArgs(c, dimArg, keepArg);
    }
    return tensorOf(sumDType(s, optDtype(c)), r);
  };
}

/// mean: the output dtype (dtype= or self) must be floating or complex.
RuleFn meanLike(std::string dimArg) {
  return [=](const OpCall &c) -> RuleResult {
    DType s = c.dtype("self");
    auto dt = optDtype(c);
    DType out = dt.value_or(s);
    if (!isFloatOrComplex(out)) {
      if (dt)
        return c.semantic("could not infer output dtype: optional dtype must be floating point or complex, got {}",
                          name(out));
      return c.semantic("could not infer output dtype: input dtype must be floating point or complex, got {}",
                        name(s));
    }
    Rank r = Rank::exact(0);
    if (!dimArg.empty()) {
      if (auto e = checkDims(c, dimArg)) return *e;
      r = reduceArgs(c, dimArg, "keepdim");
    }
    return tensorOf(out, r);
  };
}

/// nanmean = nansum(dtype) / count: real floating input only; an integer
/// dtype= is true-divided into the default float in 1.13, refused in 2.14
/// ("could not infer output dtype").
template <bool IntegralDTypeArg> RuleResult nanmean(const OpCall &c) {
  DType s = c.dtype("self");
  if (!isFloating(s)) return c.semantic("expected input to have floating point dtype but got {}", name(s));
  if (auto dt = optDtype(c); !IntegralDTypeArg && dt && !isFloatOrComplex(*dt))
    return c.semantic("nanmean(): could not infer output dtype. Optional dtype must be either a floating point or "
                      "complex dtype. Got: {}", c10Name(*dt));
  if (auto e = checkDims(c, "dim")) return *e;
  DType out = optDtype(c).value_or(s);
  if (isIntegral(out, true)) out = DType::Float32;
  return tensorOf(out, reduceArgs(c, "dim", "keepdim"));
}

/// var / std (and their _mean pairs): floating or complex input; the
/// deviation is real.
RuleFn varLike(std::string dimArg, bool withMean) {
  return [=](const OpCall &c) -> RuleResult {
    DType s = c.dtype("self");
    if (!isFloatOrComplex(s))
      return c.semantic("std and var only support floating point and complex dtypes, got {}", name(s));
    if (isFloat8(s)) return c.semantic("std_var: Unsupported dtype {}", c10Name(s)); // 2.14's float8
    Rank r = Rank::exact(0);
    if (!dimArg.empty()) {
      if (auto e = checkDims(c, dimArg)) return *e;
      r = reduceArgs(c, dimArg, "keepdim");
    }
    Value dev = tensorOf(toRealValueType(s), r);
    if (!withMean) return dev;
    // The mean of a complex input is rebuilt with complex(real, imag), which
    // has no bfloat16 form (2.14's bcomplex32).
    if (s == DType::BComplex32)
      return c.semantic("Expected both inputs to be Half, Float or Double tensors but got BFloat16 and BFloat16");
    return std::vector<Value>{dev, tensorOf(s, r)};
  };
}

/// amax / amin / max / min (full): keep the dtype.
RuleFn keepReduce(std::string dimArg, std::string keepArg) {
  return [=](const OpCall &c) -> RuleResult {
    Rank r = Rank::exact(0);
    if (!dimArg.empty()) {
      if (auto e = checkDims(c, dimArg)) return *e;
      r = reduceArgs(c, dimArg, keepArg);
    }
    return tensorOf(c.dtype("self"), r);
  };
}

/// (values: self dtype, indices: int64) over one reduced `int dim`.
RuleFn valuesIndices(bool rejectComplex, bool reduces) {
  return [=](const OpCall &c) -> RuleResult {
    DType s = c.dtype("self");
    if (rejectComplex && isComplex(s)) return c.semantic("does not support complex input ({})", name(s));
    Rank r = reduces ? singleDimRank(c, "keepdim") : c.rank("self");
    return std::vector<Value>{tensorOf(s, r), tensorOf(DType::Int64, r)};
  };
}

/// argmax / argmin: int64 over an optional single dim.
RuleResult argReduce(const OpCall &c) {
  Rank self = c.rank("self");
  DimCount dc = dimCount(c.arg("dim"), self.value());
  return tensorOf(DType::Int64, reducedRank(self, dc, c.arg("keepdim")));
}

/// all / any: uint8 stays uint8, everything else gives bool.
RuleFn allAny(bool withDim) {
  return [=](const OpCall &c) -> RuleResult {
    DType s = c.dtype("self");
    Rank r = withDim ? singleDimRank(c, "keepdim") : Rank::exact(0);
    return tensorOf(s == DType::UInt8 ? DType::UInt8 : DType::Bool, r);
  };
}

/// cumsum / cumprod: like sum, same rank.
RuleResult cumOp(const OpCall &c) {
  return tensorOf(sumDType(c.dtype("self"), optDtype(c)), c.rank("self"));
}

/// cumsum_ / cumprod_: self's dtype; dtype= must equal it.
RuleResult cumOpInPlace(const OpCall &c) {
  DType s = c.dtype("self");
  if (auto dt = optDtype(c); dt && *dt != s)
    return c.semantic("bad in-place call: input tensor dtype {} and output tensor dtype {} should match", name(s),
                      name(*dt));
  return tensorOf(s, c.rank("self"));
}

/// logsumexp: integers compute in the default float; complex is rejected
/// (1.13) or kept (2.14).
template <bool ComplexOk> RuleResult logsumexp(const OpCall &c) {
  DType s = c.dtype("self");
  if (!ComplexOk && isComplex(s)) return c.semantic("expected floating point type for result tensor, but got {}", name(s));
  const Value &dims = c.arg("dim");
  // An empty dim list reduces every dim; without keepdim the kept maxima
  // ([1] * rank) are added into a 0-dim sum, which fails for any rank >= 1.
  if (dims.isList() && dims.lengthKnown() && dims.elements().empty() && c.rank("self").mayBeNonZero()) {
    auto keep = c.arg("keepdim").boolValue();
    if (keep && !*keep) {
      if (!c.rank("self").mayBeZero())
        return c.semantic("an empty dim list without keepdim does not broadcast for a non-0-dim input");
      return c.error(ErrorKind::ValueDependent, "an empty dim list does not broadcast for a non-0-dim input");
    }
  }
  if (auto e = checkDims(c, "dim")) return *e;
  DType out = isIntegral(s, true) ? DType::Float32 : s;
  return tensorOf(out, reduceArgs(c, "dim", "keepdim"));
}

/// norm / frobenius_norm: floating or complex input, real result; with
/// dtype= the result is exactly dtype, which must be floating or complex.
RuleFn normLike(std::string dimArg, std::string pArg) {
  return [=](const OpCall &c) -> RuleResult {
    if (!pArg.empty())
      if (auto e = normP(c, pArg)) return *e;
    DType s = c.dtype("self");
    Rank r = Rank::exact(0);
    if (!dimArg.empty()) {
      if (auto e = checkDims(c, dimArg)) return *e;
      r = reduceArgs(c, dimArg, c.has("keepdim") ? "keepdim" : "");
    }
    if (c.has("dtype")) {
      DType dt = *c.dtypeArg("dtype");
      if (!isFloatOrComplex(dt))
        return c.semantic("the dtype should be either floating point or complex, got {}", name(dt));
      return tensorOf(dt, r);
    }
    if (!isFloatOrComplex(s))
      return c.semantic("input dtype should be either floating point or complex, got {}", name(s));
    return tensorOf(toRealValueType(s), r);
  };
}

std::optional<RuleError> vectorNormDType(const OpCall &c, DType &out);

/// A check refusing a complex self, and a bool one with `boolToo`; `what`
/// names the kind ("{}": "complex" or "bool").
ArgCheck refusesSelf(std::string what, bool boolToo) {
  return [what = std::move(what), boolToo](const OpCall &c) -> std::optional<RuleError> {
    const DType d = c.dtype("self");
    if (isComplex(d) || (boolToo && isBool(d)))
      return c.semantic(fmt::runtime(what), isComplex(d) ? "complex" : "bool");
    return std::nullopt;
  };
}

/// 2.14's norm overloads are linalg.vector_norm: a floating or complex input
/// whatever dtype= says, dtype= reachable without narrowing and of the
/// input's kind, a real result; p may be a bool (1.13: "expects norm to be
/// integer or float"). Measured: scripts/probes/norms.py.
RuleFn normAsVectorNorm(std::string dimArg) {
  return [=](const OpCall &c) -> RuleResult {
    if (auto e = realScalar(c, "p")) return *e;
    DType out;
    if (auto e = vectorNormDType(c, out)) return *e;
    // A complex input with dtype= (complex, else refused above) is written
    // into a result of the real type: aten::norm refuses it.
    if (auto dt = optDtype(c); dt && isComplex(*dt))
      return c.semantic("Expected out tensor to have dtype {}, but got {} instead", c10Name(out), c10Name(*dt));
    Rank r = Rank::exact(0);
    if (!dimArg.empty()) {
      if (auto e = checkDims(c, dimArg)) return *e;
      r = reduceArgs(c, dimArg, c.has("keepdim") ? "keepdim" : "");
    }
    return tensorOf(out, r);
  };
}

/// linalg_vector_norm / linalg_norm: floating or complex input; dtype= must
/// be reachable from the input without narrowing and of the same kind
/// (real/complex); the result is real.
std::optional<RuleError> vectorNormDType(const OpCall &c, DType &out) {
  DType s = c.dtype("self");
  if (!isFloatOrComplex(s))
    return c.semantic("expected a floating point or complex tensor as input, got {}", name(s));
  DType target = s;
  if (auto dt = optDtype(c)) {
    if (isComplex(s) != isComplex(*dt))
      return c.semantic("dtype {} must be {} for a {} input", name(*dt), isComplex(s) ? "complex" : "real",
                        name(s));
    if (c.promote(s, *dt) != *dt)
      return c.semantic("the dtype of the input ({}) should be convertible without narrowing to {}", name(s),
                        name(*dt));
    target = *dt;
  }
  out = toRealValueType(target);
  return std::nullopt;
}

RuleResult vectorNorm(const OpCall &c) {
  if (auto e = realScalar(c, "ord")) return *e;
  DType out;
  if (auto e = vectorNormDType(c, out)) return *e;
  if (auto e = checkDims(c, "dim")) return *e;
  return tensorOf(out, reduceArgs(c, "dim", "keepdim"));
}

/// linalg__powsum (2.14): sum(|x|**ord), linalg.vector_norm without the
/// root, on a CPU kernel of its own (measured, 2.14.1): real, of dtype=
/// (a complex one: its real type) or of self's real type. An integral or
/// bool input without dtype=, or an integral dtype=, runs the kernel in
/// int64, which it lacks. Dtypes not measured (float8, complex32, bcomplex32,
/// uint16-64): unknown.
RuleResult powsum(const OpCall &c) {
  if (auto e = realScalar(c, "ord")) return *e;
  auto measured = [](DType d) {
    return d == DType::Bool || d == DType::UInt8 || d == DType::Int8 || d == DType::Int16 || d == DType::Int32 ||
           d == DType::Int64 || d == DType::Float16 || d == DType::BFloat16 || d == DType::Float32 ||
           d == DType::Float64 || d == DType::Complex64 || d == DType::Complex128;
  };
  DType s = c.dtype("self");
  auto dt = optDtype(c);
  if (isComplex(s) && dt && isIntegral(*dt, true)) // any complex self, complex32 too
    return c.semantic("Unknown Complex ScalarType for {}", name(*dt));
  if (!measured(s) || (dt && !measured(*dt))) return Value::unknownTensor();
  DType target = dt.value_or(s);
  if (isIntegral(target, true)) return c.missingKernel("\"powsum_cpu\" not implemented for 'Long'");
  if (auto e = checkDims(c, "dim")) return *e;
  return tensorOf(toRealValueType(target), reduceArgs(c, "dim", "keepdim"));
}

/// linalg_norm: a vector norm over one dim (or the flattened input when
/// neither ord nor dim is given), a matrix norm over two dims, over a 2-D
/// input given an ord but no dim, or for a string ord. dim must have one or
/// two entries. Matrix norms take ord in {+-1, +-2, +-inf, 'fro', 'nuc'} and
/// an input of at least 2 dims; +-2 and 'nuc' (singular values) reject
/// float16, bfloat16 and complex32 inputs.
RuleResult linalgNorm(const OpCall &c) {
  const Value &ord = c.arg("ord");
  if (ord.isNumber())
    if (auto e = realScalar(c, "ord")) return *e;
  DType out;
  if (auto e = vectorNormDType(c, out)) return *e;
  if (auto e = checkDims(c, "dim")) return *e;
  auto n = c.rank("self").value();
  const Value &dim = c.arg("dim");
  std::optional<size_t> dims;
  if (dim.isNumber()) dims = 1;
  else if (dim.isList() && dim.lengthKnown()) dims = dim.elements().size();
  if (dims && *dims != 1 && *dims != 2)
    return c.semantic("if dim is specified, it must be of length 1 or 2, got {}", *dims);
  bool ordGiven = !ord.isNone();
  if (ordGiven && dim.isNone() && n && (*n < 1 || *n > 2))
    return c.semantic("if dim is not specified but ord is, the input must be 1-D or 2-D, got {}-D", *n);
  std::optional<bool> matrix;
  if (dims) matrix = *dims == 2;
  else if (dim.isNone() && !ordGiven) matrix = false;
  else if (dim.isNone() && n) matrix = *n == 2;
  if (ord.isString() && matrix == false)
    return c.semantic("a string ord ({}) is a matrix norm: it needs two dims", ord.str());
  if (matrix != true) return tensorOf(out, reduceArgs(c, "dim", "keepdim"));
  if (n && *n < 2) return c.semantic("a matrix norm needs an input of at least 2 dimensions, got {}-D", *n);
  bool singular = false; // ord +-2 or 'nuc': computed from singular values
  if (auto f = ord.floatValue()) {
    double a = std::abs(*f);
    if (a != 1 && a != 2 && !std::isinf(a)) return c.semantic("matrix norm order {} not supported", *f);
    singular = a == 2;
  } else if (auto t = ord.text()) {
    if (*t != "fro" && *t != "nuc") return c.semantic("matrix norm order '{}' not supported", *t);
    singular = *t == "nuc";
  }
  DType s = c.dtype("self");
  if (singular && isLowPrecision(s))
    return c.semantic("matrix norm order {}: low precision dtypes not supported, got {}", ord.str(), name(s));
  return tensorOf(out, reduceArgs(c, "dim", "keepdim"));
}

/// count_nonzero: int64.
RuleResult countNonzero(const OpCall &c) {
  if (auto e = checkDims(c, "dim")) return *e;
  Rank self = c.rank("self");
  DimCount dc = dimCount(c.arg("dim"), self.value());
  return tensorOf(DType::Int64, reducedRank(self, dc, Value::boolean(false)));
}

/// trace: a matrix in, sum's dtype out, rank 0.
RuleResult trace(const OpCall &c) {
  if (auto n = c.rank("self").value(); n && *n != 2)
    return c.semantic("expected a matrix, but got tensor with dim {}", *n);
  return tensorOf(sumDType(c.dtype("self"), std::nullopt), Rank::exact(0));
}

/// renorm: floating or complex input, real p and maxnorm, same dtype.
RuleResult renorm(const OpCall &c) {
  if (auto e = realScalar(c, "p")) return *e;
  if (auto e = realScalar(c, "maxnorm")) return *e;
  // (value-dependent, NaN included: the checks are `p > 0` and `maxnorm >= 0`)
  if (auto p = c.arg("p").floatValue(); p && !(*p > 0))
    return c.error(ErrorKind::ValueDependent, "renorm: non-positive-norm not supported (p = {})", *p);
  if (auto m = c.arg("maxnorm").floatValue(); m && !(*m >= 0))
    return c.error(ErrorKind::ValueDependent, "renorm: expected maxnorm to be >= 0 but got {}", *m);
  DType s = c.dtype("self");
  if (auto n = c.rank("self").value(); n && *n < 2)
    return c.semantic("input needs at least 2 dimensions, got {}", *n);
  if (!isFloatOrComplex(s))
    return c.semantic("expected a floating point or complex tensor as input, got {}", name(s));
  // The norms (in the compute type) scale self: a promotion that raises
  // where it does (2.14: float8 with float32).
  (void)c.promote(s, DType::Float32);
  return tensorOf(s, c.rank("self"));
}

/// dist = norm(self - other, p): no bool operand, promoted type must be
/// floating or complex, result real, rank 0.
/// dist = norm(self - other, p): 1.13's norm kernel refuses a bool p, 2.14's
/// takes it (a complex p raises in both).
template <bool BoolPRefused> RuleResult dist(const OpCall &c) {
  if (auto e = BoolPRefused ? normP(c, "p") : realScalar(c, "p")) return *e;
  DType a = c.dtype("self"), b = c.dtype("other");
  if (isBool(a) || isBool(b)) return c.semantic("subtraction with a bool tensor is not supported");
  DType r = promoteArgs(c, {"self", "other"});
  if (!isFloatOrComplex(r))
    return c.semantic("norm input dtype should be either floating point or complex, got {}", name(r));
  return tensorOf(toRealValueType(r), Rank::exact(0));
}

/// prims::sum / prims::prod: prims never promote (meta keeps the input
/// dtype), but 1.13's CPU implementation routes through aten (int -> int64):
/// an integral input without output_dtype may give either.
/// Whether a prim reduction's `dims` is an empty list.
bool emptyDims(const OpCall &c) {
  const Value &d = c.arg("dims");
  return d.isList() && d.lengthKnown() && d.elements().empty();
}

/// A prims reduction's rank. An empty dims list reduces nothing in the prim's
/// meta function (torch/_prims: compute_reduction_output_shape), while on CPU
/// prims.sum and prims.var run torch.sum / torch.var, which take it as every
/// dim, and prims.prod clones (measured, 2.14: sum and var of [2,3,4] with []
/// give [] on CPU, [2,3,4] on meta; prod [2,3,4] on both).
Rank primReducedRank(const OpCall &c) {
  Rank self = c.rank("inp");
  if (emptyDims(c) && (c.onMeta() || c.schema().name == "prims::prod")) return self;
  return reducedRank(self, dimCount(c.arg("dims"), self.value()), Value::boolean(false));
}

RuleResult primSumProd(const OpCall &c) {
  DType s = c.dtype("inp");
  Rank r = primReducedRank(c);
  if (auto od = c.dtypeArg("output_dtype")) return tensorOf(*od, r);
  if (isIntegral(s, true)) return Value::tensor(DTypeSet::join(s, DType::Int64), r);
  return tensorOf(s, r);
}

RuleResult primVar(const OpCall &c) {
  DType s = c.dtype("inp");
  if (!isFloatOrComplex(s))
    return c.semantic("std and var only support floating point and complex dtypes, got {}", name(s));
  Value out = tensorOf(c.dtypeArg("output_dtype").value_or(toRealValueType(s)), primReducedRank(c));
  // 2.14's CPU prims::var runs aten's var kernel, which has no float8 case
  // (std_var_all); the prim's meta function gives the dtype.
  if (isFloat8(s))
    return mayRaise({out}, cpuKernelGap(c, s, fmt::format("std_var_all: Unsupported dtype {}", c10Name(s))));
  return out;
}

/// cov(self, correction, fweights, aweights) / corrcoef(self): at most 2-D
/// (2-D: a matrix result, else 0-dim), not bool; fweights integral,
/// aweights floating; computed in result_type(self, weights), integers as
/// float32. The final product has no Half kernel (a Half self with float32
/// aweights is fine).
RuleResult covariance(const OpCall &c) {
  DType d = c.dtype("self");
  if (d == DType::Bool) return c.semantic("cov(): bool dtype is not supported for input");
  auto k = c.rank("self").value();
  if (k && *k > 2) return c.semantic("cov(): expected input to have two or fewer dimensions but got {}", *k);
  for (const char *w : {"fweights", "aweights"}) {
    if (!c.has(w) || !c.arg(w).isTensor()) continue;
    DType wd = c.dtype(w);
    bool fw = std::string_view(w) == "fweights";
    if (fw ? !isIntegral(wd, false) : !isFloating(wd))
      return c.semantic("cov(): expected {} to have {} dtype but got {}", w, fw ? "integral" : "floating point", name(wd));
    if (auto wk = c.rank(w).value(); wk && *wk > 1)
      return c.semantic("cov(): expected {} to have one or fewer dimensions but got {}", w, *wk);
    d = c.promote(d, wd);
  }
  if (isIntegral(d, true)) d = DType::Float32;
  if (c.lacksCpuKernel(CpuKernel::Matmul, d)) return c.missingKernel("no matrix product kernel for {}", name(d));
  // One variable (a 1-D input, or a single row) gives a 0-dim result.
  Rank out = !k ? Rank::top() : Rank::exact(0);
  if (k && *k == 2) {
    auto oneRow = c.arg("self").unitDims().sizeIsOne(0);
    out = oneRow ? Rank::exact(*oneRow ? 0 : 2) : Rank::join(Rank::exact(0), Rank::exact(2));
  }
  return tensorOf(d, out);
}

/// sum_to_size(self, size): a sum down to `size` (len(size) <= rank), so
/// integers become int64, except when size already is self's shape (self
/// is returned): with integers, either.
RuleResult sumToSize(const OpCall &c) {
  DType d = c.dtype("self");
  auto size = knownInts(c.arg("size"));
  Rank self = c.rank("self");
  if (size && self.value() && static_cast<int>(size->size()) > *self.value())
    return c.semantic("size of {} dims is not expandable to self's {} dims", size->size(), *self.value());
  Rank r = size ? Rank::exact(static_cast<int>(size->size())) : Rank::top();
  if (!isIntegral(d, true)) return tensorOf(d, r);
  // Integers: summed (int64) unless size is self's shape. The size-1 facts
  // decide it when a target dim of 1 meets a dim known not to be 1, or
  // every dim is a known 1 matching a target 1.
  std::optional<bool> same;
  if (size && self.value()) {
    int k = *self.value(), n = static_cast<int>(size->size());
    UnitDims u = c.arg("self").unitDims();
    if (n != k || n == 0) same = false; // an empty size is a full sum(), even of a 0-dim self
    bool allOnes = true;
    for (int i = 0; i < k && same != false; ++i) {
      auto isOne = u.sizeIsOne(i);
      bool one = isOne == true, notOne = isOne == false;
      if ((*size)[i] == 1 && notOne) same = false;
      allOnes = allOnes && one && (*size)[i] == 1;
    }
    if (same != false && allOnes) same = true;
  }
  if (same) return tensorOf(*same ? d : DType::Int64, r);
  return Value::tensor(DTypeSet::join(d, DType::Int64), r);
}

/// quantile / nanquantile: float32/float64 input; q a float or a tensor of
/// the input's dtype, at most 1-D; a 1-D q prepends a dim to the reduced
/// result (dim=None: every dim reduced, keepdim keeps them as size 1).
RuleResult quantile(const OpCall &c) {
  DType d = c.dtype("self");
  if (d != DType::Float32 && d != DType::Float64)
    return c.semantic("quantile() input tensor must be either float or double dtype, got {}", name(d));
  const Value &q = c.arg("q");
  Rank qr = Rank::exact(0);
  if (q.isTensor()) {
    if (*q.dtype() != d) return c.semantic("quantile() q tensor must be same dtype as the input tensor");
    qr = q.rank();
    if (auto k = qr.value(); k && *k > 1) return c.semantic("quantile() q must be a scalar or 1D tensor");
  }
  Rank self = c.rank("self");
  auto keep = c.arg("keepdim").boolValue();
  const Value &dim = c.arg("dim");
  Rank red = Rank::top();
  if (keep && self.value()) {
    int k = *self.value();
    if (dim.isNone()) red = *keep ? self : Rank::exact(0);
    else red = *keep ? self : Rank::exact(std::max(k - 1, 0));
  }
  if (!qr.isExact() || !red.isExact()) return tensorOf(d, Rank::top());
  return tensorOf(d, Rank::exact(*red.value() + *qr.value()));
}

/// The dtypes the CPU kernel "aminmax_cpu" lacks (measured on every dtype,
/// 0-dim and 1-D, with and without dim): complex in both versions; in 1.13
/// float16, and bfloat16 when reducing over a dim; in 2.14 the barebones
/// unsigned and float8 types, except a 0-dim self with a dim (copied, not
/// reduced; a complex one is still refused). Its own kernel: the results'
/// dtype stands (what the structured meta kernel gives), the gap is a
/// possible error.
std::optional<RuleError> aminmaxKernelGap(const OpCall &c) {
  const DType d = c.dtype("self");
  const bool withDim = c.has("dim") && !c.isNone("dim");
  bool gap = isComplex(d);
  if (!has(c.version(), VersionFact::AminmaxKernelTakesHalfTypes)) gap = gap || d == DType::Float16 || (d == DType::BFloat16 && withDim);
  else if (isBarebonesUnsigned(d) || isFloat8(d)) gap = !(withDim && c.rank("self") == Rank::exact(0));
  if (!gap) return std::nullopt;
  return cpuKernelGap(c, d, fmt::format("\"aminmax_cpu\" not implemented for '{}'", c10Name(d)));
}

/// Outputs, with the CPU kernel's gap for self's dtype as a possible error.
RuleResult withAminmaxGap(const OpCall &c, std::vector<Value> outputs) {
  if (auto gap = aminmaxKernelGap(c)) return mayRaise(std::move(outputs), *gap);
  return outputs;
}

/// aminmax(self, dim, keepdim) (and the deprecated _aminmax.dim, which 1.13
/// implements by it: measured identical on every dtype, rank and dim):
/// both results have self's dtype.
template <bool ZeroDimKeepdimGivesOneDim> RuleResult aminmaxRule(const OpCall &c) {
  Rank self = c.rank("self");
  DimCount dc = dimCount(c.arg("dim"), self.value());
  Rank rk = reducedRank(self, dc, c.arg("keepdim"));
  // 1.13 quirk: a 0-dim self with a dim and keepdim gives shape [1] (2.14: 0-dim).
  if (ZeroDimKeepdimGivesOneDim && self.mayBeZero() && !c.isNone("dim")) {
    auto keep = c.arg("keepdim").boolValue();
    if (self == Rank::exact(0) && keep && *keep) rk = Rank::exact(1);
    else if (!keep || *keep) rk = Rank::join(rk, Rank::exact(1));
  }
  return withAminmaxGap(c, {tensorOf(c.dtype("self"), rk), tensorOf(c.dtype("self"), rk)});
}

/// Registers the reductions, each sub-family by one member function: `add`
/// and `addScoped` check the dim range and keep the reduced shape.
struct Reductions {
  Registry &r;
  const std::string fam = "reduction";
  // The rules 1.13 had (`original`) and 2.14's changes of them (`changed`).
  const Registry::Scoped original = r.since(TorchVersion::V1_13), changed = r.since(TorchVersion::V2_6);
  Registry::Entry add(std::string_view key, RuleFn fn) {
    return r.add(key, fam, reducing(checkingDimRange(std::move(fn))));
  }
  Registry::Entry addScoped(Registry::Scoped scope, std::string_view key, RuleFn fn) {
    return scope.add(key, fam, reducing(checkingDimRange(std::move(fn))));
  }
  void sumsMeans();
  void extrema();
  void cumulativeStatistics();
  void norms();
  void orderStatistics();
};

/// sum / prod / nansum, mean / nanmean, var / std.
void Reductions::sumsMeans() {
  // sum / prod / nansum
  add("aten::sum", sumLike("", "", false));
  add("aten::sum.dim_IntList", sumLike("dim", "keepdim", false))
      .sample("dim", "[0]")
      .variant({{"dim", "[0]"}, {"keepdim", "True"}})
      .variant({{"self", "sweep[2,3]"}, {"dim", "[1]"}, {"keepdim", "True"}})
      .variant({{"self", "sweep[2,3]"}, {"dim", "[0,-1]"}, {"keepdim", "True"}})
      .variant({{"dim", "None"}});
  add("aten::nansum", sumLike("dim", "keepdim", true)).variant({{"dim", "[0]"}});
  add("aten::prod", sumLike("", "", false));
  add("aten::prod.dim_int", sumLike("dim", "keepdim", false))
      .sample("dim", "0")
      .variant({{"dim", "0"}, {"keepdim", "True"}});
  // mean
  add("aten::mean", meanLike(""));
  // 2.14's mean.dtype_out also wants self to cast to dtype (complex to float does not).
  addScoped(changed, "aten::mean.dtype_out", [mean = meanLike("")](const OpCall &c) -> RuleResult {
    if (auto dt = optDtype(c); dt && !canCast(c.dtype("self"), *dt))
      return c.semantic("mean.dtype_out(): input types can't be cast to the desired output type {}", name(*dt));
    RuleResult r = mean(c);
    if (!r.ok()) return r;
    return intoOutArguments(c, r.takeOutputs(), 1);
  }).sample("out", "float32[2]").variant({{"out", "float64[2]"}});
  add("aten::mean.dim", meanLike("dim"))
      .sample("dim", "[0]")
      .variant({{"dim", "[-1]"}, {"keepdim", "True"}})
      .variant({{"self", "sweep[2,3]"}, {"dim", "[0]"}, {"keepdim", "True"}});
  for (auto [scope, rule] : {std::pair{original, RuleFn(nanmean<true>)}, std::pair{changed, RuleFn(nanmean<false>)}})
    addScoped(scope, "aten::nanmean", rule).variant({{"dim", "[0]"}});
  // var / std
  struct VarStd { const char *key, *dimKey, *correctionKey; bool withMean; };
  for (VarStd v : {VarStd{"aten::var", "aten::var.dim", "aten::var.correction", false},
                   VarStd{"aten::std", "aten::std.dim", "aten::std.correction", false},
                   VarStd{"aten::var_mean", "aten::var_mean.dim", "aten::var_mean.correction", true},
                   VarStd{"aten::std_mean", "aten::std_mean.dim", "aten::std_mean.correction", true}}) {
    const bool withMean = v.withMean;
    add(v.key, varLike("", withMean));
    add(v.dimKey, varLike("dim", withMean)).sample("dim", "[0]");
    // 1.13's correction is an int? (a complex one is refused when binding);
    // 2.14's a Scalar?, read as a double: one with an imaginary part raises.
    addScoped(original, v.correctionKey, varLike("dim", withMean)).sample("dim", "[0]").sample("correction", "1");
    addScoped(changed, v.correctionKey, checks::before(realCorrection, varLike("dim", withMean)))
        .sample("dim", "[0]").sample("correction", "1")
        .variant({{"dim", "[0]"}, {"correction", "sweep"}})
        .variant({{"dim", "[0]"}, {"correction", "1j"}});
  }
}

/// amax / amin / aminmax / max / min, argmax / argmin, all / any.
void Reductions::extrema() {
  // amax / amin / aminmax / max / min
  add("aten::amax", keepReduce("dim", "keepdim")).variant({{"dim", "[0]"}})
      .variant({{"self", "sweep[2,3]"}, {"dim", "[1]"}, {"keepdim", "True"}});
  add("aten::amin", keepReduce("dim", "keepdim")).variant({{"dim", "[0]"}, {"keepdim", "True"}});
  // The deprecated _aminmax (1.13 keeps it for old TorchScript): a full
  // reduction to two 0-dim tensors, or aminmax over one dim.
  add("aten::_aminmax", [](const OpCall &c) -> RuleResult {
    Value v = tensorOf(c.dtype("self"), Rank::exact(0));
    return withAminmaxGap(c, {v, v});
  }).sample("self", "sweep[2,3]");
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), RuleFn(aminmaxRule<true>)},
                             std::pair{r.since(TorchVersion::V2_6), RuleFn(aminmaxRule<false>)}}) {
  addScoped(scope, "aten::aminmax", rule).variant({{"dim", "0"}}).variant({{"self", "sweep![]"}, {"dim", "0"}, {"keepdim", "True"}})
      .variant({{"self", "float32[]"}, {"dim", "-1"}, {"keepdim", "False"}});
  addScoped(scope, "aten::_aminmax.dim", rule).sample("dim", "0").variant({{"dim", "0"}, {"keepdim", "True"}})
      .variant({{"self", "sweep[2,3]"}, {"dim", "1"}, {"keepdim", "True"}})
      .variant({{"self", "sweep[2,3]"}, {"dim", "-1"}}).variant({{"self", "sweep[2,3]"}, {"dim", "2"}});
  }
  add("aten::max", keepReduce("", ""));
  add("aten::min", keepReduce("", ""));
  add("aten::max.dim", valuesIndices(true, true)).sample("dim", "0");
  add("aten::min.dim", valuesIndices(true, true)).sample("dim", "0").variant({{"dim", "0"}, {"keepdim", "True"}});
  // 2.14's CPU argmax/argmin refuse bool and complex input (1.13 took them).
  for (auto [scope, argmax, argmin] :
       {std::tuple{original, RuleFn(argReduce), RuleFn(argReduce)},
        std::tuple{changed, checks::before(refusesSelf("argmax(): does not support {} input", true), argReduce),
                   checks::before(refusesSelf("argmin(): does not support {} input", true), argReduce)}}) {
    addScoped(scope, "aten::argmax", argmax).variant({{"dim", "0"}}).variant({{"dim", "0"}, {"keepdim", "True"}});
    addScoped(scope, "aten::argmin", argmin).variant({{"dim", "0"}});
  }
  // all / any
  add("aten::all", allAny(false));
  add("aten::all.dim", allAny(true)).sample("dim", "0");
  add("aten::any", allAny(false));
  add("aten::any.dim", allAny(true)).sample("dim", "0").variant({{"dim", "0"}, {"keepdim", "True"}});
  // 2.x: a list of dims (None: every dim); uint8 stays uint8 as any.dim.
  // An empty list reduces no dim (sum's [] reduces every one): all.dims(x, []) keeps x's sizes.
  for (const char *k : {"aten::any.dims", "aten::all.dims"})
    add(k, [](const OpCall &c) -> RuleResult {
      if (auto e = checkDims(c, "dim")) return *e;
      DType s = c.dtype("self");
      const DType d = s == DType::UInt8 ? DType::UInt8 : DType::Bool;
      if (noDims(c.arg("dim"))) return withBroadcastUnitDims(c, tensorOf(d, c.rank("self")), {"self"});
      return tensorOf(d, reduceArgs(c, "dim", "keepdim"));
    }).sample("dim", "[0]").variant({{"dim", "None"}}).variant({{"dim", "[0]"}, {"keepdim", "True"}})
        .variant({{"dim", "[]"}}).variant({{"dim", "[]"}, {"keepdim", "True"}});
}

/// cumsum / cumprod / logcumsumexp, logsumexp, quantile, cov / corrcoef, sum_to_size.
void Reductions::cumulativeStatistics() {
  // cumulative
  // Running reductions keep self's shape (and its size-1 facts).
  add("aten::cumsum", keepingShape(cumOp)).sample("dim", "0").variant({{"self", "sweep![1,2]"}, {"dim", "1"}});
  add("aten::cumprod", keepingShape(cumOp)).sample("dim", "0").variant({{"self", "sweep![1,2]"}, {"dim", "1"}});
  add("aten::cumsum_", keepingShape(cumOpInPlace)).sample("dim", "0").variant({{"self", "sweep![1,2]"}, {"dim", "1"}});
  add("aten::cumprod_", keepingShape(cumOpInPlace)).sample("dim", "0").variant({{"self", "sweep![1,2]"}, {"dim", "1"}});
  add("aten::logcumsumexp", keepingShape(sameAs("self"))).sample("dim", "0")
      .variant({{"self", "sweep![1,2]"}, {"dim", "1"}});
  for (auto [scope, rule] : {std::pair{original, RuleFn(logsumexp<false>)}, std::pair{changed, RuleFn(logsumexp<true>)}})
    for (const char *k : {"aten::logsumexp", "aten::special_logsumexp"})
      addScoped(scope, k, rule).sample("dim", "[0]").variant({{"dim", "[]"}, {"keepdim", "True"}})
          .variant({{"dim", "[]"}, {"keepdim", "False"}});
  for (const char *k : {"aten::quantile", "aten::nanquantile", "aten::quantile.scalar", "aten::nanquantile.scalar"}) {
    bool scalar = std::string(k).ends_with("scalar");
    auto e = r.add(k, fam, quantile).sample("self", "sweep[2,3]").sample("q", scalar ? "0.5" : "sweep[2]")
                 .variant({{"self", "sweep![2,3]"}, {"q", scalar ? "0.5" : "sweep[2]"}, {"dim", "1"}})
                 .variant({{"self", "sweep![2,3]"}, {"q", scalar ? "0.5" : "sweep[2]"}, {"dim", "1"}, {"keepdim", "True"}})
                 .variant({{"self", "float32[2,4]"}, {"q", scalar ? "0.5" : "float32[3]"}, {"keepdim", "True"}})
                 .variant({{"self", "float32[2,4]"}, {"q", scalar ? "0.5" : "float32[]"}, {"dim", "0"}})
                 .variant({{"self", "float32[]"}, {"q", scalar ? "0.5" : "float32[2]"}, {"dim", "0"}, {"keepdim", "True"}})
                 .variant({{"self", "float32[2,0]"}, {"q", scalar ? "0.5" : "float32[2]"}, {"dim", "0"}})
                 .refuse(checks::oneOf("interpolation", {"linear", "lower", "higher", "midpoint", "nearest"}),
                         {{"interpolation", "'foo'"}});
    if (scalar) e.refuse(checks::numberWithin("q", 0, 1, "quantile() q must be in the range [0, 1]"), {{"q", "1.5"}});
  }
  add("aten::cov", covariance).sample("self", "sweep[2,3]").sample("fweights", "None").sample("aweights", "None")
      .variant({{"self", "sweep![2,3]"}, {"fweights", "sweep![3]"}, {"aweights", "None"}})
      .variant({{"self", "sweep![2,3]"}, {"fweights", "None"}, {"aweights", "sweep![3]"}})
      .variant({{"self", "sweep![3]"}, {"fweights", "None"}, {"aweights", "None"}});
  add("aten::corrcoef", covariance).sample("self", "sweep[2,3]").variant({{"self", "sweep![3]"}})
      .variant({{"self", "sweep![1,3]"}}).variant({{"self", "float32[4,0]"}});
  add("aten::sum_to_size", sumToSize).sample("self", "sweep[2,3]").sample("size", "[1,3]")
      .variant({{"self", "sweep![2,3]"}, {"size", "[2,3]"}})
      .variant({{"self", "sweep![2,3]"}, {"size", "[3]"}}).variant({{"self", "sweep![]"}, {"size", "[]"}})
      .variant({{"self", "float32[2,3]"}, {"size", "[2,1]"}}).variant({{"self", "float32[2,3]"}, {"size", "[2]"}})
      .variant({{"self", "float32[2,3]"}, {"size", "[4,2,3]"}});
}

/// norm, frobenius_norm, the linalg vector / matrix norms.
void Reductions::norms() {
  // norms
  for (auto [scope, whole, alongDim] : {std::tuple{original, normLike("", "p"), normLike("dim", "p")},
                                        std::tuple{changed, normAsVectorNorm(""), normAsVectorNorm("dim")}}) {
    addScoped(scope, "aten::norm.Scalar", whole);
    addScoped(scope, "aten::norm.ScalarOpt_dim", alongDim).sample("dim", "[0]");
    addScoped(scope, "aten::norm.ScalarOpt_dtype", whole).sample("p", "2");
    addScoped(scope, "aten::norm.ScalarOpt_dim_dtype", alongDim)
        .sample("p", "2")
        .sample("dim", "[0]")
        .sample("keepdim", "False");
  }
  // From 2.6 norm.dtype_out refuses a complex dtype= (its out is real; the
  // functional's own out is not).
  r.since(TorchVersion::V2_6).declare("aten::norm.dtype_out", OpFact::OutErrorsOwn);
  add("aten::frobenius_norm", normLike("", ""));
  add("aten::frobenius_norm.dim", normLike("dim", "")).sample("dim", "[0]");
  add("aten::linalg_vector_norm", vectorNorm).variant({{"dim", "[0]"}, {"ord", "1"}});
  add("aten::linalg__powsum", powsum).variant({{"dim", "[0]"}, {"ord", "1"}}).variant({{"ord", "2.5"}, {"dtype", "sweep"}});
  add("aten::linalg_norm", linalgNorm)
      .variant({{"dim", "[0]"}, {"ord", "2"}})
      .variant({{"self", "sweep[2,3]"}, {"ord", "2"}})
      .variant({{"self", "sweep[2,3]"}, {"dim", "[0,-1]"}, {"ord", "-2"}, {"keepdim", "True"}})
      .variant({{"self", "sweep![2,3]"}, {"dim", "[0,1]"}, {"ord", "3"}})
      .variant({{"dim", "[]"}});
  add("aten::linalg_norm.ord_str", linalgNorm)
      .sample("ord", "'fro'")
      .sample("self", "sweep![2,3]")
      .variant({{"ord", "'nuc'"}})
      .variant({{"ord", "'nuc'"}, {"self", "sweep[2,3,4]"}, {"dim", "[0,2]"}})
      .variant({{"dim", "[1]"}})
      .variant({{"self", "sweep[2]"}});
  // linalg_matrix_norm is linalg_norm with two dims (default [-2, -1]).
  add("aten::linalg_matrix_norm", linalgNorm)
      .sample("self", "sweep[2,3]").sample("ord", "2")
      .variant({{"self", "sweep![2,2,3]"}, {"ord", "sweep"}, {"keepdim", "True"}})
      .variant({{"self", "sweep![2,3]"}, {"ord", "-1"}, {"dim", "[1,0]"}});
  add("aten::linalg_matrix_norm.str_ord", linalgNorm)
      .sample("self", "sweep[2,3]").sample("ord", "'fro'")
      .variant({{"self", "sweep![2,2,3]"}, {"ord", "'nuc'"}})
      .variant({{"self", "sweep![2,3]"}, {"ord", "'max'"}});
}

/// segment_reduce, count_nonzero, median / mode / kthvalue, sort / argsort / topk, trace, renorm, dist, prims.
void Reductions::orderStatistics() {
  // segment_reduce: floating data (no complex), reduced per segment along
  // `axis`: data's dtype and rank; lengths or offsets must be given.
  r.add("aten::segment_reduce", fam, [](const OpCall &c) -> RuleResult {
     DType d = c.dtype("data");
     if (!c.isNone("indices")) return c.semantic("segment_reduce(): indices based reduction is not supported yet");
     if (c.isNone("lengths") && c.isNone("offsets"))
       return c.semantic("segment_reduce: either lengths or offsets must be defined");
     if (!isFloating(d)) return c.missingKernel("no segment_reduce kernel for {}", name(d));
     if (c.rank("data") == Rank::exact(0)) return c.semantic("segment_reduce: data must have at least one dimension");
     if (auto e = checkedConversion(c, "initial", d)) return *e; // converted to data's dtype in the kernel
     return tensorOf(d, c.rank("data"));
   }).sample("data", "sweep[4]").sample("reduce", "'sum'").sample("lengths", "int64[2]=2").sample("offsets", "None")
      .sample("indices", "None")
      .variant({{"data", "sweep![4,3]"}, {"reduce", "'max'"}, {"lengths", "int32[2]=2"}, {"offsets", "None"}, {"indices", "None"}})
      .variant({{"data", "sweep![4]"}, {"initial", "magnitudes"}});
  add("aten::count_nonzero", countNonzero).variant({{"dim", "0"}});
  add("aten::count_nonzero.dim_IntList", countNonzero).sample("dim", "[0]");
  // order statistics: values keep the dtype, indices are int64
  add("aten::median", keepReduce("", ""));
  add("aten::nanmedian", keepReduce("", ""));
  add("aten::median.dim", valuesIndices(false, true)).sample("dim", "0");
  add("aten::nanmedian.dim", valuesIndices(false, true)).sample("dim", "0");
  add("aten::mode", valuesIndices(false, true));
  add("aten::kthvalue", valuesIndices(false, true)).sample("k", "1").atLeast("k", 1, "kthvalue(): selected number k out of range");
  // 2.14's CPU sorts refuse complex input, topk bool too (1.13 took them).
  const ArgCheck sortable = refusesSelf("Sort does not support {} dtypes on CPU", false);
  const ArgCheck topkable = refusesSelf("topk does not support {} dtypes on CPU", true);
  // sort.stable asserts that stable is given (None raises an internal assert
  // in 1.13; 2.14 reads None as False).
  const RuleFn sortStable = keepingShape([vi = valuesIndices(false, false)](const OpCall &c) -> RuleResult {
    if (c.isNone("stable")) return c.semantic("sort(): c10::optional<bool> for stable has to have value");
    return vi(c);
  });
  const RuleFn sortStableNoneIsFalse = keepingShape(valuesIndices(false, false));
  // topk: self's shape with dim `dim` of size k.
  const RuleFn topk = [vi = valuesIndices(false, false)](const OpCall &c) -> RuleResult {
    RuleResult r = vi(c);
    auto nd = knownDim(c, "self", "dim");
    if (!r.ok() || !nd) return r;
    auto k = c.arg("k").intValue();
    std::optional<bool> one = k ? std::optional<bool>(*k == 1) : std::nullopt;
    std::vector<Value> outs = r.takeOutputs();
    for (Value &v : outs) v = v.withUnitDims(c.arg("self").unitDims().withDim(*nd, one));
    return r.possibleError() ? RuleResult(std::move(outs), *r.possibleError()) : RuleResult(std::move(outs));
  };
  // 2.6 reads stable=None as False already, but refuses no dtype (a complex
  // or bool self is a kernel gap there unless 0-dim, as in 1.13).
  for (auto [scope, sortCheck, topkCheck, stableRule] :
       {std::tuple{original, ArgCheck(), ArgCheck(), sortStable}, std::tuple{changed, ArgCheck(), ArgCheck(), sortStableNoneIsFalse},
        std::tuple{r.since(TorchVersion::V2_14), sortable, topkable, sortStableNoneIsFalse}}) {
    auto checked = [&](const ArgCheck &check, RuleFn fn) { return check ? checks::before(check, fn) : fn; };
    addScoped(scope, "aten::sort", checked(sortCheck, keepingShape(valuesIndices(false, false))));
    addScoped(scope, "aten::sort.stable", checked(sortCheck, stableRule)).sample("stable", "True").variant({{"stable", "None"}});
    addScoped(scope, "aten::argsort", checked(sortCheck, keepingShape(always(DType::Int64))));
    addScoped(scope, "aten::argsort.stable", checked(sortCheck, keepingShape(always(DType::Int64)))).sample("stable", "True");
    addScoped(scope, "aten::topk", checked(topkCheck, topk)).sample("k", "1").variant({{"self", "sweep![2,1]"}, {"k", "1"}, {"dim", "0"}})
        .atLeast("k", 0, "selected index k out of range");
  }
  add("aten::trace", trace).sample("self", "sweep![2,2]");
  add("aten::renorm", renorm).sample("dim", "0").sample("self", "sweep[2,3]")
      .variant({{"self", "float32[2,3]"}, {"dim", "0"}, {"p", "magnitudes"}, {"maxnorm", "1"}})
      .variant({{"self", "sweep[2,3]"}, {"dim", "0"}, {"p", "2"}, {"maxnorm", "magnitudes"}});
  add("aten::renorm_", renorm).sample("dim", "0").sample("self", "sweep[2,3]");
  addScoped(original, "aten::dist", dist<true>);
  addScoped(changed, "aten::dist", dist<false>);
  add("prims::sum", primSumProd).skipConformance("1.13 CPU prims route through aten (int->int64); meta keeps the dtype");
  add("prims::prod", primSumProd).skipConformance("1.13 CPU prims route through aten (int->int64); meta keeps the dtype");
  add("prims::var", primVar).skipConformance("1.13 CPU prims route through aten; output_dtype unsupported there");
}

} // namespace

void registerReductions(Registry &r) {
  Reductions g{r};
  g.sumsMeans();
  g.extrema();
  g.cumulativeStatistics();
  g.norms();
  g.orderStatistics();
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h): a reduction drops its reduced dims, or
// keeps them as 1 with keepdim; no dim argument (or None) reduces all.
//===----------------------------------------------------------------------===//

// --- issue 35 (shapes-corpus): cov/corrcoef, sum_to_size, quantile ---

namespace {

/// cov / corrcoef: [vars, vars] squeezed (at::cov ends in squeeze()): a 2-D
/// self has a variable per row, a 1-D one a single variable (0-dim result).
/// (fweights / aweights must match the observations: left unknown.)
ShapeResult covarianceShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  if (!self || self->size() > 2) return {};
  for (const char *w : {"fweights", "aweights"})
    if (c.has(w) && !c.isNone(w)) return {};
  Dim vars = self->size() == 2 ? (*self)[0] : Dim(1);
  auto one = vars.isOne();
  if (!one) return {};
  return *one ? Dims{} : Dims{vars, vars};
}

/// sum_to_size(self, size): `size`, which must expand to self's sizes (each
/// of its dims 1 or equal to self's, aligned to the right).
ShapeResult sumToSizeShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto size = sizeListArg(c, "size");
  if (!self || !size || size->size() > self->size()) return {};
  const size_t lead = self->size() - size->size();
  for (size_t i = 0; i < size->size(); ++i) {
    const Dim &want = (*size)[i], &have = (*self)[lead + i];
    if (want.isOne() == true) continue;
    DimsEqual eq = compareDims(want, have);
    if (eq == DimsEqual::Differ && want.value() && have.value())
      return c.semantic("size {} is not expandable to size {}", dimsText(*size), dimsText(*self));
    if (eq != DimsEqual::Equal) return {};
  }
  return *size;
}

/// quantile / nanquantile: q's dims (a 1-D q: one per quantile) then self
/// reduced over dim (None: every dim; keepdim keeps them as 1); an empty
/// self raises.
ShapeResult quantileShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto keep = boolArg(c, "keepdim");
  if (!self || !keep) return {};
  if (product(*self).value() == 0) return c.semantic("quantile() input tensor must be non-empty");
  Dims out;
  if (c.isTensor("q")) {
    auto q = dimsOf(c, "q");
    if (!q || q->size() > 1) return {};
    out = *q;
  }
  Dims reduced;
  if (c.isNone("dim")) {
    if (*keep) reduced.assign(self->size(), Dim(1));
  } else {
    auto d = intArg(c, "dim");
    auto w = d ? wrapDim(*d, static_cast<int>(self->size())) : std::nullopt;
    if (!w) return {};
    reduced = *self;
    if (!reduced.empty()) {
      if (*keep) reduced[*w] = Dim(1);
      else reduced.erase(reduced.begin() + *w);
    }
  }
  out.insert(out.end(), reduced.begin(), reduced.end());
  return out;
}

void registerCorpusReductionShapes(Registry &r) {
  // aminmax: 1.13 gives [1] for a 0-dim self with a dim and keepdim (the
  // dtype rule's quirk); otherwise a reduction over dim, two results.
  r.shape("aten::aminmax", [oneDim = r.version() < TorchVersion::V2_6, reduce = reductionOver("dim", 2)](const OpCall &c) {
    auto self = dimsOf(c, "self");
    if (oneDim && self && self->empty() && !c.isNone("dim") && boolArg(c, "keepdim") == true)
      return repeatedShape(Dims{Dim(1)}, 2);
    return reduce(c);
  });
  for (const char *k : {"aten::cov", "aten::corrcoef"}) r.shape(k, covarianceShape);
  r.shape("aten::sum_to_size", sumToSizeShape);
  for (const char *k : {"aten::quantile", "aten::quantile.scalar", "aten::nanquantile", "aten::nanquantile.scalar"})
    r.shape(k, quantileShape);
}

} // namespace

void registerReductionShapes(Registry &r) {
  // prims' reductions: the dims listed go (no keepdim); an empty list as
  // primReducedRank says. Checked by python/tests (PrimsShapesTest).
  for (const char *k : {"prims::sum", "prims::prod", "prims::var"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto inp = dimsOf(c, "inp");
      auto dims = intListArg(c, "dims");
      if (!inp || !dims) return {};
      if (dims->empty() && primReducedRank(c) == Rank::exact(0)) return Dims{};
      std::vector<bool> gone(inp->size(), false);
      for (int64_t d : *dims) {
        if (d < 0 || d >= static_cast<int64_t>(inp->size()) || gone[d]) return {};
        gone[d] = true;
      }
      Dims out;
      for (size_t i = 0; i < inp->size(); ++i)
        if (!gone[i]) out.push_back((*inp)[i]);
      return out;
    });
  for (const char *k : {"aten::sum", "aten::mean", "aten::prod", "aten::all", "aten::any", "aten::max", "aten::min",
                        "aten::median", "aten::nanmedian", "aten::std", "aten::var", "aten::trace",
                        "aten::sum.dim_IntList", "aten::mean.dim", "aten::nansum", "aten::nanmean", "aten::amax",
                        "aten::amin", "aten::prod.dim_int", "aten::all.dim", "aten::any.dim", "aten::all.dims",
                        "aten::any.dims", "aten::logsumexp", "aten::std.dim", "aten::var.dim", "aten::std.correction",
                        "aten::var.correction", "aten::norm.ScalarOpt_dim", "aten::linalg_vector_norm",
                        "aten::count_nonzero", "aten::count_nonzero.dim_IntList", "aten::argmax", "aten::argmin"})
    r.shape(k, reductionOver("dim"));
  for (const char *k : {"aten::all.dims", "aten::any.dims"}) // [] reduces no dim
    r.shape(k, [over = reductionOver("dim"), same = sameShapeAs()](const OpCall &c) {
      return noDims(c.arg("dim")) ? same(c) : over(c);
    });
  for (const char *k : {"aten::max.dim", "aten::min.dim", "aten::median.dim", "aten::nanmedian.dim", "aten::mode",
                        "aten::kthvalue", "aten::std_mean", "aten::var_mean", "aten::std_mean.dim",
                        "aten::var_mean.dim", "aten::std_mean.correction", "aten::var_mean.correction"})
    r.shape(k, reductionOver("dim", 2));
  for (const char *k : {"aten::cumsum", "aten::cumprod", "aten::logcumsumexp", "aten::argsort", "aten::argsort.stable",
                        "aten::renorm"})
    r.shape(k, sameShapeAs());
  for (const char *k : {"aten::sort", "aten::sort.stable"}) r.shape(k, sameShapeAs("self", 2));
  r.shape("aten::topk", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    auto k = intArg(c, "k"), dim = intArg(c, "dim");
    if (!self || !k || !dim) return {};
    if (self->empty()) return std::vector<std::optional<Dims>>(2, *self);
    auto w = wrapDim(*dim, static_cast<int>(self->size()));
    if (!w) return {};
    (*self)[*w] = Dim(*k);
    return std::vector<std::optional<Dims>>(2, *self);
  });
  registerCorpusReductionShapes(r);
}

} // namespace dtf
