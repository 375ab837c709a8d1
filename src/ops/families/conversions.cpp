//===- ops/families/conversions.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerConversions(Registry &r) {}

} // namespace dtf
