//===- tools/dtypeflow/commands.h - the CLI's subcommands -------*- C++ -*-===//
#pragma once

#include "api/input_file.h"
#include "api/program.h"
#include "ops/autocast.h"
#include "ops/semantics.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace dtf::cli {

/// Bad input from the user: printed as one line, exit code 2 (the door's
/// own error, so what src/api throws needs no translation).
using UsageError = api::InputError;
using api::shownName;

/// Each file defines one `addXxx(app)` that registers its subcommand and
/// returns the action run when that subcommand is chosen (it returns the
/// process exit code).
using Action = std::function<int()>;

/// `--torch VERSION` and `--rules FILE` (repeatable): the semantics a
/// subcommand answers with, read by semanticsOf when it runs.
struct SemanticsOption {
  std::string torch;
  std::vector<std::string> ruleFiles;
  std::string cpu;       ///< `--cpu KIND|host`; empty: any CPU
  std::string kernels;   ///< `--kernels cpu|meta`; empty: cpu
  api::SemanticsRef ref; ///< made by semanticsOf on first use (rule files, then --cpu/--kernels)
  std::string autocast;  ///< --autocast DEVICE:DTYPE (addAutocastOption), empty: none
};
/// Adds both options (every subcommand has them).
std::shared_ptr<SemanticsOption> addTorchOption(CLI::App *sub);
/// --autocast DEVICE:DTYPE (annotate, check, explain, audit, infer-op): run inside torch.autocast.
void addAutocastOption(CLI::App *sub, SemanticsOption &option);
/// The --autocast context for the option's version; nullopt without one; a UsageError when not one it takes.
std::optional<AutocastContext> autocastOf(SemanticsOption &option);
/// The version's semantics, with the rule files' rules layered on. A version
/// not modelled is a UsageError; so is a rule file with problems, after each
/// is printed as `file:line: error: ...` (exit 2).
const Semantics &semanticsOf(SemanticsOption &option);
/// The same, as the door (src/api) and refine::Options::semantics take it.
const api::SemanticsRef &semanticsRef(SemanticsOption &option);

Action addResultType(CLI::App &app);
Action addPromoteTypes(CLI::App &app);
Action addInferOp(CLI::App &app);
Action addOps(CLI::App &app);
Action addAnnotate(CLI::App &app); // annotate + check (cmd_annotate.cpp)
Action addCheck(CLI::App &app);
Action addVersions(CLI::App &app); // cmd_versions.cpp
Action addExplain(CLI::App &app); // cmd_explain.cpp
Action addAudit(CLI::App &app);   // cmd_audit.cpp

} // namespace dtf::cli
