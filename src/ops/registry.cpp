#include "ops/registry.h"
#include "ops/arg_checks.h"

#include <stdexcept>

namespace dtf {

Registry::Entry Registry::add(std::string_view key, std::string_view family, RuleFn fn) {
  const Schema *schema = schemas_->find(key);
  if (!schema)
    throw std::logic_error("rule for '" + std::string(key) + "': no such schema in libtorch 1.13");
  auto [it, inserted] = rules_.try_emplace(std::string(key));
  if (!inserted) throw std::logic_error("rule for '" + std::string(key) + "' registered twice");
  OpRule &r = it->second;
  r.key = std::string(key);
  r.family = std::string(family);
  r.fn = std::move(fn);
  r.schema = schema;
  bySchema_[schema] = &r;
  return Entry(r);
}

Registry::Entry &Registry::Entry::atLeast(std::string_view arg, int64_t least, std::string message) {
  const int i = r_.schema->argIndex(arg);
  if (i < 0) throw std::logic_error("rule for '" + r_.key + "': atLeast names no argument '" + std::string(arg) + "'");
  r_.intBounds.push_back({static_cast<uint32_t>(i), least, std::move(message)});
  const SchemaType *t = r_.schema->args[i].type.get();
  if (t->kind == SchemaType::Kind::Optional && t->inner()) t = t->inner();
  const std::string below = std::to_string(least - 1);
  return variant({{std::string(arg), t->kind == SchemaType::Kind::List ? "[" + below + "]" : below}});
}

Registry::Entry &Registry::Entry::refuse(ArgCheck check, std::map<std::string, std::string, std::less<>> refused) {
  r_.fn = checks::before(std::move(check), std::move(r_.fn));
  return refused.empty() ? *this : variant(std::move(refused));
}

const OpRule *Registry::find(std::string_view key) const {
  auto it = rules_.find(key);
  return it == rules_.end() ? nullptr : &it->second;
}

const OpRule *Registry::find(const Schema &schema) const {
  auto it = bySchema_.find(&schema);
  return it != bySchema_.end() ? it->second : find(schema.key());
}

const Registry &Registry::builtin() {
  static const Registry registry = [] {
    Registry r(SchemaTable::builtin());
    registerAllFamilies(r);
    return r;
  }();
  return registry;
}

} // namespace dtf
