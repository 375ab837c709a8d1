//===- frontends/text/ir_printer.h - print IR text and JSON reports -*- C++ -*-===//
#pragma once

#include "graph/graph.h"
#include "refine/refine.h"

#include <nlohmann/json.hpp>
#include <functional>
#include <string>
#include <string_view>

namespace dtf::ir {

/// TorchScript IR text that torch::jit::parseIR reads back (with
/// parse_tensor_constants for `{2.5}` constants). With `refined`, every
/// non-input value's type is the inferred one (`Float(*, *)`, unknown stays
/// `Tensor`; a dtype known without its rank is said in a comment after the
/// node, `# dtypeflow: %y is Float, rank unknown`); graph inputs keep their
/// written types unless the refinement started from others (`--input`).
/// Nodes keep torch's source comments (`# model.py:12:0`). Without
/// `refined`, types as written.
std::string printIR(const Graph &g, const refine::Result *refined = nullptr);

/// Where printIR's streaming form sends its text, piece by piece, in order.
using TextSink = std::function<void(std::string_view)>;
/// The same text handed to `sink` in pieces of about 1 MB as it is made:
/// memory stays flat however large the graph.
void printIR(const Graph &g, const refine::Result *refined, const TextSink &sink);

/// `{"values": {NAME: {"dtype", "rank"}}, "diagnostics": [...]}` over every
/// tensor-typed value (graph inputs too), in graph order (an ordered_json
/// keeps the order its keys were added in).
nlohmann::ordered_json reportJson(const Graph &g, const refine::Result &r, const std::string &file = {});

/// `float32` / null, as in the JSON report.
nlohmann::json dtypeJson(const Value &v);
/// A tensor's sizes (`[2, "s0", "2*s0 + 1", null]`: ints, symbolic
/// expressions, null for an unknown dim), or null when no size is known.
nlohmann::json shapeJson(const Value &v);
/// `j` with "shape" (shapeJson) when some size of `v` is known: reports
/// keep their keys for programs whose sizes are not known.
template <typename Json> void addShapeJson(Json &j, const Value &v) {
  if (v.hasKnownDims()) j["shape"] = shapeJson(v);
}
nlohmann::json rankJson(const Value &v);

} // namespace dtf::ir
