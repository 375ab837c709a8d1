//===- frontends/torch_mlir/mlir_printer.h - refined Torch-dialect MLIR -*- C++ -*-===//
//
// The module as read, with every result type dtypeflow refines spliced in
// (`!torch.vtensor` -> `!torch.vtensor<*,f32>` or `<[?,?],f32>`), the
// operand types of the torch ops that read them rewritten to match, and a
// `torch.tensor_static_info_cast` back to the written type before every use
// whose type must not change (a `return` of the function's declared type,
// func.call, other dialects' ops, torch.prim.If.yield against the If's
// result type), as torch-mlir's own refinement does. Everything else is
// printed byte for byte as read.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/torch_mlir/mlir_reader.h"
#include "refine/check.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dtf::torch_mlir {

/// `results[i]` refines `m.functions[i]`.
std::string annotateModule(const Module &m, const std::vector<refine::Result> &results);

/// One result whose written type states a dtype, against the inference.
struct StatedType {
  size_t def = 0;
  refine::Verdict verdict = refine::Verdict::NotChecked;
  /// The sizes written (or bound by torch.bind_symbolic_shape) against the inferred ones.
  refine::SizeVerdict sizes = refine::SizeVerdict::NotChecked;
};
/// The sizes `d`'s type states: its graph value's (with what torch.bind_symbolic_shape bound)
/// when that is the type written there, else the written text's.
Dims statedSizes(const ir::Graph &g, const SsaDef &d);

/// Every result of `f` whose written type states a dtype (`<*,f32>`,
/// `<[2],si64>`): Correct when dtypeflow infers that dtype (and the written
/// rank, where sizes are written and dtypeflow knows the rank), Wrong when it
/// infers another, Unknown otherwise. Constants and casts of inputs are not compared.
std::vector<StatedType> compareStated(const Function &f, const refine::Result &r);

/// `{"name", "split", "values": {SSA name: {"dtype", "rank"}}, "diagnostics"}`
/// for one function (the reader's diagnostics first).
nlohmann::json functionJson(const Function &f, const refine::Result &r);

} // namespace dtf::torch_mlir
