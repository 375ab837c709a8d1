# Probe of what the kind of CPU decides (src/ops/cpu_capability.{h,cpp}): the
# outcomes of the calls whose low-precision path is oneDNN's only on some CPUs.
# Run it on each kind of machine, under each version, and compare:
#   /usr/bin/python3 scripts/probes/cpu_onednn.py                        (1.13, host)
#   scripts/torch214-root.sh run python3 scripts/probes/cpu_onednn.py    (2.14)
# Each line: the call, then per bias/grad dtype '.' (runs) or 'R' (raises, the
# reason's first words after it). Compare with
#   dtypeflow infer-op --cpu host ...   (and without --cpu: "may raise").
import re
import torch

def cpu_facts():
    cap = getattr(getattr(torch.backends, "cpu", None), "get_cpu_capability", lambda: "n/a (1.13)")()
    flags = set()
    for line in open("/proc/cpuinfo"):
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            break
    want = ["avx2", "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512_bf16", "avx512_fp16", "amx_tile",
            "amx_bf16", "amx_fp16", "avx_ne_convert"]
    return cap, [f for f in want if f in flags]

D = [torch.bool, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64]

def outcome(f):
    try:
        r = f()
        return "." if not isinstance(r, tuple) else "." + "".join(str(t.dtype)[6:9] if t is not None else "-" for t in r)
    except Exception as e:
        return "R(" + " ".join(re.sub(r"\s+", " ", str(e)).split()[:4]) + ")"

def t(shape, d):
    return torch.ones(shape, dtype=d)

cases = {
    "conv2d.padding(x, w, bias)": lambda d, b: torch.ops.aten.conv2d.padding(t([1, 2, 4, 4], d), t([2, 2, 1, 1], d), t([2], b), [1, 1], "same", [1, 1], 1),
    "convolution(x, w, bias, transposed=False)": lambda d, b: torch.convolution(t([1, 2, 4, 4], d), t([2, 2, 1, 1], d), t([2], b), [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    "conv_transpose2d(x, w, bias)": lambda d, b: torch.conv_transpose2d(t([1, 2, 4, 4], d), t([2, 2, 1, 1], d), t([2], b)),
    "gelu_backward(grad, self)": lambda d, b: torch.ops.aten.gelu_backward(t([2, 3], b), t([2, 3], d)),
    "convolution_backward(g, x, w: bias dtype)": lambda d, b: torch.ops.aten.convolution_backward(
        t([1, 2, 4, 4], d), t([1, 2, 4, 4], d), t([2, 2, 1, 1], b), [2], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True, True, True]),
}

cap, flags = cpu_facts()
print("torch", torch.__version__, "| capability", cap, "| flags", " ".join(flags))
for name, f in cases.items():
    print(name)
    for d in (torch.float16, torch.bfloat16, torch.float32):
        print("  %-9s" % str(d)[6:], " ".join("%s:%s" % (str(b)[6:], outcome(lambda: f(d, b))) for b in D))
