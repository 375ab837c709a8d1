//===- ops/registry.h - the op registry: rule + schema + test samples -*- C++ -*-===//
//
// Each family file registers its rules with `Registry::add`, declaring next to
// the rule the sample arguments the conformance harness needs (valid dims,
// shapes, index values). One registry per PyTorch version (ops/semantics.h),
// built once from the list in families.cpp, then immutable. A rule that
// PyTorch changed is registered again, side by side, "since" the version that
// changed it (`r.add(...)` or `r.since(V1_13).add(...)`, then
// `r.since(V2_14).add(...)`), as ONNX's since_version keeps an op's older
// versions beside the new one: the registry of version V keeps, per key, the
// registration with the newest since <= V, whatever the code order. A plain
// `r.add` holds since the oldest version. An unchanged rule is written once
// and serves every version whose schema table has its key; a version never
// loses a rule or a fact unless a registration says so (`remove`, `withdraw`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/op_facts.h"
#include "ops/rule.h"
#include "schema/schema.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <string>
#include <vector>

namespace dtf {

/// How the conformance harness exercises one rule. Keys are schema argument
/// names; values use the infer-op notation plus shapes:
///   tensors:  `sweep` (default: every dtype at rank 0 and shape [2]),
///             `sweep[2,3]` (rank 0 and shape [2,3]), `sweep![2,3]` (only
///             that shape), or a fixed `int64[2,3]`, optionally `=0` to fill
///             with a value (default fill 1);
///   numbers:  `sweep` (default for Scalar: True, 2, 2.5, 1j) or a literal;
///   dtypes:   `sweep` (default: every dtype, and None where optional) or a name;
///   Tensor[]: `[spec,...]` with a tensor spec (or `None`) per element
///             (default `[sweep,sweep]`);
///   t[]/Any[]: `sweep` (default: a list of each Python number kind, flat and
///             nested one level, and every pair of swept tensors), a number
///             list literal (`[2,3]`, `[[1j],[2j]]`) or a tensor list spec
///             (`[sweep]`, `[int64[2],sweep]`); see tests/oracle/case_space.h;
///   others:   a literal (`1`, `[0,1]`, `'floor'`, `None`); default: the schema's.
/// Every sampled tensor's shape also gives the harness its size-1 facts.
struct SampleSpec {
  std::map<std::string, std::string, std::less<>> args;
  std::vector<SampleSpec> variants; ///< extra case sets (e.g. other dim values)
  std::string skipReason;           ///< non-empty: harness cannot run it (say why)
};

/// A least value PyTorch accepts for an int (or each int of an int[])
/// argument, checked by infer before the rule runs: a known smaller value
/// raises `message` (value-dependent).
struct IntBound {
  uint32_t arg;
  int64_t least;
  std::string message;
};

/// An error PyTorch raises for an argument's value whatever the dtypes (a
/// padding over half the kernel, an unknown reduce mode): nullopt when the
/// known arguments pass. Reads through OpCall, so enumeration stays sound.
using ArgCheck = std::function<std::optional<RuleError>(const OpCall &)>;

struct RegistrationLog; // ops/lazy_registry.h

struct OpRule {
  std::string key;    ///< `aten::add.Tensor`
  std::string family; ///< `elementwise.binary`, `reduction`, ...
  RuleFn fn;
  /// Its shape rule (Registry::shape), if it has one: sizes unknown otherwise.
  ShapeFn shape;
  const Schema *schema = nullptr;
  SampleSpec samples;
  std::vector<IntBound> intBounds;
  /// Runs on dtypes outside c10's four categories (quantized, bits, sub-byte
  /// shells). Other rules answer unknown for such an argument: they were
  /// written, and checked, for bool/integral/floating/complex tensors.
  bool anyCategory = false;

  // What ops/infer.cpp checks before the rule, from the schema and the op's
  // facts (Registry::finalize):
  /// Arguments naming dims of tensor argument `dimsOf` (Schema::dimArgs, but
  /// not tile's repeat counts).
  std::vector<uint32_t> dimArgs;
  int32_t dimsOf = -1;
  OpFacts facts;
  /// The `memory_format` argument of an op keeping self's shape, or -1.
  int32_t memoryFormatArg = -1;
  /// The version this registration holds from (Registry::since; the oldest
  /// for a plain add): two versions with the same rule have the same since
  /// (ops/version_diff.h).
  TorchVersion since = kOldestTorch;
};

class Registry {
public:
  /// Chained configuration of one registered rule.
  class Entry {
  public:
    explicit Entry(OpRule &r) : r_(r) {}
    Entry &sample(std::string arg, std::string spec) {
      r_.samples.args[std::move(arg)] = std::move(spec);
      return *this;
    }
    /// Another set of sample overrides, run in addition to the main one.
    Entry &variant(std::map<std::string, std::string, std::less<>> args) {
      r_.samples.variants.push_back({std::move(args), {}, {}});
      return *this;
    }
    /// Argument `arg` must be at least `least` (each element of a list):
    /// checked before the rule, and sampled once at least - 1.
    Entry &atLeast(std::string_view arg, int64_t least, std::string message);
    /// Checks `check` before the rule; `refused` (if any) samples a case it
    /// refuses, for the conformance harness.
    Entry &refuse(ArgCheck check, std::map<std::string, std::string, std::less<>> refused = {});
    /// Every sample set at once (a user rule's, ops/custom_rules.h).
    Entry &withSamples(SampleSpec samples) {
      r_.samples = std::move(samples);
      return *this;
    }
    /// Bounds taken as they are (another rule's, for the same arguments).
    Entry &withBounds(std::vector<IntBound> bounds) {
      r_.intBounds = std::move(bounds);
      return *this;
    }
    const OpRule &rule() const { return r_; }
    Entry &skipConformance(std::string why) {
      r_.samples.skipReason = std::move(why);
      return *this;
    }
    /// The rule handles quantized, bits and sub-byte dtypes too (OpRule::anyCategory).
    Entry &anyCategory() {
      r_.anyCategory = true;
      return *this;
    }

  private:
    OpRule &r_;
  };

  /// Registrations that hold since a version (until a newer one replaces them).
  class Scoped {
  public:
    Scoped(Registry &r, TorchVersion since) : r_(r), since_(since) {}
    Entry add(std::string_view key, std::string_view family, RuleFn fn) {
      return r_.addSince(since_, key, family, std::move(fn));
    }
    /// Facts of an op that hold since this version.
    void declare(std::string_view opName, OpFacts facts) { r_.stepFacts(since_, opName, facts, {}); }
    /// Facts an older version declared that no longer hold from this one.
    void withdraw(std::string_view opName, OpFacts facts) { r_.stepFacts(since_, opName, {}, facts); }
    /// The key has no rule from this version on (the rule an older version
    /// registered no longer holds, and none replaces it): say why at the call.
    void remove(std::string_view key);

  private:
    Registry &r_;
    TorchVersion since_;
  };

  Registry(const SchemaTable &schemas, const DTypeSystem &types) : schemas_(&schemas), types_(&types) {}
  /// A layer of rules over `base` (user rules: ops/custom_rules.h), over
  /// `schemas` (a table layered on base's). find() looks here first, then in
  /// base, which is not changed and must outlive the layer.
  Registry(const SchemaTable &schemas, const Registry &base)
      : schemas_(&schemas), types_(base.types_), context_(base.context_), base_(&base) {}
  Registry(Registry &&) = default;

  /// Register a rule for an overload key, for every version whose schema
  /// table has it (since the oldest). Throws std::logic_error when the key is
  /// registered twice with the same since: the registry test catches it. A
  /// key this version's table lacks is recorded (absentKeys) and the
  /// registration ignored.
  Entry add(std::string_view key, std::string_view family, RuleFn fn) {
    return addSince(kOldestTorch, key, family, std::move(fn));
  }
  /// Registrations for this version and later ones, until a newer since (a
  /// rule PyTorch changed).
  Scoped since(TorchVersion v) { return Scoped(*this, v); }

  /// The shape rule of `key`, beside the dtype rule this version registered
  /// for it (call after every dtype rule: a newer registration replaces the
  /// whole entry). A key without a dtype rule in this version is recorded in
  /// shapeWithoutRule (the registry test checks it has one in some version).
  void shape(std::string_view key, ShapeFn fn);
  const std::vector<std::string> &shapeWithoutRule() const { return shapeWithoutRule_; }

  /// Declare facts of an op by name (every overload), or of one overload by
  /// its key (`aten::ldexp.out`; see ops/op_facts.h).
  void declare(std::string_view opName, OpFacts facts) { stepFacts(kOldestTorch, opName, facts, {}); }
  /// The facts declared for an op name (none when never declared), in this
  /// layer or its base: a user rule replacing a built-in one keeps its op's facts.
  OpFacts facts(std::string_view opName) const {
    OpFacts out;
    for (const Registry *r = this; r; r = r->base_)
      if (auto it = r->facts_.find(opName); it != r->facts_.end()) out |= it->second;
    return out;
  }
  /// Declare the arguments of an op (by name: every overload) that it reads
  /// as indices, masks or conditions: their dtype never converts into the
  /// result's (embedding's `indices`, where's `condition`), so a
  /// mixed-precision audit (refine/audit.h) counts no promotion of them.
  void declareRead(std::string_view opName, std::initializer_list<std::string_view> args) {
    auto &names = readArgs_[std::string(opName)];
    for (std::string_view a : args) names.emplace_back(a);
  }
  /// Is argument `arg` of op `opName` one it only reads (declareRead), in
  /// this layer or its base?
  bool readsOnly(std::string_view opName, std::string_view arg) const {
    for (const Registry *r = this; r; r = r->base_)
      if (auto it = r->readArgs_.find(opName); it != r->readArgs_.end())
        for (const std::string &a : it->second)
          if (a == arg) return true;
    return false;
  }
  /// After every family registered: each rule's generic-check fields from its
  /// schema and its op's facts. Semantics calls it once.
  void finalize();

  /// Register only the keys of these op names (`aten::add`); registrations
  /// of others are ignored before their schema is parsed. For the registry
  /// of one op (ops/lazy_registry.h), built from the families that op needs.
  void restrictTo(std::set<std::string, std::less<>> opNames) { only_ = std::move(opNames); }
  /// Whether a registration of `key` is ignored by restrictTo: a family that
  /// reads `key`'s schema before registering it asks first, so the registry
  /// of one op parses no other op's schema.
  bool skips(std::string_view key) const;
  /// Record which op names each family registers and reads (the family
  /// index generator, tools/gen_family_index): null, nothing recorded.
  void setLog(RegistrationLog *log) { log_ = log; }

  TorchVersion version() const { return types_->version(); }
  const DTypeSystem &types() const { return *types_; }
  /// Where the calls run (a kind of CPU), as rules see it through OpCall;
  /// a layer starts with its base's. Empty: any CPU.
  const ExecContext &context() const { return context_; }
  void setContext(ExecContext c) { context_ = c; }
  /// Keys registered for this version that its schema table lacks (ops
  /// PyTorch removed or renamed); the registry test checks each exists in
  /// some version's table.
  const std::vector<std::string> &absentKeys() const { return absentKeys_; }

  /// The rule for a key: this layer's, else its base's.
  const OpRule *find(std::string_view key) const;
  /// Whether `key` has a rule already, asked by a family about to register
  /// `key` itself: unlike find, not a read the family index records (the
  /// registry of `key`'s op runs every family registering it, so the answer
  /// is the same there), which would otherwise make every op the family
  /// registers depend on all of the family's op names.
  bool holds(std::string_view key) const;
  /// By schema (one hash lookup per layer, no key string built); falls back
  /// to the key for a schema from another table.
  const OpRule *find(const Schema &schema) const;
  /// The rules registered in this layer (a version's own registry: all of them).
  const std::map<std::string, OpRule, std::less<>> &rules() const { return rules_; }
  /// Every rule find() can return, by key: a layer's rules over its base's.
  std::vector<const OpRule *> allRules() const;
  /// The registry this one is layered on (null: a version's own registry).
  const Registry *base() const { return base_; }
  const SchemaTable &schemas() const { return *schemas_; }

private:
  Entry addSince(TorchVersion since, std::string_view key, std::string_view family, RuleFn fn);
  Entry ignored();
  /// Facts set and cleared at a version; the op's facts for this version are
  /// those steps with since <= version applied oldest first.
  void stepFacts(TorchVersion since, std::string_view opName, OpFacts set, OpFacts clear);
  struct FactStep {
    TorchVersion since;
    OpFacts set, clear;
  };

  const SchemaTable *schemas_;
  const DTypeSystem *types_;
  ExecContext context_;
  std::map<std::string, OpRule, std::less<>> rules_;
  std::vector<std::string> absentKeys_;
  std::vector<std::string> shapeWithoutRule_;
  std::map<std::string, OpFacts, std::less<>> facts_; ///< resolved from factSteps_ for this version
  std::map<std::string, std::vector<FactStep>, std::less<>> factSteps_;
  /// Keys a registration removed, and since when (Scoped::remove): an older
  /// registration of them is ignored, a newer one holds.
  std::map<std::string, TorchVersion, std::less<>> removedSince_;
  std::map<std::string, std::vector<std::string>, std::less<>> readArgs_; ///< declareRead
  /// Registrations that do not apply to this version (a newer since, or one
  /// a newer registration replaces) still configure an entry (their chained
  /// .sample() calls); it lands here and is dropped.
  std::vector<std::unique_ptr<OpRule>> ignored_;
  std::unordered_map<const Schema *, const OpRule *> bySchema_; ///< into rules_ (stable nodes)
  const Registry *base_ = nullptr;
  std::optional<std::set<std::string, std::less<>>> only_; ///< restrictTo
  RegistrationLog *log_ = nullptr;                          ///< setLog
};

/// Family registration functions; families.cpp calls each once, then the
/// shape rules (registerShapeRules).
void registerAllFamilies(Registry &r);
/// Every family's shape rules (families.def's DTF_SHAPES lines), onto the
/// dtype rules registered so far.
void registerShapeRules(Registry &r);

} // namespace dtf
