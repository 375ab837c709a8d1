//===- tests/fuzz/fuzz_module_text.cpp - libFuzzer: the .pt importer's text step ===//
//
// dtypeflow-pt-import prints a saved module's lowered graph (frozen tensor
// constants printed as data, `<Tensor>`, scope suffixes, Python ops) and the
// CLI parses that text and refines it as TorchScript runs the module
// (TensorConstantPolicy::Runtime). This target runs that step on texts
// seeded from the importer's own output (tests/fuzz/gen_module_seeds.py).
//
//===----------------------------------------------------------------------===//
#include "fuzz_pipeline.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  dtf::fuzz::parseAndRefine(text, dtf::refine::TensorConstantPolicy::Runtime);
  return 0;
}
