#!/usr/bin/python3
"""The meta-tensor reference: time each benchmark model's forward on device='meta'.

    /usr/bin/python3 bench/meta_route.py OUT.json [MODEL ...]

For the bundled examples the modules and inputs are exactly the ones
examples/gen_examples.py traces (its make_* functions are run with the tracing
step replaced by a capture); for the torchvision zoo they are the ones
bench/gen_zoo_ir.py traces. Each module and its inputs are moved to 'meta'
and run under no_grad: the output dtypes are then exact (the ops run), but the
cost is a full Python/dispatcher execution. The time is the median of
repeated forwards after a warm-up. Writes {model: {"ms": median, "runs": n,
"error": null | text}} to OUT.json; the C++ benchmark reads it
(dtypeflow_bench --meta=OUT.json) and prints the ratios.
"""
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
import gen_examples  # noqa: E402
import gen_zoo_ir  # noqa: E402

BUNDLED = {
    "resnet18": gen_examples.make_resnet18,
    "mobilenet_v2": gen_examples.make_mobilenet_v2,
    "transformer_encoder": gen_examples.make_transformer_encoder,
    "token_embedding": gen_examples.make_token_embedding,
    "mixed_dtypes": gen_examples.make_mixed_dtypes,
}


def capture(maker):
    """Run an examples/ make_* function, returning (module, inputs) instead of tracing."""
    got = {}
    real = gen_examples.lowered_trace_graph

    def grab(module, inputs):
        got["m"], got["x"] = module, inputs
        return None

    gen_examples.lowered_trace_graph = grab
    try:
        maker()
    finally:
        gen_examples.lowered_trace_graph = real
    return got["m"], got["x"]


def time_meta(module, inputs, min_seconds=0.5, max_runs=50):
    m = module.to("meta")
    x = tuple(t.to("meta") for t in inputs)
    with torch.no_grad():
        m(*x)  # warm-up (also surfaces a missing meta kernel)
        times = []
        start = time.perf_counter()
        while len(times) < 3 or (time.perf_counter() - start < min_seconds and len(times) < max_runs):
            t0 = time.perf_counter()
            m(*x)
            times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3, len(times)


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    out, names = argv[0], argv[1:] or list(BUNDLED) + gen_zoo_ir.ZOO
    torch.set_num_threads(1)
    result = {}
    for name in names:
        try:
            m, x = capture(BUNDLED[name]) if name in BUNDLED else gen_zoo_ir.build(name)
            ms, runs = time_meta(m, x)
            result[name] = {"ms": ms, "runs": runs, "error": None}
            print(f"meta_route: {name}: {ms:.2f} ms (median of {runs})", file=sys.stderr)
        except Exception as e:  # noqa: BLE001 - a failing route is a result too
            msg = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
            result[name] = {"ms": None, "runs": 0, "error": msg}
            print(f"meta_route: {name}: fails: {msg}", file=sys.stderr)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
