//===- ops/rule.h - the vocabulary every dtype rule is written in -*- C++ -*-===//
//
// A rule maps one call of an operator overload to its result values, or to
// the error PyTorch raises. Rules are pure functions of an OpCall. They run
// on *concrete* dtypes: the lifting in ops/infer.cpp enumerates unknown
// dtypes, unknown zero-rank-ness and unknown number kinds before calling a
// rule, and joins the answers. So inside a rule every tensor argument has
// exactly one dtype, and a rank that is exact or at least "non-zero".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype_system.h"
#include "dtype/lattice.h"
#include "ops/cpu_capability.h"
#include "ops/cpu_kernels.h"
#include "schema/schema.h"

#include <fmt/format.h>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace dtf {

/// Keep PyTorch's three failure outcomes apart.
enum class ErrorKind : uint8_t {
  Semantic,       ///< the dtype rule rejects these dtypes on every device
  MissingKernel,  ///< the version's CPU kernel for this dtype is missing (1.13: many Half ones)
  ValueDependent, ///< depends on values, not only dtypes (int ** -1)
  CpuDependent,   ///< raised on some kinds of CPU only (a oneDNN path: ops/cpu_capability.h)
  SizeDependent,  ///< raised for these sizes (a shape rule: a broadcast of 3 against 4, a bad view)
};
std::string_view name(ErrorKind k);

struct RuleError {
  ErrorKind kind = ErrorKind::Semantic;
  std::string message; ///< starts with the op key; lowercase; no trailing period
};

/// Value-or-error, in the spirit of XLA's StatusOr. A value may carry an
/// error PyTorch raises in a context the call does not fix (a kind of CPU):
/// the outputs are what the call gives where it runs.
class RuleResult {
public:
  RuleResult(std::vector<Value> outputs) : v_(std::move(outputs)) {}
  RuleResult(Value single) : v_(one(std::move(single))) {}
  RuleResult(RuleError e) : v_(std::move(e)) {}
  RuleResult(std::vector<Value> outputs, RuleError possible) : v_(std::move(outputs)), possible_(std::move(possible)) {}
  bool ok() const { return v_.index() == 0; }
  const std::vector<Value> &outputs() const { return std::get<0>(v_); }
  std::vector<Value> takeOutputs() { return std::move(std::get<0>(v_)); }
  const RuleError &error() const { return std::get<1>(v_); }
  /// With ok(): the error raised in some contexts, if any.
  const std::optional<RuleError> &possibleError() const { return possible_; }

private:
  std::variant<std::vector<Value>, RuleError> v_;
  static std::vector<Value> one(Value v) { // `{std::move(v)}` would copy it out of the initializer list
    std::vector<Value> out;
    out.reserve(1);
    out.push_back(std::move(v));
    return out;
  }
  std::optional<RuleError> possible_;
};

/// What of a not-yet-concrete argument a rule read (PendingArgument::aspects):
/// None or a tensor, its dtype, its rank, anything else (the whole value).
enum PendingAspect : uint8_t { kPendingNone = 1, kPendingDtype = 2, kPendingRank = 4, kPendingOther = 8 };

/// The first read of an aspect of an argument that the enumeration in
/// ops/infer.cpp has not made concrete yet. The read still returns a concrete
/// representative (one of the argument's alternatives), so the rule runs to
/// its end as on a real case; the enumeration then discards that answer and
/// tries each alternative of that aspect only. Aspects a rule never reads (on
/// the path its other arguments lead to) are never enumerated.
struct PendingArgument {
  size_t position = 0;
  uint8_t aspects = 0; ///< 0: no pending aspect was read
};

/// One call of an overload: every schema argument bound (defaults filled),
/// under one PyTorch version's dtype facts.
class OpCall {
public:
  OpCall(const DTypeSystem &types, const Schema &schema, std::span<const Value> args)
      : types_(types), schema_(schema), args_(args) {}
  /// `pending[i]`: the PendingAspect bits in which argument i is not concrete
  /// yet (args[i] is a representative); the first read of one of them is
  /// recorded in `*firstPendingRead`.
  OpCall(const DTypeSystem &types, const Schema &schema, std::span<const Value> args,
         std::span<const uint8_t> pending, PendingArgument *firstPendingRead, const ExecContext *context = nullptr)
      : types_(types), schema_(schema), args_(args), pending_(pending), firstPendingRead_(firstPendingRead),
        context_(context) {}

  const Schema &schema() const { return schema_; }
  /// What broadcasting the operands' sizes found, noted by the helpers that size an element-wise
  /// result (unit_dims.h) for infer to report: known sizes that cannot broadcast (PyTorch raises),
  /// or the condition symbols must meet (a possible error).
  void noteBroadcast(std::optional<std::string> mismatch, std::optional<std::string> guard) const {
    if (mismatch && !sizeMismatch_) sizeMismatch_ = std::move(mismatch);
    if (guard && !sizeGuard_) sizeGuard_ = std::move(guard);
  }
  const std::optional<std::string> &sizeMismatch() const { return sizeMismatch_; }
  const std::optional<std::string> &sizeGuard() const { return sizeGuard_; }
  /// The PyTorch version's dtypes and promotion this call runs under.
  const DTypeSystem &types() const { return types_; }
  TorchVersion version() const { return types_.version(); }
  /// c10::promoteTypes of this version (throws PromotionError where PyTorch
  /// raises: the lifting reports it as this op's error).
  DType promote(DType a, DType b) const { return types_.promote(a, b); }
  /// at::result_type of this version over concrete operands (throws as promote).
  DType resultType(std::span<const PromotionOperand> ops) const;
  DType resultType(std::initializer_list<PromotionOperand> ops) const {
    return resultType(std::span<const PromotionOperand>(ops.begin(), ops.size()));
  }
  /// This version's CPU kernel `k` has no instance for `d` (ops/cpu_kernels.h).
  bool lacksCpuKernel(CpuKernel k, DType d) const { return dtf::lacksCpuKernel(version(), k, d); }
  /// The CPU the call runs on, when the analysis was told (ExecContext).
  std::optional<CpuKind> cpu() const { return context_ ? context_->cpu : std::nullopt; }
  /// The call runs on the meta device (FakeTensor, torch.export), not the CPU.
  bool onMeta() const { return context_ && context_->kernels == Kernels::Meta; }
  /// This version's oneDNN path takes `d` on the call's CPU: nullopt when no
  /// CPU was given and the kinds of CPU disagree.
  std::optional<bool> oneDnnTakes(DType d) const;
  /// `outcome(onOneDnn)` where the CPU decides whether `d` takes oneDNN. On
  /// an unknown CPU whose kinds disagree, both outcomes are computed: when
  /// one raises, the answer is the other's outputs with that error as a
  /// CpuDependent possible error naming the CPUs it is raised on.
  RuleResult byOneDnnPath(DType d, const std::function<RuleResult(bool onOneDnn)> &outcome) const;
  /// c10::toComplexType of this version (bf16: complex64 in 1.13, bcomplex32 in 2.14).
  std::optional<DType> toComplex(DType d) const { return types_.toComplex(d); }
  /// This call read as one of `other`, which takes its first `n` arguments
  /// (a `.out` overload's functional op); reads are tracked as this call's.
  OpCall leading(const Schema &other, size_t n) const {
    return OpCall(types_, other, args_.first(n), pending_.empty() ? pending_ : pending_.first(n), firstPendingRead_,
                  context_);
  }
  std::string key() const { return schema_.key(); }
  size_t size() const { return args_.size(); }
  const Value &operator[](size_t i) const { return read(i); }
  /// Argument by schema name; a rule naming an argument its schema lacks is a
  /// programming error caught by the registry test.
  const Value &arg(std::string_view name) const;
  bool has(std::string_view name) const { return schema_.argIndex(name) >= 0; }
  /// The argument named `name`, or null when the schema has none (has() and
  /// arg() in one lookup).
  const Value *argIf(std::string_view name) const {
    const int i = schema_.argIndex(name);
    return i >= 0 && static_cast<size_t>(i) < args_.size() ? &read(static_cast<size_t>(i)) : nullptr;
  }
  /// A tensor was passed (not None, not another kind of value).
  bool isTensor(std::string_view name) const;
  /// None was passed. (These two read no more of an argument than that: an
  /// enumeration of unknown arguments does not branch on their dtype or rank.)
  bool isNone(std::string_view name) const;

  /// The dtype of a tensor argument (concrete inside a rule).
  DType dtype(std::string_view name) const;
  Rank rank(std::string_view name) const;
  /// A `ScalarType?` argument: nullopt for None. Concrete inside a rule.
  std::optional<DType> dtypeArg(std::string_view name) const;

  /// An error whose message starts with this op's key.
  template <typename... A>
  RuleError error(ErrorKind kind, fmt::format_string<A...> f, A &&...a) const {
    return {kind, key() + ": " + fmt::format(f, std::forward<A>(a)...)};
  }
  template <typename... A>
  RuleError semantic(fmt::format_string<A...> f, A &&...a) const {
    return error(ErrorKind::Semantic, f, std::forward<A>(a)...);
  }
  template <typename... A>
  RuleError missingKernel(fmt::format_string<A...> f, A &&...a) const {
    return error(ErrorKind::MissingKernel, f, std::forward<A>(a)...);
  }

private:
  mutable std::optional<std::string> sizeMismatch_, sizeGuard_;
  /// Argument i. A read of a pending aspect (`aspects`: the whole value by
  /// default) is recorded when it is the call's first.
  const Value &read(size_t i, uint8_t aspects = 0xff) const {
    if (!pending_.empty() && (pending_[i] & (aspects | kPendingOther)) && firstPendingRead_->aspects == 0)
      *firstPendingRead_ = {i, aspects};
    return args_[i];
  }
  size_t index(std::string_view name) const;

  const DTypeSystem &types_;
  const Schema &schema_;
  std::span<const Value> args_;
  std::span<const uint8_t> pending_; ///< empty: every argument is concrete
  PendingArgument *firstPendingRead_ = nullptr;
  const ExecContext *context_ = nullptr; ///< null: any CPU
};

using RuleFn = std::function<RuleResult(const OpCall &)>;

/// What a shape rule says about one call (beside its dtype rule, in the same
/// pass): each output's sizes, or the error the sizes decide.
struct ShapeResult {
  /// One per schema return: a tensor's sizes (nullopt: not known); the
  /// dtype rule's rank stays authoritative (Value::withShape).
  std::vector<std::optional<Dims>> outputs;
  /// Non-tensor outputs the sizes decide (aten::size's int, or its int[]),
  /// one per schema return (nullopt: keep the dtype rule's answer).
  std::vector<std::optional<Value>> values;
  /// PyTorch raises for these sizes (a broadcast mismatch of known sizes);
  /// its kind is SizeDependent (ShapeResult(RuleError) sets it).
  std::optional<RuleError> error;
  /// PyTorch raises unless a condition on symbols holds (`s0 == 3`): what
  /// torch.export would install a guard for. The outputs assume it holds.
  std::optional<RuleError> possibleError;
  ShapeResult() = default;
  ShapeResult(std::vector<std::optional<Dims>> outs) : outputs(std::move(outs)) {}
  ShapeResult(Dims single) { outputs.emplace_back(std::move(single)); } // not `outputs{...}`: that copies the dims
  ShapeResult(RuleError e) : error(std::move(e)) { error->kind = ErrorKind::SizeDependent; }
  static ShapeResult value(Value v) {
    ShapeResult r;
    r.values.push_back(std::move(v));
    return r;
  }
};
/// A shape rule: runs once per call on the bound arguments (not per dtype
/// alternative: sizes do not depend on dtypes), after the dtype rule.
using ShapeFn = std::function<ShapeResult(const OpCall &)>;

//===----------------------------------------------------------------------===//
// Helpers shared by the families
//===----------------------------------------------------------------------===//

/// A tensor of a known dtype and rank.
inline Value tensorOf(DType d, Rank r) { return Value::tensor(d, r); }

/// Rank of a broadcast of these ranks (max), top when unknown.
Rank broadcastRank(std::initializer_list<Rank> ranks);
Rank broadcastRank(std::span<const Rank> ranks);

/// The result_type tier of a tensor of this rank (an intermediate result of
/// a composite op): zero-dim when it may be 0-dim.
inline Tier tierOf(Rank r) { return r.mayBeZero() ? Tier::ZeroDim : Tier::Dim; }

/// The result_type tier of a tensor argument: a wrapped number counts as a
/// Python number, a tensor that may be 0-dim as zero-dim.
inline Tier tierOf(const Value &tensor) {
  if (tensor.isWrappedNumber()) return Tier::Wrapped;
  return tierOf(tensor.rank());
}

/// A tensor argument as a result_type operand: a wrapped number stands for
/// its Python number kind (a wrapped 2.5 is a float, however it is stored).
inline PromotionOperand tensorOperand(DType d, const Value &tensor) {
  if (!tensor.isWrappedNumber()) return {d, tierOf(tensor)};
  NumKind k = isBool(d) ? NumKind::Bool : isComplex(d) ? NumKind::Complex : isFloating(d) ? NumKind::Float : NumKind::Int;
  return {wrappedNumberDType(k), Tier::Wrapped};
}

/// result_type over these arguments of the call (tensors, numbers, None
/// skipped), concrete: the lifting guarantees known dtypes and kinds.
DType promoteArgs(const OpCall &call, std::initializer_list<std::string_view> names);
DType promoteArgs(const OpCall &call, std::span<const std::string> names);

/// TensorIterator's common dtype over these arguments: result_type, except
/// that operands all of one dtype keep it. That differs from result_type only
/// when every operand is a wrapped number: in 1.13 torch.add(2.5, 1.5) adds
/// two wrapped float64 tensors and gives float64, where result_type (and
/// 2.14) says float32.
DType commonDTypeArgs(const OpCall &call, std::initializer_list<std::string_view> names);

/// The dtype a Python number of this kind gets as a tensor (torch.tensor(3)
/// is int64, torch.tensor(2.5) float32 ...).
DType numberDType(NumKind k);

} // namespace dtf
