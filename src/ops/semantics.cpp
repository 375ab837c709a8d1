#include "ops/semantics.h"
#include "dtype/per_version.h"
#include "ops/lazy_registry.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace dtf {

Semantics::Semantics(TorchVersion v) : types_(DTypeSystem::of(v)) {}

Semantics::Semantics(const Semantics &base, std::unique_ptr<const SchemaTable> table)
    : types_(base.types_), ownSchemas_(std::move(table)), base_(&base) {
  registry_.emplace(*ownSchemas_, base.registry());
}

Semantics::Semantics(const Semantics &base, ExecContext context) : types_(base.types_), base_(&base) {
  registry_.emplace(base.schemas(), base.registry());
  registry_->setContext(context);
}

const SchemaTable &Semantics::schemas() const {
  if (ownSchemas_) return *ownSchemas_;
  return base_ ? base_->schemas() : SchemaTable::of(version()); // built on first use
}

const Registry &Semantics::registry() const {
  // Every family at once: registering them all takes a few ms, paid by the
  // first question about an op, never by one about dtypes alone.
  std::call_once(registered_, [&] {
    if (registry_) return; // a layer's, made with it
    registry_.emplace(schemas(), types_);
    registerAllFamilies(*registry_);
    registry_->finalize();
    registeredAll_.store(true, std::memory_order_release);
  });
  return *registry_;
}

namespace {
constexpr size_t kMaxPerOpRegistries = 16;
/// Programs refined by one process with a registry of their own before it
/// registers everything (a Python session, a compiler refining many graphs).
constexpr size_t kMaxProgramRegistries = 8;

bool eagerRegistry() {
  static const bool eager = [] {
    const char *e = std::getenv("DTF_EAGER_REGISTRY");
    return e && std::string_view(e) == "1";
  }();
  return eager;
}
} // namespace

const Registry &Semantics::registryFor(const Schema &op) const {
  if (base_ || eagerRegistry() || registeredAll_.load(std::memory_order_acquire)) return registry();
  std::lock_guard lock(perOpMutex_);
  auto it = perOp_.find(op.name);
  if (it == perOp_.end()) {
    // A process asking about many ops (a Python session) is better served
    // by one full registration than by a registry per op.
    if (perOp_.size() >= kMaxPerOpRegistries) return registry();
    std::unique_ptr<Registry> one = registerOpName(schemas(), types_, op.name);
    if (!one) return registry(); // a build without the family index
    it = perOp_.emplace(op.name, std::move(one)).first;
  }
  return *it->second;
}

const Registry &Semantics::registryForOps(std::vector<std::string_view> opNames) const {
  if (base_ || eagerRegistry() || registeredAll_.load(std::memory_order_acquire)) return registry();
  std::sort(opNames.begin(), opNames.end());
  opNames.erase(std::unique(opNames.begin(), opNames.end()), opNames.end());
  std::string key;
  for (std::string_view n : opNames) key.append(n).push_back(' ');
  std::lock_guard lock(perOpMutex_);
  auto it = perProgram_.find(key);
  if (it == perProgram_.end()) {
    if (perProgram_.size() >= kMaxProgramRegistries) return registry();
    std::unique_ptr<Registry> some = registerOpNames(schemas(), types_, opNames);
    if (!some) return registry(); // a build without the family index
    it = perProgram_.emplace(std::move(key), std::move(some)).first;
  }
  return *it->second;
}

std::shared_ptr<const Semantics> Semantics::inContext(std::shared_ptr<const Semantics> base, ExecContext context) {
  if (!base) throw std::invalid_argument("Semantics::inContext: null base semantics");
  auto layer = std::shared_ptr<Semantics>(new Semantics(*base, context));
  layer->keptBase_ = std::move(base);
  return layer;
}

const std::shared_ptr<const Semantics> &Semantics::builtIn(TorchVersion v) {
  // Built separately: a process that asks for one version pays for that one.
  // Never destroyed (dtype/per_version.h).
  return lazyPerVersion<std::shared_ptr<const Semantics>>(
      v, [](TorchVersion w) { return std::shared_ptr<const Semantics>(new Semantics(w)); });
}

std::shared_ptr<const Semantics> Semantics::shared(TorchVersion v) { return builtIn(v); }

const Semantics &Semantics::of(TorchVersion v) { return *builtIn(v); }

} // namespace dtf
