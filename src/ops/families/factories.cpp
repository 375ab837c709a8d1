//===- ops/families/factories.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerFactories(Registry &r) {}

} // namespace dtf
