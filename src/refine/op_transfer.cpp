//===- refine/op_transfer.cpp - ops with a schema: resolve, then infer ----===//
//
// Every aten op (and every prim op with a real schema) is resolved to one
// overload from its argument values and run through the rule library. A
// tensor result without a rule is unknown, never a guess. Lists passed where
// the schema marks them mutated (`t[](a!)`) become unknown-length lists
// joined with what may be added to them.
//
//===----------------------------------------------------------------------===//
#include "ops/infer.h"
#include "refine/overload_match.h"
#include "refine/solver.h"

#include <fmt/format.h>

namespace dtf::refine {
namespace {

using K = SchemaType::Kind;

struct PendingDiag {
  Severity severity;
  std::string category, message;
};

/// The result of running one reading of a node's arguments.
struct Evaluation {
  const Schema *schema = nullptr;
  std::vector<Value> outputs;
  std::vector<UnknownReason> reasons;
  std::vector<PendingDiag> diags;
  bool resolved = false;
};

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

bool returnsTensor(const Schema &s) {
  for (const SchemaArg &r : s.returns)
    if (r.type->isTensorLike()) return true;
  return false;
}

std::optional<int64_t> normIndex(std::optional<int64_t> i, size_t size) {
  if (!i) return std::nullopt;
  int64_t k = *i < 0 ? *i + static_cast<int64_t>(size) : *i;
  if (k < 0 || k >= static_cast<int64_t>(size)) return std::nullopt;
  return k;
}

/// Ops on Python values (lists, ints) whose result the rule library does not
/// model; nullopt when `key` is not one of them.
std::optional<Value> foldPythonOp(const std::string &key, std::span<const Value> a) {
  auto ints = [&](auto f) -> Value {
    auto x = a[0].intValue(), y = a[1].intValue();
    if (x && y && a[0].numKind() == NumKind::Int && a[1].numKind() == NumKind::Int) return Value::integer(f(*x, *y));
    return Value::number(NumKind::Int);
  };
  if (key == "prim::min.int") return ints([](int64_t x, int64_t y) { return std::min(x, y); });
  if (key == "prim::max.int") return ints([](int64_t x, int64_t y) { return std::max(x, y); });
  if (key == "aten::add.int") return ints([](int64_t x, int64_t y) { return x + y; });
  if (key == "aten::sub.int") return ints([](int64_t x, int64_t y) { return x - y; });
  if (key == "aten::mul.int") return ints([](int64_t x, int64_t y) { return x * y; });
  if (key == "aten::len.t")
    return a[0].lengthKnown() ? Value::integer(static_cast<int64_t>(a[0].elements().size())) : Value::number(NumKind::Int);
  if (key == "aten::dim") {
    auto r = a[0].isTensor() ? a[0].rank().value() : std::nullopt;
    return r ? Value::integer(*r) : Value::number(NumKind::Int);
  }
  if (key == "aten::__getitem__.t") {
    auto i = normIndex(a[1].intValue(), a[0].elements().size());
    return i && a[0].lengthKnown() ? a[0].elements()[*i] : a[0].elementSummary();
  }
  return std::nullopt;
}

bool mutatesList(const std::vector<const Schema *> &schemas) {
  for (const Schema *s : schemas)
    for (const SchemaArg &a : s->args)
      if (a.type->mutated && a.type->kind == SchemaType::Kind::List) return true;
  return false;
}

Evaluation evaluate(std::span<const Schema *const> overloads, std::span<const Value> args,
                    std::span<const Value> matchArgs, size_t numOutputs) {
  Evaluation e;
  OverloadMatch m = matchOverload(overloads, matchArgs, numOutputs);
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
      Evaluation c = evaluate(one, args, matchArgs, numOutputs);
      if (!c.resolved) return c;
      if (!joined.resolved) { joined = std::move(c); continue; }
      for (size_t i = 0; i < numOutputs; ++i) {
        joined.outputs[i] = Value::join(joined.outputs[i], c.outputs[i]);
        if (c.reasons[i] != UnknownReason::None) joined.reasons[i] = c.reasons[i];
      }
      for (PendingDiag &d : c.diags) joined.diags.push_back(std::move(d));
    }
    joined.schema = nullptr; // no single schema: skip the mutated-list update below
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
  BindResult bound = bindArguments(s, args, {});
  if (!bound.ok()) {
    e.outputs.assign(numOutputs, Value::top());
    e.reasons.assign(numOutputs, UnknownReason::NoOverload);
    e.diags.push_back({Severity::Warning, "no-overload", fmt::format("{}: {}", s.key(), bound.error)});
    return e;
  }
  if (auto folded = foldPythonOp(s.key(), bound.args)) {
    e.outputs.assign(numOutputs, *folded);
    e.reasons.assign(numOutputs, UnknownReason::UnknownInput);
    return e;
  }
  InferOutcome out = infer(Registry::builtin(), s, bound.args);
  e.outputs = out.outputs;
  e.outputs.resize(numOutputs, Value::top());
  bool inputsConcrete = true;
  for (const Value &v : bound.args) inputsConcrete = inputsConcrete && concrete(v);
  UnknownReason why = inputsConcrete ? UnknownReason::RuleUnknown : UnknownReason::UnknownInput;
  switch (out.status) {
  case InferOutcome::Status::Ok: break;
  case InferOutcome::Status::Error:
    why = UnknownReason::AfterError;
    e.diags.push_back({Severity::Error, "dtype-error",
                       fmt::format("{}: PyTorch raises: {}", s.key(), out.error ? out.error->message : "error")});
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

/// What a mutating op may add to the list passed as argument `i`.
Value addedToList(const Schema &s, size_t i, std::span<const Value> args) {
  if ((s.name == "aten::append" || s.name == "aten::insert") && args.size() >= 2) return args.back();
  if (s.name == "aten::extend" && args.size() >= 2) return args[1].elementSummary();
  const SchemaType *inner = s.args[i].type->inner();
  return inner ? unknownOfType(*inner) : Value::top();
}

} // namespace

void Solver::transferOp(ir::NodeId n) {
  const ir::Node &node = g.nodes[n];
  const std::string &kind = g.kindOf(n);
  std::vector<const Schema *> overloads = SchemaTable::builtin().overloads(kind);
  if (overloads.empty()) {
    diag(Severity::Warning, n, "unknown-op", fmt::format("unknown op {}; its results are unknown", kind));
    for (ir::ValueId o : node.outputs) set(o, coarse(o), UnknownReason::UnknownOp);
    return;
  }
  std::vector<Value> args, matchArgs;
  bool hasWrapped = false;
  for (ir::ValueId v : node.inputs) {
    const Value &a = get(v);
    if (a.isBottom()) { // not reached in this state (e.g. only a raising branch defines it)
      for (ir::ValueId o : node.outputs) set(o, Value(), UnknownReason::Unreached);
      return;
    }
    args.push_back(a);
    matchArgs.push_back(a.isTop() ? coarse(v) : a);
    hasWrapped = hasWrapped || isWrappedScalarConstant(v);
  }
  Evaluation e = evaluate(overloads, args, matchArgs, node.outputs.size());
  if (hasWrapped) {
    // A 0-dim constant used directly by an op is how the tracer records a
    // Python scalar (wrapped number): read it as a number too.
    std::vector<Value> wargs = args;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      if (!isWrappedScalarConstant(node.inputs[i])) continue;
      const ir::Attribute *lit = g.attr(g.values[node.inputs[i]].def, "value");
      DType d = *args[i].dtype();
      Value num = lit->literal;
      if (d == DType::Bool) num = Value::boolean(lit->literal.intValue().value_or(1) != 0);
      else if (d == DType::Float64 && lit->literal.floatValue()) num = Value::floating(*lit->literal.floatValue());
      else if (d == DType::Int64 && lit->literal.intValue()) num = Value::integer(*lit->literal.intValue());
      else if (d == DType::Complex128) num = Value::number(NumKind::Complex);
      wargs[i] = num;
    }
    Evaluation w = evaluate(overloads, wargs, wargs, node.outputs.size());
    if (w.resolved && !(w.outputs == e.outputs)) {
      if (opts.tensorConstants == TensorConstantPolicy::Traced) {
        e = std::move(w);
      } else {
        for (size_t i = 0; i < e.outputs.size(); ++i) e.outputs[i] = Value::join(e.outputs[i], w.outputs[i]);
        e.diags.push_back({Severity::Warning, "tensor-constant",
                           "a 0-dim tensor constant read as a Python scalar and as a tensor gives different "
                           "results; results joined"});
      }
    }
  }
  for (PendingDiag &d : e.diags) diag(d.severity, n, d.category, std::move(d.message));
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    ir::ValueId o = node.outputs[i];
    Value v = e.outputs[i];
    if (v.isTop()) v = coarse(o);
    set(o, std::move(v), e.reasons[i]);
  }
  if (!e.schema) return;
  // Mutated list arguments: their state after this node includes what was added.
  for (size_t i = 0; i < e.schema->args.size() && i < node.inputs.size(); ++i) {
    const SchemaType &t = *e.schema->args[i].type;
    if (!t.mutated || t.kind != K::List) continue;
    Value grown = Value::listOf(Value::join(args[i].elementSummary(), addedToList(*e.schema, i, args)));
    joinInto(node.inputs[i], grown);
    for (size_t r = 0; r < e.schema->returns.size() && r < node.outputs.size(); ++r)
      if (e.schema->returns[r].type->mutated) set(node.outputs[r], get(node.inputs[i]));
  }
}

} // namespace dtf::refine
