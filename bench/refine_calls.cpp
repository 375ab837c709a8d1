//===- bench/refine_calls.cpp - the pass alone, for instruction counts ---===//
//
// dtypeflow_bench_refine [--torch V] [--reps N] [--no-sizes] [--planned] FILE ...
// reads each program (IR text or .pt2, as `dtypeflow check` does), refines it
// once untimed (one-time set-up: the registry, first-use tables), then N
// times (default 100), and prints the least and mean time per call.
// Under callgrind, count only the N calls (instrumentation starts after the
// first; valgrind's client request, a no-op outside valgrind):
//   valgrind --tool=callgrind --instr-atstart=no \
//     build/bench/dtypeflow_bench_refine --reps 100 examples/resnet18.ir
// (instructions / reps = per call). --no-sizes runs the dtype/rank-only pass
// (refine::Options::sizes = false), --planned keeps the graph's plan
// (refine::Options::plan). No libtorch: it builds with the core.
//
//===----------------------------------------------------------------------===//
#include "api/program.h"
#include "refine/refine.h"

#include <fmt/format.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace dtf;

struct Settings {
  std::string torch = "1.13";
  int reps = 100;
  bool sizes = true, planned = false;
};

void refineFile(const std::string &path, const Settings &s) {
  const api::SemanticsRef sem = api::semantics(s.torch);
  api::LoadedProgram p = api::readProgram(path, "", *sem);
  refine::Options opts = api::refineOptions(p, sem, api::ProgramOptions{{}, {}, "", /*check=*/true});
  opts.sizes = s.sizes;
  if (s.planned) opts.plan = refine::makeGraphPlan(*p.graph, sem, s.sizes);
  refine::Result first = refine::refineGraph(*p.graph, opts); // set-up outside the measured calls
  size_t known = 0;
  for (const Value &v : first.values) known += refine::fullyKnown(v);
  double least = 1e30, total = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (int i = 0; i < s.reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    refine::Result r = refine::refineGraph(*p.graph, opts);
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    least = std::min(least, dt);
    total += dt;
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  fmt::print("{}: {} nodes, {} values fully known, sizes {}, {}: least {:.2f} us, mean {:.2f} us per call\n",
             std::filesystem::path(path).filename().string(), p.graph->nodes.size(), known, s.sizes ? "on" : "off",
             s.planned ? "planned" : "cold", least * 1e6, total / s.reps * 1e6);
}

} // namespace

int main(int argc, char **argv) {
  Settings s;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) s.reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--torch" && i + 1 < argc) s.torch = argv[++i];
    else if (a == "--no-sizes") s.sizes = false;
    else if (a == "--planned") s.planned = true;
    else if (a == "--help" || a.starts_with("-")) {
      fmt::print("usage: dtypeflow_bench_refine [--torch V] [--reps N] [--no-sizes] [--planned] FILE ...\n");
      return a == "--help" ? 0 : 2;
    } else files.push_back(a);
  }
  try {
    for (const std::string &f : files) refineFile(f, s);
  } catch (const std::exception &e) {
    fmt::print(stderr, "dtypeflow_bench_refine: {}\n", e.what());
    return 2;
  }
  return 0;
}
