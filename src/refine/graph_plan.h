//===- refine/graph_plan.h - what the pass learns from the graph alone -*- C++ -*-===//
//
// Everything the solver derives from a graph before any value is known: what
// each node kind is (prim construct or schema'd op, with its overloads), which
// lists may change behind an alias, which constants are scalar literals, and
// the values that do not depend on the analysis state at all (constants,
// module attributes, lists of constants, the written input types). Built once
// per refineGraph call, or once per graph and kept in Options::plan, as
// TorchScript keeps each node's resolved operator with the parsed graph.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "refine/refine.h"
#include "schema/schema.h"

#include <span>

namespace dtf::refine {

/// What the solver does with a node kind, decided once per kind.
enum class KindClass : uint8_t {
  Op, ///< schema'd op (aten::..., prim ops with a schema): transferOp
  Raise, If, Loop,
  Constant, ListConstruct, TupleConstruct, ListUnpack, TupleUnpack, TupleIndex, DType,
  Uninitialized, Passthrough, GetAttr, Unsupported, Coarse,
};

class GraphPlan {
public:
  /// `fixedValues`: also compute the fixed values and input values (worth it
  /// for a plan that is kept; a plan of one call leaves them to the solver,
  /// which computes them as it meets them, in its single pass over the nodes).
  explicit GraphPlan(const ir::Graph &g, bool fixedValues = true);

  /// The graph it was built for (refineGraph refuses a plan of another graph).
  bool builtFor(const ir::Graph &g) const {
    return &g == graph_ && g.nodes.size() == numNodes_ && g.values.size() == numValues_ &&
           g.numKinds() == kindClass.size();
  }

  std::vector<KindClass> kindClass;                      ///< by KindId
  std::vector<std::span<const Schema *const>> overloads; ///< by KindId (empty: unknown op)
  bool anyKindMutatesLists = false; ///< some overload of some kind has a `t[](a!)` argument
  /// By value id: the output of prim::Constant[value={number}] (a 0-dim tensor literal).
  std::vector<bool> scalarTensorLiteral;
  /// By value id: a list read as written (aliased and mutated); empty: none.
  std::vector<bool> staleLists;
  /// The written types of the graph inputs, by position (empty: not computed).
  std::vector<Value> inputs;

  /// A node output whose value never depends on the analysis state.
  struct Fixed {
    Value value;
    UnknownReason reason = UnknownReason::None;
  };
  /// The fixed value of `n`'s only output (prim::Constant, prim::GetAttr, a
  /// list of constants), or null (not one, or not computed).
  const Fixed *fixedOf(ir::NodeId n) const {
    if (slots_.empty()) return nullptr;
    size_t mask = slots_.size() - 1;
    for (size_t s = slotHash(n) & mask; slots_[s].node != ir::kNoId; s = (s + 1) & mask)
      if (slots_[s].node == n) return &fixed_[slots_[s].index];
    return nullptr;
  }

private:
  void classifyKinds(const ir::Graph &g);
  void findFixedValues(const ir::Graph &g);
  void addFixed(ir::NodeId n, Value v, UnknownReason why);
  static size_t slotHash(ir::NodeId n) { return n * 0x9e3779b1u; }

  const ir::Graph *graph_;
  size_t numNodes_, numValues_;
  /// Open addressing from node id to an index into fixed_ (at most half full).
  struct Slot {
    ir::NodeId node = ir::kNoId;
    uint32_t index = 0;
  };
  std::vector<Slot> slots_;
  std::vector<Fixed> fixed_;
};

/// The value of prim::Constant's output typed `t` (attribute `value`: `a`, null if absent).
GraphPlan::Fixed constantValue(const ir::Attribute *a, const ir::TypeExpr &t);

/// Lists that may change behind an alias, by value id (mutation.cpp); empty
/// when no list of the graph is mutated.
std::vector<bool> findStaleListAliases(const ir::Graph &g, const GraphPlan &plan);

} // namespace dtf::refine
