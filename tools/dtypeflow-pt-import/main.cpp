//===- tools/dtypeflow-pt-import/main.cpp - .pt module -> IR text ---------===//
//
// The only libtorch-linked piece of the command line: loads a saved
// TorchScript module, inlines and lowers it, and prints the IR text that
// `dtypeflow annotate FILE.pt` then reads. Kept apart so that `dtypeflow`
// itself starts without loading libtorch (~0.5 s per call).
//
//===----------------------------------------------------------------------===//
#include "frontends/torchscript/module_loader.h"

#include <cstdio>
#include <string>

int main(int argc, char **argv) {
  if (argc != 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fprintf(stderr, "usage: dtypeflow-pt-import MODULE.pt\n"
                         "Print the inlined forward graph of a saved TorchScript module as IR text,\n"
                         "parameters and buffers lowered to typed graph inputs.\n");
    return 2;
  }
  try {
    std::string text = dtf::torchscript::loadModuleAsIR(argv[1]);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  } catch (const dtf::torchscript::LoadError &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
