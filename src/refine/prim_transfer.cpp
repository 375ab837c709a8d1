//===- refine/prim_transfer.cpp - transfer functions of prim ops ----------===//
//
// Constants, lists, tuples, dtype/device queries and other prim ops that
// have no schema (or whose schema says only `Any`). prim ops that do have a
// real schema (prim::NumToTensor.Scalar, prim::min.int ...) go through
// transferOp like aten ops.
//
//===----------------------------------------------------------------------===//
#include "refine/solver.h"

#include <fmt/format.h>

namespace dtf::refine {
namespace {

/// Why a node kind is left unanalysed, and what a user can do about it.
std::string unsupportedMessage(const ir::Graph &g, ir::NodeId n) {
  const std::string &kind = g.kindOf(n);
  if (kind == "prim::CallMethod" || kind == "prim::CallFunction")
    return fmt::format("{} is not analysed (inline the graph first: torch._C._jit_pass_inline); results unknown", kind);
  if (kind == "prim::PythonOp") {
    const ir::Attribute *name = g.attr(n, "name");
    return fmt::format("Python op {} runs Python code, which is not analysed; results unknown",
                       name ? name->text : std::string("(unnamed)"));
  }
  return fmt::format("{} is not analysed; results unknown", kind);
}

} // namespace

bool Solver::isWrappedScalarConstant(ir::ValueId v) const {
  if (!plan_->scalarTensorLiteral[v]) return false; // not prim::Constant[value={number}]
  const Value &val = get(v);
  if (!val.isTensor() || val.rank() != Rank::exact(0) || !val.dtype()) return false;
  // Python scalars are wrapped as double, int64, bool or complex128 tensors.
  DType d = *val.dtype();
  return d == DType::Float64 || d == DType::Int64 || d == DType::Bool || d == DType::Complex128;
}

void Solver::transferConstant(ir::NodeId n) {
  // Its value depends on the node alone (graph_plan.cpp): from the plan when it kept it.
  const ir::Node &node = g.nodes[n];
  if (node.outputs.size() != 1) return;
  if (setFixed(n)) return;
  GraphPlan::Fixed f = constantValue(g.attr(n, "value"), *g.values[node.outputs[0]].type);
  set(node.outputs[0], opts.sizes ? std::move(f.value) : f.value.withoutShape(), f.reason);
}

Value Solver::constructed(const ir::Node &node, bool tuple) {
  return interned_.intern(tuple, node.inputs.size(), [&](size_t i) -> const Value & { return get(node.inputs[i]); });
}

bool Solver::setFixed(ir::NodeId n) {
  const GraphPlan::Fixed *f = plan_->fixedOf(n);
  if (f) set(g.nodes[n].outputs[0], f->value, f->reason);
  return f != nullptr;
}

bool Solver::transferPrim(ir::NodeId n) {
  const KindClass cls = kindClass(n);
  if (cls == KindClass::Op) return false; // schema'd op (aten::..., NumToTensor, min, max ...): transferOp
  const ir::Node &node = g.nodes[n];
  auto in = [&](size_t i) -> const Value & { return get(node.inputs[i]); };

  switch (cls) {
  case KindClass::Constant: transferConstant(n); return true;
  case KindClass::ListConstruct:
  case KindClass::TupleConstruct: {
    if (node.outputs.size() != 1) return true;
    if (!setFixed(n)) set(node.outputs[0], constructed(node, cls == KindClass::TupleConstruct)); // plan: of constants
    return true;
  }
  case KindClass::ListUnpack:
  case KindClass::TupleUnpack: {
    if (node.inputs.size() != 1) return true;
    const Value &agg = in(0);
    bool exact = agg.lengthKnown() && agg.elements().size() == node.outputs.size();
    if (agg.lengthKnown() && !exact && !agg.isBottom())
      diag(Severity::Error, n, "unpack-length",
           fmt::format("unpacking {} values from a sequence of {}", node.outputs.size(), agg.elements().size()));
    Value summary = agg.isList() || agg.isTuple() ? agg.elementSummary() : Value::top();
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      ir::ValueId o = node.outputs[i];
      Value v = exact ? agg.elements()[i] : summary;
      if (v.isTop() || v.isBottom()) v = coarse(o);
      set(o, v, UnknownReason::UnknownInput);
    }
    return true;
  }
  case KindClass::TupleIndex: {
    if (node.inputs.size() != 2 || node.outputs.size() != 1) return true;
    const Value &tup = in(0);
    auto i = normIndex(in(1).intValue(), tup.elements().size());
    Value v = i && tup.lengthKnown() ? tup.elements()[*i] : tup.elementSummary();
    set(node.outputs[0], v.isTop() ? coarse(node.outputs[0]) : v, UnknownReason::UnknownInput);
    return true;
  }
  case KindClass::DType: {
    if (node.inputs.size() != 1 || node.outputs.size() != 1) return true;
    const Value &t = in(0);
    set(node.outputs[0], t.isTensor() && t.dtype() ? Value::dtypeCode(*t.dtype()) : Value::number(NumKind::Int));
    return true;
  }
  case KindClass::Uninitialized:
    for (ir::ValueId o : node.outputs) set(o, Value(), UnknownReason::Unreached);
    return true;
  case KindClass::Passthrough:
    // An unknown input still has the result's written type: a scripted
    // `Optional[float]` argument nobody gave is a float after its
    // `unchecked_cast`, enough for `x * scale` to keep x's dtype.
    if (node.inputs.size() == 1 && node.outputs.size() == 1)
      set(node.outputs[0], in(0).isTop() ? coarse(node.outputs[0]) : in(0), UnknownReason::UnknownInput);
    return true;
  case KindClass::GetAttr:
    // Module attributes (parameters, buffers) are data: typed as written.
    if (!setFixed(n))
      for (ir::ValueId o : node.outputs) set(o, plan_->typedValue(*g.values[o].type), UnknownReason::Unsupported);
    return true;
  case KindClass::Unsupported:
    diag(Severity::Warning, n, "unsupported", unsupportedMessage(g, n));
    for (ir::ValueId o : node.outputs) set(o, coarse(o), UnknownReason::Unsupported);
    return true;
  case KindClass::Coarse:
    for (ir::ValueId o : node.outputs) set(o, coarse(o));
    return true;
  case KindClass::Fork: transferFork(n); return true;
  case KindClass::Wait: transferWait(n); return true;
  default: return false;
  }
}

void Solver::transferFork(ir::NodeId n) {
  const ir::Node &node = g.nodes[n];
  const std::string &kind = g.kindOf(n);
  const ir::Graph *sub = g.subgraph(kind);
  auto unknown = [&](std::string why) {
    diag(Severity::Warning, n, "unsupported", std::move(why));
    for (ir::ValueId o : node.outputs) set(o, coarse(o), UnknownReason::Unsupported);
  };
  if (!sub) return unknown(fmt::format("{}: no `with {} = graph(...)` section after the graph; its result is unknown", kind, kind));
  const auto &params = sub->body().params;
  if (params.size() != node.inputs.size() || sub->body().returns.size() != 1 || node.outputs.size() != 1)
    return unknown(fmt::format("{}: {} arguments and {} results, its section takes {} and returns {}; result unknown",
                               kind, node.inputs.size(), node.outputs.size(), params.size(), sub->body().returns.size()));
  if (opts.forkDepth >= 8) return unknown(fmt::format("{}: forks nested deeper than 8; result unknown", kind));
  Options inner;
  inner.semantics = opts.semantics;
  inner.reportTypeConflicts = opts.reportTypeConflicts;
  inner.tensorConstants = opts.tensorConstants;
  inner.maxLoopIterations = opts.maxLoopIterations;
  inner.forkDepth = opts.forkDepth + 1;
  inner.sizes = opts.sizes;
  for (size_t i = 0; i < params.size(); ++i) {
    const Value &a = get(node.inputs[i]);
    if (a.isBottom()) { set(node.outputs[0], Value(), UnknownReason::Unreached); return; }
    inner.inputTypes.emplace_back(sub->values[params[i]].name, a);
  }
  Result r = refineGraph(*sub, inner);
  for (Diagnostic &d : r.diagnostics) { // where they are in the section (its lines are the file's)
    size_t before = out_.diagnostics.size();
    diag(d.severity, n, d.category, fmt::format("in {}: {}", kind, d.message));
    if (out_.diagnostics.size() > before && d.loc.line) out_.diagnostics.back().loc = d.loc;
  }
  ir::ValueId ret = sub->body().returns[0];
  futures_[node.outputs[0]] = {r.values[ret], r.reasons[ret]};
  set(node.outputs[0], coarse(node.outputs[0])); // the Future itself: opaque
}

void Solver::transferWait(ir::NodeId n) {
  const ir::Node &node = g.nodes[n];
  if (node.outputs.size() != 1) return;
  auto it = node.inputs.size() == 1 ? futures_.find(node.inputs[0]) : futures_.end();
  if (it != futures_.end() && !it->second.first.isBottom()) set(node.outputs[0], it->second.first, it->second.second);
  else set(node.outputs[0], coarse(node.outputs[0]), UnknownReason::Unsupported); // a Future from elsewhere
}

} // namespace dtf::refine
