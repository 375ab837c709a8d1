//===- ops/families/softmax.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerSoftmax(Registry &r) {}

} // namespace dtf
