//===- ops/meta_kernels.h - where meta kernels differ, as measured -*- C++ -*-===//
//
// FakeTensor and torch.export run an op's meta kernel, eager code its CPU
// kernel; the two of one version mostly agree. Where libtorch's C++ meta
// kernel does not, the conformance harness measured it over every case of
// every rule, once per version (data/meta-kernels-VERSION.txt, written by its
// --meta-data). Those measurements are facts about the version, listed by
// `dtypeflow versions` and named by infer-op. FakeTensor prefers a Python
// meta function or decomposition where torch registers one, which the C++
// run cannot see; what FakeTensor answers is modelled in the rules
// themselves (--kernels meta), e.g. 2.14's threshold_backward.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/torch_version.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dtf {

struct MetaKernelMeasure {
  uint64_t cases = 0;         ///< conformance cases run on both devices
  uint64_t anotherDtype = 0;  ///< the meta kernel's result dtype differs from the CPU's
  uint64_t metaRaises = 0;    ///< the meta kernel raises where the CPU kernel runs
  uint64_t notModelled = 0;   ///< --kernels meta answered another dtype than the meta kernel
};

/// The measurement of op `key` under `torch`, or nullopt where the meta
/// kernel never differed (or the op was not measured).
std::optional<MetaKernelMeasure> metaKernelMeasure(TorchVersion torch, std::string_view key);

/// The section of docs/versions.md: counts per version, and each op whose
/// meta kernel gives another dtype.
std::string metaKernelsMarkdown(TorchVersion from, TorchVersion to);

} // namespace dtf
