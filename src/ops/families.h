#pragma once
namespace dtf {
class Registry;
#define DTF_FAMILY(fn) void fn(Registry &r);
#include "ops/families.def"
#undef DTF_FAMILY
} // namespace dtf
