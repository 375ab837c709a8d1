//===- shape/unbacked.h - data-dependent sizes as fresh symbols -*- C++ -*-===//
//
// A size no shape can decide (nonzero's rows, unique's values, a boolean
// mask's selected count) is a fresh *unbacked* symbol, as torch.export makes
// one (`u0`, with a range such as [0, numel]). A shape rule cannot name it:
// the pass memoizes calls by their abstract arguments, so a name made by the
// rule would be shared by two calls on two tensors of one abstract type. The
// rule returns a placeholder instead (`unbackedDim(k, range)`, k numbering
// the call's distinct counts: unique's values and counts share k = 0), and
// whoever owns the call names it: the refinement per graph node, infer-op
// per call (renameUnbacked).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "shape/dim.h"

#include <functional>
#include <optional>
#include <string_view>

namespace dtf {

/// A shape rule's data-dependent size number `ordinal` of its call, in `range`.
Dim unbackedDim(unsigned ordinal, SymRange range);

/// Whether these dims hold a placeholder (a symbol `unbackedDim` made).
bool hasUnbackedPlaceholder(const Dims &dims);

/// `e` with every symbol replaced by `symbolFor(atom)` (a symbol kept when
/// it gives nullopt). Nullopt when rebuilding overflows.
std::optional<SymExpr> substituteSymbols(const SymExpr &e,
                                         const std::function<std::optional<SymExpr>(const SymAtom &)> &symbolFor);

/// `dims` with each placeholder named by `name(ordinal, range)`: its symbol,
/// or nullopt to leave the dim unknown (a dim using it becomes unknown).
using UnbackedNamer = std::function<std::optional<SymExpr>(unsigned ordinal, SymRange range)>;
Dims renameUnbacked(const Dims &dims, const UnbackedNamer &name);

/// The names an unbacked symbol may take: `u0`, `u1` ... as torch.export
/// prints them. `firstFreeUnbacked(symbols)`: the first index no name in
/// `symbols` uses (a program's own `u0` is never reused).
std::string unbackedName(unsigned index);

/// Appends the symbol names `dims` use (each symbolic dim's symbols, in
/// order, repeats kept): what a program already names, which a fresh
/// unbacked symbol must not reuse.
void appendSymbols(const Dims &dims, std::vector<std::string> &out);
unsigned firstFreeUnbacked(const std::vector<std::string> &symbols);
/// K when `name` is `uK` (a name unbackedName gives), else nullopt.
std::optional<unsigned> unbackedIndex(std::string_view name);

} // namespace dtf
