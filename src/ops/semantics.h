//===- ops/semantics.h - one PyTorch version, as a value ----------*- C++ -*-===//
//
// Everything that makes dtypeflow answer as one PyTorch version does: its
// dtypes and promotion (dtype/dtype_system.h), its operator schemas
// (schema/schema.h) and its rule registry (ops/registry.h), whose rules
// carry the version's kernel facts. Every command and analysis is handed one
// explicitly (refine::Options::torch, the CLI's --torch); nothing below it
// reaches for a process-wide table. A new version is a dtypes.def column, a
// schema table and the rules that differ (Registry::since / until).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype_system.h"
#include "ops/registry.h"

#include <string_view>

namespace dtf {

class Semantics {
public:
  /// The semantics of a modelled version: built on first use (thread-safe),
  /// immutable afterwards.
  static const Semantics &of(TorchVersion v);

  TorchVersion version() const { return types_.version(); }
  std::string_view versionName() const { return name(version()); }
  const DTypeSystem &types() const { return types_; }
  const SchemaTable &schemas() const { return schemas_; }
  const Registry &registry() const { return registry_; }

  explicit Semantics(TorchVersion v);
  Semantics(const Semantics &) = delete;
  Semantics &operator=(const Semantics &) = delete;

private:
  const DTypeSystem &types_;
  const SchemaTable &schemas_;
  Registry registry_;
};

} // namespace dtf
