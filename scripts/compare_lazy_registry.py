#!/usr/bin/env python3
"""`dtypeflow infer-op` registers only the families an op needs (src/ops/lazy_registry.h);
DTF_EAGER_REGISTRY=1 makes it register every family, as before. This runs infer-op both ways
on every op of `dtypeflow ops --json` (or every Nth: --every N), with a few operand sets each,
for each --torch version, and reports any difference in output or exit code.

Usage: scripts/compare_lazy_registry.py [--cli build/tools/dtypeflow] [--torch 1.13 2.6 2.14]
                                        [--every N] [--jobs 2]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

# Operand sets: every tensor argument gets the first, tensor lists two of them;
# other arguments without a default a small literal of their type (or nothing).
TENSORS = ["float32:r1", "int64:r0", "bool:r2"]
LITERALS = {"int": "1", "SymInt": "1", "float": "0.5", "bool": "False", "Scalar": "2", "int[]": "[0]",
            "SymInt[]": "[1]", "int[1]": "[0]", "str": "'mean'", "ScalarType": "float64"}


def split_args(schema):
    """The argument declarations of a schema text, split at top-level commas."""
    inner = schema[schema.index("(") + 1: schema.rindex(") ->")]
    out, depth, cur = [], 0, ""
    for ch in inner:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return [a for a in out if a != "*"]


def operands(schema, tensor):
    args = []
    for decl in split_args(schema):
        head = decl.split("=")[0].strip()
        if " " not in head:
            continue
        typ, name = head.rsplit(" ", 1)
        base = typ.split("(")[0].rstrip("?")
        has_default = "=" in decl
        if base == "Tensor":
            args.append(f"{name}={tensor}")
        elif base == "Tensor[]":
            args.append(f"{name}=[{tensor},{tensor}]")
        elif not has_default and base in LITERALS:
            args.append(f"{name}={LITERALS[base]}")
    return args


def run(cli, torch, op, args, eager):
    env = dict(os.environ)
    env.pop("DTF_EAGER_REGISTRY", None)
    if eager:
        env["DTF_EAGER_REGISTRY"] = "1"
    p = subprocess.run([cli, "infer-op", "--torch", torch, "--json", op, *args], env=env,
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", default="build/tools/dtypeflow")
    ap.add_argument("--torch", nargs="+", default=["1.13", "2.6", "2.14"])
    ap.add_argument("--every", type=int, default=1, help="only every Nth op (1: all)")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    cases = []
    for torch in a.torch:
        ops = json.loads(subprocess.run([a.cli, "ops", "--json", "--torch", torch], check=True,
                                        capture_output=True, text=True).stdout)
        for o in ops[::a.every]:
            for tensor in TENSORS:
                cases.append((torch, o["op"], operands(o["schema"], tensor)))

    def compare(case):
        torch, op, args = case
        lazy, eager = run(a.cli, torch, op, args, False), run(a.cli, torch, op, args, True)
        return case, lazy, eager

    differ = answered = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for (torch, op, args), lazy, eager in pool.map(compare, cases):
            answered += lazy[0] in (0, 1)
            if lazy != eager:
                differ += 1
                print(f"DIFFER --torch {torch} {op} {' '.join(args)}\n  lazy:  {lazy}\n  eager: {eager}")
    print(f"{len(cases)} infer-op calls ({answered} answered, the rest refused the same way both ways), "
          f"{differ} differ; torch {' '.join(a.torch)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
