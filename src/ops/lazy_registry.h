//===- ops/lazy_registry.h - the registry of one op, from its families --*- C++ -*-===//
//
// A question about one op (`dtypeflow infer-op aten::add.Tensor ...`) needs
// the rules of that op only, but the families register hundreds each, and
// all of them together cost ~50 M instructions (most of it parsing the
// schemas they name). The family index says, per op name and version, which
// families (families.def order) register or remove its keys or declare its
// facts, and which other op names their registration reads (a view copy
// takes its view's rule, `_foreach_add` add's): the registry of one op runs
// only those families, restricted to those names (Registry::restrictTo), so
// the rules it holds are the full registry's, field for field
// (tests/unit/lazy_registry_test.cpp checks every op name of every version).
// The refinement of a program does the same for the ops the program holds
// (registerOpNames, Semantics::registryForOps): registering every family was
// half of the 129 M instructions of `check densenet121.pt2`; it now takes 65 M.
//
// The index is generated at build time by tools/gen_family_index, which
// runs every family with a RegistrationLog attached (generated/family_index.cpp).
// `registerOutVariants` is the one family that reads the registry by
// walking it: each `.out` overload it adds takes the rule of a functional
// overload of the same op name, so its reads are the op's own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/registry.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtf {

/// What a registration run did, family by family (Registry::setLog).
struct RegistrationLog {
  struct Event {
    size_t family;    ///< index in families.def
    std::string name; ///< op name (`aten::add`)
  };
  size_t family = 0;          ///< the family running now (set by the caller)
  std::vector<Event> touched; ///< a key added or removed, facts declared or withdrawn
  std::vector<Event> read;    ///< a rule looked up (Registry::find)
};

/// One op name's row of the index of a version.
struct FamilyIndexRow {
  const char *name;             ///< `aten::add`
  uint64_t families;            ///< bit i: families.def's i-th family
  const char *const *alsoNames; ///< op names its registration reads (null-terminated)
};

/// The index of version `v`, sorted by name; empty in a build without one
/// (the generator's own), where registerOpName answers null. Generated.
std::span<const FamilyIndexRow> familyIndex(TorchVersion v);

/// The op name of a key: `aten::add.Tensor` -> `aten::add`.
std::string_view opNameOfKey(std::string_view key);

/// The finalized registry of op `opName`'s rules, as the full registry of
/// `schemas`' version has them; null without an index.
std::unique_ptr<Registry> registerOpName(const SchemaTable &schemas, const DTypeSystem &types,
                                         std::string_view opName);

/// The same for several op names at once (the ops of one program): the
/// families any of them needs, restricted to all of them; null without an index.
std::unique_ptr<Registry> registerOpNames(const SchemaTable &schemas, const DTypeSystem &types,
                                          std::span<const std::string_view> opNames);

} // namespace dtf
