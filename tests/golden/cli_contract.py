"""The command-line contract: argument parsing and bad input (exit 2, one line naming the problem).

Usage: cli_contract.py DTYPEFLOW EXAMPLE.ir
"""
import json
import subprocess
import sys

DTF, EXAMPLE = sys.argv[1], sys.argv[2]
failures = []


def run(*args):
    p = subprocess.run([DTF, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def expect(args, rc, out=None, err=None):
    got_rc, got_out, got_err = run(*args)
    shown = " ".join(a if len(a) < 60 else a[:40] + "..." for a in args)
    if got_rc != rc:
        failures.append(f"{shown}: exit {got_rc}, expected {rc}\n  stdout: {got_out[:200]}\n  stderr: {got_err[:200]}")
        return
    if out is not None and out not in got_out:
        failures.append(f"{shown}: stdout lacks {out!r}: {got_out[:200]!r}")
    if err is not None and (err not in got_err or got_err.count("\n") > 1 or len(got_err) > 400):
        failures.append(f"{shown}: stderr is not one short line with {err!r}: {got_err[:300]!r}")


# A positional list stays one argument (CLI11 used to split `[1,2]` into two).
expect(["infer-op", "--json", "aten::sum.dim_IntList", "int32:r3", "[1,2]", "True"], 0,
       out='"results":[{"dtype":"int64","rank":3}]')
expect(["infer-op", "--json", "aten::sum.dim_IntList", "int32:r3", "[]", "False"], 0,
       out='"results":[{"dtype":"int64","rank":0}]')
expect(["infer-op", "aten::cat", "[int8:r1,float16:r1]"], 0, out="float16")
expect(["result-type", "[int8:r1,float]"], 2, err="expected a tensor or a Python number")
# --input takes one NAME=TYPE; the file may follow it.
expect(["annotate", "--input", "x.1=float64:r2", EXAMPLE, "--format", "json"], 0, out='"values"')
# An input may be named by its Python name when one input alone carries it.
expect(["annotate", "--input", "x=float64:r2", EXAMPLE, "--format", "json"], 0, out='"x.1": {\n      "dtype": "float64",\n      "rank": 2')
expect(["annotate", "--input", "y=float64:r2", EXAMPLE], 2, err="--input y: no such graph input (inputs: x.1, ids.1")
# Malformed operands.
for bad in ["j", "+j", "1+j", "int8:", "float32:r999", "floot32:r1", "int8:r1:r2", ":r1"]:
    expect(["result-type", bad, "int8:r1"], 2, err="dtypeflow: ")
expect(["result-type", "1j", "int8:r1"], 0, out="complex64")
expect(["result-type", "2.5e-3j", "int8:r1"], 0, out="complex64")
# Deep nesting: refused with a short message, never a crash or a hang.
deep = "[" * 60000 + "1" + "]" * 60000
expect(["infer-op", "aten::list.t", "l=" + deep], 2, err="nested deeper")
expect(["infer-op", "aten::cat", deep], 2, err="dtypeflow: ")
expect(["result-type", deep], 2, err="nested deeper")
expect(["infer-op", "aten::sum.dim_IntList", "self=int32:r3", "dim=" + deep], 2, err="dtypeflow: ")
expect(["annotate", EXAMPLE, "--input", "x.1=" + deep], 2, err="dtypeflow: ")

code, out, _ = run("ops", "--json")
ops = json.loads(out)
if not ops or any(set(o) != {"op", "family", "schema"} for o in ops):
    failures.append("ops --json: not a list of {op, family, schema}")

for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
