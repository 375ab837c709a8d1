#!/usr/bin/python3
"""PyTorch 2.14: dtypeflow on exported programs against the routes that run the model on fake tensors.

    scripts/torch214-root.sh build --target dtypeflow_python
    scripts/torch214-root.sh run env PYTHONPATH=build-2.14/python python3 bench/pt2_vs_fake.py [--md OUT.md] [MODEL ...]

Per model, in one run (1 thread, torch.no_grad):
  export     torch.export.export(module, args): FakeTensor propagation of every op (what a
             PyTorch 2.x user waits for to get the dtypes of an exported program)
  shapeprop  torch.fx.passes.shape_prop.ShapeProp(gm, fake_mode=FakeTensorMode()).propagate(*args)
             on the exported module (ep.module(): the graph dtypeflow reads) and on the
             symbolic_trace'd module where it traces; only propagate() is timed, not the copy of
             the module to fake tensors. FakeTensorMode keeps a dispatch cache in the class
             (FakeTensorMode.cache, shared by every instance): after the first repetition each
             op's fake result is a cache hit, a warm measurement. "cache cleared" empties it before
             each repetition (FakeTensorMode.cache_clear(), not timed): nothing kept, the
             counterpart of dtypeflow's cold pass; the kept cache is the counterpart of its warm one
  dtypeprop  libtorch's DtypePropagation (torch._C._jit_pass_propagate_dtype) on the traced,
             inlined, lowered TorchScript graph with every non-input tensor type erased;
             its % right is over the values the trace typed
  dtypeflow  the .pt2 of the export (torch.export.save, not timed) read once, then the refinement
             timed alone (cold: dtypeflow's Program.refine_count, nothing kept between calls, as
             `dtypeflow check` runs), with tensor sizes (as every command runs it since issue 35);
             read+refine adds reading the archive (zip + JSON); planned keeps the graph's
             GraphPlan between calls, warm also the evaluation memo (as in docs/performance.md's
             1.13 figures); no sizes: the cold pass with sizes=False (dtypes and ranks alone), and
             "sizes cost" = cold with sizes / cold without (issue 35: at most 2x)
Every time is the minimum over repetitions. "% right" is `dtypeflow check`'s comparison: every
value the export recorded (TensorMeta) past the inputs against the inference from the inputs
alone; unknown counts as not right.
"""
import argparse
import gc
import os
import sys
import tempfile
import time
import warnings

import torch
import torchvision

import dtypeflow
from dtypeflow import _core

warnings.filterwarnings("ignore")
torch.set_num_threads(1)


class LSTMTagger(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(1000, 64)
        self.lstm = torch.nn.LSTM(64, 128, num_layers=2, batch_first=True)
        self.out = torch.nn.Linear(128, 10)

    def forward(self, tokens):
        h, _ = self.lstm(self.emb(tokens))
        return torch.log_softmax(self.out(h), dim=-1)


class SmallTransformer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(128, 4, 256, batch_first=True)
        self.enc = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = torch.nn.Linear(128, 10)

    def forward(self, x):
        return self.head(self.enc(x).mean(dim=1))


def image(dtype=torch.float32):
    return (torch.randn(1, 3, 224, 224, dtype=dtype),)


def models():
    tv = torchvision.models
    return {
        "resnet18": lambda: (tv.resnet18(), image()),
        "mobilenet_v3_small": lambda: (tv.mobilenet_v3_small(), image()),
        "densenet121": lambda: (tv.densenet121(), image()),
        "vit_b_16": lambda: (tv.vit_b_16(), image()),
        "transformer": lambda: (SmallTransformer(), (torch.randn(2, 16, 128),)),
        "lstm": lambda: (LSTMTagger(), (torch.randint(0, 1000, (2, 12)),)),
        "resnet18_bf16": lambda: (tv.resnet18().to(torch.bfloat16), image(torch.bfloat16)),
        "mobilenet_v3_small_bf16": lambda: (tv.mobilenet_v3_small().to(torch.bfloat16), image(torch.bfloat16)),
        "transformer_bf16": lambda: (SmallTransformer().to(torch.bfloat16), (torch.randn(2, 16, 128).bfloat16(),)),
        "lstm_bf16": lambda: (LSTMTagger().to(torch.bfloat16), (torch.randint(0, 1000, (2, 12)),)),
    }


def best(fn, reps):
    # One collection before, none during: a gc.collect() between repetitions walks every object
    # torch holds and leaves the caches cold for the next (a 23 us pass then takes ~250 us).
    gc.collect()
    gc.disable()
    try:
        t = float("inf")
        out = None
        for _ in range(reps):
            t0 = time.perf_counter()
            out = fn()
            t = min(t, time.perf_counter() - t0)
        return t, out
    finally:
        gc.enable()


def time_shapeprop(gm, args, reps, clear_cache=False):
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.passes.shape_prop import ShapeProp

    def run():
        if clear_cache:
            FakeTensorMode.cache_clear()
        sp = ShapeProp(gm, fake_mode=FakeTensorMode(allow_non_fake_inputs=True))
        t0 = time.perf_counter()
        sp.propagate(*args)
        return time.perf_counter() - t0

    return min(run() for _ in range(reps))


def time_dtypeprop(m, args, reps):
    """(seconds, % of the traced tensor values it typed right) or (None, why)."""
    try:
        traced = torch.jit.trace(m, args, check_trace=False)
    except Exception as e:
        return None, f"trace: {str(e).splitlines()[0][:60]}"
    g = traced.graph.copy()
    torch._C._jit_pass_inline(g)
    lowered, _ = torch._C._jit_pass_lower_graph(g, traced._c)

    def stripped():
        """A copy with every non-input, non-constant tensor type erased; (graph, [(value, truth)])."""
        c = lowered.copy()
        truth = []
        for n in c.nodes():
            if n.kind() in ("prim::Constant", "prim::GetAttr"):
                continue
            for o in n.outputs():
                t = o.type()
                if isinstance(t, torch._C.TensorType):
                    truth.append((o, t.scalarType()))
                    o.setType(torch._C.TensorType.get())
        return c, truth

    copies = [stripped() for _ in range(reps)]
    t = float("inf")
    for c, _ in copies:
        t0 = time.perf_counter()
        try:
            torch._C._jit_pass_propagate_dtype(c)
        except Exception as e:
            return None, f"raises: {str(e).splitlines()[0][:60]}"
        t = min(t, time.perf_counter() - t0)
    _, truth = copies[0]
    right = sum(1 for o, want in truth if want is not None and o.type().scalarType() == want)
    return t, 100.0 * right / max(1, len(truth))


def run_model(name, make, reps_export, reps_refine):
    torch.manual_seed(0)
    m, args = make()
    m = m.eval()
    row = {"model": name}
    with torch.no_grad():
        row["export_s"], ep = best(lambda: torch.export.export(m, args), reps_export)
        # The exported module: the very graph dtypeflow reads. symbolic_trace's graph as well where
        # it traces (it keeps fused modules such as TransformerEncoderLayer's fast path whole).
        row["shapeprop_s"] = time_shapeprop(ep.module(), args, reps_export)
        row["shapeprop_cleared_s"] = time_shapeprop(ep.module(), args, reps_export, clear_cache=True)
        try:
            row["shapeprop_fx_s"] = time_shapeprop(torch.fx.symbolic_trace(m), args, reps_export)
        except Exception:
            row["shapeprop_fx_s"] = None
        row["dtypeprop_s"], row["dtypeprop_right"] = time_dtypeprop(m, args, reps_export)
    with tempfile.TemporaryDirectory(prefix="dtf-bench-") as d:
        path = os.path.join(d, name + ".pt2")
        torch.export.save(ep, path)
        row["read_refine_s"], prog = best(lambda: _core.Program.read(path, "2.14"), reps_refine)
        row["refine_s"], _ = best(lambda: prog.refine_count(check=True), reps_refine)
        row["nosizes_s"], _ = best(lambda: prog.refine_count(check=True, sizes=False), reps_refine)
        row["read_refine_s"] += row["refine_s"]
        row["planned_s"], _ = best(lambda: prog.refine_count(check=True, planned=True), reps_refine)
        prog.refine_count(check=True, warm=True)  # the warm-up call fills the memo
        row["warm_s"], _ = best(lambda: prog.refine_count(check=True, warm=True), reps_refine)
    a = dtypeflow.annotate(prog, check=True)
    c = a.counts
    row.update(nodes=prog.node_count, correct=c["correct"], unknown=c["unknown"], wrong=c["wrong"],
               right=100.0 * c["correct"] / max(1, c["correct"] + c["unknown"] + c["wrong"]))
    return row


def fmt_ratio(x):
    return f"{x:,.0f}x" if x >= 10 else f"{x:.1f}x"


def table(rows):
    head = ("| model | nodes | export | ShapeProp (fake), exported gm | ShapeProp (fake), symbolic_trace "
            "| DtypePropagation (its % right) | dtypeflow cold, with sizes | no sizes | sizes cost "
            "| read+cold | planned | warm "
            "| export / cold | ShapeProp / cold (with sizes) | ShapeProp fx / cold | DtypeProp / cold "
            "| export / planned | ShapeProp / planned "
            "| ShapeProp, cache cleared | its / cold (nothing kept on either side) "
            "| ShapeProp / warm (caches kept on both) | dtypeflow check: right % (right / unknown / wrong) |")
    lines = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for r in rows:
        dp = (f"{r['dtypeprop_s'] * 1e3:.2f} ms ({r['dtypeprop_right']:.0f} %)" if r["dtypeprop_s"] is not None
              else f"n/a ({r['dtypeprop_right']})")
        dpr = fmt_ratio(r["dtypeprop_s"] / r["refine_s"]) if r["dtypeprop_s"] is not None else "n/a"
        fx = f"{r['shapeprop_fx_s'] * 1e3:.1f} ms" if r["shapeprop_fx_s"] is not None else "does not trace"
        fxr = fmt_ratio(r["shapeprop_fx_s"] / r["refine_s"]) if r["shapeprop_fx_s"] is not None else "-"
        lines.append(
            f"| {r['model']} | {r['nodes']} | {r['export_s']:.3f} s | {r['shapeprop_s'] * 1e3:.1f} ms "
            f"| {fx} | {dp} "
            f"| {r['refine_s'] * 1e6:.0f} us | {r['nosizes_s'] * 1e6:.0f} us | {r['refine_s'] / r['nosizes_s']:.2f}x "
            f"| {r['read_refine_s'] * 1e3:.2f} ms "
            f"| {r['planned_s'] * 1e6:.0f} us | {r['warm_s'] * 1e6:.0f} us "
            f"| {fmt_ratio(r['export_s'] / r['refine_s'])} | {fmt_ratio(r['shapeprop_s'] / r['refine_s'])} "
            f"| {fxr} | {dpr} "
            f"| {fmt_ratio(r['export_s'] / r['planned_s'])} | {fmt_ratio(r['shapeprop_s'] / r['planned_s'])} "
            f"| {r['shapeprop_cleared_s'] * 1e3:.1f} ms | {fmt_ratio(r['shapeprop_cleared_s'] / r['refine_s'])} "
            f"| {fmt_ratio(r['shapeprop_s'] / r['warm_s'])} "
            f"| {r['right']:.1f} % ({r['correct']} / {r['unknown']} / {r['wrong']}) |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*", help="subset of: " + ", ".join(models()))
    ap.add_argument("--md", help="also write the table here")
    ap.add_argument("--reps", type=int, default=3, help="repetitions of the torch routes (default 3)")
    ap.add_argument("--refine-reps", type=int, default=30, help="repetitions of dtypeflow (default 30)")
    opts = ap.parse_args()
    known = models()
    names = opts.models or list(known)
    for n in names:
        if n not in known:
            ap.error(f"unknown model {n}")
    rows = []
    for n in names:
        r = run_model(n, known[n], opts.reps, opts.refine_reps)
        print(f"{n}: export {r['export_s']:.3f} s, shapeprop {r['shapeprop_s']:.3f} s "
              f"(cache cleared {r['shapeprop_cleared_s']:.3f} s), "
              f"dtypeflow {r['refine_s'] * 1e6:.0f} us (no sizes {r['nosizes_s'] * 1e6:.0f} us, "
              f"planned {r['planned_s'] * 1e6:.0f} us), "
              f"{r['right']:.1f} % right", file=sys.stderr, flush=True)
        rows.append(r)
    text = table(rows)
    print(text)
    if opts.md:
        with open(opts.md, "w") as f:
            f.write(f"torch {torch.__version__}, torchvision {torchvision.__version__}\n\n{text}\n")


if __name__ == "__main__":
    main()
