//===- ops/families/factories.cpp - arange, zeros, full, *_like, tensor ... -===//
//
// Factories take `dtype=` when given; `dtype=None` means the default dtype
// (float32), except where PyTorch infers it from a Scalar (arange, full,
// linspace with complex ends) or from an input tensor (*_like, new_*).
// Ranks come from the size list when its length is known.
//
//===----------------------------------------------------------------------===//
#include "ops/unit_dims.h"
#include "ops/registry.h"
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"
#include "ops/shape_rules.h"

#include <algorithm>

#include <cmath>

namespace dtf {
namespace {

/// Rank of a tensor built from a size list (`int[]`), top when unknown.
Rank sizeRank(const Value &size) {
  if (size.isList() && size.lengthKnown()) return Rank::exact(static_cast<int>(size.elements().size()));
  if (size.isNumber()) return Rank::exact(1);
  return Rank::top();
}

NumKind kindOf(const OpCall &c, std::string_view n) { return *c.arg(n).numKind(); }

/// `fn` with the size-1 facts of its size list (a known 1: size 1, another
/// known size: not 1) on its result. (shape_views.cpp reads view/expand
/// lists the same way.)
RuleFn sized(RuleFn fn, std::string sizeArg = "size") {
  return [fn = std::move(fn), sizeArg](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    if (auto e = sizeListError(c, sizeArg, SizeList::NewTensor); e && r.ok()) return *e;
    const Value &l = c.arg(sizeArg);
    if (!r.ok() || r.outputs().size() != 1 || !r.outputs()[0].isTensor() || !l.isList() || !l.lengthKnown() ||
        l.elements().size() > 32)
      return r;
    UnitDims u;
    for (size_t i = 0; i < l.elements().size(); ++i) {
      auto v = l.elements()[i].isNumber() ? l.elements()[i].intValue() : std::nullopt;
      if (v && *v == 1) u.ones |= uint32_t{1} << i;
      else if (v && *v >= 0) u.others |= uint32_t{1} << i;
    }
    return r.outputs()[0].withUnitDims(u);
  };
}

/// zeros / ones / empty / rand-free factories: dtype or float32.
RuleFn defaultFloat(std::string sizeArg, std::optional<int> fixedRank = std::nullopt) {
  return [=](const OpCall &c) -> RuleResult {
    DType d = c.dtypeArg("dtype").value_or(DType::Float32);
    Rank r = fixedRank ? Rank::exact(*fixedRank) : sizeRank(c.arg(sizeArg));
    return tensorOf(d, r);
  };
}

/// arange: complex ends are rejected; with dtype=None all-integer (bool
/// counts) ends give int64, any float gives the default dtype.
/// arange's and range's checks of known bounds, in ATen's order: a nonzero
/// step (NaN is not), finite start and end, end on the step's side of start
/// (range: inclusive), and for arange a length within int64. The numbers are
/// taken in the accumulate type first: int64 for an integral result (checked,
/// then truncated: arange(-0.5, dtype=int64) is empty, arange(-0.5) raises),
/// float32 for a 16-bit floating one (1e39 raises), double otherwise.
/// `signBeforeTruncation` (2.14's arange): end's side of start is checked on
/// the numbers as given (arange(-0.5, dtype=int64) raises too).
std::optional<RuleError> rangeBounds(const OpCall &c, DType d, bool inclusive, bool signBeforeTruncation = false) {
  auto known = [&](const char *n, double dflt) -> std::optional<double> {
    if (!c.has(n)) return dflt;
    return c.arg(n).floatValue();
  };
  std::optional<double> start = known("start", 0), end = known("end", 0), step = known("step", 1);
  const std::optional<double> givenStart = start, givenEnd = end;
  for (auto [n, v] : {std::pair{"start", &start}, {"end", &end}, {"step", &step}}) {
    if (isIntegral(d, true) || elementSize(d) == 2)
      if (auto e = checkedConversion(c, n, isIntegral(d, true) ? DType::Int64 : DType::Float32)) return e;
    if (*v && isIntegral(d, true)) **v = std::trunc(**v);
  }
  if (step && !(*step > 0 || *step < 0)) return c.error(ErrorKind::ValueDependent, "step must be nonzero");
  if (!start || !end) return std::nullopt;
  if (!std::isfinite(*start) || !std::isfinite(*end))
    return c.error(ErrorKind::ValueDependent, "unsupported range: {} -> {}", *start, *end);
  if (!step) return std::nullopt;
  const double lo = signBeforeTruncation ? *givenStart : *start, hi = signBeforeTruncation ? *givenEnd : *end;
  if (!((*step > 0 && hi >= lo) || (*step < 0 && hi <= lo)))
    return c.error(ErrorKind::ValueDependent, "upper bound and {} bound inconsistent with step sign",
                   inclusive ? "lower" : "larger");
  if (!inclusive && std::ceil((*end - *start) / *step) > 9.2233720368547758e18)
    return c.error(ErrorKind::ValueDependent, "invalid size, possible overflow? ({} -> {} by {})", *start, *end, *step);
  return std::nullopt;
}

RuleFn arange(std::vector<std::string> scalars, bool signBeforeTruncation) {
  return [=](const OpCall &c) -> RuleResult {
    bool anyFloat = false;
    for (const std::string &s : scalars) {
      NumKind k = kindOf(c, s);
      if (k == NumKind::Complex) return c.semantic("'{}' is complex; arange needs real numbers", s);
      if (k == NumKind::Float) anyFloat = true;
    }
    auto dt = c.dtypeArg("dtype");
    // An integral dtype truncates a fractional step; a known step that
    // truncates to zero raises.
    if (dt && isIntegral(*dt, true) && c.has("step")) {
      const Value &st = c.arg("step");
      if (auto f = st.floatValue(); f && st.numKind() == NumKind::Float && static_cast<int64_t>(*f) == 0)
        return c.error(ErrorKind::ValueDependent, "step {} truncates to zero for {}", *f, name(*dt));
    }
    DType d = dt.value_or(anyFloat ? DType::Float32 : DType::Int64);
    if (auto e = rangeBounds(c, d, /*inclusive=*/false, signBeforeTruncation)) return *e;
    return tensorOf(d, Rank::exact(1));
  };
}

/// The dtype a fill value gives when dtype=None (full, tensor(number)).
DType inferredFromNumber(NumKind k) {
  switch (k) {
  case NumKind::Bool: return DType::Bool;
  case NumKind::Int: return DType::Int64;
  case NumKind::Float: return DType::Float32;
  case NumKind::Complex: return DType::Complex64;
  }
  return DType::Float32;
}

RuleResult full(const OpCall &c) {
  DType d = c.dtypeArg("dtype").value_or(inferredFromNumber(kindOf(c, "fill_value")));
  if (auto e = checkedFill(c, "fill_value", d, sizeRank(c.arg("size")))) return *e;
  return tensorOf(d, sizeRank(c.arg("size")));
}

/// Whether a linspace bound is complex. 2.14's Tensor_Tensor, Tensor_Scalar
/// and Scalar_Tensor overloads take a bound as a 0-dim tensor and read it
/// with item() (measured: a complex tensor of either width counts as a
/// complex bound, any other dtype as a real one; its value is unknown here).
bool complexBound(const OpCall &c, std::string_view bound) {
  if (c.isTensor(bound)) return isComplex(c.dtype(bound));
  return kindOf(c, bound) == NumKind::Complex;
}

/// linspace / logspace: a complex end makes the default complex64; a
/// complex end with a real dtype raises.
RuleResult linspace(const OpCall &c) {
  for (const char *bound : {"start", "end"})
    if (c.isTensor(bound) && !c.rank(bound).mayBeZero())
      return c.semantic("only supports 0-dimensional start and end tensors");
  bool cplx = complexBound(c, "start") || complexBound(c, "end");
  auto dt = c.dtypeArg("dtype");
  if (cplx && dt && !isComplex(*dt))
    return c.semantic("complex start/end need a complex dtype, got {}", name(*dt));
  DType d = dt.value_or(cplx ? DType::Complex64 : DType::Float32);
  if (auto n = c.arg("steps").intValue(); n && *n < 0)
    return c.error(ErrorKind::ValueDependent, "number of steps must be non-negative, got {}", *n);
  for (const char *bound : {"start", "end"}) // a number is converted into the result's dtype
    if (!c.isTensor(bound))
      if (auto e = checkedConversion(c, bound, d)) return *e;
  return tensorOf(d, Rank::exact(1));
}

/// The `_out` forms of linspace/logspace with tensor bounds: out's dtype,
/// resized to 1-D (measured, 2.14). A bool out has no CPU kernel; a number
/// bound is converted into out's dtype (1j into a real one overflows), a
/// tensor bound's value is unknown here (a complex one of imaginary part 0
/// fills a real out).
RuleResult linspaceOut(const OpCall &c) {
  for (const char *bound : {"start", "end"})
    if (c.isTensor(bound) && !c.rank(bound).mayBeZero())
      return c.semantic("only supports 0-dimensional start and end tensors");
  DType d = c.dtype("out");
  if (d == DType::Bool) return c.missingKernel("\"{}_cpu\" not implemented for 'Bool'", c.schema().name.substr(6));
  if (auto n = c.arg("steps").intValue(); n && *n < 0)
    return c.error(ErrorKind::ValueDependent, "number of steps must be non-negative, got {}", *n);
  for (const char *bound : {"start", "end"})
    if (!c.isTensor(bound))
      if (auto e = checkedConversion(c, bound, d)) return *e;
  return tensorOf(d, Rank::exact(1));
}

/// Window functions: dtype must be floating or complex (default float32).
RuleResult window(const OpCall &c) {
  DType d = c.dtypeArg("dtype").value_or(DType::Float32);
  if (!isFloating(d) && !isComplex(d))
    return c.semantic("expected a floating point or complex dtype, got {}", name(d));
  return tensorOf(d, Rank::exact(1));
}

/// zeros_like & co: self's dtype unless dtype=.
RuleResult likeSelf(const OpCall &c) {
  return tensorOf(c.dtypeArg("dtype").value_or(c.dtype("self")), c.rank("self"));
}

/// new_zeros & co: self's dtype unless dtype=, rank from size.
RuleResult newLike(const OpCall &c) {
  return tensorOf(c.dtypeArg("dtype").value_or(c.dtype("self")), sizeRank(c.arg("size")));
}

/// full_like / new_full: as likeSelf / newLike, checking the fill value.
RuleFn withFill(RuleFn f) {
  return [f](const OpCall &c) -> RuleResult {
    RuleResult r = f(c);
    if (!r.ok()) return r;
    if (auto d = r.outputs()[0].dtype())
      if (auto e = checkedFill(c, "fill_value", *d, r.outputs()[0].rank())) return *e;
    return r;
  };
}

/// tril_indices / triu_indices: int64 by default (also for an explicit None).
RuleResult triIndices(const OpCall &c) {
  for (const char *n : {"row", "col"})
    if (auto v = c.arg(n).intValue(); v && *v < 0)
      return c.error(ErrorKind::ValueDependent, "{} must be non-negative, got {}", n, *v);
  return tensorOf(c.dtypeArg("dtype").value_or(DType::Int64), Rank::exact(2));
}

/// scalar_tensor: the default dtype whatever the number's kind.
/// scalar_tensor: s is written into one element, as a fill of a 0-dim tensor.
RuleResult scalarTensor(const OpCall &c) {
  DType d = c.dtypeArg("dtype").value_or(DType::Float32);
  if (auto e = checkedFill(c, "s", d, Rank::exact(0))) return *e;
  return tensorOf(d, Rank::exact(0));
}

/// aten::tensor.{bool,int,float,complex}: by the Python kind, rank 0.
/// aten::tensor's requires_grad=True: only floating and complex tensors
/// can require gradients.
std::optional<RuleError> requiresGradCheck(const OpCall &c, DType d) {
  if (!c.has("requires_grad")) return std::nullopt;
  auto rg = c.arg("requires_grad").boolValue();
  if (rg && *rg && !isFloating(d) && !isComplex(d))
    return c.semantic("only tensors of floating point and complex dtype can require gradients, got {}", name(d));
  return std::nullopt;
}

RuleFn tensorOfNumber(DType byKind) {
  return [=](const OpCall &c) -> RuleResult {
    DType d = c.dtypeArg("dtype").value_or(byKind);
    if (auto e = requiresGradCheck(c, d)) return *e;
    return tensorOf(d, Rank::exact(0));
  };
}

/// aten::tensor(t[] data): nesting depth = rank; the leaf kind gives the
/// dtype (bool, int64, float32); complex lists are rejected by TorchScript,
/// and so are leaves that are not numbers (a list of tensors).
struct ListShape {
  std::optional<int> depth;
  std::optional<NumKind> kind;
  bool complexLeaf = false;
  bool nonNumberLeaf = false;
};

/// Depth and leaf kind from the value itself (the schema says `t[]`).
ListShape listShapeOfValue(const Value &v) {
  ListShape out;
  if (v.isNumber()) {
    out.depth = 0;
    if (auto k = v.numKind()) {
      if (*k == NumKind::Complex) out.complexLeaf = true;
      else out.kind = k;
    }
    return out;
  }
  if (!v.isList()) {
    out.nonNumberLeaf = !v.isTop() && !v.isBottom();
    return out;
  }
  Value s = v.elementSummary();
  if (s.isBottom()) return out; // empty list: the leaf type is only static
  ListShape inner = listShapeOfValue(s);
  if (inner.depth) out.depth = *inner.depth + 1;
  out.kind = inner.kind;
  out.complexLeaf = inner.complexLeaf;
  out.nonNumberLeaf = inner.nonNumberLeaf;
  return out;
}

RuleResult tensorFromList(const OpCall &c) {
  ListShape ls = listShapeOfValue(c.arg("data"));
  if (ls.complexLeaf) return c.semantic("complex lists are not supported by aten::tensor");
  if (ls.nonNumberLeaf) return c.semantic("input must be of ints, floats, or bools");
  Rank r = ls.depth ? Rank::exact(*ls.depth) : Rank::top();
  if (!c.isNone("dtype") || ls.kind) {
    DType d = c.isNone("dtype") ? inferredFromNumber(*ls.kind) : *c.dtypeArg("dtype");
    if (auto e = requiresGradCheck(c, d)) return *e;
    return tensorOf(d, r);
  }
  return Value::tensor(DTypeSet::all(), r);
}

/// prim::NumToTensor: the number's own precision (float -> float64,
/// complex -> complex128), rank 0.
RuleResult numToTensor(const OpCall &c) {
  const Value &a = c.arg("a");
  DType d = DType::Float64;
  if (a.isNumber() && a.numKind()) {
    switch (*a.numKind()) {
    case NumKind::Bool: d = DType::Bool; break;
    case NumKind::Int: d = DType::Int64; break;
    case NumKind::Float: d = DType::Float64; break;
    case NumKind::Complex: d = DType::Complex128; break;
    }
  }
  return tensorOf(d, Rank::exact(0));
}

RuleResult oneHot(const OpCall &c) {
  DType s = c.dtype("self");
  if (s != DType::Int64) return c.semantic("one_hot is only applicable to index tensor (int64), got {}", name(s));
  Rank r = c.rank("self");
  if (auto n = r.value()) return tensorOf(DType::Int64, Rank::exact(*n + 1));
  return tensorOf(DType::Int64, Rank::atLeast1());
}

/// range(start, end, step, dtype): the deprecated inclusive arange; float32
/// unless dtype= says otherwise (ints too, unlike arange); no Bool, Half or
/// complex kernel.
RuleResult rangeRule(const OpCall &c) {
  for (const char *a : {"start", "end", "step"})
    if (c.has(a) && c.arg(a).numKind() == NumKind::Complex) return c.semantic("range: {} must be real", a);
  DType d = c.dtypeArg("dtype").value_or(DType::Float32);
  if (d == DType::Bool || isComplex(d) || c.lacksCpuKernel(CpuKernel::Range, d))
    return c.missingKernel("\"range_cpu\" not implemented for {}", name(d));
  if (auto e = rangeBounds(c, d, /*inclusive=*/true)) return *e;
  return tensorOf(d, Rank::exact(1));
}


/// _dim_arange(like, dim) = arange(like.size(dim)) as int64 (the tracer's
/// form of `torch.arange(x.size(d))`), whatever like's dtype: rank 1, of
/// like's size-1 fact at dim. A 0-dim `like` has no dim to size (any dim
/// raises); another dim must name one of like's (measured on 1.13).
RuleResult dimArange(const OpCall &c) {
  Rank lr = c.rank("like");
  auto dim = c.arg("dim").intValue();
  if (lr == Rank::exact(0))
    return c.semantic("dimension specified as {} but tensor has no dimensions", dim ? std::to_string(*dim) : "?");
  Value out = tensorOf(DType::Int64, Rank::exact(1));
  auto rk = lr.value();
  if (!rk || !dim) return out;
  auto d = wrapDim(*dim, *rk); // rk >= 1 here
  if (!d)
    return c.semantic("dimension out of range (expected to be in range of [{}, {}], but got {})", -*rk, *rk - 1, *dim);
  return out.withUnitDims(c.arg("like").unitDims().dimAsFirst(*d));
}

/// arange / range, zeros / ones / empty / full (and their .names forms), eye.
void registerSizedFactories(Registry &r) {
  const std::string fam = "factory";
  // (bounds: the "magnitudes" include 0, negatives, NaN, -inf and 1e39)
  for (auto [scope, signFirst] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_14), true}}) {
    scope.add("aten::arange", fam, arange({"end"}, signFirst)).sample("end", "sweep")
        .variant({{"end", "magnitudes"}, {"dtype", "sweep"}});
    scope.add("aten::arange.start", fam, arange({"start", "end"}, signFirst)).sample("start", "0").sample("end", "sweep")
        .variant({{"start", "sweep"}, {"end", "5"}})
        .variant({{"start", "magnitudes"}, {"end", "5"}, {"dtype", "sweep"}})
        .variant({{"start", "0.5"}, {"end", "0.25"}, {"dtype", "sweep"}});
    scope.add("aten::arange.start_step", fam, arange({"start", "end", "step"}, signFirst))
        .sample("start", "0").sample("end", "5").sample("step", "sweep")
        .variant({{"start", "sweep"}, {"end", "5"}, {"step", "1"}})
        .variant({{"start", "0"}, {"end", "5"}, {"step", "magnitudes"}, {"dtype", "sweep"}})
        .variant({{"start", "5"}, {"end", "magnitudes"}, {"step", "-1"}});
  }
  r.add("aten::range", fam, rangeRule).sample("start", "0").sample("end", "sweep").variant({{"start", "sweep"}, {"end", "5"}})
      .variant({{"start", "magnitudes"}, {"end", "5"}, {"dtype", "sweep"}});
  r.add("aten::range.step", fam, rangeRule).sample("start", "0").sample("end", "5").sample("step", "sweep")
      .variant({{"start", "sweep"}, {"end", "5"}, {"step", "1"}})
      .variant({{"start", "0"}, {"end", "5"}, {"step", "magnitudes"}});
  r.add("aten::zeros", fam, sized(defaultFloat("size"))).sample("size", "[2,3]").variant({{"size", "[1,2,1]"}})
      .variant({{"size", "[2,-1]"}}).variant({{"size", "[4611686018427387904,4]"}});
  r.add("aten::ones", fam, sized(defaultFloat("size"))).sample("size", "[2,3]").variant({{"size", "[1,2,1]"}});
  // empty's memory_format: preserve_format has no meaning without a tensor;
  // channels_last needs 4 sizes, channels_last_3d 5 (c10 codes 1, 2, 3).
  const ArgCheck emptyFormat = [](const OpCall &c) -> std::optional<RuleError> {
    auto format = c.arg("memory_format").intValue();
    if (format == 1) return c.semantic("unsupported memory format Preserve");
    const Value &size = c.arg("size");
    if ((format == 2 || format == 3) && size.isList() && size.lengthKnown()) {
      const size_t need = *format == 2 ? 4 : 5;
      if (size.elements().size() != need)
        return c.semantic("required rank {} tensor to use {} format", need, *format == 2 ? "channels_last" : "channels_last_3d");
    }
    return std::nullopt;
  };
  // 2.x: empty with a physical layout (a permutation of the dims).
  r.add("aten::empty_permuted", fam, sized(defaultFloat("size"))).sample("size", "[2,3]").sample("physical_layout", "[1,0]");
  r.add("aten::empty.memory_format", fam, sized(defaultFloat("size"))).sample("size", "[2,3]").variant({{"size", "[1,2]"}})
      .refuse(emptyFormat, {{"memory_format", "preserve_format"}})
      .variant({{"size", "[2,3]"}, {"memory_format", "channels_last"}})
      .variant({{"size", "[1,2,3,4]"}, {"memory_format", "channels_last"}})
      .variant({{"size", "[1,2,3,4]"}, {"memory_format", "channels_last_3d"}})
      .variant({{"size", "[1,2,3,4,5]"}, {"memory_format", "channels_last_3d"}})
      .variant({{"size", "[2,3]"}, {"memory_format", "contiguous_format"}});
  r.add("aten::empty_strided", fam, sized(defaultFloat("size"))).sample("size", "[2,3]").sample("stride", "[3,1]")
      .variant({{"size", "[2,-1]"}, {"stride", "[1,1]"}});
  r.add("aten::full", fam, sized(full)).sample("size", "[2,3]").variant({{"size", "[1,2,1]"}})
      .variant({{"size", "[2]"}, {"fill_value", "magnitudes"}, {"dtype", "sweep"}})
      .variant({{"size", "[]"}, {"fill_value", "magnitudes"}, {"dtype", "sweep"}});
  // The named-tensor overloads: a trace's `None` names/generator argument can resolve to
  // them (the tie is joined), and names never change the dtype.
  r.add("aten::zeros.names", fam, sized(defaultFloat("size"))).sample("size", "[2,3]").sample("names", "None");
  r.add("aten::ones.names", fam, sized(defaultFloat("size"))).sample("size", "[2,3]").sample("names", "None");
  r.add("aten::empty.names", fam, sized(defaultFloat("size"))).sample("size", "[2,3]").sample("names", "None");
  r.add("aten::full.names", fam, sized(full)).sample("size", "[2,3]").sample("names", "None");
  // eye: n and m must not be negative (value-dependent)
  RuleFn eye = [f = defaultFloat("", 2)](const OpCall &c) -> RuleResult {
    for (const char *n : {"n", "m"})
      if (auto v = c.has(n) ? c.arg(n).intValue() : std::nullopt; v && *v < 0)
        return c.error(ErrorKind::ValueDependent, "{} must be greater or equal to 0, got {}", n, *v);
    return f(c);
  };
  r.add("aten::eye", fam, eye).sample("n", "3").variant({{"n", "-1"}}).variant({{"n", "0"}});
  r.add("aten::eye.m", fam, eye).sample("n", "3").sample("m", "2").variant({{"n", "3"}, {"m", "-1"}})
      .variant({{"n", "0"}, {"m", "4"}});
}

/// linspace / logspace, with number or 0-dim tensor bounds, and their out forms.
void registerSpacedFactories(Registry &r) {
  const std::string fam = "factory";
  r.add("aten::linspace", fam, linspace).sample("steps", "4").variant({{"start", "0"}, {"steps", "4"}})
      .variant({{"start", "magnitudes"}, {"end", "0"}, {"steps", "4"}, {"dtype", "sweep"}})
      .variant({{"start", "0"}, {"end", "1"}, {"steps", "-1"}});
  r.add("aten::logspace", fam, linspace).sample("steps", "4").variant({{"start", "0"}, {"steps", "4"}})
      .variant({{"start", "magnitudes"}, {"end", "0"}, {"steps", "4"}, {"dtype", "sweep"}});
  // The bounds as 0-dim tensors (new in 2.14): swept at rank 0 and 1 (1: raises).
  for (const char *k : {"aten::linspace.Tensor_Tensor", "aten::logspace.Tensor_Tensor"})
    r.add(k, fam, linspace).sample("start", "sweep![]").sample("end", "sweep").sample("steps", "4")
        .variant({{"start", "float64[]"}, {"end", "complex64[]"}, {"steps", "4"}, {"dtype", "sweep"}});
  for (const char *k : {"aten::linspace.Tensor_Scalar", "aten::logspace.Tensor_Scalar"})
    r.add(k, fam, linspace).sample("start", "sweep").sample("steps", "4")
        .variant({{"start", "sweep![]"}, {"end", "0"}, {"steps", "4"}, {"dtype", "sweep"}});
  for (const char *k : {"aten::linspace.Scalar_Tensor", "aten::logspace.Scalar_Tensor"})
    r.add(k, fam, linspace).sample("end", "sweep").sample("steps", "4")
        .variant({{"start", "magnitudes"}, {"end", "int64[]"}, {"steps", "4"}, {"dtype", "sweep"}});
  // Their out forms: every out dtype with float32 bounds, every bound dtype into a float32 out.
  struct Bounds { const char *key; bool startTensor, endTensor; };
  for (const Bounds &b : std::vector<Bounds>{{"aten::linspace.Tensor_Tensor_out", true, true},
                                             {"aten::logspace.Tensor_Tensor_out", true, true},
                                             {"aten::linspace.Tensor_Scalar_out", true, false},
                                             {"aten::logspace.Tensor_Scalar_out", true, false},
                                             {"aten::linspace.Scalar_Tensor_out", false, true},
                                             {"aten::logspace.Scalar_Tensor_out", false, true}}) {
    auto e = r.add(b.key, fam, linspaceOut).sample("steps", "4").sample("out", "sweep![4]");
    std::map<std::string, std::string, std::less<>> swept = {{"steps", "4"}, {"out", "float32[4]"}};
    for (auto [arg, tensor] : {std::pair{"start", b.startTensor}, std::pair{"end", b.endTensor}})
      if (tensor) {
        e.sample(arg, "float32[]");
        swept[arg] = "sweep";
      }
    e.variant(swept);
  }
}

/// scalar_tensor, the window functions, *_like, new_*, tril/triu_indices.
void registerWindowsAndLikes(Registry &r) {
  const std::string fam = "factory";
  r.add("aten::scalar_tensor", fam, scalarTensor).variant({{"s", "magnitudes"}, {"dtype", "sweep"}});
  for (const char *w : {"aten::hann_window", "aten::hamming_window", "aten::blackman_window",
                        "aten::bartlett_window", "aten::kaiser_window"})
    r.add(w, fam, window).sample("window_length", "4").atLeast("window_length", 0, "requires non-negative window_length");
  for (const char *w : {"aten::hann_window.periodic", "aten::hamming_window.periodic",
                        "aten::blackman_window.periodic", "aten::bartlett_window.periodic",
                        "aten::kaiser_window.periodic"})
    r.add(w, fam, window).sample("window_length", "4").sample("periodic", "True")
        .atLeast("window_length", 0, "requires non-negative window_length");
  r.add("aten::hamming_window.periodic_alpha", fam, window)
      .sample("window_length", "4").sample("periodic", "True").sample("alpha", "0.5")
      .atLeast("window_length", 0, "requires non-negative window_length");
  r.add("aten::hamming_window.periodic_alpha_beta", fam, window)
      .sample("window_length", "4").sample("periodic", "True").sample("alpha", "0.5").sample("beta", "0.5")
      .atLeast("window_length", 0, "requires non-negative window_length");
  r.add("aten::kaiser_window.beta", fam, window)
      .sample("window_length", "4").sample("periodic", "True").sample("beta", "12.0")
      .atLeast("window_length", 0, "requires non-negative window_length");
  for (const char *k : {"aten::zeros_like", "aten::ones_like", "aten::empty_like", "aten::full_like"})
    r.declare(k, OpFact::MemoryFormatKeepsShape);
  for (const char *k : {"aten::zeros_like", "aten::ones_like", "aten::empty_like"}) r.add(k, fam, keepingShape(likeSelf));
  r.add("aten::full_like", fam, keepingShape(withFill(likeSelf)))
      .variant({{"self", "sweep![2]"}, {"fill_value", "magnitudes"}})
      .variant({{"self", "sweep![]"}, {"fill_value", "magnitudes"}});
  for (const char *k : {"aten::new_zeros", "aten::new_ones", "aten::new_empty"})
    r.add(k, fam, sized(newLike)).sample("size", "[2,3]").variant({{"size", "[1,2]"}});
  r.add("aten::new_full", fam, sized(withFill(newLike))).sample("size", "[2,3]").variant({{"size", "[2,1]"}})
      .variant({{"self", "sweep![2]"}, {"fill_value", "magnitudes"}});
  r.add("aten::new_empty_strided", fam, sized(newLike)).sample("size", "[2,3]").sample("stride", "[3,1]");
  r.add("aten::tril_indices", fam, triIndices).sample("row", "3").sample("col", "3")
      .variant({{"row", "-1"}, {"col", "3"}})
      .variant({{"row", "4"}, {"col", "6"}, {"offset", "2"}}).variant({{"row", "5"}, {"col", "3"}, {"offset", "-2"}});
  r.add("aten::triu_indices", fam, triIndices).sample("row", "3").sample("col", "3")
      .variant({{"row", "4"}, {"col", "6"}, {"offset", "2"}}).variant({{"row", "5"}, {"col", "3"}, {"offset", "-2"}});
}

/// tensor / as_tensor from numbers and lists, NumToTensor, _shape_as_tensor, _dim_arange, one_hot.
void registerTensorsFromValues(Registry &r) {
  const std::string fam = "factory";
  r.add("aten::tensor", fam, tensorFromList);
  r.add("aten::tensor.bool", fam, tensorOfNumber(DType::Bool)).sample("t", "True")
      .variant({{"requires_grad", "True"}});
  r.add("aten::tensor.int", fam, tensorOfNumber(DType::Int64)).sample("t", "2").variant({{"requires_grad", "True"}});
  r.add("aten::tensor.float", fam, tensorOfNumber(DType::Float32)).sample("t", "2.5");
  r.add("aten::tensor.complex", fam, tensorOfNumber(DType::Complex64)).sample("t", "1j");
  // as_tensor: the same as tensor() for numbers and lists; a tensor is kept (or cast to dtype=).
  r.add("aten::as_tensor.list", fam, tensorFromList);
  r.add("aten::as_tensor.bool", fam, tensorOfNumber(DType::Bool)).sample("t", "True");
  r.add("aten::as_tensor.int", fam, tensorOfNumber(DType::Int64)).sample("t", "2");
  r.add("aten::as_tensor.float", fam, tensorOfNumber(DType::Float32)).sample("t", "2.5");
  r.add("aten::as_tensor.complex", fam, tensorOfNumber(DType::Complex64)).sample("t", "1j");
  r.add("aten::as_tensor", fam, [](const OpCall &c) -> RuleResult {
    return tensorOf(c.dtypeArg("dtype").value_or(c.dtype("data")), c.rank("data"));
  });
  r.add("prim::NumToTensor.Scalar", fam, numToTensor);
  r.add("prim::NumToTensor.bool", fam, numToTensor).sample("a", "True").variant({{"a", "False"}});
  r.add("aten::_shape_as_tensor", fam, [](const OpCall &) -> RuleResult { return tensorOf(DType::Int64, Rank::exact(1)); });
  r.add("aten::_dim_arange", fam, dimArange).sample("like", "sweep[2,3]").sample("dim", "0")
      .variant({{"like", "sweep[2,3]"}, {"dim", "-1"}}).variant({{"like", "sweep[2,3]"}, {"dim", "2"}})
      .variant({{"like", "sweep[2,3]"}, {"dim", "-3"}}).variant({{"like", "sweep![2,1]"}, {"dim", "1"}});
  // num_classes 0 or below -1 raises for any index tensor (empty included).
  r.add("aten::one_hot", fam, oneHot).sample("num_classes", "3").variant({{"self", "int64[2,3]=1"}, {"num_classes", "4"}})
      .variant({{"self", "int64[2,3]=1"}, {"num_classes", "-1"}})
      .refuse([](const OpCall &c) -> std::optional<RuleError> {
         auto n = c.arg("num_classes").intValue();
         if (!n || *n == -1 || *n > 0) return std::nullopt;
         return c.error(ErrorKind::ValueDependent, "Class values must be smaller than num_classes, got num_classes={}", *n);
       }, {{"num_classes", "0"}}).variant({{"num_classes", "-2"}});
}

} // namespace

void registerFactories(Registry &r) {
  registerSizedFactories(r);
  registerSpacedFactories(r);
  registerWindowsAndLikes(r);
  registerTensorsFromValues(r);
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h)
//===----------------------------------------------------------------------===//

namespace {

/// A factory's sizes from its size list (a negative size raises).
ShapeResult fromSizeList(const OpCall &c, std::string_view arg) {
  auto sizes = newTensorSizes(c, arg);
  return sizes ? ShapeResult(*sizes) : ShapeResult{};
}

/// at::arange's length from known start/end/step (RangeFactories.cpp):
/// an int64 result with integral bounds computes in int64, float16/bfloat16
/// in float, the others in double.
ShapeResult symbolicArangeShape(const OpCall &c, DType out);
ShapeResult arangeShape(const OpCall &c) {
  const Value &dt = c.arg("dtype");
  std::optional<DType> out;
  auto isInt = [&](std::string_view n) { return !c.has(n) || c.arg(n).numKind() == NumKind::Int; };
  if (dt.isNone()) {
    const bool known = c.arg("end").numKind() && (!c.has("start") || c.arg("start").numKind()) &&
                       (!c.has("step") || c.arg("step").numKind());
    if (known) out = isInt("start") && isInt("end") && isInt("step") ? DType::Int64 : DType::Float32; // the default dtype
  } else if (auto code = dt.intValue()) {
    out = c.types().fromC10Code(*code);
  }
  if (!out || !(isIntegral(*out) || isFloating(*out))) return {};
  auto num = [&](std::string_view n, double dflt) -> std::optional<double> {
    return c.has(n) ? c.arg(n).floatValue() : std::optional<double>(dflt);
  };
  auto start = num("start", 0), end = num("end", 0), step = num("step", 1);
  if (!start || !end || !step) return symbolicArangeShape(c, *out);
  for (double v : {*start, *end, *step}) // no conversion of a huge or non-finite bound (PyTorch raises)
    if (!(std::abs(v) < 4e18)) return {};
  double size;
  if (*out == DType::Int64) {
    // Versions differ on non-integral bounds (measured: arange(2.5, dtype=int64) has 2 elements in
    // 1.13 and 2.6, 3 in 2.14); only integral ones are answered.
    for (double v : {*start, *end, *step})
      if (std::trunc(v) != v) return {};
    auto s = static_cast<int64_t>(*start), e = static_cast<int64_t>(*end), st = static_cast<int64_t>(*step);
    if (st == 0) return {};
    size = std::ceil(static_cast<double>(e - s) / static_cast<double>(st));
  } else if (*out == DType::Float16 || *out == DType::BFloat16) {
    float s = static_cast<float>(*start), e = static_cast<float>(*end), st = static_cast<float>(*step);
    if (st == 0) return {};
    size = std::ceil(static_cast<double>(e - s) / st);
  } else {
    if (*step == 0) return {};
    size = std::ceil((*end - *start) / *step);
  }
  if (!(size >= 0) || size > 9e15) return {}; // a wrong-signed step raises
  return Dims{Dim(static_cast<int64_t>(size))};
}

/// arange's length when its bounds are ints and some symbolic (`arange(x.size(0))`, `arange(1,
/// s0)`): ceil((end - start) / step) for a known int step, exact in every dtype's arithmetic but
/// float16/bfloat16's (float: exact below 2^24 only). Answered where end - start has step's sign
/// for every value of the symbols (PyTorch raises otherwise), else unknown.
ShapeResult symbolicArangeShape(const OpCall &c, DType out) {
  if (out == DType::Float16 || out == DType::BFloat16) return {};
  auto bound = [&](std::string_view n) { return c.has(n) ? symIntArg(c, n) : Dim(0); };
  const Dim start = bound("start"), end = bound("end");
  const std::optional<int64_t> step = c.has("step") ? c.arg("step").intValue() : std::optional<int64_t>(1);
  if (!start.known() || !end.known() || !step || *step == 0 || *step == INT64_MIN) return {};
  const Dim span = *step > 0 ? end - start : start - end;
  if (!span.known() || span.expr()->range().lo < 0) return {};
  const int64_t k = *step > 0 ? *step : -*step;
  return Dims{floorDiv(span + Dim(k - 1), Dim(k))};
}

/// at::range's length (RangeFactories.cpp): ((end - start) / step) + 1,
/// truncated, computed in the result's accumulate type (int64 for integral
/// results, float for float16/bfloat16, double otherwise). Integral results
/// are answered for integral bounds only (a fractional bound converts).
ShapeResult rangeShape(const OpCall &c) {
  const DType out = c.dtypeArg("dtype").value_or(DType::Float32);
  if (!(isIntegral(out, false) || isFloating(out))) return {};
  auto num = [&](std::string_view n, double dflt) -> std::optional<double> {
    return c.has(n) ? c.arg(n).floatValue() : std::optional<double>(dflt);
  };
  auto start = num("start", 0), end = num("end", 0), step = num("step", 1);
  if (!start || !end || !step) return {};
  for (double v : {*start, *end, *step})
    if (!(std::abs(v) < 4e15)) return {};
  double size;
  if (isIntegral(out, false)) {
    for (double v : {*start, *end, *step})
      if (std::trunc(v) != v) return {};
    auto s = static_cast<int64_t>(*start), e = static_cast<int64_t>(*end), st = static_cast<int64_t>(*step);
    if (st == 0) return {};
    size = static_cast<double>((e - s) / st + 1);
  } else if (out == DType::Float16 || out == DType::BFloat16) {
    float s = static_cast<float>(*start), e = static_cast<float>(*end), st = static_cast<float>(*step);
    if (st == 0) return {};
    size = std::trunc(static_cast<double>((e - s) / st + 1.0f));
  } else {
    if (*step == 0) return {};
    size = std::trunc((*end - *start) / *step + 1);
  }
  if (!(size >= 0)) return {}; // a step of the wrong sign raises (the dtype rule's check)
  return Dims{Dim(static_cast<int64_t>(size))};
}

} // namespace

void registerFactoryShapes(Registry &r) {
  for (const char *k : {"aten::zeros", "aten::ones", "aten::empty.memory_format", "aten::full", "aten::zeros.names",
                        "aten::ones.names", "aten::empty.names", "aten::full.names", "aten::empty_strided"})
    r.shape(k, [](const OpCall &c) { return fromSizeList(c, "size"); });
  for (const char *k : {"aten::new_zeros", "aten::new_ones", "aten::new_empty", "aten::new_full",
                        "aten::new_empty_strided"})
    r.shape(k, [](const OpCall &c) { return fromSizeList(c, "size"); });
  for (const char *k : {"aten::zeros_like", "aten::ones_like", "aten::empty_like", "aten::full_like"})
    r.shape(k, sameShapeAs());
  for (const char *k : {"aten::arange", "aten::arange.start", "aten::arange.start_step"}) r.shape(k, arangeShape);
  // tril_indices / triu_indices: [2, the number of (i, j) below / above the offset diagonal].
  for (bool upper : {false, true})
    r.shape(upper ? "aten::triu_indices" : "aten::tril_indices", [upper](const OpCall &c) -> ShapeResult {
      auto row = intArg(c, "row"), col = intArg(c, "col"), offset = intArg(c, "offset");
      if (!row || !col || !offset || *row < 0 || *col < 0 || *row > (int64_t{1} << 16) || *col > (int64_t{1} << 40) ||
          *offset < -(int64_t{1} << 40) || *offset > (int64_t{1} << 40))
        return {};
      // Lower part: j - i <= offset; upper: j - i >= offset, the rest of offset - 1's lower part.
      auto lower = [&](int64_t k) {
        int64_t n = 0;
        for (int64_t i = 0; i < *row; ++i) n += std::clamp<int64_t>(i + k + 1, 0, *col);
        return n;
      };
      int64_t count = upper ? *row * *col - lower(*offset - 1) : lower(*offset);
      return Dims{Dim(2), Dim(count)};
    });
  // eye(n, m = n): [n, m]; linspace / logspace: [steps] (issue 35,
  // shapes-corpus). A negative count raises (the dtype rules' checks).
  for (const char *k : {"aten::eye", "aten::eye.m"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      Dim n = symIntArg(c, "n"), m = c.has("m") ? symIntArg(c, "m") : n;
      for (const Dim &d : {n, m})
        if (!d.known() || d.value().value_or(0) < 0) return {};
      return Dims{n, m};
    });
  for (const char *k : {"aten::linspace", "aten::logspace", "aten::linspace.Tensor_Tensor", "aten::logspace.Tensor_Tensor",
                        "aten::linspace.Tensor_Scalar", "aten::logspace.Tensor_Scalar", "aten::linspace.Scalar_Tensor",
                        "aten::logspace.Scalar_Tensor", "aten::linspace.Tensor_Tensor_out", "aten::logspace.Tensor_Tensor_out",
                        "aten::linspace.Tensor_Scalar_out", "aten::logspace.Tensor_Scalar_out",
                        "aten::linspace.Scalar_Tensor_out", "aten::logspace.Scalar_Tensor_out"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      Dim steps = symIntArg(c, "steps");
      if (!steps.known() || steps.value().value_or(0) < 0) return {};
      return Dims{steps};
    });
  // Window functions: [window_length] (a negative length raises: the dtype rule's check).
  for (const char *k : {"aten::hann_window", "aten::hamming_window", "aten::blackman_window", "aten::bartlett_window",
                        "aten::kaiser_window", "aten::hann_window.periodic", "aten::hamming_window.periodic",
                        "aten::blackman_window.periodic", "aten::bartlett_window.periodic", "aten::kaiser_window.periodic",
                        "aten::hamming_window.periodic_alpha", "aten::hamming_window.periodic_alpha_beta",
                        "aten::kaiser_window.beta"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      Dim n = symIntArg(c, "window_length");
      if (!n.known() || n.value().value_or(0) < 0) return {};
      return Dims{n};
    });
  for (const char *k : {"aten::range", "aten::range.step"}) r.shape(k, rangeShape);
  // _dim_arange(like, dim): arange(like.size(dim)); _shape_as_tensor: one int per dim of self.
  r.shape("aten::_dim_arange", [](const OpCall &c) -> ShapeResult {
    auto at = dimsAndDim(c, "like", intArg(c, "dim"));
    return at ? ShapeResult(Dims{at->dims[at->dim]}) : ShapeResult{};
  });
  r.shape("aten::_shape_as_tensor", [](const OpCall &c) -> ShapeResult {
    auto rank = c.rank("self").value();
    return rank ? ShapeResult(Dims{Dim(*rank)}) : ShapeResult{};
  });
  // empty_permuted: its sizes (the layout orders only the strides).
  r.shape("aten::empty_permuted", [](const OpCall &c) { return fromSizeList(c, "size"); });
  // one_hot: self's sizes and num_classes (-1: the largest value + 1, not known).
  r.shape("aten::one_hot", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    auto n = intArg(c, "num_classes");
    if (!self || !n || (*n != -1 && *n <= 0)) return {};
    self->push_back(*n == -1 ? Dim() : Dim(*n));
    return *self;
  });
}

} // namespace dtf
