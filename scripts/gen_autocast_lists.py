#!/usr/bin/env python3
"""Regenerate data/autocast-<version>.txt: the ops autocast wraps, per device, with their cast policy.

    /usr/bin/python3 scripts/gen_autocast_lists.py > data/autocast-1.13.txt                   # 1.13 (host)
    scripts/torch214-root.sh run python3 scripts/gen_autocast_lists.py > data/autocast-2.14.txt  # 2.14

Membership: the dispatcher's own registrations for the AutocastCPU / AutocastCUDA keys
(torch._C._dispatch_get_registrations_for_dispatch_key; every other op falls through,
i.e. autocast leaves it alone). Readable without a GPU: a CPU build registers the CUDA
autocast kernels too.

CPU policy: measured. Each registered overload is called under torch.autocast('cpu',
dtype=torch.bfloat16) with type-correct arguments, under a TorchDispatchMode that records
the casts autocast makes (aten::_to_copy) and stops the call at the first other op, so
shapes never matter. Three runs: every floating tensor float32 (a cast to bfloat16 means
lower_precision_fp), every one bfloat16 (a cast to float32 means fp32), the first float32
and the rest bfloat16 (a cast to float32 that neither run showed means promote). An
overload the runs cannot tell (no tensor argument, an argument we cannot build) takes its
policy from the source table below, marked `source` in the last column.

The CPU fallback table is the AutocastCPU list of the same source. Policy `none`: the op
is registered, yet the runs saw no cast at all (1.13's `cat`: cat([float32, bfloat16])
reaches the kernel uncast, and [float16, bfloat16] does not raise as promote would).

CUDA policy: there is no GPU here, so it is taken from PyTorch's source as data:
SOURCE_POLICY below lists aten/src/ATen/autocast_mode.{h,cpp} (the AT_FORALL_* lists and
the KERNEL_CUDA lines; pytorch/pytorch at 008ec6b1840c, read as facts). A registered
overload the table does not name gets policy `unknown` (dtypeflow then answers unknown).

Line format: `<device> <op overload key> <policy> <measured|source|none>`.
"""
import sys
import torch

LOWER, FP32, SET_OPT, APPEND, PROMOTE, NONE = ("lower_precision_fp", "fp32", "fp32_set_opt_dtype",
                                               "fp32_append_dtype", "promote", "none")
# Facts from PyTorch's aten/src/ATen/autocast_mode.h/.cpp (pytorch/pytorch 008ec6b1840c):
# op name (every overload) or overload key -> CUDA cast policy.
SOURCE_POLICY = {}
for _n in ("_convolution.deprecated _convolution conv1d conv2d conv3d conv_tbc conv_transpose1d "
           "conv_transpose2d.input conv_transpose3d.input convolution prelu addmm addmv addr matmul "
           "einsum mm mv linalg_vecdot linear addbmm baddbmm bmm chain_matmul linalg_multi_dot "
           "_thnn_fused_lstm_cell _thnn_fused_gru_cell lstm_cell gru_cell rnn_tanh_cell rnn_relu_cell "
           "_scaled_dot_product_flash_attention scaled_dot_product_attention cudnn_convolution "
           "cudnn_convolution_transpose").split():
    SOURCE_POLICY[_n] = LOWER
for _n in ("acos asin cosh erfinv exp expm1 log log10 log2 log1p reciprocal rsqrt sinh tan "
           "pow.Tensor_Scalar pow.Tensor_Tensor pow.Scalar softplus layer_norm native_layer_norm "
           "group_norm frobenius_norm.dim nuclear_norm nuclear_norm.dim cosine_similarity "
           "poisson_nll_loss cosine_embedding_loss nll_loss nll_loss2d hinge_embedding_loss kl_div "
           "l1_loss smooth_l1_loss huber_loss mse_loss margin_ranking_loss multilabel_margin_loss "
           "soft_margin_loss triplet_margin_loss multi_margin_loss binary_cross_entropy_with_logits "
           "dist pdist cdist renorm logsumexp upsample_nearest1d _upsample_nearest_exact1d "
           "upsample_nearest2d _upsample_nearest_exact2d upsample_nearest3d _upsample_nearest_exact3d "
           "upsample_linear1d upsample_bilinear2d _upsample_bilinear2d_aa upsample_trilinear3d "
           "upsample_bicubic2d _upsample_bicubic2d_aa").split():
    SOURCE_POLICY[_n] = FP32
for _n in ("prod prod.dim_int prod.dim_Dimname softmax.int softmax.Dimname log_softmax.int "
           "log_softmax.Dimname cumprod cumprod.dimname cumsum cumsum.dimname linalg_vector_norm "
           "linalg_matrix_norm linalg_matrix_norm.str_ord sum sum.dim_IntList sum.dim_DimnameList").split():
    SOURCE_POLICY[_n] = SET_OPT
for _n in "norm.Scalar norm.ScalarOpt_dim norm.names_ScalarOpt_dim".split():
    SOURCE_POLICY[_n] = APPEND
for _n in "addcdiv addcmul atan2 bilinear cross dot vdot grid_sampler index_put tensordot scatter_add".split():
    SOURCE_POLICY[_n] = PROMOTE
# binary_cross_entropy: CUDA registers a kernel that always raises ("unsafe to autocast").
SOURCE_POLICY["binary_cross_entropy"] = "banned"


# The AutocastCPU list of the same source (KERNEL_CPU lines): every overload it names.
SOURCE_POLICY_CPU = {}
for _n in ("conv1d conv1d.padding conv2d conv2d.padding conv3d conv3d.padding bmm mm linalg_vecdot "
           "baddbmm addmm _addmm_activation addbmm linear _convolution.deprecated matmul conv_tbc "
           "mkldnn_rnn_layer conv_transpose1d conv_transpose2d.input conv_transpose3d.input prelu "
           "scaled_dot_product_attention _native_multi_head_attention").split():
    SOURCE_POLICY_CPU[_n] = LOWER
for _n in ("avg_pool3d binary_cross_entropy grid_sampler polar prod prod.dim_int prod.dim_Dimname "
           "quantile quantile.scalar nanquantile nanquantile.scalar stft stft.center cdist grid_sampler_2d "
           "_grid_sampler_2d_cpu_fallback grid_sampler_3d trace view_as_complex cholesky cholesky_inverse "
           "cholesky_solve inverse lu_solve orgqr ormqr pinverse max_pool3d max_unpool2d max_unpool3d "
           "adaptive_avg_pool3d reflection_pad1d reflection_pad2d replication_pad1d replication_pad2d "
           "replication_pad3d mse_loss cosine_embedding_loss nll_loss nll_loss2d hinge_embedding_loss "
           "poisson_nll_loss smooth_l1_loss cross_entropy_loss l1_loss huber_loss margin_ranking_loss "
           "soft_margin_loss triplet_margin_loss multi_margin_loss ctc_loss.IntList ctc_loss.Tensor kl_div "
           "multilabel_margin_loss binary_cross_entropy_with_logits fft_fft fft_ifft fft_fft2 fft_ifft2 "
           "fft_fftn fft_ifftn fft_rfft fft_irfft fft_rfft2 fft_irfft2 fft_rfftn fft_irfftn fft_hfft fft_ihfft "
           "linalg_cond linalg_cond.p_str linalg_matrix_rank linalg_matrix_rank.tol_tensor "
           "linalg_matrix_rank.atol_rtol_tensor linalg_matrix_rank.atol_rtol_float linalg_solve "
           "linalg_cholesky linalg_svdvals linalg_eigvals linalg_eigvalsh linalg_inv "
           "linalg_householder_product linalg_tensorinv linalg_tensorsolve fake_quantize_per_tensor_affine "
           "geqrf _lu_with_info qr svd triangular_solve fractional_max_pool2d fractional_max_pool3d "
           "adaptive_max_pool3d multilabel_margin_loss_forward linalg_qr linalg_cholesky_ex linalg_svd "
           "linalg_eig linalg_eigh linalg_lstsq linalg_inv_ex").split():
    SOURCE_POLICY_CPU[_n] = FP32
for _n in "stack cat index_copy index_copy.dimname".split():
    SOURCE_POLICY_CPU[_n] = PROMOTE


def source_policy(key, table=SOURCE_POLICY):
    name = key.split("::", 1)[1]
    if name in table:
        return table[name]
    if name.endswith(".default"):
        return table.get(name[:-len(".default")], "unknown")
    return "unknown"


def registrations(key):
    regs = torch._C._dispatch_get_registrations_for_dispatch_key(key)
    return sorted(r for r in regs if r.startswith("aten::"))


def overload_of(key):
    ns, name = key.split("::", 1)
    op, _, overload = name.partition(".")
    packet = getattr(getattr(torch.ops, ns), op)
    return getattr(packet, overload or "default")


class _Stop(Exception):
    pass


def _recorder():
    from torch.utils._python_dispatch import TorchDispatchMode

    class Casts(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.casts = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = func.__name__ if hasattr(func, "__name__") else str(func)
            if name.startswith("_to_copy"):
                self.casts.append((args[0].dtype, kwargs.get("dtype")))
                return func(*args, **kwargs)
            raise _Stop
    return Casts


def sample(ty, tensor, name):
    """A type-correct argument for a schema type (shapes never matter: the call stops early)."""
    s = str(ty)
    if s in ("Tensor", "Tensor?"):
        return tensor()
    if s in ("Tensor[]", "Tensor?[]", "List[Tensor]", "List[Optional[Tensor]]"):
        return [tensor(), tensor()]
    if s.endswith("?"):
        return None
    if s.startswith("Optional["):
        return None
    if s in ("int", "SymInt"):
        return 1
    if s in ("float",):
        return 1.0
    if s == "bool":
        return False
    if s in ("Scalar", "number"):
        return 1
    if s in ("int[]", "SymInt[]", "List[int]") or s.startswith("int[") or s.startswith("SymInt["):
        return [1]
    if s in ("float[]", "List[float]"):
        return [1.0]
    if s == "str":
        return {"padding": "same", "mode": "reduced", "interpolation": "linear"}.get(name, "fro")
    if s == "ScalarType":
        return torch.float32
    if s == "Dimname":
        raise ValueError("Dimname: named tensors are not sampled")
    raise ValueError(f"no sample for {s}")


def measure(key):
    """lower_precision_fp / fp32 / promote from the casts autocast makes, or None when untold."""
    try:
        op = overload_of(key)
        schema = op._schema
    except Exception:
        return None
    Casts = _recorder()

    def run(dtypes):
        it = iter(dtypes)
        def tensor():
            return torch.ones(2, dtype=next(it, dtypes[-1]))
        args, kwargs = [], {}
        for a in schema.arguments:
            if a.name == "out":
                return None
            v = sample(a.type, tensor, a.name)
            if a.kwarg_only:
                kwargs[a.name] = v
            else:
                args.append(v)
        mode = Casts()
        with torch.autocast("cpu", dtype=torch.bfloat16), mode:
            try:
                op(*args, **kwargs)
            except _Stop:
                reached.append(key)  # the call got past autocast to the op itself
            except Exception as e:
                # Autocast's wrapper runs first (its key is the highest) and casts before anything
                # else, so a kernel's refusal of the sample shapes comes after the casts recorded;
                # only a refusal of the arguments' types (the binding) says nothing.
                if isinstance(e, TypeError) or "Expected a value of type" in str(e):
                    return None
        return mode.casts
        return mode.casts

    reached = []
    try:
        a = run([torch.float32] * 8)
        b = run([torch.bfloat16] * 8)
        c = run([torch.float32] + [torch.bfloat16] * 7)
    except ValueError:
        return None
    if a is None or b is None or c is None:
        return None
    if any(to == torch.bfloat16 for _, to in a):
        return LOWER
    if any(to == torch.float32 for _, to in b):
        return FP32
    if any(frm == torch.bfloat16 and to == torch.float32 for frm, to in c):
        return PROMOTE
    if len(reached) == 3 and not a and not b and not c and any(str(x.type).startswith(("Tensor", "List[Tensor]")) for x in schema.arguments):
        return NONE  # registered, yet casts none of its tensors (1.13's cat)
    return None


def main():
    lines = []
    counts = {}
    for device, dkey in (("cpu", "AutocastCPU"), ("cuda", "AutocastCUDA")):
        for key in registrations(dkey):
            if device == "cpu":
                measured = measure(key)
                policy, origin = ((measured, "measured") if measured
                                  else (source_policy(key, SOURCE_POLICY_CPU), "source"))
                if origin == "source" and policy == "unknown":
                    origin = "none"
            else:
                policy = source_policy(key)
                origin = "source" if policy != "unknown" else "none"
            counts[(device, origin)] = counts.get((device, origin), 0) + 1
            lines.append(f"{device} {key} {policy} {origin}")
    print(f"# generated by scripts/gen_autocast_lists.py from torch {torch.__version__}: the ops autocast wraps")
    print("# (dispatcher registrations for AutocastCPU/AutocastCUDA) and each one's cast policy;")
    print("# CPU policies measured under torch.autocast('cpu', dtype=torch.bfloat16) where the last column says so,")
    print("# otherwise from PyTorch's aten/src/ATen/autocast_mode.{h,cpp} (pytorch/pytorch 008ec6b1840c) as facts.")
    print("# " + ", ".join(f"{d} {o}: {n}" for (d, o), n in sorted(counts.items())))
    print("# device op policy origin")
    for line in lines:
        print(line)


if __name__ == "__main__":
    sys.exit(main())
