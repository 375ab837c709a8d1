//===- tools/dtypeflow/torch_option.cpp - --torch on every subcommand -----===//
#include "commands.h"

#include <fmt/format.h>

namespace dtf::cli {

std::shared_ptr<std::string> addTorchOption(CLI::App *sub) {
  auto torch = std::make_shared<std::string>(name(kNewestTorch));
  sub->add_option("--torch", *torch,
                  fmt::format("answer as this PyTorch version does: {} (default {}, the newest)",
                              supportedTorchVersions(), name(kNewestTorch)))
      ->type_name("VERSION");
  return torch;
}

const Semantics &semanticsOf(const std::string &torch) {
  auto v = parseTorchVersion(torch);
  if (!v)
    throw UsageError(fmt::format("--torch {}: not a modelled PyTorch version (modelled: {})", torch.substr(0, 40),
                                 supportedTorchVersions()));
  return Semantics::of(*v);
}

} // namespace dtf::cli
