#!/usr/bin/env python3
"""data/autocast-<version>.txt against the torch running this script (1.13 on the host,
2.14 in the sid root): the CPU and CUDA lists hold exactly the ops the dispatcher
registers for AutocastCPU / AutocastCUDA (readable without a GPU), and every CPU policy
marked `measured` is what autocast does now (scripts/gen_autocast_lists.py measures it).

Usage: check_lists.py REPO_ROOT
"""
import os
import sys

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "scripts"))
import torch  # noqa: E402
import gen_autocast_lists as gen  # noqa: E402

version = ".".join(torch.__version__.split(".")[:2])
path = os.path.join(root, "data", f"autocast-{version}.txt")
entries = {}
for line in open(path):
    if line.startswith("#") or not line.strip():
        continue
    device, key, policy, origin = line.split()
    entries[(device, key)] = (policy, origin)

failures = []
for device, dkey in (("cpu", "AutocastCPU"), ("cuda", "AutocastCUDA")):
    registered = set(gen.registrations(dkey))
    listed = {k for (d, k) in entries if d == device}
    for k in sorted(registered - listed):
        failures.append(f"{device}: {k} is registered for {dkey} but not in {path}")
    for k in sorted(listed - registered):
        failures.append(f"{device}: {k} is in {path} but not registered for {dkey}")
measured = 0
for (device, key), (policy, origin) in sorted(entries.items()):
    if device == "cpu" and origin == "measured":
        now = gen.measure(key)
        measured += 1
        if now != policy:
            failures.append(f"cpu: {key}: the data says {policy}, autocast now does {now}")

for f in failures:
    print(f)
print(f"torch {torch.__version__}: {len(entries)} list entries, {measured} CPU policies re-measured, "
      f"{len(failures)} problems")
sys.exit(1 if failures else 0)
