//===- bench/torch_mlir.cpp - reading and refining Torch-dialect MLIR -----===//
//
// dtypeflow_bench_torch_mlir [google benchmark flags]: a module of N ops as
// torch-mlir prints it (one function: a chain add.Tensor -> mul.Scalar ->
// relu -> to.dtype ..., every result typed `!torch.vtensor`, with the
// constants torch-mlir's importer writes), made in memory, then
//  - read: the Torch-dialect reader alone (text to graph),
//  - read+refine: reading, refining, and printing the module back refined.
// Reported: ops per second (the target: 10^6 on one core).
// Needs no libtorch (built with the core whenever Google Benchmark is found).
//
//===----------------------------------------------------------------------===//
#include "frontends/torch_mlir/mlir_printer.h"
#include "frontends/torch_mlir/mlir_reader.h"
#include "frontends/torch_mlir/mlir_refine.h"
#include "ops/semantics.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <string>

namespace {

using namespace dtf;

/// A function of about `ops` ops (constants included).
std::string makeModule(int ops) {
  std::string s = "module {\n  func.func @forward(%arg0: !torch.vtensor<[8,16],f32>) -> !torch.vtensor {\n"
                  "    %int1 = torch.constant.int 1\n    %float5 = torch.constant.float 5.000000e-01\n"
                  "    %int6 = torch.constant.int 6\n    %false = torch.constant.bool false\n"
                  "    %none = torch.constant.none\n";
  std::string prev = "%arg0", prevType = "!torch.vtensor<[8,16],f32>";
  for (int i = 0; i < ops; i += 4) {
    s += fmt::format("    %{0}a = torch.aten.add.Tensor {1}, {1}, %int1 : {2}, {2}, !torch.int -> !torch.vtensor\n", i,
                     prev, prevType);
    s += fmt::format("    %{0}m = torch.aten.mul.Scalar %{0}a, %float5 : !torch.vtensor, !torch.float -> !torch.vtensor\n", i);
    s += fmt::format("    %{0}r = torch.aten.relu %{0}m : !torch.vtensor -> !torch.vtensor\n", i);
    s += fmt::format("    %{0}t = torch.aten.to.dtype %{0}r, %int6, %false, %false, %none : !torch.vtensor, !torch.int, "
                     "!torch.bool, !torch.bool, !torch.none -> !torch.vtensor\n",
                     i);
    prev = fmt::format("%{}t", i);
    prevType = "!torch.vtensor";
  }
  s += fmt::format("    return {} : !torch.vtensor\n  }}\n}}\n", prev);
  return s;
}

void BM_TorchMlirRead(benchmark::State &state) {
  const std::string text = makeModule(static_cast<int>(state.range(0)));
  const Semantics &sem = Semantics::of(TorchVersion::V2_14);
  for (auto _ : state) {
    torch_mlir::Module m = torch_mlir::readModule(text, sem);
    benchmark::DoNotOptimize(m.functions.data());
  }
  state.counters["ops/s"] = benchmark::Counter(static_cast<double>(state.range(0)) * state.iterations(),
                                               benchmark::Counter::kIsRate);
}

void BM_TorchMlirReadRefinePrint(benchmark::State &state) {
  const std::string text = makeModule(static_cast<int>(state.range(0)));
  const Semantics &sem = Semantics::of(TorchVersion::V2_14);
  refine::Options opts;
  opts.semantics = Semantics::shared(TorchVersion::V2_14);
  for (auto _ : state) {
    torch_mlir::Module m = torch_mlir::readModule(text, sem);
    std::vector<refine::Result> r = torch_mlir::refineModule(m, opts);
    std::string out = torch_mlir::annotateModule(m, r);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["ops/s"] = benchmark::Counter(static_cast<double>(state.range(0)) * state.iterations(),
                                               benchmark::Counter::kIsRate);
}

BENCHMARK(BM_TorchMlirRead)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TorchMlirReadRefinePrint)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
