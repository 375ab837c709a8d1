//===- ops/families/unary_preserving.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerUnaryPreserving(Registry &r) {}

} // namespace dtf
