//===- tools/dtypeflow/program_input.h - reading a program to refine -*- C++ -*-===//
//
// What annotate, check, explain and audit share (defined in cmd_annotate.cpp):
// the FILE arguments and their options, loading a file (IR text, a saved .pt
// module, "-" for stdin) into a graph, the refinement options, and printing
// the diagnostics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "commands.h"

#include "archive_cli.h"
#include "frontends/pt2/pt2_reader.h"
#include "graph/graph.h"
#include "refine/refine.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtf::cli {

struct Loaded {
  std::unique_ptr<ir::Graph> graph;
  std::optional<pt2::Program> archive; ///< a .pt2's inputs, recorded types, reader diagnostics (graph moved out)
  int exitCode = 0; ///< non-zero: could not load (message printed)
};

/// A program file, its reader chosen by content: TorchScript IR text (or
/// "-": stdin), a saved .pt module, a torch.export .pt2 archive (`model`:
/// which of its programs).
Loaded load(const std::string &file, const std::string &model, const Semantics &semantics);

struct CommonFlags {
  std::shared_ptr<SemanticsOption> torch; ///< --torch and --rules
  std::vector<std::string> files; ///< addCommon(several = true)
  std::string file;               ///< addCommon(several = false)
  std::string tensorConstants; ///< empty: by the file (runtime for .pt, traced for IR text)
  std::vector<std::string> inputTypes;
  std::string model;    ///< .pt2: which models/NAME.json
  ArchiveRetype retype; ///< .pt2: --params, --float-inputs
  bool verbose = false;
};

/// FILE... (`several`: one or more), --torch, --tensor-constants, --input,
/// the .pt2 options, -v.
void addCommon(CLI::App *sub, CommonFlags &f, bool several = true);
/// The refinement options for one of the files.
refine::Options optionsFrom(const CommonFlags &f, const std::string &file);
/// Load `file` and finish the options that depend on its graph (--input
/// names, a .pt2's re-typing); UsageError on a bad option.
Loaded loadFor(const CommonFlags &flags, const std::string &file, refine::Options &opts);
/// Every --input must name a graph input (UsageError otherwise).
void resolveInputNames(const ir::Graph &g, refine::Options &o);
/// Errors and unusual warnings one by one on stderr; frequent ones counted.
void printDiagnostics(const std::string &file, const ir::Graph &g, const refine::Result &r, bool verbose);

} // namespace dtf::cli
