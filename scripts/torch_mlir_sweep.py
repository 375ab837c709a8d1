#!/usr/bin/env python3
"""Run dtypeflow over torch-mlir's own test files: every .mlir under test/
that holds `torch.` ops, read by `dtypeflow annotate FILE --format json` and by
plain `annotate`.

    scripts/torch_mlir_sweep.py DTYPEFLOW [--tests DIR] [--baseline DTYPEFLOW2]
                                [--markdown] [--verbose]

--tests: torch-mlir's test/ directory; by default it is taken from the bare
mirror at /work/.mirror/llvm+torch-mlir/repo (`git archive HEAD test`).
--baseline: a second dtypeflow; plain annotate's stdout and stderr must be
byte-identical between the two on every file the baseline reads (a change
meant to keep output as it was).

Each file is classified: read (exit 0, or 1 for dtype errors PyTorch raises),
refused (exit 2: grouped by message with the file:line:col and quoted names
taken out), or a defect: a crash (a sanitizer's abort too: run it with an
ASan build), a timeout (30 s), plain annotate disagreeing with --format json
on the exit code, or `check` failing on a file annotate read. The plausibility check runs
`dtypeflow check` on the files under test/Dialect/Torch: every result whose
written dtype dtypeflow contradicts is listed (`wrong`), for a person to
decide with PyTorch's answer. Exit status: 1 when a defect was found.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

MIRROR = "/work/.mirror/llvm+torch-mlir/repo"
# torch-mlir's element types, as PyTorch names the dtype (mlir_types.cpp's table).
ELEMENTS = {"i1": "bool", "ui8": "uint8", "si8": "int8", "si16": "int16", "si32": "int32", "si64": "int64",
            "ui16": "uint16", "ui32": "uint32", "ui64": "uint64", "f16": "float16", "bf16": "bfloat16",
            "f32": "float32", "f64": "float64", "complex<f16>": "complex32", "complex<f32>": "complex64",
            "complex<f64>": "complex128"}
TIMEOUT = 30


def run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def message_class(stderr):
    """The first error's message, with its place and the names it quotes taken out."""
    for line in stderr.decode(errors="replace").splitlines():
        m = re.search(r":\d+:\d+: error: (.*)", line) or re.search(r"error: (.*)", line)
        if m:
            msg = re.sub(r"'[^']*'", "'…'", m.group(1))
            msg = re.sub(r"%[\w#.$-]+", "%…", msg)
            return re.sub(r"\d+", "N", msg)
    return "(no message)"


def tests_dir(arg):
    if arg:
        return arg, None
    tmp = tempfile.TemporaryDirectory(prefix="tmlir-")
    archive = subprocess.run(["git", "--git-dir", MIRROR, "archive", "HEAD", "test"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", tmp.name], input=archive.stdout, check=True)
    commit = subprocess.run(["git", "--git-dir", MIRROR, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"torch-mlir {commit} (from {MIRROR})", file=sys.stderr)
    return os.path.join(tmp.name, "test"), tmp


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dtypeflow")
    ap.add_argument("--tests")
    ap.add_argument("--baseline")
    ap.add_argument("--markdown", action="store_true", help="the summary as a Markdown table")
    ap.add_argument("--verbose", action="store_true", help="every file and every wrong dtype")
    a = ap.parse_args()
    root, keep = tests_dir(a.tests)
    files = []
    for d, _, names in os.walk(root):
        for n in names:
            path = os.path.join(d, n)
            if n.endswith(".mlir") and "torch." in open(path, errors="replace").read():
                files.append(path)
    files.sort()

    counts = collections.Counter()
    refused = collections.defaultdict(list)
    defects, differs, wrongs = [], [], []
    functions = values = known = rank_only = 0
    for path in files:
        rel = os.path.relpath(path, root)
        rc, out, err = run([a.dtypeflow, "annotate", path, "--format", "json"])
        rc_plain, out_plain, err_plain = run([a.dtypeflow, "annotate", path])
        if rc == "timeout" or rc_plain == "timeout" or (isinstance(rc, int) and rc < 0) or rc not in (0, 1, 2):
            defects.append(f"{rel}: exit {rc} / {rc_plain}")
            continue
        if rc != rc_plain:
            defects.append(f"{rel}: --format json exits {rc}, plain annotate {rc_plain}")
        if a.baseline:
            b_rc, b_out, b_err = run([a.baseline, "annotate", path])
            if b_rc != 2 and (b_rc, b_out, b_err) != (rc_plain, out_plain, err_plain):  # what both read
                differs.append(rel)
        if rc == 2:
            counts["refused"] += 1
            refused[message_class(err)].append(rel)
            continue
        counts["read"] += 1
        j = json.loads(out)
        functions += len(j["functions"])
        for f in j["functions"]:
            values += len(f["values"])
            known += sum(1 for v in f["values"].values() if v.get("dtype") not in (None, "unknown"))
        if rel.startswith("Dialect/Torch/"):
            c_rc, c_out, _ = run([a.dtypeflow, "check", path, "--format", "json"])
            if c_rc not in (0, 1):  # it read the file above: check must too (a crash, a sanitizer's abort)
                defects.append(f"{rel}: check --format json exits {c_rc}")
            elif c_out:
                cj = json.loads(c_out)
                for w in cj.get("wrong", []):
                    m = re.search(r",\s*([^,>]+)>\s*$", w["written"])
                    written = ELEMENTS.get(m.group(1).strip()) if m else None
                    if written is None or written == w["dtype"]:
                        rank_only += 1  # the dtype agrees: a rank (sizes) the test wrote otherwise
                        continue
                    wrongs.append(f"{rel}:{w['line']}: %{w['value']} ({w['node']}): written {w['written']}, "
                                  f"dtypeflow {w['dtype']}")
        if a.verbose:
            print(f"read    {rel}: {len(j['functions'])} function(s), exit {rc}")

    total = len(files)
    if a.markdown:
        print("| | files |\n|---|---|")
        print(f"| holding `torch.` ops | {total} |")
        print(f"| read (exit 0 or 1) | {counts['read']}: {functions} functions, {values} SSA values, {known} with a dtype |")
        for msg, fs in sorted(refused.items(), key=lambda kv: -len(kv[1])):
            print(f"| refused: {msg} | {len(fs)}: {', '.join(os.path.basename(f) for f in fs)} |")
        print(f"| crash, sanitizer abort, timeout, json/plain disagreement, check failing | {len(defects)} |")
    else:
        print(f"{total} files with torch ops: {counts['read']} read ({functions} functions, {values} SSA values, "
              f"{known} with a dtype), "
              f"{counts['refused']} refused, {len(defects)} defects")
        for msg, fs in sorted(refused.items(), key=lambda kv: -len(kv[1])):
            print(f"  refused ({len(fs)}): {msg}")
            for f in fs:
                print(f"      {f}")
    for d in defects:
        print(f"DEFECT: {d}")
    if a.baseline:
        print(f"output differs from the baseline: {len(differs)} file(s)")
        for d in differs:
            print(f"  {d}")
    print(f"test/Dialect/Torch, `check`: {len(wrongs)} dtype(s) contradicting a written one "
          f"({rank_only} more results written with another rank, same dtype)")
    for w in wrongs:
        print(f"  {w}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
