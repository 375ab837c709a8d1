//===- tests/fuzz/fuzz_pipeline.h - what the IR fuzz targets run -*- C++ -*-===//
#pragma once

#include "frontends/text/ir_parser.h"
#include "frontends/text/ir_printer.h"
#include "ops/semantics.h"
#include "refine/audit.h"
#include "refine/explain.h"
#include "refine/refine.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace dtf::fuzz {

/// Refine `g` under every modelled version, and run the printer, the JSON
/// report, the audit and a few explanations on each result.
inline void refineAll(const ir::Graph &g, refine::TensorConstantPolicy policy) {
  for (TorchVersion v : kTorchVersions) {
    refine::Options opts;
    opts.semantics = Semantics::shared(v);
    opts.tensorConstants = policy;
    refine::Result r = refine::refineGraph(g, opts);
    (void)ir::printIR(g, &r);
    (void)ir::reportJson(g, r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)refine::audit(g, r, opts);
    for (size_t i = 0; i < g.values.size() && i < 8; ++i)
      (void)refine::explain(g, r, opts, static_cast<ir::ValueId>(g.values.size() - 1 - i));
  }
}

/// Parse `text`; when it parses, print it (the printed text must parse
/// again) and refineAll it.
inline void parseAndRefine(std::string_view text, refine::TensorConstantPolicy policy) {
  std::unique_ptr<ir::Graph> g;
  try {
    g = ir::parseIR(text);
  } catch (const ir::IRSyntaxError &) {
    return; // refused with a message: fine
  }
  std::string printed = ir::printIR(*g);
  try {
    ir::parseIR(printed);
  } catch (const ir::IRSyntaxError &e) {
    std::fprintf(stderr, "printed graph does not parse again (%u:%u: %s):\n%s\n", e.line, e.col, e.what(),
                 printed.c_str());
    std::abort();
  }
  refineAll(*g, policy);
}

} // namespace dtf::fuzz
