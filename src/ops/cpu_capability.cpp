//===- ops/cpu_capability.cpp - the CPU kinds and their oneDNN facts -------===//
//
// Facts, per version, read from PyTorch's sources and measured:
// - 1.13 (aten/src/ATen/native/mkldnn/Utils.h, mkldnn_bf16_device_check):
//   bfloat16 goes to oneDNN when cpuinfo reports AVX-512 BW, VL and DQ;
//   float16 never (1.13 has no oneDNN float16 path on CPU).
// - 2.14 (the same header: mkldnn_bf16_device_check / mkldnn_fp16_device_check
//   ask ideep::has_bf16_type_support / has_fp16_type_support, i.e. oneDNN's
//   effective ISA): bfloat16 from avx512_core or avx2_vnni_2 (AVX-NE-CONVERT),
//   float16 from avx512_core_fp16 or avx2_vnni_2.
// Measured on an AMD EPYC (Zen 4, kind avx512) under 1.13 and 2.14, and
// reported from an Intel Xeon with AVX512-FP16/AMX under 2.14 (issue 31):
// scripts/probes/cpu_onednn.py prints the outcomes this table predicts.
//
//===----------------------------------------------------------------------===//
#include "ops/cpu_capability.h"
#include "dtype/version_row.h"

#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>

namespace dtf {
namespace {

struct KindInfo {
  std::string_view option, capability, what;
};
constexpr KindInfo kInfo[] = {
#define DTF_CPU_KIND(e, opt, cap, what) {opt, cap, what},
#include "ops/cpu_kinds.def"
#undef DTF_CPU_KIND
};

using KindSet = uint32_t;
constexpr KindSet kinds(std::initializer_list<CpuKind> ks) {
  KindSet s = 0;
  for (CpuKind k : ks) s |= 1u << static_cast<unsigned>(k);
  return s;
}

using K = CpuKind;
struct OneDnnFact {
  DType dtype;
  VersionRow<KindSet> takes; ///< by version (dtype/version_row.h): the kinds whose oneDNN takes `dtype`
};
constexpr OneDnnFact kOneDnn[] = {
    //  dtype            1.13                          2.6                                                 2.14
    {DType::BFloat16, {kinds({K::Avx512, K::Avx512Fp16}), kinds({K::Avx2NeConvert, K::Avx512, K::Avx512Fp16}), kinds({K::Avx2NeConvert, K::Avx512, K::Avx512Fp16})}},
    {DType::Float16,  {kinds({}),                         kinds({K::Avx2NeConvert, K::Avx512Fp16}), kinds({K::Avx2NeConvert, K::Avx512Fp16})}},
};

const KindInfo &info(CpuKind k) { return kInfo[static_cast<size_t>(k)]; }

} // namespace

std::string_view name(CpuKind k) { return info(k).option; }
std::string_view torchCapability(CpuKind k) { return info(k).capability; }
std::string_view describe(CpuKind k) { return info(k).what; }

std::optional<CpuKind> parseCpuKind(std::string_view text) {
  for (CpuKind k : kCpuKinds)
    if (name(k) == text) return k;
  return std::nullopt;
}

std::string cpuKindNames() {
  std::string out;
  for (CpuKind k : kCpuKinds) out += (out.empty() ? "" : ", ") + std::string(name(k));
  return out;
}

CpuKind cpuKindOfFlags(std::string_view text) {
  std::set<std::string> flags;
  std::istringstream in{std::string(text)};
  for (std::string f; in >> f;) flags.insert(f);
  auto has = [&](const char *f) { return flags.count(f) != 0; };
  const bool avx512Core = has("avx512f") && has("avx512bw") && has("avx512vl") && has("avx512dq");
  if (avx512Core && has("avx512_fp16")) return CpuKind::Avx512Fp16;
  if (avx512Core) return CpuKind::Avx512;
  if (has("avx2") && has("fma")) return has("avx_ne_convert") ? CpuKind::Avx2NeConvert : CpuKind::Avx2;
  return CpuKind::Default;
}

CpuKind hostCpuKind() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("flags", 0) == 0) {
      auto colon = line.find(':');
      return cpuKindOfFlags(colon == std::string::npos ? std::string_view() : std::string_view(line).substr(colon + 1));
    }
  return CpuKind::Default;
}

std::string_view name(Kernels k) { return k == Kernels::Meta ? "meta" : "cpu"; }

std::optional<Kernels> parseKernels(std::string_view text) {
  if (text == "cpu") return Kernels::Cpu;
  if (text == "meta") return Kernels::Meta;
  return std::nullopt;
}

bool oneDnnTakes(TorchVersion v, CpuKind k, DType d) {
  if (d == DType::Float32) return true;
  for (const OneDnnFact &f : kOneDnn)
    if (f.dtype == d) return (f.takes[v] >> static_cast<unsigned>(k)) & 1u;
  return false;
}

std::optional<CpuKind> oneDnnLeastKind(TorchVersion v, DType d) {
  for (CpuKind k : kCpuKinds)
    if (oneDnnTakes(v, k, d)) return k;
  return std::nullopt;
}

} // namespace dtf
