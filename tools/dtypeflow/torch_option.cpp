//===- tools/dtypeflow/torch_option.cpp - --torch and --rules on every subcommand -===//
#include "commands.h"


#include <fmt/format.h>

namespace dtf::cli {

std::shared_ptr<SemanticsOption> addTorchOption(CLI::App *sub) {
  auto option = std::make_shared<SemanticsOption>();
  option->torch = std::string(name(kNewestTorch));
  sub->add_option("--torch", option->torch,
                  fmt::format("answer as this PyTorch version does: {} (default {}, the newest)",
                              supportedTorchVersions(), name(kNewestTorch)))
      ->type_name("VERSION");
  // One file per --rules (repeat the flag), so `--rules a.toml FILE` leaves FILE alone.
  sub->add_option("--rules", option->ruleFiles,
                  "rules for custom ops (TOML, docs/custom-ops.md), layered over the built-in ones; repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false);
  return option;
}

/// The door's semantics, made once: a rule file's problems go to stderr a
/// line each, the count is the error (exit 2).
const api::SemanticsRef &semanticsRef(SemanticsOption &option) {
  if (option.ref.semantics) return option.ref;
  try {
    option.ref = api::semantics(option.torch, option.ruleFiles);
  } catch (const api::InputError &e) {
    std::string m = e.what();
    size_t nl = m.rfind('\n');
    if (nl == std::string::npos) throw;
    fmt::print(stderr, "{}\n", m.substr(0, nl));
    throw UsageError(m.substr(nl + 1));
  }
  return option.ref;
}

std::shared_ptr<const Semantics> semanticsWithRules(SemanticsOption &option) { return semanticsRef(option).withRules; }

const Semantics &semanticsOf(SemanticsOption &option) { return *semanticsRef(option); }

} // namespace dtf::cli
