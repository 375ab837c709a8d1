//===- ops/rule_spec.h - a dtype and rank rule written as data ---*- C++ -*-===//
//
// The declarative rules of rule files (docs/custom-ops.md) as values, so a
// program can build one in code too. Each part names schema arguments;
// checkSpec finds what does not fit the schema, and compileSpec turns a spec
// into a RuleFn made of the vocabulary's pieces (promoteArgs, applyKind,
// broadcastArgs, requireSame, wrapDim ...), so a user rule is lifted over
// unknown arguments exactly as a built-in one is (ops/infer.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/vocabulary.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtf {

/// What a dtype of one category becomes (a category rule: sum's integral -> int64).
struct CategoryTarget {
  enum class How : uint8_t {
    Keep,    ///< unchanged
    Real,    ///< a complex dtype's real counterpart (complex64 -> float32)
    Complex, ///< the complex dtype of that precision (the version's c10::toComplexType)
    Fixed,   ///< `dtype`
  };
  How how = How::Keep;
  DType dtype = DType::Float32;
};

/// The dtype of one result.
struct DTypeSpec {
  enum class Form : uint8_t {
    SameAs,  ///< args[0]'s dtype (a Tensor argument)
    Promote, ///< result_type over args (tensors and numbers, with its three tiers)
    Always,  ///< `dtype`
    FromArg, ///< args[0], a ScalarType argument; `whenNone` when it is None
  };
  Form form = Form::SameAs;
  std::vector<std::string> args;
  /// SameAs, Promote: how the dtype becomes the result's (int_to_float ...).
  PromotionKind kind = PromotionKind::Default;
  /// SameAs, Promote: per category (bool, integral, floating, complex), after
  /// `kind`; unset categories keep their dtype.
  std::array<std::optional<CategoryTarget>, 4> byCategory;
  DType dtype = DType::Float32; ///< Always
  std::shared_ptr<const DTypeSpec> whenNone; ///< FromArg with an optional argument
  /// Result dtypes the op refuses (raises for), whatever form computed them.
  DTypeSet refused;
  int line = 0; ///< where it was written (0: in code)

  static DTypeSpec sameAs(std::string arg, PromotionKind kind = PromotionKind::Default);
  static DTypeSpec promote(std::vector<std::string> args, PromotionKind kind = PromotionKind::Default);
  static DTypeSpec always(DType d);
  static DTypeSpec fromArg(std::string arg, std::optional<DTypeSpec> whenNone = std::nullopt);
};

/// The rank of one result.
struct RankSpec {
  enum class Form : uint8_t {
    SameAs,    ///< args[0]'s rank
    Broadcast, ///< broadcast of args (numbers are 0-dim)
    Fixed,     ///< `fixed`
    Reduce,    ///< args[0] reduced over argument `dims` (keepdim: `keepdim` or `keepdimValue`)
    Unknown,
  };
  Form form = Form::Unknown;
  std::vector<std::string> args;
  int fixed = 0;
  std::string dims;    ///< Reduce: an int, int[] or int? argument; None or [] reduces every dim
  std::string keepdim; ///< Reduce: a bool argument; empty: keepdimValue
  bool keepdimValue = false;
  int line = 0;

  static RankSpec sameAs(std::string arg);
  static RankSpec broadcast(std::vector<std::string> args);
  static RankSpec fixedAt(int rank);
  /// keepdim: a bool argument's name, or "" for keepdimValue.
  static RankSpec reduce(std::string tensor, std::string dims, std::string keepdim = "", bool keepdimValue = false);
  static RankSpec unknown() { return {}; }
};

/// One schema return. Without a dtype it must be a non-tensor return, whose
/// value its schema type gives.
struct ResultSpec {
  std::optional<DTypeSpec> dtype;
  /// Default: SameAs's argument, Promote's broadcast; other forms need one.
  std::optional<RankSpec> rank;
  int line = 0;

  static ResultSpec of(DTypeSpec dtype, std::optional<RankSpec> rank = std::nullopt);
};

/// Dtypes a tensor argument may not have (the op raises).
struct RefusalSpec {
  std::string arg; ///< a Tensor, Tensor? or Tensor[] argument
  DTypeSet dtypes;
  int line = 0;
};

struct RuleSpec {
  /// One per schema return, or one that serves every tensor return.
  std::vector<ResultSpec> results;
  /// A rule of one result (or one for every tensor result).
  static RuleSpec of(DTypeSpec dtype, std::optional<RankSpec> rank = std::nullopt);
  std::vector<RefusalSpec> refusals;
  std::vector<std::string> sameDType; ///< tensor arguments that must share one dtype
  int sameDTypeLine = 0;
  int line = 0; ///< the rule as a whole
};

/// What of a spec does not fit its schema, at the line of the part at fault.
struct SpecProblem {
  int line = 0;
  std::string message;
};
std::vector<SpecProblem> checkSpec(const RuleSpec &spec, const Schema &schema);

/// The rule of a spec that checkSpec accepts (std::invalid_argument otherwise).
RuleFn compileSpec(const RuleSpec &spec, const Schema &schema);

/// The dtypes the spec names as results (Always, category targets), which
/// the version it runs under must have, with the lines that name them.
std::vector<std::pair<DType, int>> namedResultDTypes(const RuleSpec &spec);

/// Vocabulary words, as rule files spell them.
/// `default`, `int_to_float`, `always_bool`, `complex_to_float`, `bool_to_long`.
std::optional<PromotionKind> parsePromotionKind(std::string_view word);
std::string_view promotionKindWord(PromotionKind k);
/// A dtype class (`bool`, `integral`, `unsigned`, `floating`, `float8`,
/// `complex`, `quantized`) or a dtype name (`float16`): the dtypes it means,
/// in any modelled version.
std::optional<DTypeSet> parseDTypeClass(std::string_view word);
/// `keep`, `real`, `complex` or a dtype name.
std::optional<CategoryTarget> parseCategoryTarget(std::string_view word);

} // namespace dtf
