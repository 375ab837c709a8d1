//===- frontends/text/ir_parser.h - read TorchScript IR text ----*- C++ -*-===//
//
// Parses the text printed by `graph.str()` / accepted by torch::jit::parseIR
// (with `# source` comments and `, scope: ...` suffixes allowed) into an
// ir::Graph, without libtorch. Errors carry line and column.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/text/ir_lexer.h"
#include "graph/graph.h"

#include <memory>
#include <string_view>

namespace dtf::ir {

/// Parse a whole graph; throws IRSyntaxError on malformed input.
std::unique_ptr<Graph> parseIR(std::string_view text);

} // namespace dtf::ir
