//===- ops/families/reductions.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerReductions(Registry &r) {}

} // namespace dtf
