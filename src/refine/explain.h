//===- refine/explain.h - why a value has (or lacks) its dtype --*- C++ -*-===//
//
// Explanations are recomputed after the pass from its result, so the pass
// itself records nothing and costs nothing more: for a known value, the
// overload is matched again on the refined arguments and the promotion of
// its tensor and number operands is laid out (operands, tiers, categories);
// for an unknown one, the chain is followed back through the defining nodes
// (which input was unknown, which If/Loop joined what) to the first cause:
// an input without a type, an op without a rule, a join of different dtypes,
// a value-dependent result ...
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/promotion.h"
#include "schema/schema.h"
#include "refine/refine.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dtf::refine {

/// One link of a chain: how `value` got its state from its defining node.
struct ExplainStep {
  ir::ValueId value = ir::kNoId;
  ir::NodeId node = ir::kNoId; ///< the defining node; kNoId for a graph or block input
  /// What kind of link (stable names, the JSON's `cause`): input, typed-input,
  /// untyped-input, constant, attribute, rule, unknown-input, no-rule,
  /// unknown-op, no-overload, raises, value-dependent, join, loop-bound,
  /// too-many-unknowns, unsupported, unreached, element.
  std::string cause;
  std::string text;        ///< one sentence saying it
  bool firstCause = false; ///< the chain ends here
};

/// One operand of result_type, as the explained node passed it.
struct PromotionOperandInfo {
  std::string arg;             ///< schema argument name
  ir::ValueId value = ir::kNoId;
  DType dtype = DType::Float32; ///< for a Python number: the dtype its kind contributes
  Tier tier = Tier::Dim;
  std::optional<NumKind> number; ///< a Python number of this kind
};

struct PromotionInfo {
  std::vector<PromotionOperandInfo> operands;
  std::array<std::optional<DType>, 3> tiers; ///< each tier's own promotion, by Tier
  std::optional<DType> result;               ///< at::result_type of the operands
  std::string error;                         ///< where promotion raises instead
};

struct Explanation {
  ir::ValueId value = ir::kNoId;
  bool known = false; ///< a tensor with dtype and rank known (or a value that is not a tensor)
  /// Known: the defining step. Unknown: from the value back to its first cause.
  std::vector<ExplainStep> chain;
  std::string overload, family; ///< an op's value: the overload that ran and its rule's family
  std::optional<PromotionInfo> promotion; ///< an op with tensor/number operands, all known
};

/// Explain value `v` of `g`, refined into `r` with `opts`.
Explanation explain(const ir::Graph &g, const Result &r, const Options &opts, ir::ValueId v);

/// The overload node `n` runs with its refined arguments (null: none fits).
const Schema *overloadRun(const ir::Graph &g, const Result &r, ir::NodeId n, std::span<const Schema *const> overloads);

/// Does this argument take part in the op's promotion: a tensor, or a Scalar
/// operand (`other`, `exponent`), not one that only scales or bounds (`alpha`)?
bool isPromotionOperand(const SchemaArg &a);

/// `float32:r4`, `float32 (rank unknown)`, `unknown dtype, rank 2`: a value's
/// state, a known dtype in the operand notation, what is unknown in words.
std::string stateText(const Value &v);

std::string_view name(Tier t);
std::string_view name(Category c);

} // namespace dtf::refine
