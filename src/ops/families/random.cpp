//===- ops/families/random.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerRandom(Registry &r) {}

} // namespace dtf
