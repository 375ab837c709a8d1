#!/usr/bin/python3
"""Regenerate the example TorchScript IR files bundled with dtypeflow.

What it makes (all written next to this script, in examples/):

  resnet18.ir             torchvision resnet18 (weights=None, eval), traced on
                          Float[1,3,224,224]
  resnet18_autocast_bf16.ir  the same, traced under
                          torch.autocast("cpu", dtype=torch.bfloat16)
  mobilenet_v2.ir         torchvision mobilenet_v2 (weights=None, eval), traced
                          on Float[1,3,224,224]
  transformer_encoder.ir  nn.TransformerEncoder (d_model=16, nhead=2, 1 layer,
                          batch_first=True), traced on Float[2,5,16] plus a
                          Bool[2,5] src_key_padding_mask
  token_embedding.ir      Embedding(100,16) -> masked mean -> Linear(16,4) ->
                          softmax / argmax, traced on Long[2,7] token ids
  mixed_dtypes.ir         small traced model mixing float64 / float16 /
                          bfloat16 / int32 / int64 / bool, 0-dim tensors and
                          python scalars (type-promotion corner cases)
  control_flow.ir         torch.jit.script'ed function with prim::If and
                          prim::Loop (inlined); values are typed only as
                          `Tensor`, `int`, `bool`, ... (no dtypes)
  ops_used.txt            sorted distinct op kinds over all the graphs above
                          (`aten::name.overload` from node.schema(), `prim::X`)

How the traced files are produced:
  torch.jit.trace -> torch._C._jit_pass_inline -> torch._C._jit_pass_lower_graph
  (module parameters/buffers become trailing graph inputs, `self` disappears),
  then printed with graph.str(print_source_ranges=False), with the
  ", scope: ..." suffixes removed (torch._C.parse_ir cannot parse them) and any
  remaining "# /path/file.py:line:col" comments removed (they hold absolute
  paths; scripted graphs print them even with print_source_ranges=False). Every value of a traced graph carries a full type,
  e.g. `Float(1, 3, 224, 224, strides=[150528, 50176, 224, 1],
  requires_grad=0, device=cpu)`.

Every file is checked to re-parse with
torch._C.parse_ir(text, parse_tensor_constants=True), with the same node kinds,
types and wiring. The flag is needed only for 0-dim tensor constants printed as
`prim::Constant[value={3}]`. Other things parse_ir rejects, which the models
avoid: `prim::Constant[value=-inf]`, and a prim::If / prim::Loop with no outputs
(printed as ` = prim::Loop(...)`).
Multi-element tensor constants (printed as `value=<Tensor>` or as a
multi-line tensor dump) cannot be re-parsed, so the example models avoid
them, and the script fails if one appears.

How to run (from the repository root; needs Debian's python3-torch 1.13 and
python3-torchvision 0.14, no network):

    /usr/bin/python3 examples/gen_examples.py

Output is deterministic for a given torch/torchvision version: seeds are
fixed, no source paths are written, and only the graph structure and types
(never weight values) go into the files.
"""

import os
import re
import sys
import warnings
from typing import List, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor

OUT_DIR = os.path.dirname(os.path.abspath(__file__))

warnings.filterwarnings("ignore")  # TracerWarnings about constants etc.


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

_SCOPE_RE = re.compile(r", scope: [^\n]*")
# Scripted graphs still print "# /path/file.py:line:col" comments.
_SRC_RE = re.compile(r" # [^\n]*:\d+:\d+$", re.M)


def graph_text(graph: torch._C.Graph) -> str:
    text = graph.str(False)  # print_source_ranges=False
    text = _SCOPE_RE.sub("", text)
    text = _SRC_RE.sub("", text)
    if not text.endswith("\n"):
        text += "\n"
    return text


def lowered_trace_graph(module: nn.Module, inputs: Tuple[Tensor, ...]) -> torch._C.Graph:
    traced = torch.jit.trace(module, inputs, check_trace=False)
    g = traced.graph.copy()
    torch._C._jit_pass_inline(g)
    lowered, params = torch._C._jit_pass_lower_graph(g, traced._c)
    # The lowered parameters become the trailing graph inputs, but with
    # numeric names (%374). Give them their qualified attribute names
    # (%layer1.0.conv1.weight) so the IR is readable.
    by_ptr = {}
    for name, t in list(traced.named_parameters()) + list(traced.named_buffers()):
        by_ptr.setdefault((t.data_ptr(), tuple(t.shape), t.dtype), name)
    graph_inputs = list(lowered.inputs())
    n_user = len(graph_inputs) - len(params)
    for value, t in zip(graph_inputs[n_user:], params):
        name = by_ptr.get((t.data_ptr(), tuple(t.shape), t.dtype))
        if name is not None:
            value.setDebugName(name)
    return lowered


def all_nodes(block):
    for n in block.nodes():
        yield n
        for b in n.blocks():
            yield from all_nodes(b)


def structure(graph: torch._C.Graph):
    """Kinds, arities, types and input indices of all nodes, for comparison."""
    index = {}
    for i, v in enumerate(graph.inputs()):
        index[v.unique()] = ("in", i)
    sig = [tuple(str(v.type()) for v in graph.inputs())]

    def walk(block, path):
        for j, v in enumerate(block.inputs()):
            index.setdefault(v.unique(), (path, "bin", j))
        for k, n in enumerate(block.nodes()):
            for j, v in enumerate(n.outputs()):
                index[v.unique()] = (path, k, j)
            sig.append((n.kind(), tuple(index[v.unique()] for v in n.inputs()),
                        tuple(str(v.type()) for v in n.outputs()),
                        tuple(sorted(n.attributeNames()))))
            for b_i, b in enumerate(n.blocks()):
                walk(b, path + (k, b_i))
        sig.append(("return", tuple(index[v.unique()] for v in block.outputs())))

    walk(graph, ())
    return sig


def op_names(graph: torch._C.Graph) -> List[str]:
    names = []
    for n in all_nodes(graph):
        kind = n.kind()
        name = kind
        if not kind.startswith("prim::"):
            try:
                schema = n.schema()
            except Exception:
                schema = "(no schema)"
            if schema != "(no schema)":
                name = schema.split("(", 1)[0]  # e.g. aten::add.Tensor
        names.append(name)
    return names


def write_graph(filename: str, graph: torch._C.Graph, summary: list, all_ops: set):
    text = graph_text(graph)
    bad = [l for l in text.splitlines()
           if "prim::Constant[value=<Tensor>]" in l or "Type{" in l]
    if bad:
        sys.exit(f"{filename}: multi-element tensor constant(s), not re-parsable:\n"
                 + "\n".join(bad[:5]))
    # Round-trip check.
    reparsed = torch._C.parse_ir(text, True)
    n_orig = sum(1 for _ in all_nodes(graph))
    n_re = sum(1 for _ in all_nodes(reparsed))
    if n_orig != n_re:
        sys.exit(f"{filename}: node count changed on re-parse ({n_orig} -> {n_re})")
    # The re-parsed graph must have the same structure and types. (Its text
    # differs: parse_ir renumbers numeric names and drops the debug names
    # of most node outputs, e.g. %input.3 becomes %119.)
    if structure(reparsed) != structure(graph):
        sys.exit(f"{filename}: parse_ir(text) differs structurally from the graph")
    path = os.path.join(OUT_DIR, filename)
    with open(path, "w") as f:
        f.write(text)
    ops = op_names(graph)
    all_ops.update(ops)
    summary.append((filename, len(text), n_orig, len(set(ops))))


# --------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------

def make_resnet18():
    import torchvision
    m = torchvision.models.resnet18(weights=None).eval()
    with torch.no_grad():
        return lowered_trace_graph(m, (torch.randn(1, 3, 224, 224),))


def make_resnet18_autocast_bf16():
    # Mixed precision as torch.autocast runs it on CPU: convolutions and the
    # linear layer in bfloat16 (autocast's casts are recorded as
    # aten::_autocast_to_reduced_precision of their float32 inputs), batch
    # norm keeping its input's dtype; the picture of `dtypeflow audit` in docs/.
    import torchvision
    m = torchvision.models.resnet18(weights=None).eval()
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        return lowered_trace_graph(m, (torch.randn(1, 3, 224, 224),))


def make_mobilenet_v2():
    import torchvision
    m = torchvision.models.mobilenet_v2(weights=None).eval()
    with torch.no_grad():
        return lowered_trace_graph(m, (torch.randn(1, 3, 224, 224),))


def make_transformer_encoder():
    layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32,
                                       dropout=0.0, batch_first=True)
    enc = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
    enc.eval()

    class Wrap(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = enc

        def forward(self, src: Tensor, pad_mask: Tensor) -> Tensor:
            # Bool mask -> additive float mask here, with a finite fill value:
            # a bool mask makes MultiheadAttention emit masked_fill_(-inf),
            # and torch._C.parse_ir cannot parse `prim::Constant[value=-inf]`.
            add_mask = torch.zeros_like(pad_mask, dtype=src.dtype).masked_fill(pad_mask, -1e9)
            return self.enc(src, src_key_padding_mask=add_mask)

    src = torch.randn(2, 5, 16)
    pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
    # Traced with grad enabled so the fused fast path
    # (aten::_transformer_encoder_layer_fwd) is not taken and the graph shows
    # the decomposed attention (linear, bmm/baddbmm, softmax, layer_norm...).
    return lowered_trace_graph(Wrap(), (src, pad))


class TokenEmbedding(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 16, padding_idx=0)
        self.fc = nn.Linear(16, 4)

    def forward(self, ids: Tensor):
        e = self.emb(ids)                           # Float[2,7,16]
        keep = (ids != 0)                           # Bool[2,7]
        w = keep.unsqueeze(-1).to(e.dtype)          # Float[2,7,1]
        n = keep.sum(dim=1, keepdim=True)           # Long[2,1]
        pooled = (e * w).sum(dim=1) / n.clamp(min=1)  # Float / Long -> Float
        plain_mean = e.mean(dim=1)                  # Float[2,16]
        logits = self.fc(pooled + plain_mean)       # Float[2,4]
        probs = F.softmax(logits, dim=-1)
        logp = F.log_softmax(logits, dim=-1)
        pred = logits.argmax(dim=-1)                # Long[2]
        top_v, top_i = probs.topk(2, dim=-1)        # Float, Long
        hit = pred == ids[:, 0].remainder(4)        # Bool[2]
        n_tok = ids.size(1)                         # int (traced: aten::size)
        avg_len = n.squeeze(1).float() / n_tok      # Float
        return probs, logp, pred, top_i, hit, avg_len, top_v


class MixedDtypes(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin64 = nn.Linear(3, 3).double()
        self.register_buffer("bias_bf16", torch.zeros(3, dtype=torch.bfloat16))
        self.register_buffer("scale_i32", torch.ones(3, dtype=torch.int32))

    def forward(self, x, d, ids, i32, mask, s0_f64, s0_i64, bf, h):
        # x: Float[2,3]  d: Double[2,3]  ids: Long[2,3]  i32: Int[2,3]
        # mask: Bool[2,3]  s0_f64: Double[] (0-dim)  s0_i64: Long[] (0-dim)
        # bf: BFloat16[2,3]  h: Half[2,3]
        r = {}
        # --- promotion between dimensioned tensors
        r["f32+f64"] = x + d                      # Double
        r["i64+i32"] = ids + i32                  # Long
        r["bf16*f32"] = bf * x                    # Float
        r["bf16+f16"] = bf + h                    # Float (bf16 & f16 -> f32)
        r["bool+bool"] = mask + mask              # Bool
        r["bool*i32"] = mask * i32                # Int
        # --- 0-dim tensors (lower priority within a category)
        r["f32*0d_f64"] = x * s0_f64              # Float (same category)
        r["i32+0d_i64"] = i32 + s0_i64            # Int
        r["i64+0d_f64"] = ids + s0_f64            # Double (higher category)
        r["bf16*0d_f64"] = bf * s0_f64            # BFloat16
        r["0d+0d"] = s0_f64 + s0_i64              # Double (0-dim)
        c0 = torch.tensor(2.0, dtype=torch.float64)  # 0-dim tensor constant
        r["i32*0dconst"] = i32 * c0               # Double
        # --- python scalars (lowest priority)
        r["i64*2.5"] = ids * 2.5                  # Float (default dtype)
        r["i32+3"] = i32 + 3                      # Int
        r["bf16+1.0"] = bf + 1.0                  # BFloat16
        r["h*2"] = h * 2                          # Half
        r["bool+1"] = mask + 1                    # Long
        r["bool*1.5"] = mask * 1.5                # Float
        r["rsub"] = 1 - x                         # Float (aten::rsub)
        # --- true division / floor division / pow / unary float ops
        r["i32/2"] = i32 / 2                      # Float
        r["i64/i32"] = ids / i32                  # Float
        r["i64//2"] = ids // 2                    # Long
        r["i32.pow(0.5)"] = i32 ** 0.5            # Float
        r["i32.pow(2)"] = i32 ** 2                # Int
        r["sqrt(i64)"] = torch.sqrt(ids)          # Float
        r["exp(bf16)"] = torch.exp(bf)            # BFloat16
        r["abs(i32)"] = torch.abs(i32)            # Int
        r["neg(i64)"] = -ids                      # Long
        # --- comparisons and logic
        gt = x > 0.5                              # Bool
        eq = ids == i32                           # Bool
        r["logic"] = (gt & mask) | ~eq            # Bool
        r["logical_and"] = torch.logical_and(gt, ids)  # Bool
        r["isnan"] = torch.isnan(d)               # Bool
        # --- where / masked_fill
        r["where(f32,f64)"] = torch.where(mask, x, d)   # Double
        r["where(i32,scalar)"] = torch.where(mask, i32, 0)  # Int (1.13: scalar
        # other promotes like a 0-dim tensor)
        r["masked_fill"] = x.masked_fill(mask, -1.0)     # Float
        r["masked_fill_i"] = ids.masked_fill(~mask, 7)   # Long
        # --- reductions
        r["sum(bool)"] = mask.sum()               # Long (0-dim)
        r["sum(i32)"] = i32.sum(dim=1)            # Long
        r["sum(f32,dtype=f64)"] = x.sum(dim=0, dtype=torch.float64)  # Double
        r["prod(i32)"] = i32.prod()               # Long
        r["cumsum(i32)"] = i32.cumsum(dim=1)      # Long
        r["mean(bf16)"] = bf.mean()               # BFloat16
        r["max(f64)"] = d.max()                   # Double
        mx_v, mx_i = d.max(dim=1)                 # Double, Long
        r["max.dim"] = mx_v
        r["max.dim.i"] = mx_i
        r["argmin"] = x.argmin(dim=0)             # Long
        r["any"] = mask.any()                     # Bool
        # --- casts
        r["to(f16)"] = x.to(torch.float16)        # Half
        r["half()"] = d.half()                    # Half
        r["to(i32)"] = ids.to(torch.int32)        # Int
        r["to(other)"] = x.to(d)                  # Double
        r["type_as"] = i32.type_as(bf)            # BFloat16
        r["double()"] = bf.double()               # Double
        r["long()"] = mask.long()                 # Long
        r["bool()"] = i32.bool()                  # Bool
        # --- factories
        ar = torch.arange(3)                      # Long
        r["arange+f32"] = x + ar                  # Float
        r["zeros_i32"] = torch.zeros(2, 3, dtype=torch.int32) + i32  # Int
        r["ones_like_f64"] = torch.ones_like(x, dtype=torch.float64)  # Double
        r["full"] = torch.full((2, 3), 1.5) * ids  # Float
        r["zeros_like"] = torch.zeros_like(ids)   # Long
        # --- ops mixing params of different dtypes
        r["lin64"] = self.lin64(d)                # Double
        r["bias_bf16"] = bf + self.bias_bf16      # BFloat16
        r["scale_i32"] = ids * self.scale_i32     # Long
        r["bf16@bf16"] = bf @ bf.t()              # BFloat16
        r["cat(f32,f64)"] = torch.cat([x, d], 0)  # Double
        r["stack(i32,i64)"] = torch.stack([i32, ids], 0)  # Long
        r["clamp(i32)"] = i32.clamp(0, 5)         # Int
        r["clamp(i32, 0.5)"] = i32.clamp(min=0.5) # Float
        # --- sizes as ints
        n = x.size(0) * x.size(1)                 # int
        r["flat"] = x.reshape(n)                  # Float[6]
        r["x*size"] = x * x.size(1)               # Float
        return tuple(r.values())


def make_token_embedding():
    torch.manual_seed(0)
    ids = torch.randint(0, 100, (2, 7))
    ids[1, 5:] = 0
    return lowered_trace_graph(TokenEmbedding().eval(), (ids,))


def make_mixed_dtypes():
    torch.manual_seed(0)
    x = torch.randn(2, 3)
    d = torch.randn(2, 3, dtype=torch.float64)
    ids = torch.randint(1, 10, (2, 3))
    i32 = torch.randint(1, 10, (2, 3), dtype=torch.int32)
    mask = torch.tensor([[True, False, True], [False, True, False]])
    s0_f64 = torch.tensor(0.5, dtype=torch.float64)
    s0_i64 = torch.tensor(3)
    bf = torch.randn(2, 3).to(torch.bfloat16)
    h = torch.randn(2, 3).to(torch.float16)
    with torch.no_grad():
        return lowered_trace_graph(MixedDtypes().eval(),
                                   (x, d, ids, i32, mask, s0_f64, s0_i64, bf, h))


# --- scripted control flow -------------------------------------------------

@torch.jit.script
def _scale(t: Tensor, k: int) -> Tensor:
    return t * k


@torch.jit.script
def control_flow(x: Tensor, ids: Tensor, n: int,
                 flag: bool) -> Tuple[Tensor, Tensor, Tensor, Tensor, List[Tensor], int]:
    # for-loop (prim::Loop with trip count) accumulating into a loop-carried
    # tensor; dtype is the same on entry and in the body.
    acc = torch.zeros_like(x)
    for i in range(n):
        acc = acc + _scale(x, i)
    # if whose branches agree on the dtype
    if flag:
        same = acc + 1.0
    else:
        same = acc - x
    # if whose branches disagree (Double vs. x's dtype) -> join is unknown
    if flag:
        differ = x.double()
    else:
        differ = x
    # while-loop (prim::Loop with a condition) over an int tensor
    count = ids.sum()
    k = 0
    while k < n and bool(count > 0):
        count = count - 1
        k += 1
    # loop-carried value whose dtype changes inside the body
    y = ids
    for _ in range(2):
        y = y * 0.5
    # list built in a loop. NB: a prim::Loop / prim::If with no outputs is
    # printed as ` = prim::Loop(...)`, which parse_ir rejects, so the loop
    # carries `total` and the if yields `t` instead of appending in branches.
    outs: List[Tensor] = []
    total = 0
    for j in range(3):
        if j % 2 == 0:
            t = x[j:]
        else:
            t = ids.float()
        outs.append(t)
        total += j
    return same, differ, count, y, outs, total


def make_control_flow():
    g = control_flow.graph.copy()
    torch._C._jit_pass_inline(g)
    # Inlining leaves the now-dead `%f : Function = prim::Constant[name="_scale"]()`,
    # which parse_ir cannot parse ("unknown type specifier"); DCE removes it.
    torch._C._jit_pass_dce(g)
    return g


# --------------------------------------------------------------------------

def main():
    torch.manual_seed(0)
    torch.set_default_dtype(torch.float32)
    summary, all_ops = [], set()
    for fname, maker in [
        ("resnet18.ir", make_resnet18),
        ("resnet18_autocast_bf16.ir", make_resnet18_autocast_bf16),
        ("mobilenet_v2.ir", make_mobilenet_v2),
        ("transformer_encoder.ir", make_transformer_encoder),
        ("token_embedding.ir", make_token_embedding),
        ("mixed_dtypes.ir", make_mixed_dtypes),
        ("control_flow.ir", make_control_flow),
    ]:
        write_graph(fname, maker(), summary, all_ops)
    with open(os.path.join(OUT_DIR, "ops_used.txt"), "w") as f:
        for op in sorted(all_ops):
            f.write(op + "\n")
    print(f"torch {torch.__version__}")
    for fname, size, nodes, nops in summary:
        print(f"{fname:24s} {size:8d} bytes {nodes:5d} nodes {nops:3d} distinct ops")
    print(f"ops_used.txt             {len(all_ops)} distinct ops")


if __name__ == "__main__":
    main()
