#!/usr/bin/env python3
"""A .pt2 program written as Torch dialect, read back and refined again.

Usage: roundtrip_pt2.py [--require-exact] DTYPEFLOW MLIR_OPT WORKDIR ARCHIVE.pt2...

For each archive: `dtypeflow annotate X.pt2 --format torch-mlir` writes the
module; mlir-opt (when given, not "-") must parse and verify it; `dtypeflow
check` of it must find every stated dtype right (0 wrong, 0 unknown), and
with --require-exact every size bound by torch.bind_symbolic_shape exact; then
every op result type is erased to `!torch.vtensor` (but a number's made a tensor,
torch.prim.NumToTensor.Scalar, as the FX importer states it), every op result's
torch.bind_symbolic_shape removed, and `dtypeflow annotate` must give back,
op by op, the dtype and rank that were written, and bind again only as the
archive recorded (the module it prints checks and verifies).
"""
import os
import re
import subprocess
import sys

RESULT = re.compile(r'^(\s*%[^=]+= "[^"]+"\(.*\) : \(.*\) -> )(.*)$')
TENSOR = re.compile(r"!torch\.vtensor<(\*|\[[^\]]*\]),([^>]+)>")
BIND = re.compile(r'^\s*"torch\.bind_symbolic_shape"\((%[^,)]+)')


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def shape(t):
    """(rank, dtype) of each tensor type in a result list."""
    out = []
    for sizes, elem in TENSOR.findall(t):
        out.append((None if sizes == "*" else (0 if sizes == "[]" else sizes.count(",") + 1), elem))
    return out


def main():
    args = sys.argv[1:]
    exact = "--require-exact" in args  # every size bound comes back exact (the small archives)
    args = [a for a in args if a != "--require-exact"]
    dtf, mlir_opt, work, archives = args[0], args[1], args[2], args[3:]
    os.makedirs(work, exist_ok=True)
    bad = 0
    for a in archives:
        base = os.path.join(work, os.path.basename(a)[:-4])
        rc, out, err = run([dtf, "annotate", "--torch", "2.14", a, "--format", "torch-mlir", "-o", base + ".mlir"])
        if rc != 0:
            print(f"{a}: write failed ({rc}): {err}")
            bad += 1
            continue
        if mlir_opt != "-":
            rc, _, err = run([mlir_opt, "--allow-unregistered-dialect", base + ".mlir"])
            if rc != 0:
                print(f"{a}: mlir-opt refuses the written module:\n{err}")
                bad += 1
        rc, out, err = run([dtf, "check", "-v", "--torch", "2.14", base + ".mlir"])
        if rc != 0 or not re.search(r"\b0 unknown, 0 wrong", out):
            print(f"{a}: check of the written module: {out}{err}")
            bad += 1
        # Sizes: written as ints, or symbolic ones as torch.symbolic_int + torch.bind_symbolic_shape
        # (an archive exported with dynamic_shapes): every bound size must come back exact.
        sizes = re.search(r"sizes: (\d+) exact, (\d+) with a size unknown", err)
        text = open(base + ".mlir").read().splitlines()
        arg_names = set(re.findall(r"(%[\w.$-]+): !torch", text[1])) if len(text) > 1 else set()
        bound = any(m and m.group(1) not in arg_names for m in map(BIND.match, text))  # an op result bound
        if sizes:
            print(f"{a}: sizes {sizes.group(1)} exact, {sizes.group(2)} unknown{' (symbols bound)' if bound else ''}")
        if exact and bound and (not sizes or sizes.group(2) != "0"):
            print(f"{a}: the symbolic sizes written do not all come back exact: {err}")
            bad += 1
        written = open(base + ".mlir").read().splitlines()
        erased = []
        args = set(re.findall(r"(%[\w.$-]+): !torch", written[1])) if len(written) > 1 else set()
        binds = set()  # the archive's recorded symbolic sizes, as written
        for line in written:
            m = RESULT.match(line)
            b = BIND.match(line)
            if b and b.group(1) not in args:  # an op result's bound sizes: annotate must state them again
                binds.add(line.strip())
                continue
            # A number passed for a tensor keeps its type: the FX importer states it (float32, as
            # torch.tensor(0.5)), where the op alone says float64 (TorchScript's NumToTensor).
            declared = m and '"torch.prim.NumToTensor.Scalar"' in line
            erased.append(m.group(1) + TENSOR.sub("!torch.vtensor", m.group(2)) if m and not declared else line)
        open(base + ".erased.mlir", "w").write("\n".join(erased) + "\n")
        rc, out, err = run([dtf, "annotate", "--torch", "2.14", base + ".erased.mlir"])
        if rc not in (0, 1):
            print(f"{a}: annotate of the erased module failed ({rc}): {err}")
            bad += 1
            continue
        again = [l for l in out.splitlines() if RESULT.match(l) and "tensor_static_info_cast" not in l]
        rebound = {l.strip() for l in out.splitlines() if (b := BIND.match(l)) and b.group(1) not in args}
        # dtypeflow's inferred sizes, bound, must be the archive's recorded ones; a value it binds
        # no more has a size it does not know (counted: the check above fails where that is wrong).
        if rebound - binds:
            print(f"{a}: bound differently from the record: {sorted(rebound - binds)}")
            bad += 1
        elif binds - rebound:
            print(f"{a}: {len(binds - rebound)} recorded symbolic sizes not bound again (a size unknown)")
        if rebound:
            open(base + ".rebound.mlir", "w").write(out)
            rc, cout, cerr = run([dtf, "check", "-v", "--torch", "2.14", base + ".rebound.mlir"])
            if rc != 0 or (mlir_opt != "-" and run([mlir_opt, "--allow-unregistered-dialect", base + ".rebound.mlir"])[0]):
                print(f"{a}: the re-bound module does not check or verify: {cout}{cerr}")
                bad += 1
            print(f"{a}: {len(binds)} symbolic result sizes erased; annotate binds {len(rebound & binds)} again as recorded")
        first = [l for l in written if RESULT.match(l)]
        compared = 0
        for w, g in zip(first, again):
            want, got = shape(RESULT.match(w).group(2)), shape(RESULT.match(g).group(2))
            if len(want) != len(got) or any(wr != gr or wd != gd for (wr, wd), (gr, gd) in zip(want, got)):
                print(f"{a}: written {w.strip()}\n  refined again: {g.strip()}")
                bad += 1
            compared += len(want)
        if len(first) != len(again):
            print(f"{a}: {len(first)} ops written, {len(again)} read back")
            bad += 1
        print(f"{a}: {compared} tensor results erased and refined again, same dtype and rank")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
