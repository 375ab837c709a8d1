#include "ops/registry.h"
#include "ops/arg_checks.h"
#include "ops/lazy_registry.h"

#include <algorithm>
#include <stdexcept>

namespace dtf {

namespace {

[[noreturn]] void twice(std::string_view key, TorchVersion since) {
  throw std::logic_error("rule for '" + std::string(key) + "' registered twice since PyTorch " + std::string(name(since)));
}

} // namespace

Registry::Entry Registry::ignored() {
  ignored_.push_back(std::make_unique<OpRule>());
  return Entry(*ignored_.back());
}

Registry::Entry Registry::addSince(TorchVersion since, std::string_view key, std::string_view family, RuleFn fn) {
  if (log_) log_->touched.push_back({log_->family, std::string(opNameOfKey(key))});
  if (since > version()) return ignored(); // a newer version's rule
  if (skips(key)) return ignored(); // not asked for: left unparsed
  const Schema *schema = schemas_->find(key);
  if (!schema) {
    absentKeys_.emplace_back(key);
    return ignored();
  }
  if (auto gone = removedSince_.find(key); gone != removedSince_.end()) {
    if (gone->second == since) twice(key, since);
    if (gone->second > since) return ignored(); // removed after this registration's version
    removedSince_.erase(gone);                   // registered again after its removal
  }
  auto [it, inserted] = rules_.try_emplace(std::string(key));
  OpRule &r = it->second;
  if (!inserted) {
    if (r.since == since) twice(key, since);
    if (r.since > since) return ignored(); // a newer registration holds for this version
    r = OpRule{};                          // this one is newer: it replaces the older
  }
  r.key = std::string(key);
  r.family = std::string(family);
  r.fn = std::move(fn);
  r.schema = schema;
  r.since = since;
  bySchema_[schema] = &r;
  return Entry(r);
}

bool Registry::skips(std::string_view key) const { return only_ && !only_->contains(opNameOfKey(key)); }

void Registry::shape(std::string_view key, ShapeFn fn) {
  if (skips(key)) return; // the registry of another op: its dtype rule was not registered either
  auto it = rules_.find(key);
  if (it == rules_.end()) {
    shapeWithoutRule_.emplace_back(key);
    return;
  }
  it->second.shape = std::move(fn);
}

void Registry::Scoped::remove(std::string_view key) {
  if (r_.log_) r_.log_->touched.push_back({r_.log_->family, std::string(opNameOfKey(key))});
  if (since_ > r_.version()) return;
  if (auto it = r_.rules_.find(key); it != r_.rules_.end()) {
    if (it->second.since == since_) twice(key, since_);
    if (it->second.since > since_) return; // registered again after the removal
    r_.bySchema_.erase(it->second.schema);
    r_.rules_.erase(it);
  }
  TorchVersion &at = r_.removedSince_.try_emplace(std::string(key), since_).first->second;
  at = std::max(at, since_);
}

void Registry::stepFacts(TorchVersion since, std::string_view opName, OpFacts set, OpFacts clear) {
  if (log_) log_->touched.push_back({log_->family, std::string(opName)});
  if (since > version()) return;
  auto &steps = factSteps_[std::string(opName)];
  steps.push_back({since, set, clear});
  std::stable_sort(steps.begin(), steps.end(), [](const FactStep &a, const FactStep &b) { return a.since < b.since; });
  OpFacts now;
  for (const FactStep &s : steps) now = (now | s.set).without(s.clear);
  facts_[std::string(opName)] = now;
}

Registry::Entry &Registry::Entry::atLeast(std::string_view arg, int64_t least, std::string message) {
  if (!r_.schema) return *this; // a registration this version ignores
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

void Registry::finalize() {
  for (auto &[key, rule] : rules_) {
    const Schema &s = *rule.schema;
    rule.facts = facts(s.name);
    if (!s.overload.empty()) rule.facts |= facts(key); // declared for this overload alone
    rule.dimsOf = s.dimsOf;
    rule.dimArgs.clear();
    for (uint32_t i : s.dimArgs)
      if (!(rule.facts.has(OpFact::DimsAreCounts) && s.args[i].name == "dims")) rule.dimArgs.push_back(i);
    rule.memoryFormatArg = rule.facts.has(OpFact::MemoryFormatKeepsShape) && s.dimsOf >= 0 ? s.argIndex("memory_format") : -1;
  }
}

const OpRule *Registry::find(std::string_view key) const {
  if (log_) log_->read.push_back({log_->family, std::string(opNameOfKey(key))});
  for (const Registry *r = this; r; r = r->base_)
    if (auto it = r->rules_.find(key); it != r->rules_.end()) return &it->second;
  return nullptr;
}

bool Registry::holds(std::string_view key) const {
  for (const Registry *r = this; r; r = r->base_)
    if (r->rules_.contains(key)) return true;
  return false;
}

const OpRule *Registry::find(const Schema &schema) const {
  // A layer that replaces a base rule registers it under the base's own
  // Schema object, so the first layer that knows the schema decides.
  if (log_) log_->read.push_back({log_->family, schema.name});
  for (const Registry *r = this; r; r = r->base_)
    if (auto it = r->bySchema_.find(&schema); it != r->bySchema_.end()) return it->second;
  return find(schema.key());
}

std::vector<const OpRule *> Registry::allRules() const {
  std::map<std::string_view, const OpRule *> byKey;
  for (const Registry *r = this; r; r = r->base_)
    for (const auto &[key, rule] : r->rules_) byKey.try_emplace(key, &rule); // upper layers first
  std::vector<const OpRule *> out;
  out.reserve(byKey.size());
  for (const auto &[key, rule] : byKey) out.push_back(rule);
  return out;
}


} // namespace dtf
