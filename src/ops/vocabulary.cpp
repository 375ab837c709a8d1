#include "ops/vocabulary.h"

#include "ops/unit_dims.h"

namespace dtf {

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

Rank broadcastArgs(const OpCall &c, const std::vector<std::string> &args) {
  std::vector<Rank> ranks;
  for (const std::string &a : args) {
    const Value &v = c.arg(a);
    if (v.isTensor()) ranks.push_back(v.rank());
    else if (v.isNumber()) ranks.push_back(Rank::exact(0));
  }
  return broadcastRank(ranks);
}

Rank broadcastArgs(const OpCall &c, std::initializer_list<std::string_view> args) {
  std::vector<std::string> v(args.begin(), args.end());
  return broadcastArgs(c, v);
}

RuleFn elementwise(PromotionKind kind, std::vector<std::string> args) {
  return [kind, args](const OpCall &c) -> RuleResult {
    std::vector<PromotionOperand> ops;
    for (const std::string &a : args) {
      const Value &v = c.arg(a);
      if (v.isTensor()) ops.push_back({*v.dtype(), v.rank().mayBeZero() ? Tier::ZeroDim : Tier::Dim});
      else if (v.isNumber()) ops.push_back({wrappedNumberDType(*v.numKind()), Tier::Wrapped});
    }
    auto r = resultType(ops);
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

/// The in-place form of an out-of-place rule: result = self's dtype and
/// rank; PyTorch raises when the out-of-place result cannot be cast to self.
RuleFn inPlace(RuleFn outOfPlace) {
  return [fn = std::move(outOfPlace)](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    if (!r.ok()) return r;
    DType self = c.dtype("self");
    if (auto d = r.outputs().front().dtype(); d && !canCast(*d, self))
      return c.semantic("result type {} can't be cast to the desired output type {}", c10Name(*d),
                        c10Name(self));
    return tensorOf(self, c.rank("self"));
  };
}

std::optional<RuleError> requireSame(const OpCall &c, std::initializer_list<std::string_view> names) {
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

DType dtypeOrWrapped(const Value &v) {
  if (v.isTensor()) return *v.dtype();
  return wrappedNumberDType(*v.numKind());
}

} // namespace dtf
