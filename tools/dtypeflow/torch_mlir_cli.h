//===- tools/dtypeflow/torch_mlir_cli.h - annotate/check Torch-dialect MLIR -*- C++ -*-===//
//
// A .mlir file (told by content: module / func.func, pretty or generic form)
// holds several functions, each refined as a graph of its own; annotate
// prints the module back with refined types, check compares the types it
// states. Called from cmd_annotate.cpp's per-file loops.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "output.h"
#include "program_input.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace dtf::cli {

/// Torch-dialect MLIR, by content (or, for a file too short to tell, a `.mlir` name).
bool isTorchMlirFile(const std::string &file);

/// `annotate` of one .mlir file: the module (format "ir") or JSON
/// {"functions": [...]} written to `out` (or, with `several`, appended to
/// `files`); diagnostics and a summary on stderr. The exit code.
/// `read`: the module already read (standard input); null: read from `file`.
int annotateTorchMlir(const CommonFlags &flags, const std::string &file, const std::string &format, bool several,
                      Output &out, nlohmann::ordered_json &files,
                      std::shared_ptr<const torch_mlir::Module> read = nullptr);

/// `check` of one .mlir file: every result whose written type states a dtype.
int checkTorchMlir(const CommonFlags &flags, const std::string &file, bool json, bool several, Output &out,
                   nlohmann::ordered_json &files, std::shared_ptr<const torch_mlir::Module> read = nullptr);

/// `annotate X.pt2 --format torch-mlir`: the refined program as Torch-dialect MLIR
/// (torch_mlir/mlir_writer.h), or a message naming what is not written yet (exit 2).
int writeTorchMlir(const std::string &file, const Loaded &l, const refine::Result &r, const Semantics &sem, Output &out);

} // namespace dtf::cli
