//===- tools/dtypeflow/commands.h - the CLI's subcommands -------*- C++ -*-===//
#pragma once

#include "api/api.h"
#include "ops/semantics.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace dtf::cli {

/// Bad input from the user: printed as one line, exit code 2.
using UsageError = api::InputError;

/// Each file defines one `addXxx(app)` that registers its subcommand and
/// returns the action run when that subcommand is chosen (it returns the
/// process exit code).
using Action = std::function<int()>;

/// `--torch VERSION` (every subcommand has it): the option's text, to be
/// read with semanticsOf when the subcommand runs.
std::shared_ptr<std::string> addTorchOption(CLI::App *sub);
/// The semantics an --torch text names; UsageError for a version not modelled.
const Semantics &semanticsOf(const std::string &torch);

Action addResultType(CLI::App &app);
Action addPromoteTypes(CLI::App &app);
Action addInferOp(CLI::App &app);
Action addOps(CLI::App &app);
Action addAnnotate(CLI::App &app); // annotate + check (cmd_annotate.cpp)
Action addCheck(CLI::App &app);

} // namespace dtf::cli
