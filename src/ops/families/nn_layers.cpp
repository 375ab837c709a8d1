//===- ops/families/nn_layers.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerNnLayers(Registry &r) {}

} // namespace dtf
