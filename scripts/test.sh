#!/usr/bin/env bash
# Build and run every test, for the three PyTorch versions dtypeflow models:
#   1. the host (Debian 12, libtorch 1.13): unit tests (both versions' semantics,
#      no libtorch), the exhaustive promotion oracle, the conformance harness
#      against libtorch 1.13, golden IR tests, CLI checks, rule files, the
#      installed package;
#   2. PyTorch 2.14 in a Debian sid root (scripts/torch214-root.sh): the tests
#      linked to libtorch (ctest label `torch`) built against libtorch 2.14.1:
#      conformance of every rule, promotion and result_type oracles, the
#      TorchScript frontend, the custom op; and the Python package's tests
#      (ctest label `python`) with the root's torch 2.14 (ExportedProgram included);
#   3. PyTorch 2.6 in a Debian 13 trixie root (scripts/torch-root.sh 2.6): the
#      same tests as stage 2 but the full conformance harness (to keep CI under
#      50 min), which runs on a fixed sample instead (DTF_TORCH26_SAMPLE=N cases
#      per sample variant, strided, the same every run; default 64, 0 skips it);
#      the full 2.6 run is README's "Proving a version" command;
#   4. the tests without libtorch under ASan/UBSan, and the fuzz targets for a
#      bounded time (scripts/sanitize.sh).
# DTF_SKIP_TORCH214=1 skips stage 2, DTF_SKIP_TORCH26=1 stage 3 (each needs root
# and the network once, to debootstrap its root: ~3-8 min, 2 GB).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
stage() { echo "test.sh: $* ($(( $(date +%s) - start )) s so far)"; }

scripts/install-deps.sh
# The root needs chroot and mount: as root, or through sudo.
sudo=()
[[ $(id -u) == 0 ]] || sudo=(sudo -E)
root214=("${sudo[@]}" scripts/torch214-root.sh)
root26=("${sudo[@]}" scripts/torch-root.sh 2.6)
# Making the roots is mostly download and unpacking: it runs beside the
# host build (its logs: build-logs/torch*-ensure.log) and is waited for after.
ensure_pid= ensure26_pid=
mkdir -p build-logs
if [[ ${DTF_SKIP_TORCH214:-0} != 1 ]]; then
  "${root214[@]}" ensure > build-logs/torch214-ensure.log 2>&1 &
  ensure_pid=$!
fi
if [[ ${DTF_SKIP_TORCH26:-0} != 1 ]]; then
  "${root26[@]}" ensure > build-logs/torch26-ensure.log 2>&1 &
  ensure26_pid=$!
fi

stage "host: build"
scripts/build.sh
stage "host: ctest (libtorch 1.13)"
ctest --test-dir build --output-on-failure -j "$(nproc)"

# root_stage V ENSURE_PID LOG ROOT...: wait for root V's ensure, then build its torch and
# Python targets there.
root_stage() {
  local v=$1 pid=$2 log=$3; shift 3
  stage "$v: the root"
  if ! wait "$pid"; then
    tail -40 "$log"
    echo "test.sh: making the PyTorch $v root failed ($log)" >&2
    exit 1
  fi
  tail -3 "$log"
  stage "$v: build (targets dtypeflow_torch_tests, dtypeflow_python)"
  "$@" build --target dtypeflow_torch_tests dtypeflow_python
}
if [[ ${DTF_SKIP_TORCH214:-0} == 1 ]]; then
  echo "test.sh: DTF_SKIP_TORCH214=1: PyTorch 2.14 stage skipped"
else
  root_stage 2.14 "$ensure_pid" build-logs/torch214-ensure.log "${root214[@]}"
  stage "2.14: ctest -L 'torch|python' (libtorch 2.14, python3-torch 2.14)"
  "${root214[@]}" test -L 'torch|python'
fi
if [[ ${DTF_SKIP_TORCH26:-0} == 1 ]]; then
  echo "test.sh: DTF_SKIP_TORCH26=1: PyTorch 2.6 stage skipped"
else
  root_stage 2.6 "$ensure26_pid" build-logs/torch26-ensure.log "${root26[@]}"
  stage "2.6: ctest -L 'torch|python' but the full conformance (libtorch 2.6, python3-torch 2.6)"
  "${root26[@]}" test -L 'torch|python' -E '^conformance_all_rules$'
  # The 2.6 harness on a fixed sample (DTF_TORCH26_SAMPLE cases per sample variant, default
  # 64): measured here, 249,867 cases of 2368 rules in 14-19 s with -j1 (the full run, README's
  # "Proving a version": 10.75 M cases in 474 s with -j2, 0 wrong).
  sample=${DTF_TORCH26_SAMPLE:-64}
  if [[ $sample != 0 ]]; then
    stage "2.6: conformance on a fixed sample (--max-cases $sample)"
    "${root26[@]}" run build-2.6/tests/oracle/dtypeflow_conformance -q -j 1 \
      --known tests/oracle/known-2.6.txt --max-cases "$sample"
  fi
fi
stage "sanitizers and fuzzing"
scripts/sanitize.sh
echo "test.sh: all tests passed in $(( $(date +%s) - start )) s"
