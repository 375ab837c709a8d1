//===- tests/fuzz/fuzz_pt2_archive.cpp - libFuzzer: a .pt2 zip ------------===//
//
// The bytes of a file `dtypeflow annotate` reads by content: sniffFile tells
// a torch.export archive from a TorchScript zip and text, and readArchive
// reads the zip (from the mapped file, or by libzip; CRC-checked) and its
// program. Seeds: the committed
// archives (tests/pt2/archives). The bytes go to an in-memory file.
//
//===----------------------------------------------------------------------===//
#include "fuzz_pipeline.h"

#include "frontends/pt2/pt2_reader.h"

#include <cstdint>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const int fd = memfd_create("fuzz.pt2", 0);
  if (fd < 0) return 0;
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  (void)dtf::pt2::sniffFile(path);
  dtf::pt2::ReadResult r = dtf::pt2::readArchive(path, {.semantics = dtf::Semantics::shared(dtf::kNewestTorch)});
  if (r.program) dtf::fuzz::refineAll(*r.program->graph, dtf::refine::TensorConstantPolicy::Runtime);
  return 0;
}
