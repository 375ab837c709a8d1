"""`dtypeflow annotate/check` on torch.export archives (.pt2): the committed
archives, re-typing options, reading by content, and broken archives (made
here from a committed one with zipfile: exit 2 and one line naming the file,
the archive member and the JSON field).

Usage: cli_pt2.py DTYPEFLOW ARCHIVES_DIR   (needs no torch)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

DTF, ARCHIVES = sys.argv[1], sys.argv[2]
failures = []
tmp = tempfile.mkdtemp(prefix="dtf_pt2_cli_")


def run(*args):
    p = subprocess.run([DTF, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def expect(args, rc, out=None, err=None, one_line=False):
    got_rc, got_out, got_err = run(*args)
    shown = " ".join(os.path.basename(a) if os.sep in a else a for a in args)
    if got_rc != rc:
        failures.append(f"{shown}: exit {got_rc}, expected {rc}\n  stdout: {got_out[:300]}\n  stderr: {got_err[:300]}")
        return got_out
    if out is not None and out not in got_out:
        failures.append(f"{shown}: stdout lacks {out!r}: {got_out[:300]!r}")
    if err is not None and err not in got_err:
        failures.append(f"{shown}: stderr lacks {err!r}: {got_err[:300]!r}")
    if one_line and got_err.count("\n") != 1:
        failures.append(f"{shown}: stderr is not one line: {got_err[:300]!r}")
    return got_out


def values(args):
    rc, out, err = run(*args, "--format", "json")
    if rc not in (0, 1):
        failures.append(f"{' '.join(args)}: exit {rc}: {err[:300]}")
        return {}
    return json.loads(out)["values"]


def archive(name):
    return os.path.join(ARCHIVES, name + ".pt2")


def rewrite(src, dst, change):
    """Copy archive `src` to `dst`, `change(name, bytes)` giving each member's new bytes (None: dropped)."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = change(info.filename, zin.read(info.filename))
            if data is not None:
                zout.writestr(info.filename, data)
    return dst


def edit_model(src, dst, edit):
    def change(name, data):
        if "/models/" in name and name.endswith(".json"):
            doc = json.loads(data)
            edit(doc)
            return json.dumps(doc).encode()
        return data
    return rewrite(src, dst, change)


# --- every committed archive checks with no wrong value --------------------------
for name in sorted(os.listdir(ARCHIVES)):
    if name.endswith(".pt2"):
        expect(["check", os.path.join(ARCHIVES, name)], 0, out=" 0 wrong")

# --- annotate: the same JSON shape as for .ir files --------------------------------
v = values(["annotate", archive("mixed_int_float")])
for value, (dtype, rank) in {"ids": ("int64", 1), "add": ("int64", 1), "sub": ("float32", 1), "div": ("float32", 1),
                             "floor_divide": ("int64", 1), "add_1": ("int32", 1), "add_2": ("float32", 0),
                             "getitem_1": ("int64", 1), "mul_2": ("float64", 1)}.items():
    if {k: v.get(value, {}).get(k) for k in ("dtype", "rank")} != {"dtype": dtype, "rank": rank}:
        failures.append(f"annotate mixed_int_float: %{value} is {v.get(value)}, expected {dtype}:r{rank}")
expect(["annotate", archive("cond")], 0, out="prim::If")

# --- read by content, not by name ----------------------------------------------
for disguise in ["cond.bin", "cond.ir", "cond.pt"]:
    path = os.path.join(tmp, disguise)
    shutil.copy(archive("cond"), path)
    expect(["check", path], 0, out="11 correct, 0 unknown, 0 wrong")

# --- re-typing inputs -------------------------------------------------------------
# --input without a rank keeps the recorded one.
v = values(["annotate", archive("bf16_mlp"), "--input", "x=float32"])
if {k: v.get("x", {}).get(k) for k in ("dtype", "rank")} != {"dtype": "float32", "rank": 2}:
    failures.append(f"--input x=float32: x is {v.get('x')}, expected float32 of rank 2")
# bfloat16 weights with a float32 input: linear raises.
expect(["annotate", archive("bf16_mlp"), "--input", "x=float32"], 1, err="PyTorch raises")
# ... unless the parameters follow (module.to(float32)).
v = values(["annotate", archive("bf16_mlp"), "--input", "x=float32", "--params", "float32"])
if v.get("p_fc1_weight", {}).get("dtype") != "float32" or v.get("softmax", {}).get("dtype") != "float32":
    failures.append(f"--params float32: p_fc1_weight {v.get('p_fc1_weight')}, softmax {v.get('softmax')}")
# --params converts floating parameters and buffers only: int64/bool buffers and tensor constants stay.
v = values(["annotate", archive("buffers_constants"), "--params", "bfloat16"])
want = {"p_weight": "bfloat16", "b_scale": "bfloat16", "b_counts": "int64", "b_keep": "bool", "c_offset": "float64",
        "x": "float32"}
for name, dtype in want.items():
    if v.get(name, {}).get("dtype") != dtype:
        failures.append(f"--params bfloat16: %{name} is {v.get(name)}, expected {dtype}")
# An --input naming a parameter wins over --params.
v = values(["annotate", archive("buffers_constants"), "--params", "bfloat16", "--input", "p_weight=float16"])
if v.get("p_weight", {}).get("dtype") != "float16":
    failures.append(f"--input over --params: p_weight is {v.get('p_weight')}")
v = values(["annotate", archive("f16_conv"), "--float-inputs", "float32", "--params", "float32"])
if v.get("linear", {}).get("dtype") != "float32":
    failures.append(f"--float-inputs/--params float32: linear is {v.get('linear')}")
expect(["annotate", archive("bf16_mlp"), "--params", "int8"], 2, err="a floating or complex dtype is needed",
       one_line=True)
expect(["annotate", archive("bf16_mlp"), "--params", "floot"], 2, err="unknown dtype", one_line=True)
expect(["annotate", archive("bf16_mlp"), "--model", "other"], 2, err="no model named 'other'", one_line=True)

# --- broken archives: exit 2, one line naming file, member, field ------------------
src = archive("mixed_int_float")
with open(src, "rb") as f:
    whole = f.read()
truncated = os.path.join(tmp, "truncated.pt2")
with open(truncated, "wb") as f:
    f.write(whole[: len(whole) // 2])
expect(["check", truncated], 2, err="truncated.pt2: error: not a readable zip archive", one_line=True)
expect(["annotate", truncated], 2, err="not a readable zip archive", one_line=True)

not_zip = os.path.join(tmp, "text.pt2")
with open(not_zip, "w") as f:
    f.write("graph(%x : Tensor):\n  return (%x)\n")
expect(["check", not_zip], 2, err="text.pt2: error: not a readable zip archive", one_line=True)

expect(["check", os.path.join(tmp, "absent.pt2")], 2, err="absent.pt2: error: cannot read the file", one_line=True)

no_model = rewrite(src, os.path.join(tmp, "no_model.pt2"), lambda n, d: None if "/models/" in n else d)
expect(["check", no_model], 2, err="no_model.pt2: error: no NAME/models/*.json member", one_line=True)

bad_json = rewrite(src, os.path.join(tmp, "bad_json.pt2"),
                   lambda n, d: d[: len(d) // 3] if "/models/" in n else d)
expect(["check", bad_json], 2, err="bad_json.pt2: error: mixed_int_float/models/model.json: invalid JSON: parse error",
       one_line=True)

major = edit_model(src, os.path.join(tmp, "major.pt2"), lambda d: d["schema_version"].update(major=99))
expect(["check", major], 2,
       err="major.pt2: error: mixed_int_float/models/model.json: schema_version.major: schema version 99.20 is not "
           "supported", one_line=True)

dtype = edit_model(src, os.path.join(tmp, "dtype.pt2"),
                   lambda d: d["graph_module"]["graph"]["tensor_values"]["x"].update(dtype=99))
expect(["check", dtype], 2,
       err="dtype.pt2: error: mixed_int_float/models/model.json: graph_module.graph.tensor_values.x.dtype: unknown "
           "dtype number 99", one_line=True)

def drop_nodes(d):
    del d["graph_module"]["graph"]["nodes"]
missing = edit_model(src, os.path.join(tmp, "missing.pt2"), drop_nodes)
expect(["check", missing], 2, err="graph_module.graph: missing field 'nodes'", one_line=True)

# A corrupted member (its CRC no longer matches).
corrupt = os.path.join(tmp, "corrupt.pt2")
at = whole.find(b'"graph_module"')
with open(corrupt, "wb") as f:
    f.write(whole[:at] + b'"graph_mudule"' + whole[at + 14:])
expect(["check", corrupt], 2, err="corrupt.pt2: error: mixed_int_float/models/model.json: cannot read the member",
       one_line=True)

# An unknown target is a warning, never a guess: its results (and what follows) are unknown.
def rename_target(d):
    for n in d["graph_module"]["graph"]["nodes"]:
        if n["target"] == "torch.ops.aten.floor_divide.default":
            n["target"] = "torch.ops.aten.frobnicate.default"
unknown = edit_model(src, os.path.join(tmp, "unknown_target.pt2"), rename_target)
out = expect(["check", unknown], 0, out=", 0 wrong",
             err="torch.ops.aten.frobnicate.default: aten::frobnicate is not in the schema table; results unknown")
if "unknown: %floor_divide" not in out:
    failures.append(f"unknown target: %floor_divide not reported unknown: {out[:300]!r}")

shutil.rmtree(tmp)
for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
