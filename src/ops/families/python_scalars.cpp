//===- ops/families/python_scalars.cpp ----------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {

void registerPythonScalarOps(Registry &r) {}

} // namespace dtf
