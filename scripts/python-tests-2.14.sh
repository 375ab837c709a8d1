#!/usr/bin/env bash
# The Python API's tests under PyTorch 2.14: build the module in the sid root
# (scripts/torch214-root.sh, into build-2.14/) and run python/tests there with
# the root's python3 and torch 2.14.x (the ExportedProgram tests run only there).
# Needs root, like torch214-root.sh. DTF_JOBS sets the build's jobs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/torch214-root.sh build --target dtypeflow_python
# The same test entry ctest runs on the host (python/CMakeLists.txt), run in the root.
scripts/torch214-root.sh test -L python
