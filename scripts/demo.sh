#!/usr/bin/env bash
# The main job on a bundled example: build, then infer the dtype and rank of
# every tensor in examples/resnet18.ir (a traced torchvision resnet18) and
# check them against the types the trace recorded.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
DTF=build/tools/dtypeflow
if $DTF annotate --help >/dev/null 2>&1 && [ -z "$($DTF annotate --help 2>&1 | grep 'not yet available')" ]; then
  $DTF annotate --torch 1.13 examples/resnet18.ir --format json -o build/resnet18.dtypes.json
  echo "annotated values written to build/resnet18.dtypes.json"
  $DTF check --torch 1.13 examples/resnet18.ir  # traced with PyTorch 1.13
else
  echo "== result-type demo =="
  for ops in "int8:r1 float" "uint8:r1 int8:r0" "float16:r1 float64:r0" "int32:r1 1j" "float32:r1 ?:r0"; do
    printf '  result-type %-24s -> %s\n' "$ops" "$($DTF result-type $ops)"
  done
fi
