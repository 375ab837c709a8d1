// Hand-checked cases for the reduction, softmax, factory, conversion and
// random rules. Every expected value was measured on torch 1.13.1 (CPU, or
// meta where the CPU kernel is missing).
#include "ops/infer.h"
#include "ops/notation.h"
#include "schema/schema.h"

#include "run_op.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace dtf {
namespace {

using test::run;

/// "dtype:rank" of result i ("?" when unknown), or "error".
std::string result(const InferOutcome &o, size_t i = 0) {
  if (o.status == InferOutcome::Status::Error) return "error";
  const Value &v = o.outputs.at(i);
  std::string d = v.dtype() ? std::string(name(*v.dtype())) : "?";
  std::string r = v.rank().value() ? std::to_string(*v.rank().value()) : "?";
  return d + ":" + r;
}

TEST(ReduceRules, DimsAreRangeCheckedWithZeroDimAsOneDim) {
  // A 0-dim tensor takes dims -1 and 0 (c10::maybe_wrap_dim), nothing else.
  EXPECT_EQ(result(run("aten::sum.dim_IntList", {{"self", "float32:r0"}, {"dim", "[1]"}})), "error");
  EXPECT_EQ(result(run("aten::sum.dim_IntList", {{"self", "float32:r0"}, {"dim", "[-1]"}})), "float32:0");
  EXPECT_EQ(result(run("aten::sum.dim_IntList", {{"self", "int8:r0"}, {"dim", "[0]"}, {"keepdim", "True"}})),
            "int64:0");
  EXPECT_EQ(result(run("aten::sum.dim_IntList", {{"self", "float32:r2"}, {"dim", "[0,2]"}})), "error");
  EXPECT_EQ(result(run("aten::mean.dim", {{"self", "float32:r2"}, {"dim", "[-3]"}})), "error");
  EXPECT_EQ(result(run("aten::mean.dim", {{"self", "float32:r2"}, {"dim", "[-2]"}})), "float32:1");
  EXPECT_EQ(result(run("aten::max.dim", {{"self", "float32:r0"}, {"dim", "1"}})), "error");
  EXPECT_EQ(result(run("aten::cumsum", {{"self", "int32:r0"}, {"dim", "-2"}})), "error");
  EXPECT_EQ(result(run("aten::argmax", {{"self", "float32:r1"}, {"dim", "1"}})), "error");
  EXPECT_EQ(result(run("aten::sort", {{"self", "float32:r0"}})), "float32:0"); // dim=-1
  // An unknown rank cannot be checked.
  EXPECT_EQ(result(run("aten::sum.dim_IntList", {{"self", "float32"}, {"dim", "[5]"}})), "float32:?");
}

TEST(ReduceRules, SumPromotesIntegersToInt64AndHonoursDtype) {
  EXPECT_EQ(result(run("aten::sum", {{"self", "int8:r2"}})), "int64:0");
  EXPECT_EQ(result(run("aten::sum", {{"self", "bool:r1"}})), "int64:0");
  EXPECT_EQ(result(run("aten::sum", {{"self", "float16:r1"}})), "float16:0");
  EXPECT_EQ(result(run("aten::sum", {{"self", "float32:r1"}, {"dtype", "int32"}})), "int32:0");
  EXPECT_EQ(result(run("aten::sum", {{"self", "complex64:r1"}, {"dtype", "float32"}})), "float32:0");
  EXPECT_EQ(result(run("aten::sum.dim_IntList", {{"self", "int32:r3"}, {"dim", "[0,2]"}})), "int64:1");
  EXPECT_EQ(result(run("aten::sum.dim_IntList", {{"self", "int32:r3"}, {"dim", "[1]"}, {"keepdim", "True"}})),
            "int64:3");
  EXPECT_EQ(result(run("aten::sum.dim_IntList", {{"self", "float64:r3"}, {"dim", "None"}})), "float64:0");
}

TEST(ReduceRules, MeanNeedsFloatingOutput) {
  EXPECT_EQ(result(run("aten::mean", {{"self", "int64:r1"}})), "error");
  EXPECT_EQ(result(run("aten::mean", {{"self", "int64:r1"}, {"dtype", "float16"}})), "float16:0");
  EXPECT_EQ(result(run("aten::mean", {{"self", "complex64:r1"}, {"dtype", "int64"}})), "error");
  EXPECT_EQ(result(run("aten::mean.dim", {{"self", "complex64:r2"}, {"dim", "[1]"}})), "complex64:1");
  // nanmean divides nansum(dtype=int) by a count: true division -> float32.
  EXPECT_EQ(result(run("aten::nanmean", {{"self", "float64:r1"}, {"dtype", "int32"}})), "float32:0");
  EXPECT_EQ(result(run("aten::nanmean", {{"self", "complex64:r1"}})), "error");
}

TEST(ReduceRules, VarStdAreRealAndMeanKeepsComplex) {
  EXPECT_EQ(result(run("aten::var", {{"self", "complex128:r2"}})), "float64:0");
  EXPECT_EQ(result(run("aten::std", {{"self", "int32:r2"}})), "error");
  auto vm = run("aten::var_mean.dim", {{"self", "complex64:r2"}, {"dim", "[1]"}});
  EXPECT_EQ(result(vm, 0), "float32:1");
  EXPECT_EQ(result(vm, 1), "complex64:1");
}

TEST(ReduceRules, AllAnyKeepUint8) {
  EXPECT_EQ(result(run("aten::all", {{"self", "uint8:r2"}})), "uint8:0");
  EXPECT_EQ(result(run("aten::any", {{"self", "int8:r2"}})), "bool:0");
  EXPECT_EQ(result(run("aten::any.dim", {{"self", "uint8:r2"}, {"dim", "1"}})), "uint8:1");
}

TEST(ReduceRules, MaxDimGivesValuesAndInt64Indices) {
  auto m = run("aten::max.dim", {{"self", "int16:r3"}, {"dim", "1"}, {"keepdim", "True"}});
  EXPECT_EQ(result(m, 0), "int16:3");
  EXPECT_EQ(result(m, 1), "int64:3");
  EXPECT_EQ(result(run("aten::max.dim", {{"self", "complex64:r2"}, {"dim", "0"}})), "error");
  EXPECT_EQ(result(run("aten::argmax", {{"self", "float32:r2"}})), "int64:0");
  EXPECT_EQ(result(run("aten::argmax", {{"self", "float32:r2"}, {"dim", "None"}, {"keepdim", "True"}})),
            "int64:2");
}

TEST(ReduceRules, LinalgNormVectorOrMatrix) {
  auto norm = [](std::vector<std::pair<std::string, std::string>> a) { return result(run("aten::linalg_norm", a)); };
  auto normStr = [](std::vector<std::pair<std::string, std::string>> a) {
    return result(run("aten::linalg_norm.ord_str", a));
  };
  EXPECT_EQ(norm({{"self", "float32:r3"}, {"dim", "[]"}}), "error");
  EXPECT_EQ(norm({{"self", "float32:r3"}, {"dim", "[0,1,2]"}}), "error");
  EXPECT_EQ(norm({{"self", "float32:r3"}, {"ord", "2"}, {"dim", "[0,1]"}}), "float32:1");
  EXPECT_EQ(norm({{"self", "float32:r3"}, {"ord", "3"}, {"dim", "[0,1]"}}), "error");
  EXPECT_EQ(norm({{"self", "float32:r1"}, {"ord", "3"}}), "float32:0"); // a vector norm
  // Singular-value norms reject low precision inputs; others keep them.
  EXPECT_EQ(norm({{"self", "float16:r2"}, {"ord", "2"}}), "error");
  EXPECT_EQ(norm({{"self", "float16:r2"}, {"ord", "1"}}), "float16:0");
  EXPECT_EQ(normStr({{"self", "float16:r2"}, {"ord", "'nuc'"}}), "error");
  EXPECT_EQ(normStr({{"self", "bfloat16:r2"}, {"ord", "'fro'"}}), "bfloat16:0");
  // A string ord is a matrix norm: two dims, at least 2-D.
  EXPECT_EQ(normStr({{"self", "float32:r1"}, {"ord", "'fro'"}}), "error");
  EXPECT_EQ(normStr({{"self", "float32:r3"}, {"ord", "'fro'"}, {"dim", "[0]"}}), "error");
  EXPECT_EQ(normStr({{"self", "complex64:r3"}, {"ord", "'nuc'"}, {"dim", "[0,2]"}}), "float32:1");
  EXPECT_EQ(normStr({{"self", "float32:r3"}, {"ord", "'abc'"}, {"dim", "[0,2]"}}), "error");
}

TEST(ReduceRules, NormsAndLogsumexp) {
  EXPECT_EQ(result(run("aten::linalg_vector_norm", {{"self", "complex64:r1"}, {"dtype", "complex128"}})),
            "float64:0");
  // bf16 -> f16 narrows: rejected.
  EXPECT_EQ(result(run("aten::linalg_vector_norm", {{"self", "bfloat16:r1"}, {"dtype", "float16"}})), "error");
  EXPECT_EQ(result(run("aten::linalg_vector_norm", {{"self", "float32:r1"}, {"dtype", "complex64"}})), "error");
  // norm with dtype= gives exactly dtype, even from an integer input.
  EXPECT_EQ(result(run("aten::norm.ScalarOpt_dtype", {{"self", "int32:r1"}, {"p", "2"}, {"dtype", "float64"}})),
            "float64:0");
  EXPECT_EQ(result(run("aten::norm.Scalar", {{"self", "int32:r1"}})), "error");
  EXPECT_EQ(result(run("aten::logsumexp", {{"self", "int32:r2"}, {"dim", "[1]"}})), "float32:1");
  EXPECT_EQ(result(run("aten::dist", {{"self", "uint8:r1"}, {"other", "complex64:r1"}})), "float32:0");
}

TEST(SoftmaxRules, DtypeWinsAndHalfToFloat) {
  EXPECT_EQ(result(run("aten::softmax.int", {{"self", "float32:r2"}, {"dim", "1"}, {"dtype", "float64"}})),
            "float64:2");
  EXPECT_EQ(result(run("aten::log_softmax.int", {{"self", "bfloat16:r2"}, {"dim", "1"}})), "bfloat16:2");
  EXPECT_EQ(result(run("aten::_softmax", {{"self", "float16:r2"}, {"dim", "1"}, {"half_to_float", "True"}})),
            "float32:2");
  EXPECT_EQ(result(run("aten::_softmax", {{"self", "float32:r2"}, {"dim", "1"}, {"half_to_float", "True"}})),
            "error");
}

TEST(FactoryRules, ArangeAndFullInferFromScalars) {
  EXPECT_EQ(result(run("aten::arange", {{"end", "5"}})), "int64:1");
  EXPECT_EQ(result(run("aten::arange", {{"end", "2.5"}})), "float32:1");
  EXPECT_EQ(result(run("aten::arange.start_step", {{"start", "True"}, {"end", "5"}, {"step", "1"}})), "int64:1");
  EXPECT_EQ(result(run("aten::arange", {{"end", "1j"}})), "error");
  EXPECT_EQ(result(run("aten::full", {{"size", "[2,3]"}, {"fill_value", "True"}})), "bool:2");
  EXPECT_EQ(result(run("aten::full", {{"size", "[2]"}, {"fill_value", "2"}})), "int64:1");
  EXPECT_EQ(result(run("aten::full", {{"size", "[2]"}, {"fill_value", "1j"}})), "complex64:1");
  EXPECT_EQ(result(run("aten::full", {{"size", "[2]"}, {"fill_value", "2.5"}, {"dtype", "int32"}})), "int32:1");
  EXPECT_EQ(result(run("aten::scalar_tensor", {{"s", "2"}})), "float32:0");
  EXPECT_EQ(result(run("aten::zeros", {{"size", "[2,3,4]"}})), "float32:3");
  EXPECT_EQ(result(run("aten::linspace", {{"start", "1j"}, {"end", "2"}, {"steps", "4"}})), "complex64:1");
}

TEST(FactoryRules, LikeNewAndNumToTensor) {
  EXPECT_EQ(result(run("aten::full_like", {{"self", "int32:r2"}, {"fill_value", "2.5"}})), "int32:2");
  EXPECT_EQ(result(run("aten::new_zeros", {{"self", "int8:r3"}, {"size", "[4]"}})), "int8:1");
  EXPECT_EQ(result(run("prim::NumToTensor.Scalar", {{"a", "2.5"}})), "float64:0");
  EXPECT_EQ(result(run("prim::NumToTensor.Scalar", {{"a", "3"}})), "int64:0");
  EXPECT_EQ(result(run("aten::tensor.float", {{"t", "2.5"}})), "float32:0");
  EXPECT_EQ(result(run("aten::tril_indices", {{"row", "3"}, {"col", "3"}})), "int64:2");
  EXPECT_EQ(result(run("aten::one_hot", {{"self", "int64:r1"}})), "int64:2");
  EXPECT_EQ(result(run("aten::one_hot", {{"self", "int32:r1"}})), "error");
}

TEST(SoftmaxRules, MaskedSoftmaxOfTheFusedAttention) {
  // CPU: a bool mask of self's shape, mask_type 1 or 2; float32/64 and bfloat16.
  std::vector<std::pair<std::string, std::string>> a{{"self", "float32:r4"}, {"mask", "bool:r4"}, {"mask_type", "1"}};
  EXPECT_EQ(result(run("aten::_masked_softmax", a)), "float32:4");
  a[0] = {"self", "bfloat16:r4"};
  EXPECT_EQ(result(run("aten::_masked_softmax", a)), "bfloat16:4");
  a[0] = {"self", "float16:r4"};
  EXPECT_EQ(result(run("aten::_masked_softmax", a)), "error"); // no CPU kernel
  a[0] = {"self", "float32:r4"};
  a[1] = {"mask", "float32:r4"};
  EXPECT_EQ(result(run("aten::_masked_softmax", a)), "error"); // "Mask should be a boolean tensor"
  a[1] = {"mask", "bool:r2"};
  EXPECT_EQ(result(run("aten::_masked_softmax", a)), "error"); // no [B, T] mask on CPU
  a[1] = {"mask", "bool:r4"};
  a[2] = {"mask_type", "None"};
  EXPECT_EQ(result(run("aten::_masked_softmax", a)), "error"); // "Mask Type should be defined"
  a[2] = {"mask_type", "0"};
  EXPECT_EQ(result(run("aten::_masked_softmax", a)), "error"); // src_mask: CUDA only
}

TEST(ReduceRules, DeprecatedAminmax) {
  EXPECT_EQ(result(run("aten::_aminmax", {{"self", "int32:r2"}}), 1), "int32:0");
  EXPECT_EQ(result(run("aten::_aminmax.dim", {{"self", "float64:r2"}, {"dim", "1"}})), "float64:1");
  EXPECT_EQ(result(run("aten::_aminmax.dim", {{"self", "bool:r2"}, {"dim", "-1"}, {"keepdim", "True"}}), 1), "bool:2");
  // aminmax's 1.13 quirk: a 0-dim self with keepdim gives shape [1].
  EXPECT_EQ(result(run("aten::_aminmax.dim", {{"self", "uint8:r0"}, {"dim", "0"}, {"keepdim", "True"}})), "uint8:1");
  EXPECT_EQ(result(run("aten::_aminmax.dim", {{"self", "float32:r2"}, {"dim", "2"}})), "error");
}

TEST(FactoryRules, DimArangeIsInt64OfOneDim) {
  EXPECT_EQ(result(run("aten::_dim_arange", {{"like", "float16:r3"}, {"dim", "1"}})), "int64:1");
  EXPECT_EQ(result(run("aten::_dim_arange", {{"like", "bool:r2"}, {"dim", "-2"}})), "int64:1");
  EXPECT_EQ(result(run("aten::_dim_arange", {{"like", "float32:r0"}, {"dim", "0"}})), "error");
  EXPECT_EQ(result(run("aten::_dim_arange", {{"like", "float32:r2"}, {"dim", "2"}})), "error");
}

TEST(RandomRules, DefaultsAndBounds) {
  EXPECT_EQ(result(run("aten::randint", {{"high", "3"}, {"size", "[2]"}})), "int64:1");
  EXPECT_EQ(result(run("aten::randint", {{"high", "3"}, {"size", "[2]"}, {"dtype", "None"}})), "float32:1");
  EXPECT_EQ(result(run("aten::randint", {{"high", "3"}, {"size", "[2]"}, {"dtype", "complex64"}})), "error");
  EXPECT_EQ(result(run("aten::randperm", {{"n", "3"}})), "int64:1");
  EXPECT_EQ(result(run("aten::rand", {{"size", "[2,2]"}})), "float32:2");
  EXPECT_EQ(result(run("aten::multinomial", {{"self", "float32:r2"}, {"num_samples", "1"}})), "int64:2");
  EXPECT_EQ(result(run("aten::multinomial", {{"self", "int64:r1"}, {"num_samples", "1"}})), "error");
  EXPECT_EQ(result(run("aten::normal.Tensor_Tensor", {{"mean", "float32:r1"}, {"std", "float64:r1"}})),
            "float32:1");
}

TEST(ConversionRules, TargetsAndViews) {
  EXPECT_EQ(result(run("aten::to.dtype", {{"self", "complex64:r2"}, {"dtype", "float32"}})), "float32:2");
  EXPECT_EQ(result(run("aten::type_as", {{"self", "int32:r2"}, {"other", "float64:r0"}})), "float64:2");
  EXPECT_EQ(result(run("aten::_cast_Long", {{"self", "float32:r1"}})), "int64:1");
  EXPECT_EQ(result(run("aten::view_as_real", {{"self", "complex32:r1"}})), "float16:2");
  EXPECT_EQ(result(run("aten::view_as_complex", {{"self", "bfloat16:r2"}})), "error");
  EXPECT_EQ(result(run("aten::view.dtype", {{"self", "float32:r0"}, {"dtype", "float64"}})), "error");
  EXPECT_EQ(result(run("aten::view.dtype", {{"self", "float32:r0"}, {"dtype", "int32"}})), "int32:0");
}

} // namespace
} // namespace dtf
