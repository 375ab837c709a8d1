#include "ops/rule_spec.h"

#include "ops/infer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bitset>
#include <stdexcept>
#include <variant>

namespace dtf {
namespace {

using K = SchemaType::Kind;

//===----------------------------------------------------------------------===//
// Argument types a part of a spec may name
//===----------------------------------------------------------------------===//

const SchemaType *withoutOptional(const SchemaType *t) {
  return t->kind == K::Optional && t->inner() ? t->inner() : t;
}
bool isTensor(const SchemaType &t) { return t.kind == K::Tensor; }
bool isMaybeTensor(const SchemaType &t) { return withoutOptional(&t)->kind == K::Tensor; }
bool isNumber(const SchemaType &t) {
  K k = withoutOptional(&t)->kind;
  return k == K::Int || k == K::Float || k == K::Bool || k == K::Complex || k == K::Number;
}
bool isPromotable(const SchemaType &t) { return isMaybeTensor(t) || isNumber(t); }
bool isTensorList(const SchemaType &t) {
  const SchemaType *u = withoutOptional(&t);
  return u->kind == K::List && u->inner() && isMaybeTensor(*u->inner());
}
bool isDims(const SchemaType &t) {
  const SchemaType *u = withoutOptional(&t);
  if (u->kind == K::List && u->inner()) u = u->inner();
  return u->kind == K::Int;
}
bool isBoolArg(const SchemaType &t) { return t.kind == K::Bool; }

class Checker {
public:
  explicit Checker(const Schema &s) : s_(s) {}
  std::vector<SpecProblem> problems;

  void fail(int line, std::string message) { problems.push_back({line, std::move(message)}); }

  /// `name` is an argument of the schema whose type passes `ok` (`what` says which types do).
  void arg(int line, const std::string &name, bool (*ok)(const SchemaType &), std::string_view what) {
    int i = s_.argIndex(name);
    if (i < 0) {
      std::vector<std::string_view> names;
      for (const SchemaArg &a : s_.args) names.push_back(a.name);
      fail(line, fmt::format("'{}' is not an argument of {} (its arguments: {})", name, s_.key(),
                             names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
      return;
    }
    const SchemaType &t = *s_.args[i].type;
    if (!ok(t)) fail(line, fmt::format("'{}' is {}, not {}", name, t.str(), what));
  }

  void dtype(const DTypeSpec &d) {
    using F = DTypeSpec::Form;
    const bool mapped = std::any_of(d.byCategory.begin(), d.byCategory.end(), [](auto &t) { return t.has_value(); });
    switch (d.form) {
    case F::SameAs:
      if (d.args.size() != 1) fail(d.line, "same_as names one argument");
      else arg(d.line, d.args[0], isTensor, "a Tensor");
      break;
    case F::Promote:
      if (d.args.empty()) fail(d.line, "promote names no argument");
      for (const std::string &a : d.args) arg(d.line, a, isPromotable, "a tensor or a number");
      break;
    case F::Always: break;
    case F::FromArg: {
      if (d.args.size() != 1) {
        fail(d.line, "from_arg names one argument");
        break;
      }
      arg(d.line, d.args[0], [](const SchemaType &t) { return withoutOptional(&t)->kind == K::ScalarType; },
          "a ScalarType");
      int i = s_.argIndex(d.args[0]);
      bool optional = i >= 0 && s_.args[i].type->kind == K::Optional;
      if (optional && !d.whenNone)
        fail(d.line, fmt::format("'{}' may be None: give the dtype for then (default = ...)", d.args[0]));
      if (!optional && i >= 0 && d.whenNone)
        fail(d.line, fmt::format("'{}' is never None: a default is never used", d.args[0]));
      if (d.whenNone) dtype(*d.whenNone);
      break;
    }
    }
    if ((d.form == F::Always || d.form == F::FromArg) && (d.kind != PromotionKind::Default || mapped))
      fail(d.line, "kind and category keys go with same_as or promote");
    if (d.kind != PromotionKind::Default && mapped)
      fail(d.line, "give either kind or category keys (bool, integral, floating, complex), not both");
  }

  void rank(const RankSpec &r) {
    using F = RankSpec::Form;
    switch (r.form) {
    case F::SameAs:
      if (r.args.size() != 1) fail(r.line, "rank same_as names one argument");
      else arg(r.line, r.args[0], isTensor, "a Tensor");
      break;
    case F::Broadcast:
      if (r.args.empty()) fail(r.line, "broadcast names no argument");
      for (const std::string &a : r.args) arg(r.line, a, isPromotable, "a tensor or a number");
      break;
    case F::Fixed:
      if (r.fixed < 0 || r.fixed > Rank::kMaxRank)
        fail(r.line, fmt::format("fixed rank {} is outside 0..{}", r.fixed, Rank::kMaxRank));
      break;
    case F::Reduce:
      if (r.args.size() != 1) fail(r.line, "reduce names one tensor");
      else arg(r.line, r.args[0], isTensor, "a Tensor");
      if (!r.dims.empty()) arg(r.line, r.dims, isDims, "an int, int[] or int?");
      if (!r.keepdim.empty()) arg(r.line, r.keepdim, isBoolArg, "a bool");
      break;
    case F::Unknown: break;
    }
  }

private:
  const Schema &s_;
};

bool isTensorReturn(const SchemaArg &r) { return isMaybeTensor(*r.type); }

/// The result spec of each schema return (null: from its schema type).
std::vector<const ResultSpec *> perReturn(const RuleSpec &spec, const Schema &schema) {
  std::vector<const ResultSpec *> out(schema.returns.size(), nullptr);
  for (size_t i = 0; i < out.size(); ++i) {
    if (spec.results.size() == out.size()) out[i] = &spec.results[i];
    else if (spec.results.size() == 1 && isTensorReturn(schema.returns[i])) out[i] = &spec.results[0];
  }
  return out;
}

RankSpec defaultRank(const DTypeSpec &d) {
  RankSpec r;
  r.line = d.line;
  if (d.form == DTypeSpec::Form::SameAs) r.form = RankSpec::Form::SameAs;
  else if (d.form == DTypeSpec::Form::Promote) r.form = RankSpec::Form::Broadcast;
  r.args = d.args;
  return r;
}

//===----------------------------------------------------------------------===//
// Running a spec
//===----------------------------------------------------------------------===//

using DTypeOr = std::variant<DType, RuleError>;
using RankOr = std::variant<Rank, RuleError>;

DTypeOr byCategory(const DTypeSpec &s, DType d, const OpCall &c) {
  const Category cat = category(d);
  if (cat == Category::Other) return d;
  const auto &t = s.byCategory[static_cast<size_t>(cat)];
  if (!t) return d;
  switch (t->how) {
  case CategoryTarget::How::Keep: return d;
  case CategoryTarget::How::Real: return toRealValueType(d);
  case CategoryTarget::How::Complex:
    if (auto z = c.toComplex(d)) return *z;
    return c.semantic("{} has no complex counterpart", name(d));
  case CategoryTarget::How::Fixed: return t->dtype;
  }
  return d;
}

DTypeOr evalDType(const DTypeSpec &s, const OpCall &c) {
  DType d = DType::Float32;
  switch (s.form) {
  case DTypeSpec::Form::SameAs: d = c.dtype(s.args[0]); break;
  case DTypeSpec::Form::Promote: {
    bool any = false;
    for (const std::string &a : s.args) any = any || !c.isNone(a);
    if (!any) return c.semantic("none of {} is given: nothing to promote", fmt::join(s.args, ", "));
    d = promoteArgs(c, s.args);
    break;
  }
  case DTypeSpec::Form::Always: d = s.dtype; break;
  case DTypeSpec::Form::FromArg:
    if (auto given = c.dtypeArg(s.args[0])) d = *given;
    else return evalDType(*s.whenNone, c);
    break;
  }
  if (s.form == DTypeSpec::Form::SameAs || s.form == DTypeSpec::Form::Promote) {
    DTypeOr mapped = byCategory(s, applyKind(s.kind, d), c);
    if (mapped.index() == 1) return mapped;
    d = std::get<DType>(mapped);
  }
  if (s.refused.contains(d)) return c.semantic("a {} result is not supported", name(d));
  return d;
}

/// Rank of tensor `r.args[0]` reduced over `r.dims`, with c10's dim checks.
RankOr reduceRank(const RankSpec &r, const OpCall &c) {
  const Rank in = c.rank(r.args[0]);
  const std::optional<bool> keep = r.keepdim.empty() ? std::optional(r.keepdimValue) : c.arg(r.keepdim).boolValue();
  bool all = r.dims.empty();
  std::optional<std::vector<int64_t>> dims;
  if (!all) {
    const Value &v = c.arg(r.dims);
    if (v.isNone()) all = true;
    else if ((dims = knownInts(v)) && dims->empty()) all = true;
  }
  Rank reduced = all ? Rank::exact(0) : Rank::top();
  if (dims && !all && in.value()) {
    const int n = *in.value();
    std::bitset<Rank::kMaxRank + 1> seen;
    for (int64_t d : *dims) {
      auto w = wrapDim(d, n);
      if (!w)
        return c.semantic("Dimension out of range (expected to be in range of [{}, {}], but got {})", -std::max(n, 1),
                          std::max(n, 1) - 1, d);
      if (seen.test(*w)) return c.semantic("dim {} appears multiple times in the list of dims", *w);
      seen.set(*w);
    }
    reduced = Rank::exact(std::max(0, n - static_cast<int>(seen.count())));
  }
  if (keep == true) return in;
  if (keep == false) return reduced;
  return Rank::join(in, reduced);
}

RankOr evalRank(const RankSpec &r, const OpCall &c) {
  switch (r.form) {
  case RankSpec::Form::SameAs: return c.rank(r.args[0]);
  case RankSpec::Form::Broadcast: return broadcastArgs(c, r.args);
  case RankSpec::Form::Fixed: return Rank::exact(r.fixed);
  case RankSpec::Form::Reduce: return reduceRank(r, c);
  case RankSpec::Form::Unknown: return Rank::top();
  }
  return Rank::top();
}

std::optional<RuleError> refusal(const RefusalSpec &r, const OpCall &c) {
  if (c.isNone(r.arg)) return std::nullopt;
  if (!isTensorList(*c.schema().args[c.schema().argIndex(r.arg)].type)) { // reads the dtype only
    const DType d = c.dtype(r.arg);
    if (r.dtypes.contains(d)) return c.semantic("{} of dtype {} is not supported", r.arg, name(d));
    return std::nullopt;
  }
  auto refused = [&](const Value &t) { return t.isTensor() && t.dtype() && r.dtypes.contains(*t.dtype()); };
  const Value &v = c.arg(r.arg);
  // A list of known length: each element (one of unknown length is not checked).
  if (v.isList() && v.lengthKnown())
    for (size_t i = 0; i < v.elements().size(); ++i)
      if (refused(v.elements()[i]))
        return c.semantic("{}[{}] of dtype {} is not supported", r.arg, i, name(*v.elements()[i].dtype()));
  return std::nullopt;
}

struct Compiled {
  RuleSpec spec;
  std::vector<SchemaTypePtr> returnTypes;
  /// By return: the dtype and rank to compute, or none (from the schema type).
  std::vector<std::optional<std::pair<DTypeSpec, RankSpec>>> parts;
};

} // namespace

std::vector<SpecProblem> checkSpec(const RuleSpec &spec, const Schema &schema) {
  Checker ck(schema);
  const size_t n = schema.returns.size();
  if (schema.varReturns) ck.fail(spec.line, "a schema returning `...` takes no rule");
  size_t tensors = 0;
  for (const SchemaArg &r : schema.returns) tensors += isTensorReturn(r);
  if (spec.results.empty()) ck.fail(spec.line, "no dtype rule (dtype = ... or results = [...])");
  else if (spec.results.size() != 1 && spec.results.size() != n)
    ck.fail(spec.results[std::min(n, spec.results.size() - 1)].line,
            fmt::format("{} results given, {} returns {}", spec.results.size(), schema.key(), n));
  else if (spec.results.size() == 1 && n != 1 && tensors == 0)
    ck.fail(spec.results[0].line, fmt::format("{} returns no tensor: its results need no rule", schema.key()));
  else if (spec.results.size() == 1 && n != 1 && !spec.results[0].dtype)
    ck.fail(spec.results[0].line, "no dtype for the tensor results");

  if (spec.results.size() == n)
    for (size_t i = 0; i < n; ++i) {
      const ResultSpec &r = spec.results[i];
      const bool tensor = isTensorReturn(schema.returns[i]);
      if (tensor && !r.dtype) ck.fail(r.line, fmt::format("result {} is a {}: give its dtype (dtype = ...)", i, schema.returns[i].type->str()));
      if (!tensor && (r.dtype || r.rank))
        ck.fail(r.line, fmt::format("result {} is {}: its schema type gives it, with no rule (write {{}})", i,
                                    schema.returns[i].type->str()));
    }
  for (const ResultSpec &r : spec.results) {
    if (r.dtype) ck.dtype(*r.dtype);
    if (r.rank) ck.rank(*r.rank);
    else if (r.dtype && r.dtype->form != DTypeSpec::Form::SameAs && r.dtype->form != DTypeSpec::Form::Promote)
      ck.fail(r.dtype->line, "give the rank too (rank = ...): only same_as and promote imply one");
  }
  for (const RefusalSpec &r : spec.refusals) {
    ck.arg(r.line, r.arg, [](const SchemaType &t) { return isMaybeTensor(t) || isTensorList(t); },
           "a Tensor, Tensor? or Tensor[]");
    if (r.dtypes.empty()) ck.fail(r.line, fmt::format("no dtype refused for '{}'", r.arg));
  }
  if (spec.sameDType.size() == 1) ck.fail(spec.sameDTypeLine, "same_dtype names one argument: name two or more");
  for (const std::string &a : spec.sameDType) ck.arg(spec.sameDTypeLine, a, isMaybeTensor, "a Tensor or Tensor?");
  return std::move(ck.problems);
}

RuleFn compileSpec(const RuleSpec &spec, const Schema &schema) {
  if (auto problems = checkSpec(spec, schema); !problems.empty())
    throw std::invalid_argument(fmt::format("{}: {}", schema.key(), problems.front().message));
  auto compiled = std::make_shared<Compiled>();
  compiled->spec = spec;
  std::vector<const ResultSpec *> per = perReturn(spec, schema);
  for (size_t i = 0; i < schema.returns.size(); ++i) {
    compiled->returnTypes.push_back(schema.returns[i].type);
    if (!per[i] || !per[i]->dtype) {
      compiled->parts.emplace_back();
      continue;
    }
    compiled->parts.emplace_back(std::pair(*per[i]->dtype, per[i]->rank ? *per[i]->rank : defaultRank(*per[i]->dtype)));
  }
  return [compiled](const OpCall &c) -> RuleResult {
    const RuleSpec &s = compiled->spec;
    if (!s.sameDType.empty())
      if (auto e = requireSame(c, s.sameDType)) return *e;
    for (const RefusalSpec &r : s.refusals)
      if (auto e = refusal(r, c)) return *e;
    std::vector<Value> out;
    out.reserve(compiled->parts.size());
    for (size_t i = 0; i < compiled->parts.size(); ++i) {
      const auto &part = compiled->parts[i];
      if (!part) {
        out.push_back(unknownOfType(*compiled->returnTypes[i]));
        continue;
      }
      DTypeOr d = evalDType(part->first, c);
      if (d.index() == 1) return std::get<RuleError>(std::move(d));
      RankOr r = evalRank(part->second, c);
      if (r.index() == 1) return std::get<RuleError>(std::move(r));
      out.push_back(tensorOf(std::get<DType>(d), std::get<Rank>(r)));
    }
    return out;
  };
}

namespace {
void collectNamed(const DTypeSpec &d, std::vector<std::pair<DType, int>> &out) {
  if (d.form == DTypeSpec::Form::Always) out.emplace_back(d.dtype, d.line);
  for (const auto &t : d.byCategory)
    if (t && t->how == CategoryTarget::How::Fixed) out.emplace_back(t->dtype, d.line);
  if (d.whenNone) collectNamed(*d.whenNone, out);
}
} // namespace

std::vector<std::pair<DType, int>> namedResultDTypes(const RuleSpec &spec) {
  std::vector<std::pair<DType, int>> out;
  for (const ResultSpec &r : spec.results)
    if (r.dtype) collectNamed(*r.dtype, out);
  return out;
}

//===----------------------------------------------------------------------===//
// Building specs in code
//===----------------------------------------------------------------------===//

DTypeSpec DTypeSpec::sameAs(std::string arg, PromotionKind kind) {
  DTypeSpec d;
  d.form = Form::SameAs;
  d.args = {std::move(arg)};
  d.kind = kind;
  return d;
}

DTypeSpec DTypeSpec::promote(std::vector<std::string> args, PromotionKind kind) {
  DTypeSpec d;
  d.form = Form::Promote;
  d.args = std::move(args);
  d.kind = kind;
  return d;
}

DTypeSpec DTypeSpec::always(DType t) {
  DTypeSpec d;
  d.form = Form::Always;
  d.dtype = t;
  return d;
}

DTypeSpec DTypeSpec::fromArg(std::string arg, std::optional<DTypeSpec> whenNone) {
  DTypeSpec d;
  d.form = Form::FromArg;
  d.args = {std::move(arg)};
  if (whenNone) d.whenNone = std::make_shared<const DTypeSpec>(std::move(*whenNone));
  return d;
}

RankSpec RankSpec::sameAs(std::string arg) {
  RankSpec r;
  r.form = Form::SameAs;
  r.args = {std::move(arg)};
  return r;
}

RankSpec RankSpec::broadcast(std::vector<std::string> args) {
  RankSpec r;
  r.form = Form::Broadcast;
  r.args = std::move(args);
  return r;
}

RankSpec RankSpec::fixedAt(int rank) {
  RankSpec r;
  r.form = Form::Fixed;
  r.fixed = rank;
  return r;
}

RankSpec RankSpec::reduce(std::string tensor, std::string dims, std::string keepdim, bool keepdimValue) {
  RankSpec r;
  r.form = Form::Reduce;
  r.args = {std::move(tensor)};
  r.dims = std::move(dims);
  r.keepdim = std::move(keepdim);
  r.keepdimValue = keepdimValue;
  return r;
}

ResultSpec ResultSpec::of(DTypeSpec dtype, std::optional<RankSpec> rank) {
  ResultSpec r;
  r.dtype = std::move(dtype);
  r.rank = std::move(rank);
  return r;
}

RuleSpec RuleSpec::of(DTypeSpec dtype, std::optional<RankSpec> rank) {
  RuleSpec s;
  s.results.push_back(ResultSpec::of(std::move(dtype), std::move(rank)));
  return s;
}

//===----------------------------------------------------------------------===//
// Words
//===----------------------------------------------------------------------===//

namespace {
constexpr std::pair<std::string_view, PromotionKind> kKinds[] = {
    {"default", PromotionKind::Default},
    {"int_to_float", PromotionKind::IntToFloat},
    {"always_bool", PromotionKind::AlwaysBool},
    {"complex_to_float", PromotionKind::ComplexToFloat},
    {"bool_to_long", PromotionKind::BoolToLong},
};

/// Canonical dtype names only: `float` (float32 in PyTorch) reads too much
/// like "every floating dtype" to accept in a rule.
std::optional<DType> canonicalDType(std::string_view word) {
  for (DType d : kAllDTypes)
    if (name(d) == word) return d;
  return std::nullopt;
}

DTypeSet dtypesWhere(bool (*pred)(DType)) {
  DTypeSet s;
  for (DType d : kAllDTypes)
    if (pred(d)) s = DTypeSet::join(s, DTypeSet(d));
  return s;
}
} // namespace

std::optional<PromotionKind> parsePromotionKind(std::string_view word) {
  for (auto [w, k] : kKinds)
    if (w == word) return k;
  return std::nullopt;
}

std::string_view promotionKindWord(PromotionKind k) {
  for (auto [w, kind] : kKinds)
    if (kind == k) return w;
  return "default";
}

std::optional<DTypeSet> parseDTypeClass(std::string_view word) {
  if (word == "bool") return DTypeSet(DType::Bool);
  if (word == "integral") return dtypesWhere([](DType d) { return isIntegral(d); });
  if (word == "unsigned")
    return dtypesWhere([](DType d) { return d == DType::UInt8 || d == DType::UInt16 || d == DType::UInt32 || d == DType::UInt64; });
  if (word == "floating") return dtypesWhere([](DType d) { return isFloating(d); });
  if (word == "float8") return dtypesWhere([](DType d) { return isFloat8(d); });
  if (word == "complex") return dtypesWhere([](DType d) { return isComplex(d); });
  if (word == "quantized") return dtypesWhere([](DType d) { return isQuantized(d); });
  if (auto d = canonicalDType(word)) return DTypeSet(*d);
  return std::nullopt;
}

std::optional<CategoryTarget> parseCategoryTarget(std::string_view word) {
  if (word == "keep") return CategoryTarget{CategoryTarget::How::Keep};
  if (word == "real") return CategoryTarget{CategoryTarget::How::Real};
  if (word == "complex") return CategoryTarget{CategoryTarget::How::Complex};
  if (auto d = canonicalDType(word)) return CategoryTarget{CategoryTarget::How::Fixed, *d};
  return std::nullopt;
}

} // namespace dtf
