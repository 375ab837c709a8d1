#!/usr/bin/python3
"""Regenerate tests/corpus/*.ir: small traced test modules with mixed dtypes.

Each case is a function traced with torch.jit.trace (inlined, parameters
lowered to inputs) and printed exactly as torch prints it (scopes and source
comments included), so the files exercise the raw IR format. ctest runs
`dtypeflow check` on every file: no value may come out wrong.

Run from the repository root with Debian's torch 1.13:
    /usr/bin/python3 tests/corpus/gen_corpus.py [CASE ...]
and, for the same modules traced by 2.14 (tests/corpus-2.14/, checked with
--torch 2.14), inside the 2.14 root:
    scripts/torch214-root.sh run env DTF_CORPUS_OUT=tests/corpus-2.14 python3 tests/corpus/gen_corpus.py
"""
import os
import re
import sys
import warnings

import torch
import torch.nn.functional as F

warnings.filterwarnings("ignore")
torch.manual_seed(0)
OUT = os.environ.get("DTF_CORPUS_OUT") or os.path.dirname(os.path.abspath(__file__))
T = torch.tensor


def S(s):
    return s[0] if len(s) == 1 and isinstance(s[0], tuple) else s


f32 = lambda *s: torch.randn(S(s))
f64 = lambda *s: torch.randn(S(s), dtype=torch.float64)
f16 = lambda *s: torch.randn(S(s)).half()
bf = lambda *s: torch.randn(S(s)).bfloat16()
i64 = lambda *s: torch.randint(0, 5, S(s))
i32 = lambda *s: torch.randint(0, 5, S(s), dtype=torch.int32)
i8 = lambda *s: torch.randint(0, 5, S(s), dtype=torch.int8)
u8 = lambda *s: torch.randint(0, 5, S(s), dtype=torch.uint8)
b = lambda *s: torch.rand(S(s)) > 0.5
c64 = lambda *s: torch.randn(S(s), dtype=torch.complex64)

CASES = {
 "arith_mixed": (lambda a,b_,c: (a+b_)*c - a/b_ + (c//2) % 3, (i32(3,4), f64(4), i64(3,4))),
 "scalar_tiers": (lambda a,z: (a*2.5, a+z, z*3, a.sum()+a, a.mean()*2 if a.is_floating_point() else a+1), (f16(3), f64(())*0+1)),
 "int_div": (lambda a,b_: (a/b_, a//b_, torch.true_divide(a,2), torch.div(a,b_,rounding_mode='floor'), torch.remainder(a,3)), (i32(4)+1, i64(4)+1)),
 "compare": (lambda a,b_: (a>b_, a==1, (a<b_)&(a>0), torch.logical_or(a>0,b_<2), torch.where(a>0, a, b_), torch.isnan(b_)), (i8(5), f32(5))),
 "reduce": (lambda a,x: (a.sum(), a.sum(1), a.prod(), x.mean(0), x.var(), x.std(1), a.max(), x.argmax(1), a.cumsum(0), x.logsumexp(1), torch.all(a>0), a.any(), x.norm(), a.sum(dtype=torch.float64)), (i32(3,4), f32(3,4))),
 "minmax": (lambda x: (x.max(1), x.min(0), torch.topk(x,2), torch.sort(x,1), x.argsort(), torch.amax(x,1), torch.aminmax(x)), (f64(3,4),)),
 "casts": (lambda x,y: (x.float(), x.double(), x.long(), x.half(), x.to(torch.bfloat16), x.to(y), x.type_as(y), x.int(), x.bool(), y.to(torch.int8)), (i32(3), f64(3))),
 "factories": (lambda x: (torch.zeros_like(x), torch.ones_like(x, dtype=torch.float16), torch.full_like(x, 2.5), x.new_zeros(3), x.new_ones((2,2)), torch.zeros(3)+x.sum(), torch.arange(5)*x.sum(), torch.arange(0.,3.)+1, torch.empty_like(x)), (i64(4),)),
 "softmax": (lambda x: (F.softmax(x,1), F.log_softmax(x,-1), F.softmax(x,1,dtype=torch.float64), torch.sigmoid(x), torch.tanh(x), F.gelu(x), F.silu(x), F.relu6(x), F.leaky_relu(x), F.elu(x), F.hardswish(x), F.hardsigmoid(x), F.softplus(x), F.mish(x)), (f32(2,5),)),
 "bf16_ops": (lambda x,w: (F.linear(x,w), x.exp(), x*2, x+1, x.sum(), x.mean(), (x>0).sum(), F.layer_norm(x,(4,))), (bf(3,4), bf(5,4))),
 "f64_conv": (lambda x,w: (F.conv2d(x,w), F.max_pool2d(x,2), F.avg_pool2d(x,2), F.adaptive_avg_pool2d(x,1), F.batch_norm(x, torch.zeros(2,dtype=torch.float64), torch.ones(2,dtype=torch.float64))), (f64(1,2,4,4), f64(3,2,3,3))),
 "views": (lambda x: (x.view(2,6), x.reshape(-1), x.permute(1,0), x.transpose(0,1), x.unsqueeze(0), x.flatten(), x[0], x[:,1:], x.t(), x.expand(2,3,4), x.contiguous(), x.chunk(2,1)[0], x.split(2,1)[1], torch.cat([x,x]), torch.stack([x,x]), x.squeeze(), x.flip(0), x.roll(1), x.repeat(2,1)), (i8(3,4),)),
 "index": (lambda x,i: (x[i], x.index_select(0,i), x.gather(1, i.unsqueeze(1).expand(3,4)), x.masked_fill(x>0, 0.5), torch.nonzero(x), x.scatter(1, i.unsqueeze(1).expand(3,4), x), torch.embedding(x, i)), (f32(3,4), torch.tensor([0,2,1]))),
 "bitwise": (lambda a,b_: (a&b_, a|b_, a^b_, ~a, a<<1, a>>b_, torch.bitwise_and(a,3), (a>0)&(b_>0)), (i32(4), u8(4))),
 "pow_clamp": (lambda a,x: (a**2, x**2, a**0.5, 2**a, torch.pow(x,a), a.clamp(0,3), x.clamp(min=0.5), a.clamp(min=0.5), torch.square(a), x.abs(), a.neg(), x.sqrt(), a.sqrt(), x.rsqrt(), a.exp()), (i64(4)+1, f32(4))),
 "complex": (lambda z,x: (z.abs(), z.real, z.imag, z.angle(), z*x, z+1, torch.view_as_real(z), z.conj(), x+1j), (c64(3), f32(3))),
 "bool_ops": (lambda m,x: (m.sum(), m.float(), m+m if False else m|m, m*x, m.long()+1, torch.where(m, 1.0, 0), m.all(), ~m, m.int().cumsum(0)), (b(5), f32(5))),
 "uint8": (lambda a,x: (a+1, a-1, a*x, a.sum(), a.all(), a.any(), a.float()/255, a//2, a>2, a.max()), (u8(4), f32(4))),
 "int8_mix": (lambda a,c: (a+c, a*c, a+a.sum(), c-a, a.to(torch.int16)+a, a+torch.tensor(3), a+torch.tensor(3.5)), (i8(4), u8(4))),
 "matmul": (lambda a,b_,v: (a@b_, torch.mm(a,b_), torch.matmul(a,v), torch.bmm(a.unsqueeze(0), b_.unsqueeze(0)), torch.addmm(v.new_zeros(3,5), a, b_), torch.dot(v,v), torch.outer(v,v), a.mv(v)), (f64(3,4), f64(4,5), f64(4))),
 "int_matmul": (lambda a,b_: (a@b_, a.sum(0)@b_), (i64(3,4), i64(4,2))),
 "embedding_mlp": (lambda ids, w, w2: (F.linear(F.embedding(ids, w).mean(1), w2).softmax(-1), F.embedding(ids.int(), w).sum()), (i64(2,5), f32(10,8), f32(3,8))),
 "losses": (lambda x,y,t: (F.mse_loss(x,y), F.l1_loss(x,y), F.cross_entropy(x,t), F.nll_loss(F.log_softmax(x,1),t), F.binary_cross_entropy_with_logits(x,y), F.smooth_l1_loss(x,y), F.kl_div(x,y)), (f32(4,3), f32(4,3), torch.tensor([0,1,2,0]))),
 "norms": (lambda x: (F.layer_norm(x,(6,)), F.group_norm(x.view(2,6,1),3), F.normalize(x), F.dropout(x, 0.5, False), F.pad(x,(1,1)), F.interpolate(x.view(1,2,6), scale_factor=2)), (f64(2,6),)),
 "size_ops": (lambda x: (x.view(x.size(0), -1), torch.zeros(x.shape[0]), x.sum(dim=x.dim()-1), torch.full((x.size(1),), x.size(0)), x*x.size(1), x.new_full((2,), 7)), (f32(3,4),)),
 "half_mix": (lambda h,x,d: (h+x, h+d, h*2.5, h+x.sum(), h.float()+d, h.sum(), h.mean(), torch.cat([h,h])), (f16(3), f32(3), f64(()))),
 "zero_dim_promo": (lambda a,b_,c: (a+b_, b_+c, a*c, torch.max(a,b_), torch.maximum(b_,c), torch.where(a>0,b_,c)), (i32(()), i64(3), f16(()))),
 "inplace": (lambda x,a: (x.add_(1), x.mul_(a), x.clamp_(0,1), a.add_(2), x.relu_(), a.zero_()), (f32(3), i32(3))),
 "trig": (lambda a: (a.sin(), a.cos(), a.tan(), a.atan(), torch.atan2(a.float(),a.float()), a.log(), a.log1p(), a.erf(), a.floor(), a.ceil(), a.round(), a.trunc(), a.sign(), a.reciprocal(), a.frac() if False else a.sgn()), (i32(4)+1,)),
 "lerp_addc": (lambda x,y,w: (torch.lerp(x,y,0.5), torch.lerp(x,y,w), torch.addcmul(x,y,w), torch.addcdiv(x,y,w+1), torch.hypot(x,y), torch.fmod(x,2), torch.copysign(x,y), torch.logaddexp(x,y), torch.fmax(x,y)), (f64(3), f64(3), f64(3))),
 "const_tensors": (lambda a: (a + torch.tensor(2.0), a * torch.tensor(3), a + torch.tensor(2.5, dtype=torch.float64), a.float() + torch.tensor([1.0, 2.0, 3.0]), a + 1, a * 2.5), (T([1,2,3], dtype=torch.int16),)),
 # Traced constant-only arithmetic and 0-dim constants as first operands (torch-mlir's e2e suite).
 "const_arith": (lambda x, f: (torch.add(5.0, 1.5) + f, torch.mul(5.0, 1.5) * f, torch.ops.prim.NumToTensor(5.0) + 3, torch.add(5.0, 3) * f,
                               2.5 // x, torch.add(2.5, f), torch.mul(3, f), x * torch.mul(2.5, 2.0)), (T([1, 2, 3], dtype=torch.int32), torch.randn(3))),
 "zero_dim_chain": (lambda a,b: (a.sum() + b, a.max() * b, (a.sum() * 2.5) + b, b.mean() + a.sum(), (a > 1).sum() + b), (T([1,2,3], dtype=torch.int8), T([1.,2.], dtype=torch.float16))),
 "bool_arith": (lambda m,i: (m + i, m * 2, m.sum(1), m.float().mean(), i.masked_fill(m, -1), torch.where(m, i, 0), m.to(torch.uint8) + 255), (T([[True,False],[False,True]]), T([[1,2],[3,4]], dtype=torch.int32))),
 "shapes_scalars": (lambda x: (x.new_tensor(2.5) if False else x.new_full((2,), 2.5), x.view(-1).size(0) * x, torch.arange(x.size(0)), torch.arange(x.size(0), dtype=torch.float64), x / x.size(1), torch.full((2,), x.size(1)), torch.ones(x.size(0), x.size(1), dtype=torch.int8)), (torch.randn(3,4),)),
 "div_variants": (lambda a,b: (a / 2, a // 2, a % 2, torch.floor_divide(a, b), torch.fmod(a, b), a.div(b, rounding_mode='trunc'), a.true_divide(b), b / a), (T([5,6,7]), T([2,3,4], dtype=torch.uint8))),
 "mixed_where": (lambda c,x,y: (torch.where(c, x, y), torch.where(c, x, 2), torch.where(c, 1.5, y), torch.where(c, x, y.sum())), (T([True,False]), T([1,2], dtype=torch.int32), T([1.,2.], dtype=torch.float64))),
 "cumulative": (lambda a: (a.cumsum(0), a.cumprod(0), a.cumsum(0, dtype=torch.float32), torch.cummax(a,0)[0], a.float().cumsum(0).logcumsumexp(0)), (T([1,2,3], dtype=torch.int8),)),
 "linspace_etc": (lambda x: (torch.linspace(0, 1, 3) + x, torch.eye(3) * x, torch.zeros(3, dtype=torch.int64) + x, torch.rand(3) * x, torch.randn(3, dtype=torch.float64) + x, torch.randint(0, 5, (3,)) + x, torch.empty(3).fill_(1) + x), (T([1.,2.,3.], dtype=torch.float16),)),
 "pooling_int": (lambda x: (F.adaptive_max_pool1d(x.float(), 1)[0], x.float().unsqueeze(0)), (torch.randint(0, 9, (1, 2, 4)),)),
 "nn_modules": (lambda x, w, b, g: (F.conv1d(x, w, b), F.conv_transpose1d(x, w.transpose(0, 1)), F.group_norm(x, 1, g, g), F.prelu(x, g[:1]), F.glu(x, 1) if False else F.glu(x, 2), F.pixel_shuffle(x.reshape(1,4,1,2), 2)), (torch.randn(1, 2, 4), torch.randn(3, 2, 1), torch.randn(3), torch.randn(2))),
 "attention": (lambda q,k,v: (torch.softmax(q @ k.transpose(-2,-1) / 8 ** 0.5, -1) @ v, F.scaled_dot_product_attention(q,k,v) if hasattr(F,'scaled_dot_product_attention') else q, torch.baddbmm(q @ k.transpose(1,2), q, k.transpose(1,2))), (torch.randn(2,3,4), torch.randn(2,3,4), torch.randn(2,3,4))),
 "int_mean_err": (lambda a: (a.float().mean(), a.double().var(), a.sum() / a.numel()), (T([1,2,3]),)),
 "complex_more": (lambda z: (z * 2, z.abs().sum(), torch.view_as_real(z).sum(-1), z.exp(), z.sigmoid() if False else z.tanh(), z.sum(), z.mean(), z.real.max()), (torch.randn(3, dtype=torch.complex128),)),
 "bf16_f16_mix": (lambda a, h: (a + h, a * h.sum(), torch.cat([a.float(), h.float()]), a.to(h.dtype) + h, (a > h).sum()), (torch.randn(3).bfloat16(), torch.randn(3).half())),
 "one_hot": (lambda i: (F.one_hot(i, 5), F.one_hot(i, 5).float().sum(0), torch.bincount(i), i.unique() if False else i.sort()[1], torch.argmax(F.one_hot(i,5), 1)), (T([0,1,4,2]),)),
 # meshgrid/unique/losses/fft/joins and size-1 facts through views, splits,
 # pooling and padding (ops a zoo stress run found missing; recurrent below).
 "anchor_grid": (lambda fm, strides: (lambda sy, sx: (torch.stack([sx.reshape(-1), sy.reshape(-1), sx.reshape(-1), sy.reshape(-1)], 1).float() * 0.5,
                                                    torch.cartesian_prod(torch.arange(2), torch.arange(3)), torch.meshgrid(fm[0, 0, :, 0], fm[0, 0, 0, :], indexing="xy")[1].sum()))(
                      *torch.meshgrid(torch.arange(fm.shape[2], dtype=torch.int32) * strides[0], torch.arange(fm.shape[3], dtype=torch.int32) * strides[1], indexing="ij")),
                 (torch.randn(1, 2, 3, 4), T([8, 16], dtype=torch.int32))),
 "unit_dims": (lambda x, h, tok: (x.unsqueeze(1).transpose(1, 2).squeeze(2), F.adaptive_avg_pool2d(x, 1).squeeze(-1).squeeze(-1), F.max_pool2d(x.mean(1, keepdim=True), 2).squeeze(1),
                                  torch.cat([tok, x.flatten(2).transpose(1, 2)], 1).unsqueeze(1).squeeze(1), x.view(2, 1, -1).squeeze(1), h.mT.squeeze(-1), h.permute(2, 0, 1).squeeze(0),
                                  x.unsqueeze(1).tensor_split([1], dim=2)[0].squeeze(1), x.unsqueeze(0).unbind(1)[0].squeeze(0), F.pad(x.unsqueeze(1), (1, 1)).squeeze(1),
                                  x[:, :1].expand(2, 1, 4, 4).squeeze(1), x.unsqueeze(1).chunk(2, 2)[0].squeeze(1), F.interpolate(x.sum(1, keepdim=True), scale_factor=2).squeeze(1), x.size(0) * h.squeeze(2)),
               (torch.randn(2, 3, 4, 4), torch.randn(2, 3, 1, dtype=torch.float64), torch.randn(2, 1, 3))),
 "unique_flags": (lambda a, m: (torch.unique(a), torch.unique(a, return_inverse=True), torch.unique(a, return_counts=True, return_inverse=True), torch.unique(a.view(2, 3), dim=1),
                                torch.unique_consecutive(a, return_counts=True), torch.unique_consecutive(a.view(2, 3), return_inverse=True, dim=0), torch.unique(m),
                                torch.unique(a.float(), sorted=False, return_inverse=True)[1] + 1),
                  (T([3, 1, 3, 2, 1, 1]), T([True, False, True]))),
 "margin_losses": (lambda x, y, t, d: (F.cosine_embedding_loss(x, y, t), F.margin_ranking_loss(x[:, 0], y[:, 0], t.float()), F.triplet_margin_loss(x, y, x.flip(0)),
                                       F.hinge_embedding_loss(d, d.sign()), F.soft_margin_loss(d, d.sign(), reduction="none"), F.multi_margin_loss(x, T([0, 2, 1, 0])),
                                       F.multilabel_margin_loss(x, T([[0, 1, -1]] * 4)), F.pairwise_distance(x, y), F.pairwise_distance(x, y, keepdim=True), torch.cdist(d, d),
                                       F.triplet_margin_loss(d, d, d, reduction="none")),
                   (torch.randn(4, 3), torch.randn(4, 3), T([1, -1, 1, 1]), torch.randn(4, 3, dtype=torch.float64))),
 "fft_more": (lambda x, d, z: (torch.fft.fft2(x), torch.fft.rfftn(d), torch.fft.irfft(z), torch.fft.hfft(z), torch.fft.ifftn(d), torch.fft.irfft2(torch.fft.rfft2(x)),
                               torch.fft.fftshift(d), torch.fft.ifftshift(x, dim=0), torch.fft.fftfreq(4), torch.fft.rfftfreq(4, dtype=torch.float64), torch.fft.ihfft(d), torch.fft.fft(T([1, 2, 3, 4]))),
              (torch.randn(4, 4), torch.randn(4, 4, dtype=torch.float64), torch.randn(4, dtype=torch.complex64))),
 "stack_joins": (lambda a, h, m, d: (torch.dstack([a, h]), torch.hstack([m, a]), torch.vstack([a.to(torch.uint8), a.to(torch.int8)]), torch.block_diag(a, d[0, 0]), torch.block_diag(m, h.view(1, -1)),
                                     torch.combinations(a), torch.combinations(h, 3, with_replacement=True), torch.diff(a, prepend=d[0, :1].float()), torch.diff(m), torch.vander(a), torch.vander(h, 2),
                                     torch.diagflat(h), torch.msort(a.view(3, 1)), torch.hsplit(d, 3)[0], torch.vsplit(d, 1)[0].sum(), torch.dsplit(d.unsqueeze(2), 1)[0]),
                 (T([3, 1, 2], dtype=torch.int16), torch.randn(3, dtype=torch.float64), T([True, False, True]), T([[1, 2, 3]]))),
 "complex_misc": (lambda x, d, a: (torch.complex(x, x), torch.complex(d, d).abs(), torch.frexp(d), torch.frexp(x)[1] + a, torch.igamma(x.abs(), a), torch.igammac(d.abs(), x.abs()),
                                   torch.histc(x), torch.histc(d, 4, 0, 1), torch.trapz(a), torch.trapz(d, x), torch.cumulative_trapezoid(a.float()), torch.trapezoid(d, dx=2)),
                  (torch.randn(3), torch.randn(3, dtype=torch.float64), T([1, 2, 3], dtype=torch.int32))),
 "matrix_views": (lambda x, z, a: (x.mT, x.mH, z.mH, z.adjoint(), x.transpose(-1, -2).contiguous().view(-1), z.conj().T, a.mT.sum(0), x[..., :1].mT,
                                   torch.swapaxes(x, 0, 1), x.movedim(0, -1).mT),
                  (torch.randn(2, 3, 4), torch.randn(3, 3, dtype=torch.complex64), T([[1, 2], [3, 4]], dtype=torch.int8))),
 "resample_grid": (lambda x, d, th: (F.interpolate(x, scale_factor=2, mode="nearest-exact"), F.interpolate(d, size=(1, 3), mode="nearest-exact").squeeze(2),
                                             F.affine_grid(th, (1, 2, 3, 3), align_corners=False), F.grid_sample(x[:1], F.affine_grid(th, (1, 2, 3, 3), align_corners=False), align_corners=False),
                                             F.pad(d, (1, 1, 0, 0), mode="reflect").squeeze(0), F.pad(x, (1, 2, 1, 2), mode="replicate"), F.adaptive_max_pool2d(x, (1, 2))[0].squeeze(2),
                                             F.adaptive_max_pool2d(x, (1, 2))[1].squeeze(2), F.avg_pool2d(x, 2).mean((2, 3)), F.max_pool1d(d.flatten(2), 2)),
                        (torch.randn(2, 2, 4, 4), torch.randn(1, 2, 4, 4, dtype=torch.float64), torch.randn(1, 2, 3))),
}


class Recurrent(torch.nn.Module):
    """LSTM (batch_first, and on a packed sequence) into a bidirectional GRU and
    a relu RNN, and the LSTM/GRU cells, in float64: a submodule, so its
    parameters become graph inputs."""
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(4, 3, batch_first=True)
        self.gru = torch.nn.GRU(3, 2, bidirectional=True)
        self.rnn = torch.nn.RNN(2 * 2, 2, nonlinearity="relu")
        self.cell = torch.nn.LSTMCell(4, 3)
        self.gcell = torch.nn.GRUCell(4, 2)
    def forward(self, x, lengths):
        y, (h, c) = self.lstm(x)
        z, hz = self.gru(y.transpose(0, 1))
        w, hw = self.rnn(z)
        hc, cc = self.cell(x[:, 0])
        packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True)
        p, _ = self.lstm(packed)
        unpacked, lens = torch.nn.utils.rnn.pad_packed_sequence(p, batch_first=True)
        return y, h.squeeze(0), c, z, hz, w, hw, hc, cc, self.gcell(x[:, 1]), unpacked, lens


CASES["recurrent"] = (Recurrent().double(), (torch.randn(2, 5, 4, dtype=torch.float64), T([5, 3])))


def detection_ops(x, boxes, scores):
    """torchvision's C++ ops as detection heads call them: nms, then RoI
    pooling of the kept boxes (torch.ops.torchvision directly: the
    torchvision.ops wrappers query the CUDA version, which cannot be traced)."""
    tv = torch.ops.torchvision
    keep = tv.nms(boxes, scores, 0.5)
    kept = boxes[keep]
    rois = torch.cat([torch.zeros(kept.shape[0], 1, dtype=kept.dtype), kept], dim=1)
    pooled, argmax = tv.roi_pool(x, rois, 1.0, 2, 2)
    channels, mapping = tv.ps_roi_align(x, rois, 1.0, 2, 2, 2)
    return keep, tv.roi_align(x, rois, 1.0, 2, 2, 2, False), pooled, argmax, channels, mapping


CASES["detection_ops"] = (detection_ops, (torch.rand(1, 4, 8, 8, dtype=torch.float64),
                                          T([[0, 0, 4, 4], [1, 1, 5, 5.], [0, 0, 2, 2]], dtype=torch.float64),
                                          torch.rand(3, dtype=torch.float64)))

CASES["linalg_ops"] = (lambda a, c: (torch.linalg.inv(a), torch.linalg.qr(a)[0], torch.linalg.svd(c)[1], torch.linalg.svdvals(a),
                                     torch.linalg.eigh(c)[0], torch.linalg.eig(a)[0], torch.linalg.eigvals(a), torch.pinverse(c),
                                     torch.logdet(a), torch.matrix_exp(c), torch.linalg.cholesky(a), torch.linalg.inv_ex(a)[1],
                                     torch.linalg.qr(a, mode="r")[0], torch.svd(c)[2], torch.linalg.eigvalsh(a)),
                       (torch.eye(3, dtype=torch.float64).repeat(2, 1, 1) * 2, torch.eye(3, dtype=torch.complex64) * 2))

CASES["linalg_more"] = (lambda a, v, i, x: (torch.matrix_power(a, 2), torch.linalg.matrix_power(a, -1), torch.addr(a, v, v.float()),
                                          torch.linalg.multi_dot([a, a, v]), torch.linalg.vecdot(a, v), torch.isin(i, i[:2]),
                                          torch.isin(x, 2.0), torch.cov(x), torch.corrcoef(x.double()), torch.quantile(x, 0.5, dim=1),
                                          torch.linalg.solve(a, v), torch.linalg.solve_triangular(a, a, upper=True),
                                          torch.linalg.lu_factor(a)[1], torch.linalg.cond(a), torch.linalg.matrix_rank(a),
                                          torch.linalg.pinv(a), torch.linalg.vander(i), torch.row_stack([x, x]),
                                          torch.special.logsumexp(x, 1), torch.nuclear_norm(a), torch.linalg.lstsq(a, a)[0],
                                          torch.histogram(x.flatten(), 3)[0], i.sum_to_size(1)),
                        (torch.eye(3, dtype=torch.float64) * 2, torch.ones(3, dtype=torch.float64), T([1, 2, 3]), torch.randn(2, 4)))
CASES["seq_losses"] = (lambda lp, t, a, b: (F.ctc_loss(lp, t, [5], [2]), F.ctc_loss(lp, t, [5], [2], reduction="none"),
                                           torch.nn.utils.rnn.pad_sequence([a, b]), torch.nn.utils.rnn.pad_sequence([a, b], batch_first=True)),
                       (torch.randn(5, 1, 3).log_softmax(2), T([[1, 2]]), torch.randn(3, 2, dtype=torch.float64), torch.randn(2, 2, dtype=torch.float64)))



class Scale(torch.autograd.Function):
    """A Python autograd Function: traced as a `^Scale(...)` prim::PythonOp."""

    @staticmethod
    def forward(ctx, x, k):
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g, None


# Python ops, and tensor constants torch prints oddly (a NaN element, an empty tensor).
CASES["python_op"] = (lambda x, t: (Scale.apply(x, 2.0) + 1, x + T([float("nan"), 1.0, 2.0]), x.sum() + T([]).sum(),
                                    F.hinge_embedding_loss(x, t, reduction="none"),
                                    F.soft_margin_loss(t, x, reduction="none")),
                      (torch.randn(3), torch.randn(2, 3)))

# Found by fuzzing: the inverse _unique2 fills when only counts are asked for, aminmax's
# 0-dim keepdim quirk, a -nan constant, trapezoid with a multi-dim x, hinge on integers,
# an unbatched convolution (unsqueeze, conv, squeeze: the batch dim's size-1 fact).
CASES["fuzz_found"] = (lambda x, a, z, y, t, u, w: (torch.unique(a, return_counts=True)[1] + 1, torch.aminmax(z, dim=0, keepdim=True)[0] * 2,
                                                   x + (float("inf") - float("inf")), torch.cumulative_trapezoid(y, x=t),
                                                   torch.trapezoid(y, x=t), F.hinge_embedding_loss(a, a, reduction="sum"),
                                                   F.conv1d(u, w) * 2),
                       (torch.randn(3), i32(2, 3), torch.tensor(1.5), torch.randn(2), torch.randn(2, 2), torch.randn(2, 5),
                        torch.randn(3, 2, 1)))


def one_element_constants(x, n):
    """One-element tensors made inside traced code, as torchvision's detection heads make
    `torch.tensor([pre_nms_top_n])`: printed `{150}` as a 0-dim constant is, but typed Long(1)
    (a 1-d tensor: no Python scalar, and float64 here promotes a float32 tensor)."""
    k = torch.min(torch.cat([torch.tensor([3]), torch._shape_as_tensor(x)[1].unsqueeze(0)]))
    return (x + torch.tensor([0.5], dtype=torch.float64), x.topk(int(k))[0], n * torch.tensor([2], dtype=torch.int32),
            k, n + torch.tensor([True]))


CASES["one_element_constants"] = (one_element_constants, (torch.randn(2, 5), i8(2, 1)))


def main():
    import torchvision  # noqa: F401  (registers torch.ops.torchvision for detection_ops)
    only = set(sys.argv[1:])  # case names: regenerate just those
    os.makedirs(OUT, exist_ok=True)
    for name, (fn, args) in CASES.items():
        if only and name not in only:
            continue

        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                if isinstance(fn, torch.nn.Module):
                    self.f = fn  # a submodule: its parameters become graph inputs

            def forward(self, *a):
                return self.f(*a) if hasattr(self, "f") else fn(*a)

        tr = torch.jit.trace(M(), tuple(a.clone() for a in args), check_trace=False)
        g = tr.graph.copy()
        torch._C._jit_pass_inline(g)
        g2, _ = torch._C._jit_pass_lower_graph(g, tr._c)
        # Source comments hold this file's absolute path: keep only the line.
        text = re.sub(r"# /[^\n]*/gen_corpus.py", "# gen_corpus.py", str(g2))
        text = re.sub(r"# /usr/lib/python3/dist-packages/", "# ", text)
        with open(os.path.join(OUT, name + ".ir"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
