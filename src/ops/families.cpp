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
  registerShapeRules(r);
}

void registerShapeRules(Registry &r) {
#define DTF_FAMILY(fn)
#define DTF_SHAPES(fn) fn(r);
#include "ops/families.def"
#undef DTF_FAMILY
#undef DTF_SHAPES
}

std::span<const FamilyRegistration> familyRegistrations() {
  static constexpr FamilyRegistration kAll[] = {
#define DTF_FAMILY(fn) {fn, #fn},
#define DTF_SHAPES(fn)
#include "ops/families.def"
#undef DTF_FAMILY
#undef DTF_SHAPES
  };
  return kAll;
}

} // namespace dtf
