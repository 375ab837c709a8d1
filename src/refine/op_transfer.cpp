//===- refine/op_transfer.cpp - ops with a schema: resolve, then infer ----===//
//
// Every aten op (and every prim op with a real schema) is resolved to one
// overload from its argument values and run through the rule library. A
// tensor result without a rule is unknown, never a guess. Lists passed where
// the schema marks them mutated (`t[](a!)`) become unknown-length lists
// joined with what may be added to them.
//
//===----------------------------------------------------------------------===//
#include "dtype/promotion.h"
#include "ops/autocast.h"
#include "ops/infer.h"
#include "refine/overload_match.h"
#include "refine/eval_memo.h"
#include "refine/solver.h"

#include <fmt/format.h>

#include <string_view>


namespace dtf::refine {
namespace {

using K = SchemaType::Kind;

bool concrete(const Value &v) {
  if (v.isTensor()) return fullyKnown(v);
  if (v.isNumber()) return v.numKind().has_value();
  if (v.isList() || v.isTuple()) {
    if (!v.lengthKnown()) return false;
    for (const Value &e : v.elements())
      if (!concrete(e)) return false;
  }
  return !v.isTop();
}

/// A rule's error without the op name it may start with (`aten::mm: ...`):
/// the diagnostic names the op once.
std::string errorText(const Schema &s, const InferOutcome &out) {
  std::string_view m = out.error ? std::string_view(out.error->message) : std::string_view("error");
  const std::string key = s.key();
  for (std::string_view prefix : {std::string_view(key), std::string_view(s.name)})
    if (m.starts_with(prefix) && m.substr(prefix.size()).starts_with(": ")) {
      m.remove_prefix(prefix.size() + 2);
      break;
    }
  return std::string(m);
}

bool returnsTensor(const Schema &s) {
  for (const SchemaArg &r : s.returns)
    if (r.type->isTensorLike()) return true;
  return false;
}

/// Ops on Python values the rule library has no rule for (string equality,
/// `is None`); nullopt for every other op. Arithmetic, len, dim and list
/// indexing go through their registered rules, which check int64 overflow
/// and raise "list index out of range" as TorchScript does.
std::optional<Value> foldPythonOp(const Schema &s, std::span<const Value> a) {
  // Cheap filter first (string_view: sizes compare before bytes): every op
  // below is `.str` or an identity test (no overload name).
  using namespace std::string_view_literals;
  const std::string_view name = s.name, overload = s.overload;
  if (overload == "str"sv) {
    // `p == "fro"` (torch.norm's scripted body): branches on string arguments fold.
    if (name != "aten::eq"sv && name != "aten::ne"sv) return std::nullopt;
    auto x = a[0].isString() ? a[0].text() : std::nullopt, y = a[1].isString() ? a[1].text() : std::nullopt;
    if (x && y) return Value::boolean((*x == *y) == (name == "aten::eq"sv));
    return Value::number(NumKind::Bool);
  }
  if (!overload.empty()) return std::nullopt;
  const bool is = name == "aten::__is__"sv, isNot = name == "aten::__isnot__"sv;
  if (is || isNot) {
    // `w is None` (Optional arguments): known when each side is None or surely not None.
    auto none = [](const Value &v) -> std::optional<bool> {
      if (v.isNone()) return true;
      if (v.isTop() || v.isBottom()) return std::nullopt;
      return false;
    };
    auto l = none(a[0]), r = none(a[1]);
    if (l && r && (*l || *r)) return Value::boolean((*l == *r) == is); // only None-ness is decided
    return Value::number(NumKind::Bool);
  }
  return std::nullopt;
}

bool mutatesList(const std::vector<const Schema *> &schemas) {
  for (const Schema *s : schemas)
    for (const SchemaArg &a : s->args)
      if (a.type->mutated && a.type->kind == SchemaType::Kind::List) return true;
  return false;
}

/// An autocast kernel that raises or whose casts are not known decides the
/// results before the rule runs: nullopt when the rule runs.
std::optional<Evaluation> autocastOutcome(const AutocastArgs &cast, const Schema &s, const AutocastContext &ctx,
                                          size_t numOutputs) {
  if (cast.status != AutocastArgs::Status::Raises && cast.status != AutocastArgs::Status::Unknown) return std::nullopt;
  Evaluation e;
  e.outputs.assign(numOutputs, Value::top());
  const bool raises = cast.status == AutocastArgs::Status::Raises;
  e.reasons.assign(numOutputs, raises ? UnknownReason::AfterError : UnknownReason::RuleUnknown);
  if (raises)
    e.diags.push_back({Severity::Error, "dtype-error",
                       fmt::format("{}: PyTorch raises under {}: {}", s.key(), ctx.str(), cast.message)});
  else
    e.diags.push_back({Severity::Warning, "autocast-unknown",
                       fmt::format("{}: under {}: {}; results unknown", s.key(), ctx.str(), cast.message)});
  return e;
}

/// `resolved`: the overload matching already chose (OpSignature::whenTensors), or null.
/// `pinned`: `overloads` is the one overload the node names (GraphPlan::pinned).
/// `autocast`: the context the program runs in (Options::autocast), or null.
/// `sizes`: run shape rules too (Options::sizes).
Evaluation evaluate(const Registry &registry, std::span<const Schema *const> overloads, std::span<const Value> args,
                    std::span<const Value> matchArgs, size_t numOutputs, const Schema *resolved = nullptr,
                    bool pinned = false, const AutocastIn *autocast = nullptr, bool sizes = true) {
  // torch.export calls its overload with Python numbers for tensors where the
  // Python binding allows them (`aten::mul.Tensor(%x, 2)`): wrapped numbers.
  std::vector<Value> wrappedArgs, wrappedMatchArgs;
  if (pinned && overloads.size() == 1) {
    wrappedArgs = numbersWrappedForTensors(*overloads[0], args);
    if (!wrappedArgs.empty()) {
      args = wrappedArgs;
      wrappedMatchArgs = numbersWrappedForTensors(*overloads[0], matchArgs);
      if (!wrappedMatchArgs.empty()) matchArgs = wrappedMatchArgs;
    }
  }
  Evaluation e;
  OverloadMatch m;
  if (resolved) {
    m.status = OverloadMatch::Status::Ok;
    m.schema = resolved;
  } else {
    m = matchOverload(overloads, matchArgs, numOutputs);
  }
  UnknownReason failed = UnknownReason::None;
  if (m.status == OverloadMatch::Status::NoMatch) {
    failed = UnknownReason::NoOverload;
    e.diags.push_back({Severity::Warning, "no-overload",
                       fmt::format("no overload matches the argument types (considered {})", m.candidates)});
  } else if (m.status == OverloadMatch::Status::Ambiguous && m.tied.size() <= 4 && !mutatesList(m.tied)) {
    // The node runs one of the tied overloads (e.g. index.Tensor and its
    // hacked twin): the join of their answers is sound, and exact when they agree.
    Evaluation joined;
    for (const Schema *s : m.tied) {
      const Schema *one[] = {s};
      Evaluation c = evaluate(registry, one, args, matchArgs, numOutputs, nullptr, false, autocast, sizes);
      if (!c.resolved) return c;
      if (!joined.resolved) { joined = std::move(c); continue; }
      joined.unbacked = joined.unbacked || c.unbacked;
      for (size_t i = 0; i < numOutputs; ++i) {
        joined.outputs[i] = Value::join(joined.outputs[i], c.outputs[i]);
        if (c.reasons[i] != UnknownReason::None) joined.reasons[i] = c.reasons[i];
      }
      for (PendingDiag &d : c.diags) joined.diags.push_back(std::move(d));
    }
    // joined.schema: the first tied overload (no tied one mutates a list; in-place ties, as index_put_ and
    // its hacked twin, mutate the same argument)
    return joined;
  } else if (m.status == OverloadMatch::Status::Ambiguous) {
    failed = UnknownReason::AmbiguousOverload;
    e.diags.push_back({Severity::Warning, "ambiguous-overload",
                       fmt::format("several overloads match equally well: {}", m.candidates)});
  }
  if (failed != UnknownReason::None) {
    e.outputs.assign(numOutputs, Value::top());
    e.reasons.assign(numOutputs, failed);
    return e;
  }
  e.resolved = true;
  e.schema = m.schema;
  const Schema &s = *m.schema;
  // Graph nodes pass every argument (no copy then); defaults fill the rest.
  std::span<const Value> boundArgs = args;
  BindResult bound;
  if (args.size() != s.args.size()) {
    bound = bindArguments(s, args, {});
    if (!bound.ok()) {
      e.outputs.assign(numOutputs, Value::top());
      e.reasons.assign(numOutputs, UnknownReason::NoOverload);
      e.diags.push_back({Severity::Warning, "no-overload", fmt::format("{}: {}", s.key(), bound.error)});
      return e;
    }
    boundArgs = bound.args;
  }
  if (auto folded = foldPythonOp(s, boundArgs)) {
    e.outputs.assign(numOutputs, *folded);
    e.reasons.assign(numOutputs, UnknownReason::UnknownInput);
    return e;
  }
  // Autocast: the Autocast kernel casts the arguments before the op runs (ops/autocast.h).
  AutocastArgs cast;
  if (autocast) {
    cast = applyAutocast(autocast->ctx, autocast->torch, s, boundArgs);
    if (auto early = autocastOutcome(cast, s, autocast->ctx, numOutputs)) {
      e.outputs = std::move(early->outputs);
      e.reasons = std::move(early->reasons);
      for (PendingDiag &d : early->diags) e.diags.push_back(std::move(d));
      return e;
    }
    if (cast.status == AutocastArgs::Status::Cast) boundArgs = cast.args;
  }
  InferOutcome out = infer(registry, s, boundArgs, kMaxEnumeratedCases, sizes);
  e.outputs = std::move(out.outputs);
  e.outputs.resize(numOutputs, Value::top());
  e.unbacked = out.unbacked;
  UnknownReason why = UnknownReason::UnknownInput;
  switch (out.status) {
  case InferOutcome::Status::Ok: {
    // Only an output left unknown needs the reason: the rule's own, or an unknown input's.
    bool allKnown = true;
    for (const Value &v : e.outputs) allKnown = allKnown && fullyKnown(v); // not a tensor: the reason may matter
    bool inputsConcrete = !allKnown;
    for (size_t i = 0; i < boundArgs.size() && inputsConcrete; ++i) inputsConcrete = concrete(boundArgs[i]);
    if (inputsConcrete) why = UnknownReason::RuleUnknown;
    break;
  }
  case InferOutcome::Status::Error:
    why = UnknownReason::AfterError;
    e.diags.push_back({Severity::Error, "dtype-error", fmt::format("{}: PyTorch raises: {}", s.key(), errorText(s, out))});
    break;
  case InferOutcome::Status::NoRule:
    why = UnknownReason::NoRule;
    if (returnsTensor(s))
      e.diags.push_back({Severity::Warning, "no-rule", fmt::format("no rule for {}; results unknown", s.key())});
    break;
  case InferOutcome::Status::TooManyUnknowns:
    why = UnknownReason::TooManyUnknowns;
    e.diags.push_back({Severity::Warning, "too-many-unknowns",
                       fmt::format("{}: too many unknown arguments to enumerate; results unknown", s.key())});
    break;
  }
  if (out.status == InferOutcome::Status::Ok && out.possibleError)
    e.diags.push_back({Severity::Warning, "possible-dtype-error",
                       fmt::format("{}: PyTorch may raise: {}", s.key(), out.possibleError->message)});
  e.reasons.assign(numOutputs, why);
  return e;
}

/// The Python scalar a 0-dim tensor literal of dtype `d` stands for (a
/// traced wrapped number, or what TorchScript's CanonicalizeOps makes of a
/// constant): a bool, int, float or complex of the literal's value; the kind
/// alone when the value is not known.
Value scalarOfLiteral(const Value &literal, DType d) {
  if (d == DType::Bool) return Value::boolean(literal.intValue().value_or(1) != 0);
  if (isComplex(d)) return Value::number(NumKind::Complex);
  if (isFloating(d))
    return literal.floatValue() ? Value::floating(*literal.floatValue()) : Value::number(NumKind::Float);
  return literal.intValue() ? Value::integer(*literal.intValue()) : Value::number(NumKind::Int);
}

/// What a mutating op may add to the list passed as argument `i`.
Value addedToList(const Registry &registry, const Schema &s, size_t i, std::span<const Value> args) {
  if (const OpFacts facts = registry.facts(s.name); facts.has(OpFact::GrowsListByElements) && args.size() >= 2)
    return facts.has(OpFact::GrowsListByListElements) ? args[1].elementSummary() : args.back();
  const SchemaType *inner = s.args[i].type->inner();
  return inner ? unknownOfType(*inner) : Value::top();
}

/// Is node `n` in a loop body (at any depth)?
bool inLoopBody(const ir::Graph &g, ir::NodeId n) {
  for (ir::BlockId b = g.nodes[n].parent;;) {
    const ir::NodeId owner = g.blocks[b].owner;
    if (owner == ir::kNoId) return false;
    if (g.kindOf(owner) == "prim::Loop") return true;
    b = g.nodes[owner].parent;
  }
}

} // namespace

std::vector<Value> numbersWrappedForTensors(const Schema &s, std::span<const Value> args) {
  std::vector<Value> out;
  for (size_t i = 0; i < args.size() && i < s.args.size(); ++i) {
    const SchemaType *t = s.args[i].type.get();
    if (t->kind == K::Optional && t->inner()) t = t->inner();
    if (t->kind != K::Tensor || !args[i].isNumber()) continue;
    if (out.empty()) out.assign(args.begin(), args.end());
    DTypeSet stored;
    for (NumKind k : args[i].numKinds()) stored.insert(storedNumberDType(k));
    out[i] = Value::tensor(stored, Rank::exact(0)).asWrappedNumber();
  }
  return out;
}

Solver::~Solver() = default;

Value Solver::namedUnbacked(ir::NodeId n, const Value &v) {
  // In a loop body one node's count differs between iterations, and a
  // loop-carried value would hold two iterations' counts under one name; a
  // forked section's names would not be this graph's: unknown there.
  const bool fresh = opts.unbackedSymbols && opts.forkDepth == 0 && !inLoopBody(g, n);
  if (fresh && !nextUnbacked_) {
    std::vector<Value> inputs; // the program's own symbols: inputs as given, written types
    for (ir::ValueId p : g.body().params) inputs.push_back(get(p));
    std::vector<std::string> seen = symbolsIn(inputs);
    seen.insert(seen.end(), opts.reservedSymbols.begin(), opts.reservedSymbols.end());
    for (const ir::ValueInfo &info : g.values) appendSymbols(info.type->dims, seen);
    nextUnbacked_ = firstFreeUnbacked(seen);
  }
  return nameUnbacked(v, [&](unsigned k, SymRange range) -> std::optional<SymExpr> {
    if (!fresh) return std::nullopt;
    auto [it, added] = unbackedIndex_.try_emplace({n, k}, *nextUnbacked_);
    if (added) ++*nextUnbacked_;
    return SymExpr::symbol(unbackedName(it->second), range);
  });
}

const Evaluation &Solver::evaluateCached(ir::KindId k, std::span<const Value> args, std::span<const Value> matchArgs,
                                         bool matchIsArgs, size_t numOutputs, std::optional<size_t> hash,
                                         const Schema *resolved) {
  EvalMemo &c = *memo_;
  std::span<const Value> vals = args;
  if (!matchIsArgs) {
    // Match arguments differ from the arguments only where those are top.
    c.scratch.assign(args.begin(), args.end());
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].isTop()) c.scratch.push_back(matchArgs[i]);
    vals = c.scratch;
  }
  OpsId ops = overloadsOf(k).data();
  auto nout = static_cast<uint32_t>(numOutputs);
  size_t h = hash ? *hash : EvalMemo::hashOf(ops, nout, matchIsArgs, vals);
  if (!hash)
    if (const Evaluation *e = c.find(h, ops, nout, matchIsArgs, vals)) return *e;
  Evaluation e = evaluate(plan_->registry(), overloadsOf(k), args, matchArgs, numOutputs, resolved, plan_->pinned[k],
                          autocastIn(), opts.sizes);
  return c.insert(h, ops, nout, matchIsArgs, std::vector<Value>(vals.begin(), vals.end()), std::move(e));
}

const Evaluation &Solver::scalarizedOther(ir::NodeId n, const Evaluation &asTensor, std::span<const Value> args) {
  // CanonicalizeOps matches the resolved Tensor overload only (not div.Tensor_mode, not add.Scalar).
  if (!asTensor.resolved || !asTensor.schema || asTensor.schema->overload != "Tensor") return asTensor;
  const ir::Node &node = g.nodes[n];
  const Value &c = args[1];
  if (c.isTensor() && c.rank().isExact() && c.rank() != Rank::exact(0)) return asTensor; // `{3}` typed Float(1)
  const std::optional<DType> d = c.isTensor() && c.rank() == Rank::exact(0) ? c.dtype() : std::nullopt;
  auto unknown = [&](std::string why) -> const Evaluation & {
    Evaluation &u = joinedEval_;
    u = asTensor;
    for (size_t i = 0; i < u.outputs.size(); ++i) {
      u.outputs[i] = coarse(node.outputs[i]);
      u.reasons[i] = UnknownReason::RuleUnknown;
    }
    u.diags.push_back({Severity::Warning, "tensor-constant", std::move(why)});
    return u;
  };
  if (!d) return unknown("a tensor constant of unknown dtype or rank as `other`: TorchScript replaces it by a "
                         "Python scalar when it is 0-dim; results unknown");
  if (*d == DType::Bool)
    return unknown("TorchScript's CanonicalizeOps replaces this 0-dim bool constant by a bool, which no overload "
                   "takes: running the module raises; results unknown");
  const ir::Attribute *lit = g.attr(g.values[node.inputs[1]].def, "value");
  std::vector<Value> &wargs = wargs_;
  wargs.assign(args.begin(), args.end());
  wargs[1] = scalarOfLiteral(lit->literal, *d);
  return evaluateCached(node.kind, wargs, wargs, true, node.outputs.size());
}

const Evaluation *Solver::siteEvaluation(ir::NodeId n, const OpSite &site, bool &unreached) {
  // Key: the signature (op, output count, constant arguments) and the varying arguments' values.
  const ir::Node &node = g.nodes[n];
  const OpSignature &sig = *site.signature;
  std::vector<const Value *> &ptrs = argPtrs_;
  ptrs.clear();
  lastSiteMissed_ = false;
  size_t hash = EvalMemo::headHash(&sig, sig.numOutputs, true);
  bool allTensors = true;
  for (uint32_t i : site.varying) {
    const Value &a = get(node.inputs[i]);
    if (a.isBottom()) { unreached = true; return nullptr; }
    if (a.isTop()) return nullptr; // the general path matches it by its written type
    allTensors = allTensors && a.isTensor();
    ptrs.push_back(&a);
    EvalMemo::mix(hash, a.hash());
  }
  if (const Evaluation *e = memo_->find(hash, &sig, sig.numOutputs, ptrs)) return e;
  std::vector<Value> key;
  key.reserve(ptrs.size());
  for (const Value *p : ptrs) key.push_back(*p);
  args_.clear();
  for (ir::ValueId v : node.inputs) args_.push_back(get(v));
  lastSiteMissed_ = true;
  const Schema *resolved = allTensors ? sig.whenTensors : nullptr;
  if (!opts.memo) // this call's own memo: the plan outlives it, and no other graph shares it
    return &memo_->insert(hash, &sig, sig.numOutputs, true, std::move(key),
                          evaluate(plan_->registry(), overloadsOf(node.kind), args_, args_, node.outputs.size(),
                                   resolved, plan_->pinned[node.kind], autocastIn(), opts.sizes));
  // A shared memo: the evaluation under its full key too (found by the general
  // path and by other graphs' calls), and the signature key keeps its signature alive.
  const Evaluation &e = evaluateCached(node.kind, args_, args_, true, node.outputs.size(), std::nullopt, resolved);
  memo_->insertAlias(hash, site.signature, std::move(key), e);
  return &e;
}

void Solver::transferOp(ir::NodeId n) {
  const ir::Node &node = g.nodes[n];
  const ir::KindId kind = node.kind;
  if (overloadsOf(kind).empty()) {
    diag(Severity::Warning, n, "unknown-op", fmt::format("unknown op {}; its results are unknown", g.kindName(kind)));
    for (ir::ValueId o : node.outputs) set(o, coarse(o), UnknownReason::UnknownOp);
    return;
  }
  // Start the memo over between nodes only: evaluations handed out stay valid within one.
  memo_->startOverIfFull();
  // The arguments as values (copied from the state) when the memo misses or they are needed.
  std::vector<Value> &args = args_, &matchArgs = matchArgs_;
  bool haveArgs = false;
  auto materialize = [&] {
    if (haveArgs) return;
    args.clear();
    for (ir::ValueId v : node.inputs) args.push_back(get(v));
    haveArgs = true;
  };
  const Evaluation *e = nullptr;
  bool unreached = false, hasWrapped = false, anyTop = false;
  if (const OpSite *site = plan_->siteOf(n)) {
    e = siteEvaluation(n, *site, unreached);
    haveArgs = e && lastSiteMissed_; // a miss copied them already
  }
  if (!e && !unreached) { // the general path: every argument in the key
    const OpsId ops = overloadsOf(kind).data();
    const auto nout = static_cast<uint32_t>(node.outputs.size());
    std::vector<const Value *> &ptrs = argPtrs_;
    ptrs.clear();
    size_t hash = EvalMemo::headHash(ops, nout, true); // the memo key's hash, while gathering
    const bool wraps = plan_->takesWrappedNumbers[kind];
    const bool traced = opts.tensorConstants != TensorConstantPolicy::Runtime;
    for (ir::ValueId v : node.inputs) {
      const Value &a = get(v);
      if (a.isBottom()) { unreached = true; break; }
      ptrs.push_back(&a);
      EvalMemo::mix(hash, a.hash());
      anyTop = anyTop || a.isTop();
      hasWrapped = hasWrapped || (wraps && plan_->scalarTensorLiteral[v] && traced && isWrappedScalarConstant(v)); // cheap bits first
    }
    if (!unreached && !anyTop) e = memo_->find(hash, ops, nout, ptrs);
    if (!unreached && !e) {
      materialize();
      matchArgs.clear();
      if (anyTop)
        for (size_t i = 0; i < args.size(); ++i) matchArgs.push_back(args[i].isTop() ? coarse(node.inputs[i]) : args[i]);
      // Without top arguments the lookup above already missed: evaluate and keep under its hash.
      e = &evaluateCached(kind, args, anyTop ? matchArgs : args, !anyTop, nout,
                          anyTop ? std::nullopt : std::optional<size_t>(hash));
    }
  }
  if (unreached) { // an argument not reached in this state (e.g. only a raising branch defines it)
    for (ir::ValueId o : node.outputs) set(o, Value(), UnknownReason::Unreached);
    return;
  }
  if (opts.tensorConstants == TensorConstantPolicy::Runtime && plan_->scalarizesOther[kind] &&
      node.inputs.size() > 1 && plan_->scalarTensorLiteral[node.inputs[1]]) {
    materialize();
    e = &scalarizedOther(n, *e, args);
  }
  if (hasWrapped) {
    materialize();
    // A 0-dim constant used directly by an op is how the tracer records a
    // Python scalar (wrapped number): read it as a number too.
    std::vector<Value> &wargs = wargs_;
    wargs.assign(args.begin(), args.end());
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      if (!isWrappedScalarConstant(node.inputs[i])) continue;
      const ir::Attribute *lit = g.attr(g.values[node.inputs[i]].def, "value");
      DType d = *args[i].dtype();
      wargs[i] = scalarOfLiteral(lit->literal, d);
    }
    const Evaluation *wp = &evaluateCached(kind, wargs, wargs, true, node.outputs.size());
    if (!wp->resolved || !returnsTensor(*wp->schema) || wp->outputs == e->outputs) {
      // No overload takes a number there (`torch.add(2.5, x)`, `2.5 // x`
      // trace to add(%c, %x), floor_divide(%c, %x)), or only a Python-number
      // one (mul.float: every operand such a constant), which is not what a
      // traced tensor op ran: read the constant as the wrapped number tensor
      // the eager call made of the scalar.
      wargs.assign(args.begin(), args.end());
      for (size_t i = 0; i < node.inputs.size(); ++i)
        if (isWrappedScalarConstant(node.inputs[i])) wargs[i] = args[i].asWrappedNumber();
      wp = &evaluateCached(kind, wargs, wargs, true, node.outputs.size());
    }
    const Evaluation &w = *wp;
    bool shared = false; // used by several nodes: a tensor, or Python scalars the tracer pooled (per submodule method)
    for (ir::ValueId v : node.inputs)
      shared = shared || (plan_->scalarTensorLiteral[v] == GraphPlan::kSharedLiteral && isWrappedScalarConstant(v));
    // As the first operand a Python scalar needs the `torch.add(2.5, x)`
    // form, and a 0-dim tensor constant (a module attribute, a folded
    // prim::NumToTensor(5.0)) is as likely: the text is the same.
    const bool first = !plan_->scalarFirstBySyntax[kind] && isWrappedScalarConstant(node.inputs[0]);
    if (w.resolved && !(w.outputs == e->outputs)) {
      if (opts.tensorConstants == TensorConstantPolicy::Traced && !shared && !first) {
        e = &w;
      } else {
        Evaluation &joined = joinedEval_; // Strict policy, a shared or first-operand constant: both readings joined
        joined = *e;
        for (size_t i = 0; i < joined.outputs.size(); ++i)
          joined.outputs[i] = Value::join(joined.outputs[i], w.outputs[i]);
        joined.diags.push_back(
            {Severity::Warning, "tensor-constant",
             shared ? "a 0-dim tensor constant used by several nodes (a tensor, as the tracer records one, or "
                      "Python scalars merged by constant pooling) gives different results read as a tensor and "
                      "as a Python scalar; results joined"
             : first && opts.tensorConstants == TensorConstantPolicy::Traced
                 ? "a 0-dim tensor constant as the first operand (a Python scalar only as in torch.add(2.5, x); "
                   "otherwise a tensor, such as a module attribute or a folded prim::NumToTensor(5.0)) gives "
                   "different results read as a tensor and as a Python scalar; results joined"
                 : "a 0-dim tensor constant read as a Python scalar and as a tensor gives "
                   "different results; results joined"});
        e = &joined;
      }
    }
  }
  for (const PendingDiag &d : e->diags) diag(d.severity, n, d.category, d.message);
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    ir::ValueId o = node.outputs[i];
    const Value &v = e->outputs[i];
    if (v.isTop()) set(o, coarse(o), e->reasons[i]);
    else if (e->unbacked) set(o, namedUnbacked(n, v), e->reasons[i]);
    else set(o, v, e->reasons[i]);
  }
  // In-place tensor ops: a later reader of the mutated input sees the result
  // too (rank/sizes may have changed); joined, so sound under If and Loop.
  for (auto [arg, ret] : e->schema ? std::span(e->schema->inPlace) : std::span<const std::pair<uint32_t, uint32_t>>()) {
    if (arg >= node.inputs.size() || ret >= node.outputs.size()) continue;
    ir::ValueId in = node.inputs[arg];
    const Value &now = get(node.outputs[ret]);
    if (!now.isTensor() || !get(in).isTensor() || now.identical(get(in))) continue; // (relu_: nearly always)
    if (mayReshapeInPlace(plan_->registry(), *e->schema, arg)) widenTensorAliases(in, n, now);
    Value j = Value::join(get(in), now);
    if (j == get(in) || !usedAfter(in, n)) continue;
    out_.values[in] = std::move(j);
    if (!fullyKnown(out_.values[in])) out_.reasons[in] = UnknownReason::BranchJoin;
    mutated_.push_back(in);
  }
  if (!e->schema || !e->schema->mutatesList) return;
  // Mutated list arguments: their state after this node includes what was added.
  const Schema &schema = *e->schema;
  for (size_t i = 0; i < schema.args.size() && i < node.inputs.size(); ++i) {
    const SchemaType &t = *schema.args[i].type;
    if (!t.mutated || t.kind != K::List) continue;
    materialize(); // copies taken before any list grows (the state was not changed by this node yet)
    Value grown = Value::listOf(Value::join(args[i].elementSummary(), addedToList(plan_->registry(), schema, i, args)));
    joinInto(node.inputs[i], grown);
    for (size_t r = 0; r < schema.returns.size() && r < node.outputs.size(); ++r)
      if (schema.returns[r].type->mutated) set(node.outputs[r], get(node.inputs[i]));
  }
}

} // namespace dtf::refine
