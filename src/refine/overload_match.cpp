#include "refine/overload_match.h"

namespace dtf::refine {
namespace {

using K = SchemaType::Kind;

int numberFit(const Value &v, NumKind k) {
  if (!v.isNumber()) return -1;
  if (v.numKind() == k) return 2;
  return v.numKinds().contains(k) ? 1 : -1;
}

/// What fitScore reads of a list's element summary (the join of its
/// elements): for numbers only their kinds, for tensors only that they are
/// tensors. Built from those bits when every element is a number or every
/// one a tensor (no joins of known values); the real join otherwise.
Value listSummaryForFit(const Value &list) {
  if (!list.lengthKnown()) return list.elementSummary();
  const std::vector<Value> &elems = list.elements();
  if (elems.empty()) return Value();
  uint8_t kinds = 0;
  bool numbers = true, tensors = true;
  for (const Value &el : elems) {
    numbers = numbers && el.isNumber() && !el.numKinds().empty();
    tensors = tensors && el.isTensor();
    if (numbers) kinds |= el.numKinds().bits();
    if (!numbers && !tensors) return list.elementSummary();
  }
  return numbers ? Value::number(NumKinds::fromBits(kinds)) : Value::unknownTensor();
}

} // namespace

int fitScore(const SchemaType &type, const Value &v) {
  if (v.isTop() || v.isBottom()) return 0;
  switch (type.kind) {
  case K::Tensor: return v.isTensor() ? 2 : -1;
  case K::Number: return v.isNumber() ? 1 : -1;
  case K::Int: return numberFit(v, NumKind::Int);
  case K::Float: return numberFit(v, NumKind::Float);
  case K::Bool: return numberFit(v, NumKind::Bool);
  case K::Complex: return numberFit(v, NumKind::Complex);
  case K::ScalarType:
  case K::Layout:
  case K::MemoryFormat: return numberFit(v, NumKind::Int);
  case K::Str: return v.isString() ? 2 : -1;
  case K::Device: return v.kind() == ValueKind::Device ? 2 : -1;
  case K::Optional:
    if (v.isNone()) return 2;
    return type.inner() ? fitScore(*type.inner(), v) : 0;
  case K::List: {
    if (!v.isList()) return -1;
    // A known element that cannot be the element type rules the overload out
    // (None in `[%i, None, %j]` fits Tensor?[] but not Tensor[]: index.Tensor,
    // not its hacked twin), which the elements' join alone would hide.
    if (v.lengthKnown() && type.inner() && type.inner()->kind == K::Tensor)
      for (const Value &el : v.elements())
        if (fitScore(*type.inner(), el) < 0) return -1;
    Value e = listSummaryForFit(v);
    // An empty list fits any list type, but a dimension-name list least (the
    // JIT prints Dimname[] as `str[]`): `torch.sum(x, [])` traces to an empty
    // int[], which would otherwise tie sum.dim_IntList with sum.dim_DimnameList.
    if (e.isBottom() || !type.inner()) {
      K in = type.inner() ? type.inner()->kind : K::Any;
      return in == K::Str || in == K::Dimname ? 0 : 1;
    }
    int s = fitScore(*type.inner(), e);
    return s < 0 ? -1 : (s == 2 ? 2 : 1);
  }
  case K::Tuple: return v.isTuple() ? 1 : -1;
  case K::Any:
  case K::TypeVar: return 1;
  case K::Generator: return v.isNone() ? 1 : 0;
  default: return 0;
  }
}

namespace {

/// How well `s` fits the arguments (sum of fitScore), or -1.
int overloadScore(const Schema &s, std::span<const Value> args, size_t numOutputs, bool exactArity) {
  if (!s.varReturns && s.returns.size() != numOutputs) return -1;
  // `aten::format(str self, ...)`: the named arguments must fit, any number follow.
  if (!s.varargs && args.size() > s.args.size()) return -1;
  if (exactArity && (s.varargs ? args.size() < s.args.size() : args.size() != s.args.size())) return -1;
  int score = 0;
  for (size_t i = 0; i < s.args.size(); ++i) {
    if (i >= args.size()) {
      if (!s.args[i].defaultText) return -1;
      continue;
    }
    int f = fitScore(*s.args[i].type, args[i]);
    if (f < 0) return -1;
    score += f;
  }
  // An overload with `out=` arguments is never what a graph node meant
  // when another one fits as well.
  if (s.overload.ends_with("out")) score -= 1;
  return score;
}

OverloadMatch matchWithArity(std::span<const Schema *const> overloads, std::span<const Value> args,
                             size_t numOutputs, bool exactArity) {
  OverloadMatch best;
  int bestScore = -1;
  size_t ties = 0; // overloads with bestScore (no allocation unless several)
  for (const Schema *s : overloads) {
    int score = overloadScore(*s, args, numOutputs, exactArity);
    if (score < 0 || score < bestScore) continue;
    if (score > bestScore) {
      bestScore = score;
      best.schema = s;
      ties = 1;
    } else {
      ++ties;
    }
  }
  if (ties == 1) {
    best.status = OverloadMatch::Status::Ok;
    return best;
  }
  best.schema = nullptr;
  best.status = ties == 0 ? OverloadMatch::Status::NoMatch : OverloadMatch::Status::Ambiguous;
  for (const Schema *s : overloads)
    if (ties > 0 && overloadScore(*s, args, numOutputs, exactArity) == bestScore) best.tied.push_back(s);
  for (const Schema *s : best.tied.empty() ? std::vector<const Schema *>(overloads.begin(), overloads.end())
                                           : best.tied) {
    if (best.candidates.size() > 300) { best.candidates += ", ..."; break; }
    best.candidates += (best.candidates.empty() ? "" : ", ") + s->key();
  }
  return best;
}

} // namespace
} // namespace dtf::refine

namespace dtf::refine {

OverloadMatch matchOverload(std::span<const Schema *const> overloads, std::span<const Value> args,
                            size_t numOutputs) {
  // TorchScript IR passes every argument; fill defaults only as a fallback.
  OverloadMatch m = matchWithArity(overloads, args, numOutputs, true);
  if (m.status != OverloadMatch::Status::NoMatch) return m;
  return matchWithArity(overloads, args, numOutputs, false);
}

} // namespace dtf::refine
