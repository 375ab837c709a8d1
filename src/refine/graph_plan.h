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
#include "ops/semantics.h"
#include "schema/schema.h"

#include <memory>
#include <optional>
#include <span>

namespace dtf::refine {

/// What the solver does with a node kind, decided once per kind.
enum class KindClass : uint8_t {
  Op, ///< schema'd op (aten::..., prim ops with a schema): transferOp
  Raise, If, Loop,
  Constant, ListConstruct, TupleConstruct, ListUnpack, TupleUnpack, TupleIndex, DType,
  Uninitialized, Passthrough, GetAttr, Unsupported, Coarse,
  Fork, ///< `prim::fork_N`: runs the graph's `with prim::fork_N = graph(...)` section (torch.jit.fork)
  Wait, ///< aten::wait: the value of the forked call
  AutocastRegion, ///< higher_order::wrap_with_autocast (.pt2): its block runs in an autocast context
};

/// Where each value is used, for in-place tensor ops (mutation.cpp): does a
/// later node (or the next iteration of a loop) read the mutated input?
/// Use counts first; program positions (`positions`, or findPositions later)
/// only when a value used more than once is mutated.
class InPlaceUses {
public:
  InPlaceUses(const ir::Graph &g, std::span<const KindClass> kindClass, bool positions);
  void findPositions(const ir::Graph &g, std::span<const KindClass> kindClass);
  /// Is `v` used after node `n` (or again, in a loop)? nullopt: positions needed.
  std::optional<bool> usedAfter(ir::ValueId v, ir::NodeId n, const ir::Graph &g,
                                std::span<const KindClass> kindClass) const;

private:
  std::vector<uint32_t> useCount, lastUse; ///< by value id
  std::vector<uint32_t> nodePos;           ///< by node id: pre-order position (empty: not computed)
};

/// What a kept plan knows of an op node's arguments: the ones that are
/// constants of the graph (numbers, None, strings, devices, lists of them),
/// which no node can change. Nodes with the same op, output count and
/// constant arguments share one signature, so a memo keyed by (signature,
/// the other arguments' values) hashes and compares only those others (a
/// convolution: 2-3 tensors instead of 13 arguments).
struct OpSignature {
  const Schema *const *ops = nullptr; ///< the op's overload list (EvalMemo's op identity)
  uint32_t numOutputs = 0;
  std::vector<std::pair<uint32_t, Value>> constants; ///< (input position, value), by position
  /// The overload chosen when every other argument is a tensor (overload
  /// matching sees only that a value is a tensor, not its dtype or rank),
  /// resolved once with the plan; null when that match is not unique.
  const Schema *whenTensors = nullptr;
};
struct OpSite {
  std::shared_ptr<const OpSignature> signature;
  std::vector<uint32_t> varying; ///< the other input positions, in order
};

class GraphPlan {
public:
  /// `fixedValues`: also compute the fixed values and input values (worth it
  /// for a plan that is kept; a plan of one call leaves them to the solver,
  /// which computes them as it meets them, in its single pass over the nodes).
  /// `sizes`: for a pass with tensor sizes (Options::sizes): without them,
  /// the values it takes from written types (inputs, attributes) have none.
  GraphPlan(const ir::Graph &g, const Semantics &semantics, bool fixedValues = true, bool sizes = true);
  /// A kept plan (makeGraphPlan): it keeps its semantics alive.
  GraphPlan(const ir::Graph &g, std::shared_ptr<const Semantics> semantics, bool sizes = true)
      : GraphPlan(g, *semantics, true, sizes) {
    keptSemantics_ = std::move(semantics);
  }

  /// The graph it was built for (refineGraph refuses a plan of another graph).
  bool builtFor(const ir::Graph &g) const {
    return &g == graph_ && g.nodes.size() == numNodes_ && g.values.size() == numValues_ &&
           g.numKinds() == kindClass.size();
  }
  /// The PyTorch version whose schemas it resolved overloads in.
  const Semantics &semantics() const { return *semantics_; }
  /// The rules of the graph's ops, as semantics().registry() has them (the
  /// registry of those ops alone: Semantics::registryForOps).
  const Registry &registry() const { return *registry_; }
  /// For which Options::sizes it was built.
  bool sizes() const { return sizes_; }
  /// A written type's value as the pass takes it (valueOfType with tensor
  /// details; without sizes unless sizes()).
  Value typedValue(const ir::TypeExpr &t) const {
    Value v = ir::valueOfType(t, true);
    return sizes_ ? v : v.withoutShape();
  }

  std::vector<KindClass> kindClass;                      ///< by KindId
  std::vector<std::span<const Schema *const>> overloads; ///< by KindId (empty: unknown op)
  /// By KindId: the kind names its overload (Graph::internPinnedKind), the
  /// one in `overloads`; a Python number it is given for a Tensor is wrapped.
  std::vector<uint8_t> pinned;
  /// By KindId: an op the tracer passes Python scalars to as 0-dim tensor
  /// constants (wrapped numbers). PyTorch's Python argument parser lets
  /// numbers stand for tensors only for add, sub, mul, div, true_divide,
  /// floor_divide and their in-place forms; every other op gets a Scalar
  /// argument (`torch.where(c, x, 2.5)` traces to where.ScalarOther), so a
  /// 0-dim tensor constant it takes is a real tensor (a module attribute).
  std::vector<uint8_t> takesWrappedNumbers;
  /// By KindId: floor_divide(_), the one such op Python syntax calls with a
  /// scalar first (`2.5 // x` traces to floor_divide(%c, %x); `2.5 + x`,
  /// `2.5 * x` put the tensor first). Elsewhere a 0-dim tensor constant as
  /// the first operand is as likely a tensor, and both readings must agree.
  std::vector<uint8_t> scalarFirstBySyntax;
  /// By kind: aten::add/sub/mul/div, whose 0-dim tensor constant `other`
  /// TorchScript's graph executor turns into a Python scalar (TensorConstantPolicy::Runtime).
  std::vector<uint8_t> scalarizesOther;
  bool anyKindMutatesLists = false; ///< some overload of some kind has a `t[](a!)` argument
  bool anyKindMutatesTensors = false; ///< some overload of some kind is in place (Schema::inPlace)
  /// Kept plans of graphs with in-place kinds: computed here, not per call.
  std::optional<InPlaceUses> inPlaceUses;
  /// By value id: the output of prim::Constant[value={number}] (a 0-dim tensor literal).
  /// (bytes, not bits: read for every op argument.) kSharedLiteral: used by
  /// more than one node. The tracer makes a fresh constant for each Python
  /// scalar it meets, but one constant for a tensor (a module attribute,
  /// `torch.tensor(1.5, dtype=torch.float64)`) however often it is used; a
  /// single use cannot tell the two apart.
  std::vector<uint8_t> scalarTensorLiteral;
  static constexpr uint8_t kSharedLiteral = 2;
  /// By value id: a list read as written (aliased and mutated); empty: none.
  std::vector<bool> staleLists;
  /// The written types of the graph inputs, by position (empty: not computed).
  std::vector<Value> inputs;

  /// Kept plans: the state a call starts from (by value id): the inputs'
  /// written types and every top-level fixed value already in place, with
  /// the reasons Solver::set would give them. Top-level blocks are never
  /// re-visited or marked unreached before their nodes run, so the solver
  /// skips those nodes (isPreplaced). Empty for a per-call plan.
  std::vector<Value> initialValues;
  std::vector<UnknownReason> initialReasons;
  bool isPreplaced(ir::NodeId n) const { return !preplaced_.empty() && preplaced_[n]; }

  /// A node output whose value never depends on the analysis state.
  struct Fixed {
    Value value;
    UnknownReason reason = UnknownReason::None;
  };
  /// The fixed value of `n`'s only output (prim::Constant, prim::GetAttr, a
  /// list of constants), or null (not one, or not computed).
  const Fixed *fixedOf(ir::NodeId n) const {
    if (fixedIndex_.empty() || fixedIndex_[n] == kNotFixed) return nullptr;
    return &fixed_[fixedIndex_[n]];
  }

  /// The op node's site (kept plans, ops with a constant argument), or null.
  const OpSite *siteOf(ir::NodeId n) const {
    if (siteIndex_.empty() || siteIndex_[n] == kNotFixed) return nullptr;
    return &sites_[siteIndex_[n]];
  }

private:
  void classifyKinds(const ir::Graph &g);
  void findFixedValues(const ir::Graph &g);
  void findOpSites(const ir::Graph &g);
  void markSharedLiterals(const ir::Graph &g);
  void buildInitialState(const ir::Graph &g);
  void addFixed(ir::NodeId n, Value v, UnknownReason why);

  const ir::Graph *graph_;
  const Semantics *semantics_;
  const Registry *registry_ = nullptr; ///< set by classifyKinds
  std::shared_ptr<const Semantics> keptSemantics_; ///< set for a kept plan
  size_t numNodes_, numValues_;
  bool sizes_ = true;
  static constexpr uint32_t kNotFixed = UINT32_MAX;
  std::vector<uint32_t> fixedIndex_; ///< by node id: index into fixed_, or kNotFixed (empty: none computed)
  std::vector<Fixed> fixed_;
  std::vector<uint8_t> preplaced_;   ///< by node id: its output is in initialValues
  std::vector<uint32_t> siteIndex_; ///< by node id: index into sites_, or kNotFixed (empty: none)
  std::vector<OpSite> sites_;
};

/// The reason Solver::set keeps for a value set with reason `why`: none for a
/// fully known tensor, an unknown input's for a tensor set without one.
inline UnknownReason storedReason(const Value &v, UnknownReason why) {
  if (v.isTensor() && fullyKnown(v)) return UnknownReason::None;
  if (v.isTensor() && why == UnknownReason::None) return UnknownReason::UnknownInput;
  return why;
}

/// The value of prim::Constant's output typed `t` (attribute `value`: `a`, null if absent).
GraphPlan::Fixed constantValue(const ir::Attribute *a, const ir::TypeExpr &t);

/// Lists that may change behind an alias, by value id (mutation.cpp); empty
/// when no list of the graph is mutated.
std::vector<bool> findStaleListAliases(const ir::Graph &g, const GraphPlan &plan);

} // namespace dtf::refine
