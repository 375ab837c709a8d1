"""One behaviour across commands (issue 32): what a new user tripped on, command by command.

Usage: one_door.py DTYPEFLOW SOURCE_DIR
Each check names the defect it guards; every one failed before the fix.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

DTF, SRC = sys.argv[1], sys.argv[2]
EXAMPLES = os.path.join(SRC, "examples")
ARCHIVES = os.path.join(SRC, "tests", "pt2", "archives")
failures = []


def run(*args, stdin=None):
    return subprocess.run([DTF, *args], capture_output=True, text=stdin is None or isinstance(stdin, str),
                          input=stdin, timeout=120)


def text(b):
    return b if isinstance(b, str) else b.decode("utf-8", "replace")


def expect(ok, what, p=None):
    if not ok:
        failures.append(what + (f"\n  exit {p.returncode}\n  stdout: {text(p.stdout)[:600]}\n  stderr: {text(p.stderr)[:600]}"
                                if p is not None else ""))


tmp = tempfile.mkdtemp(prefix="dtf-one-door-")
# aten::mm(Float, Double): PyTorch raises.
mm = os.path.join(tmp, "mm.ir")
with open(mm, "w") as f:
    f.write("graph(%a : Float(2, 3), %b : Double(3, 4)):\n  %c : Tensor = aten::mm(%a, %b)\n  return (%c)\n")

# 1. audit reports a dtype error and exits 1, as annotate does.
p = run("audit", mm, "--torch", "1.13")
expect(p.returncode == 1, "audit of aten::mm(Float, Double): exit 1", p)
expect("dtype error" in p.stdout and "aten::mm" in p.stdout, "audit: the dtype error in the report", p)
p = run("audit", mm, "--json")
expect(p.returncode == 1 and json.loads(p.stdout or "{}").get("errors"), "audit --json: errors listed, exit 1", p)
p = run("annotate", mm)
expect(p.returncode == 1, "annotate of aten::mm(Float, Double): exit 1", p)

# 2. audit's promotions are operands that are converted: not embedding's indices, where's
#    condition, masked_fill's mask, gather's index.
p = run("audit", os.path.join(EXAMPLES, "token_embedding.ir"), "--torch", "1.13", "--json")
changes = json.loads(p.stdout or "{}").get("changes", [])
bad = [c for c in changes if c["kind"] == "promotion" and c["node"] in ("aten::embedding",)]
expect(p.returncode == 0 and not bad, f"audit token_embedding: no promotion of embedding's indices: {bad}", p)
sel = os.path.join(tmp, "select.ir")
with open(sel, "w") as f:
    f.write("graph(%x : Float(2, 3), %c : Bool(2, 3), %i : Long(2, 3), %v : Float(2, 3)):\n"
            "  %zero : int = prim::Constant[value=0]()\n"
            "  %f : bool = prim::Constant[value=0]()\n"
            "  %w : Float(2, 3) = aten::where(%c, %x, %v)\n"
            "  %one : float = prim::Constant[value=1.]()\n"
            "  %m : Float(2, 3) = aten::masked_fill(%x, %c, %one)\n"
            "  %g : Float(2, 3) = aten::gather(%x, %zero, %i, %f)\n"
            "  return (%w, %m, %g)\n")
p = run("audit", sel, "--json", "--torch", "1.13")
changes = json.loads(p.stdout or "{}").get("changes", [])
expect(p.returncode == 0 and not changes, f"audit where/masked_fill/gather: no dtype change: {changes}", p)

# 3. check and explain exit 1 where PyTorch would raise.
p = run("check", mm)
expect(p.returncode == 1, "check of aten::mm(Float, Double): exit 1", p)
p = run("explain", mm)
expect(p.returncode == 1 and "PyTorch raises" in p.stderr, "explain of aten::mm(Float, Double): exit 1, said", p)
p = run("check", os.path.join(ARCHIVES, "bf16_mlp.pt2"), "--input", "x=float32")
expect(p.returncode == 1, "check bf16_mlp.pt2 --input x=float32 (linear of Float with BFloat16 weights raises): exit 1", p)

# 4. check after re-typing compares nothing it cannot, and says so.
arch = os.path.join(ARCHIVES, "mixed_int_float.pt2")
p = run("check", arch, "--params", "bfloat16", "--float-inputs", "bfloat16")
expect(p.returncode == 0 and "0 wrong" in p.stdout and "nothing is compared" in p.stderr,
       "check re-typed .pt2: nothing compared, exit 0", p)
p = run("check", arch, "--params", "bfloat16", "--format", "json")
expect(p.returncode == 0 and json.loads(p.stdout or "{}").get("compared") is False, "check --format json: compared false", p)
p = run("check", arch, "--format", "json")
expect(p.returncode == 0 and json.loads(p.stdout or "{}").get("compared") is True, "check: compared true", p)

# 5. check - < x.pt2 reads the archive, by content.
with open(arch, "rb") as f:
    p = run("check", "-", stdin=f.read())
q = run("check", arch)
expect(p.returncode == 0 and text(p.stdout) == q.stdout, "check - < mixed_int_float.pt2 as check FILE", p)

# 6. --format json: a file that fails is in "files" too.
p = run("annotate", mm, os.path.join(tmp, "missing.ir"), "--format", "json")
files = json.loads(p.stdout or "{}").get("files", [])
expect(p.returncode == 2 and len(files) == 2 and "error" in files[1] and files[1]["file"].endswith("missing.ir"),
       f"annotate --format json: the failed file in files: {files}", p)
p = run("check", mm, os.path.join(tmp, "missing.ir"), "--format", "json")
files = json.loads(p.stdout or "{}").get("files", [])
expect(p.returncode == 2 and len(files) == 2 and "error" in files[1], f"check --format json: the failed file: {files}", p)

# 7. ops --help names families that match.
p = run("ops", "--help")
m = re.search(r"prefix match: ([a-z_.]+), ([a-z_.]+)", p.stdout)
expect(m is not None, "ops --help: an example family", p)
for fam in m.groups() if m else []:
    q = run("ops", "--family", fam)
    expect(q.returncode == 0 and q.stdout, f"ops --family {fam} (the --help example) matches", q)

# 8. --png into a missing directory: one clear error, exit 2.
p = run("audit", os.path.join(EXAMPLES, "mixed_dtypes.ir"), "--torch", "1.13", "--png", os.path.join(tmp, "no", "x.png"))
lines = [l for l in p.stderr.splitlines() if l.strip()]
expect(p.returncode == 2 and len(lines) == 1 and "no such directory" in lines[0], "audit --png into a missing directory", p)

# 9. .pt2 locations name the node, never FILE:0:0.
p = run("audit", os.path.join(ARCHIVES, "mixed_int_float.pt2"), "--all")
expect(p.returncode == 0 and ":0:0" not in p.stdout and "mixed_int_float.pt2: %" in p.stdout,
       "audit .pt2: locations name the node", p)

# 10. explain shows the written type when check calls the value wrong; one notation for types.
wrong = os.path.join(tmp, "wrong.ir")
with open(wrong, "w") as f:
    f.write("graph(%a : Float(2, 3), %b : Float(2, 3)):\n  %one : int = prim::Constant[value=1]()\n"
            "  %c : Double(2, 3) = aten::add(%a, %b, %one)\n  return (%c)\n")
p = run("check", wrong)
expect(p.returncode == 1 and "written float64:r2, inferred float32:r2" in p.stdout, "check: types in the notation", p)
p = run("explain", wrong, "c")
expect("%c: float32:r2" in p.stdout and "written as float64:r2" in p.stdout, "explain: the written type check disputes", p)

# 11. JSON values in graph order.
p = run("annotate", os.path.join(EXAMPLES, "token_embedding.ir"), "--torch", "1.13", "--format", "json")
names = list(json.loads(p.stdout or "{}").get("values", {}))
expect(names[:2] == ["ids", "emb.weight"], f"annotate --format json: values in graph order: {names[:4]}", p)

# 12. Messages say each thing once.
p = run("annotate", mm)
line = next((l for l in p.stderr.splitlines() if "PyTorch raises" in l), "")
expect(line.count("aten::mm") == 1, f"one mention of the op: {line}", p)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("ok")
