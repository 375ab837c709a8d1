//===- tools/dtypeflow/program_input.h - reading a program to refine -*- C++ -*-===//
//
// What annotate, check, explain and audit share (defined in cmd_annotate.cpp):
// the FILE arguments and their options, handed to the door (src/api/program.h)
// that reads the file and makes the refinement options, and printing the
// diagnostics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "commands.h"

#include "archive_cli.h"
#include "graph/graph.h"
#include "refine/refine.h"

#include <memory>
#include <string>
#include <vector>

namespace dtf::cli {

struct CommonFlags {
  std::shared_ptr<SemanticsOption> torch; ///< --torch and --rules
  std::vector<std::string> files; ///< addCommon(several = true)
  std::string file;               ///< addCommon(several = false)
  api::ProgramOptions program;    ///< --input, --params, --float-inputs, --tensor-constants
  std::string model;              ///< .pt2: which models/NAME.json
  bool verbose = false;
};

/// FILE... (`several`: one or more), --torch, --tensor-constants, --input,
/// the .pt2 options, -v.
void addCommon(CLI::App *sub, CommonFlags &f, bool several = true);

/// A program read through the door, with its refinement options.
struct Loaded {
  api::LoadedProgram program;
  refine::Options opts;
  bool retyped = false; ///< a .pt2 whose inputs the options re-type (api::retypesArchive)
};
/// Read `file` (its reader chosen by content; a saved module through
/// dtypeflow-pt-import) and make its options (`check`: as check refines).
/// Throws api::ProgramError (a file that cannot be read) or UsageError.
Loaded loadFor(CommonFlags &flags, const std::string &file, bool check = false);

/// A graph refined for a report (explain, audit): a file's program, or one
/// function of a Torch-dialect module, refined with the module's facts.
struct RefinedUnit {
  api::LoadedProgram program;
  refine::Options opts;
  refine::Result result;
  std::string function; ///< the module function's name; empty for a file's one program
};
/// Refine what `l` holds: its graph (moved out of `l`), or every function of
/// its module (api::refineMlir; `l.program` stays).
std::vector<RefinedUnit> refineLoaded(CommonFlags &flags, Loaded &l);

/// Errors and unusual warnings one by one on stderr; frequent ones counted
/// (`errorsOnly`: where PyTorch would raise, nothing else).
void printDiagnostics(const std::string &shown, const ir::Graph &g, const refine::Result &r, bool verbose,
                      bool errorsOnly = false);

/// The exit code of several files: the worst (2 bad input > 1 raises > 0).
inline int worst(int a, int b) { return std::max(a, b); }

} // namespace dtf::cli
