#!/usr/bin/env bash
# Where the speed goals of issues 35 and 36 stand, measured in one run on this
# machine (docs/performance.md, "Where issues 35 and 36 stand"): the CLI's
# start against /bin/true (hyperfine), `import dtypeflow` after `import torch`,
# annotate of a 10^6-node IR file (time and peak memory), the sized pass
# against the dtype-only one and against libtorch's DtypePropagation, and
# reading .pt2 archives against a bare simdjson parse. Run it on a quiet
# machine: every figure is a time.
#
#   scripts/goals.sh                 # uses ./build (scripts/build.sh makes it)
#   BUILD_DIR=build-bench scripts/goals.sh
#
# .pt2 archives are taken from $BUILD_DIR/pt2-zoo and pt2-dynamic when
# tests/pt2/gen_pt2.py wrote them there (the torch 2.14 root).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${BUILD_DIR:-build}
cli=$B/tools/dtypeflow
[[ -x $cli && -x $B/bench/dtypeflow_bench && -x $B/bench/dtypeflow_bench_refine ]] ||
  { echo "goals.sh: build $B first (scripts/build.sh)" >&2; exit 2; }
echo "== machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs; $(uptime | sed 's/.*load/load/')"
echo "== the CLI's start (goal: <= 3x /bin/true + 2 ms)"
hyperfine -N --warmup 10 --runs 200 /bin/true "$cli result-type int8:r1 float" \
  "$cli infer-op aten::add.Tensor self=int32:r1 other=float64:r0" \
  "$cli infer-op --torch 1.13 aten::conv2d input=float32:r4 weight=float32:r4" 2>&1 | grep -E 'Benchmark|Time'
echo "== import dtypeflow after import torch (goal: <= 20 ms; bytecode cached as when installed)"
PYTHONPATH=$B/python PYTHONDONTWRITEBYTECODE= /usr/bin/python3 -c "import dtypeflow"
for _ in 1 2 3 4 5; do
  PYTHONPATH=$B/python PYTHONDONTWRITEBYTECODE= /usr/bin/python3 -c "
import time; t0 = time.perf_counter(); import torch; t1 = time.perf_counter(); import dtypeflow; t2 = time.perf_counter()
print(f'torch {1e3 * (t1 - t0):.0f} ms, dtypeflow after it {1e3 * (t2 - t1):.1f} ms')"
done
echo "== annotate of a 10^6-node IR file (goal: <= 1 s, <= 250 MB)"
big=$B/bench/big.ir
[[ -f $big ]] || { mkdir -p "$B/bench"; /usr/bin/python3 bench/gen_chain_ir.py 1000000 "$big"; }
for _ in 1 2 3 4 5; do /usr/bin/time -f "%e s wall, %U s user, %S s sys, %M KB" "$cli" annotate "$big" -o /dev/null; done 2>&1 | grep wall
echo "== the sized pass against the dtype-only one (issue 35 goal: <= 2x), least of 3000 cold calls"
for m in examples/resnet18.ir examples/mobilenet_v2.ir; do
  for a in "" --no-sizes; do "$B/bench/dtypeflow_bench_refine" --reps 3000 $a "$m" 2>&1 | tail -1; done
done
echo "== against DtypePropagation (issue 36 goal: cold >= 10x), medians of 5"
GLIBC_TUNABLES=glibc.malloc.hugetlb=1 "$B/bench/dtypeflow_bench" \
  --benchmark_filter='refine/(dtypeflow|dtypeflow-planned|dtypeflow-nosizes|DtypePropagation)/(resnet18|mobilenet_v2)' \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>&1 | grep median
archives=()
for m in pt2-zoo/densenet121 pt2-zoo/resnet50 pt2-zoo/mobilenet_v3_large pt2-dynamic/resnet18; do
  [[ -f $B/$m.pt2 ]] && archives+=("$B/$m.pt2")
done
if ((${#archives[@]})); then
  echo "== reading .pt2 (goal: read+cold <= 2x (simdjson + cold); densenet121 <= 3 ms)"
  "$B/bench/dtypeflow_bench_pt2" "${archives[@]}" 2>&1 | tail -$((${#archives[@]} + 2))
else
  echo "== reading .pt2: no archives in $B/pt2-zoo or $B/pt2-dynamic (tests/pt2/gen_pt2.py --zoo / --dynamic)"
fi
