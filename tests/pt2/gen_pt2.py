#!/usr/bin/env python3
"""Make the torch.export archives (.pt2) the .pt2 reader is tested on.

Runs with torch 2.14 (Debian sid's python3-torch 2.14.1, torchvision 0.27),
for example in the sid root the project keeps:

    mountpoint -q /var/cache/dtypeflow/sid-torch2.14/work || \
        mount --bind /work /var/cache/dtypeflow/sid-torch2.14/work
    chroot /var/cache/dtypeflow/sid-torch2.14 python3 \
        /work/<checkout>/tests/pt2/gen_pt2.py --small /work/<checkout>/tests/pt2/archives
    chroot /var/cache/dtypeflow/sid-torch2.14 python3 \
        /work/<checkout>/tests/pt2/gen_pt2.py --big /work/<checkout>/build/pt2-models

--dynamic DIR writes models exported with a dynamic batch (and sequence
length), checked by the pt2.dynamic test (build/pt2-dynamic).

--small writes tiny modules (committed under tests/pt2/archives, a few KB
each); --big writes torchvision models (tens of MB, never committed; the
tests that use them skip when the directory is absent). Weights are random
(torch.manual_seed), so the archives are reproducible up to torch's own
metadata (stack traces name this file).
"""
import argparse
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

torch.manual_seed(0)


# --- small modules ---------------------------------------------------------

class Bf16Mlp(nn.Module):
    """Linear layers, activations and a softmax, all in bfloat16."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        h = F.gelu(self.fc1(x))
        h = F.layer_norm(h, (16,))
        y = self.fc2(h)
        return F.softmax(y, dim=-1), y.float().mean()


class F16Conv(nn.Module):
    """A float16 conv block: conv, batch norm (eval), relu, pooling, flatten, linear."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        y = F.relu(self.bn(self.conv(x)))
        y = F.adaptive_avg_pool2d(F.max_pool2d(y, 2), 1).flatten(1)
        return self.fc(y)


class MixedIntFloat(nn.Module):
    """Integer and float tensors mixed: promotion, Python scalars, division,
    comparisons, where, casts, integer reductions, indexing."""

    def forward(self, ids, x, mask):
        a = ids * 2 + 1                      # int64 with Python ints
        b = x * 0.5 - ids                    # float32 with int64
        c = ids / 3                          # true division: float32
        d = ids // 2                         # floor division: int64
        e = torch.where(mask, x, 0.0)        # bool condition, Python float
        f = (x > 0.25) & mask                # comparison, logical
        g = ids.to(torch.int32) + ids.to(torch.int16)
        h = ids.sum(dim=0) + ids.float().mean()
        i = x[ids % 4]                       # advanced indexing
        j = torch.cat([x, ids.to(x.dtype)], dim=0)
        k, idx = torch.topk(x, 2)
        parts = torch.split(x, 2)
        return a, b, c, d, e, f, g, h, i, j, k, idx, parts[0] + parts[1], x.double() * 2


class BuffersConstants(nn.Module):
    """Parameters, buffers (float16, int64, bool) and tensor constants."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4, 4))
        self.register_buffer("scale", torch.full((4,), 0.5, dtype=torch.float16))
        self.register_buffer("counts", torch.arange(4))
        self.register_buffer("keep", torch.tensor([True, False, True, True]), persistent=False)
        self.offset = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)
        self.table = torch.tensor([3, 1, 2], dtype=torch.int8)

    def forward(self, x):
        y = x @ self.weight * self.scale         # float32 * float16
        z = y + self.offset                      # float32 + float64
        w = torch.where(self.keep, z, self.counts)
        return w, self.table[1:] * 2, self.counts + self.table.sum()


class CondModule(nn.Module):
    """torch.cond with branches of the same types; the predicate is a tensor."""

    def forward(self, x, n):
        def true_fn(x, n):
            return (x * 2).to(torch.float16), n + 1

        def false_fn(x, n):
            return (x - 1).half(), n * 2

        y, m = torch.cond(x.sum() > 0, true_fn, false_fn, (x, n))
        return y + 1, m


class DynamicShapes(nn.Module):
    """Exported with a dynamic batch dim: symbolic sizes, sym_size, views."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 3)

    def forward(self, x, ids):
        b = x.shape[0]
        y = self.fc(x).view(b, 3, 1)
        z = y.expand(b, 3, 2).reshape(b, 6)
        return z + ids.unsqueeze(1), z.new_zeros(b, dtype=torch.int32)


class WhileLoop(nn.Module):
    """torch._higher_order_ops.while_loop: a counter and a float accumulator."""

    def forward(self, x):
        from torch._higher_order_ops.while_loop import while_loop

        def cond_fn(i, acc):
            return i < 3

        def body_fn(i, acc):
            return i + 1, acc * 2.0

        i, acc = while_loop(cond_fn, body_fn, (torch.tensor(0), x))
        return i, acc


class MapModule(nn.Module):
    """torch._higher_order_ops.map over the leading dim."""

    def forward(self, xs, y):
        from torch._higher_order_ops.map import map as hop_map

        def body(x, y):
            return (x + y).to(torch.bfloat16)

        return hop_map(body, xs, y)


class ThresholdBackwardMixed(torch.nn.Module):
    """An int64 grad with a float32 self: float32 on eager CPU, int64 on the
    meta kernels that torch.export runs (what the archive records)."""

    def forward(self, grad, x):
        return torch.ops.aten.threshold_backward.default(grad, x, 0.5)


class FakeReferences(nn.Module):
    """Ops FakeTensor runs as torch's Python references, whose dtypes are not the CPU kernel's
    (what torch.export records): a bool tensor to a bool power is int64 there (bool on the
    CPU); huber and soft-margin losses of a float32 self and a float64 target are float64
    there (float32 on the CPU); 2.6's binary_cross_entropy_with_logits the same (2.14 agrees
    with the CPU: the target's dtype)."""

    def forward(self, mask, x, target):
        return (mask ** True, torch.nn.functional.huber_loss(x, target), torch.nn.functional.soft_margin_loss(x, target),
                torch.nn.functional.binary_cross_entropy_with_logits(x, target))

class SymArith(nn.Module):
    """Int arithmetic on symbolic sizes (sym_size, _operator.mul/floordiv/add
    nodes in the archive) deciding views and factories."""

    def forward(self, x):
        b, n = x.shape
        y = x.view(b * 2, n // 2)
        z = x.new_zeros(b // 2 + n, 3)
        return y, z, torch.ones(b * n - b, dtype=torch.int64)


class DataDependent(nn.Module):
    """Sizes no shape decides: torch.export names them with its own unbacked
    symbols (u0 ...), which dtypeflow's check binds its own to (issue 35)."""

    def forward(self, x):
        nz = torch.nonzero(x > 0)
        z = torch.zeros(nz.shape[0] * 2, 3)
        kept = torch.masked_select(x, x > 0.5)
        return nz, nz[:, 0].float() * 2, z, kept + 1


class InplaceTwins(nn.Module):
    """In-place ops whose functional twin has another dtype (eq_ and logical_not_ give bool, cumsum_
    of int16 int64, addcmul_ of float16 by float32 float32, clamp_ of int32 by int64 bounds int64)
    or another overload (pow_.Scalar is pow.Tensor_Scalar, dropout_'s self is dropout's input): the
    Torch dialect writer writes the twin and casts it back into self's dtype (torch.aten.to.dtype)."""

    def forward(self, x, i, h, j):
        a = x.clone()
        a.eq_(1)
        b = x.clone()
        b.logical_not_()
        c = i.clone()
        c.cumsum_(0)
        d = h.clone()
        d.addcmul_(x, x)
        e = x.clone()
        e.pow_(2)
        f = i.clone()
        f.floor_divide_(2)
        g = j.clone()
        g.clamp_(min=torch.zeros(3, dtype=torch.int64))
        k = x.clone()
        torch.nn.functional.dropout(k, 0.5, training=False, inplace=True)
        return a, b, c, d, e, f, g, k


class InplaceChainOnView(nn.Module):
    """Two in-place ops on one view (a select): each is scattered back into the tensor it views."""

    def forward(self, x):
        y = x.clone()
        v = y.select(0, 0)
        v.add_(1)
        v.mul_(2)
        return (y,)


class InplaceBasePieceRead(nn.Module):
    """A piece of unbind (a view through a list) read after its base is mutated in place: the
    writer refuses it (the piece's value would be the one before the mutation)."""

    def forward(self, x):
        y = x.clone()
        a = y.unbind(0)[0]
        y.mul_(2)
        return y, a


class InplaceOnView(nn.Module):
    """In-place ops on views (efficientnet's `dropout_` of a `flatten`): the Torch dialect writer
    writes them as their functional op where nothing else reads the storage afterwards."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(12, 5)

    def forward(self, x):
        y = torch.flatten(x * 2, 1)
        y.relu_()
        pieces = torch.tensor_split(x + 1, 2, dim=1)
        pieces[0].mul_(3)  # the split's other piece and its source are not read again
        return self.fc(y), pieces[0]


class InplaceOnViewReadLater(nn.Module):
    """`mask[1:3, 2:].fill_(1)` then `mask` read (swin's attention mask), and `x[1].add_(y)` (a
    select): the Torch dialect writer writes the functional op scattered back into the tensor
    viewed (slice_scatter, select_scatter)."""

    def forward(self, x):
        mask = torch.zeros(4, 4)
        mask[1:3, 2:].fill_(1.0)
        y = x * 2
        y[1].add_(mask[0])
        return y + mask


class InplaceOnDiagonalReadLater(nn.Module):
    """`mask.diagonal().fill_(1)` then `mask` read: no scatter of a diagonal is written yet, so the
    Torch dialect writer refuses it, naming the node."""

    def forward(self, x):
        mask = torch.zeros(4, 4)
        mask.diagonal().fill_(1.0)
        return x + mask


class WindowPartition(nn.Module):
    """swin's window partition: pad a dynamic length to a multiple of 7, then view(B, P//7, 7, C).
    The export records the window dim as P//(P//7), which is 7 wherever P may be (a multiple of
    7 by construction): `check` must count dtypeflow's 7 right, not wrong."""

    def forward(self, x):
        b, n, c = x.shape
        x = nn.functional.pad(x, (0, 0, 0, (7 - n % 7) % 7))
        p = x.shape[1]
        w = x.view(b, p // 7, 7, c)
        return w, w.sum(2)


def small_cases():
    """(name, module, example inputs, dynamic shapes or None, also save decomposed?)."""
    bf = torch.bfloat16
    return [
        ("bf16_mlp", Bf16Mlp().to(bf).eval(), (torch.randn(2, 8, dtype=bf),), None, False),
        ("f16_conv", F16Conv().half().eval(), (torch.randn(1, 3, 8, 8, dtype=torch.float16),), None, True),
        ("mixed_int_float", MixedIntFloat().eval(),
         (torch.arange(4), torch.randn(4), torch.tensor([True, False, True, False])), None, True),
        ("buffers_constants", BuffersConstants().eval(), (torch.randn(3, 4),), None, False),
        ("cond", CondModule().eval(), (torch.randn(3), torch.tensor(2)), None, False),
        ("dynamic", DynamicShapes().eval(), (torch.randn(4, 6), torch.arange(4)),
         {"x": {0: Dim("batch", min=2)}, "ids": {0: Dim("batch", min=2)}}, False),
        ("sym_arith", SymArith().eval(), (torch.randn(4, 6),), {"x": {0: Dim("batch", min=2, max=1024)}}, False),
        ("while_loop", WhileLoop().eval(), (torch.randn(3),), None, False),
        ("map", MapModule().eval(), (torch.randn(3, 2), torch.randn(2)), None, False),
        ("threshold_backward_mixed", ThresholdBackwardMixed().eval(),
         (torch.arange(6).reshape(2, 3), torch.randn(2, 3)), None, False),
        ("data_dependent", DataDependent().eval(), (torch.randn(3, 4),), None, False),
        ("fake_references", FakeReferences().eval(), (torch.rand(2, 3) > 0.5, torch.randn(2, 3), torch.rand(2, 3, dtype=torch.float64)), None, False),
        ("inplace_on_view", InplaceOnView().eval(), (torch.randn(2, 3, 4),), None, False),
        ("inplace_on_view_read_later", InplaceOnViewReadLater().eval(), (torch.randn(4, 4),), None, False),
        ("inplace_on_diagonal_read_later", InplaceOnDiagonalReadLater().eval(), (torch.randn(4, 4),), None, False),
        ("inplace_twins", InplaceTwins().eval(), (torch.randn(2, 3), torch.arange(6, dtype=torch.int16).reshape(2, 3),
                                                  torch.randn(2, 3).half(), torch.arange(6, dtype=torch.int32).reshape(2, 3)),
         None, False),
        ("inplace_chain_on_view", InplaceChainOnView().eval(), (torch.zeros(2, 2),), None, False),
        ("inplace_base_piece_read", InplaceBasePieceRead().eval(), (torch.arange(4.).reshape(2, 2),), None, False),
        ("window_partition", WindowPartition().eval(), (torch.randn(2, 16, 4),), {"x": {1: Dim.AUTO}}, False),
    ]


# --- torchvision models (big) ------------------------------------------------

def big_cases():
    import torchvision.models as tvm
    from torchvision.models.vision_transformer import VisionTransformer
    x = torch.randn(1, 3, 224, 224)
    # vit_b_16's structure at a small width (vit_b_16 itself is a 350 MB archive).
    vit = VisionTransformer(image_size=224, patch_size=16, num_layers=2, num_heads=4, hidden_dim=64, mlp_dim=128)
    return [
        ("resnet18", tvm.resnet18().eval(), (x,), None, True),
        ("resnet18_bf16", tvm.resnet18().to(torch.bfloat16).eval(), (x.to(torch.bfloat16),), None, True),
        ("resnet18_dynamic", tvm.resnet18().eval(), (torch.randn(2, 3, 224, 224),),
         {"x": {0: Dim("batch", min=1, max=64)}}, True),
        ("mobilenet_v2", tvm.mobilenet_v2().eval(), (x,), None, True),
        ("efficientnet_b0", tvm.efficientnet_b0().eval(), (x,), None, True),
        ("vit_small", vit.eval(), (x,), None, True),
        ("vit_small_f16", VisionTransformer(224, 16, 2, 4, 64, 128).half().eval(), (x.half(),), None, False),
        ("swin_t", tvm.swin_t().eval(), (x,), None, True),
    ]


# --- dynamic shapes (issue 35): a dynamic batch, and tokens --------------------

class TinyTokens(nn.Module):
    """A ViT-like block on a dynamic number of tokens: attention written out
    (reshape into heads, matmul, softmax), a residual MLP and mean pooling."""

    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.head = nn.Linear(dim, 10)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(self.norm(x)).reshape(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        a = (q @ k.transpose(-2, -1) * (d // self.heads) ** -0.5).softmax(-1)
        x = x + self.proj((a @ v).transpose(1, 2).reshape(b, n, d))
        x = x + self.mlp(self.norm(x))
        return self.head(x.mean(1))


def dynamic_cases():
    """Models exported with a dynamic batch (and a transformer with a dynamic
    sequence length too): every recorded size is symbolic or forced."""
    import torchvision.models as tvm
    from torchvision.models.vision_transformer import VisionTransformer
    batch = Dim("batch", min=2, max=64)
    seq = Dim("seq", min=2, max=512)
    x = torch.randn(2, 3, 224, 224)
    image = {"x": {0: batch}}
    # nn.TransformerEncoder in training mode (dropout 0): eval mode under
    # no_grad takes the fused fast path, one opaque op.
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True), 2,
                                enable_nested_tensor=False)
    vit = VisionTransformer(image_size=224, patch_size=16, num_layers=2, num_heads=4, hidden_dim=64, mlp_dim=128)
    return [
        ("resnet18", tvm.resnet18().eval(), (x,), image),
        ("mobilenet_v2", tvm.mobilenet_v2().eval(), (x,), image),
        ("mobilenet_v3_small", tvm.mobilenet_v3_small().eval(), (x,), image),
        ("efficientnet_b0", tvm.efficientnet_b0().eval(), (x,), image),
        ("squeezenet1_1", tvm.squeezenet1_1().eval(), (x,), image),
        ("shufflenet_v2_x0_5", tvm.shufflenet_v2_x0_5().eval(), (x,), image),
        ("mnasnet0_5", tvm.mnasnet0_5().eval(), (x,), image),
        ("regnet_y_400mf", tvm.regnet_y_400mf().eval(), (x,), image),
        ("googlenet", tvm.googlenet(aux_logits=False, init_weights=True).eval(), (x,), image),
        ("vit_small", vit.eval(), (x,), image),
        ("transformer_encoder", enc.train(), (torch.randn(2, 7, 32),), {"src": {0: batch, 1: seq}}),
        ("tiny_tokens", TinyTokens().eval(), (torch.randn(2, 7, 32),), {"x": {0: batch, 1: seq}}),
    ]


def zoo_cases():
    """More torchvision models (classification, segmentation, video), each with a dynamic batch where
    torch.export accepts one (else the example's batch): the wider sweep of `--zoo`."""
    import torchvision.models as tvm
    import torchvision.models.segmentation as seg
    import torchvision.models.video as video
    image, clip = torch.randn(2, 3, 224, 224), torch.randn(2, 3, 8, 112, 112)
    batch = {"x": {0: Dim("batch", min=2, max=64)}}
    models = [(n, getattr(tvm, n)(), image) for n in (
        "alexnet", "resnet50", "resnext50_32x4d", "densenet121", "mobilenet_v3_large", "efficientnet_b1",
        "efficientnet_v2_s", "regnet_x_400mf", "shufflenet_v2_x1_0", "mnasnet1_0", "squeezenet1_0",
        "convnext_tiny", "swin_v2_t", "maxvit_t")]
    models.append(("inception_v3", tvm.inception_v3(aux_logits=False, init_weights=True), torch.randn(2, 3, 299, 299)))
    models += [(n, getattr(seg, n)(weights_backbone=None), image)
               for n in ("lraspp_mobilenet_v3_large", "deeplabv3_mobilenet_v3_large", "fcn_resnet50")]
    models.append(("r3d_18", video.r3d_18(), clip))
    # Added 2026-12-07 (each checked 100 % right, sizes exact, in the 2.14 root before joining):
    # wider and older families, a long clip for the 3-D and multiscale video models, the aux heads,
    # and reduced-precision modules (the dtype follows the module, not the default).
    models += [(n, getattr(tvm, n)(), image) for n in ("vgg11_bn", "wide_resnet50_2", "swin_t", "vit_b_32",
                                                       "regnet_y_800mf")]
    models.append(("googlenet_aux", tvm.googlenet(aux_logits=True, init_weights=True), image))
    models.append(("deeplabv3_resnet50", seg.deeplabv3_resnet50(weights_backbone=None, aux_loss=True),
                   torch.randn(2, 3, 128, 128)))
    long_clip = torch.randn(2, 3, 16, 224, 224)
    models += [("s3d", video.s3d(), long_clip), ("mvit_v2_s", video.mvit_v2_s(), long_clip)]
    models.append(("efficientnet_b0_bf16", tvm.efficientnet_b0().to(torch.bfloat16), image.to(torch.bfloat16)))
    models.append(("mobilenet_v3_small_f16", tvm.mobilenet_v3_small().half(), image.half()))
    cases = [(n, m.eval(), (x,), batch) for n, m, x in models]
    import torchvision.models.optical_flow as flow  # two images: raft's own argument names
    frames = (torch.randn(2, 3, 128, 128), torch.randn(2, 3, 128, 128))
    both = {k: {0: Dim("batch", min=2, max=64)} for k in ("image1", "image2")}
    cases.append(("raft_small", flow.raft_small().eval(), frames, both))
    return cases


def export_zoo(cases, out_dir):
    """export_all with a fallback: a model whose dynamic batch torch.export refuses is exported with the
    example's batch (said on stdout)."""
    os.makedirs(out_dir, exist_ok=True)
    for name, module, args, dyn in cases:
        with torch.no_grad():
            try:
                ep = torch.export.export(module, args, dynamic_shapes=dyn)
                how = "dynamic batch"
            except Exception as e:  # noqa: BLE001 - a guard torch.export raises on a dynamic dim
                ep = torch.export.export(module, args)
                how = f"static (dynamic refused: {type(e).__name__})"
        path = os.path.join(out_dir, name + ".pt2")
        torch.export.save(ep, path)
        print(f"wrote {path} ({os.path.getsize(path)} bytes, {how})", flush=True)


def export_all(cases, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for name, module, args, dyn, *rest in cases:
        decompose = rest[0] if rest else False
        with torch.no_grad():
            ep = torch.export.export(module, args, dynamic_shapes=dyn)
        path = os.path.join(out_dir, name + ".pt2")
        torch.export.save(ep, path)
        print(f"wrote {path} ({os.path.getsize(path)} bytes)")
        if decompose:  # core ATen (what backends consume): other ops, same values
            path = os.path.join(out_dir, name + "_core_aten.pt2")
            torch.export.save(ep.run_decompositions(), path)
            print(f"wrote {path} ({os.path.getsize(path)} bytes)")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--small", help="write the tiny test modules here")
    p.add_argument("--big", help="write the torchvision models here")
    p.add_argument("--dynamic", help="write the dynamic-shape models here (issue 35; tens of MB, not committed)")
    p.add_argument("--zoo", help="write more torchvision models here (a wider sweep; hundreds of MB, not committed)")
    p.add_argument("--only", action="append", help="write only the cases of this name (repeatable)")
    a = p.parse_args()
    if not a.small and not a.big and not a.dynamic and not a.zoo:
        p.error("give --small DIR, --big DIR, --dynamic DIR and/or --zoo DIR")
    print(f"torch {torch.__version__}", file=sys.stderr)
    pick = (lambda cases: [c for c in cases if c[0] in a.only]) if a.only else (lambda cases: cases)
    if a.small:
        export_all(pick(small_cases()), a.small)
    if a.big:
        export_all(pick(big_cases()), a.big)
    if a.dynamic:
        export_all(pick(dynamic_cases()), a.dynamic)
    if a.zoo:
        export_zoo(pick(zoo_cases()), a.zoo)


if __name__ == "__main__":
    main()
