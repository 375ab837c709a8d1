//===- ops/semantics.h - one PyTorch version, as a value ----------*- C++ -*-===//
//
// Everything that makes dtypeflow answer as one PyTorch version does: its
// dtypes and promotion (dtype/dtype_system.h), its operator schemas
// (schema/schema.h) and its rule registry (ops/registry.h), whose rules
// carry the version's kernel facts. Every command and analysis is handed one
// explicitly, as one handle (std::shared_ptr<const Semantics>:
// refine::Options::semantics, pt2::ReadOptions::semantics); only the door
// (src/api: the CLI's --torch, Python's torch=) picks a version, and nothing
// below it reaches for a process-wide table. A new version is a dtypes.def column, a
// schema table and the rules that differ (Registry::since / until).
//
// Users add rules for their own ops (TORCH_LIBRARY ops, fused kernels) with
// Semantics::extend: a new Semantics whose schema table and registry are
// layers over a version's built-in ones, which stay untouched.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype_system.h"
#include "ops/registry.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace dtf {

class RuleSet;             // ops/custom_rules.h
struct ExtendedSemantics;  // ops/custom_rules.h

/// Every Semantics is owned by a shared_ptr (the built-in ones for the
/// whole process), so whoever holds one by reference can hand it on as the
/// handle (shared_from_this).
class Semantics : public std::enable_shared_from_this<Semantics> {
public:
  /// The semantics of a modelled version: built on first use (thread-safe),
  /// immutable afterwards, alive until the process ends. Its schema table and
  /// registry are built when first asked for, so a question about dtypes
  /// alone (`dtypeflow result-type`) never pays for the rules of every op.
  static const Semantics &of(TorchVersion v);
  /// The same, as the handle the analyses take (refine::Options::semantics).
  static std::shared_ptr<const Semantics> shared(TorchVersion v);
  /// `v`'s semantics with the rules of `rules` layered on top (custom ops,
  /// overrides of built-in rules marked as such): immutable, shared by
  /// whoever analyses with it (refine::Options::semantics). Problems (an
  /// override not marked, a dtype `v` lacks) come back with the file and
  /// line of the rule at fault, and no semantics. In ops/custom_rules.cpp.
  static ExtendedSemantics extend(TorchVersion v, const RuleSet &rules);
  /// `base` (a version's semantics, or one extended with user rules) run in
  /// `context`: the same schemas and rules, answering as on that kind of CPU
  /// (ops/cpu_capability.h). Kept alive by the result.
  static std::shared_ptr<const Semantics> inContext(std::shared_ptr<const Semantics> base, ExecContext context);

  TorchVersion version() const { return types_.version(); }
  std::string_view versionName() const { return name(version()); }
  const DTypeSystem &types() const { return types_; }
  const SchemaTable &schemas() const;
  const Registry &registry() const;
  /// A registry holding `op`'s rules as registry() has them: for a version's
  /// own semantics, before registry() is built, one of `op`'s name alone,
  /// made from the families it needs (ops/lazy_registry.h) and kept (up to
  /// 16 op names; then, and otherwise, registry()). For a question about one
  /// op (infer-op, Python's infer_op). The environment
  /// variable DTF_EAGER_REGISTRY=1 makes it registry() always (to compare).
  const Registry &registryFor(const Schema &op) const;
  /// A registry holding the rules of every op named in `opNames` (`aten::add`)
  /// as registry() has them, made from the families they need and kept (up to
  /// kMaxProgramRegistries sets; then, and for a layer, registry()): the
  /// refinement of one program registers what the program uses (GraphPlan).
  /// DTF_EAGER_REGISTRY=1 makes it registry() as for registryFor.
  const Registry &registryForOps(std::vector<std::string_view> opNames) const;
  /// Where calls run (a kind of CPU): empty for any CPU.
  const ExecContext &context() const { return base_ ? registry_->context() : context_; }
  /// The built-in semantics user rules are layered on (null: built in).
  const Semantics *base() const { return base_; }

  Semantics(const Semantics &) = delete;
  Semantics &operator=(const Semantics &) = delete;

private:
  /// A version's built-in semantics, made once (of, shared).
  explicit Semantics(TorchVersion v);
  static const std::shared_ptr<const Semantics> &builtIn(TorchVersion v);
  /// A layer over `base` with schemas `table` (layered on base's); its
  /// registry is empty until extend adds the rules.
  Semantics(const Semantics &base, std::unique_ptr<const SchemaTable> table);
  /// A layer over `base` that only sets the context (inContext).
  Semantics(const Semantics &base, ExecContext context);

  const DTypeSystem &types_;
  std::unique_ptr<const SchemaTable> ownSchemas_; ///< a layer's table
  /// A layer's registry is made with the layer; a version's own on first use (registry()).
  mutable std::optional<Registry> registry_;
  mutable std::once_flag registered_;
  mutable std::atomic<bool> registeredAll_{false}; ///< registry() is built
  mutable std::mutex perOpMutex_;
  mutable std::map<std::string, std::unique_ptr<const Registry>, std::less<>> perOp_; ///< registryFor, by op name
  /// registryForOps, by the sorted op names joined with spaces.
  mutable std::map<std::string, std::unique_ptr<const Registry>, std::less<>> perProgram_;
  ExecContext context_; ///< a version's own: any CPU (a layer's is its registry's)
  const Semantics *base_ = nullptr;
  std::shared_ptr<const Semantics> keptBase_; ///< the base (inContext)
};

} // namespace dtf
