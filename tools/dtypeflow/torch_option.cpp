//===- tools/dtypeflow/torch_option.cpp - --torch and --rules on every subcommand -===//
#include "commands.h"

#include "ops/cpu_capability.h"

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

/// The door's semantics, made once: a rule file's problems go to stderr a
/// line each, the count is the error (exit 2); --cpu and --kernels set the
/// context over the version's (or the rule files') semantics.
const api::SemanticsRef &semanticsRef(SemanticsOption &option) {
  if (option.ref) return option.ref;
  api::SemanticsRef ref;
  try {
    ref = api::semantics(option.torch, option.ruleFiles);
  } catch (const api::InputError &e) {
    std::string m = e.what();
    size_t nl = m.rfind('\n');
    if (nl == std::string::npos) throw;
    fmt::print(stderr, "{}\n", m.substr(0, nl));
    throw UsageError(m.substr(nl + 1));
  }
  try {
    ref = api::semanticsIn(std::move(ref), option.cpu, option.kernels);
  } catch (const api::InputError &e) {
    throw UsageError(e.what());
  }
  option.ref = std::move(ref);
  return option.ref;
}

const Semantics &semanticsOf(SemanticsOption &option) { return *semanticsRef(option); }

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

} // namespace dtf::cli
