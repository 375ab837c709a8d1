"""What explain and audit answer on the bundled examples (PyTorch 1.13 traces).

Usage: explain_audit.py DTYPEFLOW EXAMPLES_DIR
"""
import json
import os
import subprocess
import sys

DTF, EXAMPLES = sys.argv[1], sys.argv[2]
failures = []


def run_json(*args):
    p = subprocess.run([DTF, *args, "--torch", "1.13"], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        failures.append(f"{' '.join(args)}: exit {p.returncode}: {p.stderr[:300]}")
        return {}
    return json.loads(p.stdout)


cf = os.path.join(EXAMPLES, "control_flow.ir")
# An unknown value: the chain back to the untyped input, which is the first cause.
e = run_json("explain", cf, "count.7", "--json")
chain = e["values"][0]["chain"] if e else []
if not chain or chain[-1]["cause"] != "untyped-input" or chain[-1]["value"] != "ids.1" or not chain[-1]["first_cause"]:
    failures.append(f"explain %count.7: chain {chain}")
if not all(s.get("line") for s in chain[:-1]):
    failures.append("explain: a step of the chain without its IR line")
# An If joining different dtypes is a first cause of its own.
e = run_json("explain", cf, "differ", "--input", "x.1=float32:r2", "--json")
step = e["values"][0]["chain"][-1] if e else {}
if step.get("cause") != "join" or "float64:r2" not in step.get("text", "") or "float32:r2" not in step.get("text", ""):
    failures.append(f"explain %differ: {step}")
# A known value: the rule and the promotion (operands, tiers, categories).
mx = os.path.join(EXAMPLES, "mixed_dtypes.ir")
e = run_json("explain", mx, "%19", "--json")
v = e["values"][0] if e else {}
p = v.get("promotion", {})
if v.get("overload") != "aten::add.Tensor" or p.get("result_type") != "float32" or \
        [(o["dtype"], o["tier"], o["category"]) for o in p.get("operands", [])] != \
        [("bfloat16", "dim tensor", "floating"), ("float16", "dim tensor", "floating")]:
    failures.append(f"explain %19 (bfloat16 + float16): {v}")
# A traced Python scalar is read as the number it was.
e = run_json("explain", mx, "%23", "--json")
ops = e["values"][0]["promotion"]["operands"] if e else []
if [o["tier"] for o in ops] != ["dim tensor", "0-dim tensor"]:
    failures.append(f"explain %23 (x * 0-dim float64 input): tiers {[o['tier'] for o in ops]}")
# The shape rule's part (issue 35): the sizes, the operands' sizes, whether the overload has a shape rule.
e = run_json("explain", os.path.join(EXAMPLES, "resnet18.ir"), "input.17", "--json")
v = e["values"][0] if e else {}
sz = v.get("sizes", {})
if v.get("shape") != [1, 64, 56, 56] or [(o["arg"], o["shape"]) for o in sz.get("operands", [])] != \
        [("self", "[1, 64, 56, 56]"), ("other", "[1, 64, 56, 56]")] or sz.get("errors") != []:
    failures.append(f"explain %input.17 (add_ of two [1, 64, 56, 56]): {v.get('shape')}, {sz}")
# Source locations: torch's `# file.py:line` comments reach the chain.
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus", "half_mix.ir")
e = run_json("explain", src, "7", "--json")
if e and e["values"][0]["chain"][0].get("source") != "gen_corpus.py:66:0":
    failures.append(f"explain with source comments: {e['values'][0]['chain'][0]}")

# The audit of resnet18 under autocast(bfloat16): the 23 casts autocast makes, all of them losing precision.
a = run_json("audit", os.path.join(EXAMPLES, "resnet18_autocast_bf16.ir"), "--json")
casts = [c for c in a.get("changes", []) if c["kind"] == "cast"]
if len(casts) != 23 or any(c.get("detail") != "autocast" or c["to"] != "bfloat16" or not c["loses_precision"]
                           for c in casts) or a["counts"]["promotion"] != 0:
    failures.append(f"audit resnet18 autocast: {a.get('counts')}, {len(casts)} casts")
# The mixed-dtype example: every kind, and where precision is lost.
a = run_json("audit", mx, "--json")
by = {c["value"]: c for c in a.get("changes", [])}
want = {"19": ("promotion", False), "98": ("compute", False), "119": ("cast", True), "67": ("compute", True),
        "17": ("promotion", False)}
for value, (kind, lossy) in want.items():
    c = by.get(value)
    if not c or c["kind"] != kind or c["loses_precision"] != lossy:
        failures.append(f"audit mixed_dtypes %{value}: {c}, want {kind}, loses_precision={lossy}")
if by.get("98", {}).get("detail") != "dtype=float64":
    failures.append(f"audit %98 (sum dtype=float64): {by.get('98')}")

for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
