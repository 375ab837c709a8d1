#pragma once
#include <span>
#include <string_view>

namespace dtf {
class Registry;
#define DTF_FAMILY(fn) void fn(Registry &r);
#define DTF_SHAPES(fn) void fn(Registry &r);
#include "ops/families.def"
#undef DTF_FAMILY
#undef DTF_SHAPES

/// A family's register function and its name (`registerElementwiseBinary`).
struct FamilyRegistration {
  void (*fn)(Registry &);
  std::string_view name;
};
/// Every family, in families.def's order (registerAllFamilies calls them so).
std::span<const FamilyRegistration> familyRegistrations();
} // namespace dtf
