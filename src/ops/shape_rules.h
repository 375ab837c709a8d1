//===- ops/shape_rules.h - the vocabulary shape rules are written in -*- C++ -*-===//
//
// A shape rule (ShapeFn, ops/rule.h) runs once per call beside the op's
// dtype rule and gives each tensor output's sizes. These helpers read sizes
// and int arguments out of an OpCall, and build the common rules
// (broadcasting, reductions over dims, same shape as an argument). Each one
// answers "unknown" (nullopt) when an input it needs is unknown: a shape
// rule never guesses. Sizes follow PyTorch's meta functions
// (torch/_meta_registrations.py, torch/_refs, and the C++ shape checks of
// aten/src/ATen/native), checked against the meta kernels by the
// conformance harness.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/rule.h"

#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

namespace dtf {

/// The sizes of tensor argument `name` (unknown dims where not known);
/// nullopt if it is no tensor of exact rank. A number passed for a tensor is
/// 0-dim.
std::optional<Dims> dimsOf(const OpCall &c, std::string_view name);
/// An int argument's known value.
std::optional<int64_t> intArg(const OpCall &c, std::string_view name);
/// An int[] argument whose every element is known (an int passed for
/// `int[1]` is a one-element list).
std::optional<std::vector<int64_t>> intListArg(const OpCall &c, std::string_view name);
/// A SymInt[] argument as sizes: known elements as ints, the others unknown
/// dims; nullopt when its length is unknown.
std::optional<Dims> sizeListArg(const OpCall &c, std::string_view name);
/// A bool argument's known value.
std::optional<bool> boolArg(const OpCall &c, std::string_view name);

/// The broadcast of two dims; unknown where the sizes may disagree.
Dim broadcastDim(const Dim &a, const Dim &b);
/// The broadcast shape of `shapes` (right-aligned); an error message when
/// known sizes cannot broadcast.
struct Broadcast {
  std::optional<Dims> dims;
  std::optional<std::string> mismatch; ///< "sizes 3 and 4 at dim 1"
  /// Where symbols decide (`s0` against 4): the condition PyTorch needs, as torch.export would
  /// guard on it (`s0 == 4`); the dims assume it.
  std::optional<std::string> guard;
};
Broadcast broadcastShapes(std::span<const Dims> shapes);

// Common shape rules.
/// Every tensor output has `arg`'s sizes.
ShapeFn sameShapeAs(std::string_view arg = "self", size_t outputs = 1);
/// A reduction of `self` over `dimArg` (int, int[] or None / empty: all
/// dims), keeping reduced dims as 1 when `keepdim`; `outputs` results.
ShapeFn reductionOver(std::string_view dimArg, size_t outputs = 1);

//===--- Added for the loss, RNN, linalg, random and torchvision rules ---===//

/// A SymInt argument as a dim (its expression); unknown when not known.
Dim symIntArg(const OpCall &c, std::string_view name);
/// A new tensor's sizes from its size list (a factory's `size`, randperm's
/// `n`); nullopt when unknown or a known size is negative (PyTorch raises).
std::optional<Dims> newTensorSizes(const OpCall &c, std::string_view arg);
/// Dim argument `name` of a tensor of `rank` dims, wrapped (wrapDim);
/// nullopt when unknown or out of range.
std::optional<size_t> wrappedDimArg(const OpCall &c, std::string_view name, size_t rank);
/// Every tensor output has these sizes (`outputs` of them).
ShapeResult repeatedShape(const Dims &d, size_t outputs);

} // namespace dtf

// --- Lists of pieces, padding and indexing (issue 35, shapes-index) ---
namespace dtf {
/// A list of tensors of these sizes, for ShapeResult::values: the dtype
/// rule's elements keep their dtypes and ranks and take these sizes
/// (ops/infer.cpp listWithSizes).
Value tensorsOfShapes(const std::vector<Dims> &shapes);
/// `dims` with dim `at` replaced by `d`.
Dims withDimAt(Dims dims, size_t at, Dim d);
/// Tensor argument `tensor`'s sizes and int argument `dim` wrapped into
/// them: nullopt when either is unknown, the tensor is 0-dim or dim is out
/// of range.
struct DimsAndDim {
  Dims dims;
  int dim = 0;
};
std::optional<DimsAndDim> dimsAndDim(const OpCall &c, std::string_view tensor, std::optional<int64_t> dim);
} // namespace dtf

// --- Broadcasting element-wise ops and in-place forms (issue 35, shapes-corpus) ---
namespace dtf {
/// The broadcast of tensor arguments `args` (None skipped, a number 0-dim)
/// for `outputs` results; known sizes that cannot broadcast raise.
ShapeFn broadcastOf(std::vector<std::string> args, size_t outputs = 1);
/// An in-place op's result: self's sizes, into which the broadcast with
/// `others` must fit (PyTorch raises where known sizes make it larger).
ShapeFn inPlaceOf(std::vector<std::string> others);
} // namespace dtf
