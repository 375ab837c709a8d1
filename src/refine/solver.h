//===- refine/solver.h - the refinement solver (internal) -------*- C++ -*-===//
//
// State and control flow of the analysis; the transfer functions for prim
// ops (prim_transfer.cpp) and for schema'd ops (op_transfer.cpp) are member
// functions defined in their own files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "refine/refine.h"

#include <unordered_set>

namespace dtf::refine {

class Solver {
public:
  Solver(const ir::Graph &g, const Options &opts, Result &out);
  void run();

  // --- state --------------------------------------------------------------
  const Value &get(ir::ValueId v) const { return out_.values[v]; }
  /// Overwrite a value's state (counts a change when it differs).
  void set(ir::ValueId v, Value val, UnknownReason why = UnknownReason::None);
  /// Join into a value's state (list mutation).
  void joinInto(ir::ValueId v, const Value &val);
  void diag(Severity s, ir::NodeId n, std::string category, std::string message,
            ir::ValueId v = ir::kNoId);
  /// The coarse value of a written type (kind only, no dtype/rank).
  Value coarse(ir::ValueId v) const;

  const ir::Graph &g;
  const Options &opts;

private:
  // --- control flow (solver.cpp) -----------------------------------------
  /// Returns false when the block ends in a raise (its returns are dead).
  bool visitBlock(ir::BlockId b, int depth);
  bool visitNode(ir::NodeId n, int depth);
  void visitIf(ir::NodeId n, int depth);
  void visitLoop(ir::NodeId n, int depth);
  void checkWrittenTypes(ir::NodeId n);
  void markUnreached(ir::BlockId b, int depth);
  bool definedInside(ir::ValueId v, ir::BlockId b) const;

  // --- transfer functions -------------------------------------------------
  /// prim ops handled without a schema; false if `n` is not one of them.
  bool transferPrim(ir::NodeId n);
  void transferConstant(ir::NodeId n);
  /// Every other op: overload resolution + rule library (op_transfer.cpp).
  void transferOp(ir::NodeId n);
  bool isWrappedScalarConstant(ir::ValueId v) const;

  Result &out_;
  int quiet_ = 0;        ///< >0 while iterating a loop to its fixpoint
  std::vector<ir::ValueId> mutated_; ///< lists grown by mutation, in order (loop convergence)
  uint64_t visits_ = 0, visitBudget_ = 0;
  std::unordered_set<std::string> seen_; ///< dedup of diagnostics
};

} // namespace dtf::refine
