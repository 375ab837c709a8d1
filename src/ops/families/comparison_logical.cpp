//===- ops/families/comparison_logical.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerComparisonLogical(Registry &r) {}

} // namespace dtf
