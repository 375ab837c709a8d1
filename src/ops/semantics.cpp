#include "ops/semantics.h"

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

std::shared_ptr<const Semantics> Semantics::inContext(const Semantics &builtIn, ExecContext context) {
  return std::shared_ptr<const Semantics>(new Semantics(builtIn, context));
}

std::shared_ptr<const Semantics> Semantics::inContext(std::shared_ptr<const Semantics> base, ExecContext context) {
  auto layer = std::shared_ptr<Semantics>(new Semantics(*base, context));
  layer->keptBase_ = std::move(base);
  return layer;
}

const Semantics &Semantics::of(TorchVersion v) {
  // Built separately: a process that asks for one version pays for that one.
  if (v == TorchVersion::V1_13) {
    static const Semantics v113(TorchVersion::V1_13);
    return v113;
  }
  static const Semantics v214(TorchVersion::V2_14);
  return v214;
}

} // namespace dtf
