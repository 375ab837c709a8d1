#!/usr/bin/env python3
"""Rule files on the command line: every command takes --rules FILE (repeatable),
custom ops get their dtypes and ranks, built-in rules are replaced only on purpose.

Usage: cli_rules.py DTYPEFLOW TESTS_RULES_DIR
"""
import json
import os
import subprocess
import sys
import zipfile

DTF, HERE = sys.argv[1], sys.argv[2]
MYLIB = os.path.join(HERE, "mylib.toml")
OVERRIDE = os.path.join(HERE, "override.toml")
GOLDEN = os.path.join(HERE, "..", "golden", "custom_op.ir")
TRACED = os.path.join(HERE, "custom_op_traced.ir")  # every value typed, as a trace records them
failures = []
checks = 0


def run(*args):
    p = subprocess.run([DTF, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def expect(name, args, rc, out=None, err=None):
    global checks
    checks += 1
    got_rc, got_out, got_err = run(*args)
    ok = got_rc == rc and (out is None or got_out == out) and (err is None or err in got_err)
    if not ok:
        failures.append(f"{name}: dtypeflow {' '.join(args)}\n  exit {got_rc} (want {rc})\n"
                        f"  stdout: {got_out!r} (want {out!r})\n  stderr: {got_err!r} (want to contain {err!r})")


def expect_json(name, args, check):
    global checks
    checks += 1
    got_rc, got_out, got_err = run(*args)
    try:
        problem = check(json.loads(got_out)) if got_rc in (0, 1) else f"exit {got_rc}: {got_err}"
    except (ValueError, KeyError, IndexError, TypeError) as e:
        problem = f"{e!r} in {got_out!r}"
    if problem:
        failures.append(f"{name}: dtypeflow {' '.join(args)}\n  {problem}")


R = ["--rules", MYLIB]
# infer-op on each custom op
expect("same_as", ["infer-op", *R, "mylib::fused_gelu", "x=float16:r2"], 0, "float16\n")
expect("refused dtype", ["infer-op", *R, "mylib::fused_gelu", "x=int32:r1"], 1,
       "error: mylib::fused_gelu: x of dtype int32 is not supported\n")
expect("promote, int_to_float", ["infer-op", *R, "mylib::scale_shift", "x=int32:r2", "scale=int64:r1", "shift=2"], 0,
       "float32\n")
expect("promote: a complex number", ["infer-op", *R, "mylib::scale_shift", "x=float16:r2", "scale=int64:r1", "shift=1j"],
       0, "complex32\n")
expect("promote: tiers", ["infer-op", *R, "mylib::scale_shift", "x=float16:r2", "scale=float64:r0"], 0, "float16\n")
expect("unknown dtype stays unknown", ["infer-op", *R, "mylib::scale_shift", "x=?:r2", "scale=float64:r1"], 0,
       "unknown\n")
expect("category rule", ["infer-op", *R, "mylib::sum_to", "x=int32:r3", "dim=[1]"], 0, "int64\n")
expect("dtype argument", ["infer-op", *R, "mylib::sum_to", "x=int32:r3", "dtype=float16"], 0, "float16\n")
expect("dim out of range", ["infer-op", *R, "mylib::sum_to", "x=int32:r3", "dim=[3]"], 1,
       "error: mylib::sum_to: Dimension out of range (expected to be in range of [-3, 2], but got 3)\n")
expect_json("reduce rank", ["infer-op", *R, "--json", "mylib::sum_to", "x=float32:r3", "dim=[0,-1]"],
            lambda j: None if j["results"] == [{"dtype": "float32", "rank": 1}] else j["results"])
expect_json("keepdim", ["infer-op", *R, "--json", "mylib::sum_to", "x=float32:r3", "dim=[0]", "keepdim=True"],
            lambda j: None if j["results"] == [{"dtype": "float32", "rank": 3}] else j["results"])
expect_json("keepdim unknown", ["infer-op", *R, "--json", "mylib::sum_to", "x=float32:r3", "dim=[0]", "keepdim=bool"],
            lambda j: None if j["results"] == [{"dtype": "float32", "rank": None}] else j["results"])
expect("the other version", ["infer-op", *R, "--torch", "1.13", "mylib::scale_shift", "x=bfloat16:r1",
                             "scale=bfloat16:r1", "shift=1j"], 0, "complex64\n")
expect("without the rules", ["infer-op", "mylib::fused_gelu", "x=float16:r2"], 2, None, "--rules FILE")

# ops lists the user rules
expect("ops", ["ops", *R, "--family", "mylib"], 0,
       "".join(f"{k:<48} mylib\n" for k in ["mylib::fused_gelu", "mylib::scale_shift", "mylib::sum_to"]))
expect_json("ops --json", ["ops", *R, "--json"],
            lambda j: None if sum(o["family"] == "mylib" for o in j) == 3 and len(j) > 2000 else len(j))

# overrides, and two files at once
expect("built-in relu", ["infer-op", "aten::relu", "self=float32:r1"], 0, "float32\n")
expect("override", ["infer-op", "--rules", OVERRIDE, "aten::relu", "self=float32:r1"], 0, "float64\n")
expect("two files", ["infer-op", *R, "--rules", OVERRIDE, "aten::relu", "self=int8:r1"], 0, "float64\n")

# annotate and check: the values after a custom op are known
def annotated(j):
    want = {"g": ("float32", 2), "s": ("float32", 2), "t": ("int64", 0), "u": ("float32", 2)}
    got = {k: (j["values"][k]["dtype"], j["values"][k]["rank"]) for k in want}
    return None if got == want else got
expect_json("annotate", ["annotate", *R, GOLDEN, "--format", "json"], annotated)
expect("annotate without the rules", ["annotate", GOLDEN], 0, None, "unknown op mylib::fused_gelu")

# the rules apply on top of the version --torch chooses
for torch in ["1.13", "2.6", "2.14"]:
    expect_json(f"annotate --torch {torch}", ["annotate", "--torch", torch, *R, GOLDEN, "--format", "json"],
                lambda j, torch=torch: annotated(j) or (None if j["torch"] == torch else j["torch"]))
    expect(f"check --torch {torch}", ["check", "--torch", torch, *R, TRACED], 0)
    expect(f"infer-op --torch {torch}", ["infer-op", "--torch", torch, *R, "mylib::sum_to", "x=bool:r2"], 0,
           "int64\n")

# check compares the rule files' answers with the recorded types
expect("check without the rules", ["check", TRACED], 0, None, "unknown op mylib::fused_gelu")
WRONG = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"dtf_wrong_rules_{os.getpid()}.toml")
with open(MYLIB) as src, open(WRONG, "w") as dst:  # fused_gelu now answers float64: wrong against the trace
    dst.write(src.read().replace('dtype = { same_as = "x" }', 'dtype = "float64"\nrank = { same_as = "x" }', 1))
try:
    expect("check finds a wrong rule", ["check", "--rules", WRONG, TRACED], 1)
finally:
    os.remove(WRONG)

# a .pt2 archive calling a custom op: the committed bf16 MLP with its gelu made mylib::fused_gelu
ARCHIVE = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"dtf_custom_op_{os.getpid()}.pt2")
with zipfile.ZipFile(os.path.join(HERE, "..", "pt2", "archives", "bf16_mlp.pt2")) as src, \
        zipfile.ZipFile(ARCHIVE, "w") as dst:
    for member in src.infolist():
        data = src.read(member)
        if member.filename.endswith("models/model.json"):
            program = json.loads(data)
            for n in program["graph_module"]["graph"]["nodes"]:
                if n["target"] == "torch.ops.aten.gelu.default":
                    n["target"] = "torch.ops.mylib.fused_gelu.default"
                    n["inputs"][0]["name"] = "x"
                    GELU_OUT = n["outputs"][0]["as_tensor"]["name"]
            data = json.dumps(program)
        dst.writestr(member, data)
try:
    expect("check .pt2 with the rules", ["check", *R, ARCHIVE], 0)
    expect("check .pt2 without the rules", ["check", ARCHIVE], 0, None, "mylib::fused_gelu is not in the schema table")
    expect_json("annotate .pt2", ["annotate", *R, ARCHIVE, "--format", "json"],
                lambda j: None if j["values"][GELU_OUT]["dtype"] == "bfloat16" else j["values"][GELU_OUT])
finally:
    os.remove(ARCHIVE)

# every command takes --rules
expect("result-type", ["result-type", *R, "int8:r1", "float"], 0, "float32\n")
expect("promote-types", ["promote-types", *R, "float16", "bfloat16"], 0, "float32\n")

for f in failures:
    print(f, file=sys.stderr)
print(f"cli_rules: {checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
