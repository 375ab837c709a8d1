//===- ops/families/shape_views.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerShapeViews(Registry &r) {}

} // namespace dtf
