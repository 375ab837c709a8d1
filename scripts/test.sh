#!/usr/bin/env bash
# Build and run every test: unit tests, the exhaustive promotion oracle, the
# conformance harness against libtorch, golden IR tests and CLI checks; then
# the same tests (without libtorch) under ASan/UBSan and the fuzz targets
# for a bounded time (scripts/sanitize.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
scripts/sanitize.sh
echo "test.sh: all tests passed in $(( $(date +%s) - start )) s"
