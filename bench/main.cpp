//===- bench/main.cpp - the dtypeflow benchmark driver ---------------------===//
//
// dtypeflow_bench [--source=DIR] [--zoo=DIR] [--meta=FILE.json] [--scales=1000,...]
//                 [google benchmark flags]
// Runs every benchmark (real models vs libtorch's DtypePropagation; the
// meta/fake-tensor routes timed by bench/meta_route.py are read from --meta
// for the ratios; synthetic scaling, infer-op latency, conformance
// throughput), then prints the summary tables. scripts/bench.sh is the one
// documented way to run it.
//
//===----------------------------------------------------------------------===//
#include "common.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <new>
#include <sys/resource.h>
#include <unistd.h>

// --- heap accounting: every global operator new/delete --------------------
namespace {
std::atomic<size_t> gLive{0}, gPeak{0};
std::atomic<bool> gTrack{false}; // accounting only inside measurement windows (keeps timing runs unperturbed)

void *countedAlloc(size_t n, size_t align = 0) {
  void *p = align ? std::aligned_alloc(align, (n + align - 1) / align * align) : std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  if (!gTrack.load(std::memory_order_relaxed)) return p;
  size_t live = gLive.fetch_add(malloc_usable_size(p), std::memory_order_relaxed) + malloc_usable_size(p);
  size_t peak = gPeak.load(std::memory_order_relaxed);
  while (live > peak && !gPeak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {}
  return p;
}
void countedFree(void *p) {
  if (!p) return;
  if (gTrack.load(std::memory_order_relaxed)) gLive.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
  std::free(p);
}
} // namespace

void *operator new(size_t n) { return countedAlloc(n); }
void *operator new[](size_t n) { return countedAlloc(n); }
void *operator new(size_t n, const std::nothrow_t &) noexcept {
  try { return countedAlloc(n); } catch (...) { return nullptr; }
}
void *operator new[](size_t n, const std::nothrow_t &) noexcept {
  try { return countedAlloc(n); } catch (...) { return nullptr; }
}
void *operator new(size_t n, std::align_val_t a) { return countedAlloc(n, static_cast<size_t>(a)); }
void *operator new[](size_t n, std::align_val_t a) { return countedAlloc(n, static_cast<size_t>(a)); }
void operator delete(void *p) noexcept { countedFree(p); }
void operator delete[](void *p) noexcept { countedFree(p); }
void operator delete(void *p, size_t) noexcept { countedFree(p); }
void operator delete[](void *p, size_t) noexcept { countedFree(p); }
void operator delete(void *p, std::align_val_t) noexcept { countedFree(p); }
void operator delete[](void *p, std::align_val_t) noexcept { countedFree(p); }
void operator delete(void *p, size_t, std::align_val_t) noexcept { countedFree(p); }
void operator delete[](void *p, size_t, std::align_val_t) noexcept { countedFree(p); }

namespace dtf::bench {

size_t heapLive() { return gLive.load(); }
size_t heapPeak() { return gPeak.load(); }
void resetHeapPeak() { gPeak.store(gLive.load()); }
void trackHeap(bool on) {
  gLive.store(0);
  gPeak.store(0);
  gTrack.store(on);
}
size_t peakRssKiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<size_t>(u.ru_maxrss);
}

Settings &settings() {
  static Settings s;
  return s;
}

namespace {
std::map<std::string, double> gTimings;

/// Console output as usual, plus the per-benchmark mean time for the summaries.
class CapturingReporter : public benchmark::ConsoleReporter {
public:
  explicit CapturingReporter(bool color)
      : ConsoleReporter(color ? OutputOptions(OO_Tabular | OO_Color) : OO_Tabular) {}
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &r : runs) {
      if (failedOrSkipped(r) || r.run_type != Run::RT_Iteration || r.iterations == 0) continue;
      gTimings[r.run_name.function_name] = r.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(r.time_unit);
    }
    ConsoleReporter::ReportRuns(runs);
  }
};
} // namespace

const std::map<std::string, double> &timings() { return gTimings; }

} // namespace dtf::bench

int main(int argc, char **argv) {
  using namespace dtf::bench;
  Settings &s = settings();
#ifdef DTF_SOURCE_DIR
  s.sourceDir = DTF_SOURCE_DIR;
#endif
#ifdef DTF_BENCH_ZOO_DIR
  s.zooDir = DTF_BENCH_ZOO_DIR;
#endif
  std::vector<char *> rest;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&](const char *flag) -> const char * {
      size_t n = std::strlen(flag);
      return a.compare(0, n, flag) == 0 ? argv[i] + n : nullptr;
    };
    if (const char *v = val("--source=")) s.sourceDir = v;
    else if (const char *v = val("--zoo=")) s.zooDir = v;
    else if (const char *v = val("--meta=")) s.metaJson = v;
    else if (const char *v = val("--scales=")) {
      s.scales.clear();
      for (const char *p = v; *p;) {
        char *end;
        s.scales.push_back(std::strtoull(p, &end, 10));
        p = *end == ',' ? end + 1 : end;
        if (end == p && *p) break;
      }
    } else rest.push_back(argv[i]);
  }
  bool color = isatty(1);
  for (char *a : rest)
    if (std::strcmp(a, "--benchmark_color=false") == 0) color = false;
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 2;
  registerModelBenchmarks();
  registerSyntheticBenchmarks();
  registerOpBenchmarks();
  CapturingReporter reporter(color);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  printModelSummary();
  printSyntheticSummary();
  return 0;
}
