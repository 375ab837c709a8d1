//===- frontends/torch_mlir/mlir_affine.h - affine maps as size expressions -*- C++ -*-===//
//
// torch-mlir's FX importer states a dynamic tensor's sizes with
//   %s0 = torch.symbolic_int "s0" {min_val = 5, max_val = 10} : !torch.int
//   torch.bind_symbolic_shape %x, [%s0, %s1], affine_map<()[s0, s1] -> (s1, s0 * 2, 3)> : ...
// where the map's symbol k is the k-th bound value. This reads such a map's
// results into size expressions (shape/sym_expr.h). MLIR's affine grammar:
// `+`, `-`, `*`, `floordiv`, `ceildiv`, `mod` (the last four binding as
// tightly as `*`, left to right), unary `-`, parentheses, integers, `sK`
// symbols and `dK` dims.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "shape/dim.h"
#include "shape/sym_expr.h"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtf::torch_mlir {

/// The results of `affine_map<(dims)[syms] -> (e0, e1, ...)>` (the text may
/// start at `affine_map<` or at the `(` of its dims), symbol `sK` being
/// `symbols[K]`. A result that is no function of the symbols alone (it uses
/// a dim), or whose value overflows, is nullopt: that size stays unknown.
/// Throws std::invalid_argument naming the offset of malformed text, or a
/// symbol past `symbols`.
std::vector<std::optional<SymExpr>> affineMapResults(std::string_view text, std::span<const SymExpr> symbols);

/// `e` in the affine syntax (`s0 * 2 + s1 - 3`, `(s0 floordiv 2)`), symbol `name` written
/// `s<index.at(name)>`; nullopt for what it cannot spell (`Max`, `Min`; int64's minimum).
std::optional<std::string> affineText(const SymExpr &e, const std::map<std::string, size_t> &index);

/// Sizes as torch.bind_symbolic_shape states them: `affine_map<()[s0, s1] -> (...)>` over the
/// symbols they use, and those symbols in the map's order (name order: the bind's operands).
struct AffineBinding {
  std::string map;
  std::vector<std::string> symbols;
};
/// nullopt when no size is symbolic, one is unknown, or one has no affine spelling.
std::optional<AffineBinding> affineBinding(const Dims &sizes);

} // namespace dtf::torch_mlir
