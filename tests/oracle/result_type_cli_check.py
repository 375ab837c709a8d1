#!/usr/bin/env python3
"""`dtypeflow result-type` against Debian's torch.result_type on a random sample.

Usage: python3 result_type_cli_check.py PATH/TO/dtypeflow [N] [SEED]
Draws N (default 300) cases of two operands (torch.result_type) and three
operands (torch.addcmul on meta tensors, whose dtype is result_type of all
three), each operand a dimensioned tensor, a zero-dim tensor or a Python
number, and checks the CLI (run with --torch of the imported torch's version)
prints exactly torch's dtype, or, where torch.result_type raises (2.14: uint16
with int8, float8 with float32 ...), exits 1 with the error.
"""
import random
import subprocess
import sys

import torch

VERSION = ".".join(torch.__version__.split(".")[:2])
CLASSIC = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
           "float32", "float64", "complex32", "complex64", "complex128"]
DTYPES = list(CLASSIC)
# 2.x's dtypes that an unknown dtype ranges over (dtypeflow's DTypeSystem::universe)
DTYPES += [d for d in ["uint16", "uint32", "uint64", "float8_e5m2", "float8_e4m3fn", "float8_e5m2fnuz",
                       "float8_e4m3fnuz", "float8_e8m0fnu", "bcomplex32"] if hasattr(torch, d)]
NUMBERS = {"bool": True, "int": 3, "float": 2.5, "complex": 1 + 1j}


def draw(rng):
    kind = rng.choice(["dim", "zero", "num"])
    if kind == "num":
        k = rng.choice(list(NUMBERS))
        return k, NUMBERS[k]
    d = rng.choice(DTYPES)
    shape = [2] if kind == "dim" else []
    return f"{d}:r{len(shape)}", torch.empty(shape, dtype=getattr(torch, d), device="meta")


def main():
    exe = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1234)
    checked = mismatches = 0
    while checked < n:
        arity = rng.choice([2, 3])
        ops = [draw(rng) for _ in range(arity)]
        raises = False
        try:
            if arity == 2:
                expected = torch.result_type(ops[0][1], ops[1][1])
            else:
                # addcmul needs a tensor first; numbers ride as 0-dim wrapped scalars otherwise
                if not isinstance(ops[0][1], torch.Tensor) or not all(isinstance(o[1], torch.Tensor) for o in ops):
                    continue
                # addcmul's meta kernel is Python's elementwise_dtypes, which agrees with c10's
                # result_type only on the classic dtypes (2.14: bool, uint16 and float32 give
                # float32 there; c10 raises on bool + uint16, as the CPU kernel does).
                if not all(o[0].split(":")[0] in CLASSIC for o in ops):
                    continue
                expected = torch.addcmul(ops[0][1], ops[1][1], ops[2][1]).dtype
        except Exception:  # RuntimeError, NotImplementedError, TypeError; 2.14 meta kernels raise others too
            if arity == 3:
                continue  # addcmul's own refusal (a kernel, not result_type)
            raises = True  # result_type itself raises: dtypeflow must say so
        out = subprocess.run([exe, "result-type", "--torch", VERSION] + [o[0] for o in ops],
                             capture_output=True, text=True)
        got = out.stdout.strip()
        want = "error" if raises else str(expected).replace("torch.", "")
        checked += 1
        if raises:
            ok = out.returncode == 1 and got.startswith("error:")
        else:
            ok = out.returncode == 0 and got == want
        if not ok:
            mismatches += 1
            print(f"MISMATCH: result-type {' '.join(o[0] for o in ops)}: torch {want}, dtypeflow {got!r} {out.stderr.strip()}")
    print(f"result-type CLI vs torch.result_type: {checked - mismatches} passed, {mismatches} failed")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
