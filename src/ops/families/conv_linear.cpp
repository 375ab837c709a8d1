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
#include "ops/vocabulary.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

namespace dtf {
namespace {

bool present(const OpCall &c, std::string_view n) { return c.arg(n).isTensor(); }


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

RuleResult matmulRule(const OpCall &c) {
  for (const char *n : {"self", "other"})
    if (auto r = c.rank(n).value(); r && *r == 0)
      return c.semantic("both arguments to matmul need to be at least 1D, but {} is 0-D", n);
  if (auto e = requireSame(c, {"self", "other"})) return *e;
  return tensorOf(c.dtype("self"), matmulRank(c.rank("self"), c.rank("other")));
}

/// addmm-style: self (bias) and both matrices share one dtype.
RuleFn addmmLike(std::vector<std::string> mats, int rank, bool selfMustMatch, bool inplace) {
  return [=](const OpCall &c) -> RuleResult {
    if (auto e = requireSame(c, {mats[0], mats[1]})) return *e;
    DType d = c.dtype(mats[0]);
    if ((selfMustMatch || inplace) && c.dtype("self") != d)
      return c.semantic("self ({}) and {} ({}) must have the same dtype", name(c.dtype("self")), mats[1], name(d));
    return tensorOf(d, inplace ? c.rank("self") : Rank::exact(rank));
  };
}

PromotionOperand operandOf(const Value &v) {
  return {*v.dtype(), v.rank().mayBeZero() ? Tier::ZeroDim : Tier::Dim};
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
  if (!present(c, "bias")) return tensorOf(d, out);
  DType b = c.dtype("bias");
  if (b == d) return tensorOf(d, out);
  // 2-D (and contiguous 3-D) inputs take the addmm path: the bias must match.
  if (auto ir = in.value(); ir && (*ir == 2 || *ir == 3))
    return c.semantic("self ({}) and mat2 ({}) must have the same dtype", name(b), name(d));
  // Otherwise: matmul, then output.add_(bias).
  if (in.value()) {
    std::vector<PromotionOperand> ops{{d, out.mayBeZero() ? Tier::ZeroDim : Tier::Dim},
                                      operandOf(c.arg("bias"))};
    DType r = *resultType(ops);
    if (!canCast(r, d))
      return c.semantic("result type {} can't be cast to the desired output type {}", name(r), name(d));
    return tensorOf(d, out);
  }
  // Unknown input rank: the bias may or may not be checked; the dtype, when
  // the call succeeds, is still the input's.
  return tensorOf(d, out);
}

RuleResult bilinearRule(const OpCall &c) {
  if (auto e = requireSame(c, {"input1", "input2", "weight"})) return *e;
  DType d = c.dtype("input1");
  Rank out = c.rank("input1");
  if (!present(c, "bias")) return tensorOf(d, out);
  std::vector<PromotionOperand> ops{{d, out.mayBeZero() ? Tier::ZeroDim : Tier::Dim}, operandOf(c.arg("bias"))};
  return tensorOf(*resultType(ops), broadcastRank({out, c.rank("bias")}));
}

/// How a forward convolution treats a bias of another dtype.
enum class BiasCheck { Always, ComplexOnly, ByTransposed };

RuleFn convRule(BiasCheck check, std::string inputName = "input") {
  return [=](const OpCall &c) -> RuleResult {
    if (auto e = requireSame(c, {inputName, "weight"})) return *e;
    DType d = c.dtype(inputName);
    Rank out = c.rank(inputName);
    if (auto r = out.value(); r && *r < 2)
      return c.semantic("expected a batched or unbatched input of at least 2 dimensions, got {}-D", *r);
    if (present(c, "bias") && c.dtype("bias") != d) {
      // Complex and bfloat16 inputs take backends (mkldnn on CPU, cudnn)
      // that check the bias; float32 does too for large inputs (mkldnn
      // heuristics), so a mismatched bias may raise: when it does not, the
      // result has the input's dtype.
      bool checked = check == BiasCheck::Always || isComplex(d) || d == DType::BFloat16;
      if (check == BiasCheck::ByTransposed) {
        auto t = c.arg("transposed").boolValue();
        if (t && *t) checked = true;
      }
      if (checked)
        return c.semantic("input type ({}) and bias type ({}) should be the same", name(d), name(c.dtype("bias")));
    }
    return tensorOf(d, out);
  };
}

RuleResult convBackwardRule(const OpCall &c) {
  // CPU mkldnn runs bf16 activations with an f32 weight, with results
  // whose dtypes and presence do not follow output_mask: unknown.
  if (c.dtype("grad_output") == DType::BFloat16 && c.dtype("input") == DType::BFloat16 &&
      c.dtype("weight") == DType::Float32)
    return std::vector<Value>{Value::unknownTensor(), Value::unknownTensor(), Value::unknownTensor()};
  if (auto e = requireSame(c, {"grad_output", "input", "weight"})) return *e;
  DType d = c.dtype("input");
  std::vector<Value> outs{tensorOf(d, c.rank("input")), tensorOf(d, c.rank("weight")), tensorOf(d, Rank::exact(1))};
  const Value &mask = c.arg("output_mask");
  if (mask.isList() && mask.lengthKnown() && mask.elements().size() == 3)
    for (int i = 0; i < 3; ++i) {
      auto b = mask.elements()[i].boolValue();
      if (b && !*b) outs[i] = Value::none();
      else if (!b) outs[i] = Value::join(outs[i], Value::none());
    }
  return outs;
}

/// einsum (measured on 1.13). Whether a letter is summed with sum() (ints
/// and bool become int64), contracted with bmm (operands must share one
/// dtype) or broadcast-multiplied depends on the sizes, so:
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
  std::string lhs = *eq, rhs;
  bool explicitOut = false;
  if (auto arrow = eq->find("->"); arrow != std::string::npos) {
    lhs = eq->substr(0, arrow);
    rhs = eq->substr(arrow + 2);
    explicitOut = true;
  }
  bool ellipsis = eq->find("...") != std::string::npos;
  // Letters per operand.
  std::vector<std::string> ops{""};
  for (char ch : lhs) {
    if (ch == ',') ops.emplace_back();
    else if (std::isalpha(static_cast<unsigned char>(ch))) ops.back() += ch;
  }
  if (ops.size() != el.size()) return c.semantic("{} operands in the equation but {} tensors given", ops.size(), el.size());
  std::string out;
  if (explicitOut) {
    for (char ch : rhs)
      if (std::isalpha(static_cast<unsigned char>(ch))) out += ch;
  } else {
    for (char ch = 'A'; ch <= 'z'; ++ch) {
      if (!std::isalpha(static_cast<unsigned char>(ch))) continue;
      size_t n = 0;
      for (const std::string &o : ops) n += std::count(o.begin(), o.end(), ch);
      if (n == 1) out += ch;
    }
  }
  bool sums = false;
  for (const std::string &o : ops)
    for (char ch : o)
      if (out.find(ch) == std::string::npos) sums = true;
  Rank rank = ellipsis ? Rank::top() : Rank::exact(static_cast<int>(out.size()));
  DType d = *el[0].dtype();
  bool oneDtype = true;
  for (const Value &v : el)
    if (*v.dtype() != d) oneDtype = false;
  if (!sums) {
    DType p = d;
    for (const Value &v : el) p = promoteTypes(p, *v.dtype());
    if (oneDtype || el.size() == 2) return tensorOf(p, rank);
    return Value::tensor(DTypeSet::all(), rank);
  }
  if (oneDtype && (isFloating(d) || isComplex(d))) return tensorOf(d, rank);
  if (oneDtype && el.size() == 1) return tensorOf(DType::Int64, rank);
  return Value::tensor(DTypeSet::all(), rank);
}

RuleResult tensordotRule(const OpCall &c) {
  if (auto e = requireSame(c, {"self", "other"})) return *e;
  Rank out = Rank::top();
  const Value &ds = c.arg("dims_self");
  auto a = c.rank("self").value(), b = c.rank("other").value();
  if (a && b && ds.isList() && ds.lengthKnown()) {
    int k = static_cast<int>(ds.elements().size());
    if (*a + *b - 2 * k >= 0) out = Rank::exact(*a + *b - 2 * k);
  }
  return tensorOf(c.dtype("self"), out);
}

RuleResult trilinearRule(const OpCall &c) {
  DType d = c.dtype("i1");
  if (c.dtype("i2") != d || c.dtype("i3") != d) return Value::unknownTensor();
  return tensorOf(d, Rank::top());
}

std::optional<RuleError> requireFloatOrComplex(const OpCall &c, std::string_view n, const char *what) {
  DType d = c.dtype(n);
  if (!isFloating(d) && !isComplex(d))
    return c.semantic("{}: expected a floating point or complex tensor as input, got {}", what, name(d));
  if (auto r = c.rank(n).value(); r && *r < 2)
    return c.semantic("{}: the input tensor {} must have at least 2 dimensions", what, n);
  return std::nullopt;
}

} // namespace

void registerConvLinear(Registry &r) {
  const char *fam = "nn.linear";
  r.add("aten::mm", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = requireRank(c, "self", 2)) return *e;
     if (auto e = requireRank(c, "mat2", 2)) return *e;
     if (auto e = requireSame(c, {"self", "mat2"})) return *e;
     return tensorOf(c.dtype("self"), Rank::exact(2));
   }).sample("self", "sweep![2,2]").sample("mat2", "sweep![2,2]");
  r.add("aten::bmm", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = requireRank(c, "self", 3)) return *e;
     if (auto e = requireRank(c, "mat2", 3)) return *e;
     if (auto e = requireSame(c, {"self", "mat2"})) return *e;
     return tensorOf(c.dtype("self"), Rank::exact(3));
   }).sample("self", "sweep![1,2,2]").sample("mat2", "sweep![1,2,2]");
  r.add("aten::mv", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = requireRank(c, "self", 2)) return *e;
     if (auto e = requireRank(c, "vec", 1)) return *e;
     if (auto e = requireSame(c, {"self", "vec"})) return *e;
     return tensorOf(c.dtype("self"), Rank::exact(1));
   }).sample("self", "sweep![2,2]").sample("vec", "sweep![2]");
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
       return tensorOf(*resultType(ops), Rank::exact(2));
     }).sample("self", "sweep![2]").sample("vec2", "sweep![2]");
  r.add("aten::matmul", fam, matmulRule).sample("self", "sweep![2,2]").sample("other", "sweep![2,2]")
      .variant({{"self", "sweep![2]"}, {"other", "sweep![2]"}})
      .variant({{"self", "sweep![2,2,2]"}, {"other", "sweep![2]"}});
  r.add("aten::linalg_matmul", fam, matmulRule).sample("self", "sweep![2,2]").sample("other", "sweep![2,2]");

  r.add("aten::addmm", fam, addmmLike({"mat1", "mat2"}, 2, true, false))
      .sample("self", "sweep![2,2]").sample("mat1", "sweep![2,2]").sample("mat2", "sweep![2,2]");
  r.add("aten::addmm_", fam, addmmLike({"mat1", "mat2"}, 2, true, true))
      .sample("self", "sweep![2,2]").sample("mat1", "sweep![2,2]").sample("mat2", "sweep![2,2]");
  r.add("aten::addbmm", fam, addmmLike({"batch1", "batch2"}, 2, true, false))
      .sample("self", "sweep![2,2]").sample("batch1", "sweep![1,2,2]").sample("batch2", "sweep![1,2,2]");
  r.add("aten::addbmm_", fam, addmmLike({"batch1", "batch2"}, 2, true, true))
      .sample("self", "sweep![2,2]").sample("batch1", "sweep![1,2,2]").sample("batch2", "sweep![1,2,2]");
  // baddbmm/addmv copy self into a result of the matrices' dtype: any self.
  r.add("aten::baddbmm", fam, addmmLike({"batch1", "batch2"}, 3, false, false))
      .sample("self", "sweep![1,2,2]").sample("batch1", "sweep![1,2,2]").sample("batch2", "sweep![1,2,2]");
  r.add("aten::baddbmm_", fam, addmmLike({"batch1", "batch2"}, 3, false, true))
      .sample("self", "sweep![1,2,2]").sample("batch1", "sweep![1,2,2]").sample("batch2", "sweep![1,2,2]");
  r.add("aten::addmv", fam, addmmLike({"mat", "vec"}, 1, false, false))
      .sample("self", "sweep![2]").sample("mat", "sweep![2,2]").sample("vec", "sweep![2]");
  r.add("aten::addmv_", fam, addmmLike({"mat", "vec"}, 1, false, true))
      .sample("self", "sweep![2]").sample("mat", "sweep![2,2]").sample("vec", "sweep![2]");

  r.add("aten::linear", fam, linearRule)
      .sample("input", "sweep![2,2]").sample("weight", "sweep![2,2]").sample("bias", "sweep![2]")
      .variant({{"input", "sweep![2]"}, {"weight", "sweep![2,2]"}, {"bias", "sweep![2]"}});
  r.add("aten::bilinear", fam, bilinearRule)
      .sample("input1", "sweep![1,2]").sample("input2", "sweep![1,2]").sample("weight", "sweep![1,2,2]")
      .sample("bias", "sweep![1]");
  r.add("aten::einsum", fam, einsumRule).sample("equation", "'ij,jk->ik'")
      .sample("tensors", "[sweep![2,2],sweep![2,2]]")
      .variant({{"equation", "'ij,ij->ij'"}})
      .variant({{"equation", "'i,j'"}, {"tensors", "[sweep![2],sweep![2]]"}})
      .variant({{"equation", "'ij,->ij'"}, {"tensors", "[sweep![2,2],sweep![]]"}})
      .variant({{"equation", "'ij->i'"}, {"tensors", "[sweep![2,2]]"}})
      .variant({{"equation", "'ii'"}, {"tensors", "[sweep![2,2]]"}})
      .variant({{"equation", "'ij->ji'"}, {"tensors", "[sweep![2,2]]"}});
  r.add("aten::tensordot", fam, tensordotRule)
      .sample("self", "sweep![2,2]").sample("other", "sweep![2,2]").sample("dims_self", "[1]")
      .sample("dims_other", "[0]");
  // unroll_dim must be below i1's rank plus expand1's length.
  r.add("aten::_trilinear", fam, trilinearRule)
      .sample("i1", "sweep![2]").sample("i2", "sweep![2]").sample("i3", "sweep![2]").sample("expand1", "[]")
      .sample("expand2", "[]").sample("expand3", "[]").sample("sumdim", "[]").sample("unroll_dim", "0")
      .variant({{"i1", "sweep![2,3]"}, {"i2", "sweep![2,3]"}, {"i3", "sweep![2,3]"}, {"sumdim", "[1]"}, {"unroll_dim", "1"}});
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
       if (d == DType::Float16 || d == DType::BFloat16 || d == DType::Complex32)
         return c.semantic("linalg.slogdet: low precision dtypes not supported, got {}", name(d));
       Rank rk = rankMinus(c.rank(a), 2);
       return std::vector<Value>{tensorOf(d, rk), tensorOf(toRealValueType(d), rk)};
     }).sample(a, "sweep![2,2]");
  }

  // Convolutions.
  const char *cf = "nn.conv";
  r.add("aten::conv2d", cf, convRule(BiasCheck::Always))
      .sample("input", "sweep![1,1,3,3]").sample("weight", "sweep![1,1,1,1]").sample("bias", "sweep![1]");
  r.add("aten::conv1d", cf, convRule(BiasCheck::ComplexOnly))
      .sample("input", "sweep![1,1,3]").sample("weight", "sweep![1,1,1]").sample("bias", "sweep![1]");
  r.add("aten::conv3d", cf, convRule(BiasCheck::ComplexOnly))
      .sample("input", "sweep![1,1,3,3,3]").sample("weight", "sweep![1,1,1,1,1]").sample("bias", "sweep![1]");
  r.add("aten::conv1d.padding", cf, convRule(BiasCheck::ComplexOnly))
      .sample("input", "sweep![1,1,3]").sample("weight", "sweep![1,1,1]").sample("bias", "sweep![1]");
  r.add("aten::conv2d.padding", cf, convRule(BiasCheck::ComplexOnly))
      .sample("input", "sweep![1,1,3,3]").sample("weight", "sweep![1,1,1,1]").sample("bias", "sweep![1]");
  r.add("aten::conv3d.padding", cf, convRule(BiasCheck::ComplexOnly))
      .sample("input", "sweep![1,1,3,3,3]").sample("weight", "sweep![1,1,1,1,1]").sample("bias", "sweep![1]");
  r.add("aten::conv_transpose1d", cf, convRule(BiasCheck::Always))
      .sample("input", "sweep![1,1,3]").sample("weight", "sweep![1,1,1]").sample("bias", "sweep![1]");
  r.add("aten::conv_transpose2d.input", cf, convRule(BiasCheck::Always))
      .sample("input", "sweep![1,1,3,3]").sample("weight", "sweep![1,1,1,1]").sample("bias", "sweep![1]");
  r.add("aten::conv_transpose3d.input", cf, convRule(BiasCheck::Always))
      .sample("input", "sweep![1,1,3,3,3]").sample("weight", "sweep![1,1,1,1,1]").sample("bias", "sweep![1]");
  for (const char *k : {"aten::convolution", "aten::_convolution", "aten::_convolution.deprecated"})
    r.add(k, cf, convRule(BiasCheck::ByTransposed))
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
   }).sample("self", "sweep![3,1,1]").sample("weight", "sweep![1,1,1]").sample("bias", "sweep![1]");
  r.add("aten::convolution_backward", cf, convBackwardRule)
      .sample("grad_output", "sweep![1,1,3,3]").sample("input", "sweep![1,1,3,3]").sample("weight", "sweep![1,1,1,1]")
      .sample("bias_sizes", "[1]").sample("stride", "[1,1]").sample("padding", "[0,0]").sample("dilation", "[1,1]")
      .sample("transposed", "False").sample("output_padding", "[0,0]").sample("groups", "1")
      .sample("output_mask", "[True,True,True]");
}

} // namespace dtf
