//===- bench/ops.cpp - infer-op latency and conformance-harness throughput ----===//
//
// infer/<op>:    bindArguments + infer on pre-parsed operand values (the
//                library call behind `dtypeflow infer-op` and the pass)
// infer-op/<op>: the whole `infer-op` path: operand notation parsing too
// conformance/<op>: the harness (every dtype x rank x number kind, each case
//                run in libtorch and by the rule), in cases per second
//
//===----------------------------------------------------------------------===//
#include "ops/semantics.h"
#include "common.h"

#include "conformance.h"
#include "ops/infer.h"
#include "ops/notation.h"
#include "torch_runner.h"

#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>
#include <fmt/format.h>

namespace dtf::bench {
namespace {

struct OpCase {
  const char *label, *key;
  std::vector<std::pair<std::string, std::string>> args; ///< name = notation
};

const std::vector<OpCase> &opCases() {
  static const std::vector<OpCase> c = {
      {"add_f32_f32", "aten::add.Tensor", {{"self", "float32:r4"}, {"other", "float32:r4"}}},
      {"add_i32r1_f64r0", "aten::add.Tensor", {{"self", "int32:r1"}, {"other", "float64:r0"}}},
      {"add_unknown_dtype", "aten::add.Tensor", {{"self", "?:r2"}, {"other", "float32:r2"}}},
      // Four module parameters of unknown dtype and rank (prim::GetAttr): 26^4 cases, enumerated on demand.
      {"batch_norm_unknown_params", "aten::batch_norm",
       {{"input", "float32:r4"}, {"weight", "?"}, {"bias", "?"}, {"running_mean", "?"}, {"running_var", "?"},
        {"training", "False"}, {"momentum", "0.1"}, {"eps", "1e-5"}, {"cudnn_enabled", "True"}}},
      {"conv2d", "aten::conv2d", {{"input", "float32:r4"}, {"weight", "float32:r4"}, {"bias", "float32:r1"}}},
      {"sum_dim", "aten::sum.dim_IntList", {{"self", "int32:r3"}, {"dim", "[1]"}, {"keepdim", "False"}}},
      {"mm_error", "aten::mm", {{"self", "float32:r2"}, {"mat2", "float64:r2"}}},
      {"where", "aten::where.self", {{"condition", "bool:r2"}, {"self", "float16:r2"}, {"other", "float32:r0"}}},
  };
  return c;
}

std::vector<std::pair<std::string, Value>> parseArgs(const Schema &s, const OpCase &c) {
  std::vector<std::pair<std::string, Value>> named;
  for (const auto &[name, text] : c.args) {
    int i = s.argIndex(name);
    auto v = parseNotation(text, i >= 0 ? s.args[i].type.get() : nullptr);
    if (!v.value) throw std::runtime_error(fmt::format("{}: {}", c.label, v.error));
    named.emplace_back(name, *v.value);
  }
  return named;
}

void benchInfer(benchmark::State &state, const OpCase *c, bool withParsing) {
  const Schema *s = SchemaTable::of(TorchVersion::V1_13).find(c->key);
  if (!s || !Semantics::of(TorchVersion::V1_13).registry().find(c->key)) {
    state.SkipWithError("no schema or rule");
    for (auto _ : state) {}
    return;
  }
  auto named = parseArgs(*s, *c);
  for (auto _ : state) {
    if (withParsing) named = parseArgs(*s, *c);
    BindResult b = bindArguments(*s, {}, named);
    InferOutcome out = infer(Semantics::of(TorchVersion::V1_13).registry(), *s, b.args);
    benchmark::DoNotOptimize(out.outputs.data());
  }
  state.SetItemsProcessed(state.iterations());
}

void benchConformance(benchmark::State &state, std::string key) {
  const OpRule *rule = Semantics::of(TorchVersion::V1_13).registry().find(key);
  if (!rule) {
    state.SkipWithError("no rule");
    for (auto _ : state) {}
    return;
  }
  oracle::RunOptions opts;
  uint64_t cases = 0;
  for (auto _ : state) cases += oracle::runRule(*rule, opts).cases;
  state.counters["cases"] = static_cast<double>(cases) / std::max<int64_t>(state.iterations(), 1);
  state.counters["cases/s"] = benchmark::Counter(static_cast<double>(cases), benchmark::Counter::kIsRate);
}

} // namespace

void registerOpBenchmarks() {
  for (const OpCase &c : opCases()) {
    benchmark::RegisterBenchmark(fmt::format("infer/{}", c.label).c_str(), benchInfer, &c, false)
        ->Unit(benchmark::kNanosecond);
    benchmark::RegisterBenchmark(fmt::format("infer-op/{}", c.label).c_str(), benchInfer, &c, true)
        ->Unit(benchmark::kNanosecond);
  }
  oracle::disableTorchBacktraces();
  at::set_num_threads(1);
  for (const char *key : {"aten::add.Tensor", "aten::sin", "aten::sum.dim_IntList", "aten::conv2d"})
    benchmark::RegisterBenchmark(fmt::format("conformance/{}", key).c_str(), benchConformance, std::string(key))
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
}

} // namespace dtf::bench
