//===- ops/families/conv_linear.cpp - convolutions and linear algebra ----===//
//
// Matmul-like and convolution ops do not promote: their operands must share
// one dtype (CPU: "expected scalar type Float but found Double", "self and
// mat2 must have the same dtype", "expected both vectors to have same
// dtype"). Integer kernels exist on CPU; bool/f16 ones are missing there
// (kernel gaps: the rule still answers the operand dtype). Bias handling of
// the convolutions follows what 1.13 checks (measured on CPU).
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/unit_dims.h"
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"
#include "ops/shape_rules.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <optional>
#include <tuple>
#include <string>
#include <vector>

namespace dtf {
namespace {

/// A tensor argument whose exact rank is known and differs from `want`.
std::optional<RuleError> requireRank(const OpCall &c, std::string_view n, int want) {
  if (auto r = c.rank(n).value(); r && *r != want)
    return c.semantic("{} must be {}-D, got {}-D", n, want, *r);
  return std::nullopt;
}

Rank rankMinus(Rank r, int k) {
  if (auto v = r.value()) return *v >= k ? Rank::exact(*v - k) : Rank::top();
  return Rank::top();
}

/// matmul's result rank from exact operand ranks.
Rank matmulRank(Rank a, Rank b) {
  auto ra = a.value(), rb = b.value();
  if (!ra || !rb) {
    // Both at least 1-D: the result is 0-D only for 1-D x 1-D.
    if (ra && *ra >= 3) return Rank::atLeast1();
    if (rb && *rb >= 3) return Rank::atLeast1();
    if ((ra && *ra == 2) || (rb && *rb == 2)) return Rank::atLeast1();
    return Rank::top();
  }
  int x = *ra, y = *rb;
  if (x == 1 && y == 1) return Rank::exact(0);
  if (x == 2 && y == 1) return Rank::exact(1);
  if (x == 1 && y == 2) return Rank::exact(1);
  if (x == 2 && y == 2) return Rank::exact(2);
  if (y == 1) return Rank::exact(x - 1);
  if (x == 1) return Rank::exact(y - 1);
  return Rank::exact(std::max(x, y));
}

/// mm / bmm / mv: self and `other` of fixed ranks and one dtype; a result
/// of rank `out`.
RuleFn fixedMatmul(std::string other, int selfRank, int otherRank, int out) {
  return [=](const OpCall &c) -> RuleResult {
    if (auto e = requireRank(c, "self", selfRank)) return *e;
    if (auto e = requireRank(c, other, otherRank)) return *e;
    if (auto e = requireSame(c, {"self", other})) return *e;
    return tensorOf(c.dtype("self"), Rank::exact(out));
  };
}

RuleResult matmulRule(const OpCall &c) {
  for (const char *n : {"self", "other"})
    if (auto r = c.rank(n).value(); r && *r == 0)
      return c.semantic("both arguments to matmul need to be at least 1D, but {} is 0-D", n);
  if (auto e = requireSame(c, {"self", "other"})) return *e;
  return tensorOf(c.dtype("self"), matmulRank(c.rank("self"), c.rank("other")));
}

/// How an addmm-style op writes its result. In place, self must already
/// have the result's rank ("Bad in-place call"), except for addbmm_, which
/// resizes a self of at most 2 dims to the result (measured on 1.13).
enum class AddmmForm { OutOfPlace, InPlace, InPlaceResizing };

/// Which type the kernel converts beta and alpha into: the result's dtype
/// (addmv, baddbmm), or its compute type (addmm, addbmm: float32 for a
/// bfloat16 result, so 3.395e38 fits there and not in addmv's bfloat16).
enum class AddmmFactors { InResultType, InComputeType };

/// addmm-style: self (bias) and both matrices share one dtype.
RuleFn addmmLike(std::vector<std::string> mats, int rank, bool selfMustMatch, AddmmForm form,
                 AddmmFactors factors = AddmmFactors::InResultType) {
  return [=](const OpCall &c) -> RuleResult {
    if (auto e = requireSame(c, {mats[0], mats[1]})) return *e;
    DType d = c.dtype(mats[0]);
    bool inplace = form != AddmmForm::OutOfPlace;
    if ((selfMustMatch || inplace) && c.dtype("self") != d)
      return c.semantic("self ({}) and {} ({}) must have the same dtype", name(c.dtype("self")), mats[1], name(d));
    auto sr = c.rank("self").value();
    if (sr && form == AddmmForm::InPlace && *sr != rank)
      return c.semantic("Bad in-place call: self has {} dims, the result {}", *sr, rank);
    if (sr && form == AddmmForm::InPlaceResizing && *sr > rank)
      return c.semantic("self with {} dims cannot expand to the {}-D result", *sr, rank);
    // c10's checked conversion of beta and alpha: a float factor is fine even
    // for integers; an imaginary part, or a value beyond the type, is not.
    const DType into = factors == AddmmFactors::InComputeType ? computeType(d) : d;
    for (const char *factor : {"beta", "alpha"})
      if (auto e = checkedConversion(c, factor, into)) return *e;
    return tensorOf(d, Rank::exact(rank));
  };
}

/// Samples for the conversion of alpha (value-dependent): magnitudes into
/// the dtypes where they overflow differently; self and the matrices share
/// the dtype (`shapes`: each tensor argument's shape).
void withFactorSamples(Registry::Entry e, std::initializer_list<std::pair<const char *, const char *>> shapes) {
  for (const char *d : {"uint8", "int16", "bfloat16", "float32", "complex64"}) {
    std::map<std::string, std::string, std::less<>> v{{"alpha", "magnitudes"}};
    for (const auto &[arg, shape] : shapes) v[arg] = std::string(d) + shape;
    e.variant(std::move(v));
  }
}

PromotionOperand operandOf(const Value &v) {
  return {*v.dtype(), tierOf(v.rank())};
}

/// linear's size-1 facts: the input's leading dims, then (2-D weight) the
/// weight's first dim, the output features. The bias never widens the
/// result: it broadcasts into it (addmm) or is added in place.
Value linearFacts(const OpCall &c, Value out) {
  const auto r = out.rank().value();
  const auto wr = c.rank("weight").value();
  if (!r || *r == 0 || !wr || (*wr != 1 && *wr != 2)) return out;
  // The input's last dim is contracted away (it is dim r of a 1-D weight's input, r - 1 otherwise) ...
  const int last = *wr == 1 ? *r : *r - 1;
  UnitDims u = removeDim(c.arg("input").unitDims(), last);
  // ... and a 2-D weight's first dim takes its place.
  if (*wr == 2) u = u.withDim(last, c.arg("weight").unitDims().sizeIsOne(0));
  return out.withUnitDims(u);
}

RuleResult linearRule(const OpCall &c) {
  if (auto e = requireSame(c, {"input", "weight"})) return *e;
  DType d = c.dtype("input");
  Rank in = c.rank("input"), w = c.rank("weight");
  Rank out = Rank::top();
  if (auto wr = w.value()) {
    if (*wr == 2) out = in;
    else if (*wr == 1) out = rankMinus(in, 1);
  }
  if (!c.isTensor("bias")) return linearFacts(c, tensorOf(d, out));
  DType b = c.dtype("bias");
  if (b == d) return linearFacts(c, tensorOf(d, out));
  // 2-D (and contiguous 3-D) inputs take the addmm path: the bias must match.
  if (auto ir = in.value(); ir && (*ir == 2 || *ir == 3))
    return c.semantic("self ({}) and mat2 ({}) must have the same dtype", name(b), name(d));
  // Otherwise: matmul, then output.add_(bias).
  if (in.value()) {
    std::vector<PromotionOperand> ops{{d, tierOf(out)},
                                      operandOf(c.arg("bias"))};
    DType r = c.resultType(ops);
    if (!canCast(r, d))
      return c.semantic("result type {} can't be cast to the desired output type {}", name(r), name(d));
    return linearFacts(c, tensorOf(d, out));
  }
  // Unknown input rank: the bias may or may not be checked; the dtype, when
  // the call succeeds, is still the input's.
  return tensorOf(d, out);
}

/// 2.14's linear sends a 1-D bias through addmm too (flattening a contiguous
/// input of any rank), so such a bias must have the input's dtype; a 2-D
/// input always takes addmm; otherwise it is matmul, then output.add_(bias)
/// (measured: scripts/probes/linear_bias.py). A non-contiguous input with a
/// 1-D bias takes the add_ path instead: contiguity is not modelled, and
/// the refusal (what every freshly made input gets) is the answer. 2.6 does
/// the same, and also flattens a contiguous 3-D input into addmm whatever
/// the bias's rank, as 1.13 (`ThreeDimsFlattened`).
template <bool ThreeDimsFlattened>
RuleResult linearAddmmForOneDimBiasRule(const OpCall &c) {
  if (auto e = requireSame(c, {"input", "weight"})) return *e;
  const DType d = c.dtype("input");
  Rank in = c.rank("input"), w = c.rank("weight");
  Rank out = Rank::top();
  if (auto wr = w.value()) {
    if (*wr == 2) out = in;
    else if (*wr == 1) out = rankMinus(in, 1);
  }
  if (!c.isTensor("bias") || c.dtype("bias") == d) return linearFacts(c, tensorOf(d, out));
  const DType b = c.dtype("bias");
  const auto ir = in.value(), br = c.rank("bias").value();
  if (ir == 2 || br == 1 || (ThreeDimsFlattened && ir == 3)) return c.semantic("self and mat2 must have the same dtype, but got {} and {}", c10Name(b), c10Name(d));
  if (DType r = c.resultType({{d, tierOf(out)}, operandOf(c.arg("bias"))}); !canCast(r, d))
    if (ir || br == 0) // a 2-D input would be refused above anyway
      return c.semantic("result type {} can't be cast to the desired output type {}", name(r), name(d));
  return ir ? linearFacts(c, tensorOf(d, out)) : tensorOf(d, out);
}

/// 2.14's bilinear checks the bias too: all four share one dtype.
template <bool BiasPromotes> RuleResult bilinearRule(const OpCall &c) {
  if (auto e = requireSame(c, {"input1", "input2", "weight"})) return *e;
  if (!BiasPromotes && c.isTensor("bias"))
    if (auto e = requireSame(c, {"input1", "bias"})) return *e;
  DType d = c.dtype("input1");
  Rank out = c.rank("input1");
  if (!c.isTensor("bias")) return tensorOf(d, out);
  std::vector<PromotionOperand> ops{{d, tierOf(out)}, operandOf(c.arg("bias"))};
  return tensorOf(c.resultType(ops), broadcastRank({out, c.rank("bias")}));
}

/// How a forward convolution treats a bias of another dtype.
enum class BiasCheck {
  Always,       ///< refused
  ComplexOnly,  ///< refused for complex inputs (their backends check)
  ByTransposed, ///< Always when `transposed`, else ComplexOnly (1.13's convolution)
  /// 2.14's transposed convolutions add the bias in place (output.add_):
  /// refused where the promoted type cannot cast back into the input's,
  /// and for complex inputs (measured: scripts/probes/conv_bias.py).
  AddedInPlace,
  ByTransposedAddedInPlace, ///< AddedInPlace when `transposed`, else ComplexOnly (2.14)
};

/// Size-1 facts of a convolution's result: a batched input (of the
/// weight's rank) keeps its batch dim, which is what squeezes it back after
/// an unbatched call (unsqueeze, conv, squeeze). The channel dim's fact is
/// left out on purpose: it changes memo keys all along a network
/// (convnext_tiny planned +20 %) for squeezes that rarely follow.
Value convFacts(const OpCall &c, const std::string &inputName, Value out) {
  auto ir = c.rank(inputName).value(), wr = c.rank("weight").value();
  if (!ir || !wr || *ir != *wr) return out;
  UnitDims in = c.arg(inputName).unitDims();
  return out.withUnitDims({in.ones & 1u, in.others & 1u});
}

RuleFn convRule(BiasCheck check, std::string inputName = "input") {
  return [=](const OpCall &c) -> RuleResult {
    if (auto e = requireSame(c, {inputName, "weight"})) return *e;
    DType d = c.dtype(inputName);
    Rank out = c.rank(inputName);
    if (auto r = out.value(); r && *r < 2)
      return c.semantic("expected a batched or unbatched input of at least 2 dimensions, got {}-D", *r);
    if (!c.isTensor("bias") || c.dtype("bias") == d) return convFacts(c, inputName, tensorOf(d, out));
    // Complex inputs take backends that check the bias. float32 takes oneDNN
    // by size heuristics (large inputs), so a mismatched bias may raise there:
    // when it does not, the result has the input's dtype.
    BiasCheck mode = check;
    if (check == BiasCheck::ByTransposed || check == BiasCheck::ByTransposedAddedInPlace) {
      auto t = c.arg("transposed").boolValue();
      const BiasCheck transposed = check == BiasCheck::ByTransposed ? BiasCheck::Always : BiasCheck::AddedInPlace;
      mode = t && *t ? transposed : BiasCheck::ComplexOnly;
    }
    const DType b = c.dtype("bias");
    if (mode == BiasCheck::Always || isComplex(d))
      return c.semantic("input type ({}) and bias type ({}) should be the same", name(d), name(b));
    auto plainKernel = [&]() -> RuleResult {
      if (mode == BiasCheck::AddedInPlace)
        if (DType r = c.promote(d, b); !canCast(r, d))
          return c.semantic("result type {} can't be cast to the desired output type {}", name(r), name(d));
      return convFacts(c, inputName, tensorOf(d, out));
    };
    if (d != DType::BFloat16 && d != DType::Float16) return plainKernel();
    // bfloat16 and float16 take oneDNN wherever the CPU has it
    // (ops/cpu_capability.h), and oneDNN checks the bias dtype. float16
    // transposed convolutions there accept some biases the plain kernel
    // refuses (reported from an AVX512-FP16 machine, not measured here): unknown.
    return c.byOneDnnPath(d, [&](bool onOneDnn) -> RuleResult {
      if (!onOneDnn) return plainKernel();
      if (mode == BiasCheck::AddedInPlace && d == DType::Float16) return Value::tensor(DTypeSet::all(), out);
      return c.semantic("input type ({}) and bias type ({}) should be the same", name(d), name(b));
    });
  };
}

/// Convolution parameters PyTorch refuses by value (value-dependent): a
/// stride, dilation or groups of 0 or less, a negative padding or output padding.
/// (`key`: the overload the rule is registered for, whose argument positions
/// are found once here: every convolution of a graph runs this.)
/// `oneDnnDilation`: a transposed convolution whose low-precision input
/// takes oneDNN (2.14's conv_transpose1d/2d) runs with a dilation of 0 or
/// less, which the plain kernels refuse: measured for bfloat16 on AVX-512
/// (the oneDNN path of float16 on AVX512-FP16 is the same code).
RuleFn convParamValues(RuleFn fn, const SchemaTable &schemas, std::string_view key, bool oneDnnDilation = false) {
  struct Limit { const char *name, *message; int64_t least; size_t at; };
  std::vector<Limit> limits;
  const Schema *s = schemas.find(key);
  for (Limit l : {Limit{"stride", "non-positive stride is not supported", 1, 0},
                  Limit{"dilation", "dilation should be greater than zero", 1, 0},
                  Limit{"padding", "negative padding is not supported", 0, 0},
                  Limit{"output_padding", "negative output_padding is not supported", 0, 0},
                  Limit{"groups", "non-positive groups is not supported", 1, 0}})
    if (int i = s ? s->argIndex(l.name) : -1; i >= 0) limits.push_back({l.name, l.message, l.least, size_t(i)});
  return [fn = std::move(fn), limits = std::move(limits), oneDnnDilation](const OpCall &c) -> RuleResult {
    // The first limit refused, from `from` on (an int or each int of a list).
    auto firstRefused = [&](size_t from) -> size_t {
      for (size_t i = from; i < limits.size(); ++i) {
        const Limit &p = limits[i];
        if (p.at >= c.size()) continue;
        const Value &a = c[p.at];
        auto below = [&](const Value &e) { return e.isNumber() && e.intValue() && *e.intValue() < p.least; };
        bool refused = below(a);
        for (const Value &e : a.elements()) refused = refused || below(e);
        if (refused) return i;
      }
      return limits.size();
    };
    auto refusal = [&](size_t i) {
      return c.error(ErrorKind::ValueDependent, "{} ({} = {})", limits[i].message, limits[i].name, c[limits[i].at].str());
    };
    size_t i = firstRefused(0);
    if (i == limits.size()) return fn(c);
    if (!oneDnnDilation || limits[i].name != std::string_view("dilation")) return refusal(i);
    DType d = c.dtype("input");
    if (d != DType::BFloat16 && d != DType::Float16) return refusal(i);
    return c.byOneDnnPath(d, [&](bool onOneDnn) -> RuleResult {
      if (!onOneDnn) return refusal(i);
      size_t next = firstRefused(i + 1);
      return next == limits.size() ? fn(c) : refusal(next);
    });
  };
}

/// conv1d/2d/3d and conv_transpose*d expand each int[] parameter of one
/// value to the `spatial` dims; any other length is refused.
RuleFn convParamLengths(RuleFn fn, int spatial, const SchemaTable &schemas, std::string_view key,
                        bool oneDnnDilation = false) {
  fn = convParamValues(std::move(fn), schemas, key, oneDnnDilation);
  return [fn = std::move(fn), spatial](const OpCall &c) -> RuleResult {
    for (const char *name : {"stride", "padding", "dilation", "output_padding"}) {
      const Value *lp = c.argIf(name);
      if (!lp) continue;
      const Value &l = *lp;
      if (!l.isList() || !l.lengthKnown()) continue;
      size_t n = l.elements().size();
      if (n != 1 && n != static_cast<size_t>(spatial))
        return c.semantic("expected {} to be a single integer value or a list of {} values to match the "
                          "convolution dimensions, but got {} values", name, spatial, n);
    }
    return fn(c);
  };
}

/// convolution_backward off oneDNN's mixed-weight path.
RuleResult convBackwardPlain(const OpCall &c) {
  const Value &mask = c.arg("output_mask");
  bool allRequested = mask.isList() && mask.lengthKnown() && mask.elements().size() == 3;
  for (size_t i = 0; allRequested && i < 3; ++i) allRequested = mask.elements()[i].boolValue() == true;
  // With outputs masked out torch checks only the dtypes the others need, and
  // what a masked-out slot holds depends on the kernel path: not modelled.
  if (auto e = requireSame(c, {"grad_output", "input", "weight"}))
    return allRequested ? RuleResult(*e) : RuleResult(std::vector<Value>(3, Value::top()));
  DType d = c.dtype("input");
  std::vector<Value> outs{tensorOf(d, c.rank("input")), tensorOf(d, c.rank("weight")), tensorOf(d, Rank::exact(1))};
  if (!allRequested)
    for (int i = 0; i < 3; ++i) {
      auto b = mask.isList() && mask.lengthKnown() && mask.elements().size() == 3 ? mask.elements()[i].boolValue()
                                                                                  : std::nullopt;
      if (!b || !*b) outs[i] = Value::top(); // an undefined tensor, or one anyway on some paths
    }
  return outs;
}

/// `WiderMkldnn`: 2.14's mkldnn also takes an int8, uint8 or float8 weight.
template <bool WiderMkldnn> RuleResult convBackwardRule(const OpCall &c) {
  // oneDNN runs low-precision activations with an f32 weight (2.14: also
  // int8, uint8, float8), with results whose dtypes and presence do not
  // follow output_mask: unknown. bfloat16 (and 2.14's float16) take oneDNN
  // only where the CPU has it (ops/cpu_capability.h); elsewhere the plain
  // kernel's dtype checks below hold.
  DType w = c.dtype("weight"), act = c.dtype("input");
  bool mkldnnWeight = w == DType::Float32 || (WiderMkldnn && (w == DType::Int8 || w == DType::UInt8 || isFloat8(w)));
  if ((act == DType::BFloat16 || act == DType::Float16) && c.dtype("grad_output") == act && mkldnnWeight)
    return c.byOneDnnPath(act, [&](bool onOneDnn) -> RuleResult {
      if (onOneDnn) return std::vector<Value>{Value::unknownTensor(), Value::unknownTensor(), Value::unknownTensor()};
      return convBackwardPlain(c);
    });
  return convBackwardPlain(c);
}

//===----------------------------------------------------------------------===//
// sumproduct_pair (aten/native/Linear.cpp, 1.13): the pairwise contraction
// under einsum and _trilinear.
//===----------------------------------------------------------------------===//

/// Whether a dim has a size other than 1: known no, known yes, or either.
enum class Big : uint8_t { No, Yes, Maybe };

/// Size != 1 after broadcasting two dims.
Big broadcastBig(Big a, Big b) {
  if (a == Big::Yes || b == Big::Yes) return Big::Yes;
  return a == Big::No && b == Big::No ? Big::No : Big::Maybe;
}

struct PairOutcome {
  std::vector<DType> dtypes;        ///< possible result dtypes
  std::optional<std::string> error; ///< set when some case raises
};

/// sumproduct_pair(l, r, sums) on dtypes: no sums is a promoting mul;
/// otherwise a summed dim of size != 1 in one operand only is sum()med first
/// (bool and integers become int64), then bmm needs one dtype ("expected
/// scalar type ... but found ...": a data_ptr check on every real device).
PairOutcome sumproductPair(const DTypeSystem &types, DType l, DType r, const std::vector<Big> &lb, const std::vector<Big> &rb,
                           const std::vector<int> &sums) {
  if (sums.empty()) return {{types.promote(l, r)}, std::nullopt};
  // Reachable (left summed, right summed) pairs, as bits of a 4-state set.
  auto can = [](Big b, bool big) { return b == Big::Maybe || (b == Big::Yes) == big; };
  unsigned reach = 1;
  for (int i : sums) {
    unsigned next = 0;
    for (unsigned st = 0; st < 4; ++st)
      for (bool bl : {false, true})
        for (bool br : {false, true})
          if ((reach >> st & 1) && can(lb[i], bl) && can(rb[i], br))
            next |= 1u << (st | (bl && !br ? 1u : 0u) | (br && !bl ? 2u : 0u));
    reach = next;
  }
  auto summed = [](DType d) { return isIntegral(d, /*includeBool=*/true) ? DType::Int64 : d; };
  PairOutcome out;
  for (unsigned st = 0; st < 4; ++st) {
    if (!(reach >> st & 1)) continue;
    DType a = st & 1 ? summed(l) : l, b = st & 2 ? summed(r) : r;
    if (a != b) out.error = fmt::format("bmm: expected scalar type {} but found {}", name(a), name(b));
    else if (std::find(out.dtypes.begin(), out.dtypes.end(), a) == out.dtypes.end()) out.dtypes.push_back(a);
  }
  return out;
}

/// einsum's labels: one string per operand and the output's, without spaces.
struct EinsumLabels {
  std::vector<std::string> ops;
  std::string out;
  bool ellipsis = false;
  std::vector<bool> opEllipsis; ///< by operand: has `...`
  bool outEllipsis = false;     ///< the output has the ellipsis dims (written, or implicit)
};

EinsumLabels parseEinsum(const std::string &eq) {
  EinsumLabels l;
  std::string lhs = eq, rhs;
  bool explicitOut = false;
  if (auto arrow = eq.find("->"); arrow != std::string::npos) {
    lhs = eq.substr(0, arrow);
    rhs = eq.substr(arrow + 2);
    explicitOut = true;
  }
  l.ellipsis = eq.find("...") != std::string::npos;
  l.ops.emplace_back();
  l.opEllipsis.push_back(false);
  for (char ch : lhs) {
    if (ch == ',') { l.ops.emplace_back(); l.opEllipsis.push_back(false); }
    else if (ch == '.') l.opEllipsis.back() = true;
    else if (std::isalpha(static_cast<unsigned char>(ch))) l.ops.back() += ch;
  }
  if (explicitOut) {
    for (char ch : rhs)
      if (std::isalpha(static_cast<unsigned char>(ch))) l.out += ch;
    l.outEllipsis = rhs.find("...") != std::string::npos;
    return l;
  }
  l.outEllipsis = l.ellipsis; // implicit output: the ellipsis dims first, then the lone labels
  // Implicit output: the labels seen once, in order.
  for (char ch = 'A'; ch <= 'z'; ++ch) {
    if (!std::isalpha(static_cast<unsigned char>(ch))) continue;
    size_t n = 0;
    for (const std::string &o : l.ops) n += std::count(o.begin(), o.end(), ch);
    if (n == 1) l.out += ch;
  }
  return l;
}

/// einsum with path=None, no ellipsis and every operand's size-1 facts
/// known, followed on dtypes as 1.13 computes it: operands fold left to
/// right; in each pair a contracted label of size != 1 in both operands is
/// bmm-contracted once no later operand has it, one of size != 1 in one
/// operand only (and no later one) is sum()med there first (bool and integers
/// become int64); then sumproduct_pair. A lone operand with contracted labels
/// is sum()med. nullopt when a fact is unknown.
std::optional<RuleResult> einsumExact(const OpCall &c, const EinsumLabels &l, const std::vector<Value> &el) {
  std::string labels;
  for (const std::string &o : l.ops)
    for (char ch : o)
      if (labels.find(ch) == std::string::npos) labels += ch;
  size_t nOut = l.out.size();
  std::string perm = l.out;
  for (char ch : labels)
    if (perm.find(ch) == std::string::npos) perm += ch;
  // Size != 1 of each label in each operand (a missing label has size 1).
  std::vector<std::vector<Big>> bigs;
  for (size_t k = 0; k < el.size(); ++k) {
    UnitDims u = el[k].unitDims();
    std::vector<Big> b(perm.size(), Big::No);
    for (size_t i = 0; i < perm.size(); ++i) {
      size_t j = l.ops[k].find(perm[i]);
      if (j == std::string::npos) continue;
      auto one = u.sizeIsOne(static_cast<int>(j));
      if (!one) return std::nullopt;
      b[i] = *one ? Big::No : Big::Yes;
    }
    bigs.push_back(std::move(b));
  }
  std::vector<int> counts(perm.size(), 0);
  for (const auto &b : bigs)
    for (size_t i = 0; i < perm.size(); ++i) counts[i] += b[i] == Big::Yes;
  auto summed = [](DType d) { return isIntegral(d, /*includeBool=*/true) ? DType::Int64 : d; };
  DType d = *el[0].dtype();
  std::vector<Big> big = bigs[0];
  for (size_t k = 1; k < el.size(); ++k) {
    DType db = *el[k].dtype();
    std::vector<Big> bb = bigs[k];
    std::vector<int> sums;
    bool sumA = false, sumB = false;
    for (size_t i = nOut; i < perm.size(); ++i) {
      bool a = big[i] == Big::Yes, b = bb[i] == Big::Yes;
      if (a && b) {
        if (--counts[i] == 1) { sums.push_back(static_cast<int>(i)); counts[i] = 0; }
      } else if (counts[i] == 1 && (a || b)) {
        (a ? sumA : sumB) = true;
        (a ? big : bb)[i] = Big::No;
        counts[i] = 0;
      }
    }
    if (sumA) d = summed(d);
    if (sumB) db = summed(db);
    PairOutcome p = sumproductPair(c.types(), d, db, big, bb, sums);
    if (p.error) return RuleResult(c.semantic("{}", *p.error));
    d = p.dtypes.front();
    for (size_t i = 0; i < perm.size(); ++i) big[i] = broadcastBig(big[i], bb[i]);
    for (int i : sums) big[i] = Big::No;
  }
  if (el.size() == 1 && perm.size() > nOut) d = summed(d);
  return RuleResult(tensorOf(d, Rank::exact(static_cast<int>(nOut))));
}

/// einsum (measured on 1.13). Whether a letter is summed with sum() (ints
/// and bool become int64), contracted with bmm (operands must share one
/// dtype) or broadcast-multiplied depends on the sizes: with every size-1
/// fact known, einsumExact; otherwise
///   - one floating/complex dtype for every operand: that dtype;
///   - no letter summed away: a broadcasting multiply, promote_types over the
///     operands (every operand is unsqueezed first: no zero-dim tier);
///   - one integral/bool operand that sums: int64;
///   - otherwise (ints that contract, mixed dtypes that contract): unknown.
RuleResult einsumRule(const OpCall &c) {
  const Value &ts = c.arg("tensors");
  if (!ts.isList() || !ts.lengthKnown() || ts.elements().empty()) return Value::unknownTensor();
  const auto &el = ts.elements();
  auto eq = c.arg("equation").text();
  if (!eq) return Value::unknownTensor();
  EinsumLabels l = parseEinsum(*eq);
  if (l.ops.size() != el.size()) return c.semantic("{} operands in the equation but {} tensors given", l.ops.size(), el.size());
  if (!l.ellipsis) {
    for (size_t k = 0; k < el.size(); ++k)
      if (auto r = el[k].rank().value(); r && static_cast<size_t>(*r) != l.ops[k].size())
        return c.semantic("the number of subscripts in the equation ({}) does not match the number of dimensions ({}) "
                          "for operand {}", l.ops[k].size(), *r, k);
    for (size_t i = 0; i < l.out.size(); ++i) {
      bool seen = false;
      for (const std::string &o : l.ops) seen |= o.find(l.out[i]) != std::string::npos;
      if (!seen || l.out.find(l.out[i]) != i)
        return c.semantic("output subscript {} appears more than once in the output or in no operand", l.out[i]);
    }
    if (c.isNone("path"))
      if (auto exact = einsumExact(c, l, el)) return *exact;
  }
  bool sums = false;
  for (const std::string &o : l.ops)
    for (char ch : o)
      if (l.out.find(ch) == std::string::npos) sums = true;
  // With `...`: as many dims as the widest operand's beyond its labels (they broadcast).
  std::optional<int> ellDims = 0;
  for (size_t k = 0; k < el.size() && l.ellipsis; ++k) {
    if (!l.opEllipsis[k]) continue;
    auto r = el[k].rank().value();
    if (!r || *r < static_cast<int>(l.ops[k].size())) { ellDims.reset(); break; }
    ellDims = std::max(*ellDims, *r - static_cast<int>(l.ops[k].size()));
  }
  bool sumsUnknown = false; // ellipsis dims summed away, their count unknown
  if (l.ellipsis && !l.outEllipsis) {
    if (!ellDims) sumsUnknown = true;
    else sums = sums || *ellDims > 0;
  }
  Rank rank = Rank::exact(static_cast<int>(l.out.size()));
  if (l.ellipsis && l.outEllipsis) rank = ellDims ? Rank::exact(static_cast<int>(l.out.size()) + *ellDims) : Rank::top();
  DType d = *el[0].dtype();
  bool oneDtype = true;
  for (const Value &v : el)
    if (*v.dtype() != d) oneDtype = false;
  if (sumsUnknown && !(oneDtype && (isFloating(d) || isComplex(d)))) return Value::tensor(DTypeSet::all(), rank);
  if (!sums) {
    DType p = d;
    for (const Value &v : el) p = c.promote(p, *v.dtype());
    if (oneDtype || el.size() == 2) return tensorOf(p, rank);
    return Value::tensor(DTypeSet::all(), rank);
  }
  if (oneDtype && (isFloating(d) || isComplex(d))) return tensorOf(d, rank);
  if (oneDtype && el.size() == 1) return tensorOf(DType::Int64, rank);
  return Value::tensor(DTypeSet::all(), rank);
}

/// tensordot (aten/native/Linear.cpp, 1.13): for each contracted pair, a dim
/// of `other` of size 1 is summed out of `self` first (sum with keepdim),
/// else a dim of `self` of size 1 out of `other`; what is left goes to one mm,
/// which needs one dtype. A sum turns bool and the integers into int64, so for
/// those dtypes the sizes decide the result (int8 [3,2] . int64 [1,4] over
/// dim 0 is int64; int32 [1,2] . int32 [1,3] raises): read from the size-1
/// facts, unknown where they are missing.
/// tensordot's rank: both ranks less the contracted dims.
Rank tensordotRank(const OpCall &c) {
  const Value &l1 = c.arg("dims_self");
  auto a = c.rank("self").value(), b = c.rank("other").value();
  if (a && b && l1.isList() && l1.lengthKnown()) {
    int k = static_cast<int>(l1.elements().size());
    if (*a + *b - 2 * k >= 0) return Rank::exact(*a + *b - 2 * k);
  }
  return Rank::top();
}

RuleResult tensordotRule(const OpCall &c) {
  const Rank out = tensordotRank(c);
  const Value &l1 = c.arg("dims_self"), &l2 = c.arg("dims_other");
  auto a = c.rank("self").value(), b = c.rank("other").value();
  auto summed = [](DType d) { return isIntegral(d, /*includeBool=*/true) ? DType::Int64 : d; };
  DType t1 = c.dtype("self"), t2 = c.dtype("other");
  if (summed(t1) == t1 && summed(t2) == t2) { // floating, complex, int64: sums keep the dtype
    if (auto e = requireSame(c, {"self", "other"})) return *e;
    return tensorOf(t1, out);
  }
  const Value unknown = Value::tensor(DTypeSet::all(), out);
  if (!a || !b || !l1.isList() || !l2.isList() || !l1.lengthKnown() || !l2.lengthKnown() ||
      l1.elements().size() != l2.elements().size())
    return unknown;
  const UnitDims u1 = c.arg("self").unitDims(), u2 = c.arg("other").unitDims();
  for (size_t i = 0; i < l1.elements().size(); ++i) {
    auto x = l1.elements()[i].intValue(), y = l2.elements()[i].intValue();
    auto d1 = x ? wrapDim(*x, *a) : std::nullopt, d2 = y ? wrapDim(*y, *b) : std::nullopt;
    if (!d1 || !d2) return unknown;
    auto one2 = u2.sizeIsOne(*d2), one1 = u1.sizeIsOne(*d1);
    if (!one2) return unknown;
    if (*one2) t1 = summed(t1);
    else if (!one1) return unknown;
    else if (*one1) t2 = summed(t2);
  }
  if (t1 != t2) return c.semantic("expected scalar type {} but found {} (mm after the size-1 sums)", c10Name(t1), c10Name(t2));
  return tensorOf(t1, out);
}

/// 2.14's tensordot checks one dtype first and sums nothing out: one mm.
RuleResult tensordotSameDTypeRule(const OpCall &c) {
  if (c.dtype("self") != c.dtype("other")) return c.semantic("both inputs should have same dtype");
  return tensorOf(c.dtype("self"), tensordotRank(c));
}

//===----------------------------------------------------------------------===//
// _trilinear (aten/native/Linear.cpp, 1.13), followed on dtypes: every
// operand is unsqueezed at its expand dims to total = i1.dim() + len(expand1)
// dims; for each slice k of unroll_dim, buf = sumproduct_pair(i1, i2, sums12),
// then sumproduct_pair(buf, i3, sums23), added in place into zeros of i1's
// dtype. So a result always has i1's dtype and rank total - len(sumdim); what
// the dtypes decide is whether it raises. Sizes 0 (no slice, no check) are
// not modelled: the harness and real programs use non-empty tensors.
//===----------------------------------------------------------------------===//

std::optional<size_t> listLength(const Value &v) {
  if (!v.isList() || !v.lengthKnown()) return std::nullopt;
  return v.elements().size();
}

RuleResult trilinearRule(const OpCall &c) {
  const char *in[3] = {"i1", "i2", "i3"};
  const char *lists[4] = {"expand1", "expand2", "expand3", "sumdim"};
  DType d1 = c.dtype("i1");
  // Rank: from any operand of known rank (when the call succeeds they agree).
  std::optional<int> anyTotal;
  for (int k = 0; k < 3 && !anyTotal; ++k)
    if (auto r = c.rank(in[k]).value(); r && listLength(c.arg(lists[k])))
      anyTotal = *r + static_cast<int>(*listLength(c.arg(lists[k])));
  auto sumLen = listLength(c.arg("sumdim"));
  Rank outRank = anyTotal && sumLen && *anyTotal >= static_cast<int>(*sumLen)
                     ? Rank::exact(*anyTotal - static_cast<int>(*sumLen))
                     : Rank::top();
  Value result = tensorOf(d1, outRank);

  // The checks need torch's own total (i1's) and every list value.
  std::optional<std::vector<int64_t>> vals[4];
  for (int k = 0; k < 4; ++k) vals[k] = knownInts(c.arg(lists[k]));
  auto u = c.arg("unroll_dim").intValue();
  auto r1 = c.rank("i1").value();
  if (!r1 || !u || !vals[0] || !vals[1] || !vals[2] || !vals[3]) return result;
  int total = *r1 + static_cast<int>(vals[0]->size());
  if (total > 64) return result;
  if (*u < 0 || *u >= total) return c.semantic("unroll_dim must be in [0, {}], got {}", total - 1, *u);
  uint64_t bits[4] = {0, 0, 0, 0};
  for (int k = 0; k < 4; ++k)
    for (int64_t d : *vals[k]) {
      auto w = wrapDim(d, total);
      if (!w) return c.semantic("{}: dimension {} out of range for {} dims", lists[k], d, total);
      if (bits[k] >> *w & 1)
        return c.error(ErrorKind::ValueDependent, "{}: dim {} appears more than once", lists[k], *w);
      bits[k] |= uint64_t{1} << *w;
    }
  auto has = [&](int k, int i) { return (bits[k] >> i & 1) != 0; };
  // Every slice of unroll_dim is empty when all three expand it: no checks run.
  bool loopRuns = !(has(0, *u) && has(1, *u) && has(2, *u));
  for (int k = 1; k < 3; ++k)
    if (auto r = c.rank(in[k]).value()) {
      int dims = *r + static_cast<int>(vals[k]->size());
      if (dims < total || (dims > total && loopRuns))
        return c.semantic("{} has {} dims after expanding, i1 has {}", in[k], dims, total);
    }
  if (!loopRuns) return result;

  // Size-1 facts of each operand after expansion, on one slice of unroll_dim.
  auto bigness = [&](int k) {
    std::vector<Big> b(total, Big::Maybe);
    const Value &v = c.arg(in[k]);
    UnitDims ud = v.unitDims();
    bool exact = v.rank().value().has_value();
    for (int i = 0, j = 0; i < total; ++i) {
      if (has(k, i)) { b[i] = Big::No; continue; }
      if (auto one = exact ? ud.sizeIsOne(j) : std::nullopt) b[i] = *one ? Big::No : Big::Yes;
      ++j;
    }
    b[*u] = Big::No;
    return b;
  };
  std::vector<int> sums12, sums23;
  for (int i = 0; i < total; ++i)
    if (has(3, i) && i != *u) (has(2, i) ? sums12 : sums23).push_back(i);
  std::vector<Big> b1 = bigness(0), b2 = bigness(1), b3 = bigness(2), buf(total);
  for (int i = 0; i < total; ++i) buf[i] = broadcastBig(b1[i], b2[i]);

  // Succeeds in some case: i1's dtype; raises in every case: the first error.
  std::optional<std::string> error;
  bool succeeds = false;
  PairOutcome first = sumproductPair(c.types(), d1, c.dtype("i2"), b1, b2, sums12);
  if (first.error) error = first.error;
  for (DType t1 : first.dtypes) {
    PairOutcome second = sumproductPair(c.types(), t1, c.dtype("i3"), buf, b3, sums23);
    if (second.error && !error) error = second.error;
    for (DType t2 : second.dtypes) {
      DType p = c.promote(d1, t2);
      if (canCast(p, d1)) succeeds = true;
      else if (!error)
        error = fmt::format("add_: result type {} can't be cast to the desired output type {}", name(p), name(d1));
    }
  }
  if (succeeds || !error) return result;
  return c.semantic("{}", *error);
}

std::optional<RuleError> requireFloatOrComplex(const OpCall &c, std::string_view n, const char *what) {
  DType d = c.dtype(n);
  if (!isFloating(d) && !isComplex(d))
    return c.semantic("{}: expected a floating point or complex tensor as input, got {}", what, name(d));
  if (auto r = c.rank(n).value(); r && *r < 2)
    return c.semantic("{}: the input tensor {} must have at least 2 dimensions", what, n);
  return std::nullopt;
}

/// The `.dtype` matmuls' out_dtype on the meta device (Python's meta kernels,
/// measured in 2.14.1): the inputs' dtype, or float32 for float16/bfloat16 ones.
std::optional<RuleError> outDtypeAllowed(const OpCall &c, std::string_view input) {
  DType in = c.dtype(input), out = *c.dtypeArg("out_dtype");
  if (out == in || (out == DType::Float32 && (in == DType::Float16 || in == DType::BFloat16))) return std::nullopt;
  return c.semantic("out_dtype must be the same as input dtype or fp32 for fp16/bf16 inputs");
}

/// A `.dtype` matmul on the meta device: mm.dtype (2-D, mat2's dtype
/// unchecked), bmm.dtype (3-D, one input dtype), addmm.dtype (mm.dtype, then
/// `alpha * mm + beta * self.to(out_dtype)`: a float alpha or beta makes an
/// integral result float, left unknown).
RuleResult outDtypeMatmulOnMeta(const OpCall &c) {
  const bool batched = c.has("batch1");
  const char *a = batched ? "batch1" : c.has("mat1") ? "mat1" : "self";
  const char *b = batched ? "batch2" : "mat2";
  const bool bmm = c.schema().name == "aten::bmm";
  const int rank = bmm || batched ? 3 : 2;
  if (auto e = requireRank(c, a, rank)) return *e;
  if (auto e = requireRank(c, b, rank)) return *e;
  if (bmm && c.dtype(a) != c.dtype(b))
    return c.semantic("expected scalar type {} but found {}", name(c.dtype(a)), name(c.dtype(b)));
  if (auto e = outDtypeAllowed(c, a)) return *e;
  DType out = *c.dtypeArg("out_dtype");
  if (batched) return Value::tensor(DTypeSet::all(), Rank::exact(3)); // 2.14.1's baddbmm.dtype meta raises a TypeError
  if (c.has("mat1")) {
    for (const char *f : {"alpha", "beta"})
      if (auto k = c.arg(f).numKind(); isIntegral(out, true) && (!k || *k == NumKind::Float || *k == NumKind::Complex))
        return Value::unknownTensor();
    if (auto rk = c.rank("self").value(); !rk || *rk > 2) return Value::tensor(DTypeSet{out}, Rank::top());
  }
  return tensorOf(out, Rank::exact(rank));
}

/// The `.dtype` matmuls (new in 2.14; low-precision training's matmuls with
/// an output dtype) have CUDA and XPU kernels only: on CPU every call raises
/// "Could not run 'aten::mm.dtype' with arguments from the 'CPU' backend"
/// (measured, 2.14.1). On the meta device (FakeTensor, torch.export) they run
/// Python's meta kernels; their dtype_out forms want out of the result's
/// dtype exactly (out_wrapper(exact_dtype=True)).
RuleResult outDtypeMatmul(const OpCall &c) {
  if (!c.onMeta()) return c.missingKernel("no CPU kernel (CUDA and XPU only)");
  RuleResult r = outDtypeMatmulOnMeta(c);
  if (!r.ok() || !c.has("out")) return r;
  auto d = r.outputs()[0].dtype();
  if (!d) return Value::unknownTensor();
  if (c.dtype("out") != *d)
    return c.semantic("Expected out tensor to have dtype {}, but got {} instead", name(*d), name(c.dtype("out")));
  return tensorOf(*d, r.outputs()[0].rank());
}

/// The `.dtype` matmuls and their out forms (a sweep of one operand's dtype
/// and out_dtype each: every call raises on CPU).
void registerOutDtypeMatmuls(Registry &r, const char *fam) {
  struct Form { const char *key, *a, *b, *shape; };
  for (const Form &f : std::vector<Form>{{"aten::mm.dtype", "self", "mat2", "[2,2]"},
                                         {"aten::mm.dtype_out", "self", "mat2", "[2,2]"},
                                         {"aten::bmm.dtype", "self", "mat2", "[1,2,2]"},
                                         {"aten::bmm.dtype_out", "self", "mat2", "[1,2,2]"},
                                         {"aten::addmm.dtype", "mat1", "mat2", "[2,2]"},
                                         {"aten::addmm.dtype_out", "mat1", "mat2", "[2,2]"},
                                         {"aten::baddbmm.dtype", "batch1", "batch2", "[1,2,2]"},
                                         {"aten::baddbmm.dtype_out", "batch1", "batch2", "[1,2,2]"}}) {
    const std::string fixed = std::string("float32") + f.shape, swept = std::string("sweep!") + f.shape;
    auto e = r.add(f.key, fam, outDtypeMatmul).sample(f.a, swept).sample(f.b, fixed).variant({{f.a, fixed}, {f.b, swept}});
    if (std::string_view(f.a) != "self") e.sample("self", fixed);
    if (std::string_view(f.key).ends_with("_out")) e.sample("out", fixed);
  }
}

/// mm, bmm, mv, dot, outer, matmul, addmm and addbmm.
void registerMatmuls(Registry &r) {
  const char *fam = "nn.linear";
  r.add("aten::mm", fam, fixedMatmul("mat2", 2, 2, 2)).sample("self", "sweep![2,2]").sample("mat2", "sweep![2,2]");
  // 2.x: int8 (or uint8) x int8 -> int32, both 2-D (measured on 2.14).
  r.add("aten::_int_mm", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = requireRank(c, "self", 2)) return *e;
     if (auto e = requireRank(c, "mat2", 2)) return *e;
     DType a = c.dtype("self"), b = c.dtype("mat2");
     if (a != DType::Int8 && a != DType::UInt8)
       return c.semantic("int_mm: expected self dtype to be int8 or uint8 but got {}", name(a));
     if (b != DType::Int8) return c.semantic("int_mm: expected mat2 dtype to be of type int8 but got {}", name(b));
     return tensorOf(DType::Int32, Rank::exact(2));
   }).sample("self", "sweep![16,16]").sample("mat2", "sweep![16,16]");
  // 2.x: float8 x float8 with float32 scales (per-tensor); the result is
  // out_dtype, else self's float8 dtype. Other operand dtypes: "Invalid
  // scaling configuration" (measured on 2.14's CPU kernel).
  r.add("aten::_scaled_mm", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = requireRank(c, "self", 2)) return *e;
     if (auto e = requireRank(c, "mat2", 2)) return *e;
     DType a = c.dtype("self"), b = c.dtype("mat2");
     if (!isFloat8(a) || !isFloat8(b)) return c.semantic("_scaled_mm: expected float8 operands, got {} and {}", name(a), name(b));
     for (const char *s : {"scale_a", "scale_b"})
       if (c.dtype(s) != DType::Float32) return Value::tensor(DTypeSet::all(), Rank::exact(2)); // scaling modes: not modelled
     if (c.isTensor("bias") || c.isTensor("scale_result")) return Value::tensor(DTypeSet::all(), Rank::exact(2));
     if (auto out = c.dtypeArg("out_dtype")) return tensorOf(*out, Rank::exact(2));
     return tensorOf(a, Rank::exact(2));
   }).sample("self", "sweep![16,16]").sample("mat2", "sweep![16,16]").sample("scale_a", "float32[]")
      .sample("scale_b", "float32[]");
  // 2.14's _scaled_mm_v2 takes its scales as lists with a recipe each. The
  // per-tensor recipe ([0]: one float32 scale each, no swizzle, no bias) is
  // _scaled_mm's; other recipes check sizes and layouts not modelled here
  // (unknown). An operand neither float8 nor float4 raises "Expected both
  // inputs to be fp8 or fp4 types" (measured on 2.14.1's CPU kernel).
  r.add("aten::_scaled_mm_v2", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = requireRank(c, "self", 2)) return *e;
     if (auto e = requireRank(c, "mat2", 2)) return *e;
     DType a = c.dtype("self"), b = c.dtype("mat2");
     auto low = [](DType d) { return isFloat8(d) || d == DType::Float4E2M1FNx2; };
     if (!low(a) || !low(b))
       return c.semantic("Expected both inputs to be fp8 or fp4 types but got {} and {}", name(a), name(b));
     const Value unknown = Value::tensor(DTypeSet::all(), Rank::exact(2));
     if (!isFloat8(a) || !isFloat8(b) || c.isTensor("bias")) return unknown;
     for (const char *s : {"a", "b"}) {
       const Value &scales = c.arg(std::string("scale_") + s), &recipe = c.arg(std::string("recipe_") + s),
                   &swizzle = c.arg(std::string("swizzle_") + s);
       auto only = [](const Value &l, int64_t v) {
         return l.lengthKnown() && l.elements().size() == 1 && l.elements()[0].intValue() == v;
       };
       if (!only(recipe, 0) || !only(swizzle, 0) || !scales.lengthKnown() || scales.elements().size() != 1 ||
           scales.elements()[0].dtype() != DType::Float32)
         return unknown;
     }
     if (c.arg("contraction_dim").elements().size() != 0 || !c.arg("contraction_dim").lengthKnown()) return unknown;
     return tensorOf(c.dtypeArg("out_dtype").value_or(a), Rank::exact(2));
   }).sample("self", "sweep![16,16]").sample("mat2", "float8_e4m3fn[16,16]").sample("scale_a", "[float32[]]")
      .sample("recipe_a", "[0]").sample("swizzle_a", "[0]").sample("scale_b", "[float32[]]").sample("recipe_b", "[0]")
      .sample("swizzle_b", "[0]").sample("bias", "None").sample("out_dtype", "None")
      .variant({{"self", "float8_e5m2[16,16]"}, {"mat2", "sweep![16,16]"}})
      .variant({{"self", "float8_e5m2[16,16]"}, {"out_dtype", "sweep"}})
      .variant({{"self", "float8_e4m3fn[16,16]"}, {"scale_a", "[sweep![]]"}});
  r.add("aten::bmm", fam, fixedMatmul("mat2", 3, 3, 3))
      .sample("self", "sweep![1,2,2]").sample("mat2", "sweep![1,2,2]");
  r.add("aten::mv", fam, fixedMatmul("vec", 2, 1, 1)).sample("self", "sweep![2,2]").sample("vec", "sweep![2]");
  for (const char *k : {"aten::dot", "aten::vdot"}) {
    std::string other = std::string(k) == "aten::dot" ? "tensor" : "other";
    r.add(k, fam, [other](const OpCall &c) -> RuleResult {
       if (auto e = requireRank(c, "self", 1)) return *e;
       if (auto e = requireRank(c, other, 1)) return *e;
       DType a = c.dtype("self"), b = c.dtype(other);
       if (a != b)
         return c.semantic("expected both vectors to have same dtype, but found {} and {}", name(a), name(b));
       return tensorOf(a, Rank::exact(0));
     }).sample("self", "sweep![2]").sample(other, "sweep![2]");
  }
  // outer/ger are a broadcasting multiply: they promote.
  for (const char *k : {"aten::outer", "aten::ger"})
    r.add(k, fam, [](const OpCall &c) -> RuleResult {
       if (auto e = requireRank(c, "self", 1)) return *e;
       if (auto e = requireRank(c, "vec2", 1)) return *e;
       std::vector<PromotionOperand> ops{{c.dtype("self"), Tier::Dim}, {c.dtype("vec2"), Tier::Dim}};
       return tensorOf(c.resultType(ops), Rank::exact(2));
     }).sample("self", "sweep![2]").sample("vec2", "sweep![2]");
  r.add("aten::matmul", fam, matmulRule).sample("self", "sweep![2,2]").sample("other", "sweep![2,2]")
      .variant({{"self", "sweep![2]"}, {"other", "sweep![2]"}})
      .variant({{"self", "sweep![2,2,2]"}, {"other", "sweep![2]"}});
  r.add("aten::linalg_matmul", fam, matmulRule).sample("self", "sweep![2,2]").sample("other", "sweep![2,2]");

  withFactorSamples(r.add("aten::addmm", fam, addmmLike({"mat1", "mat2"}, 2, true, AddmmForm::OutOfPlace, AddmmFactors::InComputeType))
      .refuse(checks::rankIn("mat1", {2}, "mat1 must be a matrix"), {{"mat1", "float32[2]"}})
      .refuse(checks::rankIn("mat2", {2}, "mat2 must be a matrix"), {{"mat2", "float32[2]"}})
      .sample("self", "sweep![2,2]").sample("mat1", "sweep![2,2]").sample("mat2", "sweep![2,2]"),
      {{"self", "[2,2]"}, {"mat1", "[2,2]"}, {"mat2", "[2,2]"}});
  withFactorSamples(r.add("aten::addmm_", fam, addmmLike({"mat1", "mat2"}, 2, true, AddmmForm::InPlace, AddmmFactors::InComputeType))
      .refuse(checks::rankIn("mat1", {2}, "mat1 must be a matrix"), {{"mat1", "float32[2]"}})
      .refuse(checks::rankIn("mat2", {2}, "mat2 must be a matrix"), {{"mat2", "float32[2]"}})
      .sample("self", "sweep![2,2]").sample("mat1", "sweep![2,2]").sample("mat2", "sweep![2,2]")
      .variant({{"self", "sweep![2]"}, {"mat1", "float32[2,2]"}, {"mat2", "float32[2,2]"}}),
      {{"self", "[2,2]"}, {"mat1", "[2,2]"}, {"mat2", "[2,2]"}});
  // addbmm.out takes a self of another dtype (measured): its own errors.
  r.declare("aten::addbmm.out", OpFact::OutErrorsOwn);
  withFactorSamples(r.add("aten::addbmm", fam, addmmLike({"batch1", "batch2"}, 2, true, AddmmForm::OutOfPlace, AddmmFactors::InComputeType))
      .sample("self", "sweep![2,2]").sample("batch1", "sweep![1,2,2]").sample("batch2", "sweep![1,2,2]"),
      {{"self", "[2,2]"}, {"batch1", "[1,2,2]"}, {"batch2", "[1,2,2]"}});
  withFactorSamples(r.add("aten::addbmm_", fam,
                          addmmLike({"batch1", "batch2"}, 2, true, AddmmForm::InPlaceResizing, AddmmFactors::InComputeType))
      .sample("self", "sweep![2,2]").sample("batch1", "sweep![1,2,2]").sample("batch2", "sweep![1,2,2]")
      .variant({{"self", "sweep![2]"}, {"batch1", "sweep![1,2,2]"}, {"batch2", "float32[1,2,2]"}})
      .variant({{"self", "sweep![]"}, {"batch1", "float32[1,2,2]"}, {"batch2", "sweep![1,2,2]"}})
      .variant({{"self", "float32[1,2,2]"}, {"batch1", "float32[1,2,2]"}, {"batch2", "float32[1,2,2]"}}),
      {{"self", "[2,2]"}, {"batch1", "[1,2,2]"}, {"batch2", "[1,2,2]"}});
  registerOutDtypeMatmuls(r, fam);
}

/// baddbmm, addmv, linear, bilinear and einsum: rules 2.14 changed.
void registerBaddbmmAddmvLinear(Registry &r) {
  const char *fam = "nn.linear";
  // baddbmm/addmv copy self into a result of the matrices' dtype: any self
  // in 1.13; 2.6 checks all three of baddbmm share one dtype, and its factors
  // go into the compute type; addmv checks self only from 2.14 on.
  for (auto [scope, selfMustMatch, factors] :
       {std::tuple{r.since(TorchVersion::V1_13), false, AddmmFactors::InResultType},
        std::tuple{r.since(TorchVersion::V2_6), true, AddmmFactors::InComputeType}})
    withFactorSamples(scope.add("aten::baddbmm", fam,
                                addmmLike({"batch1", "batch2"}, 3, selfMustMatch, AddmmForm::OutOfPlace, factors))
        .sample("self", "sweep![1,2,2]").sample("batch1", "sweep![1,2,2]").sample("batch2", "sweep![1,2,2]"),
        {{"self", "[1,2,2]"}, {"batch1", "[1,2,2]"}, {"batch2", "[1,2,2]"}});
  for (auto [scope, selfMustMatch] : {std::pair{r.since(TorchVersion::V1_13), false}, std::pair{r.since(TorchVersion::V2_14), true}})
    withFactorSamples(scope.add("aten::addmv", fam, addmmLike({"mat", "vec"}, 1, selfMustMatch, AddmmForm::OutOfPlace))
        .sample("self", "sweep![2]").sample("mat", "sweep![2,2]").sample("vec", "sweep![2]"),
        {{"self", "[2]"}, {"mat", "[2,2]"}, {"vec", "[2]"}});
  for (auto [scope, factors] : {std::pair{r.since(TorchVersion::V1_13), AddmmFactors::InResultType},
                                std::pair{r.since(TorchVersion::V2_6), AddmmFactors::InComputeType}})
    withFactorSamples(scope.add("aten::baddbmm_", fam, addmmLike({"batch1", "batch2"}, 3, false, AddmmForm::InPlace, factors))
        .sample("self", "sweep![1,2,2]").sample("batch1", "sweep![1,2,2]").sample("batch2", "sweep![1,2,2]"),
        {{"self", "[1,2,2]"}, {"batch1", "[1,2,2]"}, {"batch2", "[1,2,2]"}});
  withFactorSamples(r.add("aten::addmv_", fam, addmmLike({"mat", "vec"}, 1, false, AddmmForm::InPlace))
      .sample("self", "sweep![2]").sample("mat", "sweep![2,2]").sample("vec", "sweep![2]")
      .variant({{"self", "sweep![]"}, {"mat", "float32[2,2]"}, {"vec", "float32[2]"}}),
      {{"self", "[2]"}, {"mat", "[2,2]"}, {"vec", "[2]"}});

  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), RuleFn(linearRule)},
                             std::pair{r.since(TorchVersion::V2_6), RuleFn(linearAddmmForOneDimBiasRule<true>)},
                             std::pair{r.since(TorchVersion::V2_14), RuleFn(linearAddmmForOneDimBiasRule<false>)}})
    scope.add("aten::linear", fam, rule)
        .sample("input", "sweep![2,2]").sample("weight", "sweep![2,2]").sample("bias", "sweep![2]")
        .variant({{"input", "sweep![2]"}, {"weight", "sweep![2,2]"}, {"bias", "sweep![2]"}})
        .variant({{"input", "sweep![2,2,2]"}, {"weight", "float32[2,2]"}, {"bias", "sweep![]"}})
        // size-1 facts: leading input dims kept, then the output features (weight's dim 0)
        .variant({{"input", "sweep![1,3,2]"}, {"weight", "float32[1,2]"}, {"bias", "sweep![1]"}})
        .variant({{"input", "float32[3,1,2]"}, {"weight", "sweep![3,2]"}, {"bias", "None"}})
        .variant({{"input", "sweep![1,2]"}, {"weight", "float64[2]"}, {"bias", "None"}});
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), RuleFn(bilinearRule<true>)},
                             std::pair{r.since(TorchVersion::V2_6), RuleFn(bilinearRule<false>)}})
    scope.add("aten::bilinear", fam, rule)
        .sample("input1", "sweep![1,2]").sample("input2", "sweep![1,2]").sample("weight", "sweep![1,2,2]")
        .sample("bias", "sweep![1]");
  r.add("aten::einsum", fam, einsumRule).sample("equation", "'ij,jk->ik'")
      .sample("tensors", "[sweep![2,2],sweep![2,2]]")
      .variant({{"equation", "'ij,ij->ij'"}})
      .variant({{"equation", "'i,j'"}, {"tensors", "[sweep![2],sweep![2]]"}})
      .variant({{"equation", "'ij,->ij'"}, {"tensors", "[sweep![2,2],sweep![]]"}})
      .variant({{"equation", "'ij->i'"}, {"tensors", "[sweep![2,2]]"}})
      .variant({{"equation", "'ii'"}, {"tensors", "[sweep![2,2]]"}})
      .variant({{"equation", "'...j,j'"}, {"tensors", "[sweep![2,1,2],sweep![2]]"}})
      .variant({{"equation", "'b...->b'"}, {"tensors", "[sweep![2,2,1]]"}})
      .variant({{"equation", "'...ij,...jk->...ik'"}, {"tensors", "[sweep![1,2,2],sweep![2,2]]"}})
      .variant({{"equation", "'ij->ji'"}, {"tensors", "[sweep![2,2]]"}})
      .variant({{"equation", "'ij,ij->ij'"}, {"tensors", "[float32[2,1],float32[1,3]]"}}) // sizes: a label's 1 broadcasts
      .variant({{"equation", "'bhid,bhjd->bhij'"}, {"tensors", "[float32[2,3,4,5],float32[2,3,6,5]]"}})
      .variant({{"equation", "'ij,ij->ij'"}, {"tensors", "[float32[2,3],float32[2,4]]"}})
      .variant({{"tensors", "[sweep![2,1],sweep![1,2]]"}})
      .variant({{"tensors", "[sweep![2,3],sweep![1,2]]"}})
      .variant({{"equation", "'ij,jk,kl->il'"}, {"tensors", "[sweep![2,2],sweep![2,2],sweep![2,2]]"}})
      .variant({{"equation", "'bij,bjk'"}, {"tensors", "[sweep![2,1,3],sweep![1,3,2]]"}});
}

/// tensordot, _trilinear, linalg_cross and the determinants.
void registerContractionsAndDeterminants(Registry &r) {
  const char *fam = "nn.linear";
  // Variants: a contracted dim of size 1 in other (self is summed), in self
  // only (other is summed), in both; negative dims.
  // Each contracted dim must name a dim of its tensor (a 0-dim one has none).
  const ArgCheck contractedDims = [](const OpCall &c) -> std::optional<RuleError> {
    for (auto [t, dims] : {std::pair{"self", "dims_self"}, std::pair{"other", "dims_other"}}) {
      auto rk = c.rank(t).value();
      const Value &l = c.arg(dims);
      if (!rk || !l.isList() || !l.lengthKnown()) continue;
      for (const Value &e : l.elements()) {
        auto d = e.intValue();
        if (!d) continue;
        if (*rk == 0) return c.semantic("Dimension specified as {} but tensor has no dimensions", *d);
        if (*d < -*rk || *d >= *rk)
          return c.semantic("Dimension out of range (expected to be in range of [{}, {}], but got {})", -*rk, *rk - 1, *d);
      }
    }
    return std::nullopt;
  };
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), RuleFn(tensordotRule)},
                             std::pair{r.since(TorchVersion::V2_6), RuleFn(tensordotSameDTypeRule)}})
  scope.add("aten::tensordot", fam, rule)
      .sample("self", "sweep![2,2]").sample("other", "sweep![2,2]").sample("dims_self", "[1]")
      .sample("dims_other", "[0]")
      .refuse(contractedDims, {{"self", "sweep[2,2]"}})
      .variant({{"other", "sweep[2,2]"}}).variant({{"dims_self", "[2]"}}).variant({{"dims_other", "[-3]"}})
      .variant({{"self", "sweep[2,2]"}, {"dims_self", "[]"}, {"dims_other", "[]"}})
      .refuse(checks::sameLength("dims_self", "dims_other", "both dimension lists should have same length"),
              {{"dims_self", "[0,1]"}})
      .variant({{"self", "sweep![3,2]"}, {"other", "sweep![1,4]"}, {"dims_self", "[0]"}, {"dims_other", "[0]"}})
      .variant({{"self", "sweep![1,2]"}, {"other", "sweep![3,2]"}, {"dims_self", "[0]"}, {"dims_other", "[0]"}})
      .variant({{"self", "sweep![1,2]"}, {"other", "sweep![1,3]"}, {"dims_self", "[0]"}, {"dims_other", "[0]"}})
      .variant({{"self", "sweep![2,1,3]"}, {"other", "sweep![3,1]"}, {"dims_self", "[-1,1]"},
                {"dims_other", "[0,-1]"}});
  // unroll_dim must be below i1's rank plus expand1's length. Variants: mul
  // only; bmm in the second pair (with and without a pre-sum of buf); bmm
  // with a pre-sum of i1 in the first pair; bilinear's own call; every slice
  // empty (unroll_dim expanded everywhere).
  r.add("aten::_trilinear", fam, trilinearRule)
      .sample("i1", "sweep![2]").sample("i2", "sweep![2]").sample("i3", "sweep![2]").sample("expand1", "[]")
      .sample("expand2", "[]").sample("expand3", "[]").sample("sumdim", "[]").sample("unroll_dim", "0")
      .variant({{"i1", "sweep![2,3]"}, {"i2", "sweep![2,3]"}, {"i3", "sweep![2,3]"}, {"sumdim", "[1]"}, {"unroll_dim", "1"}})
      .variant({{"i1", "sweep![2,3]"}, {"i2", "sweep![2,3]"}, {"i3", "sweep![2,3]"}, {"sumdim", "[1]"}})
      .variant({{"i1", "sweep![2,3]"}, {"i2", "sweep![2,1]"}, {"i3", "sweep![2,1]"}, {"sumdim", "[1]"}})
      .variant({{"i1", "sweep![2,3]"}, {"i2", "sweep![2,1]"}, {"expand3", "[1]"}, {"sumdim", "[1]"}})
      .variant({{"i1", "sweep![2,3]"}, {"i2", "sweep![4,3,5]"}, {"i3", "sweep![2,5]"}, {"expand1", "[1,3]"},
                {"expand2", "[0]"}, {"expand3", "[1,2]"}, {"sumdim", "[2,3]"}, {"unroll_dim", "1"}})
      .variant({{"expand1", "[1]"}, {"expand2", "[1]"}, {"expand3", "[1]"}, {"unroll_dim", "1"}});
  r.add("aten::linalg_cross", fam, [](const OpCall &c) -> RuleResult {
     auto a = c.rank("self").value(), b = c.rank("other").value();
     if (a && b && *a != *b) return c.semantic("linalg.cross: inputs must have the same number of dimensions");
     if (auto e = requireSame(c, {"self", "other"})) return *e;
     return tensorOf(c.dtype("self"), a ? c.rank("self") : c.rank("other"));
   }).sample("self", "sweep![3]").sample("other", "sweep![3]");

  r.add("aten::linalg_det", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = requireFloatOrComplex(c, "A", "linalg.det")) return *e;
     return tensorOf(c.dtype("A"), rankMinus(c.rank("A"), 2));
   }).sample("A", "sweep![2,2]");
  r.add("aten::det", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = requireFloatOrComplex(c, "self", "linalg.det")) return *e;
     return tensorOf(c.dtype("self"), rankMinus(c.rank("self"), 2));
   }).sample("self", "sweep![2,2]");
  r.add("aten::_linalg_det", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = requireFloatOrComplex(c, "A", "linalg.det")) return *e;
     DType d = c.dtype("A");
     Rank rk = c.rank("A");
     return std::vector<Value>{tensorOf(d, rankMinus(rk, 2)), tensorOf(d, rk), tensorOf(DType::Int32, rankMinus(rk, 1))};
   }).sample("A", "sweep![2,2]");
  for (const char *k : {"aten::linalg_slogdet", "aten::slogdet"}) {
    std::string a = std::string(k) == "aten::slogdet" ? "self" : "A";
    r.add(k, fam, [a](const OpCall &c) -> RuleResult {
       if (auto e = requireFloatOrComplex(c, a, "linalg.slogdet")) return *e;
       DType d = c.dtype(a);
       if (isLowPrecision(d))
         return c.semantic("linalg.slogdet: low precision dtypes not supported, got {}", name(d));
       Rank rk = rankMinus(c.rank(a), 2);
       return std::vector<Value>{tensorOf(d, rk), tensorOf(toRealValueType(d), rk)};
     }).sample(a, "sweep![2,2]");
  }
}

/// Convolutions: the N-d forms, convolution, conv_tbc and the backward.
void registerConvolutions(Registry &r) {
  // Convolutions.
  const char *cf = "nn.conv";
  // The N-d forms, sampled with a 1x1 kernel over a 3^N input.
  // `originalCheck` / `changedCheck`: the bias check as 1.13 had it, and as
  // 2.14 changed it (conv1d and conv3d check like conv2d; 1-D and 2-D
  // transposed ones add the bias in place).
  struct Conv { const char *key; BiasCheck originalCheck, changedCheck; int spatial; };
  for (Conv cv : {Conv{"aten::conv1d", BiasCheck::ComplexOnly, BiasCheck::Always, 1},
                  Conv{"aten::conv2d", BiasCheck::Always, BiasCheck::Always, 2},
                  Conv{"aten::conv3d", BiasCheck::ComplexOnly, BiasCheck::Always, 3},
                  Conv{"aten::conv1d.padding", BiasCheck::ComplexOnly, BiasCheck::ComplexOnly, 1},
                  Conv{"aten::conv2d.padding", BiasCheck::ComplexOnly, BiasCheck::ComplexOnly, 2},
                  Conv{"aten::conv3d.padding", BiasCheck::ComplexOnly, BiasCheck::ComplexOnly, 3},
                  Conv{"aten::conv_transpose1d", BiasCheck::Always, BiasCheck::AddedInPlace, 1},
                  Conv{"aten::conv_transpose2d.input", BiasCheck::Always, BiasCheck::AddedInPlace, 2},
                  Conv{"aten::conv_transpose3d.input", BiasCheck::Always, BiasCheck::Always, 3}}) {
    std::string in = "sweep![1,1", w = "sweep![1,1";
    for (int i = 0; i < cv.spatial; ++i) in += ",3", w += ",1";
    for (auto [scope, check] : {std::pair{r.since(TorchVersion::V1_13), cv.originalCheck},
                                std::pair{r.since(TorchVersion::V2_6), cv.changedCheck}}) {
      const bool oneDnnDilation = check == BiasCheck::AddedInPlace; // 2.14's conv_transpose1d/2d
      Registry::Entry e = scope.add(cv.key, cf,
                                    convParamLengths(convRule(check), cv.spatial, r.schemas(), cv.key, oneDnnDilation))
          .sample("input", in + "]").sample("weight", w + "]").sample("bias", "sweep![1]")
          .variant({{"stride", "[1,1,1,1]"}}).variant({{"dilation", "[]"}})
          .variant({{"bias", "None"}, {"stride", "[0]"}})
          .variant({{"bias", "None"}, {"dilation", "[0]"}}).variant({{"bias", "None"}, {"groups", "0"}});
      if (!std::string_view(cv.key).ends_with(".padding")) e.variant({{"bias", "None"}, {"padding", "[-1]"}});
    }
  }
  for (const char *k : {"aten::convolution", "aten::_convolution", "aten::_convolution.deprecated"})
    for (auto [scope, check] : {std::pair{r.since(TorchVersion::V1_13), BiasCheck::ByTransposed},
                                std::pair{r.since(TorchVersion::V2_6), BiasCheck::ByTransposedAddedInPlace}})
      scope.add(k, cf, convParamValues(convRule(check), r.schemas(), k))
          .sample("input", "sweep![1,1,3,3]").sample("weight", "sweep![1,1,1,1]").sample("bias", "sweep![1]")
          .sample("stride", "[1,1]").sample("padding", "[0,0]").sample("dilation", "[1,1]")
          .sample("transposed", "False").sample("output_padding", "[0,0]").sample("groups", "1")
          .variant({{"transposed", "True"}});
  r.add("aten::_convolution_mode", cf, convRule(BiasCheck::ComplexOnly))
      .sample("input", "sweep![1,1,3,3]").sample("weight", "sweep![1,1,1,1]").sample("bias", "sweep![1]")
      .sample("stride", "[1,1]").sample("padding", "'valid'").sample("dilation", "[1,1]").sample("groups", "1");
  r.add("aten::conv_tbc", cf, [](const OpCall &c) -> RuleResult {
     if (auto e = requireSame(c, {"self", "weight"})) return *e;
     return tensorOf(c.dtype("self"), Rank::exact(3));
   }).sample("self", "sweep![3,1,1]").sample("weight", "sweep![1,1,1]").sample("bias", "sweep![1]")
      .refuse(checks::rankIn("self", {3}, "Input must have 3 dims: time, batch, in_channel"), {{"self", "float32[3,1]"}})
      .refuse(checks::rankIn("weight", {3}, "Weight tensor must have 3 dims: kernel_width, in_channels, out_channels"),
              {{"weight", "float32[1,1]"}})
      .refuse(checks::rankIn("bias", {1}, "Bias must have 1 dim: out_channels"), {{"bias", "float32[1,1]"}});
  for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), RuleFn(convBackwardRule<false>)},
                             std::pair{r.since(TorchVersion::V2_6), RuleFn(convBackwardRule<true>)}})
    scope.add("aten::convolution_backward", cf, rule)
        .sample("grad_output", "sweep![1,1,3,3]").sample("input", "sweep![1,1,3,3]").sample("weight", "sweep![1,1,1,1]")
        .sample("bias_sizes", "[1]").sample("stride", "[1,1]").sample("padding", "[0,0]").sample("dilation", "[1,1]")
        .sample("transposed", "False").sample("output_padding", "[0,0]").sample("groups", "1")
        .sample("output_mask", "[True,True,True]");
}

} // namespace

void registerConvLinear(Registry &r) {
  registerMatmuls(r);
  registerBaddbmmAddmvLinear(r);
  registerContractionsAndDeterminants(r);
  registerConvolutions(r);
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h)
//===----------------------------------------------------------------------===//

namespace {

/// Two dims a product contracts: known different sizes are PyTorch's error.
std::optional<RuleError> contracted(const OpCall &c, const Dim &a, const Dim &b) {
  if (compareDims(a, b) == DimsEqual::Differ && a.value() && b.value())
    return c.semantic("shapes cannot be multiplied (inner sizes {} and {})", a.str(), b.str());
  return std::nullopt;
}

/// at::matmul's result sizes, by the ranks of its operands.
ShapeResult matmulShape(const OpCall &c, std::string_view x, std::string_view y) {
  auto a = dimsOf(c, x), b = dimsOf(c, y);
  if (!a || !b || a->empty() || b->empty()) return {};
  const Dim &inner = b->size() == 1 ? (*b)[0] : (*b)[b->size() - 2];
  if (auto e = contracted(c, a->back(), inner)) return *e;
  Dims batchA(a->begin(), a->end() - std::min<size_t>(a->size(), 2));
  Dims batchB(b->begin(), b->end() - std::min<size_t>(b->size(), 2));
  std::vector<Dims> batches{batchA, batchB};
  Broadcast batch = broadcastShapes(batches);
  if (batch.mismatch) return c.semantic("{}", *batch.mismatch);
  Dims out = *batch.dims;
  if (a->size() >= 2) out.push_back((*a)[a->size() - 2]);
  if (b->size() >= 2) out.push_back(b->back());
  return out;
}

/// mm / bmm (and the add* forms' product): exact ranks required.
ShapeResult productShape(const OpCall &c, std::string_view x, std::string_view y, size_t rank) {
  auto a = dimsOf(c, x), b = dimsOf(c, y);
  if (!a || !b || a->size() != rank || b->size() != rank) return {};
  if (auto e = contracted(c, a->back(), (*b)[rank - 2])) return *e;
  Dims out(a->begin(), a->end() - 1);
  if (rank == 3) {
    DimsEqual eq = compareDims((*a)[0], (*b)[0]);
    if (eq == DimsEqual::Differ && (*a)[0].value() && (*b)[0].value())
      return c.semantic("batch sizes {} and {} differ", (*a)[0].str(), (*b)[0].str());
    if (eq != DimsEqual::Equal) out[0] = out[0].known() ? out[0] : (*b)[0];
  }
  out.push_back(b->back());
  return out;
}

/// A list argument of a convolution or pooling (stride, padding ...), one
/// value per spatial dim (a one-element list applies to all).
/// Per spatial dim: stride, padding, dilation or output_padding, a single
/// int repeated (`int[2] stride=1`); read in place, into a fixed array (a
/// heap vector each cost more than the arithmetic: convolutions are the most
/// frequent distinct evaluations of a sized pass).
constexpr size_t kMaxSpatial = 8; // PyTorch convolves 1-3 spatial dims; more: sizes unknown
using Spatial = std::array<int64_t, kMaxSpatial>;

bool perSpatial(const OpCall &c, std::string_view name, size_t n, Spatial &out) {
  const Value *vp = c.argIf(name);
  if (!vp) return false;
  const Value &v = *vp;
  if (auto i = v.intValue(); i && v.isNumber()) { // one int for every dim
    out.fill(*i);
    return true;
  }
  if (!v.isList() || !v.lengthKnown()) return false;
  const auto &el = v.elements();
  if (el.size() != 1 && el.size() != n) return false;
  for (size_t k = 0; k < el.size(); ++k) {
    auto i = el[k].intValue();
    if (!i || el[k].numKind() == NumKind::Float) return false;
    out[k] = *i;
  }
  if (el.size() == 1) out.fill(out[0]);
  return true;
}

/// The rank dimsOf() would give `v` (a number: 0), without copying its dims.
std::optional<size_t> rankOf(const OpCall &c, std::string_view name) {
  const Value *vp = c.argIf(name);
  if (!vp) return std::nullopt;
  const Value &v = *vp;
  if (v.isNumber()) return 0;
  auto r = v.isTensor() ? v.rank().value() : std::nullopt;
  return r ? std::optional<size_t>(*r) : std::nullopt;
}

/// at::convolution's output sizes (ConvUtils.h conv_output_size /
/// conv_input_size for transposed); `batched`: input has a batch dim.
/// One spatial output size from known sizes, in int64 as Dim arithmetic
/// computes it (Python's floor division); nullopt when a step overflows,
/// where the Dim arithmetic decides (an unknown size).
std::optional<int64_t> convOutSize(int64_t x, int64_t k, int64_t stride, int64_t pad, int64_t dilation,
                                   int64_t outPad, bool transposed) {
  int64_t span, twoPad, v;
  if (__builtin_sub_overflow(k, 1, &span) || __builtin_mul_overflow(dilation, span, &span) ||
      __builtin_mul_overflow(int64_t{2}, pad, &twoPad))
    return std::nullopt;
  if (transposed) { // (x - 1)*stride - 2*pad + span + outPad + 1
    if (__builtin_sub_overflow(x, 1, &v) || __builtin_mul_overflow(v, stride, &v) ||
        __builtin_sub_overflow(v, twoPad, &v) || __builtin_add_overflow(v, span, &v) ||
        __builtin_add_overflow(v, outPad, &v) || __builtin_add_overflow(v, 1, &v))
      return std::nullopt;
    return v;
  }
  // (x + 2*pad - span - 1) // stride + 1
  if (__builtin_add_overflow(x, twoPad, &v) || __builtin_sub_overflow(v, span, &v) || __builtin_sub_overflow(v, 1, &v))
    return std::nullopt;
  int64_t q = v / stride - (v % stride != 0 && v < 0); // floor, stride > 0
  if (__builtin_add_overflow(q, 1, &q)) return std::nullopt;
  return q;
}

ShapeResult convolutionShape(const OpCall &c, bool transposed, const char *paddingMode = nullptr) {
  auto inRank = rankOf(c, "input"), wRank = rankOf(c, "weight");
  auto groups = intArg(c, "groups");
  if (!inRank || !wRank || !groups || *wRank < 3 || *groups <= 0) return {};
  const Value &in = c.arg("input"), &w = c.arg("weight");
  const size_t spatial = *wRank - 2;
  const bool batched = *inRank == *wRank;
  if ((!batched && *inRank + 1 != *wRank) || spatial > kMaxSpatial) return {};
  Spatial stride, dilation, padding{}, outPad{};
  const bool same = paddingMode && std::string_view(paddingMode) == "same";
  if (!perSpatial(c, "stride", spatial, stride) || !perSpatial(c, "dilation", spatial, dilation)) return {};
  if (!paddingMode && !perSpatial(c, "padding", spatial, padding)) return {};
  if (transposed && !perSpatial(c, "output_padding", spatial, outPad)) return {};
  Dims out;
  out.reserve(*wRank);
  if (batched) out.push_back(in.dimAt(0));
  out.push_back(transposed ? w.dimAt(1) * Dim(*groups) : w.dimAt(0));
  const int first = batched ? 2 : 1;
  for (size_t i = 0; i < spatial; ++i) {
    Dim x = in.dimAt(first + static_cast<int>(i)), k = w.dimAt(2 + static_cast<int>(i));
    if (same) {
      out.push_back(std::move(x));
      continue;
    }
    if (stride[i] <= 0) return {}; // PyTorch raises
    if (auto xv = x.value(), kv = k.value(); xv && kv) // known sizes (nearly all): no expressions to build
      if (auto o = convOutSize(*xv, *kv, stride[i], padding[i], dilation[i], outPad[i], transposed)) {
        out.emplace_back(*o);
        continue;
      }
    Dim span = Dim(dilation[i]) * (k - Dim(1)); // d*(k-1)
    Dim pad = Dim(2) * Dim(padding[i]);
    if (transposed)
      out.push_back((x - Dim(1)) * Dim(stride[i]) - pad + span + Dim(outPad[i]) + Dim(1));
    else
      out.push_back(floorDiv(x + pad - span - Dim(1), Dim(stride[i])) + Dim(1));
  }
  for (const Dim &d : out)
    if (auto v = d.value(); v && *v < 0) return {}; // PyTorch raises ("output size is too small")
  return out;
}

ShapeResult linearShape(const OpCall &c) {
  auto in = dimsOf(c, "input"), w = dimsOf(c, "weight");
  if (!in || !w || in->empty() || w->empty() || w->size() > 2) return {};
  if (auto e = contracted(c, in->back(), w->back())) return *e;
  Dims out(in->begin(), in->end() - 1);
  if (w->size() == 2) out.push_back((*w)[0]);
  if (c.has("bias") && !c.arg("bias").isNone()) { // the bias broadcasts into the product (unknown: no sizes)
    auto b = dimsOf(c, "bias");
    if (!b) return {};
    std::vector<Dims> both{out, *b};
    Broadcast r = broadcastShapes(both);
    if (!r.dims || r.dims->size() != out.size()) return {};
    out = *r.dims;
  }
  return out;
}

/// bilinear(x1 [*, n1], x2 [*, n2], weight [o, n1, n2]): [*, o] (the
/// leading dims of x1, which x2 must share).
ShapeResult bilinearShape(const OpCall &c) {
  auto a = dimsOf(c, "input1"), w = dimsOf(c, "weight");
  if (!a || !w || a->empty() || w->size() != 3) return {};
  if (auto e = contracted(c, a->back(), (*w)[1])) return *e;
  a->back() = (*w)[0];
  return *a;
}

/// _trilinear(i1, i2, i3, expand1..3, sumdim): each input gets size-1 dims
/// at its expand list, to rank len(i1) + len(expand1); the result's dim i
/// (sumdim's dropped) is the size of the last input not expanded there (0
/// where all three are): measured against libtorch 1.13 and 2.14 on 3,000
/// random calls, which matched every one that ran.
ShapeResult trilinearShape(const OpCall &c) {
  std::vector<std::pair<Dims, std::vector<bool>>> full; // sizes, expanded
  size_t total = 0;
  for (auto [in, ex] : {std::pair{"i1", "expand1"}, std::pair{"i2", "expand2"}, std::pair{"i3", "expand3"}}) {
    auto d = dimsOf(c, in);
    auto e = intListArg(c, ex);
    if (!d || !e) return {};
    if (full.empty()) total = d->size() + e->size();
    if (d->size() + e->size() != total) return {};
    Dims f(total); // unknown: expanded here
    std::vector<bool> expanded(total, false);
    for (int64_t i : *e) {
      if (i < 0 || static_cast<size_t>(i) >= total) return {};
      expanded[i] = true;
    }
    size_t next = 0;
    for (size_t i = 0; i < total; ++i)
      if (!expanded[i]) f[i] = (*d)[next++];
    full.emplace_back(std::move(f), std::move(expanded));
  }
  auto sum = intListArg(c, "sumdim");
  if (!sum) return {};
  Dims out;
  for (size_t i = 0; i < total; ++i) {
    if (std::find(sum->begin(), sum->end(), static_cast<int64_t>(i)) != sum->end()) continue;
    Dim size(0);
    for (const auto &[f, expanded] : full)
      if (!expanded[i]) size = f[i];
    out.push_back(size);
  }
  return out;
}

/// tensordot: self's dims outside dims_self, then other's outside
/// dims_other (a contracted size of 1 against another is summed first:
/// it does not show in the result).
ShapeResult tensordotShape(const OpCall &c) {
  auto a = dimsOf(c, "self"), b = dimsOf(c, "other");
  auto da = intListArg(c, "dims_self"), db = intListArg(c, "dims_other");
  if (!a || !b || !da || !db || da->size() != db->size()) return {};
  Dims out;
  for (auto [d, dims] : {std::pair{&*a, &*da}, std::pair{&*b, &*db}}) {
    std::vector<bool> contracted(d->size(), false);
    for (int64_t i : *dims) {
      auto w = wrapDim(i, static_cast<int>(d->size()));
      if (!w || contracted[*w]) return {}; // PyTorch raises
      contracted[*w] = true;
    }
    for (size_t i = 0; i < d->size(); ++i)
      if (!contracted[i]) out.push_back((*d)[i]);
  }
  return out;
}

/// conv_tbc(self [T, B, Cin], weight [K, Cin, Cout], bias, pad):
/// [T + 2 pad - K + 1, B, Cout].
ShapeResult convTbcShape(const OpCall &c) {
  auto in = dimsOf(c, "self"), w = dimsOf(c, "weight");
  auto pad = intArg(c, "pad");
  if (!in || !w || !pad || in->size() != 3 || w->size() != 3) return {};
  Dim t = (*in)[0] + Dim(2 * *pad) - (*w)[0] + Dim(1);
  if (auto v = t.value(); v && *v < 0) return {}; // PyTorch raises
  return Dims{t, (*in)[1], (*w)[2]};
}

/// convolution_backward: grad_input, grad_weight and grad_bias have input's,
/// weight's and bias_sizes' sizes (an output output_mask leaves out is None).
ShapeResult convolutionBackwardShape(const OpCall &c) {
  std::vector<std::optional<Dims>> out{dimsOf(c, "input"), dimsOf(c, "weight"), std::nullopt};
  if (!c.isNone("bias_sizes")) out[2] = sizeListArg(c, "bias_sizes");
  return out;
}

} // namespace

namespace {
/// einsum's sizes without an ellipsis: each output label's size is the
/// broadcast of its dims across the operands (a label's dims must agree or
/// be 1); unknown where they may disagree.
ShapeResult einsumShape(const OpCall &c) {
  const Value &ts = c.arg("tensors");
  auto eq = c.arg("equation").text();
  if (!eq || !ts.isList() || !ts.lengthKnown()) return {};
  const EinsumLabels l = parseEinsum(*eq);
  if (l.ellipsis || l.ops.size() != ts.elements().size()) return {};
  std::map<char, Dim> size;
  for (size_t k = 0; k < l.ops.size(); ++k) {
    auto dims = ts.elements()[k].isTensor() ? ts.elements()[k].shape() : std::nullopt;
    if (!dims || dims->size() != l.ops[k].size()) return {};
    for (size_t i = 0; i < dims->size(); ++i) {
      auto [it, added] = size.try_emplace(l.ops[k][i], (*dims)[i]);
      if (added) continue;
      const Dim &a = it->second, &b = (*dims)[i];
      if (a.value() && b.value() && *a.value() != *b.value() && *a.value() != 1 && *b.value() != 1)
        return c.semantic("einsum(): operands do not broadcast: subscript {} has sizes {} and {}", l.ops[k][i],
                          *a.value(), *b.value());
      it->second = broadcastDim(a, b);
    }
  }
  Dims out;
  for (char ch : l.out) {
    auto it = size.find(ch);
    if (it == size.end()) return {};
    out.push_back(it->second);
  }
  return out;
}
} // namespace

void registerConvLinearShapes(Registry &r) {
  r.shape("aten::einsum", einsumShape);
  for (const char *k : {"aten::matmul", "aten::linalg_matmul"})
    r.shape(k, [](const OpCall &c) { return matmulShape(c, "self", "other"); });
  for (const char *k : {"aten::mm", "aten::mm.dtype"})
    r.shape(k, [](const OpCall &c) { return productShape(c, "self", "mat2", 2); });
  for (const char *k : {"aten::bmm", "aten::bmm.dtype"})
    r.shape(k, [](const OpCall &c) { return productShape(c, "self", "mat2", 3); });
  for (const char *k : {"aten::addmm", "aten::addmm.dtype"})
    r.shape(k, [](const OpCall &c) { return productShape(c, "mat1", "mat2", 2); });
  for (const char *k : {"aten::baddbmm", "aten::baddbmm.dtype"})
    r.shape(k, [](const OpCall &c) { return productShape(c, "batch1", "batch2", 3); });
  r.shape("aten::mv", [](const OpCall &c) { return matmulShape(c, "self", "vec"); });
  r.shape("aten::dot", [](const OpCall &) -> ShapeResult { return Dims{}; });
  r.shape("aten::vdot", [](const OpCall &) -> ShapeResult { return Dims{}; });
  for (const char *k : {"aten::outer", "aten::ger"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto a = dimsOf(c, "self"), b = dimsOf(c, "vec2");
      if (!a || !b || a->size() != 1 || b->size() != 1) return {};
      return Dims{(*a)[0], (*b)[0]};
    });
  r.shape("aten::linear", linearShape);
  r.shape("aten::convolution", [](const OpCall &c) -> ShapeResult {
    auto t = boolArg(c, "transposed");
    return t ? convolutionShape(c, *t) : ShapeResult{};
  });
  for (const char *k : {"aten::_convolution", "aten::_convolution.deprecated"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto t = boolArg(c, "transposed");
      return t ? convolutionShape(c, *t) : ShapeResult{};
    });
  for (const char *k : {"aten::conv1d", "aten::conv2d", "aten::conv3d"})
    r.shape(k, [](const OpCall &c) { return convolutionShape(c, false); });
  for (const char *k : {"aten::conv_transpose1d", "aten::conv_transpose2d.input", "aten::conv_transpose3d.input"})
    r.shape(k, [](const OpCall &c) { return convolutionShape(c, true); });
  for (const char *k : {"aten::conv1d.padding", "aten::conv2d.padding", "aten::conv3d.padding"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto mode = c.arg("padding").text();
      if (!mode || (*mode != "same" && *mode != "valid")) return {};
      return convolutionShape(c, false, *mode == "same" ? "same" : "valid");
    });
  // (issue 35, shapes-cover) the products' other forms, bilinear, det's
  // factors, conv_tbc, convolution_backward.
  r.shape("aten::_convolution_mode", [](const OpCall &c) -> ShapeResult {
    auto mode = c.arg("padding").text();
    if (!mode || (*mode != "same" && *mode != "valid")) return {};
    return convolutionShape(c, false, *mode == "same" ? "same" : "valid");
  });
  r.shape("aten::addbmm", [](const OpCall &c) -> ShapeResult {
    ShapeResult s = productShape(c, "batch1", "batch2", 3);
    if (!s.outputs.empty() && s.outputs[0]) s.outputs[0]->erase(s.outputs[0]->begin()); // summed over the batch
    return s;
  });
  r.shape("aten::addmv", [](const OpCall &c) { return matmulShape(c, "mat", "vec"); });
  // In place: self keeps its sizes (PyTorch raises where the product would
  // broadcast it to others).
  for (const char *k : {"aten::addbmm_", "aten::addmm_", "aten::baddbmm_", "aten::addmv_"}) r.shape(k, sameShapeAs());
  for (const char *k : {"aten::_int_mm", "aten::_scaled_mm"})
    r.shape(k, [](const OpCall &c) { return productShape(c, "self", "mat2", 2); });
  r.shape("aten::bilinear", bilinearShape);
  r.shape("aten::_linalg_det", [](const OpCall &c) -> ShapeResult {
    auto a = dimsOf(c, "A");
    if (!a || a->size() < 2) return {};
    Dims det(a->begin(), a->end() - 2), pivots(a->begin(), a->end() - 1);
    return std::vector<std::optional<Dims>>{det, *a, pivots};
  });
  // The out_dtype forms' out overloads (registered with their functional's rule).
  r.shape("aten::mm.dtype_out", [](const OpCall &c) { return productShape(c, "self", "mat2", 2); });
  r.shape("aten::bmm.dtype_out", [](const OpCall &c) { return productShape(c, "self", "mat2", 3); });
  r.shape("aten::addmm.dtype_out", [](const OpCall &c) { return productShape(c, "mat1", "mat2", 2); });
  r.shape("aten::baddbmm.dtype_out", [](const OpCall &c) { return productShape(c, "batch1", "batch2", 3); });
  r.shape("aten::_trilinear", trilinearShape);
  r.shape("aten::tensordot", tensordotShape);
  r.shape("aten::_scaled_mm_v2", [](const OpCall &c) { return productShape(c, "self", "mat2", 2); });
  r.shape("aten::conv_tbc", convTbcShape);
  r.shape("aten::convolution_backward", convolutionBackwardShape);
}

} // namespace dtf
