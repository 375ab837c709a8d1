#!/usr/bin/env bash
# The sanitizer and fuzzing stage of scripts/test.sh (what CI runs), apart
# from the main g++ build:
#   1. build-san/: clang with AddressSanitizer + UndefinedBehaviorSanitizer
#      (any UB aborts), no libtorch (the oracle and .pt tests need an
#      unsanitized libtorch; they run in the main build);
#   2. the unit, golden, corpus and CLI tests there, and every fuzz target
#      over its committed corpus (tests/fuzz/corpus: seeds and past crashes);
#   3. each libFuzzer target for DTF_FUZZ_SECONDS (default 45) with new
#      inputs kept out of the repository (seed 1: a run repeats), two at a time; the executions are
#      summed and printed. A crash fails the stage and is left in
#      build-san/fuzz-artifacts/: copy it into tests/fuzz/corpus/<target>/
#      (and, where it says more, a unit test) when it is fixed.
# DTF_FUZZ_SECONDS=0 skips step 3; DTF_SKIP_SANITIZE=1 skips the stage.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${DTF_SKIP_SANITIZE:-0}" = 1 ] && { echo "sanitize.sh: skipped (DTF_SKIP_SANITIZE=1)"; exit 0; }
start=$(date +%s)
seconds=${DTF_FUZZ_SECONDS:-45}
jobs=$(nproc)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# -O1 keeps the build short and the sanitizers fast; line tables name the frames.
cmake -S . -B build-san -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Sanitize \
  -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -gline-tables-only" -DDTF_WITH_TORCH=OFF -DDTF_FUZZ=ON -DBUILD_TESTING=ON \
  "${launcher[@]}" >/dev/null
cmake --build build-san -j "$jobs"
built=$(date +%s)

export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Not here: the Python module (an unsanitized python3 cannot load an ASan
# build), the installed-package consumer (a plain build of its own), and the
# .pt2 reader's unit tests, whose JSON documents clang 14 builds differently
# from g++ from the same brace-initializer lists (nlohmann::json's
# single-element list: an array under one, an object under the other); the
# reader itself still runs under ASan/UBSan through pt2.cli, pt2.golden.* and
# the fuzz_pt2_json / fuzz_pt2_archive targets.
ctest --test-dir build-san --output-on-failure -j "$jobs" -E '^(python\.|consumer\.|Pt2Reader\.|Pt2Errors\.|Pt2Archive\.)'

tested=$(date +%s)

total=0
if [ "$seconds" -gt 0 ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p build-san/fuzz-artifacts
  run_target() { # TARGET: fuzz it for $seconds into a scratch corpus seeded from the committed one
    local t=$1
    mkdir -p "$work/$t"
    build-san/tests/fuzz/fuzz_"$t" "$work/$t" "tests/fuzz/corpus/$t" -max_total_time="$seconds" -seed=1 \
      -max_len=16384 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="build-san/fuzz-artifacts/$t-" >"$work/$t.log" 2>&1
  }
  targets=(ir_parser notation module_text pt2_json pt2_archive torch_mlir)
  for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    run_target "$t" &
  done
  wait || true
  failed=()
  for t in "${targets[@]}"; do
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log" | tail -1)
    if ! grep -q "^Done [0-9]* runs" "$work/$t.log"; then
      failed+=("$t")
      echo "sanitize.sh: fuzz_$t failed:"
      tail -40 "$work/$t.log"
    fi
    echo "sanitize.sh: fuzz_$t: ${runs:-0} executions in ${seconds} s"
    total=$(( total + ${runs:-0} ))
  done
  echo "sanitize.sh: fuzzing: $total executions in all, 0 crashes expected"
  if [ ${#failed[@]} -gt 0 ]; then
    echo "sanitize.sh: crashes in: ${failed[*]} (inputs in build-san/fuzz-artifacts/)"
    exit 1
  fi
fi
end=$(date +%s)
echo "sanitize.sh: build $(( built - start )) s, tests $(( tested - built )) s, fuzzing $(( end - tested )) s"
