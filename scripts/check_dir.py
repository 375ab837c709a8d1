#!/usr/bin/env python3
# `dtypeflow check --torch VERSION` on every IR file of a directory: totals, every wrong value, the
# unknowns by op. Usage: python3 scripts/check_dir.py DIR VERSION (from the source tree, after the build).
import json, os, subprocess, sys, collections
d = sys.argv[1]; torch_v = sys.argv[2]
tot = collections.Counter(); wrong = []; unk = collections.Counter(); errs = []
files = sorted(os.listdir(d))
for i in range(0, len(files), 50):
    chunk = [os.path.join(d, f) for f in files[i:i+50]]
    for f in chunk:
        p = subprocess.run(["build/tools/dtypeflow", "check", "--torch", torch_v, "--format", "json", f], capture_output=True, text=True)
        try: j = json.loads(p.stdout)
        except Exception: errs.append((f, p.stderr.strip()[:200])); continue
        for k, v in j["counts"].items(): tot[k] += v
        for w in j.get("wrong", []): wrong.append((os.path.basename(f), w))
        for u in j.get("unknown", []): unk[(u.get("op") or u.get("node") or str(u))[:80] if isinstance(u, dict) else str(u)[:80]] += 1
print(dict(tot)); n = sum(tot.values()); print("right %", 100.0 * tot.get("correct", 0) / max(n, 1))
print("errors", len(errs)); [print("  ", e) for e in errs[:10]]
print("WRONG", len(wrong)); [print("  ", w) for w in wrong[:40]]
print("unknown by op:"); [print("  ", c, k) for k, c in unk.most_common(40)]
