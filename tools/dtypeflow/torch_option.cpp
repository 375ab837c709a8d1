//===- tools/dtypeflow/torch_option.cpp - --torch and --rules on every subcommand -===//
#include "commands.h"

#include "ops/custom_rules.h"

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

// --autocast: a separate option, on the commands that run ops (not on promote, ops, versions).
void addAutocastOption(CLI::App *sub, SemanticsOption &option) {
  sub->add_option("--autocast", option.autocast,
                  "run inside torch.autocast(DEVICE, dtype=DTYPE): cpu:bfloat16, cuda:float16 ... (each op on that "
                  "version's autocast list casts its floating arguments first; README)")
      ->type_name("DEVICE:DTYPE");
}

std::optional<AutocastContext> autocastOf(SemanticsOption &option) {
  if (option.autocast.empty()) return std::nullopt;
  std::string error;
  auto ctx = AutocastContext::parse(option.autocast, semanticsOf(option).version(), error);
  if (!ctx) throw UsageError(error);
  return ctx;
}

std::shared_ptr<const Semantics> semanticsWithRules(SemanticsOption &option) {
  auto v = parseTorchVersion(option.torch);
  if (!v)
    throw UsageError(fmt::format("--torch {}: not a modelled PyTorch version (modelled: {})",
                                 option.torch.substr(0, 40), supportedTorchVersions()));
  if (option.ruleFiles.empty() || option.withRules) return option.withRules;
  RuleSet rules;
  std::vector<RuleSetError> errors;
  for (const std::string &file : option.ruleFiles)
    for (RuleSetError &e : rules.addFile(file)) errors.push_back(std::move(e));
  if (errors.empty()) {
    ExtendedSemantics ext = Semantics::extend(*v, rules);
    errors = std::move(ext.errors);
    option.withRules = std::move(ext.semantics);
  }
  if (!errors.empty()) {
    for (const RuleSetError &e : errors) fmt::print(stderr, "{}\n", e.str());
    throw UsageError(fmt::format("--rules: {} problem{} in the rule files", errors.size(), errors.size() == 1 ? "" : "s"));
  }
  return option.withRules;
}

const Semantics &semanticsOf(SemanticsOption &option) {
  if (auto s = semanticsWithRules(option)) return *s;
  return Semantics::of(*parseTorchVersion(option.torch));
}

} // namespace dtf::cli
