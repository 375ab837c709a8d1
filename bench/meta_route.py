#!/usr/bin/python3
"""The meta/fake-tensor references: time the ways a user gets dtypes by running a model.

    /usr/bin/python3 bench/meta_route.py OUT.json [MODEL ...]

For the bundled examples the modules and inputs are exactly the ones
examples/gen_examples.py traces (its make_* functions are run with the tracing
step replaced by a capture); for the torchvision zoo they are the ones
bench/gen_zoo_ir.py traces. Each route below gets its own copy of the module.
Getting the graph (tracing, converting parameters) is not timed; each timed
run is what a user repeats per query. Every route gets exact dtypes where it
runs, at the cost of a Python/dispatcher execution of every op. The routes
(eager_meta, jit_meta, fx_meta, fx_fake, eager_fake, jit_fake) are listed
below this text by --help.

Times: median of repeated runs after two warm-up runs (the first is reported
as first_ms), every run under torch.no_grad(), torch.set_num_threads(1),
Debian python3-torch 1.13. A route that raises is recorded with a short
error and no time. Writes

  {model: {"ms": eager_meta median, "runs": n, "error": null | text,
           "routes": {route: {"ms", "first_ms", "runs", "error", "what"}}}}

to OUT.json ("ms"/"runs"/"error" are the eager_meta route, as before); the
C++ benchmark reads it (dtypeflow_bench --meta=OUT.json) and prints ratios.
"""
import contextlib
import copy
import io
import json
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
sys.path.insert(0, HERE)
warnings.filterwarnings("ignore")

import torch  # noqa: E402
from torch._subclasses.fake_tensor import FakeCopyMode, FakeTensorMode  # noqa: E402
from torch.fx.passes.shape_prop import ShapeProp  # noqa: E402
import gen_examples  # noqa: E402
import gen_zoo_ir  # noqa: E402

BUNDLED = {
    "resnet18": gen_examples.make_resnet18,
    "mobilenet_v2": gen_examples.make_mobilenet_v2,
    "transformer_encoder": gen_examples.make_transformer_encoder,
    "token_embedding": gen_examples.make_token_embedding,
    "mixed_dtypes": gen_examples.make_mixed_dtypes,
}

# Bounds per route and model, so the whole run stays short.
WARMUP, MIN_RUNS, MAX_RUNS, MIN_SECONDS = 2, 3, 30, 0.3


def capture(maker):
    """Run an examples/ make_* function, returning (module, inputs, grad mode) instead of tracing."""
    got = {}
    real = gen_examples.lowered_trace_graph

    def grab(module, inputs):
        got["m"], got["x"], got["grad"] = module, inputs, torch.is_grad_enabled()
        return None

    gen_examples.lowered_trace_graph = grab
    try:
        maker()
    finally:
        gen_examples.lowered_trace_graph = real
    return got["m"], got["x"], got["grad"]


# --- routes: each takes (module copy, inputs, grad mode at trace time) and
# returns the callable to time; preparing it is not timed.

def eager_meta(m, x, grad):
    """module and inputs moved to device='meta', forward (also the model's top-level "ms")."""
    m = m.to("meta")
    xm = tuple(t.to("meta") for t in x)
    return lambda: m(*xm)


def lowered_graph(m, x, grad):
    """The graph gen_examples / gen_zoo_ir print into the .ir file, as a callable function."""
    with torch.set_grad_enabled(grad):
        g = gen_examples.lowered_trace_graph(m, x)
    return torch._C._create_function_from_graph("forward", g), list(g.inputs())


def jit_meta(m, x, grad):
    """the traced, inlined, lowered TorchScript graph (what the .ir file prints)
    run by the TorchScript interpreter on meta tensors made from its input types."""
    fn, ins = lowered_graph(m, x, grad)
    args = [torch.empty(v.type().sizes(), dtype=v.type().dtype(), device="meta") for v in ins]
    return lambda: fn(*args)


def jit_fake(m, x, grad):
    """the jit_meta graph run on FakeTensorMode tensors; an op with no meta
    kernel (aten::_convolution) falls back to the real CPU kernel on zeros."""
    fn, ins = lowered_graph(m, x, grad)
    mode = FakeTensorMode()
    args = [mode.from_tensor(torch.empty(v.type().sizes(), dtype=v.type().dtype())) for v in ins]

    def run():
        with mode:
            return fn(*args)
    return run


def fx_meta(m, x, grad):
    """torch.fx.symbolic_trace, then ShapeProp(gm).propagate on meta parameters
    and inputs (node-by-node Python interpretation)."""
    gm = torch.fx.symbolic_trace(m).to("meta")
    xm = tuple(t.to("meta") for t in x)
    return lambda: ShapeProp(gm).propagate(*xm)


def fake_module(m, x):
    mode = FakeTensorMode()
    with FakeCopyMode(mode):
        fm = copy.deepcopy(m)
    return mode, fm, tuple(mode.from_tensor(t) for t in x)


def fx_fake(m, x, grad):
    """the fx_meta ShapeProp under FakeTensorMode, parameters made fake by
    FakeCopyMode (how fx-based compilers propagate)."""
    mode, fm, xf = fake_module(m, x)
    gm = torch.fx.symbolic_trace(fm)

    def run():
        with mode:
            return ShapeProp(gm).propagate(*xf)
    return run


def eager_fake(m, x, grad):
    """forward under FakeTensorMode with fake parameters (FakeCopyMode) and inputs;
    under no_grad nn.MultiheadAttention takes its fast path, whose op has no meta
    kernel and falls back to the real CPU kernel on zeros (vit_b_16)."""
    mode, fm, xf = fake_module(m, x)

    def run():
        with mode:
            return fm(*xf)
    return run


ROUTES = [(f.__name__, f) for f in (eager_meta, jit_meta, fx_meta, fx_fake, eager_fake, jit_fake)]
WHAT = {name: " ".join(f.__doc__.split()) for name, f in ROUTES}


def short_error(e):
    """One line: the real cause (not a wrapper's text), cut to its first sentence, and where."""
    def cut(text):
        text = text.rstrip(":") + (" (no message)" if text.endswith(":") or not text else "")
        end = text.find(". ", 40)
        return text[:end + 1] if end > 0 else text[:200]

    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    if lines and lines[0].startswith("The following operation failed in the TorchScript interpreter"):
        # The cause is the last line; the first frame is the failing op's source.
        where = os.path.basename(lines[2]) if len(lines) > 2 else "?"
        return f"{cut(lines[-1] if len(lines) > 2 else '')} [TorchScript op at {where}]"
    if lines and lines[0].startswith("ShapeProp error for: node=") and e.__context__ is not None:
        return f"{short_error(e.__context__)} [in ShapeProp]"
    msg = cut(lines[0] if lines else "")
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None and "/torch/" in tb.tb_frame.f_code.co_filename:
        path = tb.tb_frame.f_code.co_filename
        msg += f" [at torch/{path.split('/torch/', 1)[1]}:{tb.tb_lineno}]"
    return f"{type(e).__name__}: {msg}"


def time_route(run):
    """(median ms, first ms, runs) of run() after WARMUP calls, under no_grad."""
    with torch.no_grad(), contextlib.redirect_stderr(io.StringIO()):  # ShapeProp prints tracebacks
        t0 = time.perf_counter()
        run()
        first = time.perf_counter() - t0
        for _ in range(WARMUP - 1):
            run()
        times = []
        start = time.perf_counter()
        while len(times) < MIN_RUNS or (time.perf_counter() - start < MIN_SECONDS and len(times) < MAX_RUNS):
            t0 = time.perf_counter()
            run()
            times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3, first * 1e3, len(times)


def measure(name):
    if name in BUNDLED:
        m, x, grad = capture(BUNDLED[name])
    else:
        (m, x), grad = gen_zoo_ir.build(name), False  # gen_zoo_ir traces under no_grad
    routes = {}
    for route, prepare in ROUTES:
        r = {"ms": None, "first_ms": None, "runs": 0, "error": None, "what": WHAT[route]}
        try:
            r["ms"], r["first_ms"], r["runs"] = time_route(prepare(copy.deepcopy(m), x, grad))
            note = f"{r['ms']:.2f} ms (median of {r['runs']}, first {r['first_ms']:.1f})"
        except Exception as e:  # noqa: BLE001 - a failing route is a result too
            r["error"] = short_error(e)
            note = f"fails: {r['error']}"
        print(f"meta_route: {name}: {route}: {note}", file=sys.stderr, flush=True)
        routes[route] = r
    eager = routes["eager_meta"]
    return {"ms": eager["ms"], "runs": eager["runs"], "error": eager["error"], "routes": routes}


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__ + "\nRoutes:\n" + "".join(f"  {n:<11} {w}\n" for n, w in WHAT.items()))
        return 0 if argv else 2
    out, names = argv[0], argv[1:] or list(BUNDLED) + gen_zoo_ir.ZOO
    torch.set_num_threads(1)
    result = {}
    for name in names:
        try:
            result[name] = measure(name)
        except Exception as e:  # noqa: BLE001 - the model itself did not build
            msg = short_error(e)
            result[name] = {"ms": None, "runs": 0, "error": msg, "routes": {}}
            print(f"meta_route: {name}: fails: {msg}", file=sys.stderr)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
