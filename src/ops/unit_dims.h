//===- ops/unit_dims.h - which dims have size 1, through rules -*- C++ -*-===//
//
// The rank of squeeze depends on whether a dim has size 1. The few rules
// that create, keep or consume such dims (reductions with keepdim,
// unsqueeze, squeeze, broadcasting elementwise ops, conversions) carry the
// facts with these helpers; every other rule drops them, which is sound
// (nothing known).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/rule.h"

#include <initializer_list>
#include <string>
#include <string_view>

namespace dtf {

/// Facts after inserting a size-1 dim at `at` (unsqueeze).
UnitDims insertUnitDim(UnitDims u, int at);
/// Facts after removing dim `at` (squeeze, select, reductions).
UnitDims removeDim(UnitDims u, int at);

/// `out` with the size-1 facts of broadcasting the tensor / number
/// arguments `names` (numbers are 0-dim). Kept only when `out`'s rank is
/// the exact broadcast rank.
Value withBroadcastUnitDims(const OpCall &c, Value out, std::initializer_list<std::string_view> names);
Value withBroadcastUnitDims(const OpCall &c, Value out, std::span<const std::string> names);

/// `fn` whose tensor results (of `of`'s exact rank) keep that argument's
/// size-1 facts: for ops whose every such result has its shape
/// (conversions, clone, softmax, sort's values and indices; gather's
/// results have `index`'s shape, expand_as's `other`'s).
RuleFn keepingShape(RuleFn fn, std::string of = "self");

} // namespace dtf
