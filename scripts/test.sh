#!/usr/bin/env bash
# Build and run every test: unit tests, the exhaustive promotion oracle, the
# conformance harness against libtorch, golden IR tests and CLI checks.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
echo "test.sh: all tests passed in $(( $(date +%s) - start )) s"
