//===- ops/cpu_kernels.cpp - the CPU kernel gaps of each version ----------===//
//
// Measured with the exhaustive harness (tests/oracle) and small probes
// (scripts/probes/cpu_kernels.py, runnable under both versions).
//
//===----------------------------------------------------------------------===//
#include "ops/cpu_kernels.h"

#include "dtype/lattice.h"
#include "dtype/version_row.h"

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

} // namespace dtf
