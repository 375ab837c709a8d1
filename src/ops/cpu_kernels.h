//===- ops/cpu_kernels.h - which CPU kernels a version has --------*- C++ -*-===//
//
// A missing CPU kernel is the device's gap, not a dtype rule: a rule of an op
// with its own kernel answers the dtype and the harness files PyTorch's "not
// implemented for" as a kernel gap. A composite op, though, fails inside a
// kernel it calls (an RNN cell in its matmul), and its rule reports that. The
// kernels such rules consult are named here, with the dtypes each version's
// CPU kernel lacks: one column per version, so a new version is a column
// (2.14 added most float16 kernels 1.13 lacked).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype.h"
#include "dtype/torch_version.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace dtf {

enum class CpuKernel : uint8_t {
  Matmul,            ///< mm/addmm/bmm ("addmm_impl_cpu_"), what composite products run
  Eye,               ///< eye (matrix_power's n = 0)
  MatrixExp,         ///< linalg_matrix_exp in a reduced precision
  Sqrt,              ///< sqrt (cosine_embedding_loss's magnitudes)
  MaskedSoftmax,     ///< _masked_softmax
  MaskedSoftmaxSrcMask, ///< _masked_softmax's src_mask path (mask_type 0): 1.13's CPU has none
  AntialiasUpsample, ///< _upsample_{bilinear,bicubic}2d_aa
  Range,             ///< range (inclusive arange)
  FractionalMaxPool, ///< fractional_max_pool2d/3d
  Cross,             ///< cross
  HistogramBins,     ///< histogram with a bins tensor
  EncoderLayer,      ///< _transformer_encoder_layer_fwd's fused path
  MixedNorm,         ///< batch/instance/layer/group norm of a reduced input with float32 parameters
};

/// Version `v`'s CPU kernel `k` has no instance for `d` (among the dtypes the
/// rules that consult it reach; other dtypes are their own checks).
bool lacksCpuKernel(TorchVersion v, CpuKernel k, DType d);

/// Op `key`'s measured CPU kernel gaps in version `v` (data/cpu-kernel-gaps-<V>.txt, the
/// conformance harness's --kernel-gap-data: PyTorch's "not implemented for" in its cases), as
/// their lines (`KEY C10_DTYPE KERNEL [ROLES]` each); empty when none. A rule answers what the op
/// computes where it has a kernel; infer names such a gap as a possible error (missing-kernel).
std::string_view measuredCpuKernelGapLines(TorchVersion v, std::string_view key);
/// What those lines say of `d`: the kernel that lacks it (`abs_cpu`), and the roles whose dtype
/// `d` raises it (`self`, `#1` for the second result; comma-separated), empty where the harness
/// measured none alone (then any argument or result of dtype `d` may raise).
struct MeasuredGap {
  std::string_view kernel, roles;
};
std::optional<MeasuredGap> measuredCpuKernelGap(std::string_view lines, DType d);

} // namespace dtf
