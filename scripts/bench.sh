#!/usr/bin/env bash
# Run the benchmarks (not part of the tests): dtypeflow's refinement pass vs
# libtorch's DtypePropagation (same parsed graphs, same process) and vs six
# meta/fake-tensor routes (bench/meta_route.py --help, Debian python3-torch), synthetic
# scaling to 10^6 nodes, infer-op latency, conformance-harness throughput.
# Results and how to read them: docs/performance.md.
#
#   scripts/bench.sh [google-benchmark flags, e.g. --benchmark_filter=refine/]
#
# Env: BUILD_DIR (default build-bench, a Release build), SKIP_DEPS=1 to skip
# scripts/install-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-bench}
[[ "${SKIP_DEPS:-0}" == 1 ]] || scripts/install-deps.sh
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON >/dev/null
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
echo "bench.sh: output saved to $out/bench_output.txt and $out/bench_output_default_malloc.txt"
