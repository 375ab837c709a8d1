#!/usr/bin/python3
"""Trace more torchvision models into TorchScript IR for the benchmarks.

    /usr/bin/python3 bench/gen_zoo_ir.py OUT_DIR [MODEL ...]

Writes OUT_DIR/<model>.ir for each model (default: ZOO below), exactly the way
examples/gen_examples.py makes the bundled examples (torch.jit.trace ->
_jit_pass_inline -> _jit_pass_lower_graph, printed without scopes/source
comments), then checks that torch._C.parse_ir re-parses it. A model that fails
to trace or to re-parse is reported and skipped. Existing files are kept
(delete OUT_DIR to regenerate). The output is build output, never committed.
Needs Debian's python3-torch 1.13 / python3-torchvision 0.14 (no network:
weights=None).
"""
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
warnings.filterwarnings("ignore")

import torch  # noqa: E402
import gen_examples  # noqa: E402  (helpers shared with the bundled examples)

ZOO = ["densenet121", "efficientnet_b0", "shufflenet_v2_x0_5", "vit_b_16", "swin_t",
       "googlenet", "mnasnet0_5", "regnet_x_400mf", "squeezenet1_0", "convnext_tiny"]


def build(name):
    """(module, example inputs) of a torchvision model, as traced."""
    import torchvision
    kw = {"weights": None}
    if name in ("googlenet", "inception_v3"):
        kw.update(aux_logits=False, init_weights=False)
    torch.manual_seed(0)
    m = getattr(torchvision.models, name)(**kw).eval()
    return m, (torch.randn(1, 3, 224, 224),)


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    out_dir, names = argv[0], argv[1:] or ZOO
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        path = os.path.join(out_dir, name + ".ir")
        if os.path.exists(path):
            continue
        try:
            m, inputs = build(name)
            with torch.no_grad():
                g = gen_examples.lowered_trace_graph(m, inputs)
            text = gen_examples.graph_text(g)
            torch._C.parse_ir(text, parse_tensor_constants=True)
        except Exception as e:  # noqa: BLE001 - report and go on
            print(f"gen_zoo_ir: {name}: skipped: {type(e).__name__}: {str(e).splitlines()[0][:200]}",
                  file=sys.stderr)
            continue
        with open(path, "w") as f:
            f.write(text)
        print(f"gen_zoo_ir: {name}: {sum(1 for _ in g.nodes())} nodes -> {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
