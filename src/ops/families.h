#pragma once
namespace dtf {
class Registry;
#define DTF_FAMILY(fn) void fn(Registry &r);
#define DTF_SHAPES(fn) void fn(Registry &r);
#include "ops/families.def"
#undef DTF_FAMILY
#undef DTF_SHAPES
} // namespace dtf
