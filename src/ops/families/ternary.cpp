//===- ops/families/ternary.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerTernary(Registry &r) {}

} // namespace dtf
