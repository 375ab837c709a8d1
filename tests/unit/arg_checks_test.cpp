// Errors PyTorch raises for an argument's value alone (ops/arg_checks.h),
// each measured on torch 1.13.1 (CPU), for empty tensors too: a known bad
// value is refused, a good or unknown one is not.
#include "run_op.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

using test::expectError;
using test::expectTensor;
using test::run;

TEST(ArgChecks, PoolingWindows) {
  // padding over half the kernel, negative padding, zero dilation, wrong list lengths
  expectError(run("aten::max_pool2d", {{"self", "float32:r4"}, {"kernel_size", "[2,2]"}, {"padding", "[2,2]"}}));
  expectError(run("aten::avg_pool1d", {{"self", "float32:r3"}, {"kernel_size", "[2]"}, {"padding", "[-1]"}}));
  expectError(run("aten::max_pool1d", {{"self", "float32:r3"}, {"kernel_size", "[2]"}, {"dilation", "[0]"}}));
  expectError(run("aten::max_pool2d", {{"self", "float32:r4"}, {"kernel_size", "[2,2,2]"}}));
  expectError(run("aten::avg_pool2d", {{"self", "float32:r4"}, {"kernel_size", "[2]"}, {"divisor_override", "0"}}));
  // a kernel of 3 takes padding 1; one value stands for every dim
  expectTensor(run("aten::max_pool2d", {{"self", "float32:r4"}, {"kernel_size", "[3]"}, {"padding", "[1]"}}), 0,
               DType::Float32, 4);
  expectTensor(run("aten::avg_pool2d", {{"self", "float32:r4"}, {"kernel_size", "[2]"}, {"divisor_override", "-1"}}),
               0, DType::Float32, 4);
  // an unknown padding is not refused
  expectTensor(run("aten::max_pool2d", {{"self", "float32:r4"}, {"kernel_size", "[2,2]"}, {"padding", "[int,int]"}}), 0,
               DType::Float32, 4);
}

TEST(ArgChecks, SizesAndCounts) {
  expectError(run("aten::narrow", {{"self", "float32:r2"}, {"dim", "0"}, {"start", "0"}, {"length", "-1"}}));
  expectTensor(run("aten::narrow", {{"self", "float32:r2"}, {"dim", "0"}, {"start", "0"}, {"length", "0"}}), 0,
               DType::Float32, 2);
  expectError(run("aten::pixel_shuffle", {{"self", "float32:r4"}, {"upscale_factor", "0"}}));
  expectError(run("aten::upsample_nearest2d", {{"self", "float32:r4"}, {"output_size", "[0,2]"}}));
  expectError(run("aten::upsample_bilinear2d.vec",
                  {{"input", "float32:r4"}, {"output_size", "None"}, {"align_corners", "False"}, {"scale_factors", "[-1.0,2.0]"}}));
  expectError(run("aten::adaptive_avg_pool2d", {{"self", "float32:r4"}, {"output_size", "[-1,2]"}}));
  expectTensor(run("aten::adaptive_avg_pool2d", {{"self", "float32:r4"}, {"output_size", "[0,2]"}}), 0, DType::Float32, 4);
  expectError(run("aten::constant_pad_nd", {{"self", "float32:r2"}, {"pad", "[1,1,1]"}}));
  expectError(run("aten::constant_pad_nd", {{"self", "float32:r2"}, {"pad", "[1,1,1,1,1,1]"}}));
  expectTensor(run("aten::constant_pad_nd", {{"self", "float32:r2"}, {"pad", "[1,1,1,1]"}}), 0, DType::Float32, 2);
  expectError(run("aten::histc", {{"self", "float32:r1"}, {"bins", "0"}}));
  expectError(run("aten::fft_fft", {{"self", "float32:r1"}, {"n", "0"}}));
  expectError(run("aten::fft_fftn", {{"self", "float32:r2"}, {"s", "[0,2]"}}));
  expectTensor(run("aten::fft_fftn", {{"self", "float32:r2"}, {"s", "[-1,2]"}}), 0, DType::Complex64, 2);
  expectError(run("aten::one_hot", {{"self", "int64:r1"}, {"num_classes", "0"}}));
  expectTensor(run("aten::one_hot", {{"self", "int64:r1"}, {"num_classes", "-1"}}), 0, DType::Int64, 2);
}

TEST(ArgChecks, ModesAndRanges) {
  expectError(run("aten::gelu", {{"self", "float32:r1"}, {"approximate", "'foo'"}}));
  expectTensor(run("aten::gelu", {{"self", "float32:r1"}, {"approximate", "'tanh'"}}), 0, DType::Float32, 1);
  expectError(run("aten::searchsorted.Tensor", {{"sorted_sequence", "float32:r1"}, {"self", "float32:r1"}, {"side", "'mid'"}}));
  expectError(run("aten::searchsorted.Tensor",
                  {{"sorted_sequence", "float32:r1"}, {"self", "float32:r1"}, {"side", "'left'"}, {"right", "True"}}));
  expectTensor(run("aten::searchsorted.Tensor",
                   {{"sorted_sequence", "float32:r1"}, {"self", "float32:r1"}, {"side", "'right'"}, {"right", "False"}}),
               0, DType::Int64, 1);
  expectError(run("aten::scatter_reduce.two", {{"self", "float32:r1"}, {"dim", "0"}, {"index", "int64:r1"},
                                               {"src", "float32:r1"}, {"reduce", "'add'"}}));
  expectError(run("aten::fft_fft", {{"self", "float32:r1"}, {"norm", "'bad'"}}));
  expectError(run("aten::quantile.scalar", {{"self", "float32:r1"}, {"q", "1.5"}}));
  expectError(run("aten::bernoulli.p", {{"self", "float32:r1"}, {"p", "nan"}}));
  expectError(run("aten::normal.float_float", {{"mean", "0.0"}, {"std", "-1.0"}, {"size", "[3]"}}));
  expectError(run("aten::randint.low", {{"low", "2"}, {"high", "2"}, {"size", "[3]"}}));
  expectError(run("aten::uniform", {{"self", "float32:r1"}, {"from", "2.0"}, {"to", "1.0"}}));
  expectError(run("aten::huber_loss", {{"self", "float32:r1"}, {"target", "float32:r1"}, {"delta", "0.0"}}));
  expectError(run("aten::mse_loss", {{"self", "float32:r1"}, {"target", "float32:r1"}, {"reduction", "3"}}));
  expectError(run("aten::cdist", {{"x1", "float32:r2"}, {"x2", "float32:r2"}, {"p", "-1.0"}}));
  // an unknown p passes
  expectTensor(run("aten::bernoulli.p", {{"self", "float32:r1"}, {"p", "float"}}), 0, DType::Float32, 1);
}

TEST(ArgChecks, DimLists) {
  expectError(run("aten::flip", {{"self", "float32:r2"}, {"dims", "[0,-2]"}}));
  expectError(run("aten::flip", {{"self", "float32:r2"}, {"dims", "[6]"}})); // out of range: every op's dims
  expectTensor(run("aten::flip", {{"self", "float32:r2"}, {"dims", "[0,1]"}}), 0, DType::Float32, 2);
  expectError(run("aten::movedim.intlist", {{"self", "float32:r3"}, {"source", "[0,0]"}, {"destination", "[1,2]"}}));
  expectError(run("aten::movedim.intlist", {{"self", "float32:r3"}, {"source", "[0]"}, {"destination", "[1,2]"}}));
  expectError(run("aten::roll", {{"self", "float32:r2"}, {"shifts", "[1,2]"}, {"dims", "[0]"}}));
  expectError(run("aten::roll", {{"self", "float32:r2"}, {"shifts", "[]"}, {"dims", "[]"}}));
  expectTensor(run("aten::roll", {{"self", "float32:r2"}, {"shifts", "[1]"}, {"dims", "[]"}}), 0, DType::Float32, 2);
  expectError(run("aten::tensordot",
                  {{"self", "float32:r2"}, {"other", "float32:r2"}, {"dims_self", "[0,1]"}, {"dims_other", "[0]"}}));
  // tile's dims are repeat counts, not dims
  expectTensor(run("aten::tile", {{"self", "float32:r2"}, {"dims", "[6]"}}), 0, DType::Float32, 2);
}

// Found by a differential fuzz of infer-op against libtorch (31,659 calls).
TEST(ArgChecks, RanksAndFormats) {
  // channels_last needs 4 dims, channels_last_3d 5, whatever the op keeping self's shape
  expectError(run("aten::clone", {{"self", "int32:r2"}, {"memory_format", "channels_last"}}));
  expectError(run("aten::to.dtype", {{"self", "int8:r4"}, {"dtype", "float32"}, {"memory_format", "channels_last_3d"}}));
  expectTensor(run("aten::clone", {{"self", "int32:r4"}, {"memory_format", "channels_last"}}), 0, DType::Int32, 4);
  expectError(run("aten::bucketize.Tensor", {{"self", "float32:r1"}, {"boundaries", "float32:r2"}}));
  expectError(run("aten::addmm", {{"self", "float32:r2"}, {"mat1", "float32:r2"}, {"mat2", "float32:r1"}}));
  expectError(run("aten::embedding", {{"weight", "float32:r1"}, {"indices", "int64:r1"}}));
  expectError(run("aten::cdist", {{"x1", "float32:r1"}, {"x2", "float32:r2"}}));
  expectError(run("aten::swapaxes", {{"self", "float32:r1"}, {"axis0", "5"}, {"axis1", "0"}}));
  expectError(run("aten::slice.Tensor", {{"self", "float32:r1"}, {"step", "0"}}));
  expectError(run("aten::hann_window", {{"window_length", "-1"}}));
  expectError(run("aten::fft_fft", {{"self", "float32:r0"}}));
  expectError(run("aten::size.int", {{"self", "float32:r0"}, {"dim", "-1"}})); // no dims to name, not even -1
  expectError(run("aten::fft_ifft2", {{"self", "float32:r2"}, {"s", "[2]"}})); // dim's default has two
  expectTensor(run("aten::fft_rfftn", {{"self", "float32:r2"}, {"s", "[2]"}}), 0, DType::Complex64, 2);
  // pdist's kernel runs any dtype and a 1-D input for fewer than two rows: not refused
  expectTensor(run("aten::_pdist_forward", {{"self", "int64:r1"}}), 0, DType::Int64, 1);
}

// A reduction other than 0, 1, 2: most losses return the elementwise loss
// then (l1: float32 [2,2]), some reduce anyway (nll_loss): rank unknown.
TEST(ArgChecks, LossReductionOutsideTheEnum) {
  expectTensor(run("aten::l1_loss", {{"self", "float32:r2"}, {"target", "int64:r1"}, {"reduction", "3"}}), 0,
               DType::Float32, std::nullopt);
  expectTensor(run("aten::nll_loss", {{"self", "float32:r2"}, {"target", "int64:r1"}, {"reduction", "5"}}), 0,
               DType::Float32, std::nullopt);
  expectError(run("aten::mse_loss", {{"self", "float32:r2"}, {"target", "float32:r2"}, {"reduction", "3"}}));
}

} // namespace
} // namespace dtf
