#!/usr/bin/env python3
"""Which Python numbers c10's checked conversion refuses, per target dtype.

Run under each PyTorch version (host: /usr/bin/python3 for 1.13; the 2.14
root: scripts/torch214-root.sh run python3 scripts/probes/scalar_conversion.py).
torch.full converts its fill value with the checked conversion (Scalar::to),
so a refusal there is the conversion's. dtype/scalar_conversion.cpp encodes
the answer; tests/unit/scalar_conversion_test.cpp keeps the telling values.
"""
import torch

FLOATS = [-0.5, -0.99, -1.0, -128.5, 127.5, 128.0, 255.5, 256.0, 32767.5, 65535.5, 65536.0,
          2147483647.5, 4294967295.5, 4294967296.0, 9.3e18, 1.8e19, 2e19, 448.0, 449.0, 65520.0,
          1e5, 3.395e38, 1e39, float("inf"), float("nan")]
INTS = [-1, -255, -256, 255, 256, -129, 65535, 65536, 2**31, 2**32, 2**63 - 1]
NAMES = ["uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float16", "bfloat16",
         "float32", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz"]


def refuses(value, dtype):
    try:
        torch.full([2], value, dtype=dtype)
        return False
    except RuntimeError:
        return True


print(f"torch {torch.__version__}: values torch.full refuses, per dtype")
for n in NAMES:
    d = getattr(torch, n, None)
    if d is None:
        continue
    print(f"{n:16} floats {[v for v in FLOATS if refuses(v, d)]}")
    print(f"{'':16} ints   {[v for v in INTS if refuses(v, d)]}")
