//===- refine/graph_plan.cpp - graph-only facts, computed once ------------===//
#include "refine/graph_plan.h"
#include "refine/list_interner.h"
#include "refine/overload_match.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace dtf::refine {
namespace {

using TK = ir::TypeExpr::Kind;

/// A literal read under its written type: `0` typed bool is False.
Value literalAs(const Value &lit, const ir::TypeExpr &t) {
  if (t.kind == TK::Bool && lit.intValue()) return Value::boolean(*lit.intValue() != 0);
  if (t.kind == TK::Float && lit.floatValue()) return Value::floating(*lit.floatValue());
  if (t.kind == TK::List && lit.isList() && !t.elems.empty()) {
    std::vector<Value> elems;
    for (const Value &e : lit.elements()) elems.push_back(literalAs(e, *t.elems[0]));
    return Value::list(std::move(elems));
  }
  return lit;
}

/// prim::Constant[value={2.5}]: a 0-dim tensor literal, how the tracer records a Python scalar.
/// The printer writes any one-element tensor so: `Long(1, strides=[1]) = prim::Constant[value={150}]`
/// (torchvision's detection models trace `torch.tensor([150])`) is a 1-d tensor, its type says.
bool isScalarTensorLiteral(const ir::Attribute *a, const ir::TypeExpr &t) {
  return a && a->kind == ir::Attribute::LitKind::TensorLiteral && a->literal.isNumber() && (!t.rank || *t.rank == 0);
}

} // namespace

GraphPlan::Fixed constantValue(const ir::Attribute *a, const ir::TypeExpr &t) {
  auto coarse = [&] { return ir::valueOfType(t, false); };
  if (!a) return {t.kind == TK::None || t.text == "NoneType" ? Value::none() : coarse()};
  using LK = ir::Attribute::LitKind;
  switch (a->kind) {
  case LK::TensorLiteral: {
    // A tensor constant's dtype is program data, so the written type is used.
    // A traced int64 scalar (`Long() = prim::Constant[value={2}]`) holds its int.
    if (isScalarTensorLiteral(a, t) && t.dtype == DType::Int64 && a->literal.numKind() == NumKind::Int &&
        a->literal.intValue())
      return {Value::heldIntTensor(*a->literal.intValue()), UnknownReason::Unsupported};
    Rank r = a->literal.isNumber() ? Rank::exact(0) : Rank::top();
    if (t.rank) r = Rank::exact(*t.rank);
    Value v = Value::tensor(t.dtype ? DTypeSet(*t.dtype) : DTypeSet::all(), r);
    // Its sizes too, where the type records them (`Float(3, strides=[1], ...)`).
    if (t.rank && t.dims.size() == static_cast<size_t>(*t.rank)) v = v.withUnitDims(t.unitDims).withShape(t.dims);
    return {v, UnknownReason::Unsupported};
  }
  case LK::String: return {t.kind == TK::Device ? Value::device(*a->literal.text()) : a->literal};
  case LK::Int:
  case LK::Float:
  case LK::List: return {literalAs(a->literal, t)};
  case LK::Other: break;
  }
  return {coarse()};
}

std::shared_ptr<const GraphPlan> makeGraphPlan(const ir::Graph &g, std::shared_ptr<const Semantics> semantics,
                                               bool sizes) {
  if (!semantics) throw std::invalid_argument("makeGraphPlan: null semantics");
  return std::make_shared<GraphPlan>(g, std::move(semantics), sizes);
}

GraphPlan::GraphPlan(const ir::Graph &g, const Semantics &semantics, bool fixedValues, bool sizes)
    : graph_(&g), semantics_(&semantics), numNodes_(g.nodes.size()), numValues_(g.values.size()), sizes_(sizes) {
  classifyKinds(g);
  staleLists = findStaleListAliases(g, *this);
  scalarTensorLiteral.assign(g.values.size(), 0);
  if (fixedValues) {
    inputs.reserve(g.body().params.size());
    for (ir::ValueId v : g.body().params) inputs.push_back(typedValue(*g.values[v].type));
    findFixedValues(g); // sets scalarTensorLiteral on its way
    markSharedLiterals(g);
    if (anyKindMutatesTensors) inPlaceUses.emplace(g, kindClass, /*positions=*/true);
    findOpSites(g);
    buildInitialState(g);
    return;
  }
  for (ir::NodeId n = 0; n < g.nodes.size(); ++n) {
    if (kindClass[g.nodes[n].kind] != KindClass::Constant || g.nodes[n].outputs.size() != 1) continue;
    const ir::ValueId o = g.nodes[n].outputs[0];
    scalarTensorLiteral[o] = isScalarTensorLiteral(g.attr(n, "value"), *g.values[o].type);
  }
  markSharedLiterals(g);
}

void GraphPlan::markSharedLiterals(const ir::Graph &g) {
  if (std::find(scalarTensorLiteral.begin(), scalarTensorLiteral.end(), 1) == scalarTensorLiteral.end()) return;
  std::vector<uint8_t> seen(g.values.size(), 0);
  auto use = [&](ir::ValueId v) {
    if (scalarTensorLiteral[v] && seen[v]++) scalarTensorLiteral[v] = kSharedLiteral;
  };
  for (const ir::Node &node : g.nodes)
    for (ir::ValueId v : node.inputs) use(v);
  for (const ir::Block &b : g.blocks)
    for (ir::ValueId v : b.returns) use(v);
}

void GraphPlan::classifyKinds(const ir::Graph &g) {
  // What to do with each node kind, decided once (not by string per node).
  static const std::unordered_map<std::string_view, KindClass> kPrims = {
      {"prim::RaiseException", KindClass::Raise},
      {"prim::If", KindClass::If},
      {"prim::Loop", KindClass::Loop},
      {"prim::Constant", KindClass::Constant},
      {"prim::ListConstruct", KindClass::ListConstruct},
      {"prim::TupleConstruct", KindClass::TupleConstruct},
      {"prim::ListUnpack", KindClass::ListUnpack},
      {"prim::TupleUnpack", KindClass::TupleUnpack},
      {"prim::TupleIndex", KindClass::TupleIndex},
      {"prim::dtype", KindClass::DType},
      {"prim::Uninitialized", KindClass::Uninitialized},
      {"prim::unchecked_cast", KindClass::Passthrough},
      {"prim::data", KindClass::Passthrough},
      {"prim::shape_as_tensor_passthrough", KindClass::Passthrough},
      {"prim::GetAttr", KindClass::GetAttr},
      {"prim::CallMethod", KindClass::Unsupported},
      {"prim::CallFunction", KindClass::Unsupported},
      {"prim::PythonOp", KindClass::Unsupported},
      {"prim::fork", KindClass::Unsupported},
      {"prim::Enter", KindClass::Unsupported},
      {"prim::Exit", KindClass::Unsupported},
      {"prim::device", KindClass::Coarse},
      {"prim::isinstance", KindClass::Coarse},
      {"prim::is_cuda", KindClass::Coarse},
      {"prim::layout", KindClass::Coarse},
      {"prim::requires_grad", KindClass::Coarse},
  };
  kindClass.assign(g.numKinds(), KindClass::Op);
  overloads.resize(g.numKinds());
  takesWrappedNumbers.assign(g.numKinds(), 0);
  scalarFirstBySyntax.assign(g.numKinds(), 0);
  scalarizesOther.assign(g.numKinds(), 0);
  pinned.assign(g.numKinds(), 0);
  std::vector<std::string_view> opNames;
  for (ir::KindId k = 0; k < g.numKinds(); ++k) {
    const std::string &name = g.kindName(k);
    if (name.starts_with("prim::")) {
      if (auto it = kPrims.find(name); it != kPrims.end()) kindClass[k] = it->second;
      else if (name.starts_with("prim::fork_")) kindClass[k] = KindClass::Fork;
    }
    if (name == "aten::wait") kindClass[k] = KindClass::Wait;
    if (name == "higher_order::wrap_with_autocast") kindClass[k] = KindClass::AutocastRegion;
    if (kindClass[k] != KindClass::Op) continue;
    if (const std::string *pin = g.pinnedOverload(k)) { // the node named its overload (.pt2)
      overloads[k] = semantics_->schemas().pinnedSpan(pin->empty() ? name : name + "." + *pin);
      pinned[k] = 1;
    } else {
      overloads[k] = semantics_->schemas().overloadSpan(name);
    }
    opNames.push_back(name);
    for (const Schema *s : overloads[k]) {
      anyKindMutatesLists = anyKindMutatesLists || s->mutatesList;
      anyKindMutatesTensors = anyKindMutatesTensors || !s->inPlace.empty();
    }
  }
  // The rules of the ops this graph holds (a registry of them alone: registering
  // every family costs a process ~60 M instructions; Semantics::registryForOps).
  registry_ = &semantics_->registryForOps(std::move(opNames));
  for (ir::KindId k = 0; k < g.numKinds(); ++k) {
    if (kindClass[k] != KindClass::Op) continue;
    const OpFacts facts = registry_->facts(g.kindName(k)); // declared beside the op's rules
    takesWrappedNumbers[k] = facts.has(OpFact::TakesWrappedNumbers);
    scalarFirstBySyntax[k] = facts.has(OpFact::ScalarFirstBySyntax);
    scalarizesOther[k] = facts.has(OpFact::ScalarizesOther);
  }
}

void GraphPlan::findFixedValues(const ir::Graph &g) {
  auto stale = [&](ir::ValueId v) { return !staleLists.empty() && staleLists[v]; };
  size_t candidates = 0;
  for (const ir::Node &node : g.nodes) {
    KindClass c = kindClass[node.kind];
    candidates += c == KindClass::Constant || c == KindClass::GetAttr || c == KindClass::ListConstruct ||
                  c == KindClass::TupleConstruct;
  }
  fixed_.reserve(candidates);
  fixedIndex_.assign(g.nodes.size(), kNotFixed);
  ListInterner lists(SIZE_MAX); // lists of constants: one shared payload each, as the solver's
  std::vector<const Value *> elems;
  for (ir::NodeId n = 0; n < g.nodes.size(); ++n) {
    const ir::Node &node = g.nodes[n];
    if (node.outputs.size() != 1) continue;
    const ir::ValueId o = node.outputs[0];
    const ir::TypeExpr &t = *g.values[o].type;
    const KindClass c = kindClass[node.kind];
    if (c == KindClass::Constant) {
      const ir::Attribute *a = g.attr(n, "value");
      scalarTensorLiteral[o] = isScalarTensorLiteral(a, t);
      Fixed f = constantValue(a, t);
      addFixed(n, sizes_ ? std::move(f.value) : f.value.withoutShape(), f.reason);
    } else if (c == KindClass::GetAttr) { // module attributes (parameters, buffers) are data: typed as written
      addFixed(n, sizes_ ? typedValue(t) : typedValue(t).withoutShape(), UnknownReason::Unsupported);
    } else if ((c == KindClass::ListConstruct || c == KindClass::TupleConstruct) && !stale(o)) {
      elems.clear();
      for (ir::ValueId v : node.inputs) {
        ir::NodeId def = g.values[v].def;
        const Fixed *f = def < n && !stale(v) && kindClass[g.nodes[def].kind] == KindClass::Constant ? fixedOf(def)
                                                                                                    : nullptr;
        if (!f) break;
        elems.push_back(&f->value);
      }
      if (elems.size() != node.inputs.size()) continue;
      addFixed(n, lists.intern(c == KindClass::TupleConstruct, elems.size(), [&](size_t i) -> const Value & { return *elems[i]; }),
               UnknownReason::None);
    }
  }
}

void GraphPlan::buildInitialState(const ir::Graph &g) {
  initialValues.assign(g.values.size(), Value());
  initialReasons.assign(g.values.size(), UnknownReason::None);
  const auto &params = g.body().params;
  for (size_t i = 0; i < params.size(); ++i) {
    ir::ValueId v = params[i];
    if (!staleLists.empty() && staleLists[v]) { // as Solver::set reads a list that may change behind an alias
      initialValues[v] = ir::valueOfType(*g.values[v].type, false);
      initialReasons[v] = storedReason(initialValues[v], UnknownReason::Unsupported);
      continue;
    }
    initialReasons[v] = storedReason(inputs[i], UnknownReason::None);
    initialValues[v] = inputs[i];
  }
  preplaced_.assign(g.nodes.size(), 0);
  for (ir::NodeId n : g.body().nodes) {
    const Fixed *f = fixedOf(n);
    if (!f) continue;
    ir::ValueId o = g.nodes[n].outputs[0];
    initialReasons[o] = storedReason(f->value, f->reason);
    initialValues[o] = f->value;
    preplaced_[n] = 1;
  }
}

namespace {
/// A return type that cannot carry a list: tensors, numbers, strings, devices, None.
bool returnsNoAggregate(const SchemaType &t) {
  using K = SchemaType::Kind;
  switch (t.kind) {
  case K::Tensor: case K::Int: case K::Float: case K::Bool: case K::Complex: case K::Number:
  case K::ScalarType: case K::Layout: case K::MemoryFormat: case K::Str: case K::Device:
    return true;
  case K::Optional: return t.inner() && t.inner()->kind == K::Tensor;
  default: return false;
  }
}
} // namespace

void GraphPlan::findOpSites(const ir::Graph &g) {
  // A constant argument must keep its value for the whole run: numbers, None,
  // strings and devices always do; lists only while no op kind of the graph
  // mutates a list (append(l, x) grows l's state after its definition);
  // tensors never (an in-place op may join into them). 0-dim tensor literals
  // read as Python scalars take transferOp's general path.
  // With list-mutating kinds in the graph (`add_` has a `t[](a!)` overload),
  // a list stays a constant while every use is an op that can neither grow
  // it nor hand it on: no overload of the kind mutates a list or returns
  // anything a list could hide in (lists, tuples, `t`, Any ...). Any other
  // use (a prim, a block's return) may mutate it later or alias it.
  std::vector<uint8_t> listMayChange;
  if (anyKindMutatesLists) {
    std::vector<uint8_t> kindKeepsLists(g.numKinds(), 0);
    for (ir::KindId k = 0; k < g.numKinds(); ++k) {
      if (kindClass[k] != KindClass::Op || overloads[k].empty()) continue;
      bool keeps = true;
      for (const Schema *s : overloads[k]) {
        keeps = keeps && !s->mutatesList && !s->varReturns;
        for (const SchemaArg &r : s->returns) keeps = keeps && returnsNoAggregate(*r.type);
      }
      kindKeepsLists[k] = keeps;
    }
    listMayChange.assign(g.values.size(), 0);
    for (const ir::Node &node : g.nodes)
      if (!kindKeepsLists[node.kind])
        for (ir::ValueId v : node.inputs) listMayChange[v] = 1;
    for (const ir::Block &b : g.blocks)
      for (ir::ValueId v : b.returns) listMayChange[v] = 1;
  }
  auto constantArg = [&](ir::ValueId v) -> const Value * {
    if (scalarTensorLiteral[v]) return nullptr;
    ir::NodeId def = g.values[v].def;
    const Fixed *f = def != ir::kNoId ? fixedOf(def) : nullptr;
    if (!f || f->value.isTensor() || f->value.isBottom() || f->value.isTop()) return nullptr;
    if ((f->value.isList() || f->value.isTuple()) && !listMayChange.empty() && listMayChange[v]) return nullptr;
    return &f->value;
  };
  std::unordered_map<size_t, std::vector<std::shared_ptr<const OpSignature>>> interned;
  for (ir::NodeId n = 0; n < g.nodes.size(); ++n) {
    const ir::Node &node = g.nodes[n];
    if (kindClass[node.kind] != KindClass::Op || overloads[node.kind].empty()) continue;
    OpSignature sig{overloads[node.kind].data(), static_cast<uint32_t>(node.outputs.size()), {}};
    OpSite site;
    bool literal = false;
    for (uint32_t i = 0; i < node.inputs.size(); ++i) {
      literal = literal || scalarTensorLiteral[node.inputs[i]];
      if (const Value *c = constantArg(node.inputs[i])) sig.constants.emplace_back(i, *c);
      else site.varying.push_back(i);
    }
    if (literal || sig.constants.empty()) continue; // nothing to gain, or the wrapped-scalar path
    size_t h = reinterpret_cast<uintptr_t>(sig.ops) * 31 + sig.numOutputs;
    for (const auto &[i, c] : sig.constants) h = (h * 0x100000001b3ULL) ^ (i + c.hash() * 0x9e3779b97f4a7c15ULL);
    auto same = [&](const OpSignature &o) {
      if (o.ops != sig.ops || o.numOutputs != sig.numOutputs || o.constants.size() != sig.constants.size()) return false;
      for (size_t k = 0; k < o.constants.size(); ++k)
        if (o.constants[k].first != sig.constants[k].first || !o.constants[k].second.identical(sig.constants[k].second))
          return false;
      return true;
    };
    auto &bucket = interned[h];
    for (const auto &known : bucket)
      if (same(*known)) site.signature = known;
    if (!site.signature) {
      std::vector<Value> asTensors(node.inputs.size(), Value::unknownTensor());
      for (const auto &[i, c] : sig.constants) asTensors[i] = c;
      OverloadMatch m = matchOverload(overloads[node.kind], asTensors, node.outputs.size());
      if (m.status == OverloadMatch::Status::Ok) sig.whenTensors = m.schema;
      site.signature = std::make_shared<const OpSignature>(std::move(sig));
      bucket.push_back(site.signature);
    }
    if (siteIndex_.empty()) siteIndex_.assign(g.nodes.size(), kNotFixed);
    siteIndex_[n] = static_cast<uint32_t>(sites_.size());
    sites_.push_back(std::move(site));
  }
}

void GraphPlan::addFixed(ir::NodeId n, Value v, UnknownReason why) {
  fixedIndex_[n] = static_cast<uint32_t>(fixed_.size());
  fixed_.push_back({std::move(v), why});
}

} // namespace dtf::refine
