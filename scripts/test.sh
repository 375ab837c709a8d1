#!/usr/bin/env bash
# Build and run every test, for both PyTorch versions dtypeflow models:
#   1. the host (Debian 12, libtorch 1.13): unit tests (both versions' semantics,
#      no libtorch), the exhaustive promotion oracle, the conformance harness
#      against libtorch 1.13, golden IR tests, CLI checks, rule files, the
#      installed package;
#   2. PyTorch 2.14 in a Debian sid root (scripts/torch214-root.sh): the tests
#      linked to libtorch (ctest label `torch`) built against libtorch 2.14.1:
#      conformance of every rule, promotion and result_type oracles, the
#      TorchScript frontend, the custom op;
#   3. the tests without libtorch under ASan/UBSan, and the fuzz targets for a
#      bounded time (scripts/sanitize.sh).
# DTF_SKIP_TORCH214=1 skips stage 2 (it needs root and the network once, to
# debootstrap the root: ~3 min, 2 GB).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
stage() { echo "test.sh: $* ($(( $(date +%s) - start )) s so far)"; }

stage "host: build"
scripts/build.sh
stage "host: ctest (libtorch 1.13)"
ctest --test-dir build --output-on-failure -j "$(nproc)"

if [[ ${DTF_SKIP_TORCH214:-0} == 1 ]]; then
  echo "test.sh: DTF_SKIP_TORCH214=1: PyTorch 2.14 stage skipped"
else
  stage "2.14: the root"
  scripts/torch214-root.sh ensure
  stage "2.14: build (target dtypeflow_torch_tests)"
  scripts/torch214-root.sh build --target dtypeflow_torch_tests
  stage "2.14: ctest -L torch (libtorch 2.14)"
  scripts/torch214-root.sh test -L torch
fi
stage "sanitizers and fuzzing"
scripts/sanitize.sh
echo "test.sh: all tests passed in $(( $(date +%s) - start )) s"
