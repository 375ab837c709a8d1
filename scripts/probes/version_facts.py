# Which side of each version fact (src/dtype/version_facts.def; also the op facts
# declared since a version: r.since(V).declare in src/ops/families) and which dtypes
# (src/dtype/dtypes.def) a PyTorch version is on: run under each version and compare.
#   /usr/bin/python3 scripts/probes/version_facts.py                       (1.13, host)
#   scripts/torch-root.sh 2.6 run python3 scripts/probes/version_facts.py   (2.6)
#   scripts/torch-root.sh 2.14 run python3 scripts/probes/version_facts.py  (2.14)
# One line per fact; the value is what torch does, so lines that differ between
# two versions name what changed between them.
import re
import sys
import torch

SRC = sys.argv[1] if len(sys.argv) > 1 else "."


def res(f):
    try:
        r = f()
        return str(getattr(r, "dtype", r)).replace("torch.", "")
    except Exception as e:  # what raises, by class and first words
        return "raises " + type(e).__name__ + ": " + str(e).split("\n")[0][:50]


# dtypes.def's canonical names that this torch names in Python.
names = re.findall(r'^DTF_DTYPE\(\w+,\s*\d+,\s*\w+,\s*"(\w+)"', open(f"{SRC}/src/dtype/dtypes.def").read(), re.M)
print("dtypes named:", " ".join(n for n in names if isinstance(getattr(torch, n, None), torch.dtype)))
print("dtypes not named:", " ".join(n for n in names if not isinstance(getattr(torch, n, None), torch.dtype)))
f8 = getattr(torch, "float8_e4m3fn", None)
u16 = getattr(torch, "uint16", None)
facts = {
    "Float8PromotionRaises": lambda: torch.promote_types(f8, torch.float32),
    "BarebonesUnsignedPromoteOnlyWithFloating": lambda: torch.promote_types(u16, torch.int8),
    "BarebonesUnsignedPromote (with float)": lambda: torch.promote_types(u16, torch.float32),
    "PromotesBComplex32": lambda: torch.promote_types(torch.bcomplex32, torch.float32),
    "ComplexOfBFloat16IsBComplex32": lambda: torch.ones(2, dtype=torch.bfloat16) * 1j,
    "WrappedNumbersFollowResultType": lambda: torch.add(5.0, 1.5),
    "IntegralConversionTruncatesFirst": lambda: torch.full([2], 127.5, dtype=torch.int8),
    "ReducedFloatZeroDimFillChecksImaginaryOnly": lambda: torch.zeros((), dtype=torch.float16).fill_(1e10),
    "AminmaxKernelTakesHalfTypes (float16)": lambda: torch.aminmax(torch.ones(2, dtype=torch.float16))[0],
    "AminmaxKernelTakesHalfTypes (bfloat16, dim)": lambda: torch.aminmax(torch.ones(2, dtype=torch.bfloat16), dim=0)[0],
    "AminmaxKernelTakesHalfTypes (uint16)": lambda: torch.aminmax(torch.ones(2, dtype=u16))[0],
    "OpFact::OutErrorsOwn of norm.dtype_out, since 2.6 (complex into real)":
        lambda: torch.norm(torch.ones(2), 2, dim=[0], keepdim=False, dtype=torch.complex64, out=torch.empty(())),
    "OpFact::OutErrorsOwn of ldexp.out, since 2.6 (float8)":
        lambda: torch.ldexp(torch.ones(2, dtype=f8), torch.ones(2), out=torch.empty(2, dtype=f8)),
}


def autocast_f16():
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with torch.autocast("cpu", dtype=torch.float16):
            r = torch.mm(torch.ones(2, 2), torch.ones(2, 2))
    return f"{str(r.dtype)[6:]}{' (warned)' if w else ''}"


facts["CpuAutocastTakesFloat16"] = autocast_f16
print("torch", torch.__version__)
for k, f in facts.items():
    print(f"{k}: {res(f)}")
