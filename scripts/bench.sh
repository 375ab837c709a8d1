#!/usr/bin/env bash
# Run the benchmarks (not part of the tests): dtypeflow's refinement pass vs
# libtorch's DtypePropagation (same parsed graphs, same process) and vs six
# meta/fake-tensor routes (bench/meta_route.py --help, Debian python3-torch), synthetic
# scaling to 10^6 nodes, infer-op latency, conformance-harness throughput.
# Results and how to read them: docs/performance.md.
#
#   scripts/bench.sh [google-benchmark flags, e.g. --benchmark_filter=refine/]
#   scripts/bench.sh --startup        # only the CLI's start time (hyperfine, against /bin/true)
#   scripts/bench.sh --pt2 DIR        # only reading the .pt2 archives in DIR (bench/pt2.cpp)
#
# Env: BUILD_DIR (default build-bench, a Release build), SKIP_DEPS=1 to skip
# scripts/install-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-bench}
[[ "${SKIP_DEPS:-0}" == 1 ]] || scripts/install-deps.sh # hyperfine among them
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON >/dev/null

# The whole process of a one-question command against /bin/true, in the same
# hyperfine run; the goal (docs/performance.md) is at most 3x /bin/true + 2 ms.
startup() {
  cmake --build "$BUILD_DIR" --target dtypeflow -j "$(nproc)" >/dev/null
  local cli="$BUILD_DIR/tools/dtypeflow" json="$BUILD_DIR/bench/startup.json"
  mkdir -p "$BUILD_DIR/bench"
  hyperfine -N --warmup 10 --runs 200 --export-json "$json" /bin/true \
    "$cli result-type int8:r1 float" "$cli infer-op aten::add.Tensor self=int32:r1 other=float64:r0"
  /usr/bin/python3 - "$json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["results"]
true = runs[0]
for r in runs[1:]:
    bound = 3 * true["mean"] + 2e-3
    print(f"{r['command'].split('/')[-1]}: {r['mean'] * 1e3:.2f} ms (median {r['median'] * 1e3:.2f} ms) = "
          f"{r['mean'] / true['mean']:.1f}x /bin/true ({true['mean'] * 1e3:.2f} ms); "
          f"goal 3x + 2 ms = {bound * 1e3:.2f} ms: {'met' if r['mean'] <= bound else 'NOT met'}")
PY
}

if [[ "${1:-}" == --startup ]]; then startup; exit 0; fi
if [[ "${1:-}" == --pt2 ]]; then
  cmake --build "$BUILD_DIR" --target dtypeflow_bench_pt2 -j "$(nproc)" >/dev/null
  "$BUILD_DIR/bench/dtypeflow_bench_pt2" "${2:?--pt2 DIR}"/*.pt2
  exit 0
fi
cmake --build "$BUILD_DIR" --target dtypeflow_bench -j "$(nproc)"
out="$BUILD_DIR/bench"
# More torchvision models, traced into the build dir (kept between runs).
/usr/bin/python3 bench/gen_zoo_ir.py "$out/zoo"
# The meta/fake-tensor references, timed for the same models.
/usr/bin/python3 bench/meta_route.py "$out/meta_route.json"
# glibc's malloc on transparent huge pages: at 10^6 nodes the graph's own
# memory (~200 MB in 4 KiB pages) makes TLB misses and page faults dominate
# on this kind of VM. Both sides of every comparison run under it; the
# 10^6-node graphs are also run with the default malloc below, for the record.
GLIBC_TUNABLES=glibc.malloc.hugetlb=1 \
  "$out/dtypeflow_bench" --meta="$out/meta_route.json" --zoo="$out/zoo" "$@" | tee "$out/bench_output.txt"
if [[ $# == 0 ]]; then
  echo "== the 10^6-node graphs with glibc's default malloc (4 KiB pages) =="
  "$out/dtypeflow_bench" --benchmark_filter='scale/.*/1000000/' | grep -E '^(graph|scale/[a-z]+/1000000 )'
fi | tee "$out/bench_output_default_malloc.txt"
[[ $# != 0 ]] || startup | tee "$BUILD_DIR/bench/startup.txt"
echo "bench.sh: output saved to $out/bench_output.txt and $out/bench_output_default_malloc.txt"
