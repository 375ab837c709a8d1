#include "ops/semantics.h"

#include <stdexcept>

namespace dtf {

Semantics::Semantics(TorchVersion v)
    : types_(DTypeSystem::of(v)), schemas_(SchemaTable::of(v)), registry_(schemas_, types_) {
  registerAllFamilies(registry_);
  registry_.finalize();
}

Semantics::Semantics(const Semantics &base, std::unique_ptr<const SchemaTable> table)
    : types_(base.types_), ownSchemas_(std::move(table)), schemas_(*ownSchemas_), registry_(*ownSchemas_, base.registry_),
      base_(&base) {}

Semantics::Semantics(const Semantics &base, ExecContext context)
    : types_(base.types_), schemas_(base.schemas_), registry_(base.schemas_, base.registry_), base_(&base) {
  registry_.setContext(context);
}

std::shared_ptr<const Semantics> Semantics::inContext(std::shared_ptr<const Semantics> base, ExecContext context) {
  if (!base) throw std::invalid_argument("Semantics::inContext: null base semantics");
  auto layer = std::shared_ptr<Semantics>(new Semantics(*base, context));
  layer->keptBase_ = std::move(base);
  return layer;
}

const std::shared_ptr<const Semantics> &Semantics::builtIn(TorchVersion v) {
  // Built separately: a process that asks for one version pays for that one.
  if (v == TorchVersion::V1_13) {
    static const std::shared_ptr<const Semantics> v113(new Semantics(TorchVersion::V1_13));
    return v113;
  }
  static const std::shared_ptr<const Semantics> v214(new Semantics(TorchVersion::V2_14));
  return v214;
}

std::shared_ptr<const Semantics> Semantics::shared(TorchVersion v) { return builtIn(v); }

const Semantics &Semantics::of(TorchVersion v) { return *builtIn(v); }

} // namespace dtf
