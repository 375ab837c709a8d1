//===- tests/fuzz/fuzz_pt2_json.cpp - libFuzzer: a .pt2's program JSON ----===//
//
// The ExportedProgram document of a torch.export archive (models/NAME.json)
// read into a graph: any text is either refused with a message or becomes a
// program the pass refines (PyTorch 2.14, whose schemas the reader maps
// targets with) and prints. Seeds: the model JSON of the committed archives.
//
//===----------------------------------------------------------------------===//
#include "fuzz_pipeline.h"

#include "frontends/pt2/pt2_reader.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view json(reinterpret_cast<const char *>(data), size);
  dtf::pt2::ReadResult r = dtf::pt2::readExportedProgram(json, "fuzz/models/model.json",
                                                               {.semantics = dtf::Semantics::shared(dtf::kNewestTorch)});
  if (r.program) dtf::fuzz::refineAll(*r.program->graph, dtf::refine::TensorConstantPolicy::Runtime);
  return 0;
}
