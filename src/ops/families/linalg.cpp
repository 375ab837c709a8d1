//===- ops/families/linalg.cpp - matrix decompositions and functions ------===//
//
// torch.linalg's one-matrix ops (inv, cholesky, qr, svd, eigh, eig, pinv,
// logdet, matrix_exp) and their older aliases, and the products kron,
// inner and cross (their rules are next to their code). Measured on 1.13:
// - the input must have at least 2 dims ("The input tensor A must have at
//   least 2 dimensions"); square-ness is a size check we cannot see (a
//   succeeding call has the dtypes below);
// - they take float32/float64/complex64/complex128 only: integers and bool
//   are rejected ("Expected a floating point or complex tensor as input"),
//   Half/BFloat16/ComplexHalf either rejected ("Low precision dtypes not
//   supported") or without a CPU kernel (matrix_exp also runs BFloat16);
// - singular values and eigenvalues of Hermitian matrices are real (the
//   input's real counterpart), eig's results are always complex, *_ex's
//   info is int32 with the batch dims.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"

#include <algorithm>
#include <cmath>

namespace dtf {
namespace {

/// The rank of a result with `drop` fewer trailing dims than a matrix input
/// of rank `r` (known to succeed, so r >= 2 when not exact).
Rank dropped(Rank r, int drop) {
  if (auto n = r.value()) return Rank::exact(*n - drop);
  return drop < 2 ? Rank::atLeast1() : Rank::top();
}

/// What a result is, from the input's dtype `d` and rank `r`.
enum class Out : uint8_t { Same, Real, Complex, Info, Int64 };
struct Result {
  Out dtype;
  int drop; ///< trailing dims fewer than the input
};

/// The dtype half of matrixInput: float32/64 or complex64/128 (and
/// bfloat16 where a kernel has it).
std::optional<RuleError> matrixDType(const OpCall &c, std::string_view arg, bool bfloat16Kernel) {
  DType d = c.dtype(arg);
  if (d == DType::Float32 || d == DType::Float64 || d == DType::Complex64 || d == DType::Complex128) return std::nullopt;
  // matrix_exp's kernel also runs bfloat16 (and in 2.14 float16).
  if (bfloat16Kernel && (d == DType::BFloat16 || (d == DType::Float16 && !c.lacksCpuKernel(CpuKernel::MatrixExp, d))))
    return std::nullopt;
  if (isFloating(d) || isComplex(d)) // Half, BFloat16, ComplexHalf
    return c.missingKernel("low precision dtypes are not supported (no kernel for {})", name(d));
  return c.semantic("expected a floating point or complex tensor as input, got {}", name(d));
}

/// The checks every op here makes of its input `arg` (at least 2-D, a
/// matrix dtype); nullopt when fine.
std::optional<RuleError> matrixInput(const OpCall &c, std::string_view arg, bool bfloat16Kernel) {
  if (auto r = c.rank(arg).value(); r && *r < 2)
    return c.semantic("the input tensor must have at least 2 dimensions, got {}", *r);
  return matrixDType(c, arg, bfloat16Kernel);
}

RuleFn decomposition(std::string arg, std::vector<Result> results, bool bfloat16Kernel = false) {
  return [arg, results, bfloat16Kernel](const OpCall &c) -> RuleResult {
    if (auto e = matrixInput(c, arg, bfloat16Kernel)) return *e;
    DType d = c.dtype(arg);
    Rank r = c.rank(arg);
    std::vector<Value> out;
    for (const Result &res : results) {
      DType o = d;
      switch (res.dtype) {
      case Out::Same: break;
      case Out::Real: o = toRealValueType(d); break;
      case Out::Complex: o = c.toComplex(d).value_or(d); break;
      case Out::Info: o = DType::Int32; break;
      case Out::Int64: o = DType::Int64; break;
      }
      out.push_back(tensorOf(o, dropped(r, res.drop)));
    }
    return out;
  };
}

/// linalg_qr: mode='r' gives an empty one-dim Q.
RuleResult qrWithMode(const OpCall &c) {
  if (auto e = matrixInput(c, "A", false)) return *e;
  DType d = c.dtype("A");
  Rank r = c.rank("A");
  auto mode = c.arg("mode").text();
  Rank q = !mode ? Rank::top() : *mode == "r" ? Rank::exact(1) : r;
  return std::vector<Value>{tensorOf(d, q), tensorOf(d, r)};
}

/// kron(self, other): promote_types of the two (no result_type tiers: a
/// 0-dim float64 with a float32 vector gives float64), rank the larger one.
RuleResult kron(const OpCall &c) {
  DType d = c.promote(c.dtype("self"), c.dtype("other"));
  Rank a = c.rank("self"), b = c.rank("other");
  Rank r = a.isExact() && b.isExact() ? Rank::exact(std::max(*a.value(), *b.value())) : broadcastRank({a, b});
  return tensorOf(d, r);
}

/// inner(self, other): a 0-dim operand makes it `self * other` (result_type
/// tiers, broadcast rank); otherwise a matrix product over the last dims:
/// equal dtypes (no promotion), rank r1 + r2 - 2, no CPU kernel for Bool/Half.
RuleResult inner(const OpCall &c) {
  const Value &x = c.arg("self"), &y = c.arg("other");
  Rank a = x.rank(), b = y.rank();
  if (a == Rank::exact(0) || b == Rank::exact(0)) {
    PromotionOperand ops[] = {tensorOperand(c.dtype("self"), x), tensorOperand(c.dtype("other"), y)};
    return tensorOf(c.resultType(ops), broadcastRank({a, b}));
  }
  if (auto e = requireSame(c, {"self", "other"})) return *e;
  DType d = c.dtype("self");
  if (c.lacksCpuKernel(CpuKernel::Matmul, d)) return c.missingKernel("\"addmm_impl_cpu_\" not implemented for {}", name(d));
  Rank r = a.isExact() && b.isExact() ? Rank::exact(*a.value() + *b.value() - 2) : Rank::top();
  return tensorOf(d, r);
}

/// cross(self, other, dim) (linalg_cross is in conv_linear.cpp): equal dtypes and equal ranks (no
/// promotion, no broadcasting of ranks), a size-3 dim so never 0-dim; no
/// kernel for Bool, Half or ComplexHalf.
RuleResult cross(const OpCall &c) {
  if (auto e = requireSame(c, {"self", "other"})) return *e;
  DType d = c.dtype("self");
  Rank a = c.rank("self"), b = c.rank("other");
  if (a == Rank::exact(0) || b == Rank::exact(0)) return c.semantic("inputs must have a dimension of size 3");
  if (a.isExact() && b.isExact() && a != b) return c.semantic("inputs must have the same number of dimensions");
  if (c.lacksCpuKernel(CpuKernel::Cross, d)) return c.missingKernel("\"cross\" not implemented for {}", name(d));
  return tensorOf(d, a.isExact() ? a : b);
}

/// matrix_power(self, n) / linalg_matrix_power: the dtype never changes.
/// n = 0 builds an identity (no BFloat16/ComplexHalf `eye` kernel), n = 1
/// copies, n >= 2 multiplies (no Bool/Half/ComplexHalf matmul kernel), n < 0
/// inverts (float32/float64/complex only). An unknown n: the dtype of a
/// call that succeeds.
RuleResult matrixPower(const OpCall &c) {
  DType d = c.dtype("self");
  Rank r = c.rank("self");
  if (auto k = r.value(); k && *k < 2)
    return c.semantic("the input tensor A must have at least 2 dimensions, got {}", *k);
  if (auto n = c.arg("n").intValue()) {
    if (*n < 0)
      if (auto e = matrixInput(c, "self", false)) return *e;
    if (*n == 0 && c.lacksCpuKernel(CpuKernel::Eye, d)) return c.missingKernel("\"eye\" not implemented for {}", name(d));
    if (*n >= 2 && c.lacksCpuKernel(CpuKernel::Matmul, d))
      return c.missingKernel("\"addmm_impl_cpu_\" not implemented for {}", name(d));
  }
  return tensorOf(d, r);
}

/// addr(self, vec1, vec2, beta, alpha): the outer product of two 1-D vectors
/// plus self broadcast to it (self at most 2-D); promote_types of all three
/// (no result_type tiers: a 0-dim float64 self makes a float64 result).
/// beta and alpha: bool only for a bool result, no float or complex factor
/// for an integral one, and each must fit the result's dtype (no imaginary
/// part into a real one, no 1e39 into complex64).
RuleResult addr(const OpCall &c) {
  for (const char *v : {"vec1", "vec2"})
    if (auto k = c.rank(v).value(); k && *k != 1) return c.semantic("expected 1-D argument {}, but got {}-D", v, *k);
  if (auto k = c.rank("self").value(); k && *k > 2)
    return c.semantic("self ({}-D) does not broadcast to the 2-D outer product", *k);
  DType d = c.promote(c.promote(c.dtype("self"), c.dtype("vec1")), c.dtype("vec2"));
  for (const char *factor : {"beta", "alpha"}) {
    NumKind k = *c.arg(factor).numKind();
    if (k == NumKind::Bool && d != DType::Bool)
      return c.semantic("boolean {} is only supported for a bool result, not {}", factor, name(d));
    if ((k == NumKind::Float || k == NumKind::Complex) && !isFloating(d) && !isComplex(d))
      return c.semantic("for integral input tensors, argument {} must not be a floating point number", factor);
    if (auto e = checkedConversion(c, factor, d)) return *e;
  }
  if (d == DType::Complex32) return c.missingKernel("\"addr_cpu\" not implemented for ComplexHalf");
  return tensorOf(d, Rank::exact(2));
}

/// The tensors of a `Tensor[]` argument, when the list's length is known.
std::optional<std::vector<Value>> tensorList(const OpCall &c, std::string_view arg) {
  const Value &l = c.arg(arg);
  if (!l.isList() || !l.lengthKnown()) return std::nullopt;
  return l.elements();
}

/// The tensors' common dtype: all must be equal (no promotion).
std::optional<RuleError> sameDTypes(const OpCall &c, const std::vector<Value> &ts) {
  for (size_t i = 1; i < ts.size(); ++i)
    if (*ts[i].dtype() != *ts[0].dtype())
      return c.semantic("all tensors must have the same dtype, but tensor 0 is {} and tensor {} is {}",
                        name(*ts[0].dtype()), i, name(*ts[i].dtype()));
  return std::nullopt;
}

/// linalg_multi_dot(tensors): two or more, one dtype; the first and the last
/// 1-D or 2-D (a 1-D end drops that dim of the result), the others 2-D.
RuleResult multiDot(const OpCall &c) {
  auto ts = tensorList(c, "tensors");
  if (!ts) return Value::tensor(elementDTypes(c.arg("tensors")), Rank::top());
  if (ts->size() < 2) return c.semantic("expected at least 2 tensors but got {}", ts->size());
  if (auto e = sameDTypes(c, *ts)) return *e;
  int out = 2;
  bool exact = true;
  for (size_t i = 0; i < ts->size(); ++i) {
    auto k = (*ts)[i].rank().value();
    bool end = i == 0 || i + 1 == ts->size();
    if (!k) { exact = exact && !end; continue; }
    if (end && *k != 1 && *k != 2) return c.semantic("tensor {} must be 1D or 2D but got {}D", i, *k);
    if (!end && *k != 2) return c.semantic("tensor {} must be 2D but got {}D", i, *k);
    if (end && *k == 1) --out;
  }
  DType d = *(*ts)[0].dtype();
  if (c.lacksCpuKernel(CpuKernel::Matmul, d)) return c.missingKernel("no matrix product kernel for {}", name(d));
  return tensorOf(d, exact ? Rank::exact(out) : Rank::top());
}

/// chain_matmul(matrices): one or more 2-D matrices of one dtype; a single
/// one is returned as it is (any dtype).
RuleResult chainMatmul(const OpCall &c) {
  auto ts = tensorList(c, "matrices");
  if (!ts) return Value::tensor(elementDTypes(c.arg("matrices")), Rank::exact(2));
  if (ts->empty()) return c.semantic("chain_matmul(): expected one or more matrices");
  for (size_t i = 0; i < ts->size(); ++i)
    if (auto k = (*ts)[i].rank().value(); k && *k != 2) return c.semantic("tensor {} is {}-D, expected 2-D", i, *k);
  if (auto e = sameDTypes(c, *ts)) return *e;
  DType d = *(*ts)[0].dtype();
  if (ts->size() > 1 && c.lacksCpuKernel(CpuKernel::Matmul, d))
    return c.missingKernel("no matrix product kernel for {}", name(d));
  return tensorOf(d, Rank::exact(2));
}

/// linalg_vecdot(x, y, dim): floating or complex, one dtype; the broadcast
/// rank less the reduced dim (a 0-dim broadcast stays 0-dim); no ComplexHalf
/// kernel (Half has one except for two 1-D operands: a kernel gap, not a rule).
RuleResult vecdot(const OpCall &c) {
  DType d = c.dtype("x");
  if (!isFloating(d) && !isComplex(d))
    return c.semantic("expected a floating point or complex tensor as input, got {}", name(d));
  if (c.dtype("y") != d)
    return c.semantic("expected x and y to have the same dtype, but found {} and {}", name(d), name(c.dtype("y")));
  if (d == DType::Complex32) return c.missingKernel("no vecdot kernel for ComplexHalf");
  Rank b = broadcastArgs(c, {"x", "y"});
  if (auto k = b.value()) return tensorOf(d, Rank::exact(std::max(*k - 1, 0)));
  return tensorOf(d, Rank::top());
}

/// A float32/float64/complex matrix `first`, and every tensor among `others` of its dtype.
std::optional<RuleError> sameMatrixDTypes(const OpCall &c, std::string_view first, std::initializer_list<std::string_view> others) {
  if (auto e = matrixInput(c, first, false)) return *e;
  for (std::string_view n : others)
    if (auto e = requireSame(c, {first, n})) return *e;
  return std::nullopt;
}

/// The larger of two exact ranks (batch broadcasting), else top.
Rank maxRank(Rank a, Rank b) {
  if (a.isExact() && b.isExact()) return Rank::exact(std::max(*a.value(), *b.value()));
  return Rank::top();
}

/// Solvers of A X = B: A a float32/float64/complex matrix (batch), B of the
/// same dtype unless `anyB` (solve_triangular casts B to A's dtype) and at
/// least 2-D unless `vectorB`. The result: B's shape broadcast with A's
/// batch. linalg_solve also takes a vector B (1-D, or A's shape less the
/// last dim: a size check we cannot see, so that rank is left unknown).
RuleFn solver(std::string a, std::string b, bool anyB, bool vectorB, std::vector<Result> extra = {}) {
  return [=](const OpCall &c) -> RuleResult {
    if (auto e = anyB ? matrixInput(c, a, false) : sameMatrixDTypes(c, a, {b})) return *e;
    DType d = c.dtype(a);
    Rank ra = c.rank(a), rb = c.rank(b);
    auto kb = rb.value();
    if (kb && *kb == 0) return c.semantic("{} must have at least 1 dimension", b);
    if (kb && *kb == 1 && !vectorB) return c.semantic("{} must have at least 2 dimensions", b);
    Rank out = maxRank(ra, rb);
    if (vectorB && kb && ra.isExact()) {
      int ka = *ra.value();
      if (*kb == 1) out = Rank::exact(ka - 1);
      else if (*kb == ka - 1) out = Rank::top(); // a batch of vectors or of matrices, by B's sizes
    } else if (vectorB) {
      out = Rank::top();
    }
    std::vector<Value> outs{tensorOf(d, out)};
    for (const Result &res : extra)
      outs.push_back(tensorOf(res.dtype == Out::Info ? DType::Int32 : d, res.dtype == Out::Info ? dropped(ra, res.drop) : out));
    return outs;
  };
}

/// nuclear_norm(self, keepdim): one 2-D matrix in 1.13; 2.14 reads it as
/// linalg.matrix_norm(self, 'nuc'), a batch over the last two dims.
/// nuclear_norm.dim: the two `dim`s of a batch are reduced. A real result,
/// keepdim keeping the rank.
template <bool OneMatrix> RuleResult nuclearNorm(const OpCall &c) {
  if (auto e = matrixInput(c, "self", false)) return *e;
  Rank r = c.rank("self");
  if (OneMatrix && !c.has("dim") && r.value() && *r.value() != 2)
    return c.semantic("nuclear_norm: expected a 2-D tensor, got {}-D", *r.value());
  if (c.has("dim"))
    if (const Value &d = c.arg("dim"); d.isList() && d.lengthKnown() && d.elements().size() != 2)
      return c.semantic("nuclear norm requires a 'dim' argument of size 2, got {}", d.elements().size());
  auto keep = c.arg("keepdim").boolValue();
  Rank out = !keep ? Rank::top() : *keep ? r : dropped(r, 2);
  return tensorOf(toRealValueType(c.dtype("self")), out);
}

/// linalg_cond(self, p): a real condition number per matrix; p one of None,
/// +-1, +-2, +-inf, 'fro', 'nuc'.
RuleResult condRule(const OpCall &c) {
  const Value &p = c.arg("p");
  if (auto t = p.text(); t && *t != "fro" && *t != "nuc")
    return c.semantic("linalg.cond got an invalid norm type: {}", *t);
  if (p.isNumber()) {
    if (p.numKind() == NumKind::Complex) return c.semantic("linalg.cond: the norm type must be real");
    if (auto v = p.floatValue(); v && std::abs(*v) != 1 && std::abs(*v) != 2 && !std::isinf(*v))
      return c.semantic("linalg.cond got an invalid norm type: {}", *v);
  }
  return decomposition("self", {{Out::Real, 2}})(c);
}

/// lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots) -> (P, L, U):
/// any dtype; int32 pivots when they are unpacked (otherwise never read);
/// what is not unpacked is an empty 1-D tensor.
RuleResult luUnpack(const OpCall &c) {
  DType d = c.dtype("LU_data");
  Rank r = c.rank("LU_data");
  if (auto k = r.value(); k && *k < 2) return c.semantic("lu_unpack: LU_data must be at least 2-D, got {}-D", *k);
  auto data = c.arg("unpack_data").boolValue(), piv = c.arg("unpack_pivots").boolValue();
  if (piv && *piv && c.dtype("LU_pivots") != DType::Int32)
    return c.semantic("lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype, got {}",
                      name(c.dtype("LU_pivots")));
  Rank lu = !data ? Rank::top() : *data ? r : Rank::exact(1);
  Rank p = !piv ? Rank::top() : *piv ? r : Rank::exact(1);
  return std::vector<Value>{tensorOf(d, p), tensorOf(d, lu), tensorOf(d, lu)};
}

/// linalg_lstsq(self, b, rcond, driver) -> (solution, residuals, rank,
/// singular_values): one float32/float64/complex dtype; the solution has
/// b's shape (a 1-D b: 1-D); the other shapes depend on the driver and the
/// sizes (often empty), so only their dtypes are known: real, int64, real.
RuleResult lstsq(const OpCall &c) {
  if (auto e = sameMatrixDTypes(c, "self", {"b"})) return *e;
  DType d = c.dtype("self"), re = toRealValueType(d);
  Rank b = c.rank("b"), a = c.rank("self");
  if (b == Rank::exact(0)) return c.semantic("torch.linalg.lstsq: input.dim() must be greater or equal to other.dim()");
  // b of one dim fewer than self is a batch of vectors (the solution has b's rank); of self's rank, a
  // batch of matrices; any other difference raises (linalg_lstsq's dim_diff, 0 or 1).
  Rank sol = Rank::top();
  if (a.isExact() && b.isExact()) {
    const int64_t diff = *a.value() - *b.value();
    if (diff < 0 || diff > 1)
      return c.semantic("torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                        "(input.dim() - other.dim()) <= 1");
    sol = diff == 1 ? b : a;
  } else if (b == Rank::exact(1)) {
    sol = Rank::exact(1); // a 2-D self (the only one a 1-D b goes with)
  }
  return std::vector<Value>{tensorOf(d, sol), tensorOf(re, Rank::top()), tensorOf(DType::Int64, Rank::top()),
                            tensorOf(re, Rank::top())};
}

/// symeig(self, eigenvectors, upper): real eigenvalues, and the eigenvectors
/// (an empty 1-D tensor unless asked for).
RuleResult symeig(const OpCall &c) {
  if (auto e = matrixInput(c, "self", false)) return *e;
  DType d = c.dtype("self");
  Rank r = c.rank("self");
  auto ev = c.arg("eigenvectors").boolValue();
  return std::vector<Value>{tensorOf(toRealValueType(d), dropped(r, 1)),
                            tensorOf(d, !ev ? Rank::top() : *ev ? r : Rank::exact(1))};
}

/// linalg_vander(x, N): powers along a new last dim; integers become int64,
/// no Bool, Half or BFloat16 kernel; a 0-dim x counts as 1-D (result [1, N]).
RuleResult vander(const OpCall &c) {
  DType d = c.dtype("x");
  if (auto e = vanderDType(c, d)) return *e;
  if (d == DType::Bool || d == DType::Float16 || d == DType::BFloat16 || d == DType::Complex32)
    return c.missingKernel("no cumulative product kernel for {}", name(d));
  auto k = c.rank("x").value();
  // N (default: x's last size, 1 for a 0-dim x) must be above 1.
  auto n = c.arg("N").intValue();
  bool lastIsOne = k && (*k == 0 || c.arg("x").unitDims().sizeIsOne(*k - 1) == true);
  if ((n && *n <= 1) || (c.isNone("N") && lastIsOne)) return c.semantic("N must be greater than 1.");
  return tensorOf(isIntegral(d, false) ? DType::Int64 : d, k ? Rank::exact(std::max(*k, 1) + 1) : Rank::atLeast1());
}

/// norm_except_dim(v, pow, dim): the norm over every dim but `dim`, kept as
/// size 1 (dim = -1: over everything, 0-dim); floating or complex only, a
/// real result.
RuleResult normExceptDim(const OpCall &c) {
  DType d = c.dtype("v");
  if (!isFloating(d) && !isComplex(d))
    return c.semantic("norm(): input dtype should be either floating point or complex, got {}", name(d));
  auto dim = c.arg("dim").intValue();
  if (dim && *dim != -1 && c.rank("v") == Rank::exact(0))
    return c.semantic("dimension specified as {} but tensor has no dimensions", *dim);
  Rank r = !dim ? Rank::top() : *dim == -1 ? Rank::exact(0) : c.rank("v");
  return tensorOf(toRealValueType(d), r);
}

/// Registers the linalg family, each sub-family by one member function.
struct Linalg {
  Registry &r;
  const std::string f = "linalg";
  const Result same{Out::Same, 0}, batchInfo{Out::Info, 2};
  // The harness fills with one constant: only 1x1 matrices of 2 are invertible and positive
  // definite (inv, cholesky raise on singular input, a value-dependent error).
  Registry::Entry add(std::string_view key, std::string arg, std::vector<Result> results, bool bf16 = false) {
    return r.add(key, f, decomposition(arg, std::move(results), bf16))
        .sample(arg, "sweep[1,1]=2")
        .variant({{arg, "sweep![3,1,1]=2"}});
  }
  void decompositions();
  void solversFactorizations();
  void normsHouseholder();
  void luTensorSolvers();
};

/// Decompositions and products: inv, cholesky, qr, svd, eig, matrix_exp, kron, cross, addr, multi_dot.
void Linalg::decompositions() {
  add("aten::linalg_inv", "A", {same});
  add("aten::inverse", "self", {same});
  add("aten::linalg_inv_ex", "A", {same, batchInfo});
  add("aten::linalg_cholesky", "self", {same});
  add("aten::cholesky", "self", {same});
  add("aten::linalg_cholesky_ex", "self", {same, batchInfo});
  add("aten::qr", "self", {same, same})
      .variant({{"self", "sweep![2,2,3]=2"}}).variant({{"self", "sweep![3,2]=2"}})
      .variant({{"self", "sweep![3,2]=2"}, {"some", "False"}});
  add("aten::linalg_svd", "A", {same, {Out::Real, 1}, same})
      .variant({{"A", "sweep![2,2,3]=2"}}).variant({{"A", "sweep![3,2]=2"}})
      .variant({{"A", "sweep![2,3]=2"}, {"full_matrices", "False"}});
  add("aten::svd", "self", {same, {Out::Real, 1}, same})
      .variant({{"self", "sweep![2,2,3]=2"}}).variant({{"self", "sweep![3,2]=2"}})
      .variant({{"self", "sweep![2,3]=2"}, {"some", "False"}});
  add("aten::linalg_svdvals", "A", {{Out::Real, 1}})
      .variant({{"A", "sweep![2,2,3]=2"}}).variant({{"A", "sweep![3,2]=2"}});
  add("aten::linalg_eigh", "self", {{Out::Real, 1}, same}).variant({{"self", "sweep![2,3,3]=2"}});
  add("aten::linalg_eigvalsh", "self", {{Out::Real, 1}}).variant({{"self", "sweep![2,3,3]=2"}});
  add("aten::linalg_eig", "self", {{Out::Complex, 1}, {Out::Complex, 0}}).variant({{"self", "sweep![2,3,3]=2"}});
  add("aten::linalg_eigvals", "self", {{Out::Complex, 1}}).variant({{"self", "sweep![2,3,3]=2"}});
  add("aten::pinverse", "self", {same})
      .variant({{"self", "sweep![2,2,3]=2"}}).variant({{"self", "sweep![3,2]=2"}});
  add("aten::logdet", "self", {{Out::Same, 2}});
  add("aten::matrix_exp", "self", {same}, /*bfloat16Kernel=*/true);
  add("aten::linalg_matrix_exp", "self", {same}, /*bfloat16Kernel=*/true);
  r.add("aten::kron", f, kron).sample("self", "sweep[2,2]").sample("other", "sweep[3]");
  r.add("aten::cross", f, cross).sample("self", "sweep[2,3]").sample("other", "sweep[2,3]");
  r.add("aten::inner", f, inner).sample("self", "sweep[2,3]").sample("other", "sweep[3]");
  for (const char *k : {"aten::matrix_power", "aten::linalg_matrix_power"})
    r.add(k, f, matrixPower)
        .sample("self", "sweep[2,2]")
        .sample("n", "2")
        .variant({{"self", "sweep[2,2]"}, {"n", "0"}})
        .variant({{"self", "sweep[2,2]"}, {"n", "1"}})
        .variant({{"self", "sweep![3,1,1]=2"}, {"n", "-1"}});
  r.add("aten::addr", f, addr)
      .sample("self", "sweep[2,3]").sample("vec1", "sweep![2]").sample("vec2", "sweep![3]")
      .variant({{"self", "sweep[3]"}, {"vec1", "sweep![2]"}, {"vec2", "sweep![3]"}})
      .variant({{"self", "sweep![2,3]"}, {"vec1", "bool[2]"}, {"vec2", "bool[3]"}, {"alpha", "magnitudes"}});
  // addr_: the outer product is written into self, which must be 2-D.
  r.add("aten::addr_", f, inPlace([](const OpCall &c) -> RuleResult {
     if (auto k = c.rank("self").value(); k && *k != 2)
       return c.semantic("addr_: self must be 2-D to hold the outer product, got {}-D", *k);
     return addr(c);
   }))
      .sample("self", "sweep![2,3]").sample("vec1", "sweep![2]").sample("vec2", "sweep![3]")
      .variant({{"self", "sweep![3]"}, {"vec1", "sweep![2]"}, {"vec2", "sweep![3]"}});
  r.add("aten::linalg_multi_dot", f, multiDot)
      .sample("tensors", "[sweep![2,2],sweep![2,2]]")
      .variant({{"tensors", "[sweep![2],sweep![2,2]]"}})
      .variant({{"tensors", "[sweep![2],sweep![2]]"}})
      .variant({{"tensors", "[sweep![2,2],sweep![2,2],sweep![2]]"}});
  r.add("aten::chain_matmul", f, chainMatmul)
      .sample("matrices", "[sweep![2,2],sweep![2,2]]")
      .variant({{"matrices", "[sweep![2,2]]"}});
  r.add("aten::linalg_vecdot", f, vecdot)
      .sample("x", "sweep[2,3]").sample("y", "sweep[3]")
      .variant({{"x", "sweep![2,1,3]"}, {"y", "sweep![4,3]"}});
}

/// Solvers and factorizations: solve, lu_factor, cond, matrix_rank, pinv, geqrf, ldl, lstsq, lu_unpack.
void Linalg::solversFactorizations() {
  // Solvers and factorizations (A: a 1x1 matrix of 2 per batch, invertible and positive definite).
  auto solve = [&](std::string_view key, RuleFn fn, std::string a, std::string b) -> Registry::Entry {
    return r.add(key, f, std::move(fn))
        .sample(a, "sweep![1,1]=2")
        .sample(b, "sweep![1,2]")
        .variant({{a, "sweep![3,1,1]=2"}, {b, "sweep![1,2]"}})
        .variant({{a, "sweep![1,1]=2"}, {b, "sweep![3,1,2]"}});
  };
  for (auto [key, fn] : {std::pair{"aten::linalg_solve", solver("A", "B", false, true)},
                         std::pair{"aten::linalg_solve_ex", solver("A", "B", false, true, {{Out::Info, 2}})}})
    solve(key, fn, "A", "B") // (float32 variants: the vector right-hand sides' sizes)
        .variant({{"A", "sweep![3,1,1]=2"}, {"B", "sweep![1]"}}).variant({{"A", "float32[3,1,1]=2"}, {"B", "float32[3,1]"}})
        .variant({{"A", "float32[1,1]=2"}, {"B", "float32[2]"}}).variant({{"A", "float32[3,1,1]=2"}, {"B", "float32[2,1]"}})
        .variant({{"A", "float32[3,1,1]=2"}, {"B", "float32[1]"}, {"left", "False"}});
  solve("aten::cholesky_solve", solver("input2", "self", false, false), "input2", "self");
  solve("aten::linalg_solve_triangular", solver("self", "B", true, false), "self", "B");
  solve("aten::triangular_solve", solver("A", "self", false, false, {same}), "A", "self");
  add("aten::cholesky_inverse", "self", {same});
  add("aten::linalg_lu_factor", "A", {same, {Out::Info, 1}}); // (raises on the singular fills of larger ones)
  add("aten::linalg_lu_factor_ex", "A", {same, {Out::Info, 1}, batchInfo})
      .variant({{"A", "sweep![2,2,3]=2"}}).variant({{"A", "sweep![3,2]=2"}});
  add("aten::_lu_with_info", "self", {same, {Out::Info, 1}, batchInfo})
      .variant({{"self", "sweep![2,2,3]=2"}}).variant({{"self", "sweep![3,2]=2"}}); // what torch.lu calls: lu_factor_ex
  add("aten::linalg_lu", "A", {same, same, same})
      .variant({{"A", "sweep![2,2,3]=2"}}).variant({{"A", "sweep![3,2]=2"}});
  r.add("aten::linalg_cond", f, condRule).sample("self", "sweep[1,1]=2").variant({{"self", "sweep![3,1,1]=2"}});
  r.add("aten::linalg_cond.p_str", f, condRule)
      .sample("self", "sweep[1,1]=2").sample("p", "'fro'")
      .variant({{"self", "sweep![3,1,1]=2"}, {"p", "'nuc'"}})
      .variant({{"self", "sweep![1,1]=2"}, {"p", "'max'"}});
  for (const char *k : {"aten::linalg_matrix_rank", "aten::linalg_matrix_rank.atol_rtol_float"})
    add(k, "self", {{Out::Int64, 2}});
  for (const char *k : {"aten::linalg_pinv", "aten::linalg_pinv.atol_rtol_float"})
    add(k, "self", {same}).variant({{"self", "sweep![2,2,3]=2"}});
  // The tensor-tolerance forms (what torch.linalg.matrix_rank(A) and
  // pinv(A) trace to, with None tolerances): exact without tolerances; a
  // tolerance tensor broadcasts with the batch, so then only unknown.
  auto withTolerances = [](std::string a, Result res) {
    return [a, res](const OpCall &c) -> RuleResult {
      RuleResult out = decomposition(a, {res})(c);
      if (!out.ok() || (c.isNone("atol") && c.isNone("rtol"))) return out;
      return Value::tensor(DTypeSet::all(), Rank::top());
    };
  };
  r.add("aten::linalg_matrix_rank.atol_rtol_tensor", f, withTolerances("input", {Out::Int64, 2}))
      .sample("input", "sweep[1,1]=2").sample("atol", "None").sample("rtol", "None")
      .variant({{"input", "sweep![3,1,1]=2"}, {"atol", "None"}, {"rtol", "None"}})
      .variant({{"input", "sweep![1,1]=2"}, {"atol", "float32[]"}, {"rtol", "None"}});
  r.add("aten::linalg_pinv.atol_rtol_tensor", f, withTolerances("self", same))
      .sample("self", "sweep[1,1]=2").sample("atol", "None").sample("rtol", "None")
      .variant({{"self", "sweep![3,1,1]=2"}, {"atol", "None"}, {"rtol", "None"}})
      .variant({{"self", "sweep![1,1]=2"}, {"atol", "float32[]"}, {"rtol", "None"}});
  // The single-tolerance-tensor forms: the tolerance (not complex) broadcasts
  // with the matrices' batch dims.
  auto withToleranceTensor = [](std::string a, std::string tol, Result res, int matrixDims) {
    return [a, tol, res, matrixDims](const OpCall &c) -> RuleResult {
      if (isComplex(c.dtype(tol))) return c.semantic("{} tensor of complex type is not supported", tol);
      // The tolerance meets the singular values (the input's real type): a
      // promotion that raises where it does (2.14: float8).
      (void)c.promote(c.dtype(tol), toRealValueType(c.dtype(a)));
      RuleResult out = decomposition(a, {res})(c);
      if (!out.ok()) return out;
      // The result broadcasts the batch with the tolerance, except for an
      // empty input (its batch's shape, whatever the tolerance): exact only
      // when the tolerance cannot add dims.
      auto ra = c.rank(a).value(), rt = c.rank(tol).value();
      Rank rank = ra && rt && *rt <= *ra - 2 ? Rank::exact(*ra - 2 + matrixDims) : Rank::top();
      return Value::tensor(out.outputs()[0].dtypes(), rank);
    };
  };
  r.add("aten::linalg_matrix_rank.tol_tensor", f, withToleranceTensor("input", "tol", {Out::Int64, 2}, 0))
      .sample("input", "sweep[1,1]=2").sample("tol", "float64[]")
      .variant({{"input", "sweep![3,1,1]=2"}, {"tol", "sweep![4,1]"}})
      .variant({{"input", "float32[1,1]=2"}, {"tol", "sweep![2]"}});
  r.add("aten::linalg_pinv.rcond_tensor", f, withToleranceTensor("self", "rcond", same, 2))
      .sample("self", "sweep[1,1]=2").sample("rcond", "float64[]")
      .variant({{"self", "sweep![3,1,1]=2"}, {"rcond", "sweep![4,1]"}})
      .variant({{"self", "float32[1,1]=2"}, {"rcond", "sweep![2]"}});
  add("aten::geqrf", "self", {same, {Out::Same, 1}})
      .variant({{"self", "sweep![2,2,3]=2"}}).variant({{"self", "sweep![3,2]=2"}});
  add("aten::linalg_ldl_factor", "self", {same, {Out::Info, 1}});
  add("aten::linalg_ldl_factor_ex", "self", {same, {Out::Info, 1}, batchInfo});
  r.add("aten::linalg_lstsq", f, lstsq).sample("self", "sweep![1,1]=2").sample("b", "sweep[1,2]")
      .variant({{"self", "sweep![1,1]=2"}, {"b", "sweep![1]"}});
  r.add("aten::symeig", f, symeig).sample("self", "sweep[1,1]=2").variant({{"eigenvectors", "True"}});
  r.add("aten::lu_unpack", f, luUnpack).sample("LU_data", "sweep[2,2]").sample("LU_pivots", "sweep![2]=1")
      .variant({{"LU_data", "sweep![3,2,2]"}, {"LU_pivots", "int32[3,2]=1"}, {"unpack_data", "False"}})
      .variant({{"LU_data", "sweep![2,2]"}, {"LU_pivots", "int32[2]=1"}, {"unpack_pivots", "False"}})
      .variant({{"LU_data", "float32[2,2]"}, {"LU_pivots", "sweep![2]=1"}, {"unpack_pivots", "False"}})
      .variant({{"LU_data", "float32[2,2]"}, {"LU_pivots", "sweep![2]=1"}, {"unpack_data", "False"}, {"unpack_pivots", "False"}});
}

/// tensorinv, nuclear_norm, vander, norm_except_dim, Householder products (orgqr, ormqr).
void Linalg::normsHouseholder() {
  // prod(shape[ind:]) == prod(shape[:ind]) is a size check: 1x1 matrices pass it.
  r.add("aten::linalg_tensorinv", f, decomposition("self", {same})).sample("self", "sweep[1,1]=2");
  r.since(TorchVersion::V1_13).add("aten::nuclear_norm", f, nuclearNorm<true>).sample("self", "sweep[2,2]")
      .variant({{"keepdim", "True"}}).variant({{"self", "float64[3,2,2]"}});
  r.since(TorchVersion::V2_6).add("aten::nuclear_norm", f, nuclearNorm<false>).sample("self", "sweep[2,2]")
      .variant({{"keepdim", "True"}}).variant({{"self", "sweep![3,2,2]"}})
      .variant({{"self", "sweep![3,2,2]"}, {"keepdim", "True"}}).variant({{"self", "float64[2]"}});
  // Both versions refuse a dim named twice (-1 and 1 of a 2-D self too).
  r.add("aten::nuclear_norm.dim", f, checks::before(checks::distinctDims("self", {"dim"}), nuclearNorm<false>))
      .sample("self", "sweep![3,2,2]").sample("dim", "[1,2]")
      .variant({{"self", "sweep![3,2,2]"}, {"dim", "[1,2]"}, {"keepdim", "True"}}).variant({{"dim", "[1]"}})
      .variant({{"self", "float64[3,2,2]"}, {"dim", "[1,1]"}}).variant({{"self", "float64[3,2,2]"}, {"dim", "[1,-2]"}});
  r.add("aten::linalg_vander", f, vander).sample("x", "sweep[3]").variant({{"x", "sweep![2,3]"}})
      .variant({{"x", "sweep![]"}, {"N", "2"}});
  r.add("aten::norm_except_dim", f, normExceptDim).sample("v", "sweep[2,3]").sample("dim", "0")
      .variant({{"v", "sweep[2,3]"}, {"dim", "-1"}});
  // Householder products: Q from geqrf's (input, tau), and Q times a matrix.
  for (auto [key, in] : {std::pair{"aten::linalg_householder_product", "input"}, std::pair{"aten::orgqr", "self"}}) {
    std::string a = in, tau = std::string(key) == "aten::orgqr" ? "input2" : "tau";
    r.add(key, f, [a, tau](const OpCall &c) -> RuleResult {
       if (auto e = sameMatrixDTypes(c, a, {tau})) return *e;
       if (c.rank(tau) == Rank::exact(0)) return c.semantic("{} must have at least 1 dimension", tau);
       return tensorOf(c.dtype(a), c.rank(a));
     }).sample(a, "sweep[2,2]").sample(tau, "sweep[1]");
  }
  r.add("aten::ormqr", f, [](const OpCall &c) -> RuleResult {
     if (auto e = sameMatrixDTypes(c, "self", {"input2", "input3"})) return *e;
     return tensorOf(c.dtype("self"), c.rank("input3"));
   }).sample("self", "sweep![2,2]").sample("input2", "sweep![1]").sample("input3", "sweep![2,2]");
}

/// lu_solve, linalg_lu_solve, ldl_solve, tensorsolve, linalg_qr.
void Linalg::luTensorSolvers() {
  // lu_solve(B, LU, pivots) and linalg_lu_solve(LU, pivots, B, left,
  // adjoint): int32 pivots; X has B's shape (with LU's batch); with
  // left=False, X @ A = B (the same shapes transposed).
  auto luSolve = [](std::string lu, std::string pivots, std::string b, bool luMatrixChecked) {
    return [=](const OpCall &c) -> RuleResult {
      if (auto e = sameMatrixDTypes(c, lu, {b})) return *e;
      if (c.dtype(pivots) != DType::Int32)
        return c.semantic("{} must be int32, got {}", pivots, name(c.dtype(pivots)));
      if (auto k = c.rank(b).value(); k && *k < 2) return c.semantic("B must have at least 2 dimensions");
      if (auto k = c.rank(lu).value(); luMatrixChecked && k && *k < 2)
        return c.semantic("LU must have at least 2 dimensions");
      return tensorOf(c.dtype(lu), maxRank(c.rank(b), c.rank(lu)));
    };
  };
  r.add("aten::lu_solve", f, luSolve("LU_data", "LU_pivots", "self", false)).sample("self", "sweep![1,2]").sample("LU_data", "sweep![1,1]=2").sample("LU_pivots", "sweep![1]=1")
      .variant({{"self", "sweep![3,1,2]"}, {"LU_data", "sweep![1,1]=2"}, {"LU_pivots", "int32[1]=1"}});
  r.add("aten::linalg_lu_solve", f, luSolve("LU", "pivots", "B", true)).sample("B", "sweep![1,2]").sample("LU", "sweep![1,1]=2").sample("pivots", "sweep![1]=1")
      .variant({{"B", "sweep![3,1,2]"}, {"LU", "sweep![1,1]=2"}, {"pivots", "int32[1]=1"}})
      .variant({{"B", "sweep![2,1]"}, {"LU", "sweep![1,1]=2"}, {"pivots", "int32[1]=1"}, {"left", "False"}})
      .variant({{"B", "sweep![1,2]"}, {"LU", "sweep![3,1,1]=2"}, {"pivots", "int32[3,1]=1"}, {"adjoint", "True"}});
  r.add("aten::linalg_ldl_solve", f, [](const OpCall &c) -> RuleResult {
     if (auto e = sameMatrixDTypes(c, "LD", {"B"})) return *e;
     if (!isIntegral(c.dtype("pivots"), false))
       return c.semantic("pivots must be an integer tensor, got {}", name(c.dtype("pivots")));
     if (auto k = c.rank("B").value(); k && *k < 2) return c.semantic("B must have at least 2 dimensions");
     return tensorOf(c.dtype("LD"), maxRank(c.rank("LD"), c.rank("B")));
   }).sample("LD", "sweep![1,1]=2").sample("pivots", "sweep![1]=1").sample("B", "sweep![1,2]");
  // tensorsolve(A, B): X with A's trailing dims, rank(A) - rank(B) (dims=None).
  r.add("aten::linalg_tensorsolve", f, [](const OpCall &c) -> RuleResult {
     // A is reshaped to a matrix: any rank (no matrixInput rank check).
     if (auto e = matrixDType(c, "self", false)) return *e;
     if (auto e = requireSame(c, {"self", "other"})) return *e;
     Rank a = c.rank("self"), b = c.rank("other");
     if (!c.isNone("dims") || !a.isExact() || !b.isExact()) return tensorOf(c.dtype("self"), Rank::top());
     // Equal ranks pass only when prod(A.shape) == 1 (two 0-dim tensors: a 0-dim X): a size check.
     if (*a.value() < *b.value()) return c.semantic("tensorsolve: A must have at least as many dims as B");
     return tensorOf(c.dtype("self"), Rank::exact(*a.value() - *b.value()));
   }).sample("self", "sweep![1,1]=2").sample("other", "sweep![1]")
      .variant({{"self", "sweep![]=2"}, {"other", "sweep![]"}})
      .variant({{"self", "float32[1]=2"}, {"other", "float32[1,1]"}});
  r.add("aten::linalg_qr", f, qrWithMode)
      .sample("A", "sweep[2,2]")
      .variant({{"A", "sweep![3,2,2]"}, {"mode", "'r'"}})
      .variant({{"A", "sweep![2,2]"}, {"mode", "'complete'"}})
      .variant({{"A", "sweep![3,2]"}, {"mode", "'complete'"}}).variant({{"A", "sweep![2,3]"}, {"mode", "'r'"}})
      .variant({{"A", "sweep![3,2]"}});
}

} // namespace

void registerLinalg(Registry &r) {
  Linalg g{r};
  g.decompositions();
  g.solversFactorizations();
  g.normsHouseholder();
  g.luTensorSolvers();
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h), from torch.linalg's documented result
// shapes (and the meta functions of torch/_meta_registrations.py). A matrix
// argument is [*, m, n]; k = min(m, n). Square-ness and the other size
// checks raise: the rules give the sizes of a call that succeeds.
//===----------------------------------------------------------------------===//

namespace {

/// A matrix argument split into its batch dims and its last two.
struct Matrix {
  Dims batch;
  Dim m, n;
  Dim k() const { return minDim(m, n); }
  /// The batch dims followed by `tail`.
  Dims with(std::initializer_list<Dim> tail) const {
    Dims d = batch;
    d.insert(d.end(), tail.begin(), tail.end());
    return d;
  }
};

std::optional<Matrix> matrixOf(const OpCall &c, std::string_view arg) {
  auto d = dimsOf(c, arg);
  if (!d || d->size() < 2) return std::nullopt;
  Matrix mat{Dims(d->begin(), d->end() - 2), (*d)[d->size() - 2], d->back()};
  return mat;
}

using Outs = std::vector<std::optional<Dims>>;

/// A one-matrix op's results from its input `arg`.
ShapeFn ofMatrix(std::string arg, std::function<Outs(const Matrix &, const OpCall &)> fn) {
  return [arg = std::move(arg), fn = std::move(fn)](const OpCall &c) -> ShapeResult {
    auto a = matrixOf(c, arg);
    if (!a) return {};
    return fn(*a, c);
  };
}

/// A solver's result: the batch dims of `lhs` and `rhs` broadcast, then
/// rhs's last two (rhs a matrix, not a vector).
std::optional<Dims> solved(const OpCall &c, std::string_view lhs, std::string_view rhs) {
  auto a = matrixOf(c, lhs), b = matrixOf(c, rhs);
  if (!a || !b) return std::nullopt;
  std::vector<Dims> batches{a->batch, b->batch};
  Broadcast batch = broadcastShapes(batches);
  if (!batch.dims) return std::nullopt;
  return Matrix{*batch.dims, b->m, b->n}.with({b->m, b->n});
}

ShapeFn solverShape(std::string lhs, std::string rhs) {
  return [=](const OpCall &c) -> ShapeResult {
    auto d = solved(c, lhs, rhs);
    return d ? ShapeResult(*d) : ShapeResult{};
  };
}

/// linalg_qr's (Q, R) by mode: reduced [m,k] [k,n]; complete [m,m] [m,n];
/// r: an empty Q, [k,n].
Outs qrShape(const Matrix &a, std::string_view mode) {
  if (mode == "reduced") return {a.with({a.m, a.k()}), a.with({a.k(), a.n})};
  if (mode == "complete") return {a.with({a.m, a.m}), a.with({a.m, a.n})};
  if (mode == "r") return {Dims{Dim(0)}, a.with({a.k(), a.n})};
  return {};
}

void registerDecompositionShapes(Registry &r) {
  const auto same = [](const Matrix &a, const OpCall &) -> Outs { return {a.with({a.m, a.n})}; };
  const auto sameWithInfo = [](const Matrix &a, const OpCall &) -> Outs { return {a.with({a.m, a.n}), a.batch}; };
  for (auto [k, arg] : {std::pair{"aten::linalg_inv", "A"}, {"aten::inverse", "self"}, {"aten::linalg_cholesky", "self"},
                        {"aten::cholesky", "self"}, {"aten::matrix_exp", "self"}, {"aten::linalg_matrix_exp", "self"},
                        {"aten::matrix_power", "self"}, {"aten::linalg_matrix_power", "self"},
                        {"aten::cholesky_inverse", "self"}, {"aten::linalg_householder_product", "input"},
                        {"aten::orgqr", "self"}})
    r.shape(k, ofMatrix(arg, same));
  r.shape("aten::linalg_inv_ex", ofMatrix("A", sameWithInfo));
  r.shape("aten::linalg_cholesky_ex", ofMatrix("self", sameWithInfo));
  // The pseudo-inverse of [*, m, n] is [*, n, m].
  // (Tolerance tensors broadcast with the batch dims: claimed only without them.)
  for (const char *k : {"aten::pinverse", "aten::linalg_pinv", "aten::linalg_pinv.atol_rtol_float",
                        "aten::linalg_pinv.atol_rtol_tensor"})
    r.shape(k, ofMatrix("self", [](const Matrix &a, const OpCall &c) -> Outs {
              for (const char *tol : {"atol", "rtol"})
                if (c.has(tol) && c.isTensor(tol)) return {};
              return {a.with({a.n, a.m})};
            }));
  // Eigen-decompositions of [*, n, n]: values [*, n], vectors [*, n, n].
  for (const char *k : {"aten::linalg_eig", "aten::linalg_eigh"})
    r.shape(k, ofMatrix("self", [](const Matrix &a, const OpCall &) -> Outs { return {a.with({a.n}), a.with({a.n, a.n})}; }));
  for (const char *k : {"aten::linalg_eigvals", "aten::linalg_eigvalsh"})
    r.shape(k, ofMatrix("self", [](const Matrix &a, const OpCall &) -> Outs { return {a.with({a.n})}; }));
  r.shape("aten::symeig", ofMatrix("self", [](const Matrix &a, const OpCall &c) -> Outs {
            auto vectors = boolArg(c, "eigenvectors");
            if (!vectors) return {a.with({a.n}), std::nullopt};
            return {a.with({a.n}), *vectors ? a.with({a.n, a.n}) : Dims{Dim(0)}};
          }));
  // SVD: U [*, m, m or k], S [*, k], Vh [*, n or k, n] (svd: V, transposed).
  r.shape("aten::linalg_svd", ofMatrix("A", [](const Matrix &a, const OpCall &c) -> Outs {
            auto full = boolArg(c, "full_matrices");
            if (!full) return {std::nullopt, a.with({a.k()}), std::nullopt};
            return {a.with({a.m, *full ? a.m : a.k()}), a.with({a.k()}), a.with({*full ? a.n : a.k(), a.n})};
          }));
  r.shape("aten::svd", ofMatrix("self", [](const Matrix &a, const OpCall &c) -> Outs {
            auto some = boolArg(c, "some"), uv = boolArg(c, "compute_uv");
            if (!some || uv != true) return {std::nullopt, a.with({a.k()}), std::nullopt}; // no U, V: zeros
            return {a.with({a.m, *some ? a.k() : a.m}), a.with({a.k()}), a.with({a.n, *some ? a.k() : a.n})};
          }));
  r.shape("aten::linalg_svdvals", ofMatrix("A", [](const Matrix &a, const OpCall &) -> Outs { return {a.with({a.k()})}; }));
  r.shape("aten::linalg_qr", ofMatrix("A", [](const Matrix &a, const OpCall &c) -> Outs {
            auto mode = c.arg("mode").text();
            return mode ? qrShape(a, *mode) : Outs{};
          }));
  r.shape("aten::qr", ofMatrix("self", [](const Matrix &a, const OpCall &c) -> Outs {
            auto some = boolArg(c, "some");
            return some ? qrShape(a, *some ? "reduced" : "complete") : Outs{};
          }));
  r.shape("aten::geqrf", ofMatrix("self", [](const Matrix &a, const OpCall &) -> Outs {
            return {a.with({a.m, a.n}), a.with({a.k()})};
          }));
  // LU: the packed factors [*, m, n], pivots [*, k] (int32), info [*].
  r.shape("aten::linalg_lu_factor", ofMatrix("A", [](const Matrix &a, const OpCall &) -> Outs {
            return {a.with({a.m, a.n}), a.with({a.k()})};
          }));
  for (auto [k, arg] : {std::pair{"aten::linalg_lu_factor_ex", "A"}, {"aten::_lu_with_info", "self"}})
    r.shape(k, ofMatrix(arg, [](const Matrix &a, const OpCall &) -> Outs {
              return {a.with({a.m, a.n}), a.with({a.k()}), a.batch};
            }));
  // P [*, m, m], L [*, m, k], U [*, k, n] (with pivoting; without, P is empty).
  r.shape("aten::linalg_lu", ofMatrix("A", [](const Matrix &a, const OpCall &c) -> Outs {
            if (boolArg(c, "pivot") != true) return {};
            return {a.with({a.m, a.m}), a.with({a.m, a.k()}), a.with({a.k(), a.n})};
          }));
  r.shape("aten::lu_unpack", ofMatrix("LU_data", [](const Matrix &a, const OpCall &c) -> Outs {
            Outs out(3);
            if (boolArg(c, "unpack_pivots") == true) out[0] = a.with({a.m, a.m});
            if (boolArg(c, "unpack_data") == true) {
              out[1] = a.with({a.m, a.k()});
              out[2] = a.with({a.k(), a.n});
            }
            return out;
          }));
  // LDL: LD [*, n, n], pivots [*, n], info [*].
  r.shape("aten::linalg_ldl_factor", ofMatrix("self", [](const Matrix &a, const OpCall &) -> Outs {
            return {a.with({a.n, a.n}), a.with({a.n})};
          }));
  r.shape("aten::linalg_ldl_factor_ex", ofMatrix("self", [](const Matrix &a, const OpCall &) -> Outs {
            return {a.with({a.n, a.n}), a.with({a.n}), a.batch};
          }));
}

/// linalg_solve's B is a (batch of) vector(s) when 1-D, or of A's sizes
/// without the last (at::linalg_solve_is_vector_rhs); nullopt when symbols
/// decide it.
std::optional<bool> solveVectorRhs(const Dims &a, const Dims &b) {
  if (b.size() == 1) return true;
  if (b.size() + 1 != a.size()) return false;
  bool equal = true;
  for (size_t i = 0; i < b.size(); ++i) {
    DimsEqual eq = compareDims(a[i], b[i]);
    if (eq == DimsEqual::Differ) return false;
    equal = equal && eq == DimsEqual::Equal;
  }
  return equal ? std::optional<bool>(true) : std::nullopt;
}

/// linalg_solve(A [*, n, n], B [*, n]) with left=True: B solved as a column,
/// the result [broadcast batch, n] (info: the batch); B's n must be A's.
ShapeResult solvedVector(const OpCall &c, const Dims &a, const Dims &b) {
  auto left = boolArg(c, "left");
  if (left == false) // both versions, whatever the sizes (measured)
    return c.semantic("linalg.solve: Vector broadcasting of the left hand side is not supported for left=False");
  if (!left) return {};
  const Dim &n = a.back();
  if (compareDims(a[a.size() - 2], n) != DimsEqual::Equal) return {}; // not square: raises, or symbols decide
  DimsEqual fits = compareDims(b.back(), n);
  if (fits == DimsEqual::Differ)
    return c.semantic("linalg.solve: Incompatible shapes of A and B for the equation AX = B ({}x{} and {}x1)",
                      a[a.size() - 2].str(), n.str(), b.back().str());
  if (fits != DimsEqual::Equal) return {};
  std::vector<Dims> batches{Dims(a.begin(), a.end() - 2), Dims(b.begin(), b.end() - 1)};
  Broadcast batch = broadcastShapes(batches);
  if (batch.mismatch) return c.semantic("{}", *batch.mismatch);
  if (!batch.dims) return {};
  Dims x = *batch.dims;
  x.push_back(n);
  if (c.key() != "aten::linalg_solve_ex") return x;
  // info: A's batch (claimed where it is the broadcast one)
  const Dims aBatch(a.begin(), a.end() - 2);
  return Outs{x, aBatch == *batch.dims ? std::optional<Dims>(aBatch) : std::nullopt};
}

void registerSolverShapes(Registry &r) {
  r.shape("aten::linalg_solve_triangular", solverShape("self", "B"));
  r.shape("aten::cholesky_solve", solverShape("input2", "self"));
  r.shape("aten::linalg_lu_solve", solverShape("LU", "B"));
  r.shape("aten::lu_solve", solverShape("LU_data", "self"));
  r.shape("aten::linalg_ldl_solve", solverShape("LD", "B"));
  // triangular_solve(b, A): the solution, and A cloned, both on the broadcast batch.
  r.shape("aten::triangular_solve", [](const OpCall &c) -> ShapeResult {
    auto x = solved(c, "A", "self"), a = solved(c, "self", "A");
    if (!x || !a) return {};
    return Outs{*x, *a};
  });
  // linalg_solve(A, B): B a batch of matrices when it is not a vector (B
  // 1-D, or B's sizes A's without the last: then the result is [*, n]).
  for (const char *k : {"aten::linalg_solve", "aten::linalg_solve_ex"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto a = dimsOf(c, "A"), b = dimsOf(c, "B");
      if (!a || !b || a->size() < 2 || b->empty()) return {};
      auto vector = solveVectorRhs(*a, *b);
      if (!vector) return {};
      if (*vector) return solvedVector(c, *a, *b);
      // AX = B: B's rows are A's columns; XA = B (left=False): B's columns are A's rows.
      auto left = boolArg(c, "left");
      if (!left || b->size() < 2) return {};
      const Dim &inner = *left ? a->back() : (*a)[a->size() - 2], &given = *left ? (*b)[b->size() - 2] : b->back();
      if (compareDims(inner, given) == DimsEqual::Differ)
        return c.semantic("linalg.solve: Incompatible shapes of A and B for the equation {} ({} and {})",
                          *left ? "AX = B" : "XA = B", dimsText(*a), dimsText(*b));
      Outs out{solved(c, "A", "B")};
      if (!out[0]) return {};
      if (c.key() == "aten::linalg_solve_ex") out.push_back(Dims(out[0]->begin(), out[0]->end() - 2));
      return out;
    });
  // lstsq(A [*, m, n], B [*, m, k]): the solution [*, n, k]; the others depend on the driver.
  r.shape("aten::linalg_lstsq", [](const OpCall &c) -> ShapeResult {
    auto a = matrixOf(c, "self"), b = matrixOf(c, "b");
    auto ad = dimsOf(c, "self"), bd = dimsOf(c, "b");
    if (a && ad && bd && bd->size() + 1 == ad->size()) { // a batch of vectors: [*, n] where b's batch is A's
      Dims x(bd->begin(), bd->end() - 1);
      if (!std::equal(x.begin(), x.end(), ad->begin(), [](const Dim &p, const Dim &q) { return p == q; }))
        return {};
      x.push_back(a->n);
      return Outs{x, std::nullopt, std::nullopt, std::nullopt};
    }
    auto x = solved(c, "self", "b");
    if (!a || !b || !x || ad->size() != bd->size()) return {};
    (*x)[x->size() - 2] = a->n;
    return Outs{*x, std::nullopt, std::nullopt, std::nullopt};
  });
  // ormqr(A, tau, C): C's sizes.
  r.shape("aten::ormqr", sameShapeAs("input3"));
}

void registerProductShapes(Registry &r) {
  for (const char *k : {"aten::cross", "aten::linalg_cross"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto a = dimsOf(c, "self"), b = dimsOf(c, "other");
      if (!a || !b) return {};
      std::vector<Dims> both{*a, *b};
      Broadcast out = broadcastShapes(both);
      return out.dims ? ShapeResult(*out.dims) : ShapeResult{};
    });
  // addr: beta * self + alpha * outer(vec1, vec2), self broadcast to [n, m].
  r.shape("aten::addr", [](const OpCall &c) -> ShapeResult {
    auto v1 = dimsOf(c, "vec1"), v2 = dimsOf(c, "vec2");
    if (!v1 || !v2 || v1->size() != 1 || v2->size() != 1) return {};
    return Dims{(*v1)[0], (*v2)[0]};
  });
  r.shape("aten::addr_", sameShapeAs());
  // chain_matmul: [rows of the first, columns of the last].
  r.shape("aten::chain_matmul", [](const OpCall &c) -> ShapeResult {
    const Value &ms = c.arg("matrices");
    if (!ms.isList() || !ms.lengthKnown() || ms.elements().empty()) return {};
    auto first = ms.elements().front().shape(), last = ms.elements().back().shape();
    if (!first || !last || first->size() != 2 || last->size() != 2) return {};
    return Dims{(*first)[0], (*last)[1]};
  });
  // vander(x [*, n], N): [*, n, N] (N defaults to n).
  r.shape("aten::linalg_vander", [](const OpCall &c) -> ShapeResult {
    auto x = dimsOf(c, "x");
    if (!x || x->empty()) return {};
    Dim n = c.arg("N").isNone() ? x->back() : symIntArg(c, "N");
    x->push_back(n);
    return *x;
  });
  // tensorinv(A, ind): A's sizes from ind on, then those before.
  r.shape("aten::linalg_tensorinv", [](const OpCall &c) -> ShapeResult {
    auto a = dimsOf(c, "self");
    auto ind = intArg(c, "ind");
    if (!a || !ind || *ind <= 0 || static_cast<size_t>(*ind) > a->size()) return {};
    Dims out(a->begin() + *ind, a->end());
    out.insert(out.end(), a->begin(), a->begin() + *ind);
    return out;
  });
  r.shape("aten::nuclear_norm.dim", reductionOver("dim"));
  // One number per matrix: the batch dims (nuclear_norm: kept as 1s with keepdim).
  for (const char *k : {"aten::linalg_cond", "aten::linalg_cond.p_str", "aten::logdet", "aten::linalg_matrix_rank",
                        "aten::linalg_matrix_rank.atol_rtol_float"})
    r.shape(k, ofMatrix("self", [](const Matrix &a, const OpCall &) -> Outs { return {a.batch}; }));
  r.shape("aten::nuclear_norm", ofMatrix("self", [](const Matrix &a, const OpCall &c) -> Outs {
            auto keep = boolArg(c, "keepdim");
            if (!keep) return {};
            return {*keep ? a.with({Dim(1), Dim(1)}) : a.batch};
          }));
  // kron: both padded to one rank with leading 1s, sizes multiplied.
  r.shape("aten::kron", [](const OpCall &c) -> ShapeResult {
    auto a = dimsOf(c, "self"), b = dimsOf(c, "other");
    if (!a || !b) return {};
    const size_t rank = std::max(a->size(), b->size());
    a->insert(a->begin(), rank - a->size(), Dim(1));
    b->insert(b->begin(), rank - b->size(), Dim(1));
    Dims out;
    for (size_t i = 0; i < rank; ++i) out.push_back((*a)[i] * (*b)[i]);
    return out;
  });
  // inner: a product over the last dims (a 0-dim operand multiplies).
  r.shape("aten::inner", [](const OpCall &c) -> ShapeResult {
    auto a = dimsOf(c, "self"), b = dimsOf(c, "other");
    if (!a || !b) return {};
    if (a->empty() || b->empty()) return a->empty() ? *b : *a;
    Dims out(a->begin(), a->end() - 1);
    out.insert(out.end(), b->begin(), b->end() - 1);
    return out;
  });
  // vecdot: the broadcast operands summed over dim.
  r.shape("aten::linalg_vecdot", [](const OpCall &c) -> ShapeResult {
    auto a = dimsOf(c, "x"), b = dimsOf(c, "y");
    if (!a || !b) return {};
    std::vector<Dims> both{*a, *b};
    Broadcast out = broadcastShapes(both);
    if (!out.dims || out.dims->empty()) return {};
    auto dim = wrappedDimArg(c, "dim", out.dims->size());
    if (!dim) return {};
    out.dims->erase(out.dims->begin() + static_cast<std::ptrdiff_t>(*dim));
    return *out.dims;
  });
  // multi_dot: the first's rows and the last's columns (a 1-D end has neither).
  r.shape("aten::linalg_multi_dot", [](const OpCall &c) -> ShapeResult {
    const Value &ts = c.arg("tensors");
    if (!ts.isList() || !ts.lengthKnown() || ts.elements().size() < 2) return {};
    auto first = ts.elements().front().shape(), last = ts.elements().back().shape();
    if (!first || !last || first->empty() || last->empty() || first->size() > 2 || last->size() > 2) return {};
    Dims out;
    if (first->size() == 2) out.push_back((*first)[0]);
    if (last->size() == 2) out.push_back((*last)[1]);
    return out;
  });
}

} // namespace

void registerLinalgShapes(Registry &r) {
  registerDecompositionShapes(r);
  registerSolverShapes(r);
  registerProductShapes(r);
}

} // namespace dtf
