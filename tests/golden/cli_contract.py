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
if not ops or any(set(o) != {"op", "family", "schema", "torch"} or o["torch"] != "2.14" for o in ops):
    failures.append("ops --json: not a list of {op, family, schema, torch: 2.14}")
code, out, _ = run("ops", "--json", "--torch", "1.13")
if any(o["torch"] != "1.13" for o in json.loads(out)):
    failures.append("ops --json --torch 1.13: an entry not of 1.13")
# --torch on every subcommand; an unmodelled version is refused.
expect(["result-type", "--torch", "1.13", "bfloat16:r1", "complex"], 0, out="complex64")
expect(["result-type", "--torch", "2.14", "bfloat16:r1", "complex"], 0, out="bcomplex32")
expect(["result-type", "bfloat16:r1", "complex"], 0, out="bcomplex32")  # the default is the newest
expect(["result-type", "--torch", "2.14", "uint16:r1", "int8:r1"], 1, out="error: Promotion for uint16")
expect(["result-type", "--torch", "1.13", "uint16:r1", "int8:r1"], 2, err="unknown dtype 'uint16' in PyTorch 1.13")
expect(["promote-types", "--torch", "2.14", "float8_e4m3fn", "float32"], 1, out="error: Promotion for Float8")
expect(["result-type", "--torch", "3.0", "int8:r1"], 2, err="--torch 3.0: not a modelled PyTorch version")
expect(["infer-op", "--torch", "1.13", "aten::rms_norm", "input=float32:r2", "normalized_shape=[2]"], 2,
       err="PyTorch 2.14 has it")
expect(["infer-op", "--json", "--torch", "1.13", "aten::add.Tensor", "int8:r1", "float64:r0"], 0, out='"torch":"1.13"')
expect(["annotate", "--torch", "1.13", EXAMPLE, "--format", "json"], 0, out='"torch": "1.13"')
expect(["--version"], 0, out="PyTorch semantics: 1.13, 2.14")

for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
