//===- api/program.h - a program file, from the user to the pass -*- C++ -*-===//
//
// The door every program goes through, for the CLI's annotate, check,
// explain and audit and for the Python module alike: reading a file (its
// reader chosen by content, stdin included), the options the user gives
// beside it (input types, a .pt2's re-typing, tensor constants), checking
// the result against the types the program records, and where a node is, as
// messages name it. Bad input throws InputError (exit 2).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "api/api.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtf::torch_mlir {
struct Module;
}

namespace dtf::api {

/// A program file that cannot be read (missing, malformed, a dtype the
/// version lacks): the message names the file (`FILE: error: ...`, or
/// `FILE:LINE:COL: error: ...`) and is shown as it is.
struct ProgramError : InputError {
  using InputError::InputError;
};

/// The exit codes of every command (README, "Exit codes").
enum ExitCode : int {
  kClean = 0,    ///< nothing wrong
  kRaises = 1,   ///< PyTorch would raise a dtype error, or `check` found a wrong value
  kBadInput = 2, ///< bad input (or the output could not be written)
  kInternal = 3, ///< a bug in dtypeflow
};

/// The semantics a call answers with, as the analyses take them
/// (refine::Options::semantics): a version's, or one with rule files layered on.
using SemanticsRef = std::shared_ptr<const Semantics>;
/// `--torch` and `--rules`: InputError as semanticsOf and semanticsWithRules.
SemanticsRef semantics(std::string_view torch, const std::vector<std::string> &ruleFiles = {});

/// Those semantics in an execution context: `cpu` a kind of CPU (`avx512`,
/// `host` for this machine's), `kernels` `cpu` or `meta`; empty keeps the
/// default. InputError naming the option for a name that is none (the CLI's
/// --cpu/--kernels, Python's cpu=/kernels=).
SemanticsRef semanticsIn(SemanticsRef ref, std::string_view cpu, std::string_view kernels);

/// A saved TorchScript module as IR text, or why not (the CLI runs its
/// dtypeflow-pt-import; the Python package goes through torch.jit.load).
struct ImportedModule {
  std::optional<std::string> text;
  std::string error;
};
using ModuleImporter = std::function<ImportedModule(const std::string &path)>;

struct LoadedProgram {
  std::shared_ptr<ir::Graph> graph;
  std::optional<pt2::Program> archive; ///< a .pt2's inputs and recorded types (graph moved out)
  /// Torch-dialect MLIR: the module, whose functions are refined together
  /// (api/mlir_program.h: refineMlir); `graph` is then its first function's.
  std::shared_ptr<const torch_mlir::Module> mlir;
  Reader reader = Reader::Text;
  std::string shown; ///< the file as messages name it (`<stdin>` for -)
};

/// Read `file` ("-": standard input, told apart by content as a file is);
/// `model` picks a .pt2's program (InputError for another kind of file);
/// `importer` reads a saved module (none: such a file is refused).
LoadedProgram readProgram(const std::string &file, const std::string &model, const Semantics &sem,
                          const ModuleImporter &importer = {});
/// IR text, or Torch-dialect MLIR told by content (`where` names it in messages).
LoadedProgram programFromText(const std::string &text, const std::string &where, const Semantics &sem);
/// An ExportedProgram's JSON alone.
LoadedProgram programFromExportJson(std::string_view json, const std::string &where, const Semantics &sem);

/// What the user says about a program beside its file.
struct ProgramOptions {
  std::vector<std::string> inputs; ///< `NAME=TYPE` (--input)
  ArchiveRetype retype;            ///< .pt2 only: --params, --float-inputs
  std::string tensorConstants;     ///< empty: `runtime` for a saved module, `traced` otherwise
  bool check = false;              ///< refine as `check` does (written types only compared)
};

/// The refinement options for `p`; InputError on a bad option (an input the
/// graph lacks, re-typing a program that is no .pt2 ...). Not for a module
/// (`p.mlir`): its functions are refined together by refineMlir.
refine::Options refineOptions(const LoadedProgram &p, const SemanticsRef &sem, const ProgramOptions &o);

/// Do the options change the type of a .pt2's input? Then what torch.export
/// recorded describes another program: nothing can be compared with it.
bool retypesArchive(const LoadedProgram &p, const ProgramOptions &o);

/// Does PyTorch raise a dtype error somewhere in `r`?
bool raises(const refine::Result &r);

/// `check`: every value with a written (IR text) or recorded (.pt2) type,
/// past the inputs, against the inference, in graph order.
struct CheckedValue {
  ir::ValueId value = ir::kNoId;
  refine::Verdict verdict = refine::Verdict::NotChecked;
  refine::SizeVerdict sizes = refine::SizeVerdict::NotChecked; ///< of a value right in dtype and rank
};
struct CheckReport {
  std::vector<CheckedValue> values; ///< Correct, Unknown and Wrong ones
  refine::CheckCounts counts;
  std::map<std::string, size_t> unmodelled; ///< not compared: a dtype dtypeflow does not model, by its name
  bool retyped = false;                     ///< a re-typed .pt2: nothing compared
};
CheckReport checkProgram(const LoadedProgram &p, const refine::Result &r, bool retyped);

/// A value the CPU kernels' answer calls wrong and the meta kernels' answer
/// matches: torch.export records what FakeTensor computes, which runs the
/// meta kernels, so the archive and eager CPU differ there.
struct MetaOnlyValue {
  ir::ValueId value = ir::kNoId;
  Value cpu, meta; ///< the two answers
};
/// `check` on a .pt2 whose semantics answer as the CPU kernels (the default):
/// refine again as the meta kernels do (--kernels meta); each value wrong in
/// `onCpu` that the meta answer gets right is counted correct and returned.
/// Nothing for IR text, a re-typed archive, or semantics already on meta.
/// `opts` answering as the meta kernels do (what FakeTensor runs and torch.export records), its
/// CPU kind kept; nullopt when they already do. A plan and a memo belong to the semantics they
/// were made with, so neither is kept.
std::optional<refine::Options> onMetaKernels(const refine::Options &opts);

std::vector<MetaOnlyValue> settleByMetaKernels(const LoadedProgram &p, const refine::Options &opts,
                                               const refine::Result &onCpu, CheckReport &report);

/// What a value was written or recorded as (`float32:r4`), empty if nothing.
std::string recordedText(const LoadedProgram &p, ir::ValueId v);

/// Where node `n` is, as messages name it: `FILE:LINE:COL` in IR text; a
/// .pt2 has no lines, so `FILE: node NAME` (its first result's name).
std::string where(const std::string &shown, const ir::Graph &g, ir::NodeId n);

} // namespace dtf::api
