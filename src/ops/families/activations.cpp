//===- ops/families/activations.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerActivations(Registry &r) {}

} // namespace dtf
