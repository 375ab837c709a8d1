//===- frontends/torch_mlir/mlir_refine.h - refine a whole module -*- C++ -*-===//
//
// Each function is a graph of its own. A private function (called only from
// this module) also learns from its call sites: an argument written without
// a dtype takes the join of what every `func.call` passes it (when all of
// them are known), as torch-mlir's RefineTypes did for private callees. Calls'
// results stay unknown (the callee's returns do not flow back yet).
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

} // namespace dtf::torch_mlir
