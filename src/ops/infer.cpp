#include "ops/infer.h"
#include "ops/may_raise.h"
#include "ops/cpu_kernels.h"

#include "ops/notation.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <fmt/format.h>
#include <stdexcept>

namespace dtf {
namespace {

using K = SchemaType::Kind;

/// Positions in the argument vector (and inside tensor lists) that hold
/// something unknown, with the concrete alternatives for each.
struct Choice {
  size_t arg;
  std::optional<size_t> elem; // inside a Tensor[] list
  std::vector<Value> alternatives;
};

/// What an unknown dtype ranges over for one rule: the version's universe,
/// and its quantized dtypes too for a rule that handles them (anyCategory).
/// Other rules keep the universe, so their answers do not move.
struct DTypeRange {
  const DTypeSystem &types;
  bool quantized = false;
  DTypeSet candidates(DTypeSet s) const {
    return quantized ? types.candidatesWithQuantized(s) : types.candidates(s);
  }
  DTypeSet dtypeArgs() const {
    return quantized ? DTypeSet::join(types.universe(), types.quantized()) : types.universe();
  }
};

std::vector<Value> tensorAlternatives(const DTypeRange &types, const Value &v) {
  Value t = v.isTensor() ? v : Value::unknownTensor();
  std::vector<Rank> ranks;
  if (t.rank().isTop()) ranks = {Rank::exact(0), Rank::atLeast1()};
  else ranks = {t.rank()};
  std::vector<Value> out;
  DTypeSet dts = types.candidates(t.dtypes());
  for (DType d : dts)
    for (Rank r : ranks)
      out.push_back(r == t.rank() ? t.withDTypes(d) : Value::tensor(d, r)); // keeps size-1 facts
  return out;
}

bool needsTensorChoice(const Value &v) {
  return !v.isTensor() || !v.dtype() || v.rank().isTop();
}

std::vector<Value> dtypeArgAlternatives(const DTypeRange &types, bool optional) {
  std::vector<Value> out;
  if (optional) out.push_back(Value::none());
  for (DType d : types.dtypeArgs()) out.push_back(Value::dtypeCode(d));
  return out;
}

bool knownDtypeCode(const DTypeSystem &types, const Value &v) {
  auto c = v.intValue();
  return c && types.fromC10Code(*c);
}

/// Alternatives for one argument, or empty when it is already concrete.
std::vector<Value> alternativesFor(const DTypeRange &types, const SchemaType &type, const Value &v) {
  switch (type.kind) {
  case K::Tensor:
    return needsTensorChoice(v) ? tensorAlternatives(types, v) : std::vector<Value>{};
  case K::Number:
    if (v.isNumber() && v.numKind()) return {};
    {
      std::vector<Value> out;
      NumKinds kinds = v.isNumber() ? v.numKinds() : NumKinds::all();
      for (NumKind k : kinds) out.push_back(Value::number(k));
      return out;
    }
  case K::ScalarType:
    return v.isNumber() && knownDtypeCode(types.types, v) ? std::vector<Value>{} : dtypeArgAlternatives(types, false);
  case K::Optional: {
    const SchemaType &in = *type.inner();
    if (v.isNone()) return {};
    if (in.kind == K::Tensor) {
      if (v.isTensor()) return needsTensorChoice(v) ? tensorAlternatives(types, v) : std::vector<Value>{};
      auto alts = tensorAlternatives(types, Value::unknownTensor());
      alts.insert(alts.begin(), Value::none());
      return alts;
    }
    if (in.kind == K::ScalarType)
      return v.isNumber() && knownDtypeCode(types.types, v) ? std::vector<Value>{} : dtypeArgAlternatives(types, true);
    if (in.kind == K::Number && v.isNumber()) return alternativesFor(types, in, v);
    return {};
  }
  default: return {};
  }
}

void collectChoices(const DTypeRange &types, const Schema &schema, std::span<const Value> args,
                    std::vector<Choice> &out) {
  for (size_t i = 0; i < args.size() && i < schema.args.size(); ++i) {
    const SchemaType &t = *schema.args[i].type;
    if (t.kind == K::List && t.inner() && t.inner()->isTensorLike()) {
      const Value &l = args[i];
      if (!l.lengthKnown()) continue; // the rule sees the summary
      for (size_t e = 0; e < l.elements().size(); ++e) {
        auto alts = alternativesFor(types, *t.inner(), l.elements()[e]);
        if (!alts.empty()) out.push_back({i, e, std::move(alts)});
      }
      continue;
    }
    auto alts = alternativesFor(types, t, args[i]);
    if (!alts.empty()) out.push_back({i, std::nullopt, std::move(alts)});
  }
}

/// A known dim argument outside a tensor of known rank (OpRule::dimArgs):
/// "Dimension out of range", whatever the rule would answer. A 0-dim tensor
/// takes dims -1 and 0, as c10::maybe_wrap_dim.
std::optional<RuleError> dimOutOfRange(const OpRule &rule, std::span<const Value> args) {
  if (rule.dimsOf < 0 || static_cast<size_t>(rule.dimsOf) >= args.size()) return std::nullopt;
  const Value &t = args[rule.dimsOf];
  auto r = t.isTensor() ? t.rank().value() : std::nullopt;
  if (!r) return std::nullopt;
  if (*r == 0 && rule.facts.has(OpFact::AnyDimOfZeroDim)) return std::nullopt;
  if (*r == 0 && rule.facts.has(OpFact::NoDimOfZeroDim))
    for (uint32_t i : rule.dimArgs)
      if (i < args.size() && args[i].intValue())
        return RuleError{ErrorKind::Semantic, fmt::format("{}: Dimension specified as {} but tensor has no dimensions",
                                                          rule.key, *args[i].intValue())};
  // unsqueeze(x, -1) of a 1-D x is 2-D: its dim may name the one it adds
  const int n = std::max(*r, 1) + (rule.facts.has(OpFact::DimsIncludeNew) ? 1 : 0);
  auto check = [&](const Value &v) -> std::optional<RuleError> {
    auto d = v.isNumber() && v.numKind() == NumKind::Int ? v.intValue() : std::nullopt;
    if (!d || (*d >= -n && *d < n)) return std::nullopt;
    return RuleError{ErrorKind::Semantic, fmt::format("{}: Dimension out of range (expected to be in range of [{}, {}], "
                                                      "but got {})", rule.key, -n, n - 1, *d)};
  };
  for (uint32_t i : rule.dimArgs) {
    if (i >= args.size()) continue;
    if (args[i].isList()) {
      for (const Value &e : args[i].elements())
        if (auto err = check(e)) return err;
    } else if (auto err = check(args[i])) {
      return err;
    }
  }
  return std::nullopt;
}

/// channels_last (c10 code 2) for a tensor that is not 4-D, channels_last_3d
/// (3) for one that is not 5-D (OpRule::memoryFormatArg).
std::optional<RuleError> memoryFormatRank(const OpRule &rule, std::span<const Value> args) {
  if (static_cast<size_t>(rule.memoryFormatArg) >= args.size() || static_cast<size_t>(rule.dimsOf) >= args.size())
    return std::nullopt;
  auto format = args[rule.memoryFormatArg].intValue();
  const Value &t = args[rule.dimsOf];
  auto r = t.isTensor() ? t.rank().value() : std::nullopt;
  if (!format || !r || (*format != 2 && *format != 3)) return std::nullopt;
  const int need = *format == 2 ? 4 : 5;
  if (*r == need) return std::nullopt;
  return RuleError{ErrorKind::Semantic, fmt::format("{}: required rank {} tensor to use {} format", rule.key, need,
                                                    *format == 2 ? "channels_last" : "channels_last_3d")};
}

/// The rule's IntBound arguments (Registry::Entry::atLeast) below their least value.
std::optional<RuleError> belowBound(const OpRule &rule, std::span<const Value> args) {
  for (const IntBound &b : rule.intBounds) {
    if (b.arg >= args.size()) continue;
    const Value &v = args[b.arg]; // an int, or a list of ints (elements() is empty for a number)
    auto below = [&](const Value &e) {
      auto i = e.isNumber() && e.numKind() == NumKind::Int ? e.intValue() : std::nullopt;
      return i && *i < b.least;
    };
    bool refused = below(v);
    for (const Value &e : v.elements()) refused = refused || below(e);
    if (refused) return RuleError{ErrorKind::ValueDependent, fmt::format("{}: {}, got {}", rule.key, b.message, v.str())};
  }
  return std::nullopt;
}

/// A known dtype outside c10's four categories (quantized, bits, sub-byte)
/// among the tensor arguments (an unknown one ranges over the universe).
bool anyOtherCategory(std::span<const Value> args) {
  auto other = [](const Value &v) {
    auto d = v.dtype();
    return d && category(*d) == Category::Other;
  };
  for (const Value &a : args) {
    if (other(a)) return true;
    if (a.isList())
      for (const Value &e : a.elements())
        if (other(e)) return true;
  }
  return false;
}

constexpr DTypeSet kQuantized = [] {
  DTypeSet s;
  for (DType d : kAllDTypes)
    if (isQuantized(d)) s.insert(d);
  return s;
}();

/// A tensor argument (or tensor list element) that may be quantized: its
/// dtype set holds a quantized dtype and is not DTypeSet::all(), the unknown
/// of an untyped tensor, which is taken to be a plain one.
bool mayBeQuantized(const Value &v) {
  if (v.isTensor()) return !v.dtypes().isAll() && !DTypeSet::meet(v.dtypes(), kQuantized).empty();
  if (!v.isList() && !v.isTuple()) return false; // numbers, None, strings: nothing to walk
  if (v.isList() && !v.lengthKnown()) return mayBeQuantized(v.elementSummary());
  for (const Value &e : v.elements())
    if (mayBeQuantized(e)) return true;
  return false;
}

bool anyMayBeQuantized(std::span<const Value> args) {
  return std::any_of(args.begin(), args.end(), [](const Value &a) { return mayBeQuantized(a); });
}

/// `v` (an unknown output) with every tensor in it of dtype set `s`.
Value withTensorDTypes(const Value &v, DTypeSet s) {
  if (v.isTensor()) return v.withDTypes(s);
  if (v.isList() && !v.lengthKnown()) return Value::listOf(withTensorDTypes(v.elementSummary(), s));
  if (!v.isList() && !v.isTuple()) return v;
  std::vector<Value> elems;
  for (const Value &e : v.elements()) elems.push_back(withTensorDTypes(e, s));
  return v.isList() ? Value::list(std::move(elems)) : Value::tuple(std::move(elems));
}

/// Unknown outputs of an op given a tensor that may be quantized, by a rule
/// written for plain tensors or by no rule: they may be quantized too (relu
/// of a quint8 tensor is quint8), so the next such op answers unknown again
/// instead of assuming a plain dtype (sigmoid: the floating ones).
std::vector<Value> unknownMaybeQuantized(const DTypeSystem &types, const Schema &schema) {
  std::vector<Value> out = unknownOutputs(schema);
  for (Value &v : out) v = withTensorDTypes(v, DTypeSet::join(types.universe(), types.quantized()));
  return out;
}

RuleResult runRule(const DTypeSystem &types, const ExecContext *context, const OpRule &rule, const Schema &schema,
                   std::span<const Value> args, std::span<const uint8_t> pending = {},
                   PendingArgument *firstPendingRead = nullptr) {
  // Rules were written, and checked, for bool/integral/floating/complex
  // tensors; on a quantized or bits tensor only those that say so answer.
  if (!rule.anyCategory && anyOtherCategory(args)) return unknownOutputs(schema);
  // Generic checks read arguments behind the enumeration's back: only when
  // what they read is not pending (the branches that fix it run them again);
  // a tensor whose pending alternatives differ only in dtype has its rank.
  auto isPending = [&](size_t i) { return i < pending.size() && pending[i] != 0; };
  auto rankPending = [&](size_t i) { return i < pending.size() && (pending[i] & ~kPendingDtype) != 0; };
  if (!rule.dimArgs.empty() && !rankPending(static_cast<size_t>(std::max(rule.dimsOf, 0)))) {
    bool anyPending = false;
    for (uint32_t i : rule.dimArgs) anyPending = anyPending || isPending(i);
    if (!anyPending)
      if (auto e = dimOutOfRange(rule, args)) return *e;
  }
  if (rule.memoryFormatArg >= 0 && !isPending(rule.memoryFormatArg) && !rankPending(rule.dimsOf))
    if (auto e = memoryFormatRank(rule, args)) return *e;
  if (!rule.intBounds.empty()) {
    bool anyPending = false;
    for (const IntBound &b : rule.intBounds) anyPending = anyPending || isPending(b.arg);
    if (!anyPending)
      if (auto e = belowBound(rule, args)) return *e;
  }
  try {
    OpCall call(types, schema, args, pending, firstPendingRead, context);
    RuleResult r = rule.fn(call);
    if (!r.ok()) return r;
    // Operands whose known sizes cannot broadcast: PyTorch raises whatever their dtypes.
    if (call.sizeMismatch()) return RuleError{ErrorKind::SizeDependent, schema.key() + ": " + *call.sizeMismatch()};
    if (call.sizeGuard() && !r.possibleError())
      return RuleResult(r.takeOutputs(), RuleError{ErrorKind::SizeDependent,
                                                   schema.key() + ": raises unless " + *call.sizeGuard()});
    return r;
  } catch (const PromotionError &e) {
    // c10::promoteTypes raised inside the op (uint16 with int8, float8 with anything else).
    return RuleError{ErrorKind::Semantic, schema.key() + ": " + e.what()};
  } catch (const std::logic_error &e) {
    // A rule that cannot handle this case is a rule bug; degrade to unknown
    // rather than guess, and say why.
    return RuleError{ErrorKind::Semantic, std::string("internal: ") + e.what()};
  }
}

bool isInternal(const RuleError &e) { return e.message.starts_with("internal: "); }

/// The PendingAspect bits in which these alternatives of one argument differ.
uint8_t differingAspects(std::span<const Value *const> alts) {
  uint8_t bits = 0;
  const Value &first = *alts[0];
  for (const Value *a : alts.subspan(1)) {
    if (a->identical(first)) continue;
    if (a->isNone() != first.isNone()) bits |= kPendingNone;
    else if (a->isTensor() && first.isTensor()) {
      if (a->dtypes() != first.dtypes()) bits |= kPendingDtype;
      if (a->rank() != first.rank()) bits |= kPendingRank;
      if (a->dtypes() == first.dtypes() && a->rank() == first.rank()) bits |= kPendingOther; // size-1 facts
    } else {
      bits |= kPendingOther;
    }
  }
  return bits;
}

/// Advance an odometer whose digit k counts up to size(k); false after the
/// last combination (every digit back to 0).
template <typename Size> bool nextCombination(std::vector<size_t> &pick, Size size) {
  for (size_t k = 0; k < pick.size(); ++k) {
    if (++pick[k] < size(k)) return true;
    pick[k] = 0;
  }
  return false;
}

/// `list` with element `elem` replaced.
Value withElement(const Value &list, size_t elem, const Value &v) {
  std::vector<Value> elems = list.elements();
  elems[elem] = v;
  return Value::list(std::move(elems));
}

/// The rule over every concrete case of the unknown arguments, joined: as a
/// full product where the cases are few, otherwise depth first and on
/// demand. On demand, the rule runs with the unknown arguments still
/// pending (each holding a representative alternative), and only the first
/// aspect it read (None or not, dtype, rank: see OpCall) of one argument is
/// branched on (PendingArgument), one alternative at a time. A case the rule
/// rejects after comparing two dtypes ends its branch, and a rank no rule
/// reads is never enumerated: `batch_norm(x, w, b, mean, var)` with four
/// parameters of unknown dtype and rank takes about 500 calls, not 26^4. The
/// answer equals running the rule on every concrete case: what a rule never
/// read cannot change what it returns.
struct Enumeration {
  Enumeration(const DTypeSystem &types, const ExecContext *context, const OpRule &rule, const Schema &schema,
              std::span<const Value> args, const std::vector<Choice> &choices)
      : types(types), context(context), rule(rule), schema(schema), concrete(args.begin(), args.end()),
        choices(choices) {}

  /// Every case, one rule call each.
  void exploreProduct() {
    std::vector<size_t> pick(choices.size(), 0);
    do {
      for (size_t c = 0; c < choices.size(); ++c) {
        const Choice &ch = choices[c];
        const Value &alt = ch.alternatives[pick[c]];
        concrete[ch.arg] = ch.elem ? withElement(concrete[ch.arg], *ch.elem, alt) : alt;
      }
      record(runRule(types, context, rule, schema, concrete));
    } while (!internal && nextCombination(pick, [&](size_t c) { return choices[c].alternatives.size(); }));
  }

  /// Only what the rule reads (see above): every unknown argument starts
  /// pending, holding its first alternative as the representative.
  void exploreOnDemand() {
    pending.assign(concrete.size(), 0);
    live.assign(concrete.size(), {});
    for (const Choice &c : choices) {
      if (c.elem) { // an unknown element of a tensor list: the list is enumerated whole when read
        pending[c.arg] = 0xff;
        concrete[c.arg] = withElement(concrete[c.arg], *c.elem, c.alternatives[0]);
        continue;
      }
      for (const Value &a : c.alternatives) live[c.arg].push_back(&a);
      pending[c.arg] = differingAspects(live[c.arg]);
      concrete[c.arg] = c.alternatives[0];
    }
    explore();
  }

  /// Only what the rule reads, depth first.
  void explore() {
    if (overBudget || internal) return;
    if (++calls > kMaxOnDemandCalls) {
      overBudget = true;
      return;
    }
    PendingArgument need;
    RuleResult r = runRule(types, context, rule, schema, concrete, pending, &need);
    if (need.aspects == 0) { // read nothing pending: the answer for every case left
      record(std::move(r));
      return;
    }
    if (live[need.position].empty()) branchOnList(need.position);
    else branchOn(need.position, need.aspects);
  }

  /// Split argument i's remaining alternatives by the aspects read, in order.
  void branchOn(size_t i, uint8_t aspects) {
    const std::vector<const Value *> all = live[i];
    const uint8_t savedBits = pending[i];
    const Value saved = concrete[i];
    auto key = [&](const Value &a, const Value &b) { // same answer to what was read
      if (aspects & kPendingOther) return a.identical(b);
      if (a.isNone() || b.isNone()) return a.isNone() == b.isNone();
      if (a.isTensor() != b.isTensor()) return false;
      if (!a.isTensor()) return a.identical(b);
      return (!(aspects & kPendingDtype) || a.dtypes() == b.dtypes()) && (!(aspects & kPendingRank) || a.rank() == b.rank());
    };
    std::vector<uint8_t> done(all.size(), 0);
    for (size_t first = 0; first < all.size() && !overBudget && !internal; ++first) {
      if (done[first]) continue;
      std::vector<const Value *> group;
      for (size_t k = first; k < all.size(); ++k)
        if (!done[k] && key(*all[k], *all[first])) {
          group.push_back(all[k]);
          done[k] = 1;
        }
      live[i] = std::move(group);
      pending[i] = differingAspects(live[i]);
      concrete[i] = *live[i][0];
      explore();
    }
    live[i] = all;
    pending[i] = savedBits;
    concrete[i] = saved;
  }

  /// A tensor list with unknown elements: every combination of them.
  void branchOnList(size_t i) {
    std::vector<const Choice *> here;
    for (const Choice &c : choices)
      if (c.arg == i) here.push_back(&c);
    const Value saved = concrete[i];
    pending[i] = 0;
    std::vector<size_t> pick(here.size(), 0);
    do {
      std::vector<Value> elems = saved.elements();
      for (size_t k = 0; k < here.size(); ++k) elems[*here[k]->elem] = here[k]->alternatives[pick[k]];
      concrete[i] = Value::list(std::move(elems));
      explore();
    } while (!overBudget && !internal &&
             nextCombination(pick, [&](size_t k) { return here[k]->alternatives.size(); }));
    concrete[i] = saved;
    pending[i] = 0xff;
  }

  void record(RuleResult r) {
    if (!r.ok()) {
      if (isInternal(r.error())) internal = true;
      if (!firstError) firstError = r.error();
      return;
    }
    if (r.possibleError() && !firstError) firstError = r.possibleError();
    if (!joined) {
      joined = r.takeOutputs();
      return;
    }
    auto &j = *joined;
    if (j.size() != r.outputs().size()) {
      internal = true;
      return;
    }
    for (size_t i = 0; i < j.size(); ++i) j[i] = Value::join(j[i], r.outputs()[i]);
  }

  const DTypeSystem &types;
  const ExecContext *context;
  const OpRule &rule;
  const Schema &schema;
  std::vector<Value> concrete;  ///< by argument: its value, or a representative of its live alternatives
  std::vector<uint8_t> pending; ///< by argument: PendingAspect bits not settled yet
  std::vector<std::vector<const Value *>> live; ///< by argument: the alternatives still possible
  const std::vector<Choice> &choices;
  size_t calls = 0;
  bool overBudget = false, internal = false;
  std::optional<std::vector<Value>> joined;
  std::optional<RuleError> firstError;
};

} // namespace

RuleResult mayRaise(std::vector<Value> outputs, RuleError caveat) {
  return RuleResult(std::move(outputs), std::move(caveat));
}

RuleError cpuKernelGap(const OpCall &c, DType d, std::string_view detail) {
  return cpuKernelGap(c.key(), c.version(), d, detail);
}

RuleError cpuKernelGap(std::string_view key, TorchVersion v, DType d, std::string_view detail) {
  return {ErrorKind::MissingKernel, fmt::format("{}: no CPU kernel for {} in {} ({})", key, name(d), name(v), detail)};
}

std::string kernelGapText(const RuleError &e, std::string_view version) {
  if (e.kind != ErrorKind::MissingKernel) return {};
  // cpuKernelGap's words; the older missing-kernel messages give PyTorch's only.
  constexpr std::string_view kWords = "no CPU kernel for ";
  if (auto at = e.message.find(kWords); at != std::string::npos)
    return e.message.substr(at, e.message.find(" (", at) - at);
  return fmt::format("no CPU kernel for these dtypes in {}", version);
}

Value unknownOfType(const SchemaType &type) {
  switch (type.kind) {
  case K::Tensor: return Value::unknownTensor();
  case K::Int: return Value::number(NumKind::Int);
  case K::Float: return Value::number(NumKind::Float);
  case K::Bool: return Value::number(NumKind::Bool);
  case K::Complex: return Value::number(NumKind::Complex);
  case K::Number: return Value::number(NumKinds::all());
  case K::ScalarType:
  case K::Layout:
  case K::MemoryFormat: return Value::number(NumKind::Int);
  case K::Str: return Value::unknownString();
  case K::List: return Value::listOf(unknownOfType(*type.inner()));
  case K::Tuple: {
    std::vector<Value> elems;
    for (auto &c : type.children) elems.push_back(unknownOfType(*c));
    return Value::tuple(std::move(elems));
  }
  default: return Value::top();
  }
}

std::vector<Value> unknownOutputs(const Schema &schema) {
  std::vector<Value> out;
  for (const SchemaArg &r : schema.returns) out.push_back(unknownOfType(*r.type));
  return out;
}

namespace {
Value readDefault(const SchemaArg &arg) {
  auto v = parseNotation(*arg.defaultText, arg.type.get());
  if (!v.value) return Value::top();
  // `int[2] stride=1` means [1, 1].
  const SchemaType *t = arg.type.get();
  if (t->kind == K::List && v.value->isNumber()) {
    if (t->fixedSize) return Value::list(std::vector<Value>(*t->fixedSize, *v.value));
    return Value::listOf(*v.value);
  }
  return *v.value;
}
} // namespace

Value defaultValue(const SchemaArg &arg) {
  if (!arg.defaultText) return Value::top();
  if (std::shared_ptr<const Value> kept = arg.kept.load()) return *kept;
  Value v = readDefault(arg);
  arg.kept.store(std::make_shared<const Value>(v)); // two threads may both read it: the same value
  return v;
}

namespace {

/// The dtype rule's part of infer(): enumerate, run, join.
InferOutcome inferDTypes(const Registry &registry, const OpRule *rule, const Schema &schema,
                         std::span<const Value> args, size_t fullProductCases) {
  InferOutcome out;
  if (args.size() != schema.args.size())
    throw std::invalid_argument(schema.key() + ": expected " + std::to_string(schema.args.size()) +
                                " arguments, got " + std::to_string(args.size()));
  // Rules were written, and checked, for plain tensors: on one that may be
  // quantized only those that say so answer (runRule checks bits and the
  // sub-byte shells once concrete).
  if (!rule->anyCategory && anyMayBeQuantized(args)) {
    out.outputs = unknownMaybeQuantized(registry.types(), schema);
    return out;
  }

  auto wrongCount = [&](std::vector<Value> &outputs) {
    if (outputs.size() == schema.returns.size() || schema.varReturns) return false;
    out.outputs = unknownOutputs(schema);
    out.possibleError = RuleError{ErrorKind::Semantic, "internal: " + schema.key() +
                                                           ": rule returned a wrong number of results"};
    return true;
  };

  const DTypeSystem &types = registry.types();
  const ExecContext *context = &registry.context();
  std::vector<Choice> choices;
  collectChoices(DTypeRange{types, rule->anyCategory}, schema, args, choices);
  if (choices.empty()) { // concrete arguments (the common case): one rule call, read in place
    RuleResult r = runRule(types, context, *rule, schema, args);
    if (r.ok()) {
      out.possibleError = r.possibleError();
      std::vector<Value> outputs = r.takeOutputs();
      if (!wrongCount(outputs)) out.outputs = std::move(outputs);
      return out;
    }
    // Never guess: a rule that cannot answer leaves the call unknown; otherwise PyTorch raises.
    if (isInternal(r.error())) {
      out.possibleError = r.error();
    } else {
      out.status = InferOutcome::Status::Error;
      out.error = r.error();
    }
    out.outputs = unknownOutputs(schema);
    return out;
  }
  size_t cases = 1;
  for (const Choice &c : choices) // saturating: SIZE_MAX once past fullProductCases
    cases = cases > fullProductCases / c.alternatives.size() ? SIZE_MAX : cases * c.alternatives.size();
  Enumeration e(types, context, *rule, schema, args, choices);
  if (cases <= fullProductCases) e.exploreProduct(); // few cases: cheaper than finding what the rule reads
  else e.exploreOnDemand();
  if (e.overBudget) {
    out.status = InferOutcome::Status::TooManyUnknowns;
    out.outputs = unknownOutputs(schema);
    return out;
  }
  const bool internal = e.internal;
  std::optional<std::vector<Value>> &joined = e.joined;
  std::optional<RuleError> &firstError = e.firstError;
  if (internal) {
    // Never guess: a rule that cannot answer a case leaves the call unknown.
    out.outputs = unknownOutputs(schema);
    out.possibleError = firstError;
    return out;
  }
  if (!joined) {
    out.status = InferOutcome::Status::Error;
    out.error = firstError;
    out.outputs = unknownOutputs(schema);
    return out;
  }
  if (wrongCount(*joined)) return out;
  out.outputs = std::move(*joined);
  out.possibleError = firstError;
  return out;
}

/// A shape rule's value for an output: a list whose elements are tensors
/// (split's pieces) lends only their sizes, and its length, to the dtype
/// rule's elements (their dtypes and ranks stay the dtype rule's; a list of
/// another known length is not trusted); any other value replaces it.
Value listWithSizes(const Value &ruled, Value sized) {
  if (!sized.isList() || !sized.lengthKnown()) return sized;
  const auto &el = sized.elements();
  if (!std::any_of(el.begin(), el.end(), [](const Value &e) { return e.isTensor(); })) return sized;
  if (!ruled.isList() || (ruled.lengthKnown() && ruled.elements().size() != el.size())) return ruled;
  std::vector<Value> out;
  for (size_t i = 0; i < el.size(); ++i) {
    Value e = ruled.lengthKnown() ? ruled.elements()[i] : ruled.elementSummary();
    auto dims = el[i].shape();
    out.push_back(dims && e.isTensor() ? e.withShape(std::move(*dims)) : e);
  }
  return Value::list(std::move(out));
}

/// Whether a shape rule's value holds a placeholder: a tensor's sizes, or
/// those of a list's tensors (split's pieces of a data-dependent size).
bool holdsUnbacked(const Value &v) {
  if (v.isList() && v.lengthKnown())
    return std::any_of(v.elements().begin(), v.elements().end(), [](const Value &e) { return holdsUnbacked(e); });
  if (!v.hasKnownDims()) return false; // no sizes to copy out
  auto dims = v.shape();
  return dims && hasUnbackedPlaceholder(*dims);
}

/// The shape rule's part: sizes onto the dtype rule's tensor outputs, or
/// the error the sizes decide. Run once, on the arguments as bound.
void applyShapeRule(const Registry &registry, const OpRule &rule, const Schema &schema, std::span<const Value> args,
                    InferOutcome &out) {
  OpCall call(registry.types(), schema, args, {}, nullptr, &registry.context());
  ShapeResult s;
  try {
    s = rule.shape(call);
  } catch (const std::exception &) {
    return; // never guess: a shape rule that cannot answer leaves sizes unknown
  }
  if (s.error) {
    out.status = InferOutcome::Status::Error;
    out.error = std::move(s.error);
    out.possibleError.reset();
    out.outputs = unknownOutputs(schema);
    return;
  }
  // Data-dependent sizes (before the sizes move out): the caller names them.
  for (const auto &dims : s.outputs) out.unbacked = out.unbacked || (dims && hasUnbackedPlaceholder(*dims));
  for (const auto &v : s.values) out.unbacked = out.unbacked || (v && holdsUnbacked(*v));
  for (size_t i = 0; i < out.outputs.size() && i < s.outputs.size(); ++i)
    if (s.outputs[i] && out.outputs[i].isTensor()) out.outputs[i] = out.outputs[i].withShape(std::move(*s.outputs[i]));
  // A value the sizes decide replaces a number or list of the same kind;
  // a list of tensors gives its elements' sizes only (listWithSizes).
  for (size_t i = 0; i < out.outputs.size() && i < s.values.size(); ++i)
    if (s.values[i] && s.values[i]->kind() == out.outputs[i].kind())
      out.outputs[i] = listWithSizes(out.outputs[i], std::move(*s.values[i]));
  if (s.possibleError && !out.possibleError) out.possibleError = std::move(s.possibleError);
}

/// An in-place op returns self: unless it may reshape self (resize_, t_,
/// unsqueeze_ ...: OpFact::ReshapesSelfInPlace), its result has self's sizes
/// (dropout_, clamp_, any in-place op whose rule reads no sizes).
void keepSelfSizesInPlace(const Registry &registry, const Schema &schema, std::span<const Value> args,
                          InferOutcome &out) {
  if (schema.inPlace.empty() || args.empty() || schema.args.empty() || schema.args[0].name != "self") return;
  const Value &self = args[0];
  if (!self.isTensor() || !self.hasKnownDims() || registry.facts(schema.name).has(OpFact::ReshapesSelfInPlace)) return;
  for (auto [arg, ret] : schema.inPlace) {
    if (arg != 0 || ret >= out.outputs.size()) continue;
    Value &o = out.outputs[ret];
    if (o.isTensor() && !o.hasKnownDims() && o.rank().isExact() && o.rank() == self.rank()) o = o.withShapeOf(self);
  }
}

} // namespace

Value nameUnbacked(const Value &v, const UnbackedNamer &name) {
  if ((v.isList() || v.isTuple()) && v.lengthKnown()) {
    std::vector<Value> elems;
    bool changed = false;
    for (const Value &e : v.elements()) {
      elems.push_back(nameUnbacked(e, name));
      changed = changed || !elems.back().identical(e);
    }
    if (!changed) return v;
    return v.isList() ? Value::list(std::move(elems)) : Value::tuple(std::move(elems));
  }
  auto dims = v.isTensor() ? v.shape() : std::nullopt;
  if (!dims || !hasUnbackedPlaceholder(*dims)) return v;
  return v.withShape(renameUnbacked(*dims, name));
}

std::vector<std::string> symbolsIn(std::span<const Value> values) {
  std::vector<std::string> out;
  auto add = [&](const SymExpr &e) {
    for (std::string &s : e.symbols()) out.push_back(std::move(s));
  };
  for (const Value &v : values) {
    if ((v.isList() || v.isTuple()) && v.lengthKnown()) {
      for (std::string &s : symbolsIn(v.elements())) out.push_back(std::move(s));
      continue;
    }
    if (auto dims = v.isTensor() ? v.shape() : std::nullopt) appendSymbols(*dims, out);
    if (auto e = v.intExpr()) add(*e);
    if (auto e = v.heldInt()) add(*e);
  }
  return out;
}

void nameUnbackedInCall(InferOutcome &out, std::span<const Value> args) {
  if (!out.unbacked) return;
  const unsigned base = firstFreeUnbacked(symbolsIn(args));
  UnbackedNamer name = [base](unsigned k, SymRange range) -> std::optional<SymExpr> {
    return SymExpr::symbol(unbackedName(base + k), range);
  };
  for (Value &v : out.outputs) v = nameUnbacked(v, name);
  out.unbacked = false;
}

namespace {

/// A CPU kernel the version lacks for a dtype of this call (an argument's, a result's), as the
/// conformance harness measured it (ops/cpu_kernels.h): PyTorch raises "not implemented for"
/// on the CPU where another device computes what the rule answered. Where the harness found the
/// roles whose dtype raises it (nll_loss's `self` of int64, not its int64 `target`), only they
/// are looked at. Nullopt where none is known.
std::optional<RuleError> measuredGap(const Registry &registry, const Schema &schema, std::span<const Value> args,
                                     const std::vector<Value> &outputs) {
  const TorchVersion v = registry.version();
  // The op's lines and the dtypes they name, found once per thread and schema (a binary search
  // over the data's text): a call tests its dtypes against the set, on the refinement's hot path.
  // A layered table's schema may be freed and its address reused: an entry is kept only while
  // its lines still start with the schema's name.
  struct Entry {
    std::string_view lines;
    DTypeSet dtypes;
  };
  thread_local std::unordered_map<const Schema *, Entry> entries;
  auto [it, added] = entries.try_emplace(&schema);
  if (added || (!it->second.lines.empty() && !it->second.lines.starts_with(schema.name))) {
    it->second.lines = measuredCpuKernelGapLines(v, schema.key());
    it->second.dtypes = DTypeSet{};
    for (DType d : kAllDTypes)
      if (measuredCpuKernelGap(it->second.lines, d)) it->second.dtypes.insert(d);
  }
  const Entry &entry = it->second;
  if (entry.dtypes.empty()) return std::nullopt;
  // Whether `x` (or an element of it) may have dtype `d`: a value of unknown dtypes may.
  auto mayHave = [](const Value &x, DType d, auto &&self) -> bool {
    if (x.isTop()) return true;
    if (x.isTensor()) return x.dtypes().contains(d);
    for (const Value &e : x.elements())
      if (self(e, d, self)) return true;
    return false;
  };
  std::vector<Value> results; // flattened as the harness counted them (a tuple's elements)
  for (const Value &o : outputs) {
    if (o.isTuple()) results.insert(results.end(), o.elements().begin(), o.elements().end());
    else results.push_back(o);
  }
  for (DType d : kAllDTypes) {
    if (!entry.dtypes.contains(d)) continue;
    const MeasuredGap gap = *measuredCpuKernelGap(entry.lines, d);
    bool hit = false;
    if (gap.roles.empty()) {
      for (const Value &a : args) hit = hit || mayHave(a, d, mayHave);
      for (const Value &r : results) hit = hit || mayHave(r, d, mayHave);
    } else {
      for (size_t at = 0; at < gap.roles.size() && !hit;) {
        const size_t comma = std::min(gap.roles.find(',', at), gap.roles.size());
        const std::string_view role = gap.roles.substr(at, comma - at);
        at = comma + 1;
        if (role.starts_with('#')) {
          size_t i = 0;
          std::from_chars(role.data() + 1, role.data() + role.size(), i);
          hit = i < results.size() && mayHave(results[i], d, mayHave);
        } else if (int k = schema.argIndex(role); k >= 0 && static_cast<size_t>(k) < args.size()) {
          hit = mayHave(args[k], d, mayHave);
        } else {
          hit = true; // a role this schema lacks (data of another table): as any role
        }
      }
    }
    if (hit)
      return cpuKernelGap(schema.key(), v, d, fmt::format("measured: \"{}\" not implemented for '{}'", gap.kernel, c10Name(d)));
  }
  return std::nullopt;
}

} // namespace

InferOutcome infer(const Registry &registry, const Schema &schema, std::span<const Value> args,
                   size_t fullProductCases, bool sizes) {
  const OpRule *rule = registry.find(schema);
  if (!rule) {
    InferOutcome out;
    out.status = InferOutcome::Status::NoRule;
    out.outputs = anyMayBeQuantized(args) ? unknownMaybeQuantized(registry.types(), schema) : unknownOutputs(schema);
    return out;
  }
  InferOutcome out = inferDTypes(registry, rule, schema, args, fullProductCases);
  if (sizes && out.status == InferOutcome::Status::Ok && rule->shape && args.size() == schema.args.size())
    applyShapeRule(registry, *rule, schema, args, out);
  if (sizes && out.status == InferOutcome::Status::Ok) keepSelfSizesInPlace(registry, schema, args, out);
  // Eager CPU kernels (the default context): a dtype the version's CPU kernel lacks may raise.
  if (out.status == InferOutcome::Status::Ok && !out.possibleError && registry.context().kernels == Kernels::Cpu)
    out.possibleError = measuredGap(registry, schema, args, out.outputs);
  return out;
}

} // namespace dtf

namespace dtf {

BindResult bindArguments(const Schema &schema, std::span<const Value> positional,
                         std::span<const std::pair<std::string, Value>> named) {
  BindResult out;
  const size_t n = schema.args.size();
  std::vector<std::optional<Value>> slots(n);
  if (positional.size() > n && !schema.varargs) {
    out.error = fmt::format("{}: takes {} arguments, {} given", schema.key(), n, positional.size());
    return out;
  }
  // Arguments past a varargs schema's named ones (`format(str, ...)`) bind to nothing.
  for (size_t i = 0; i < std::min(positional.size(), n); ++i) slots[i] = positional[i];
  for (const auto &[argName, v] : named) {
    int i = schema.argIndex(argName);
    if (i < 0) {
      std::string names;
      for (const SchemaArg &a : schema.args) names += (names.empty() ? "" : ", ") + a.name;
      out.error = fmt::format("{}: no argument named '{}' (arguments: {})", schema.key(), argName, names);
      return out;
    }
    if (slots[i]) {
      out.error = fmt::format("{}: argument '{}' given twice", schema.key(), argName);
      return out;
    }
    slots[i] = v;
  }
  for (size_t i = 0; i < n; ++i) {
    if (slots[i]) continue;
    const SchemaArg &a = schema.args[i];
    if (!a.defaultText) {
      out.error = fmt::format("{}: missing argument '{}' ({})", schema.key(), a.name, a.type->str());
      return out;
    }
    slots[i] = defaultValue(a);
  }
  for (auto &s : slots) out.args.push_back(std::move(*s));
  return out;
}

} // namespace dtf
