//===- ops/families/conv_linear.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerConvLinear(Registry &r) {}

} // namespace dtf
