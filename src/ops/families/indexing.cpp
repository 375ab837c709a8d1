//===- ops/families/indexing.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerIndexing(Registry &r) {}

} // namespace dtf
