//===- frontends/torch_mlir/mlir_writer.h - a .pt2 program as Torch-dialect MLIR -*- C++ -*-===//
//
// `dtypeflow annotate X.pt2 --format torch-mlir`: the exported program as one
// `func.func @main` over the graph inputs (parameters, buffers and constants
// are arguments, as the archive lists them, not resource literals), every
// node an op in MLIR's generic form (`"torch.aten.linear"(...)`), so that
// any MLIR parser reads it (Debian's mlir-opt 16 included). Tensor types are
// value tensors: sizes from the archive's records, dtypes inferred
// (`unk` where unknown). Symbolic sizes (an export with dynamic_shapes) are
// written as torch-mlir's FX importer does: a `torch.symbolic_int` per
// symbol with its range_constraints, a `torch.bind_symbolic_shape` after
// each value whose sizes use them (skipped where a size has no affine
// spelling: Max, Min). Not written yet, refused with a message naming the
// node: control flow (cond, while_loop, map), in-place ops (torch-mlir
// declares them on non-value tensors only), tensor constants, ops the
// reader could not map, Python-level ops on SymInts whose operands' kinds are
// unknown (known ones are written as the overload they name: `_operator.mul`
// of two ints is `torch.aten.mul.int`), and a default argument
// written in a way the writer does not know (not a number, bool, string, None
// or list of ints).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/pt2/pt2_reader.h"
#include "graph/graph.h"
#include "refine/refine.h"

#include <string>

namespace dtf {
class Semantics;
}

namespace dtf::torch_mlir {

struct WriteResult {
  std::string text;  ///< the module, when written
  std::string error; ///< why not
};

/// `semantics` (the version's, with --rules): its schemas give the arguments
/// the archive leaves out at their defaults (torch-mlir's ops take every
/// argument, so they are written as constants), its rules the dtype of an
/// in-place op's functional twin (cast back to self's where they differ).
WriteResult writeProgram(const ir::Graph &g, const pt2::Program &p, const refine::Result &r, const Semantics &semantics);

} // namespace dtf::torch_mlir
