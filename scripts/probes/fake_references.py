# Where FakeTensor (what torch.export records) gives another result dtype than the CPU kernel, and
# whether `dtypeflow infer-op --kernels meta` answers FakeTensor's dtype there:
#   scripts/torch-root.sh 2.6 run python3 scripts/probes/fake_references.py build-2.6/tools/dtypeflow
#   scripts/torch214-root.sh run python3 scripts/probes/fake_references.py build-2.14/tools/dtypeflow
# Every aten overload whose required arguments are tensors (at most three) and numbers, each tensor
# one of 11 dtypes (shape [2]), each number True, 2, 1.5 or 1j; run on the CPU and under
# FakeTensorMode. FakeTensor runs some ops as torch's Python references or decompositions, which
# the C++ conformance harness (C++ meta kernels only) cannot see. Per differing case the answer is
# match, unknown, we-raise (FakeTensor runs a call the CPU refuses; left as the CPU answers) or
# WRONG (another dtype: a rule to fix; vocabulary.h metaByReference). Exit 1 on a WRONG one.
import collections
import concurrent.futures
import itertools
import logging
import subprocess
import sys
import warnings

import torch
from torch._subclasses.fake_tensor import FakeTensorMode

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)
DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
          torch.float32, torch.float64, torch.complex64]
NUMBERS = [True, 2, 1.5, 1j]
# Random, sparse, quantized, backend-specific, in-place-on-metadata and data-dependent ops: no
# fixed dtype to compare, or no meaning for a [2] tensor.
SKIP = ("_foreach", "rand", "normal", "bernoulli", "multinomial", "_local_scalar", "item", "_assert", "sym_", "_nested",
        "sparse", "quantize", "cudnn", "mkldnn", "miopen", "_fused", "_test", "resize", "set_", "record_stream", "_amp",
        "_fft", "poisson", "exponential", "geometric", "cauchy", "log_normal", "uniform", "random_", "_standard",
        "_sample", "_nnpack", "_pin", "lift", "_make", "_to_copy", "_coalesce", "_values", "_indices", "q_",
        "int_repr", "fbgemm", "_choose_qparams", "_histogramdd", "split_with_sizes", "unsafe_split", "linalg",
        "_batch_norm", "nonzero", "unique", "masked_select", "_print", "allclose", "equal", "is_same_size",
        "_propagate", "align_", "rename", "refine_names", "_version", "requires_grad", "retain", "output_nr", "data",
        "_fw_primal", "_conj_physical", "detach_", "_dim", "_nnz", "dense_dim", "_is_", "is_", "_has_", "_use_",
        "_should", "_spdiags", "_functional", "_chunk_cat", "_jagged", "_padded", "_cslt", "_efficient", "_flash",
        "_scaled", "_weight_int", "_convert", "_dyn", "_wrapped", "_upsample", "segment_reduce", "ctc", "_thnn",
        "rnn_", "lstm", "gru", "_pack", "_pad_packed", "embedding_bag")


def overloads():
    for name in dir(torch.ops.aten):
        if any(s in name for s in SKIP):
            continue
        packet = getattr(torch.ops.aten, name, None)
        for ov in getattr(packet, "overloads", lambda: [])():
            op = getattr(packet, ov)
            sch = op._schema
            if not sch.returns or any(r.type.kind() != "TensorType" for r in sch.returns):
                continue
            if any(a.kwarg_only and a.default_value is None for a in sch.arguments):
                continue
            req = [a for a in sch.arguments if a.default_value is None and not a.type.kind().startswith("Optional")]
            kinds = [a.type.kind() for a in req]
            if 0 < kinds.count("TensorType") and len(req) <= 3 and all(k in ("TensorType", "NumberType") for k in kinds):
                yield f"{sch.name}{'.' + sch.overload_name if sch.overload_name else ''}", op, req


def dtype_of(op, combo, fake):
    def arg(c):
        if not isinstance(c, torch.dtype):
            return c
        t = torch.ones(2, dtype=torch.bool) if c == torch.bool else (torch.ones(2) * 2).to(c)
        return fake.from_tensor(t) if fake else t
    try:
        return str(op(*[arg(c) for c in combo]).dtype).replace("torch.", "")
    except Exception:
        return "raise"


def differences():
    for key, op, req in overloads():
        combos = list(itertools.product(*[DTYPES if a.type.kind() == "TensorType" else NUMBERS for a in req]))
        for combo in combos[::len(combos) // 1500 + 1]:
            cpu = dtype_of(op, combo, None)
            with FakeTensorMode() as m:
                fake = dtype_of(op, combo, m)
            if cpu != fake and fake != "raise":
                args = [f"{a.name}={str(c).replace('torch.', '') + ':[2]' if isinstance(c, torch.dtype) else repr(c)}"
                        for a, c in zip(req, combo)]
                yield key, args, cpu, fake


def main():
    cli, version = sys.argv[1], ".".join(torch.__version__.split(".")[:2])

    def ask(case):
        key, args, cpu, fake = case
        r = subprocess.run([cli, "infer-op", "--torch", version, "--kernels", "meta", key] + args,
                           capture_output=True, text=True)
        if r.returncode not in (0, 1):
            sys.exit(f"{cli} infer-op {key} {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[:300]}")
        ours = "raise" if r.returncode == 1 else (r.stdout.split() or ["?"])[0]
        kind = ("match" if ours == fake else "we-raise" if ours == "raise" else
                "unknown" if ours == "unknown" else "WRONG")
        return case, ours, kind

    counts, per_op = collections.Counter(), collections.defaultdict(collections.Counter)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for (key, args, cpu, fake), ours, kind in pool.map(ask, list(differences())):
            counts[kind] += 1
            per_op[key][kind] += 1
            if kind == "WRONG":
                print(f"WRONG {key} {' '.join(args)}: cpu {cpu}, FakeTensor {fake}, --kernels meta {ours}")
    print(f"torch {torch.__version__}: {sum(counts.values())} calls where FakeTensor and the CPU differ:", dict(counts))
    print("ops with calls FakeTensor runs and dtypeflow's meta answer refuses:",
          ", ".join(k for k, c in sorted(per_op.items()) if c["we-raise"]))
    return 1 if counts["WRONG"] else 0


if __name__ == "__main__":
    sys.exit(main())
