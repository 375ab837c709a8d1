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

const Semantics &semanticsOf(const std::string &torch) { return api::semanticsOf(torch); }

} // namespace dtf::cli
