#include "ops/lazy_registry.h"
#include "ops/families.h"

#include <algorithm>
#include <set>
#include <string>

namespace dtf {

std::string_view opNameOfKey(std::string_view key) {
  const size_t ns = key.find("::");
  return key.substr(0, key.find('.', ns == std::string_view::npos ? 0 : ns));
}

std::unique_ptr<Registry> registerOpName(const SchemaTable &schemas, const DTypeSystem &types,
                                         std::string_view opName) {
  return registerOpNames(schemas, types, std::span<const std::string_view>(&opName, 1));
}

std::unique_ptr<Registry> registerOpNames(const SchemaTable &schemas, const DTypeSystem &types,
                                          std::span<const std::string_view> opNames) {
  const std::span<const FamilyIndexRow> index = familyIndex(types.version());
  if (index.empty()) return nullptr;
  std::set<std::string, std::less<>> names;
  uint64_t families = 0;
  for (std::string_view opName : opNames) {
    names.emplace(opName);
    auto row = std::lower_bound(index.begin(), index.end(), opName,
                                [](const FamilyIndexRow &r, std::string_view n) { return r.name < n; });
    if (row == index.end() || row->name != opName) continue; // no family registers it (no rule)
    families |= row->families;
    for (const char *const *n = row->alsoNames; *n; ++n) names.emplace(*n);
  }
  auto r = std::make_unique<Registry>(schemas, types);
  r->restrictTo(std::move(names));
  const std::span<const FamilyRegistration> all = familyRegistrations();
  for (size_t i = 0; i < all.size(); ++i)
    if (families >> i & 1) all[i].fn(*r);
  registerShapeRules(*r); // beside whichever dtype rules were registered (cheap: a lookup per key)
  r->finalize();
  return r;
}

} // namespace dtf
