#!/usr/bin/env python3
"""torch-mlir's RefineTypes tests against dtypeflow.

Usage: compare_refine_types.py DTYPEFLOW EXPECTED_DIFFERENCES FILE.mlir...

Each FILE is annotated by `dtypeflow annotate --torch 2.14`. For every op
result whose type a CHECK line states with a dtype (`-> !torch.vtensor<*,f32>`,
`: !torch.vtensor<[2],bf16>`), the result of the same op in dtypeflow's output
(the k-th op of that name in the same `// -----` part) is compared by dtype:
rank-known-too counts as agreement. The casts torch-mlir inserts
(torch.tensor_static_info_cast) are no inferred results and are skipped.
Every disagreement ("differs": another dtype; "unknown": dtypeflow leaves it
unknown) must be listed in EXPECTED_DIFFERENCES (one per line, as printed
here), and every listed one must still happen: the list is the record the
docs cite (docs/torch-mlir.md). Exit 1 on any other outcome.
"""
import re
import subprocess
import sys

SPLIT = re.compile(r"^// -----\s*$", re.M)
TENSOR = re.compile(r"!torch\.v?tensor(?:<\s*(\*|\[[^\]]*\])\s*,\s*([^>]+?)\s*>)?")
# An op's name: after `%x =`, or first on the line (an op without a named result in a CHECK line).
OP = re.compile(r"(?:=\s*|^\s*)(torch\.[A-Za-z0-9_.]+|\"[^\"]+\")")


def checks(part):
    """(label, op, stated type) for each CHECK statement with a result type, CHECK-SAME joined."""
    stmts, label = [], None
    for line in part.splitlines():
        m = re.match(r"\s*//\s*CHECK(-[A-Z]+)?:(.*)", line)
        if not m:
            continue
        kind, body = m.group(1) or "", m.group(2)
        if kind == "-LABEL":
            lm = re.search(r"@([\w$.]+)", body)
            label = lm.group(1) if lm else body.strip()
            continue
        if kind == "-SAME" and stmts:
            stmts[-1][1] += " " + body
        else:
            stmts.append([label, body])
    out = []
    for label, body in stmts:
        op = OP.search(body)
        if not op:
            continue
        name = op.group(1).strip('"')
        if "=" not in body[:op.start(1)] and "->" not in body[op.end():]:
            continue  # an op without results: the types after its `:` are its operands'
        if name == "torch.tensor_static_info_cast":
            continue
        out.append((label, name, result_type(body[op.end():])))
    return out


def result_type(rest):
    """The first result type an op's text states: after its last `->` or `to`, else after its `:`."""
    for sep in ("->", " to "):
        if sep in rest:
            rest = rest.rsplit(sep, 1)[1]
            break
    else:
        if ":" not in rest:
            return None
        rest = rest.rsplit(":", 1)[1]
    m = TENSOR.search(rest)
    return m.group(0) if m else None


def element(t):
    m = TENSOR.fullmatch(t) if t else None
    if not m or not m.group(2) or m.group(2) == "unk":
        return None
    return m.group(2)


def ops(part):
    """(op, result type) of every op line of dtypeflow's output, comments dropped."""
    out = []
    for line in part.splitlines():
        if line.lstrip().startswith("//"):
            continue
        op = OP.search(line)
        if op:
            out.append((op.group(1).strip('"'), result_type(line[op.end():])))
    return out


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    dtypeflow, expected_file, files = args[0], args[1], args[2:]
    found, stated, agree, log = [], 0, 0, []
    for f in files:
        src = open(f).read()
        run = subprocess.run([dtypeflow, "annotate", "--torch", "2.14", f], capture_output=True, text=True)
        if run.returncode not in (0, 1):
            print(f"{f}: dtypeflow exited {run.returncode}:\n{run.stderr}")
            return 1
        ins, outs = SPLIT.split(src), SPLIT.split(run.stdout)
        if len(ins) != len(outs):
            print(f"{f}: {len(ins)} parts in, {len(outs)} out")
            return 1
        short = f.rsplit("/", 1)[-1]
        for i, (pin, pout) in enumerate(zip(ins, outs)):
            mine = ops(pout)
            seen = {}
            for label, name, want in checks(pin):
                w = element(want)
                if w is None:
                    continue
                stated += 1
                k = seen.get(name, 0)
                seen[name] = k + 1
                same = [t for n, t in mine if n == name]
                got = element(same[k]) if k < len(same) else None
                if got == w:
                    agree += 1
                    log.append(f"{short}:{i} @{label} {name}#{k}: {w} == {got}")
                    continue
                verdict = "unknown" if got is None else "differs"
                found.append(f"{short}:{i} @{label} {name}#{k}: torch-mlir {w}, dtypeflow {got or 'unknown'} ({verdict})")
    expected = [l.strip() for l in open(expected_file) if l.strip() and not l.startswith("#")]
    print(f"{stated} result types stated by CHECK lines: {agree} agree, {len(found)} do not")
    for line in found:
        print("  " + line)
    if verbose:
        print("agreeing:")
        for line in log:
            print("  " + line)
    unexpected = [l for l in found if l not in expected]
    gone = [l for l in expected if l not in found]
    for l in unexpected:
        print(f"NOT LISTED in {expected_file}: {l}")
    for l in gone:
        print(f"LISTED but no longer happens: {l}")
    return 1 if unexpected or gone else 0


if __name__ == "__main__":
    sys.exit(main())
