//===- frontends/torch_mlir/mlir_refine.h - refine a whole module -*- C++ -*-===//
//
// Each function is a graph of its own; what its graph does not model is given
// to the pass as facts (refine::Options::valueFacts), found by a fixpoint over
// the module, as torch-mlir's dataflow analysis followed it:
//
//  - a block after a region's first (`^bb1(%x: !torch.vtensor)`) takes, for
//    each argument, the join of what every branch to it passes (`cf.br`,
//    `cf.cond_br`); a block entered from an op whose passed values are not
//    read (cf.switch ...) keeps its written types;
//  - a func.call's results take the join of the callee's refined returns (over
//    every `return` of its body). A call inside a cycle of calls (recursion),
//    to a declaration or to a function not in the module keeps the written
//    types (unknown dtype), with a diagnostic;
//  - a private function (called only from this module) takes, for each
//    argument written without a dtype, the join of what every `func.call`
//    passes it (when that knows a dtype), as RefineTypes did for private callees.
//
// Every fact starts at "not reached" and only grows (each round joins the new
// answer into it), so the iteration ends: the lattice has finite height. Past
// a bound of rounds every fact is widened to the written types (sound).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/torch_mlir/mlir_reader.h"
#include "refine/refine.h"

#include <vector>

namespace dtf::torch_mlir {

/// `opts.inputTypes` (`--input NAME=TYPE`) types the argument NAME of every
/// function that has one, over what call sites say. One result per function.
std::vector<refine::Result> refineModule(const Module &m, const refine::Options &opts);

/// The same, with the options each function was refined under (its facts
/// and call-site types in): explain and audit re-run the pass's reasoning on them.
struct RefinedModule {
  std::vector<refine::Options> options;
  std::vector<refine::Result> results;
};
RefinedModule refineModuleWithOptions(const Module &m, const refine::Options &opts);

} // namespace dtf::torch_mlir
