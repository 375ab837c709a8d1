//===- frontends/torchscript/module_loader.h - .pt files via libtorch -*- C++ -*-===//
//
// Loads a saved TorchScript module (torch.jit.script / torch.jit.trace +
// save), inlines `forward`, lowers parameters and buffers to trailing graph
// inputs named by their qualified attribute names (`layer1.0.conv1.weight`)
// and typed from their tensors (dtype, sizes), and prints the graph as IR
// text for the core parser (frontends/text), so both paths share one reader.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stdexcept>
#include <string>

namespace dtf::torchscript {

struct LoadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The lowered `forward` graph of the module saved at `path`, as IR text.
/// Throws LoadError when libtorch cannot load or lower it.
std::string loadModuleAsIR(const std::string &path);

} // namespace dtf::torchscript
