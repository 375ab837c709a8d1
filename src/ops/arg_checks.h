//===- ops/arg_checks.h - errors an argument's value alone raises -*- C++ -*-===//
//
// PyTorch refuses some calls for the value of a non-tensor argument, whatever
// the dtypes: a padding over half the pooling window, a reduce mode it does
// not know, a probability outside [0, 1], the same dim named twice. Each
// builder below makes one such check; a family attaches it where the rule is
// registered (Registry::Entry::refuse), with a sample the harness must see
// refused. A check raises only on known values: an unknown one passes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/registry.h"

#include <string>
#include <vector>

namespace dtf::checks {

/// `rule`, answering `check`'s error first when it gives one.
RuleFn before(ArgCheck check, RuleFn rule);

/// A known string argument other than `choices` (None passes).
ArgCheck oneOf(std::string arg, std::vector<std::string> choices);

/// A known number outside [least, most], or NaN (PyTorch's `least <= x && x <= most`).
ArgCheck numberWithin(std::string arg, double least, double most, std::string message);

/// A known number not above `bound`, or NaN (`x > bound`).
ArgCheck numberAbove(std::string arg, double bound, std::string message);

/// A known int (or an int of a list) equal to `value`.
ArgCheck notEqual(std::string arg, int64_t value, std::string message);

/// A known number of a float[] argument that is 0 or negative.
ArgCheck positiveElements(std::string arg, std::string message);

/// Known ints of int[] argument(s) `lists` naming one dim of `tensor` twice
/// (wrapped by its known rank): flip, movedim.
ArgCheck distinctDims(std::string tensor, std::vector<std::string> lists);

/// Two int[] arguments of known, different lengths.
ArgCheck sameLength(std::string a, std::string b, std::string message);

/// `low < high` (strict) or `low <= high` for known numbers, NaN refused; an
/// empty `low` stands for 0 (randint(high), random_(to)); a None `high` passes.
ArgCheck ordered(std::string low, std::string high, bool strict, std::string message);

/// Pooling windows over `spatial` dims (kernel_size, stride, padding and, with
/// `dilation`, dilation): one value, or one per spatial dim (stride: also
/// none); padding neither negative nor over half its kernel; dilation positive.
ArgCheck poolWindow(int spatial, bool dilation);

/// constant_pad_nd / pad: an even number of pads, at most two per dim of `tensor`.
ArgCheck padLength(std::string tensor, std::string pad);

/// A tensor argument of known rank not among `ranks` (None passes).
ArgCheck rankIn(std::string arg, std::vector<int> ranks, std::string message);

/// A tensor argument of known rank below `least` (None passes).
ArgCheck rankAtLeast(std::string arg, int least, std::string message);

/// roll: shifts given, and one per dim unless dims is empty and shifts has one.
ArgCheck rollShifts();

} // namespace dtf::checks
