//===- api/mlir_program.h - a Torch-dialect module through the door -*- C++ -*-===//
//
// A .mlir file (or module text, `str(torch_mlir_module)`) holds several
// functions, each refined as a graph of its own with the facts the module
// gives it (mlir_refine.h). This is the one place that reads and refines one
// for the CLI's annotate, check, explain and audit and for the Python
// package: each function comes out as a LoadedProgram of its own (its graph
// kept alive by the module), so the per-graph reports apply unchanged.
// Values are named by their SSA names: `%x`, or `@f:%x` where several
// functions have a `%x`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "api/program.h"
#include "frontends/torch_mlir/mlir_reader.h"

#include <memory>
#include <string>
#include <vector>

namespace dtf::api {

/// A module read and every function refined.
struct MlirProgram {
  std::shared_ptr<const torch_mlir::Module> module;
  std::string shown;                      ///< the file as messages name it
  refine::Options base;                   ///< what the module was refined under (refineMlirOnMeta)
  std::vector<refine::Options> options;   ///< per function: what it was refined under
  std::vector<refine::Result> results;    ///< per function
  size_t size() const { return results.size(); }
  const torch_mlir::Function &function(size_t i) const { return module->functions[i]; }
  /// Function `i` as a program of its own (reader TorchMlir; its graph shares the module's life).
  LoadedProgram program(size_t i) const;
  /// `name` of function `i`'s value as the user names it: `%x`, or `@f:%x` when several functions.
  std::string valueName(size_t i, const std::string &name) const;
};

/// Read a module from `file` ("-": standard input); ProgramError naming
/// FILE:LINE:COL when malformed.
std::shared_ptr<const torch_mlir::Module> readMlirModule(const std::string &file, const Semantics &sem);
/// Module text (`where` names it in messages).
std::shared_ptr<const torch_mlir::Module> mlirModuleFromText(std::string text, const std::string &where,
                                                             const Semantics &sem);

/// Refine every function under the user's options: `--input NAME=TYPE` types
/// the argument NAME of every function that has one (InputError when none
/// has); the .pt2 options are refused. `autocast` as refine::Options::autocast.
MlirProgram refineMlir(std::shared_ptr<const torch_mlir::Module> m, const std::string &shown, const SemanticsRef &sem,
                       const ProgramOptions &o, std::optional<AutocastContext> autocast = std::nullopt);

/// Every function refined again as the meta kernels answer: what FakeTensor
/// runs and torch.export records, and so what torch-mlir's FX importer writes
/// into a module's types. `check` counts a value right on either answer (as
/// settleByMetaKernels for an archive). nullopt when `p` was refined so already.
std::optional<std::vector<refine::Result>> refineMlirOnMeta(const MlirProgram &p);

/// The function and value `name` names: `%x`, `x`, or `@f:%x`. InputError
/// when no function has it, or several do and `@f:` does not say which.
std::pair<size_t, ir::ValueId> findMlirValue(const torch_mlir::Module &m, std::string name);

/// `check` of one function: every result whose written type states a dtype,
/// against the inference (torch_mlir::compareStated).
CheckReport checkMlirFunction(const MlirProgram &p, size_t i);

} // namespace dtf::api
