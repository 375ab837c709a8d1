//===- refine/solver.h - the refinement solver (internal) -------*- C++ -*-===//
//
// State and control flow of the analysis; the transfer functions for prim
// ops (prim_transfer.cpp) and for schema'd ops (op_transfer.cpp) are member
// functions defined in their own files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "refine/graph_plan.h"
#include "refine/list_interner.h"

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>

namespace dtf::refine {

/// A Python index (negative from the end) into a sequence of `size`, or
/// nullopt when unknown or out of range.
inline std::optional<int64_t> normIndex(std::optional<int64_t> i, size_t size) {
  if (!i) return std::nullopt;
  int64_t k = *i < 0 ? *i + static_cast<int64_t>(size) : *i;
  if (k < 0 || k >= static_cast<int64_t>(size)) return std::nullopt;
  return k;
}

/// A diagnostic of one evaluation, emitted on the node that ran it.
struct PendingDiag {
  Severity severity;
  std::string category, message;
};

/// The autocast context ops run in (Options::autocast) and the version whose lists apply.
struct AutocastIn {
  AutocastContext ctx;
  TorchVersion torch;
};

/// The result of running one reading of a node's arguments.
struct Evaluation {
  const Schema *schema = nullptr;
  std::vector<Value> outputs;
  std::vector<UnknownReason> reasons;
  std::vector<PendingDiag> diags;
  bool resolved = false; ///< `schema` ran (its Schema::inPlace and mutatesList apply)
  bool unbacked = false; ///< outputs hold data-dependent size placeholders (InferOutcome::unbacked)
};

/// May this op change the shape of its mutated argument `arg` in place? An
/// `out=` argument (resized), or self of unsqueeze_, squeeze_, transpose_,
/// t_, swapdims_/swapaxes_, as_strided_, resize_, resize_as_, set_; any other
/// in-place op keeps self's shape (elementwise ops broadcast into it).
bool mayReshapeInPlace(const Registry &registry, const Schema &s, uint32_t arg);

class Solver {
public:
  Solver(const ir::Graph &g, const Options &opts, Result &out);
  ~Solver();
  void run();

  // --- state --------------------------------------------------------------
  const Value &get(ir::ValueId v) const { return out_.values[v]; }
  /// Overwrite a value's state (counts a change when it differs).
  void set(ir::ValueId v, Value &&val, UnknownReason why = UnknownReason::None);
  /// The same from a value kept elsewhere (a memo's output): copied straight
  /// into the state, with no temporary (a by-value copy stalled on the stack).
  void set(ir::ValueId v, const Value &val, UnknownReason why = UnknownReason::None);
  /// Join into a value's state (list mutation).
  void joinInto(ir::ValueId v, const Value &val);
  void diag(Severity s, ir::NodeId n, std::string category, std::string message,
            ir::ValueId v = ir::kNoId);
  /// Forget the diagnostics reported since `mark` (a loop visit that was
  /// not on the fixpoint state), so a later visit may report them again.
  void dropDiagnosticsFrom(size_t mark);
  static std::string diagnosticKey(ir::NodeId n, std::string_view category, std::string_view message);
  /// The coarse value of a written type (kind only, no dtype/rank).
  Value coarse(ir::ValueId v) const;

  const ir::Graph &g;
  const Options &opts;
  const Semantics &semantics_; ///< Options::semantics
  /// Options::autocast with the version, or null outside autocast.
  const AutocastIn *autocastIn() const { return autocast_ ? &*autocast_ : nullptr; }

private:
  // --- control flow (solver.cpp) -----------------------------------------
  /// Returns false when the block ends in a raise (its returns are dead).
  bool visitBlock(ir::BlockId b, int depth);
  bool visitNode(ir::NodeId n, int depth);
  /// Options::valueFacts: set `n`'s outputs that have one; true when all had one.
  bool applyFacts(ir::NodeId n);
  void visitIf(ir::NodeId n, int depth);
  void visitLoop(ir::NodeId n, int depth);
  void visitAutocastRegion(ir::NodeId n, int depth);
  void markUnsupported(ir::NodeId n, int depth);
  void checkWrittenType(ir::ValueId v);
  void markUnreached(ir::BlockId b, int depth);
  bool definedInside(ir::ValueId v, ir::BlockId b) const;
  /// Is `v` used after node `n` (or again, in a loop)? (the plan's facts, or this call's)
  bool usedAfter(ir::ValueId v, ir::NodeId n);
  /// An in-place op at `n` gave `in` (another) rank `now`: every other value
  /// that may be the same tensor object, or hold it, and is read later, may
  /// have that rank too (mutation.cpp).
  void widenTensorAliases(ir::ValueId in, ir::NodeId n, const Value &now);

  // --- transfer functions -------------------------------------------------
  /// prim ops handled without a schema; false if `n` is not one of them.
  bool transferPrim(ir::NodeId n);
  /// `prim::fork_N`: refine the graph's section of that name on the
  /// arguments (a nested refineGraph); aten::wait reads its result.
  void transferFork(ir::NodeId n);
  void transferWait(ir::NodeId n);
  void transferConstant(ir::NodeId n);
  /// Set `n`'s only output from the plan when it kept its value; false otherwise.
  bool setFixed(ir::NodeId n);
  /// prim::ListConstruct / TupleConstruct result, interned by element values.
  Value constructed(const ir::Node &node, bool tuple);
  /// Every other op: overload resolution + rule library (op_transfer.cpp).
  void transferOp(ir::NodeId n);
  bool isWrappedScalarConstant(ir::ValueId v) const;
  /// `v`, an output of node `n`, with its data-dependent sizes named: one
  /// unbacked symbol per node and placeholder (op_transfer.cpp).
  Value namedUnbacked(ir::NodeId n, const Value &v);
  /// TensorConstantPolicy::Runtime: `asTensor` redone with the 0-dim tensor
  /// literal `other` of add/sub/mul/div.Tensor read as the Python scalar
  /// TorchScript's CanonicalizeOps makes of it.
  const Evaluation &scalarizedOther(ir::NodeId n, const Evaluation &asTensor, std::span<const Value> args);
  KindClass kindClass(ir::NodeId n) const { return plan_->kindClass[g.nodes[n].kind]; }
  /// Every overload of a node kind (empty: unknown op).
  std::span<const Schema *const> overloadsOf(ir::KindId k) const { return plan_->overloads[k]; }
  bool isStaleList(ir::ValueId v) const { return !plan_->staleLists.empty() && plan_->staleLists[v]; }
  /// evaluate() through the memo: the same kind, output count and argument
  /// values always give the same evaluation (rules are pure functions).
  /// `hash`: the key's hash when the caller computed it and the memo missed.
  /// `resolved`: the overload, when the caller knows matching would choose it.
  const Evaluation &evaluateCached(ir::KindId k, std::span<const Value> args, std::span<const Value> matchArgs,
                                   bool matchIsArgs, size_t numOutputs, std::optional<size_t> hash = std::nullopt,
                                   const Schema *resolved = nullptr);

  /// The memo's answer for an op node with a plan site (OpSite), keyed by its
  /// signature; null when a varying argument is top (general path) or
  /// bottom (`unreached`).
  const Evaluation *siteEvaluation(ir::NodeId n, const OpSite &site, bool &unreached);
  bool lastSiteMissed_ = false; ///< siteEvaluation filled args_ with the node's arguments

  std::optional<GraphPlan> ownPlan_; ///< built here when Options::plan is null
  const GraphPlan *plan_;
  std::optional<AutocastIn> autocast_;
  std::shared_ptr<EvalMemo> memo_; ///< opts.memo, or one of this run's own
  std::vector<Value> args_, matchArgs_, wargs_; ///< scratch of transferOp (not re-entrant)
  std::vector<const Value *> argPtrs_;
  Evaluation joinedEval_; ///< scratch of transferOp (Strict policy, rare): kept off its stack frame
  std::optional<InPlaceUses> ownUses_; ///< when the plan has none: built on the first need
  std::vector<ir::ValueId> tensorAliasClass_; ///< by value id: may-alias class (widenTensorAliases' first need)
  std::vector<std::vector<ir::ValueId>> tensorAliasMembers_; ///< by class root: its values

  Result &out_;
  std::vector<ir::ValueId> mutated_; ///< lists grown by mutation, in order (loop convergence)
  uint64_t visits_ = 0, visitBudget_ = 0;
  std::vector<uint32_t> factOf_; ///< by value id: index into Options::valueFacts, or kNoId (empty: none)
  std::unordered_set<std::string> seen_; ///< dedup of diagnostics
  /// > 0 inside an If arm whose condition is unknown or a loop body that may
  /// not run: a raise found there is a warning (the arm may be dead code,
  /// e.g. torch.norm's scripted `nuc` branch), not an error.
  int uncertain_ = 0;
  /// By Future value (a fork node's output): what the forked call returns.
  std::unordered_map<ir::ValueId, std::pair<Value, UnknownReason>> futures_;
  /// Unbacked symbols by (node, placeholder ordinal): `u` + the index; the
  /// next index is past every `uK` the program's types and inputs use.
  std::map<std::pair<ir::NodeId, unsigned>, unsigned> unbackedIndex_;
  std::optional<unsigned> nextUnbacked_;
  /// Constructed lists/tuples, one payload per distinct element list.
  ListInterner interned_{1 << 14};
};

} // namespace dtf::refine
