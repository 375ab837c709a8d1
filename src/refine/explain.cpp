#include "refine/explain.h"

#include "dtype/dtype_system.h"
#include "graph/type_expr.h"
#include "ops/semantics.h"
#include "refine/graph_plan.h"
#include "refine/overload_match.h"

#include <fmt/format.h>

#include <optional>

#include <unordered_set>

namespace dtf::refine {

std::string_view name(Tier t) {
  switch (t) {
  case Tier::Dim: return "dim tensor";
  case Tier::ZeroDim: return "0-dim tensor";
  case Tier::Wrapped: return "Python number";
  }
  return "?";
}

std::string_view name(Category c) {
  switch (c) {
  case Category::Bool: return "bool";
  case Category::Integral: return "integral";
  case Category::Floating: return "floating";
  case Category::Complex: return "complex";
  case Category::Other: return "other";
  }
  return "?";
}

std::string stateText(const Value &v) {
  if (v.isBottom()) return "never computed (unreached)";
  if (!v.isTensor()) return v.isTop() ? "unknown" : v.str();
  // A known dtype in the operand notation, as check and infer-op print
  // types (`float32:r4`); what is unknown in words.
  std::string rank = v.rank().value() ? fmt::format("rank {}", *v.rank().value())
                     : v.rank() == Rank::atLeast1() ? "rank 1 or more"
                                                    : "rank unknown";
  if (!v.dtype()) return "unknown dtype, " + rank;
  if (v.rank().value()) return fmt::format("{}:r{}", name(*v.dtype()), *v.rank().value());
  return fmt::format("{} ({})", name(*v.dtype()), rank);
}

const Schema *overloadRun(const ir::Graph &g, const Result &r, ir::NodeId n, std::span<const Schema *const> overloads) {
  if (overloads.empty()) return nullptr;
  std::vector<Value> args;
  for (ir::ValueId in : g.nodes[n].inputs)
    args.push_back(r.values[in].isTop() ? ir::valueOfType(*g.values[in].type, false) : r.values[in]);
  OverloadMatch m = matchOverload(overloads, args, g.nodes[n].outputs.size());
  if (m.status == OverloadMatch::Status::Ambiguous && !m.tied.empty()) return m.tied[0];
  return m.status == OverloadMatch::Status::Ok ? m.schema : nullptr;
}

bool isPromotionOperand(const SchemaArg &a) {
  const SchemaType *t = a.type.get();
  if (t->kind == SchemaType::Kind::Optional && t->inner()) t = t->inner();
  if (t->kind == SchemaType::Kind::Tensor) return true;
  if (t->kind == SchemaType::Kind::List && t->inner() && t->inner()->kind == SchemaType::Kind::Tensor) return true;
  const std::string &n = a.name;
  return t->kind == SchemaType::Kind::Number && (n == "self" || n == "other" || n == "exponent" || n == "input" ||
                                                 n == "end" || n == "weight" || n == "scalar");
}

namespace {

/// Known enough to be no cause: a fully known tensor, a number of known
/// kind, a list or tuple of such; None, strings, devices.
bool knownArg(const Value &v) {
  if (v.isBottom() || v.isTop()) return false;
  if (v.isTensor()) return fullyKnown(v);
  if (v.isNumber()) return v.numKind().has_value();
  if (v.isList() || v.isTuple()) {
    if (!v.lengthKnown()) return false;
    for (const Value &e : v.elements())
      if (!knownArg(e)) return false;
  }
  return true;
}

class Explainer {
public:
  Explainer(const ir::Graph &g, const Result &r, const Options &opts)
      : g(g), r(r), opts(opts), sem(semanticsOf(opts)), plan(g, sem, /*fixedValues=*/false) {}

  Explanation run(ir::ValueId v) {
    Explanation e;
    e.value = v;
    const Value &s = r.values[v];
    e.known = s.isTensor() ? fullyKnown(s) : !s.isTop() && !s.isBottom();
    if (e.known) {
      e.chain.push_back(knownStep(v, e));
      return e;
    }
    std::unordered_set<ir::ValueId> seen;
    for (ir::ValueId cur = v; cur != ir::kNoId && e.chain.size() < 10'000;) {
      if (!seen.insert(cur).second) { // a loop-carried cycle: every value on it waits on the others
        e.chain.back().firstCause = true;
        break;
      }
      ir::ValueId next = ir::kNoId;
      e.chain.push_back(unknownStep(cur, next));
      if (e.chain.back().firstCause) break;
      cur = next;
    }
    if (!e.chain.empty()) e.chain.back().firstCause = true;
    return e;
  }

private:
  std::string ref(ir::ValueId v) const { return "%" + g.values[v].name; }
  std::string state(ir::ValueId v) const { return stateText(r.values[v]); }
  KindClass classOf(ir::NodeId n) const { return plan.kindClass[g.nodes[n].kind]; }

  /// The diagnostic message the pass gave node `n` in `category`, if any.
  std::string diagnosticOf(ir::NodeId n, std::string_view category) const {
    for (const Diagnostic &d : r.diagnostics)
      if (d.node == n && (category.empty() || d.category == category)) return d.message;
    return {};
  }

  /// The overload an op node ran with its refined arguments (null: none matched).
  const Schema *overloadOf(ir::NodeId n) const { return overloadRun(g, r, n, plan.overloads[g.nodes[n].kind]); }

  ExplainStep step(ir::ValueId v, std::string cause, std::string text, bool first = false) const {
    return {v, g.values[v].def, std::move(cause), std::move(text), first};
  }

  /// A 0-dim tensor constant the pass reads as the Python scalar the tracer
  /// recorded (TensorConstantPolicy::Traced, a single use by add/sub/mul/div ...).
  bool tracedScalar(ir::ValueId v, ir::KindId kind) const {
    return opts.tensorConstants == TensorConstantPolicy::Traced && plan.scalarTensorLiteral[v] == 1 &&
           plan.takesWrappedNumbers[kind];
  }

  std::optional<PromotionInfo> promotionOf(ir::NodeId n, const Schema &s) const {
    PromotionInfo p;
    const ir::Node &node = g.nodes[n];
    for (size_t i = 0; i < s.args.size() && i < node.inputs.size(); ++i) {
      const SchemaType *t = s.args[i].type.get();
      if (t->kind == SchemaType::Kind::Optional && t->inner()) t = t->inner();
      if (!isPromotionOperand(s.args[i]) || t->kind == SchemaType::Kind::List) continue;
      const Value &a = r.values[node.inputs[i]];
      if (a.isNone()) continue;
      PromotionOperandInfo o;
      o.arg = s.args[i].name;
      o.value = node.inputs[i];
      if (a.isTensor()) {
        if (!a.dtype() || !a.rank().isExact()) return std::nullopt;
        o.dtype = *a.dtype();
        o.tier = a.isWrappedNumber() ? Tier::Wrapped : a.rank() == Rank::exact(0) ? Tier::ZeroDim : Tier::Dim;
        // A traced Python scalar (`x * 2.5` records a 0-dim constant): read as that number.
        if (o.tier == Tier::ZeroDim && tracedScalar(node.inputs[i], node.kind)) {
          o.number = isBool(o.dtype)       ? NumKind::Bool
                     : isComplex(o.dtype)  ? NumKind::Complex
                     : isFloating(o.dtype) ? NumKind::Float
                                           : NumKind::Int;
          o.dtype = wrappedNumberDType(*o.number);
          o.tier = Tier::Wrapped;
        }
      } else if (a.isNumber() && a.numKind()) {
        o.number = *a.numKind();
        o.dtype = wrappedNumberDType(*a.numKind());
        o.tier = Tier::Wrapped;
      } else {
        return std::nullopt;
      }
      p.operands.push_back(o);
    }
    if (p.operands.empty()) return std::nullopt;
    try {
      for (const PromotionOperandInfo &o : p.operands) {
        auto &t = p.tiers[static_cast<size_t>(o.tier)];
        t = t ? sem.types().promote(*t, o.dtype) : o.dtype;
      }
      std::vector<PromotionOperand> ops;
      for (const PromotionOperandInfo &o : p.operands) ops.push_back({o.dtype, o.tier});
      p.result = sem.types().resultType(ops);
    } catch (const PromotionError &e) {
      p.error = e.what();
    }
    return p;
  }

  /// A value the frontend gave (Options::valueFacts): a Torch-dialect block
  /// argument or call result, the join its fixpoint found.
  std::optional<ExplainStep> factStep(ir::ValueId v) const {
    for (const auto &[fv, val] : opts.valueFacts) {
      if (fv != v) continue;
      const std::string kind = g.kindOf(g.values[v].def);
      std::string what = kind == "cf::block_arguments" ? "a block argument: the join of what every branch to its block passes"
                         : kind == "func::call"       ? "a call's result: the join of what the callee returns (its written type when the callee is not followed)"
                                                      : "given by the program's reader";
      // A call not followed (recursion, a declaration ...): its diagnostic says why.
      if (std::string why = diagnosticOf(g.values[v].def, "unsupported-op"); !why.empty())
        what = "the result of a call not followed (" + why + ")";
      return step(v, "join", fmt::format("{} is {}: {}", ref(v), what, state(v)), !fullyKnown(r.values[v]));
    }
    return std::nullopt;
  }

  ExplainStep knownStep(ir::ValueId v, Explanation &e) const {
    const ir::ValueInfo &info = g.values[v];
    if (info.def == ir::kNoId) return inputStep(v);
    if (auto s = factStep(v)) return *s;
    const ir::NodeId n = info.def;
    switch (classOf(n)) {
    case KindClass::Constant: return step(v, "constant", fmt::format("{} is a constant: {}", ref(v), state(v)));
    case KindClass::GetAttr:
      return step(v, "attribute", fmt::format("{} is a module attribute typed {}", ref(v), info.type->text));
    case KindClass::If: return step(v, "join", fmt::format("{} joins the If's branches, which agree: {}", ref(v), state(v)));
    case KindClass::Loop:
      return step(v, "join", fmt::format("{} is carried by the loop, the same on every iteration: {}", ref(v), state(v)));
    case KindClass::Op: break;
    default:
      return step(v, "element", fmt::format("{} comes from {}: {}", ref(v), g.kindOf(n), state(v)));
    }
    const Schema *s = overloadOf(n);
    if (!s) return step(v, "rule", fmt::format("{} = {}: {}", ref(v), g.kindOf(n), state(v)));
    e.overload = s->key();
    const OpRule *rule = sem.registry().find(*s);
    e.family = rule ? rule->family : "";
    e.promotion = promotionOf(n, *s);
    std::string by = rule ? fmt::format("given by the rule of {} (family {})", s->key(), rule->family)
                          : fmt::format("evaluated by the solver itself ({})", s->key());
    return step(v, "rule", fmt::format("{} is {}: {}", ref(v), state(v), by));
  }

  ExplainStep inputStep(ir::ValueId v) const {
    const ir::ValueInfo &info = g.values[v];
    if (info.paramOf == 0) {
      for (const auto &[name, val] : opts.inputTypes)
        if (name == info.name) return step(v, "typed-input", fmt::format("{} is a graph input typed {} by --input", ref(v), state(v)));
      bool untyped = !r.values[v].isTensor() || !fullyKnown(r.values[v]);
      if (untyped && info.type->isTensor())
        return step(v, "untyped-input",
                    fmt::format("{} is a graph input written `{}`, without {}: give it with --input {}=DTYPE:rN",
                                ref(v), info.type->text, info.type->dtype ? "a rank" : "a dtype", info.name),
                    true);
      return step(v, "input", fmt::format("{} is a graph input written `{}`", ref(v), info.type->text), untyped);
    }
    ir::NodeId owner = info.paramOf < g.blocks.size() ? g.blocks[info.paramOf].owner : ir::kNoId;
    return {v, owner, "input", fmt::format("{} is a parameter of a block of {}: {}", ref(v),
                                           owner != ir::kNoId ? g.kindOf(owner) : "the graph", state(v))};
  }

  /// Two values reaching one place: a first cause when both are known and
  /// differ; otherwise the chain goes on through the unknown one.
  ExplainStep joinStep(ir::ValueId v, ir::NodeId at, ir::ValueId a, std::string aWhat, ir::ValueId b,
                       std::string bWhat, std::string where, ir::ValueId &next) const {
    const Value &x = r.values[a], &y = r.values[b];
    if (knownArg(x) && knownArg(y) && !(x == y))
      return {v, at, "join",
              fmt::format("{} joins different values in {}: {} {} is {}, {} {} is {}", ref(v), where, aWhat, ref(a),
                          stateText(x), bWhat, ref(b), stateText(y)),
              true};
    next = !knownArg(x) && !x.isBottom() ? a : b;
    return {v, at, "join", fmt::format("{} joins {} {} and {} {} in {}; {} is {}", ref(v), aWhat, ref(a), bWhat, ref(b),
                                       where, ref(next), state(next))};
  }

  ExplainStep unknownStep(ir::ValueId v, ir::ValueId &next) const {
    const ir::ValueInfo &info = g.values[v];
    if (info.def == ir::kNoId) {
      if (info.paramOf == 0) {
        ExplainStep s = inputStep(v);
        s.firstCause = true;
        return s;
      }
      // A loop-carried block parameter: its initial value joined with the body's result.
      ir::NodeId owner = info.paramOf < g.blocks.size() ? g.blocks[info.paramOf].owner : ir::kNoId;
      if (owner != ir::kNoId && classOf(owner) == KindClass::Loop) {
        const ir::Block &body = g.blocks[info.paramOf];
        for (size_t i = 1; i < body.params.size(); ++i)
          if (body.params[i] == v && i + 1 < g.nodes[owner].inputs.size() + 0 && i < body.returns.size())
            return joinStep(v, owner, g.nodes[owner].inputs[i + 1], "its initial value", body.returns[i],
                            "the body's result", "a loop", next);
        return {v, owner, "unsupported", fmt::format("{} is the loop counter of {}", ref(v), g.kindOf(owner)), true};
      }
      return {v, owner, "input", fmt::format("{} is a block parameter: {}", ref(v), state(v)), true};
    }
    const ir::NodeId n = info.def;
    const ir::Node &node = g.nodes[n];
    const std::string kind = g.kindOf(n);
    const UnknownReason why = r.reasons[v];
    if (auto s = factStep(v); s && !r.values[v].isBottom()) return *s;
    if (why == UnknownReason::Unreached || r.values[v].isBottom())
      return step(v, "unreached", fmt::format("{} is never computed: its node is not reached (a dead branch, or "
                                              "after a raise)", ref(v)), true);
    switch (classOf(n)) {
    case KindClass::If: {
      size_t k = 0;
      while (k < node.outputs.size() && node.outputs[k] != v) ++k;
      if (node.blocks.size() != 2) break; // a malformed If (fuzz_module_text found it): no blocks to read
      const ir::Block &b0 = g.blocks[node.blocks[0]], &b1 = g.blocks[node.blocks[1]];
      if (k >= b0.returns.size() || k >= b1.returns.size()) break;
      std::string cond = node.inputs.empty() ? "" : ref(node.inputs[0]);
      ExplainStep s = joinStep(v, n, b0.returns[k], "the then-branch's", b1.returns[k], "the else-branch's",
                               fmt::format("an If on {} (not known before running)", cond), next);
      return s;
    }
    case KindClass::Loop: {
      size_t k = 0;
      while (k < node.outputs.size() && node.outputs[k] != v) ++k;
      if (node.blocks.empty()) break; // a malformed Loop: no body to read
      const ir::Block &body = g.blocks[node.blocks[0]];
      if (why == UnknownReason::LoopBound)
        return step(v, "loop-bound", fmt::format("{} is carried by a loop that reached no fixpoint within {} iterations",
                                                 ref(v), opts.maxLoopIterations), true);
      if (k + 2 < node.inputs.size() + 0 && k + 1 < body.returns.size())
        return joinStep(v, n, node.inputs[k + 2], "its initial value", body.returns[k + 1], "the body's result",
                        "a loop", next);
      break;
    }
    case KindClass::Constant:
      return step(v, "constant", fmt::format("{} is a constant whose written type `{}` gives no dtype", ref(v),
                                             info.type->text), true);
    case KindClass::GetAttr:
      return step(v, "attribute", fmt::format("{} is a module attribute written `{}` (no dtype): lower the graph "
                                              "(torch._C._jit_pass_lower_graph) or read the saved .pt",
                                              ref(v), info.type->text), true);
    case KindClass::Unsupported:
    case KindClass::Fork:
    case KindClass::Wait:
      return step(v, "unsupported", fmt::format("{} comes from {}, which is not analysed{}", ref(v), kind,
                                                diagnosticOf(n, "").empty() ? "" : ": " + diagnosticOf(n, "")),
                  true);
    case KindClass::Op: return opStep(v, n, next);
    default: break;
    }
    // Lists, tuples and other prim nodes: through the first input not known.
    for (ir::ValueId in : node.inputs)
      if (!knownArg(r.values[in])) {
        next = in;
        return step(v, "element", fmt::format("{} = {}(...) takes {}, which is {}", ref(v), kind, ref(in), state(in)));
      }
    return step(v, "unsupported", fmt::format("{} comes from {}: {}", ref(v), kind, state(v)), true);
  }

  ExplainStep opStep(ir::ValueId v, ir::NodeId n, ir::ValueId &next) const {
    const ir::Node &node = g.nodes[n];
    const std::string kind = g.kindOf(n);
    const Schema *s = overloadOf(n);
    const std::string op = s ? s->key() : kind;
    switch (r.reasons[v]) {
    case UnknownReason::NoRule:
      return step(v, "no-rule", fmt::format("{} = {}: no dtype rule for {}", ref(v), kind, op), true);
    case UnknownReason::UnknownOp:
      return step(v, "unknown-op", fmt::format("{} = {}: an op PyTorch {} does not have (not in its schema table)",
                                               ref(v), kind, sem.versionName()), true);
    case UnknownReason::NoOverload:
    case UnknownReason::AmbiguousOverload: {
      std::string d = diagnosticOf(n, r.reasons[v] == UnknownReason::NoOverload ? "no-overload" : "ambiguous-overload");
      return step(v, "no-overload", fmt::format("{} = {}: {}", ref(v), kind, d.empty() ? "no overload fits" : d), true);
    }
    case UnknownReason::AfterError:
      return step(v, "raises", fmt::format("{} = {}: {}", ref(v), kind, diagnosticOf(n, "")), true);
    case UnknownReason::TooManyUnknowns:
      return step(v, "too-many-unknowns", fmt::format("{} = {}: too many unknown arguments to enumerate", ref(v), op),
                  true);
    case UnknownReason::LoopBound:
      return step(v, "loop-bound", fmt::format("{} = {}: inside a loop that reached no fixpoint", ref(v), op), true);
    case UnknownReason::Unsupported:
      return step(v, "unsupported", fmt::format("{} = {}: {}", ref(v), kind, diagnosticOf(n, "")), true);
    case UnknownReason::RuleUnknown:
      return step(v, "value-dependent",
                  fmt::format("{} = {}: the rule of {} ran on known arguments and cannot tell: the result depends "
                              "on values (sizes, tensor contents) that are not known before running{}",
                              ref(v), kind, op, diagnosticOf(n, "tensor-constant").empty() ? "" : " (" + diagnosticOf(n, "tensor-constant") + ")"),
                  true);
    default: break;
    }
    // An argument is unknown: the first one that is (a tensor before the rest).
    ir::ValueId culprit = ir::kNoId;
    for (int pass = 0; pass < 2 && culprit == ir::kNoId; ++pass)
      for (ir::ValueId in : node.inputs)
        if (!knownArg(r.values[in]) && (pass == 1 || r.values[in].isTensor())) {
          culprit = in;
          break;
        }
    if (culprit == ir::kNoId)
      return step(v, "value-dependent", fmt::format("{} = {}: the rule of {} answered {} on these arguments",
                                                    ref(v), kind, op, state(v)), true);
    next = culprit;
    return step(v, "unknown-input", fmt::format("{} = {}: {} of its arguments is not known: {} is {}", ref(v), op,
                                                 "one", ref(culprit), state(culprit)));
  }

  const ir::Graph &g;
  const Result &r;
  const Options &opts;
  const Semantics &sem;
  GraphPlan plan;
};

} // namespace

Explanation explain(const ir::Graph &g, const Result &r, const Options &opts, ir::ValueId v) {
  return Explainer(g, r, opts).run(v);
}

} // namespace dtf::refine
