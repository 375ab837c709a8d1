//===- bench/common.h - shared state of the dtypeflow benchmarks -*- C++ -*-===//
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace dtf::bench {

/// Heap bytes live / peak since start (global operator new is counted).
size_t heapLive();
size_t heapPeak();
void resetHeapPeak(); ///< peak := live
/// Start (counters reset to 0) or stop heap accounting; off by default so the
/// timed loops run on the plain allocator.
void trackHeap(bool on);
size_t peakRssKiB();  ///< getrusage max RSS

/// Mean real time per iteration (seconds) of each finished benchmark, by name.
const std::map<std::string, double> &timings();

/// Command-line settings (set before benchmarks are registered).
struct Settings {
  std::string sourceDir; ///< repo root (examples/)
  std::string zooDir;    ///< traced torchvision IR (bench/gen_zoo_ir.py)
  std::string metaJson;  ///< bench/meta_route.py output (every meta/fake route); empty = none
  std::vector<size_t> scales = {1000, 10000, 100000, 1000000};
};
Settings &settings();

void registerModelBenchmarks();
void registerSyntheticBenchmarks();
void registerOpBenchmarks();
void printModelSummary();
void printSyntheticSummary();

/// Whether a benchmark run failed or was skipped: Google Benchmark 1.8 replaced
/// Run::error_occurred (Debian 12: 1.7) by Run::skipped (sid: 1.9).
template <typename R> bool failedOrSkipped(const R &r) {
  if constexpr (requires { r.skipped; }) return r.skipped != decltype(r.skipped){};
  else return r.error_occurred;
}

} // namespace dtf::bench
