//===- tests/fuzz/fuzz_torch_mlir.cpp - libFuzzer: Torch-dialect MLIR -----===//
//
// Any text is either refused by the Torch-dialect reader with an
// IRSyntaxError or read into functions that every later step handles
// without crashing: refining each under every modelled version, printing the
// module back with refined types (which must read again, with as many
// functions), the JSON report and the stated-type comparison.
//
//===----------------------------------------------------------------------===//
#include "frontends/torch_mlir/mlir_printer.h"
#include "frontends/torch_mlir/mlir_reader.h"
#include "frontends/torch_mlir/mlir_refine.h"
#include "ops/semantics.h"
#include "refine/refine.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace dtf;
  std::string text(reinterpret_cast<const char *>(data), size);
  for (TorchVersion v : kTorchVersions) {
    torch_mlir::Module m;
    try {
      m = torch_mlir::readModule(text, Semantics::of(v));
    } catch (const ir::IRSyntaxError &) {
      return 0; // refused with a message: fine
    }
    refine::Options opts;
    opts.semantics = Semantics::shared(v);
    std::vector<refine::Result> results = torch_mlir::refineModule(m, opts);
    for (size_t i = 0; i < m.functions.size(); ++i) {
      (void)torch_mlir::compareStated(m.functions[i], results[i]);
      (void)torch_mlir::functionJson(m.functions[i], results[i])
          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    std::string printed = torch_mlir::annotateModule(m, results);
    try {
      torch_mlir::Module again = torch_mlir::readModule(printed, Semantics::of(v));
      if (again.functions.size() != m.functions.size()) {
        std::fprintf(stderr, "printed module reads back with %zu functions, not %zu:\n%s\n", again.functions.size(),
                     m.functions.size(), printed.c_str());
        std::abort();
      }
    } catch (const ir::IRSyntaxError &e) {
      std::fprintf(stderr, "printed module does not read again (%u:%u: %s):\n%s\n", e.line, e.col, e.what(),
                   printed.c_str());
      std::abort();
    }
  }
  return 0;
}
