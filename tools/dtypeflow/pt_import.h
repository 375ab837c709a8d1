//===- tools/dtypeflow/pt_import.h - run dtypeflow-pt-import -----*- C++ -*-===//
#pragma once

#include <optional>
#include <string>

namespace dtf::cli {

struct ImportResult {
  std::optional<std::string> text; ///< IR text of the module's forward graph
  std::string error;
};

/// Convert a saved TorchScript module to IR text with the sibling
/// `dtypeflow-pt-import` executable (found next to this binary, or on PATH).
ImportResult importModule(const std::string &path);

} // namespace dtf::cli
