# What autocast casts (its "eligible" tensors), under each version:
#   /usr/bin/python3 scripts/probes/autocast.py                       (1.13, host)
#   scripts/torch214-root.sh run python3 scripts/probes/autocast.py   (2.14)
# Eligible = floating point, on the autocast device (CPU here), not float64. Output lines are
# `policy-op input-dtypes -> result-dtype` under torch.autocast('cpu', dtype=bfloat16).
import torch
D = [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int32, torch.int64, torch.complex64]
def t(d, dev="cpu"): return torch.ones(2, 2, dtype=d, device=dev)
def show(name, f, *ds):
    try: r = f().dtype
    except Exception as e: r = "raises: " + str(e).split("\n")[0][:70]
    print(f"{name:8} {' '.join(str(d)[6:] for d in ds):20} -> {str(r).replace('torch.', '')}")
with torch.autocast("cpu", dtype=torch.bfloat16):
    for d in D:  # lower_precision_fp: mm
        show("mm", lambda: torch.mm(t(d), t(d)), d, d)
    for d in D:  # fp32: cdist on real inputs
        if not d.is_complex: show("cdist", lambda: torch.cdist(t(d), t(d)), d, d)
    for a in D:  # promote: stack
        for b in D:
            show("stack", lambda: torch.stack([t(a), t(b)]), a, b)
    # a tensor on another device (meta) is not eligible for CPU autocast
    show("mm/meta", lambda: torch.mm(t(torch.float32, "meta"), t(torch.float32, "meta")), torch.float32, torch.float32)
    # mixing: one float64 argument, one float32: lower_precision_fp casts only the eligible one
    show("mm", lambda: torch.mm(t(torch.float64), t(torch.float32)), torch.float64, torch.float32)
with torch.autocast("cpu", dtype=torch.float16) if torch.__version__ >= "2" else torch.autocast("cpu", dtype=torch.bfloat16):
    show("mm(f16ac)", lambda: torch.mm(t(torch.float32), t(torch.float32)), torch.float32, torch.float32)
