//===- refine/overload_match.h - pick an op overload from argument values -*- C++ -*-===//
//
// TorchScript IR text names the op (`aten::add`) but not the overload. The
// overload is the one whose argument types fit the abstract argument values
// (Tensor vs number vs list ..., argument count, output count), preferring
// exact types (`int`) over generic ones (`Scalar`, `t`, `Any`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/lattice.h"
#include "schema/schema.h"

#include <span>
#include <string>
#include <vector>

namespace dtf::refine {

struct OverloadMatch {
  enum class Status { Ok, NoMatch, Ambiguous };
  Status status = Status::NoMatch;
  const Schema *schema = nullptr;
  std::string candidates; ///< for diagnostics: the tied or the considered keys
  std::vector<const Schema *> tied; ///< Ambiguous: the equally good overloads
};

/// `args` are the abstract values of the node's inputs (passed positionally,
/// including kwarg-only arguments, as TorchScript IR does).
OverloadMatch matchOverload(std::span<const Schema *const> overloads, std::span<const Value> args,
                            size_t numOutputs);

/// How well a value fits a schema type: -1 no, 0 unknown value, 1 generic, 2 exact.
int fitScore(const SchemaType &type, const Value &v);

/// The arguments with each Python number given for a Tensor (or Tensor?) of
/// `s` made the 0-dim wrapped-number tensor PyTorch makes of it (`mul_.Tensor(x, 2)`
/// as an export records it); empty when there is none.
std::vector<Value> numbersWrappedForTensors(const Schema &s, std::span<const Value> args);

} // namespace dtf::refine
