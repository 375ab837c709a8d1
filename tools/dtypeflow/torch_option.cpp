//===- tools/dtypeflow/torch_option.cpp - --torch and --rules on every subcommand -===//
#include "commands.h"

#include "ops/cpu_capability.h"
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
  sub->add_option("--cpu", option->cpu,
                  fmt::format("answer as on this kind of CPU: {}, or host (this machine's). Without it, an outcome "
                              "that differs between CPUs (a oneDNN bfloat16/float16 path) is a possible error "
                              "naming the CPUs it is raised on",
                              cpuKindNames()))
      ->type_name("KIND");
  sub->add_option("--kernels", option->kernels,
                  "cpu (default: eager CPU kernels) or meta: answer as the meta kernels do, which FakeTensor runs "
                  "and torch.export records (a few give another dtype: the conformance report lists them)")
      ->type_name("cpu|meta");
  return option;
}

namespace {

/// `--cpu`'s kind; a UsageError for a name that is none.
CpuKind cpuOf(const SemanticsOption &option) {
  if (option.cpu == "host") return hostCpuKind();
  if (auto k = parseCpuKind(option.cpu)) return *k;
  throw UsageError(fmt::format("--cpu {}: not a kind of CPU (kinds: {}, or host)", option.cpu.substr(0, 40),
                               cpuKindNames()));
}

std::shared_ptr<const Semantics> userRules(SemanticsOption &option);

} // namespace

std::shared_ptr<const Semantics> semanticsWithRules(SemanticsOption &option) {
  auto rules = userRules(option);
  if (option.cpu.empty() && option.kernels.empty()) return rules;
  if (!option.onCpu) {
    ExecContext context;
    if (!option.cpu.empty()) context.cpu = cpuOf(option);
    if (!option.kernels.empty()) {
      auto k = parseKernels(option.kernels);
      if (!k) throw UsageError(fmt::format("--kernels {}: expected cpu or meta", option.kernels.substr(0, 40)));
      context.kernels = *k;
    }
    option.onCpu = rules ? Semantics::inContext(rules, context)
                         : Semantics::inContext(Semantics::of(*parseTorchVersion(option.torch)), context);
  }
  return option.onCpu;
}

namespace {

std::shared_ptr<const Semantics> userRules(SemanticsOption &option) {
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

} // namespace

const Semantics &semanticsOf(SemanticsOption &option) {
  if (auto s = semanticsWithRules(option)) return *s;
  return Semantics::of(*parseTorchVersion(option.torch));
}

} // namespace dtf::cli
