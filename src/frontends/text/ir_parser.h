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

/// What a hostile input may not exceed (graph/graph.h's defaults); beyond,
/// parseIR refuses it with an IRSyntaxError instead of reading on.
struct ParseLimits {
  size_t maxNodes = kMaxNodes;
  size_t maxListLength = kMaxListLength;
};

/// Parse a whole graph; throws IRSyntaxError on malformed input, or on input
/// beyond `limits` (nesting: kMaxNesting).
std::unique_ptr<Graph> parseIR(std::string_view text, const ParseLimits &limits = {});

} // namespace dtf::ir
