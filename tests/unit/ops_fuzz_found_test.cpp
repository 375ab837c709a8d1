//===- tests/unit/ops_fuzz_found_test.cpp - cases found by fuzzing infer-op -===//
//
// Disagreements with PyTorch 1.13 found by drawing realistic op calls
// (random dtypes, ranks 0..3, argument values) and running them in torch.
//
//===----------------------------------------------------------------------===//
#include "run_op.h"

namespace dtf::test {
namespace {

TEST(FuzzFound, NumbersThatDoNotFitTheKernelsType) {
  // c10's checked conversion of a Scalar (value-dependent errors).
  expectError(run("aten::addmm", {{"self", "float32:r2"}, {"mat1", "float32:r2"}, {"mat2", "float32:r2"}, {"alpha", "1j"}}));
  expectTensor(run("aten::addmm", {{"self", "int64:r2"}, {"mat1", "int64:r2"}, {"mat2", "int64:r2"}, {"alpha", "2.5"}}), 0,
               DType::Int64, 2);
  // addmm converts in float32 for bfloat16, addmv in bfloat16 itself.
  expectTensor(run("aten::addmm", {{"self", "bfloat16:r2"}, {"mat1", "bfloat16:r2"}, {"mat2", "bfloat16:r2"},
                                   {"alpha", "3.395e38"}}), 0, DType::BFloat16, 2);
  expectError(run("aten::addmv", {{"self", "bfloat16:r1"}, {"mat", "bfloat16:r2"}, {"vec", "bfloat16:r1"},
                                  {"alpha", "3.395e38"}}));
  // an attention mask filled with -1e9 in float16 raises; -inf fits
  expectError(run("aten::masked_fill.Scalar", {{"self", "float16:r2"}, {"mask", "bool:r2"}, {"value", "-1e9"}}));
  expectTensor(run("aten::masked_fill.Scalar", {{"self", "float16:r2"}, {"mask", "bool:r2"}, {"value", "-inf"}}), 0,
               DType::Float16, 2);
  expectError(run("aten::masked_fill.Scalar", {{"self", "int64:r2"}, {"mask", "bool:r2"}, {"value", "-inf"}}));
  expectError(run("aten::full", {{"size", "[2]"}, {"fill_value", "300"}, {"dtype", "uint8"}}));
  expectTensor(run("aten::full", {{"size", "[2]"}, {"fill_value", "-255"}, {"dtype", "uint8"}}), 0, DType::UInt8, 1);
  expectError(run("aten::add.Tensor", {{"self", "uint8:r1"}, {"other", "uint8:r1"}, {"alpha", "256"}}));
  expectError(run("aten::Int.Scalar", {{"a", "1.5+0.5j"}}));
  expectError(run("aten::histc", {{"self", "float32:r1"}, {"max", "1j"}}));
  expectError(run("aten::multi_margin_loss", {{"self", "float32:r2"}, {"target", "int64:r1"}, {"p", "3"}}));
}

TEST(FuzzFound, ValueChecksOfKnownNumbers) {
  // arange/range bounds (ATen's checks, in the accumulate type)
  expectError(run("aten::arange.start", {{"start", "5"}, {"end", "0"}}));
  expectError(run("aten::arange.start_step", {{"start", "0"}, {"end", "5"}, {"step", "0"}}));
  expectError(run("aten::arange", {{"end", "nan"}}));
  expectError(run("aten::arange", {{"end", "-0.5"}}));
  expectTensor(run("aten::arange", {{"end", "-0.5"}, {"dtype", "int64"}}), 0, DType::Int64, 1); // truncated to 0: empty
  expectTensor(run("aten::arange.start_step", {{"start", "5"}, {"end", "0"}, {"step", "-1"}}), 0, DType::Int64, 1);
  expectError(run("aten::range", {{"start", "5"}, {"end", "0"}}));
  expectError(run("aten::linspace", {{"start", "0"}, {"end", "1"}, {"steps", "-1"}}));
  // an integral result divided by a number that is zero in its width
  expectError(run("aten::floor_divide.Scalar", {{"self", "int64:r1"}, {"other", "0"}}));
  expectError(run("aten::remainder.Scalar", {{"self", "uint8:r1"}, {"other", "256"}}));
  expectTensor(run("aten::remainder.Scalar", {{"self", "int32:r1"}, {"other", "256"}}), 0, DType::Int32, 1);
  expectTensor(run("aten::fmod.Scalar", {{"self", "float32:r1"}, {"other", "0"}}), 0, DType::Float32, 1);
  // Python numbers: float division by zero is inf, integer floordiv/remainder raise (or crash libtorch)
  EXPECT_EQ(run("aten::div.int", {{"a", "5"}, {"b", "0"}}).status, InferOutcome::Status::Ok);
  EXPECT_EQ(run("aten::floordiv.float", {{"a", "5.0"}, {"b", "0.0"}}).status, InferOutcome::Status::Ok);
  expectError(run("aten::remainder", {{"a", "5"}, {"b", "0"}}));
  expectError(run("aten::__round_to_zero_floordiv.int", {{"a", "5"}, {"b", "0"}}));
  expectError(run("aten::divmod.float", {{"x", "5.0"}, {"y", "0.0"}}));
  expectError(run("aten::ceil.Scalar", {{"a", "nan"}}));
  expectError(run("aten::Int.Scalar", {{"a", "1e18"}})); // a float becomes a C++ int
  // NaN bounds and norms
  expectError(run("aten::renorm", {{"self", "float32:r2"}, {"p", "0"}, {"dim", "0"}, {"maxnorm", "1"}}));
  expectError(run("aten::renorm", {{"self", "float32:r2"}, {"p", "2"}, {"dim", "0"}, {"maxnorm", "nan"}}));
  expectError(run("aten::histc", {{"self", "float32:r1"}, {"min", "0"}, {"max", "inf"}}));
  expectTensor(run("aten::histc", {{"self", "float32:r1"}, {"min", "-inf"}, {"max", "-inf"}}), 0, DType::Float32, 1);
  expectTensor(run("aten::clamp", {{"self", "int8:r1"}, {"min", "1e39"}, {"max", "nan"}}), 0, DType::Float32, 1);
  expectError(run("aten::clamp", {{"self", "int8:r1"}, {"min", "1e39"}, {"max", "1"}}));
  expectError(run("aten::softshrink", {{"self", "float32:r1"}, {"lambd", "nan"}}));
  expectError(run("aten::celu", {{"self", "float32:r1"}, {"alpha", "0"}}));
  // rrelu: the mean of the bounds in eval, each bound in training
  expectTensor(run("aten::rrelu", {{"self", "bfloat16:r1"}, {"lower", "255.5"}, {"upper", "3.395e38"}}), 0,
               DType::BFloat16, 1);
  expectError(run("aten::rrelu", {{"self", "bfloat16:r1"}, {"lower", "255.5"}, {"upper", "3.395e38"}, {"training", "True"}}));
}

TEST(FuzzFound, SizeListsPyTorchRefuses) {
  expectError(run("aten::zeros", {{"size", "[2,-1]"}}));
  expectTensor(run("aten::zeros", {{"size", "[0]"}}), 0, DType::Float32, 1);
  expectError(run("aten::zeros", {{"size", "[4611686018427387904,4]"}})); // numel beyond int64
  expectError(run("aten::randn", {{"size", "[-1]"}}));
  expectError(run("aten::new_zeros", {{"self", "int32:r1"}, {"size", "[-3]"}}));
  expectError(run("aten::eye", {{"n", "-1"}}));
  expectError(run("aten::tril_indices", {{"row", "3"}, {"col", "-1"}}));
  expectError(run("aten::randperm", {{"n", "-1"}}));
  expectError(run("aten::reshape", {{"self", "float32:r2"}, {"shape", "[-1,-1]"}}));
  expectError(run("aten::view", {{"self", "float32:r2"}, {"size", "[-2,3]"}}));
  expectTensor(run("aten::view", {{"self", "float32:r2"}, {"size", "[-1]"}}), 0, DType::Float32, 1);
  expectError(run("aten::expand", {{"self", "float32:r2"}, {"size", "[-1,2,3]"}})); // -1 in a new leading dim
  expectTensor(run("aten::expand", {{"self", "float32:r2"}, {"size", "[4,-1,3]"}}), 0, DType::Float32, 3);
  expectError(run("aten::repeat", {{"self", "float32:r2"}, {"repeats", "[-1,1]"}}));
}

TEST(FuzzFound, DimsAndCountsOutOfRange) {
  expectError(run("aten::softmax.int", {{"self", "float32:r2"}, {"dim", "2"}}));
  expectError(run("aten::transpose.int", {{"self", "float32:r2"}, {"dim0", "0"}, {"dim1", "-3"}}));
  expectError(run("aten::sum.dim_IntList", {{"self", "float32:r2"}, {"dim", "[0,5]"}}));
  expectTensor(run("aten::softmax.int", {{"self", "float32:r0"}, {"dim", "-1"}}), 0, DType::Float32, 0);
  expectTensor(run("aten::unsqueeze", {{"self", "float32:r2"}, {"dim", "2"}}), 0, DType::Float32, 3);
  expectError(run("aten::unsqueeze", {{"self", "float32:r2"}, {"dim", "3"}}));
  expectError(run("aten::cat", {{"tensors", "[float32:r2,float32:r2]"}, {"dim", "2"}}));
  expectTensor(run("aten::stack", {{"tensors", "[float32:r2,float32:r2]"}, {"dim", "2"}}), 0, DType::Float32, 3);
  expectError(run("aten::stack", {{"tensors", "[float32:r2,float32:r2]"}, {"dim", "3"}}));
  expectError(run("aten::chunk", {{"self", "float32:r2"}, {"chunks", "0"}}));
  expectError(run("aten::topk", {{"self", "float32:r2"}, {"k", "-1"}}));
  expectError(run("aten::conv2d", {{"input", "float32:r4"}, {"weight", "float32:r4"}, {"stride", "[0,0]"}}));
  expectError(run("aten::conv2d", {{"input", "float32:r4"}, {"weight", "float32:r4"}, {"groups", "0"}}));
  expectError(run("aten::max_pool2d", {{"self", "float32:r4"}, {"kernel_size", "[2,2]"}, {"stride", "[0,0]"}}));
  expectTensor(run("aten::max_pool2d", {{"self", "float32:r4"}, {"kernel_size", "[2,2]"}, {"stride", "[]"}}), 0,
               DType::Float32, 4);
}

TEST(FuzzFound, FeatureDropoutNeedsTwoDimsOnlyWhenItDraws) {
  // train=False, p == 0 or p == 1 return without drawing the feature noise.
  expectTensor(run("aten::feature_dropout", {{"input", "float16:r1"}, {"p", "0.5"}, {"train", "False"}}), 0,
               DType::Float16, 1);
  expectTensor(run("aten::feature_alpha_dropout", {{"input", "float32:r0"}, {"p", "1.0"}, {"train", "True"}}), 0,
               DType::Float32, 0);
  expectTensor(run("aten::feature_dropout_", {{"self", "float32:r1"}, {"p", "0.1"}, {"train", "False"}}), 0,
               DType::Float32, 1);
  expectError(run("aten::feature_dropout", {{"input", "float32:r1"}, {"p", "0.5"}, {"train", "True"}}));
}

TEST(FuzzFound, DropoutProbabilityRange) {
  expectError(run("aten::dropout", {{"input", "float32:r2"}, {"p", "2.0"}, {"train", "False"}}));
  expectError(run("aten::alpha_dropout_", {{"self", "float32:r2"}, {"p", "-0.5"}, {"train", "True"}}));
  expectError(run("aten::native_dropout", {{"input", "float32:r2"}, {"p", "1.5"}, {"train", "True"}}));
  expectTensor(run("aten::native_dropout", {{"input", "float32:r2"}, {"p", "1.5"}, {"train", "False"}}), 0,
               DType::Float32, 2);
}

TEST(FuzzFound, TrilTriuNeedTwoDims) {
  for (const char *k : {"aten::tril", "aten::triu", "aten::tril_", "aten::triu_"}) {
    expectError(run(k, {{"self", "int64:r1"}}));
    expectError(run(k, {{"self", "float32:r0"}}));
    expectTensor(run(k, {{"self", "int64:r3"}}), 0, DType::Int64, 3);
  }
}

TEST(FuzzFound, Rot90Dims) {
  expectError(run("aten::rot90", {{"self", "float64:r1"}}));
  expectError(run("aten::rot90", {{"self", "float64:r3"}, {"dims", "[-2,-1,0]"}}));
  expectError(run("aten::rot90", {{"self", "float64:r2"}, {"dims", "[1,-1]"}}));
  expectTensor(run("aten::rot90", {{"self", "int8:r3"}, {"k", "1"}, {"dims", "[-1,0]"}}), 0, DType::Int8, 3);
}

TEST(FuzzFound, PermuteNeedsOneDimPerDim) {
  expectError(run("aten::permute", {{"self", "int32:r3"}, {"dims", "[1,2]"}}));
  expectError(run("aten::permute", {{"self", "int32:r0"}, {"dims", "[0]"}}));
  expectError(run("aten::permute", {{"self", "int32:r2"}, {"dims", "[1,1]"}}));
  expectError(run("aten::permute", {{"self", "int32:r2"}, {"dims", "[0,2]"}}));
  expectTensor(run("aten::permute", {{"self", "int32:r0"}, {"dims", "[]"}}), 0, DType::Int32, 0);
  expectTensor(run("aten::permute", {{"self", "int32:r3"}, {"dims", "[2,-3,1]"}}), 0, DType::Int32, 3);
}

TEST(FuzzFound, TransposeTAtMostTwoDims) {
  expectError(run("aten::t", {{"self", "uint8:r3"}}));
  expectTensor(run("aten::t", {{"self", "uint8:r1"}}), 0, DType::UInt8, 1);
}

TEST(FuzzFound, ExpandAsCannotDropDims) {
  expectError(run("aten::expand_as", {{"self", "int16:r1"}, {"other", "int32:r0"}}));
  expectTensor(run("aten::expand_as", {{"self", "int16:r1"}, {"other", "int32:r3"}}), 0, DType::Int16, 3);
  // view_as / reshape_as depend on the element count only.
  expectTensor(run("aten::reshape_as", {{"self", "int16:r3"}, {"other", "int32:r1"}}), 0, DType::Int16, 1);
}

TEST(FuzzFound, RepeatInterleaveRepeatsRank) {
  expectError(run("aten::repeat_interleave.self_Tensor", {{"self", "float32:r3"}, {"repeats", "int64:r2"}}));
}

TEST(FuzzFound, NllLossRanksAndByteTargets) {
  expectError(run("aten::nll_loss", {{"self", "float32:r4"}, {"target", "int64:r3"}}));
  expectError(run("aten::nll_loss", {{"self", "float32:r2"}, {"target", "int64:r2"}}));
  // nll_loss_nd goes through nll_loss2d from 3 dims on: int64 targets only.
  expectError(run("aten::nll_loss_nd", {{"self", "float32:r4"}, {"target", "uint8:r3"}}));
  expectError(run("aten::nll_loss_nd", {{"self", "float32:r3"}, {"target", "uint8:r2"}}));
  expectTensor(run("aten::nll_loss_nd", {{"self", "float32:r2"}, {"target", "uint8:r1"}}), 0, DType::Float32, 0);
  expectTensor(run("aten::nll_loss_nd", {{"self", "float32:r4"}, {"target", "int64:r3"}, {"reduction", "0"}}), 0,
               DType::Float32, 3);
}

TEST(FuzzFound, FlipAndDiagonalDims) {
  expectError(run("aten::fliplr", {{"self", "int64:r1"}}));
  expectError(run("aten::flipud", {{"self", "int64:r0"}}));
  expectTensor(run("aten::flipud", {{"self", "int64:r1"}}), 0, DType::Int64, 1);
  expectError(run("aten::diag_embed", {{"self", "int64:r0"}}));
  expectError(run("aten::diag_embed", {{"self", "int64:r1"}, {"dim1", "-1"}, {"dim2", "-1"}}));
  expectError(run("aten::diag_embed", {{"self", "int64:r2"}, {"dim1", "0"}, {"dim2", "3"}}));
  expectTensor(run("aten::diag_embed", {{"self", "int64:r2"}, {"dim1", "0"}, {"dim2", "2"}}), 0, DType::Int64, 3);
  expectError(run("aten::diagonal", {{"self", "float32:r2"}, {"dim1", "0"}, {"dim2", "-2"}}));
  expectError(run("aten::linalg_diagonal", {{"A", "int32:r2"}, {"offset", "1"}, {"dim1", "-1"}}));
  expectTensor(run("aten::linalg_diagonal", {{"A", "int32:r3"}, {"dim1", "2"}, {"dim2", "0"}}), 0, DType::Int32, 2);
}

TEST(FuzzFound, CrossEntropyWithClassProbabilities) {
  // The weight takes part in the promotion (float32 * complex32 -> complex64).
  expectTensor(run("aten::cross_entropy_loss",
                   {{"self", "float32:r1"}, {"target", "float32:r1"}, {"weight", "complex32:r1"}, {"reduction", "2"}}),
               0, DType::Complex64, 0);
  expectTensor(run("aten::cross_entropy_loss",
                   {{"self", "float32:r2"}, {"target", "float32:r2"}, {"weight", "float64:r1"}, {"reduction", "1"}}),
               0, DType::Float64, 0);
  // reduction none sums the class dim away.
  expectTensor(run("aten::cross_entropy_loss", {{"self", "float32:r2"}, {"target", "float32:r2"}, {"reduction", "0"}}),
               0, DType::Float32, 1);
  expectTensor(run("aten::cross_entropy_loss", {{"self", "float32:r1"}, {"target", "float32:r1"}, {"reduction", "0"}}),
               0, DType::Float32, 0);
  expectError(run("aten::cross_entropy_loss", {{"self", "float32:r2"}, {"target", "float32:r2"}, {"weight", "float64:r0"}}));
}

TEST(FuzzFound, TrapezoidDxAndDim) {
  expectError(run("aten::trapezoid.dx", {{"y", "float32:[2,3]"}, {"dx", "True"}}));
  // A y whose dim may be empty: trapezoid returns zeros in y's dtype before any check, so the
  // error is only possible and the dtype either.
  auto mayBeEmpty = run("aten::trapezoid.dx", {{"y", "float32:r2"}, {"dx", "True"}});
  EXPECT_TRUE(mayBeEmpty.possibleError.has_value());
  expectTensor(mayBeEmpty, 0, DType::Float32, 1);
  expectTensor(run("aten::trapezoid.dx", {{"y", "int32:[3,0]"}, {"dx", "True"}}), 0, DType::Int32, 1);
  EXPECT_EQ(run("aten::trapz.dx", {{"y", "uint8:r2"}, {"dx", "0.5"}}).outputs[0].dtypes(),
            DTypeSet::join(DType::Float32, DType::UInt8));
  expectError(run("aten::cumulative_trapezoid.dx", {{"y", "float32:r2"}, {"dx", "1j"}}));
  expectError(run("aten::trapz.dx", {{"y", "uint8:r2"}, {"dx", "0.5"}, {"dim", "-3"}}));
  expectTensor(run("aten::trapz.dx", {{"y", "uint8:[2,3]"}, {"dx", "0.5"}, {"dim", "-2"}}), 0, DType::Float32, 1);
}

TEST(FuzzFound, TensorRequiresGradNeedsFloatingOrComplex) {
  expectError(run("aten::tensor.int", {{"t", "2"}, {"requires_grad", "True"}}));
  expectError(run("aten::tensor.float", {{"t", "2.5"}, {"dtype", "int64"}, {"requires_grad", "True"}}));
  expectTensor(run("aten::tensor.int", {{"t", "2"}, {"dtype", "float16"}, {"requires_grad", "True"}}), 0,
               DType::Float16, 0);
  expectError(run("aten::tensor", {{"data", "[1,2]"}, {"requires_grad", "True"}}));
  expectTensor(run("aten::tensor", {{"data", "[1.5,2.5]"}, {"requires_grad", "True"}}), 0, DType::Float32, 1);
}

TEST(FuzzFound, IndexFillComplexScalar) {
  expectError(run("aten::index_fill.int_Scalar", {{"self", "int64:r0"}, {"dim", "0"}, {"index", "int64:r1"}, {"value", "0.5-1j"}}));
  expectError(run("aten::index_fill_.int_Scalar", {{"self", "float32:r1"}, {"dim", "0"}, {"index", "int64:r1"}, {"value", "1j"}}));
  expectTensor(run("aten::index_fill.int_Scalar", {{"self", "complex64:r1"}, {"dim", "0"}, {"index", "int64:r1"}, {"value", "1j"}}),
               0, DType::Complex64, 1);
}

TEST(FuzzFound, SortStableNeedsStable) {
  expectError(run("aten::sort.stable", {{"self", "bfloat16:r3"}, {"stable", "None"}, {"descending", "True"}}));
  expectTensor(run("aten::sort.stable", {{"self", "bfloat16:r3"}, {"stable", "False"}}), 1, DType::Int64, 3);
}

TEST(FuzzFound, NativeDropoutTrainNoneTrains) {
  expectError(run("aten::native_dropout", {{"input", "int8:r2"}, {"p", "1e-05"}, {"train", "None"}}));
  expectTensor(run("aten::native_dropout", {{"input", "int8:r2"}, {"p", "1e-05"}, {"train", "False"}}), 0, DType::Int8, 2);
}

TEST(FuzzFound, FftDimsMustExist) {
  expectError(run("aten::fft_fft2", {{"self", "int32:r0"}, {"norm", "'ortho'"}}));
  expectError(run("aten::fft_ifft2", {{"self", "float32:r1"}}));
  expectError(run("aten::fft_irfft", {{"self", "complex64:r2"}, {"dim", "2"}}));
  expectTensor(run("aten::fft_fft2", {{"self", "int32:r2"}}), 0, DType::Complex64, 2);
}

TEST(FuzzFound, TakeAlongDimAndCosineSimilarityDims) {
  expectError(run("aten::take_along_dim", {{"self", "uint8:r3"}, {"indices", "int64:r1"}, {"dim", "1"}}));
  expectTensor(run("aten::take_along_dim", {{"self", "uint8:r3"}, {"indices", "int64:r1"}}), 0, DType::UInt8, 1);
  expectError(run("aten::cosine_similarity", {{"x1", "float16:r0"}, {"x2", "int32:r1"}}));
  expectTensor(run("aten::cosine_similarity", {{"x1", "float32:r2"}, {"x2", "int32:r1"}}), 0, DType::Float32, 1);
}

TEST(FuzzFound, NotationRejectsMalformedOperands) {
  for (const char *bad : {"j", "+j", "1+j", "int8:", "float32:r999"})
    EXPECT_FALSE(parseNotation(bad, nullptr).value.has_value()) << bad;
  for (const char *good : {"1j", "2.5j", "1+2j", "1.j", "-1j", "1e-3j"})
    EXPECT_TRUE(parseNotation(good, nullptr).value.has_value()) << good;
  std::string deep = std::string(100000, '[') + "1" + std::string(100000, ']');
  auto r = parseNotation(deep, nullptr);
  EXPECT_FALSE(r.value.has_value());
  EXPECT_LT(r.error.size(), 200u);
}

// Issue 27: found by a differential run of 25,506 random calls over 1,281 ops against libtorch 1.13.
TEST(FuzzFound, TensorStartMustBeAZeroDimIntegralTensor) {
  expectError(run("aten::narrow.Tensor", {{"self", "int32:r1"}, {"dim", "0"}, {"start", "bfloat16:r0"}, {"length", "1"}}));
  expectError(run("aten::narrow.Tensor", {{"self", "int32:r1"}, {"dim", "0"}, {"start", "int64:r1"}, {"length", "1"}}));
  expectError(run("aten::narrow.Tensor", {{"self", "int32:r1"}, {"dim", "0"}, {"start", "bool:r0"}, {"length", "1"}}));
  expectTensor(run("aten::narrow.Tensor", {{"self", "int32:r1"}, {"dim", "0"}, {"start", "uint8:r0"}, {"length", "1"}}), 0,
               DType::Int32, 1);
}

TEST(FuzzFound, BackwardScalarsAreConvertedByTheKernel) {
  // eval: the bounds are read as doubles before anything (an imaginary part raises)
  expectError(run("aten::rrelu_with_noise_backward",
                  {{"grad_output", "int16:r0"}, {"self", "uint8:r0"}, {"noise", "complex64:r2"}, {"lower", "1j"},
                   {"upper", "0.5+0.5j"}, {"training", "False"}, {"self_is_result", "False"}}));
  expectTensor(run("aten::rrelu_with_noise_backward",
                   {{"grad_output", "float32:r1"}, {"self", "float32:r1"}, {"noise", "complex64:r1"}, {"lower", "1j"},
                    {"upper", "0.5+0.5j"}, {"training", "True"}, {"self_is_result", "False"}}),
               0, DType::Complex64, 1);
  // the slope (lower + upper) / 2 into float32 (bfloat16's compute type)
  expectError(run("aten::rrelu_with_noise_backward",
                  {{"grad_output", "bfloat16:r1"}, {"self", "bfloat16:r1"}, {"noise", "float32:r1"}, {"lower", "1e39"},
                   {"upper", "1e39"}, {"training", "False"}, {"self_is_result", "False"}}));
  // shrink and threshold convert into the dtype itself, integers included
  expectError(run("aten::softshrink_backward", {{"grad_output", "bfloat16:r1"}, {"self", "bfloat16:r1"}, {"lambd", "3.395e38"}}));
  expectError(run("aten::threshold_backward", {{"grad_output", "uint8:r1"}, {"self", "uint8:r1"}, {"threshold", "300"}}));
  expectTensor(run("aten::elu_backward", {{"grad_output", "bfloat16:r1"}, {"alpha", "3.395e38"}, {"scale", "1"},
                                          {"input_scale", "1"}, {"is_result", "False"}, {"self_or_result", "bfloat16:r1"}}),
               0, DType::BFloat16, 1);
}

TEST(FuzzFound, RefusalsThatRanksAndLiteralsDecide) {
  expectError(run("aten::select_scatter", {{"self", "float32:r0"}, {"src", "float32:r0"}, {"dim", "0"}, {"index", "0"}}));
  expectError(run("aten::slice_scatter", {{"self", "float32:r0"}, {"src", "float32:r0"}, {"dim", "0"}}));
  expectError(run("aten::unique_dim", {{"self", "float32:r0"}, {"dim", "0"}}));
  expectError(run("aten::unique_dim_consecutive", {{"self", "int8:r0"}, {"dim", "-1"}}));
  expectError(run("aten::tensordot", {{"self", "float32:r0"}, {"other", "float32:r1"}, {"dims_self", "[0]"}, {"dims_other", "[0]"}}));
  expectError(run("aten::tensordot", {{"self", "float32:r2"}, {"other", "float32:r2"}, {"dims_self", "[2]"}, {"dims_other", "[0]"}}));
  expectTensor(run("aten::tensordot", {{"self", "float32:r0"}, {"other", "float32:r1"}, {"dims_self", "[]"}, {"dims_other", "[]"}}),
               0, DType::Float32, 1);
  expectError(run("aten::im2col", {{"self", "float32:r0"}, {"kernel_size", "[1,1]"}, {"dilation", "[1,1]"}, {"padding", "[0,0]"}, {"stride", "[1,1]"}}));
  expectError(run("aten::searchsorted.Scalar", {{"sorted_sequence", "float32:r2"}, {"self", "1"}}));
  expectError(run("aten::searchsorted.Scalar", {{"sorted_sequence", "float32:r0"}, {"self", "1"}}));
  expectError(run("aten::searchsorted.Tensor", {{"sorted_sequence", "float32:r0"}, {"self", "float32:r1"}}));
  expectTensor(run("aten::searchsorted.Tensor", {{"sorted_sequence", "float32:r2"}, {"self", "float32:r2"}}), 0,
               DType::Int64, 2);
  expectError(run("aten::empty.memory_format", {{"size", "[2,3]"}, {"memory_format", "preserve_format"}}));
  expectError(run("aten::empty.memory_format", {{"size", "[2,3]"}, {"memory_format", "channels_last"}}));
  expectTensor(run("aten::empty.memory_format", {{"size", "[1,2,3,4]"}, {"memory_format", "channels_last"}}), 0,
               DType::Float32, 4);
  expectError(run("aten::affine_grid_generator", {{"theta", "float32:r3"}, {"size", "[1,2]"}, {"align_corners", "False"}}));
}

} // namespace
} // namespace dtf::test
