//===- refine/mutation.cpp - values that change after they are defined -----===//
//
// Two kinds of mutation the one-pass solver must not miss.
//
// In-place tensor ops (`y.unsqueeze_(0)`, `w.transpose_(0, 1)`) keep the
// dtype but may change self's rank and sizes. The tracer rewires every later
// use to the op's output, but scripted code keeps using `y`; so when the
// mutated input is still used after the op (or the op sits in a loop), its
// state is joined with the op's result (a weak update: sound under If/Loop).
//
// Lists are mutable references. The solver tracks `append(l, x)` on the value
// `l` itself, but not through another name for the same list: a list stored
// in a list or tuple and read back (`m = [l]; l.append(y); m[0]`), an If/Loop
// output, or the list an op returns. Those names would keep a stale state.
// So, once per graph: group list values into alias classes (flow- and
// field-insensitive union-find over the edges that can alias), and every
// class that has more than one used name and is mutated somewhere is read as
// its written type only (its elements unknown). Graphs without list mutation
// (every traced graph) skip all of this.
//
// An in-place op that changes a rank (unsqueeze_, resize_, an `out=`) reaches
// every other name of the same tensor object too: a list element, a value
// an If/Loop passed on, what `contiguous` or `add_` returned. Those names'
// later readers see the new rank joined in (widenTensorAliases), over
// may-alias classes built the first time a rank changes in place.
//
//===----------------------------------------------------------------------===//
#include "refine/solver.h"

#include <algorithm>
#include <numeric>

namespace dtf::refine {
namespace {

/// Can a value of this written type be, or contain, a list? (Unknown types can.)
bool mayHoldList(const ir::TypeExpr &t) {
  using TK = ir::TypeExpr::Kind;
  switch (t.kind) {
  case TK::List:
  case TK::Other: return true;
  case TK::Tuple:
  case TK::Optional:
    return std::any_of(t.elems.begin(), t.elems.end(), [](const ir::TypePtr &e) { return mayHoldList(*e); });
  default: return false;
  }
}

/// The edges along which If and Loop pass values on, one value per
/// position: an If's outputs are its blocks' returns; a Loop's carried
/// inputs, body params, body returns (after the condition) and outputs.
template <typename Link>
void linkControlFlow(const ir::Graph &g, const ir::Node &n, KindClass c, Link link) {
  const size_t skip = c == KindClass::Loop ? 1 : 0;
  for (ir::BlockId b : n.blocks) {
    const ir::Block &blk = g.blocks[b];
    for (size_t i = 0; i < n.outputs.size(); ++i) {
      if (i + skip < blk.returns.size()) link(n.outputs[i], blk.returns[i + skip]);
      if (c == KindClass::Loop && i + 1 < blk.params.size() && i + 2 < n.inputs.size()) {
        link(blk.params[i + 1], n.inputs[i + 2]);
        link(n.outputs[i], n.inputs[i + 2]);
      }
    }
  }
}

struct UnionFind {
  std::vector<ir::ValueId> parent;
  explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  ir::ValueId find(ir::ValueId v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  }
  void unite(ir::ValueId a, ir::ValueId b) { parent[find(a)] = find(b); }
};

} // namespace

InPlaceUses::InPlaceUses(const ir::Graph &g, std::span<const KindClass> kindClass, bool positions) {
  useCount.assign(g.values.size(), 0);
  for (const ir::Node &node : g.nodes)
    for (ir::ValueId in : node.inputs) ++useCount[in];
  for (const ir::Block &b : g.blocks)
    for (ir::ValueId r : b.returns) ++useCount[r];
  if (positions) findPositions(g, kindClass);
}

void InPlaceUses::findPositions(const ir::Graph &g, std::span<const KindClass> kindClass) {
  // Program order (pre-order positions; `end` = last position in a node's
  // blocks), and every use inside a loop counted at the end of its outermost
  // loop (the body runs again after a mutation later in it).
  nodePos.assign(g.nodes.size(), 0);
  std::vector<uint32_t> end(g.nodes.size(), 0);
  uint32_t pos = 0;
  auto number = [&](auto &self, ir::BlockId b, int depth) -> void {
    if (depth > ir::kMaxNesting) return;
    for (ir::NodeId n : g.blocks[b].nodes) {
      nodePos[n] = ++pos;
      for (ir::BlockId inner : g.nodes[n].blocks) self(self, inner, depth + 1);
      end[n] = pos;
    }
  };
  number(number, 0, 0);
  lastUse.assign(g.values.size(), 0);
  auto use = [&](ir::ValueId v, uint32_t at) { lastUse[v] = std::max(lastUse[v], at); };
  auto uses = [&](auto &self, ir::BlockId b, int depth, uint32_t loopEnd) -> void {
    if (depth > ir::kMaxNesting) return;
    for (ir::NodeId n : g.blocks[b].nodes) {
      const ir::Node &node = g.nodes[n];
      for (ir::ValueId v : node.inputs) use(v, loopEnd ? loopEnd : nodePos[n]);
      // (One past the block's last node: a mutation by that last node is before
      // the next iteration's reads and before the block's returns.)
      uint32_t innerLoopEnd = loopEnd || kindClass[node.kind] != KindClass::Loop ? loopEnd : end[n] + 1;
      for (ir::BlockId inner : node.blocks) {
        self(self, inner, depth + 1, innerLoopEnd);
        for (ir::ValueId v : g.blocks[inner].returns) use(v, innerLoopEnd ? innerLoopEnd : end[n] + 1);
      }
    }
  };
  uses(uses, 0, 0, 0);
  for (ir::ValueId v : g.body().returns) use(v, UINT32_MAX);
}

std::optional<bool> InPlaceUses::usedAfter(ir::ValueId v, ir::NodeId n, const ir::Graph &g,
                                           std::span<const KindClass> kindClass) const {
  // Cheap first: a value used once (by this op) outside any loop has no later reader.
  bool inLoop = false;
  for (ir::BlockId b = g.nodes[n].parent; b != 0 && !inLoop;) {
    ir::NodeId owner = g.blocks[b].owner;
    if (owner == ir::kNoId) break;
    inLoop = kindClass[g.nodes[owner].kind] == KindClass::Loop;
    b = g.nodes[owner].parent;
  }
  if (useCount[v] <= 1 && !inLoop) return false;
  if (nodePos.empty()) return std::nullopt;
  return lastUse[v] > nodePos[n];
}

bool Solver::usedAfter(ir::ValueId v, ir::NodeId n) {
  const auto &kinds = plan_->kindClass;
  if (plan_->inPlaceUses) return *plan_->inPlaceUses->usedAfter(v, n, g, kinds);
  // This call's own facts: use counts on the first in-place op, positions on the first that needs them.
  if (!ownUses_) ownUses_.emplace(g, kinds, /*positions=*/false);
  if (auto later = ownUses_->usedAfter(v, n, g, kinds)) return *later;
  ownUses_->findPositions(g, kinds);
  return *ownUses_->usedAfter(v, n, g, kinds);
}

namespace {

/// An alias annotation on the type or inside it (`Tensor(a)[]`, `t[](a)`).
bool aliasedType(const SchemaType &t) {
  if (t.aliased) return true;
  for (const auto &c : t.children)
    if (c && aliasedType(*c)) return true;
  return false;
}

/// Link the outputs of `node` with the inputs that may be the same tensor
/// object (or hold it): by the alias annotations of the overloads that take
/// as many arguments as the node passes (graph nodes pass every argument;
/// `mul`'s nodes are never `mul.out`); every input when none does, and for
/// prim constructs, unknown ops and calls.
template <typename Unite>
void linkObjects(const ir::Node &node, const GraphPlan &plan, Unite unite) {
  auto all = [&] {
    for (ir::ValueId o : node.outputs)
      for (ir::ValueId i : node.inputs) unite(o, i);
  };
  switch (plan.kindClass[node.kind]) {
  case KindClass::Constant: return;
  case KindClass::Op: break;
  default: all(); return;
  }
  bool matched = false;
  for (const Schema *s : plan.overloads[node.kind]) {
    if (s->args.size() != node.inputs.size()) continue;
    matched = true;
    for (size_t r = 0; r < s->returns.size() && r < node.outputs.size(); ++r) {
      if (!aliasedType(*s->returns[r].type)) continue;
      for (size_t a = 0; a < s->args.size(); ++a)
        if (aliasedType(*s->args[a].type)) unite(node.outputs[r], node.inputs[a]);
    }
  }
  if (!matched) all();
}

/// `v` as it may be once a tensor object it is, or holds, took rank `now`:
/// each tensor joined with `now`'s rank and size-1 facts (its dtype kept:
/// an in-place op keeps it).
Value withPossibleRank(const Value &v, const Value &now) {
  if (v.isTensor()) return Value::join(v, now.withDTypes(v.dtypes()));
  if (!v.isList() && !v.isTuple()) return v;
  if (!v.lengthKnown()) return v.isList() ? Value::listOf(withPossibleRank(v.elementSummary(), now)) : v;
  std::vector<Value> elems;
  for (const Value &e : v.elements()) elems.push_back(withPossibleRank(e, now));
  return v.isTuple() ? Value::tuple(std::move(elems)) : Value::list(std::move(elems));
}

} // namespace

bool mayReshapeInPlace(const Registry &registry, const Schema &s, uint32_t arg) {
  if (arg != 0 || s.args.empty() || s.args[0].name != "self") return true; // an out= argument
  return registry.facts(s.name).has(OpFact::ReshapesSelfInPlace);
}

void Solver::widenTensorAliases(ir::ValueId in, ir::NodeId n, const Value &now) {
  if (tensorAliasClass_.empty()) { // once per call: flow-insensitive classes, as the lists' below
    UnionFind uf(g.values.size());
    for (const ir::Node &node : g.nodes) {
      const KindClass c = plan_->kindClass[node.kind];
      auto unite = [&](ir::ValueId a, ir::ValueId b) { uf.unite(a, b); };
      if (c == KindClass::If || c == KindClass::Loop) linkControlFlow(g, node, c, unite);
      else linkObjects(node, *plan_, unite);
    }
    tensorAliasClass_.resize(g.values.size());
    tensorAliasMembers_.resize(g.values.size());
    for (ir::ValueId v = 0; v < g.values.size(); ++v) tensorAliasMembers_[tensorAliasClass_[v] = uf.find(v)].push_back(v);
  }
  const ir::Node &node = g.nodes[n];
  for (ir::ValueId v : tensorAliasMembers_[tensorAliasClass_[in]]) {
    if (v == in || get(v).isBottom()) continue;
    if (std::find(node.outputs.begin(), node.outputs.end(), v) != node.outputs.end()) continue;
    if (!usedAfter(v, n)) continue;
    Value w = withPossibleRank(get(v), now);
    if (w == get(v)) continue;
    out_.values[v] = std::move(w);
    if (!fullyKnown(out_.values[v])) out_.reasons[v] = UnknownReason::BranchJoin;
    mutated_.push_back(v);
  }
}

std::vector<bool> findStaleListAliases(const ir::Graph &g, const GraphPlan &plan) {
  // Which inputs each op kind may mutate as a list (any overload says `(a!)`).
  // Nearly every graph: no op kind of it has a mutated list argument.
  if (!plan.anyKindMutatesLists) return {};
  std::vector<std::vector<size_t>> mutatedAt(g.numKinds());
  for (ir::KindId k = 0; k < g.numKinds(); ++k) {
    for (const Schema *s : plan.overloads[k]) // empty for prim constructs
      for (size_t i = 0; s->mutatesList && i < s->args.size(); ++i)
        if (s->args[i].type->mutated && s->args[i].type->kind == SchemaType::Kind::List) {
          mutatedAt[k].push_back(i);
        }
  }
  auto listy = [&](ir::ValueId v) { return mayHoldList(*g.values[v].type); };
  // Only a node passing a list there mutates one (`add_` of tensors does not).
  bool anyMutation = false;
  for (const ir::Node &n : g.nodes)
    for (size_t i : mutatedAt[n.kind]) anyMutation = anyMutation || (i < n.inputs.size() && listy(n.inputs[i]));
  if (!anyMutation) return {};

  const size_t nv = g.values.size();
  std::vector<uint32_t> uses(nv, 0);
  for (const ir::Node &n : g.nodes)
    for (ir::ValueId v : n.inputs) ++uses[v];
  for (const ir::Block &b : g.blocks)
    for (ir::ValueId v : b.returns) ++uses[v];

  UnionFind uf(nv);
  auto link = [&](ir::ValueId a, ir::ValueId b) {
    if (listy(a) && listy(b)) uf.unite(a, b);
  };
  for (const ir::Node &n : g.nodes) {
    KindClass c = plan.kindClass[n.kind];
    if (c == KindClass::If || c == KindClass::Loop) {
      linkControlFlow(g, n, c, link);
      continue;
    }
    // Containers, extraction, passthrough and ops returning lists: an unused
    // output (`l.append(x)`'s) cannot go stale.
    for (ir::ValueId o : n.outputs) {
      if (uses[o] == 0) continue;
      for (ir::ValueId in : n.inputs) link(o, in);
    }
  }
  std::vector<uint32_t> usedNames(nv, 0);
  std::vector<bool> mutated(nv, false);
  for (ir::ValueId v = 0; v < nv; ++v)
    if (listy(v) && uses[v] > 0) ++usedNames[uf.find(v)];
  for (const ir::Node &n : g.nodes)
    for (size_t i : mutatedAt[n.kind])
      if (i < n.inputs.size()) mutated[uf.find(n.inputs[i])] = true;
  std::vector<bool> stale;
  for (ir::ValueId v = 0; v < nv; ++v) {
    ir::ValueId root = uf.find(v);
    if (listy(v) && mutated[root] && usedNames[root] > 1) {
      if (stale.empty()) stale.assign(nv, false);
      stale[v] = true;
    }
  }
  return stale;
}

} // namespace dtf::refine
