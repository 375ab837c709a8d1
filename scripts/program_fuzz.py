#!/usr/bin/env python3
"""Random traced programs, checked: a differential test of the whole pass against PyTorch.

Each program takes 2-4 tensor inputs of random dtypes (bool ... float64) and shapes (0-dim,
broadcastable pairs) and applies 4-12 random steps to earlier values: binary ops of two tensors,
ops with a Python number, unary math, `to`, reductions (keepdim, `dtype=`), views, `where`,
`cat`/`stack`, in-place ops on a clone, `*_like` factories, `matmul`, `lerp`, `addcmul`,
`masked_fill`, indexing, `topk`/`sort`, `torch.tensor`/`arange` constants, rounding divisions,
pointwise losses, layer_norm, log_softmax with `dtype=`, bucketize, shifts, outer/kron/hypot ...,
gather, index_put_, einsum. A step PyTorch refuses is
dropped, so every program runs. It is traced (torch.jit.trace, inlined and lowered as
examples/gen_examples.py does) or, with --form export (2.x), exported to a .pt2; the trace or
the archive records every value's dtype and sizes; `dtypeflow
check --torch V` infers them from the inputs alone and compares. Any wrong value, any dtype error
predicted in a program that ran, any refusal fails the run.

    program_fuzz.py --cli build/tools/dtypeflow [--form trace|export] [--seed S] [--count N] [--out DIR] [--keep]

V is the version of the torch that runs this script (1.13 on the host; 2.6 and 2.14 in their
roots: scripts/torch-root.sh V run python3 scripts/program_fuzz.py ...). Exit 1 on a failure,
with the program's file kept for `dtypeflow check` to show.
"""
import argparse, os, random, re, shutil, subprocess, sys, tempfile, warnings

warnings.filterwarnings("ignore")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import torch  # noqa: E402
import gen_examples  # noqa: E402

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
          torch.bfloat16, torch.float32, torch.float64]
SHAPES = [(3, 4), (4,), (), (1, 4), (3, 1), (4, 4)]


def tensor(dt, shape):
    if dt == torch.bool:
        return torch.rand(shape) > 0.5
    if dt.is_floating_point:
        return torch.randn(shape).to(dt)
    return torch.randint(1, 5, shape).to(dt)


def steps(r):
    """The step kinds: (arity, a function of that many tensors), each drawn with fresh choices."""
    number = lambda: r.choice([2, -1, 0.5, True, 3.0, 1])
    pick = r.choice
    n, dt = number(), pick(DTYPES)
    binary = pick(["add", "sub", "mul", "div", "maximum", "minimum", "eq", "lt", "logical_and", "bitwise_and",
                   "remainder", "floor_divide", "atan2", "pow", "fmod", "true_divide"])
    with_number = pick(["add", "sub", "mul", "div", "pow", "remainder", "floor_divide", "eq", "gt", "clamp_min", "fmod"])
    unary = pick(["abs", "neg", "sqrt", "exp", "sigmoid", "floor", "sign", "logical_not", "bitwise_not", "square",
                  "reciprocal", "round", "trunc", "isnan", "signbit", "frac", "relu", "tanh", "log1p", "erf", "angle",
                  "positive"])
    reduce, keep = pick(["sum", "mean", "prod", "amax", "argmax", "cumsum", "logsumexp", "std", "var", "any", "all",
                         "nansum", "count_nonzero"]), r.random() < 0.5
    reduce_dt = pick(["sum", "prod", "mean", "cumsum", "softmax"])
    view = pick([lambda a: a.unsqueeze(0), lambda a: a.flatten(), lambda a: a.t() if a.dim() <= 2 else a.transpose(0, 1),
                 lambda a: a[..., :1], lambda a: a.expand(2, *a.shape), lambda a: a.reshape(-1), lambda a: a.squeeze(),
                 lambda a: a.contiguous(), lambda a: a.flip(0) if a.dim() else a,
                 lambda a: a.repeat(2, *([1] * a.dim())) if a.dim() else a.repeat(2)])
    inplace = pick(["add_", "mul_", "sub_", "div_", "copy_", "clamp_", "masked_fill_"])
    like, like_dt = pick(["zeros_like", "ones_like", "empty_like", "rand_like"]), pick(DTYPES + [None])
    lo, hi, v, which = pick([0, -1.5, None]), pick([2, 3.5]), pick([1, 0.5, 2]), pick([0, 1])
    # Chosen now, not when a step runs: the trace or export replays the same op.
    rounding = pick(["floor", "trunc"])
    loss = pick([torch.nn.functional.huber_loss, torch.nn.functional.mse_loss, torch.nn.functional.l1_loss,
                 torch.nn.functional.smooth_l1_loss])
    misc1 = pick([lambda t: torch.nn.functional.layer_norm(t, t.shape[-1:]), lambda t: torch.log_softmax(t, -1, dtype=dt),
                  lambda t: torch.nan_to_num(t), lambda t: torch.tril(t) if t.dim() == 2 else t.flip(-1),
                  lambda t: t.roll(1, -1), lambda t: t.cumprod(-1), lambda t: torch.argsort(t, -1),
                  lambda t: t.type_as(t.double()), lambda t: torch.bucketize(t, torch.tensor([0.0, 1.0, 2.0])),
                  lambda t: t.bitwise_left_shift(1), lambda t: torch.diff(t, dim=-1)])
    misc2 = pick([torch.outer, torch.kron, torch.hypot, torch.logaddexp, torch.copysign, torch.xlogy, torch.nextafter,
                  torch.isclose, torch.fmax, torch.bitwise_right_shift])
    value, start, end = pick([1, 2.5, True]), pick([0, 0.5, 1]), pick([3, 4.0])
    const = pick([lambda: torch.tensor(value), lambda: torch.tensor([1, 2]), lambda: torch.tensor([1.0, 2.0]),
                  lambda: torch.arange(start, end)])
    return [
        (2, lambda a, b: getattr(torch, binary)(a, b)),
        (1, lambda a: getattr(torch, with_number)(a, n)),
        (1, lambda a: n - a),
        (1, lambda a: getattr(torch, unary)(a)),
        (1, lambda a: a.to(dt)),
        (1, lambda a: getattr(torch, reduce)(a, dim=-1, keepdim=keep) if a.dim() else getattr(torch, reduce)(a)),
        (1, lambda a: getattr(torch, reduce_dt)(a, 0 if reduce_dt in ("cumsum", "softmax") else None, dtype=dt)
            if reduce_dt in ("cumsum", "softmax") else getattr(torch, reduce_dt)(a, dtype=dt)),
        (1, view),
        (3, lambda c, a, b: torch.where(c.bool(), a, b)),
        (2, lambda c, a: torch.where(c.bool(), a, n)),
        (2, lambda a, b: torch.cat([a.flatten(), b.flatten()])),
        (2, lambda a, b: torch.stack([a, b])),
        (2, lambda a, b: getattr(a.clone(), inplace)(b)),
        (1, lambda a: getattr(torch, like)(a, dtype=like_dt) if like_dt is not None else getattr(torch, like)(a)),
        (1, lambda a: torch.full_like(a, n)),
        (2, lambda a, b: torch.matmul(a, b)),
        (1, lambda a: torch.clamp(a, lo, hi)),
        (3, lambda a, b, w: torch.lerp(a, b, w)),
        (3, lambda a, b, c: torch.addcmul(a, b, c, value=v)),
        (2, lambda a, m: a.masked_fill(m.bool(), n)),
        (1, lambda a: a[torch.tensor([0])] if a.dim() else a),
        (1, lambda a: torch.topk(a.flatten(), 1)[which]),
        (1, lambda a: torch.sort(a, -1)[which] if a.dim() else a),
        (0, const),
        (2, lambda a, b: torch.div(a, b, rounding_mode=rounding)),
        (2, lambda a, b: loss(a, b)),
        (1, lambda a: misc1(a)),
        (2, lambda a, b: misc2(a, b)),
        (2, lambda a, i: a.gather(-1, i.long().clamp(0, a.shape[-1] - 1)) if a.dim() and i.dim() == a.dim() else a),
        (3, lambda a, i, v: a.clone().index_put_((i.long().clamp(0, a.shape[0] - 1).flatten(),), v.flatten()[:1])),
        (2, lambda a, b: torch.einsum("i,i->", a.flatten()[:4], b.flatten()[:4])),
    ]


class Program(torch.nn.Module):
    def __init__(self, plan, inputs):
        super().__init__()
        self.plan, self.inputs = plan, inputs

    def forward(self, *xs):
        vals = list(xs)
        for f, args in self.plan:
            vals.append(f(*[vals[i] for i in args]))
        return tuple(vals[self.inputs:])


def program(seed, form):
    """A random program that runs, as traced IR text or an exported archive's path (None when the
    tracer or torch.export refuses it)."""
    r = random.Random(seed)
    torch.manual_seed(seed)
    xs = [tensor(r.choice(DTYPES), r.choice(SHAPES)) for _ in range(r.randint(2, 4))]
    vals, plan = list(xs), []
    for _ in range(r.randint(4, 12)):
        arity, f = r.choice(steps(r))
        args = [r.randrange(len(vals)) for _ in range(arity)]
        try:
            v = f(*[vals[i] for i in args])
        except Exception:  # PyTorch refuses this step: not part of the program
            continue
        if torch.is_tensor(v) and v.numel() <= 10000:
            vals.append(v)
            plan.append((f, args))
    if not plan:
        return None
    try:
        with torch.no_grad():
            if form == "export":
                return torch.export.export(Program(plan, len(xs)), tuple(xs))
            if form == "dynamic":  # every dim of 2 or more a symbol where the program lets it be one
                auto = torch.export.Dim.AUTO
                dims = tuple({d: auto for d in range(x.dim()) if x.shape[d] >= 2} or None for x in xs)
                return torch.export.export(Program(plan, len(xs)), tuple(xs), dynamic_shapes=(dims,))
            return gen_examples.graph_text(gen_examples.lowered_trace_graph(Program(plan, len(xs)), tuple(xs)))
    except Exception:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", required=True, help="the dtypeflow executable")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200, help="programs to try (a few are untraceable)")
    ap.add_argument("--out", help="write the programs here (default: a temporary directory)")
    ap.add_argument("--keep", action="store_true", help="keep every program, not only the failing ones")
    ap.add_argument("--form", choices=["trace", "export", "dynamic"], default="trace",
                    help="trace: IR text of torch.jit.trace; export: a .pt2 of torch.export (2.x); dynamic: "
                         "exported with every dim of 2 or more dynamic where it can be (Dim.AUTO)")
    a = ap.parse_args()
    version = ".".join(torch.__version__.split(".")[:2])
    out = a.out or tempfile.mkdtemp(prefix="program_fuzz.")
    os.makedirs(out, exist_ok=True)
    totals, sizes, failed, checked = [0, 0, 0], [0, 0], [], 0
    for k in range(a.count):
        made = program(a.seed * 1000003 + k, a.form)
        if made is None:
            continue
        path = os.path.join(out, f"p{a.seed}_{k}.{'ir' if a.form == 'trace' else 'pt2'}")
        if a.form != "trace":
            torch.export.save(made, path)
        else:
            with open(path, "w") as f:
                f.write(made)
        r = subprocess.run([a.cli, "check", "-v", "--torch", version, path], capture_output=True, text=True)
        m = re.search(r"^(\d+) correct, (\d+) unknown, (\d+) wrong", r.stdout + r.stderr, re.M)
        checked += 1
        if m:
            totals = [t + int(x) for t, x in zip(totals, m.groups())]
        if sm := re.search(r"sizes: (\d+) exact, (\d+) with a size unknown", r.stdout + r.stderr):
            sizes = [t + int(x) for t, x in zip(sizes, sm.groups())]
        if r.returncode != 0 or not m or int(m.group(3)):
            failed.append(path)
            print(f"FAILED {path} (exit {r.returncode}):\n{r.stdout[-1500:]}{r.stderr[-1500:]}", flush=True)
        elif not a.keep:
            os.remove(path)
    print(f"program_fuzz: torch {version}, {a.form}, seed {a.seed}: {checked} programs, {totals[0]} values correct, "
          f"{totals[1]} unknown, {totals[2]} wrong (sizes: {sizes[0]} exact, {sizes[1]} unknown); {len(failed)} failed")
    if not failed and not a.keep and not a.out:
        shutil.rmtree(out, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
