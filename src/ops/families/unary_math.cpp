//===- ops/families/unary_math.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerUnaryMath(Registry &r) {}

} // namespace dtf
