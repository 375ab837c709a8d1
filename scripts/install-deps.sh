#!/usr/bin/env bash
# Install every Debian package dtypeflow needs to build, test and benchmark.
# Idempotent; needs root (or sudo). Used by the README's commands and .ci/run.
set -euo pipefail
PKGS=(
  g++ cmake ninja-build          # toolchain
  libfmt-dev                     # formatting (core)
  nlohmann-json3-dev             # JSON output, .pt2 programs (core)
  libzip-dev                     # .pt2 archives are zip files (core)
  libsimdjson-dev                # the .pt2 program's JSON, parsed fast (core)
  libdeflate-dev                 # CRC-32 of .pt2 members read from the mapped file (core)
  libtomlplusplus-dev            # rule files for custom ops (core)
  pkgconf                        # the installed package's pkg-config test
  libcli11-dev                   # command line (tools)
  libgtest-dev libgmock-dev      # unit tests
  libbenchmark-dev               # benchmarks
  hyperfine                      # the CLI's start time, whole process (scripts/bench.sh)
  libtorch-dev                   # TorchScript frontend and the ATen oracle
  python3-torch python3-torchvision  # regenerating examples/schemas, Python cross-checks
  debootstrap                    # the Debian sid root with PyTorch 2.14 (scripts/torch214-root.sh)
  pybind11-dev python3-dev       # the Python module (python/)
  python3-setuptools python3-wheel python3-pip python3-venv  # `pip install .` without the network
  clang-14 libclang-rt-14-dev    # the sanitizer build and the libFuzzer targets (scripts/sanitize.sh)
  graphviz                       # `dtypeflow audit --svg/--png` draws with dot
  mlir-16-tools                  # mlir-opt: tests that Torch-dialect MLIR dtypeflow prints parses as MLIR
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
echo "install-deps: done"
