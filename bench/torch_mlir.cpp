//===- bench/torch_mlir.cpp - reading and refining Torch-dialect MLIR -----===//
//
// dtypeflow_bench_torch_mlir [google benchmark flags]: a module of N ops as
// torch-mlir prints it (one function: a chain add.Tensor -> mul.Scalar ->
// relu -> to.dtype ..., every result typed `!torch.vtensor`, with the
// constants torch-mlir's importer writes), made in memory, then
//  - Read: the Torch-dialect reader alone (text to graphs),
//  - Refine: refining the module read (once, outside the loop),
//  - ReadRefine: both (the target: 10^6 ops/s on one core),
//  - ReadRefinePrint: both, and printing the module back refined (annotate).
// Reported: ops per second (CPU time).
//
// resnet18: the .pt2 path (the archive read and its graph refined, as
// `dtypeflow annotate X.pt2` does) against the same program written as Torch
// dialect (annotate --format torch-mlir) with every op result type erased to
// `!torch.vtensor`, read and refined; the ratio is printed after the run.
// The archive is $DTF_BENCH_RESNET18, else build/pt2-models/resnet18.pt2
// (tests/pt2/gen_pt2.py --big); without one these two are skipped.
//
// Needs no libtorch (built with the core whenever Google Benchmark is found).
//
//===----------------------------------------------------------------------===//
#include "common.h"

#include "api/program.h"
#include "frontends/torch_mlir/mlir_printer.h"
#include "frontends/torch_mlir/mlir_reader.h"
#include "frontends/torch_mlir/mlir_refine.h"
#include "frontends/torch_mlir/mlir_writer.h"
#include "ops/semantics.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
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

const Semantics &sem() { return Semantics::of(TorchVersion::V2_14); }

refine::Options options() {
  refine::Options opts;
  opts.semantics = Semantics::shared(TorchVersion::V2_14);
  return opts;
}

/// The reader takes its text by value (the CLI moves the file's in): the copy is not timed.
torch_mlir::Module readUntimedCopy(benchmark::State &state, const std::string &text) {
  state.PauseTiming();
  std::string copy = text;
  state.ResumeTiming();
  return torch_mlir::readModule(std::move(copy), sem());
}

void opsPerSecond(benchmark::State &state, double ops) {
  state.counters["ops/s"] = benchmark::Counter(ops * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_TorchMlirRead(benchmark::State &state) {
  const std::string text = makeModule(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    torch_mlir::Module m = readUntimedCopy(state, text);
    benchmark::DoNotOptimize(m.functions.data());
  }
  opsPerSecond(state, static_cast<double>(state.range(0)));
}

void BM_TorchMlirRefine(benchmark::State &state) {
  const torch_mlir::Module m = torch_mlir::readModule(makeModule(static_cast<int>(state.range(0))), sem());
  const refine::Options opts = options();
  for (auto _ : state) {
    std::vector<refine::Result> r = torch_mlir::refineModule(m, opts);
    benchmark::DoNotOptimize(r.data());
  }
  opsPerSecond(state, static_cast<double>(state.range(0)));
}

/// Read and refine; with `print`, print the module back refined too (annotate).
void readRefine(benchmark::State &state, bool print) {
  const std::string text = makeModule(static_cast<int>(state.range(0)));
  const refine::Options opts = options();
  for (auto _ : state) {
    torch_mlir::Module m = readUntimedCopy(state, text);
    std::vector<refine::Result> r = torch_mlir::refineModule(m, opts);
    benchmark::DoNotOptimize(r.data());
    if (print) {
      std::string out = torch_mlir::annotateModule(m, r);
      benchmark::DoNotOptimize(out.data());
    }
  }
  opsPerSecond(state, static_cast<double>(state.range(0)));
}
void BM_TorchMlirReadRefine(benchmark::State &state) { readRefine(state, false); }
void BM_TorchMlirReadRefinePrint(benchmark::State &state) { readRefine(state, true); }

BENCHMARK(BM_TorchMlirRead)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TorchMlirRefine)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TorchMlirReadRefine)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TorchMlirReadRefinePrint)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

// --- resnet18: .pt2 against the same program as Torch dialect ---------------

std::string resnet18Path() {
  if (const char *p = std::getenv("DTF_BENCH_RESNET18")) return p;
  return "build/pt2-models/resnet18.pt2";
}

/// Each op result type of a generic-form op (`%x = "torch.aten.relu"(...) : (...) -> T`) written `!torch.vtensor`.
std::string eraseResultTypes(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line(text.data() + pos, (nl == std::string::npos ? text.size() : nl + 1) - pos);
    pos += line.size();
    size_t arrow = line.rfind(") -> ");
    if (line.find("= \"torch.") == std::string_view::npos || arrow == std::string_view::npos) {
      out += line;
      continue;
    }
    out += line.substr(0, arrow + 5);
    std::string_view rest = line.substr(arrow + 5);
    for (size_t t; (t = rest.find("!torch.vtensor<")) != std::string_view::npos;) {
      out += rest.substr(0, t + 14);
      rest = rest.substr(rest.find('>', t) + 1);
    }
    out += rest;
  }
  return out;
}

struct Resnet18 {
  std::string path;
  std::string mlir; ///< as Torch dialect, op result types erased
  size_t ops = 0;   ///< the archive's graph nodes
};

const std::optional<Resnet18> &resnet18() {
  static const std::optional<Resnet18> r = []() -> std::optional<Resnet18> {
    Resnet18 out{resnet18Path(), {}, 0};
    if (!std::filesystem::exists(out.path)) return std::nullopt;
    api::SemanticsRef s = api::semantics("2.14");
    api::LoadedProgram p = api::readProgram(out.path, "", *s);
    refine::Result res = refine::refineGraph(*p.graph, api::refineOptions(p, s, {}));
    torch_mlir::WriteResult w = torch_mlir::writeProgram(*p.graph, *p.archive, res, *s);
    if (!w.error.empty()) return std::nullopt;
    out.mlir = eraseResultTypes(w.text);
    out.ops = p.graph->nodes.size();
    return out;
  }();
  return r;
}

void BM_Resnet18Pt2(benchmark::State &state) {
  if (!resnet18()) return state.SkipWithError(("no archive at " + resnet18Path()).c_str());
  api::SemanticsRef s = api::semantics("2.14");
  for (auto _ : state) {
    api::LoadedProgram p = api::readProgram(resnet18()->path, "", *s);
    refine::Result r = refine::refineGraph(*p.graph, api::refineOptions(p, s, {}));
    benchmark::DoNotOptimize(r.values.data());
  }
}

void BM_Resnet18Mlir(benchmark::State &state) {
  if (!resnet18()) return state.SkipWithError(("no archive at " + resnet18Path()).c_str());
  const refine::Options opts = options();
  for (auto _ : state) {
    torch_mlir::Module m = readUntimedCopy(state, resnet18()->mlir);
    std::vector<refine::Result> r = torch_mlir::refineModule(m, opts);
    benchmark::DoNotOptimize(r.data());
  }
}

BENCHMARK(BM_Resnet18Pt2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Resnet18Mlir)->Unit(benchmark::kMillisecond);

/// The console report, with each run's CPU time per iteration kept for the ratio.
class Reporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &r : runs) // with --benchmark_repetitions, the median
      if (!dtf::bench::failedOrSkipped(r) && r.iterations && (r.aggregate_name.empty() || r.aggregate_name == "median"))
        cpu[r.run_name.str()] = r.GetAdjustedCPUTime();
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> cpu;
};

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  Reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  auto pt2 = reporter.cpu.find("BM_Resnet18Pt2"), mlir = reporter.cpu.find("BM_Resnet18Mlir");
  if (pt2 != reporter.cpu.end() && mlir != reporter.cpu.end())
    fmt::print("resnet18 ({} nodes): .mlir read+refine / .pt2 read+refine = {:.2f} (CPU time; the issue's bound: 2)\n",
               resnet18()->ops, mlir->second / pt2->second);
  benchmark::Shutdown();
  return 0;
}
