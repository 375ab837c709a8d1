#!/usr/bin/env bash
# The main job on bundled examples: build the CLI only (not the tests or the
# benchmarks), then infer the dtype and rank of every tensor of a program and
# check them against the types the program records, on both routes:
#   1. torch.export (.pt2, PyTorch 2.14, the default): resnet18 exported inside
#      torch.autocast (weights stripped), also written as torch-mlir's Torch dialect;
#   2. TorchScript (examples/resnet18.ir, a torchvision resnet18 traced with PyTorch 1.13).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON >/dev/null
cmake --build build -j "$(nproc)" --target dtypeflow
DTF=build/tools/dtypeflow
PT2=tests/pt2/autocast/resnet18_autocast_bf16.pt2

echo "== 1. torch.export: $PT2 =="
# Its records were made inside torch.autocast, which the graph does not contain: check says so (exit 1) ...
$DTF check "$PT2" || true
# ... and with the context given, every recorded value is right.
$DTF check --autocast cpu:bfloat16 "$PT2"
$DTF annotate --autocast cpu:bfloat16 "$PT2" --format json -o build/resnet18_pt2.dtypes.json
echo "annotated values written to build/resnet18_pt2.dtypes.json"
# The same program as Torch-dialect MLIR (what torch-mlir and IREE refine), read back and checked.
$DTF annotate --autocast cpu:bfloat16 "$PT2" --format torch-mlir -o build/resnet18.mlir
$DTF check --autocast cpu:bfloat16 build/resnet18.mlir
echo "Torch dialect written to build/resnet18.mlir"

echo "== 2. Symbolic sizes: tests/pt2/archives/sym_arith.pt2 (exported with a dynamic batch) =="
$DTF check -v tests/pt2/archives/sym_arith.pt2
$DTF annotate tests/pt2/archives/sym_arith.pt2 --format torch-mlir -o build/sym_arith.mlir
grep -E "symbolic_int|bind_symbolic_shape" build/sym_arith.mlir
echo "== 3. TorchScript: examples/resnet18.ir =="
$DTF annotate --torch 1.13 examples/resnet18.ir --format json -o build/resnet18.dtypes.json
echo "annotated values written to build/resnet18.dtypes.json"
$DTF check --torch 1.13 examples/resnet18.ir  # traced with PyTorch 1.13
