#!/usr/bin/env python3
"""Why is a value's size not exact? (issue 35)

Runs `dtypeflow check --format json -v` over traced IR files (the corpora by
default) and, for each value right in dtype and rank with some recorded size
unknown (the JSON's "size_unknown"; a data-dependent size counts apart, as
"symbolic", when it is right for the traced run), finds the op that made it and whether
that op is where the knowledge is lost (every tensor operand's sizes exact:
a *root* cause, a missing or partial shape rule) or merely passes an unknown
size on (*propagated*). Prints per-corpus exact percentages and the root
causes grouped by op, most frequent first.

  scripts/size_causes.py [--dtypeflow BIN] [--torch 1.13] [-n 40] [FILE|DIR ...]
"""
import argparse
import collections
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT = ["tests/corpus", "tests/corpus-2.14", "examples"]
NODE = re.compile(r"^\s*(%.*?)\s=\s([A-Za-z_][\w:.]*)\((.*)\)")
OUTPUT = re.compile(r"%([\w.]+)\s*:")


def ir_files(paths):
    for p in paths:
        p = pathlib.Path(p)
        yield from sorted(p.glob("*.ir")) if p.is_dir() else [p]


def operands(path):
    """value name -> (op, [operand names]) from the IR text's node lines."""
    out = {}
    for line in path.read_text(errors="replace").splitlines():
        m = NODE.match(line)
        if not m:
            continue
        args = re.findall(r"%([\w.]+)", m.group(3))
        for name in OUTPUT.findall(m.group(1)):
            out[name] = (m.group(2), args)
    return out


def run(binary, args, path):
    cmd = [binary, *args, "--format", "json", str(path)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(res.stdout)
    except json.JSONDecodeError:
        print(f"{path}: no JSON ({res.stderr.strip()[:200]})", file=sys.stderr)
        return None


def exact(shape):
    return shape is not None and all(isinstance(d, int) or (isinstance(d, str) and d) for d in shape)


def torch_for(path, default):
    """corpus-2.14 was traced under 2.14: checked as that version."""
    return "2.14" if path.parent.name == "corpus-2.14" else default


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(ROOT / d) for d in DEFAULT])
    ap.add_argument("--dtypeflow", default=str(ROOT / "build/tools/dtypeflow"))
    ap.add_argument("--torch", default="1.13")
    ap.add_argument("-n", type=int, default=40, help="root-cause ops to list")
    ap.add_argument("--examples", type=int, default=2, help="example values per op")
    ns = ap.parse_args()
    per_dir = collections.defaultdict(lambda: [0, 0, 0, 0])  # exact, unknown, wrong, symbolic
    roots, propagated = collections.Counter(), collections.Counter()
    examples = collections.defaultdict(list)
    for path in ir_files(ns.paths):
        chk = run(ns.dtypeflow, ["check", "-v", "--torch", torch_for(path, ns.torch)], path)
        ann = run(ns.dtypeflow, ["annotate", "--torch", torch_for(path, ns.torch)], path)
        if not chk or not ann:
            continue
        sizes = chk.get("sizes", {})
        tally = per_dir[path.parent.name]
        tally[0] += sizes.get("exact", 0)
        tally[1] += sizes.get("unknown", 0)
        tally[2] += chk["counts"]["wrong"]
        tally[3] += sizes.get("symbolic", 0)
        shapes = {k: v.get("shape") for k, v in ann["values"].items() if isinstance(v, dict) and "rank" in v}
        ops = operands(path)
        for u in chk.get("size_unknown", []):
            op, args = ops.get(u["value"], (u.get("node") or "?", []))
            if op in ("prim::ListUnpack", "prim::TupleUnpack") and args and args[0] in ops:
                maker, made_of = ops[args[0]]  # an element of split/chunk/unbind's list, a tuple's
                op, args = f"{op} of {maker}", made_of
            tensors = [a for a in args if a in shapes]
            unknown_in = [a for a in tensors if not exact(shapes[a])]
            if unknown_in:
                propagated[op] += 1
                continue
            roots[op] += 1
            if len(examples[op]) < ns.examples:
                ins = ", ".join(f"{a}:{shapes[a]}" for a in tensors)
                examples[op].append(f"{path.name}:{u.get('line')} %{u['value']} = {op}({ins}) -> {u.get('shape')}")
    def line(name, e, un, w, sym):
        n = max(e + un + sym, 1)
        print(f"{name}: {e} exact, {sym} symbolic (data-dependent, right for the traced run), {un} with a size "
              f"unknown ({100 * e / n:.1f}% exact, {100 * (e + sym) / n:.1f}% exact or symbolic), {w} wrong")

    total = [0, 0, 0, 0]
    for d, t in sorted(per_dir.items()):
        total = [a + b for a, b in zip(total, t)]
        line(d, *t)
    line("all", *total)
    print(f"\nroot causes (every tensor operand exact, result not): {sum(roots.values())}")
    for op, n in roots.most_common(ns.n):
        print(f"  {n:5d} {op}")
        for ex in examples[op]:
            print(f"          {ex}")
    print(f"\npropagated (an operand already not exact): {sum(propagated.values())}")
    for op, n in propagated.most_common(15):
        print(f"  {n:5d} {op}")


if __name__ == "__main__":
    main()
