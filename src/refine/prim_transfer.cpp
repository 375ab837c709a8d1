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
  if (const GraphPlan::Fixed *f = plan_->fixedOf(n)) return set(node.outputs[0], f->value, f->reason);
  GraphPlan::Fixed f = constantValue(g.attr(n, "value"), *g.values[node.outputs[0]].type);
  set(node.outputs[0], std::move(f.value), f.reason);
}

Value Solver::constructed(const ir::Node &node, bool tuple) {
  // Interned: the same elements give one shared payload (`[1, 1]` strides
  // appear dozens of times), so no allocation, and later memo lookups
  // compare one pointer and reuse one hash.
  size_t h = tuple;
  for (ir::ValueId v : node.inputs) h = h * 0x100000001b3ULL ^ get(v).hash();
  h |= 1; // 0 marks a free slot
  if (interned_.empty()) interned_.resize(64);
  size_t mask = interned_.size() - 1, slot = h & mask;
  for (; interned_[slot].first != 0; slot = (slot + 1) & mask) {
    if (interned_[slot].first != h) continue;
    const Value &cand = interned_[slot].second;
    if (cand.isTuple() != tuple || cand.elements().size() != node.inputs.size()) continue;
    bool same = true;
    for (size_t i = 0; i < node.inputs.size() && same; ++i) same = cand.elements()[i].identical(get(node.inputs[i]));
    if (same) return cand;
  }
  std::vector<Value> elems;
  elems.reserve(node.inputs.size());
  for (ir::ValueId v : node.inputs) elems.push_back(get(v));
  Value made = tuple ? Value::tuple(std::move(elems)) : Value::list(std::move(elems));
  if (internedCount_ >= kMaxInterned) return made;
  interned_[slot] = {h, made};
  if (++internedCount_ * 2 > interned_.size()) { // grow: rehash into twice the slots
    std::vector<std::pair<size_t, Value>> old(interned_.size() * 2);
    old.swap(interned_);
    mask = interned_.size() - 1;
    for (auto &[hh, v] : old) {
      if (hh == 0) continue;
      size_t s = hh & mask;
      while (interned_[s].first != 0) s = (s + 1) & mask;
      interned_[s] = {hh, std::move(v)};
    }
  }
  return made;
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
    if (const GraphPlan::Fixed *f = plan_->fixedOf(n)) set(node.outputs[0], f->value, f->reason); // of constants
    else set(node.outputs[0], constructed(node, cls == KindClass::TupleConstruct));
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
    if (node.inputs.size() == 1 && node.outputs.size() == 1) set(node.outputs[0], in(0), UnknownReason::UnknownInput);
    return true;
  case KindClass::GetAttr:
    // Module attributes (parameters, buffers) are data: typed as written.
    if (const GraphPlan::Fixed *f = plan_->fixedOf(n)) set(node.outputs[0], f->value, f->reason);
    else
      for (ir::ValueId o : node.outputs) set(o, ir::valueOfType(*g.values[o].type, true), UnknownReason::Unsupported);
    return true;
  case KindClass::Unsupported:
    diag(Severity::Warning, n, "unsupported",
         fmt::format("{} is not analysed (inline the graph first); results unknown", g.kindOf(n)));
    for (ir::ValueId o : node.outputs) set(o, coarse(o), UnknownReason::Unsupported);
    return true;
  case KindClass::Coarse:
    for (ir::ValueId o : node.outputs) set(o, coarse(o));
    return true;
  default: return false;
  }
}

} // namespace dtf::refine
