//===- ops/cpu_capability.h - what the CPU decides, beyond the version -*- C++ -*-===//
//
// A PyTorch version does not decide every outcome alone: some CPU kernels
// take a oneDNN (mkldnn) path for bfloat16 or float16 only on CPUs whose ISA
// oneDNN accelerates, and oneDNN checks what the plain kernels do not (a
// convolution's bias dtype, gelu_backward's grad). The kinds of CPU are a
// list (cpu_kinds.def); which kinds send a dtype to oneDNN is a table with
// one column per version (cpu_capability.cpp), beside the version's kernel
// gaps in ops/cpu_kernels.h.
//
// An analysis runs in an ExecContext: a CPU kind, or none (the default), in
// which case an outcome that differs between CPUs is a *possible* error
// naming the condition, never a claim that the call runs or raises.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype.h"
#include "dtype/torch_version.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dtf {

enum class CpuKind : uint8_t {
#define DTF_CPU_KIND(e, opt, cap, what) e,
#include "ops/cpu_kinds.def"
#undef DTF_CPU_KIND
};

inline constexpr std::array kCpuKinds{
#define DTF_CPU_KIND(e, opt, cap, what) CpuKind::e,
#include "ops/cpu_kinds.def"
#undef DTF_CPU_KIND
};

/// The --cpu name (`avx512_fp16`).
std::string_view name(CpuKind k);
/// What torch.backends.cpu.get_cpu_capability() says on such a CPU (`AVX512`).
std::string_view torchCapability(CpuKind k);
/// One line for --help and reports.
std::string_view describe(CpuKind k);
/// A --cpu name, or nullopt. (`host` is the caller's: see hostCpuKind.)
std::optional<CpuKind> parseCpuKind(std::string_view text);
/// "default, avx2, avx512, avx512_fp16": for messages.
std::string cpuKindNames();

/// The kind of this machine's CPU, from its cpuid flags (what oneDNN and
/// ATen's dispatch read): `avx512_fp16` needs AVX512-FP16, `avx512` AVX-512
/// F/BW/VL/DQ, `avx2` AVX2 and FMA.
CpuKind hostCpuKind();
/// The kind a set of /proc/cpuinfo flags (space separated) describes.
CpuKind cpuKindOfFlags(std::string_view flags);

/// Which kernels compute the dtypes: the CPU's (eager) or the meta device's,
/// which FakeTensor runs and torch.export records. A few meta kernels give
/// another dtype than the CPU kernel of the same version (measured by the
/// conformance harness, listed in its report; the rules say where).
enum class Kernels : uint8_t { Cpu, Meta };
std::string_view name(Kernels k);
std::optional<Kernels> parseKernels(std::string_view text);

/// What an analysis is told about where the program runs, beyond the
/// PyTorch version. Empty: any CPU, its CPU kernels.
struct ExecContext {
  std::optional<CpuKind> cpu;
  Kernels kernels = Kernels::Cpu;
  bool operator==(const ExecContext &) const = default;
};

/// Does version `v`'s oneDNN path take dtype `d` on CPU kind `k`? float32
/// always (on x86 every kind); bfloat16 and float16 only from a kind on.
bool oneDnnTakes(TorchVersion v, CpuKind k, DType d);
/// The weakest kind on which `v`'s oneDNN takes `d`, or nullopt when no kind does.
std::optional<CpuKind> oneDnnLeastKind(TorchVersion v, DType d);

} // namespace dtf
