//===- ops/cpu_kernels.cpp - the CPU kernel gaps of each version ----------===//
//
// Measured with the exhaustive harness (tests/oracle) and small probes
// (scripts/probes/cpu_kernels.py, runnable under both versions).
//
//===----------------------------------------------------------------------===//
#include "ops/cpu_kernels.h"

#include "dtype/lattice.h"
#include "dtype/per_version.h"
#include "dtype/version_row.h"

#include <algorithm>
#include <array>
#include <initializer_list>

namespace dtf {
namespace {

constexpr DTypeSet of(std::initializer_list<DType> ds) {
  DTypeSet s;
  for (DType d : ds) s.insert(d);
  return s;
}

using DT = DType;
struct Gaps {
  CpuKernel kernel;
  VersionRow<DTypeSet> lacks; ///< a column per version (dtype/version_row.h)
};

constexpr Gaps kGaps[] = {
    //  kernel                        1.13 lacks                             2.6 lacks                    2.14 lacks
    {CpuKernel::Matmul,            {of({DT::Bool, DT::Float16, DT::Complex32}), of({DT::Bool, DT::Complex32}), of({DT::Bool, DT::Complex32})}},
    {CpuKernel::Eye,               {of({DT::BFloat16, DT::Complex32}),          of({DT::Complex32}), of({DT::Complex32})}},
    {CpuKernel::MatrixExp,         {of({DT::Float16, DT::Complex32}),           of({DT::Complex32}), of({DT::Complex32})}},
    {CpuKernel::Sqrt,              {of({DT::Float16, DT::Complex32}),           of({DT::Complex32}), of({DT::Complex32})}},
    {CpuKernel::MaskedSoftmax,     {of({DT::Float16}),                          of({}), of({})}},
    {CpuKernel::MaskedSoftmaxSrcMask, {DTypeSet::all(),                         of({}), of({})}},
    {CpuKernel::AntialiasUpsample, {of({DT::UInt8}),                            of({}), of({})}},
    {CpuKernel::Range,             {of({DT::Float16}),                          of({}), of({})}},
    {CpuKernel::FractionalMaxPool, {of({DT::Float16, DT::BFloat16}),            of({}), of({})}},
    {CpuKernel::Cross,             {of({DT::Bool, DT::Float16, DT::Complex32}), of({DT::Bool, DT::Complex32}), of({DT::Bool, DT::Complex32})}},
    {CpuKernel::HistogramBins,     {of({DT::Float16}),                          of({}), of({})}},
    {CpuKernel::EncoderLayer,      {of({DT::Float16}),                          of({}), of({})}},
    {CpuKernel::MixedNorm,         {of({DT::Float16}),                          of({}), of({})}},
};

} // namespace

bool lacksCpuKernel(TorchVersion v, CpuKernel k, DType d) {
  for (const Gaps &g : kGaps)
    if (g.kernel == k) return g.lacks[v].contains(d);
  return false;
}

namespace {

std::string_view keyOfLine(std::string_view text, size_t at) {
  const std::string_view rest = text.substr(at);
  return rest.substr(0, std::min(rest.find(' '), rest.find('\n')));
}
size_t nextLine(std::string_view text, size_t at) {
  const size_t nl = text.find('\n', at);
  return nl == std::string_view::npos ? text.size() : nl + 1;
}

} // namespace

std::string_view measuredCpuKernelGapLines(TorchVersion v, std::string_view key) {
  // data/cpu-kernel-gaps-<V>.txt is sorted by line, so by key (no key has a byte below '!'): a
  // binary search over its lines, no index built (2.14's has ~12,000 lines; indexing them cost
  // every process that infers an op 5 M instructions).
  const std::string_view text = embeddedText(EmbeddedData::CpuKernelGaps, v);
  size_t lo = 0, hi = text.size(); // line starts: keys before lo are < key, from hi on >= key
  while (lo < hi && text[lo] == '#') lo = nextLine(text, lo);
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (mid != lo && text[mid - 1] != '\n') mid = nextLine(text, mid); // the first line start from mid on
    if (mid >= hi) mid = lo;
    if (keyOfLine(text, mid) < key) lo = nextLine(text, mid);
    else hi = mid;
  }
  size_t end = lo;
  while (end < text.size() && keyOfLine(text, end) == key) end = nextLine(text, end);
  return text.substr(lo, end - lo);
}

std::optional<MeasuredGap> measuredCpuKernelGap(std::string_view lines, DType d) {
  const std::string_view c10 = c10Name(d);
  for (size_t at = 0; at < lines.size();) { // `KEY C10 KERNEL [ROLES]` lines
    const size_t nl = std::min(lines.find('\n', at), lines.size());
    const std::string_view line = lines.substr(at, nl - at);
    at = nl + 1;
    const size_t a = line.find(' '), b = line.find(' ', a + 1);
    if (b == std::string_view::npos || line.substr(a + 1, b - a - 1) != c10) continue;
    const std::string_view rest = line.substr(b + 1);
    const size_t c = rest.find(' ');
    return MeasuredGap{rest.substr(0, c), c == std::string_view::npos ? std::string_view() : rest.substr(c + 1)};
  }
  return std::nullopt;
}

} // namespace dtf
