//===- ops/version_diff.h - what changed between two PyTorch versions -*- C++ -*-===//
//
// The differences between two versions' semantics, computed from the
// semantics themselves (never written by hand): the dtypes each names,
// promote_types and result_type outcomes that differ, TensorIterator facts,
// the operator schemas added, removed or changed, and the rules registered
// for one version only or scoped to a range of versions. `dtypeflow versions`
// prints it; docs/versions.md is its Markdown.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/semantics.h"

#include <string>
#include <vector>

namespace dtf {

struct VersionDiff {
  TorchVersion from, to;
  std::vector<DType> dtypesAdded, dtypesRemoved;

  /// One operation whose outcome differs: a dtype name or `error: MESSAGE`.
  struct Change {
    std::string what, before, after;
  };
  /// torch.promote_types over dtypes both versions name.
  std::vector<Change> promoteTypes;
  /// torch.result_type of a tensor (rank 1 or 0-dim) of a dtype both name
  /// with a Python number or a 0-dim tensor of another such dtype.
  std::vector<Change> resultType;
  /// Facts of TensorIterator and Python number handling.
  std::vector<Change> facts;
  /// What the kind of CPU decides (ops/cpu_capability.h): per dtype, the
  /// kinds of CPU whose oneDNN path takes it, in each version (every kind
  /// listed, changed or not: the table is short and users look for it).
  std::vector<Change> cpuFacts;

  std::vector<std::string> schemasAdded, schemasRemoved;
  /// Keys in both tables whose schema text differs (arguments, defaults,
  /// types; an int that became SymInt included).
  std::vector<Change> schemasChanged;
  /// Rules for keys only one version has.
  std::vector<std::string> rulesAdded, rulesRemoved;
  /// Keys whose rule is registered per version (Registry::since / until):
  /// PyTorch changed what the op does with dtypes. `what` is the key, before
  /// and after the families.
  std::vector<Change> rulesChanged;
};

VersionDiff diffVersions(const Semantics &from, const Semantics &to);

/// The diff as a Markdown document (docs/versions.md): counts first, then
/// every change; `listLimit` caps the long lists of op keys (0: no cap).
std::string versionDiffMarkdown(const VersionDiff &d, size_t listLimit = 0);

} // namespace dtf
