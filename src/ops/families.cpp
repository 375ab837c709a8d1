//===- ops/families.cpp - the list of rule families -----------------------===//
//
// Every family file defines one register function; this is the only place
// that names them all, so the builtin registry is built explicitly.
//
//===----------------------------------------------------------------------===//
#include "ops/families.h"
#include "ops/registry.h"

namespace dtf {

void registerAllFamilies(Registry &r) {
#define DTF_FAMILY(fn) fn(r);
#define DTF_SHAPES(fn)
#include "ops/families.def"
#undef DTF_FAMILY
#undef DTF_SHAPES
#define DTF_FAMILY(fn)
#define DTF_SHAPES(fn) fn(r);
#include "ops/families.def"
#undef DTF_FAMILY
#undef DTF_SHAPES
}

} // namespace dtf
