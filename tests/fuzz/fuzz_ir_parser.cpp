//===- tests/fuzz/fuzz_ir_parser.cpp - libFuzzer: IR text to the end -----===//
//
// Any text is either refused by the parser with an IRSyntaxError or parsed
// into a graph that the whole pipeline handles without crashing: printing
// (whose text parses again), refining under both PyTorch versions, the JSON
// report, the audit and explanations. Any other exception escapes and is
// reported by libFuzzer as a crash: the CLI would call it an internal error.
//
//===----------------------------------------------------------------------===//
#include "fuzz_pipeline.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  dtf::fuzz::parseAndRefine(text, dtf::refine::TensorConstantPolicy::Traced);
  return 0;
}
