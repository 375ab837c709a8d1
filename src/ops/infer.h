//===- ops/infer.h - apply a rule to abstract arguments ---------*- C++ -*-===//
//
// The one entry point from which the CLI, the refinement pass and the
// conformance harness run rules. It binds arguments (filling schema
// defaults), enumerates what is unknown (dtypes, zero-rank-ness, number
// kinds, dtype arguments), runs the rule on each concrete case and joins the
// answers, so an unknown only spreads where it can change the result.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/registry.h"
#include "shape/unbacked.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dtf {

struct InferOutcome {
  enum class Status {
    Ok,              ///< outputs hold what is known (may still be partly unknown)
    Error,           ///< PyTorch raises for every possible case: see `error`
    NoRule,          ///< no rule for this overload: outputs unknown
    TooManyUnknowns, ///< enumeration bound hit: outputs unknown
  };
  Status status = Status::Ok;
  std::vector<Value> outputs;             ///< one per schema return
  std::optional<RuleError> error;         ///< Status::Error
  std::optional<RuleError> possibleError; ///< raised for some of the possible cases
  /// Some output size is data-dependent: a placeholder (shape/unbacked.h)
  /// the caller names (nameUnbacked) before anything else reads it.
  bool unbacked = false;
};

/// Unknown arguments standing for at most this many concrete cases are
/// enumerated as a full product: one rule call per case. Past it, only what
/// the rule reads is enumerated (see ops/infer.cpp), up to kMaxOnDemandCalls
/// rule calls, after which the call gives up to unknown.
inline constexpr size_t kMaxEnumeratedCases = 4096;
inline constexpr size_t kMaxOnDemandCalls = 1024;

/// Run the registered rule for `schema` on bound arguments (one per schema
/// argument: see bindDefaults). `fullProductCases`: where the on-demand
/// enumeration takes over (tests set 0 to check it against brute force).
/// `sizes`: also run the op's shape rule (false: dtypes and ranks alone,
/// refine::Options::sizes).
InferOutcome infer(const Registry &registry, const Schema &schema, std::span<const Value> args,
                   size_t fullProductCases = kMaxEnumeratedCases, bool sizes = true);

/// `v` (a tensor, or a list or tuple of them) with each unbacked
/// placeholder in its sizes named by `name` (shape/unbacked.h).
Value nameUnbacked(const Value &v, const UnbackedNamer &name);

/// The size symbols `values` use (tensors' sizes, lists' elements, symbolic ints).
std::vector<std::string> symbolsIn(std::span<const Value> values);

/// A single call's placeholders (infer-op, the harness) named `u0`, `u1` ...
/// after the symbols its arguments already use.
void nameUnbackedInCall(InferOutcome &out, std::span<const Value> args);

/// The Value of a schema default (`1`, `None`, `[0,1]`, `long`, `Mean` ...);
/// top when it cannot be read.
Value defaultValue(const SchemaArg &arg);

/// Unknown outputs shaped by the schema's return types (tensors, lists ...).
std::vector<Value> unknownOutputs(const Schema &schema);

/// The least-informed value of a schema type (unknown tensor, number kind ...).
Value unknownOfType(const SchemaType &type);

} // namespace dtf

namespace dtf {

/// Bind positional and named argument values to a schema, filling defaults.
/// On failure (unknown name, missing argument, too many) `error` says which.
struct BindResult {
  std::vector<Value> args;
  std::string error;
  bool ok() const { return error.empty(); }
};
BindResult bindArguments(const Schema &schema, std::span<const Value> positional,
                         std::span<const std::pair<std::string, Value>> named);

} // namespace dtf
