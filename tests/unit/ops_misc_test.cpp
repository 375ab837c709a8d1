// Hand-checked cases for the misc-coverage rules (polar, resize_, fake
// quantization). Every expectation was measured on torch 1.13.1 (CPU).
#include "ops/infer.h"
#include "ops/notation.h"

#include "run_op.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace dtf {
namespace {

using test::run;

using test::expectError;
using test::expectTensor;

TEST(OpsMisc, PolarNeedsOneFloatingDtype) {
  expectTensor(run("aten::polar", {{"abs", "float32:r0"}, {"angle", "float32:r1"}}), 0, DType::Complex64, 1);
  expectTensor(run("aten::polar", {{"abs", "float64:r1"}, {"angle", "float64:r1"}}), 0, DType::Complex128, 1);
  expectError(run("aten::polar", {{"abs", "float32:r1"}, {"angle", "float64:r1"}}));
  expectError(run("aten::polar", {{"abs", "bfloat16:r1"}, {"angle", "bfloat16:r1"}}));
  expectError(run("aten::polar", {{"abs", "int64:r1"}, {"angle", "int64:r1"}}));
}

// .out overloads (out_variants.cpp), measured: the functional result when
// out has its dtype; out of another dtype is unknown (cast or raise); the
// functional's dtype errors hold; dtype= must name out's dtype.
TEST(OpsMisc, OutOverloadsTakeTheFunctionalResultWhenOutMatches) {
  expectTensor(run("aten::add.out", {{"self", "float32:r2"}, {"other", "int64:r0"}, {"out", "float32:r1"}}), 0,
               DType::Float32, 2);
  expectTensor(run("aten::cat.out", {{"tensors", "[int32:r1,int64:r1]"}, {"out", "int64:r3"}}), 0, DType::Int64, 1);
  auto cast = run("aten::add.out", {{"self", "float32:r2"}, {"other", "int64:r0"}, {"out", "float64:r2"}});
  ASSERT_EQ(cast.status, InferOutcome::Status::Ok);
  EXPECT_FALSE(cast.outputs[0].dtype().has_value()) << cast.outputs[0].str();
  expectError(run("aten::sub.out", {{"self", "bool:r1"}, {"other", "bool:r1"}, {"out", "bool:r1"}}));
  auto dtypeArg = run("aten::sum.IntList_out", {{"self", "int32:r2"}, {"dim", "[0]"}, {"dtype", "int64"}, {"out", "int32:r1"}});
  ASSERT_EQ(dtypeArg.status, InferOutcome::Status::Ok);
  EXPECT_FALSE(dtypeArg.outputs[0].dtype().has_value()) << dtypeArg.outputs[0].str();
}

TEST(OpsMisc, MultiResultOutOverloadsNeedEveryOutToMatch) {
  // max.dim_max (1.13 names its indices argument max_values): both of their result's dtype -> the functional's results.
  auto o = run("aten::max.dim_max",
               {{"self", "float16:r3"}, {"dim", "1"}, {"keepdim", "False"}, {"max", "float16:r1"}, {"max_values", "int64:r1"}});
  expectTensor(o, 0, DType::Float16, 2);
  expectTensor(o, 1, DType::Int64, 2);
  // int32 indices: 1.13 raises, another values dtype casts: neither is the functional's answer.
  auto other = run("aten::max.dim_max",
                   {{"self", "float16:r3"}, {"dim", "1"}, {"keepdim", "True"}, {"max", "float16:r1"}, {"max_values", "int32:r1"}});
  ASSERT_EQ(other.status, InferOutcome::Status::Ok);
  for (const Value &v : other.outputs) {
    EXPECT_FALSE(v.dtype().has_value()) << v.str();
    EXPECT_EQ(v.rank(), Rank::exact(3)) << v.str();
  }
  // A single result whose out argument is not named `out`.
  expectTensor(run("aten::tanh_backward.grad_input",
                   {{"grad_output", "float32:r2"}, {"output", "float32:r2"}, {"grad_input", "float32:r0"}}),
               0, DType::Float32, 2);
}

TEST(OpsMisc, ResizeAndUpsampleBackwardRanks) {
  expectTensor(run("aten::resize_", {{"self", "int8:r0"}, {"size", "[2,3]"}}), 0, DType::Int8, 2);
  expectTensor(run("aten::upsample_nearest2d_backward",
                   {{"grad_output", "bfloat16:r4"}, {"output_size", "[2,2]"}, {"input_size", "[1,1,1,1]"}}),
               0, DType::BFloat16, 4);
  expectError(run("aten::upsample_nearest2d_backward",
                  {{"grad_output", "float32:r1"}, {"output_size", "[2,2]"}, {"input_size", "[1,1,1,1]"}}));
}

TEST(OpsMisc, FakeQuantizeKeepsFloatingSelfAndChecksZeroPoint) {
  auto o = run("aten::fake_quantize_per_tensor_affine_cachemask",
               {{"self", "float16:r0"}, {"scale", "0.1"}, {"zero_point", "0"}, {"quant_min", "0"}, {"quant_max", "255"}});
  expectTensor(o, 0, DType::Float16, 0);
  expectTensor(o, 1, DType::Bool, 0);
  expectError(run("aten::fake_quantize_per_tensor_affine",
                  {{"self", "int32:r1"}, {"scale", "0.1"}, {"zero_point", "0"}, {"quant_min", "0"}, {"quant_max", "255"}}));
  // Tensor qparams: any dtype is read with item().
  expectTensor(run("aten::fake_quantize_per_tensor_affine.tensor_qparams",
                   {{"self", "float64:r1"}, {"scale", "int64:r0"}, {"zero_point", "complex64:r1"},
                    {"quant_min", "0"}, {"quant_max", "255"}}),
               0, DType::Float64, 1);
  // Per channel: zero_point must be int32, float32 or float16.
  expectError(run("aten::fake_quantize_per_channel_affine",
                  {{"self", "float32:r1"}, {"scale", "float32:r1"}, {"zero_point", "int64:r1"}, {"axis", "0"},
                   {"quant_min", "0"}, {"quant_max", "255"}}));
  expectTensor(run("aten::fake_quantize_per_channel_affine",
                   {{"self", "float32:r2"}, {"scale", "float32:r1"}, {"zero_point", "float16:r1"}, {"axis", "1"},
                    {"quant_min", "0"}, {"quant_max", "255"}}),
               0, DType::Float32, 2);
}

} // namespace
} // namespace dtf
