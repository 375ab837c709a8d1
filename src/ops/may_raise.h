//===- ops/may_raise.h - a rule's answer that runs yet may raise -*- C++ -*-===//
//
// A RuleResult holds outputs or an error. Some calls have both: they run
// with these outputs, yet may raise for a reason no argument the rule sees
// decides — a CPU kernel gap where the op's other kernels (meta, what
// FakeTensor runs) give the dtype, or an error that depends on sizes. A rule
// answers those with mayRaise(outputs, caveat); ops/infer.cpp reports the
// caveat as the call's possible error, as it does for an error of some of
// the cases of an unknown argument. (A RuleResult carries it: the same
// channel as OpCall::byOneDnnPath's CPU-dependent errors.)
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/rule.h"

#include <string>
#include <string_view>
#include <vector>

namespace dtf {

/// `outputs`, with `caveat` possible (RuleResult's possible error).
RuleResult mayRaise(std::vector<Value> outputs, RuleError caveat);

/// A MissingKernel error for the version's CPU kernel lacking dtype `d`,
/// its message saying so in words before PyTorch's own (`detail`):
/// "aten::aminmax: no CPU kernel for complex64 in 2.14 (\"aminmax_cpu\" not
/// implemented for 'ComplexFloat')".
RuleError cpuKernelGap(const OpCall &c, DType d, std::string_view detail);
/// The same for op `key` of version `v` (the measured gaps, ops/cpu_kernels.h).
RuleError cpuKernelGap(std::string_view key, TorchVersion v, DType d, std::string_view detail);

/// The device gap in words of a MissingKernel error ("no CPU kernel for
/// complex64 in 2.14", or "no CPU kernel for these dtypes in 2.14" when the
/// error names none); empty for the other kinds.
std::string kernelGapText(const RuleError &e, std::string_view version);

} // namespace dtf
