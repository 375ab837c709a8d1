#include "ops/vocabulary.h"

#include <fmt/ranges.h>

#include "dtype/scalar_conversion.h"

#include "ops/unit_dims.h"

#include <algorithm>

namespace dtf {

std::optional<RuleError> vanderDType(const OpCall &c, DType d) {
  if (isFloat8(d) || d == DType::BComplex32)
    return c.semantic("linalg.vander supports floating point, complex, and integer tensors, but got {}", c10Name(d));
  return std::nullopt;
}

DType applyKind(PromotionKind kind, DType r) {
  switch (kind) {
  case PromotionKind::Default: return r;
  case PromotionKind::IntToFloat: return isIntegral(r, /*includeBool=*/true) ? DType::Float32 : r;
  case PromotionKind::AlwaysBool: return DType::Bool;
  case PromotionKind::ComplexToFloat: return toRealValueType(r);
  case PromotionKind::BoolToLong: return isBool(r) ? DType::Int64 : r;
  }
  return r;
}

namespace {
/// The broadcast rank of the named tensor and number arguments (numbers are
/// 0-dim), one argument at a time: no list of ranks is built.
template <typename Names>
Rank broadcastNamed(const OpCall &c, const Names &args) {
  Rank acc = Rank::exact(0); // the broadcast of nothing; exact(0) is its identity
  for (const auto &a : args) {
    const Value &v = c.arg(a);
    if (v.isTensor()) acc = broadcastRank({acc, v.rank()});
    // numbers are 0-dim: no change
  }
  return acc;
}
} // namespace

Rank broadcastArgs(const OpCall &c, const std::vector<std::string> &args) { return broadcastNamed(c, args); }

Rank broadcastArgs(const OpCall &c, std::initializer_list<std::string_view> args) { return broadcastNamed(c, args); }

RuleFn elementwise(PromotionKind kind, std::vector<std::string> args) {
  return [kind, args](const OpCall &c) -> RuleResult {
    std::vector<PromotionOperand> ops;
    for (const std::string &a : args) {
      const Value &v = c.arg(a);
      if (v.isTensor()) ops.push_back({*v.dtype(), tierOf(v.rank())});
      else if (v.isNumber()) ops.push_back({wrappedNumberDType(*v.numKind()), Tier::Wrapped});
    }
    auto r = c.types().resultType(ops);
    if (!r) return c.semantic("no tensor or number operands among {}", fmt::join(args, ", "));
    return withBroadcastUnitDims(c, tensorOf(applyKind(kind, *r), broadcastArgs(c, args)), args);
  };
}

RuleFn sameAs(std::string arg) {
  return [arg](const OpCall &c) -> RuleResult { return tensorOf(c.dtype(arg), c.rank(arg)); };
}

RuleFn sameAsN(std::string arg, int n) {
  return [arg, n](const OpCall &c) -> RuleResult {
    return std::vector<Value>(n, tensorOf(c.dtype(arg), c.rank(arg)));
  };
}

RuleFn always(DType d, std::string rankFrom) {
  return [d, rankFrom](const OpCall &c) -> RuleResult {
    return tensorOf(d, rankFrom.empty() ? Rank::top() : c.rank(rankFrom));
  };
}

RuleFn metaByReference(RuleFn cpu, RuleFn reference) {
  return [cpu = std::move(cpu), reference = std::move(reference)](const OpCall &c) -> RuleResult {
    return c.onMeta() ? reference(c) : cpu(c);
  };
}

RuleFn inPlace(RuleFn outOfPlace, InPlaceChecks checks) {
  return [fn = std::move(outOfPlace), checks = std::move(checks)](const OpCall &c) -> RuleResult {
    Rank self = c.rank("self");
    for (const std::string &n : checks.fitInSelf) {
      const Value &v = c.arg(n);
      if (!v.isTensor()) continue;
      Rank r = v.rank();
      if ((self.value() && r.value() && *r.value() > *self.value()) || (self == Rank::exact(0) && r == Rank::atLeast1()))
        return c.semantic("in-place output {} cannot hold the broadcast with {} {}", c.arg("self").str(), n, v.str());
    }
    RuleResult r = fn(c);
    if (!r.ok()) return r;
    DType d = c.dtype("self");
    if (checks.castToSelf) {
      // A result of several possible dtypes fails only when none casts.
      std::optional<DType> bad;
      bool anyCasts = false;
      for (DType out : r.outputs().front().dtypes()) {
        if (canCast(out, d)) anyCasts = true;
        else bad = out;
      }
      if (!anyCasts && bad)
        return c.semantic("result type {} can't be cast to the desired output type {}", c10Name(*bad), c10Name(d));
    }
    // The result is self: its size-1 facts and sizes too.
    const Value &selfValue = c.arg("self");
    Value out = tensorOf(d, self);
    if (!selfValue.isTensor() || selfValue.rank() != self) return out;
    out = out.withUnitDims(selfValue.unitDims());
    return selfValue.hasKnownDims() ? out.withShapeOf(selfValue) : out;
  };
}

namespace {
template <typename Names>
std::optional<RuleError> requireSameNamed(const OpCall &c, const Names &names) {
  std::optional<DType> first;
  std::string_view firstName;
  for (std::string_view n : names) {
    if (!c.arg(n).isTensor()) continue;
    DType d = c.dtype(n);
    if (!first) { first = d; firstName = n; continue; }
    if (d != *first)
      return c.semantic("expected {} and {} to have the same dtype, but got {} and {}", firstName, n,
                        name(*first), name(d));
  }
  return std::nullopt;
}
} // namespace

std::optional<RuleError> requireSame(const OpCall &c, std::initializer_list<std::string_view> names) {
  return requireSameNamed(c, names);
}

std::optional<RuleError> requireSame(const OpCall &c, std::span<const std::string> names) {
  return requireSameNamed(c, names);
}

DTypeSet elementDTypes(const Value &list) {
  Value e = list.isList() ? list.elementSummary() : Value::top();
  return e.isTensor() ? e.dtypes() : DTypeSet::all();
}

DType dtypeOrWrapped(const Value &v) {
  if (v.isTensor()) return *v.dtype();
  return wrappedNumberDType(*v.numKind());
}

DType computeType(DType d) {
  if (d == DType::Float16 || d == DType::BFloat16) return DType::Float32;
  return d == DType::Complex32 ? DType::Complex64 : d;
}

std::optional<RuleError> checkedConversion(const OpCall &c, std::string_view arg, DType d, ComplexHalfParts parts) {
  const DType into = d == DType::Complex32 && parts == ComplexHalfParts::AsFloat ? DType::Complex64 : d;
  if (!c.has(arg) || !conversionOverflows(c.arg(arg), into, c.version())) return std::nullopt;
  return c.error(ErrorKind::ValueDependent, "{} {} cannot be converted to {} without overflow", arg, c.arg(arg).str(),
                 name(d));
}

std::optional<RuleError> checkedFill(const OpCall &c, std::string_view arg, DType d, Rank written) {
  const bool reduced = d == DType::Float16 || d == DType::BFloat16 || isFloat8(d);
  if (reduced && written == Rank::exact(0) && has(c.version(), VersionFact::ReducedFloatZeroDimFillChecksImaginaryOnly))
    return checkedConversion(c, arg, DType::Float64); // an imaginary part only
  return checkedConversion(c, arg, d, fillParts(written));
}

std::optional<RuleError> sizeListError(const OpCall &c, std::string_view arg, SizeList kind) {
  if (!c.has(arg)) return std::nullopt;
  const Value &l = c.arg(arg);
  std::vector<std::optional<int64_t>> sizes;
  if (l.isNumber()) sizes.push_back(l.intValue());
  else if (l.isList() && l.lengthKnown())
    for (const Value &e : l.elements()) sizes.push_back(e.isNumber() ? e.intValue() : std::nullopt);
  const auto selfRank = kind == SizeList::Expand ? c.rank("self").value() : std::nullopt;
  int inferred = 0;
  bool allKnown = true;
  int64_t numel = 1;
  bool overflow = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (!sizes[i]) { allKnown = false; continue; }
    const int64_t v = *sizes[i];
    switch (kind) {
    case SizeList::NewTensor:
    case SizeList::Repeats:
      if (v < 0) return c.error(ErrorKind::ValueDependent, "Trying to create tensor with negative dimension {}: {}", v, l.str());
      overflow = overflow || __builtin_mul_overflow(numel, v, &numel);
      break;
    case SizeList::Shape:
      if (v < -1) return c.error(ErrorKind::ValueDependent, "invalid shape dimension {} in {}", v, l.str());
      if (v == -1 && ++inferred > 1) return c.error(ErrorKind::ValueDependent, "only one dimension can be inferred: {}", l.str());
      break;
    case SizeList::Expand:
      if (v < -1) return c.error(ErrorKind::ValueDependent, "the expanded size {} in {} is negative", v, l.str());
      if (v == -1 && selfRank && static_cast<int64_t>(i) < static_cast<int64_t>(sizes.size()) - *selfRank)
        return c.error(ErrorKind::ValueDependent,
                       "the expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension {}", i);
      break;
    }
  }
  if (kind == SizeList::NewTensor && allKnown && overflow)
    return c.error(ErrorKind::ValueDependent, "Storage size calculation overflowed with sizes={}", l.str());
  return std::nullopt;
}

std::optional<std::vector<int64_t>> knownInts(const Value &v) {
  if (v.isNumber()) {
    if (auto i = v.intValue()) return std::vector<int64_t>{*i};
    return std::nullopt;
  }
  if (!v.isList() || !v.lengthKnown()) return std::nullopt;
  std::vector<int64_t> out;
  for (const Value &e : v.elements()) {
    auto i = e.intValue();
    if (!i) return std::nullopt;
    out.push_back(*i);
  }
  return out;
}

std::optional<int> knownDim(const OpCall &c, std::string_view tensor, std::string_view dim) {
  auto rk = c.rank(tensor).value();
  auto d = c.arg(dim).intValue();
  if (!rk || *rk == 0 || !d) return std::nullopt;
  return wrapDim(*d, *rk);
}

std::vector<Value> intoOutArguments(const OpCall &c, std::vector<Value> results, size_t numOut) {
  const size_t first = c.size() - numOut;
  results.resize(numOut, Value::top());
  auto outDType = [&](size_t i) { return c.dtype(c.schema().args[first + i].name); };
  bool same = !c.has("dtype") || c.isNone("dtype") || c.dtypeArg("dtype") == outDType(0);
  for (size_t i = 0; i < numOut && same; ++i) same = results[i].isTensor() && results[i].dtype() == outDType(i);
  if (same) return results;
  for (Value &v : results) v = Value::tensor(DTypeSet::all(), v.isTensor() ? v.rank() : Rank::top());
  return results;
}

} // namespace dtf
