// Hand-checked cases for the binary / comparison / ternary / Python-number
// rules. Every expectation was measured on torch 1.13.1 (CPU and meta).
#include "ops/semantics.h"
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

void expectTensor(const InferOutcome &o, DType d, std::optional<int> rank) {
  ASSERT_EQ(o.status, InferOutcome::Status::Ok) << (o.error ? o.error->message : "");
  ASSERT_FALSE(o.outputs.empty());
  EXPECT_EQ(o.outputs[0].dtype(), d) << o.outputs[0].str();
  EXPECT_EQ(o.outputs[0].rank().value(), rank) << o.outputs[0].str();
}

void expectError(const InferOutcome &o, ErrorKind k = ErrorKind::Semantic) {
  ASSERT_EQ(o.status, InferOutcome::Status::Error);
  EXPECT_EQ(o.error->kind, k) << o.error->message;
}

TEST(OpsBinary, AddTiersAndAlpha) {
  expectTensor(run("aten::add.Tensor", {{"self", "int32:r1"}, {"other", "float64:r0"}}), DType::Float64, 1);
  expectTensor(run("aten::add.Tensor", {{"self", "float16:r1"}, {"other", "float64:r0"}}), DType::Float16, 1);
  expectTensor(run("aten::add.Scalar", {{"self", "bool:r1"}, {"other", "True"}}), DType::Bool, 1);
  expectTensor(run("aten::add.Scalar", {{"self", "float16:r1"}, {"other", "1j"}}), DType::Complex32, 1);
  // alpha=True needs a bool result; float alpha needs a floating result.
  expectError(run("aten::add.Tensor", {{"self", "int32:r1"}, {"other", "int32:r1"}, {"alpha", "True"}}));
  expectError(run("aten::add.Tensor", {{"self", "int32:r1"}, {"other", "int32:r1"}, {"alpha", "2.5"}}));
  expectTensor(run("aten::add.Scalar", {{"self", "bool:r1"}, {"other", "True"}, {"alpha", "2"}}), DType::Bool, 1);
  expectError(run("aten::sub.Tensor", {{"self", "bool:r1"}, {"other", "float32:r1"}}));
}

// Wrapped numbers only (what the refinement pass makes of traced constants):
// TensorIterator promotes only operands of different dtypes, so
// torch.add(5.0, 1.5) is float64 while torch.add(5.0, 3) is float32.
InferOutcome callWrapped(TorchVersion v, const char *key, DType a, DType b) {
  const Schema *s = SchemaTable::of(v).find(key);
  const Value wa = Value::tensor(a, Rank::exact(0)).asWrappedNumber();
  const Value wb = Value::tensor(b, Rank::exact(0)).asWrappedNumber();
  const Value positional[] = {wa, wb};
  BindResult bound = bindArguments(*s, positional, {});
  EXPECT_TRUE(bound.ok()) << bound.error;
  return infer(Semantics::of(v).registry(), *s, bound.args);
}

TEST(OpsBinary, WrappedNumbersOfOneDTypeKeepIt) {
  auto call = [](const char *key, DType a, DType b) {
    const Schema *s = SchemaTable::of(TorchVersion::V1_13).find(key);
    const Value wa = Value::tensor(a, Rank::exact(0)).asWrappedNumber();
    const Value wb = Value::tensor(b, Rank::exact(0)).asWrappedNumber();
    const Value positional[] = {wa, wb};
    BindResult bound = bindArguments(*s, positional, {});
    EXPECT_TRUE(bound.ok()) << bound.error;
    return infer(Semantics::of(TorchVersion::V1_13).registry(), *s, bound.args);
  };
  expectTensor(call("aten::add.Tensor", DType::Float64, DType::Float64), DType::Float64, 0);
  expectTensor(call("aten::mul.Tensor", DType::Float64, DType::Float64), DType::Float64, 0);
  expectTensor(call("aten::add.Tensor", DType::Float64, DType::Int64), DType::Float32, 0);
  expectTensor(call("aten::add.Tensor", DType::Bool, DType::Int64), DType::Int64, 0);
  expectTensor(call("aten::div.Tensor", DType::Int64, DType::Int64), DType::Float32, 0); // then int -> float
  expectTensor(call("aten::div.Tensor", DType::Float64, DType::Float64), DType::Float64, 0);
  expectTensor(call("aten::mul.Tensor", DType::Complex128, DType::Complex128), DType::Complex128, 0);
  // One real tensor among them: result_type as usual.
  const Schema *s = SchemaTable::of(TorchVersion::V1_13).find("aten::add.Tensor");
  const Value mixed[] = {Value::tensor(DType::Float64, Rank::exact(0)),
                         Value::tensor(DType::Float64, Rank::exact(0)).asWrappedNumber()};
  BindResult b = bindArguments(*s, mixed, {});
  expectTensor(infer(Semantics::of(TorchVersion::V1_13).registry(), *s, b.args), DType::Float64, 0);
}

// 2.14 follows result_type there too: torch.add(5.0, 1.5) and
// torch.true_divide(1.0, 2.0) are float32 (scripts/probes/wrapped_numbers.py).
TEST(OpsBinary, WrappedNumbersFollowResultTypeIn214) {
  const auto v = TorchVersion::V2_14;
  expectTensor(callWrapped(v, "aten::add.Tensor", DType::Float64, DType::Float64), DType::Float32, 0);
  expectTensor(callWrapped(v, "aten::div.Tensor", DType::Float64, DType::Float64), DType::Float32, 0);
  expectTensor(callWrapped(v, "aten::mul.Tensor", DType::Int64, DType::Int64), DType::Int64, 0);
  expectTensor(callWrapped(v, "aten::mul.Tensor", DType::Complex128, DType::Complex128), DType::Complex64, 0);
  expectTensor(callWrapped(v, "aten::add.Tensor", DType::Float64, DType::Int64), DType::Float32, 0);
}

TEST(OpsBinary, InPlaceCasts) {
  expectTensor(run("aten::add_.Scalar", {{"self", "uint8:r1"}, {"other", "-1"}}), DType::UInt8, 1);
  expectError(run("aten::add_.Scalar", {{"self", "bool:r1"}, {"other", "1"}}));
  expectError(run("aten::add_.Tensor", {{"self", "int32:r1"}, {"other", "float64:r0"}}));
  expectError(run("aten::div_.Tensor", {{"self", "int32:r1"}, {"other", "int32:r1"}}));
  // A 0-dim destination cannot take a broadcast with a 1-dim operand.
  expectError(run("aten::mul_.Tensor", {{"self", "float32:r0"}, {"other", "float32:r1"}}));
  // Comparisons write into any destination dtype.
  expectTensor(run("aten::eq_.Scalar", {{"self", "int32:r1"}, {"other", "2.5"}}), DType::Int32, 1);
  // float_power_ needs a float64 (or complex128) base.
  expectError(run("aten::float_power_.Scalar", {{"self", "float32:r1"}, {"exponent", "2"}}));
}

TEST(OpsBinary, DivisionAndPow) {
  expectTensor(run("aten::div.Tensor", {{"self", "bool:r1"}, {"other", "bool:r1"}}), DType::Float32, 1);
  expectTensor(run("aten::div.Tensor_mode", {{"self", "int32:r1"}, {"other", "float32:r0"}, {"rounding_mode", "'floor'"}}),
               DType::Float32, 1);
  expectTensor(run("aten::div.Tensor_mode", {{"self", "int32:r1"}, {"other", "int64:r0"}, {"rounding_mode", "'floor'"}}),
               DType::Int32, 1);
  expectError(run("aten::floor_divide", {{"self", "bool:r1"}, {"other", "bool:r1"}}));
  expectTensor(run("aten::floor_divide.Scalar", {{"self", "bool:r1"}, {"other", "2"}}), DType::Int64, 1);
  expectTensor(run("aten::pow.Tensor_Scalar", {{"self", "bool:r1"}, {"exponent", "2"}}), DType::Int64, 1);
  expectError(run("aten::pow.Tensor_Scalar", {{"self", "int32:r0"}, {"exponent", "-1"}}), ErrorKind::ValueDependent);
  expectTensor(run("aten::pow.Tensor_Scalar", {{"self", "int32:r1"}, {"exponent", "-1.0"}}), DType::Float32, 1);
  expectTensor(run("aten::float_power.Tensor_Scalar", {{"self", "int32:r1"}, {"exponent", "1j"}}), DType::Complex128, 1);
  // ldexp = self * 2.0 ** other: Z(f64) * T(f32) -> f32.
  expectTensor(run("aten::ldexp.Tensor", {{"self", "float64:r0"}, {"other", "int32:r1"}}), DType::Float32, 1);
}

TEST(OpsBinary, ComparisonsBitwise) {
  expectTensor(run("aten::lt.Scalar", {{"self", "int8:r1"}, {"other", "1000"}}), DType::Bool, 1);
  expectError(run("aten::lt.Tensor", {{"self", "complex64:r1"}, {"other", "float32:r1"}}));
  expectTensor(run("aten::eq.Tensor", {{"self", "complex64:r1"}, {"other", "float32:r1"}}), DType::Bool, 1);
  expectTensor(run("aten::bitwise_and.Scalar", {{"self", "int32:r1"}, {"other", "True"}}), DType::Int32, 1);
  expectTensor(run("aten::__and__.Scalar", {{"self", "bool:r1"}, {"other", "1"}}), DType::Int64, 1);
  expectError(run("aten::bitwise_and.Scalar", {{"self", "int32:r1"}, {"other", "1.5"}}));
  expectError(run("aten::__lshift__.Tensor", {{"self", "bool:r1"}, {"other", "bool:r1"}}));
  expectError(run("aten::isclose", {{"self", "float32:r1"}, {"other", "float64:r1"}}));
}

TEST(OpsBinary, Ternary) {
  expectTensor(run("aten::where.self", {{"condition", "bool:r1"}, {"self", "int32:r1"}, {"other", "float64:r0"}}),
               DType::Float64, 1);
  expectTensor(run("aten::where.ScalarOther", {{"condition", "uint8:r1"}, {"self", "int32:r1"}, {"other", "2"}}),
               DType::Int32, 1);
  expectError(run("aten::where.self", {{"condition", "float32:r1"}, {"self", "int32:r1"}, {"other", "int32:r1"}}));
  expectTensor(run("aten::clamp", {{"self", "int32:r1"}, {"min", "0.5"}}), DType::Float32, 1);
  expectTensor(run("aten::clamp", {{"self", "bool:r1"}, {"min", "0"}, {"max", "1"}}), DType::Int64, 1);
  expectError(run("aten::clamp", {{"self", "int32:r1"}}));
  expectTensor(run("aten::masked_fill.Scalar", {{"self", "int32:r1"}, {"mask", "bool:r1"}, {"value", "2.5"}}),
               DType::Int32, 1);
  expectError(run("aten::masked_fill.Tensor", {{"self", "int32:r1"}, {"mask", "bool:r1"}, {"value", "float64:r1"}}));
  expectError(run("aten::lerp.Scalar", {{"self", "float32:r1"}, {"end", "float64:r1"}, {"weight", "0.5"}}));
  expectError(run("aten::addcdiv", {{"self", "float32:r1"}, {"tensor1", "int32:r1"}, {"tensor2", "int32:r1"}}));
  expectTensor(run("aten::addcmul", {{"self", "bool:r1"}, {"tensor1", "bool:r1"}, {"tensor2", "int8:r1"}}),
               DType::Int8, 1);
}

TEST(OpsBinary, PythonNumbers) {
  auto o = run("aten::add.int", {{"a", "2"}, {"b", "3"}});
  ASSERT_EQ(o.status, InferOutcome::Status::Ok);
  EXPECT_EQ(o.outputs[0].intValue(), 5);
  o = run("aten::floordiv.int", {{"a", "-7"}, {"b", "2"}});
  EXPECT_EQ(o.outputs[0].intValue(), -4);
  o = run("aten::remainder.int", {{"a", "-7"}, {"b", "3"}});
  EXPECT_EQ(o.outputs[0].intValue(), 2);
  o = run("aten::div.int", {{"a", "7"}, {"b", "2"}});
  EXPECT_EQ(o.outputs[0].numKind(), NumKind::Float);
  o = run("aten::add", {{"a", "2"}, {"b", "2.5"}});
  EXPECT_EQ(o.outputs[0].numKind(), NumKind::Float);
  o = run("aten::ScalarImplicit", {{"a", "int32:r0"}});
  EXPECT_EQ(o.outputs[0].numKind(), NumKind::Int);
  expectError(run("aten::IntImplicit", {{"a", "float32:r0"}}));
  expectError(run("aten::FloatImplicit", {{"a", "float32:r1"}}));
}

TEST(OpsBinary, PythonNumbersComplexAndMath) {
  auto kind = [](const InferOutcome &o) -> std::optional<NumKind> {
    EXPECT_EQ(o.status, InferOutcome::Status::Ok) << (o.error ? o.error->message : "");
    if (o.outputs.empty()) return std::nullopt;
    return o.outputs[0].numKind();
  };
  // Generic Scalar arithmetic has a complex branch; a bool operand asserts.
  EXPECT_EQ(kind(run("aten::add", {{"a", "2"}, {"b", "1.5+0.5j"}})), NumKind::Complex);
  EXPECT_EQ(kind(run("aten::mul", {{"a", "1.5+0.5j"}, {"b", "2.5"}})), NumKind::Complex);
  expectError(run("aten::sub", {{"a", "True"}, {"b", "2"}}));
  // div / floordiv / pow.Scalar_Scalar on Scalars have none.
  expectError(run("aten::div", {{"a", "2"}, {"b", "1.5+0.5j"}}));
  expectError(run("aten::pow.Scalar_Scalar", {{"a", "1.5+0.5j"}, {"b", "2"}}));
  EXPECT_EQ(kind(run("aten::Float.Scalar", {{"a", "1.5+0.5j"}})), NumKind::Float);
  EXPECT_EQ(kind(run("aten::neg.Scalar", {{"a", "1.5+0.5j"}})), NumKind::Complex);
  EXPECT_EQ(kind(run("prim::abs.Scalar", {{"a", "1.5+0.5j"}})), NumKind::Float);
  // eq(2, 1.5+0.5j) pushes no result at all; eq(2.5, 1.5+0.5j) is False.
  auto o = run("aten::eq", {{"a", "2"}, {"b", "1.5+0.5j"}});
  ASSERT_EQ(o.status, InferOutcome::Status::Ok);
  EXPECT_TRUE(o.outputs[0].isTuple() && o.outputs[0].elements().empty()) << o.outputs[0].str();
  EXPECT_EQ(kind(run("aten::eq", {{"a", "2.5"}, {"b", "1.5+0.5j"}})), NumKind::Bool);
  // pow.int_to_int returns a float (343.0), whatever its schema says.
  EXPECT_EQ(kind(run("aten::pow.int_to_int", {{"a", "7"}, {"b", "3"}})), NumKind::Float);
  expectError(run("aten::pow.int", {{"a", "0"}, {"b", "-1"}}), ErrorKind::ValueDependent);
  // Math on numbers: sqrt(int) -> float, floor(float) -> int, round(int) -> float.
  EXPECT_EQ(kind(run("aten::sqrt.int", {{"a", "4"}})), NumKind::Float);
  EXPECT_EQ(kind(run("aten::floor.float", {{"a", "2.5"}})), NumKind::Int);
  EXPECT_EQ(kind(run("aten::round.int", {{"a", "2"}})), NumKind::Float);
  EXPECT_EQ(kind(run("aten::ceil.Scalar", {{"a", "2.5"}})), NumKind::Int);
  EXPECT_EQ(kind(run("aten::sqrt.Scalar", {{"a", "1.5+0.5j"}})), NumKind::Complex);
  expectError(run("aten::floor.Scalar", {{"a", "1.5+0.5j"}}));
  EXPECT_EQ(kind(run("aten::Complex.int_float", {{"x", "1"}, {"y", "2.5"}})), NumKind::Complex);
}

TEST(OpsBinary, ComplexFillValues) {
  // A known complex value with a non-zero imaginary part cannot go into a
  // real non-bool dtype ("value cannot be converted ... without overflow").
  expectError(run("aten::full", {{"size", "[2]"}, {"fill_value", "1.5+0.5j"}, {"dtype", "float32"}}),
              ErrorKind::ValueDependent);
  expectTensor(run("aten::full", {{"size", "[2]"}, {"fill_value", "1.5+0.5j"}, {"dtype", "bool"}}), DType::Bool, 1);
  expectTensor(run("aten::full", {{"size", "[2]"}, {"fill_value", "1.5+0j"}, {"dtype", "int64"}}), DType::Int64, 1);
  expectTensor(run("aten::full", {{"size", "[2]"}, {"fill_value", "1.5+0.5j"}}), DType::Complex64, 1);
  expectError(run("aten::scalar_tensor", {{"s", "1.5+0.5j"}}), ErrorKind::ValueDependent);
  expectError(run("aten::masked_fill.Scalar", {{"self", "int64:r1"}, {"mask", "bool:r1"}, {"value", "1.5+0.5j"}}),
              ErrorKind::ValueDependent);
  expectError(run("aten::addcmul", {{"self", "float32:r1"}, {"tensor1", "float32:r1"}, {"tensor2", "float32:r1"},
                                    {"value", "1.5+0.5j"}}),
              ErrorKind::ValueDependent);
  // clamp keeps a floating self's dtype (bounds are converted, not promoted).
  expectTensor(run("aten::clamp", {{"self", "float32:r1"}, {"min", "1.5+0j"}}), DType::Float32, 1);
  expectError(run("aten::clamp", {{"self", "float32:r1"}, {"min", "1.5+0.5j"}}), ErrorKind::ValueDependent);
  expectError(run("aten::clamp_min", {{"self", "float32:r1"}, {"min", "1.5+0j"}}));
  expectError(run("aten::clamp", {{"self", "int64:r1"}, {"min", "1.5+0j"}}));
}

TEST(OpsBinary, AddReluFusedByTorchScript) {
  // _add_relu promotes like add, but its kernel takes the clamp bound from
  // self's dtype: int8/16/32/64 or float32/64 only, and the bound must fit
  // the result (measured on 1.13 CPU).
  expectTensor(run("aten::_add_relu.Tensor", {{"self", "int8:r1"}, {"other", "int32:r1"}}), DType::Int32, 1);
  expectTensor(run("aten::_add_relu.Tensor", {{"self", "int8:r0"}, {"other", "uint8:r1"}}), DType::UInt8, 1);
  expectTensor(run("aten::_add_relu.Tensor", {{"self", "int32:r1"}, {"other", "int32:r1"}, {"alpha", "2.5"}}),
               DType::Int32, 1); // no alpha check: a float alpha truncates
  expectError(run("aten::_add_relu.Tensor", {{"self", "bool:r1"}, {"other", "float32:r1"}}));
  expectError(run("aten::_add_relu.Tensor", {{"self", "uint8:r1"}, {"other", "uint8:r1"}}));
  expectError(run("aten::_add_relu.Tensor", {{"self", "int32:r0"}, {"other", "int8:r1"}})); // int32 max into int8
  expectError(run("aten::_add_relu.Tensor", {{"self", "float64:r0"}, {"other", "float32:r1"}}));
  expectError(run("aten::_add_relu.Tensor", {{"self", "int32:r1"}, {"other", "bfloat16:r1"}}), ErrorKind::MissingKernel);
  expectTensor(run("aten::_add_relu.Scalar", {{"self", "int64:r1"}, {"other", "2.5"}}), DType::Float32, 1);
  expectError(run("aten::_add_relu.Scalar", {{"self", "float32:r1"}, {"other", "2"}, {"alpha", "1.5+0.5j"}}),
              ErrorKind::ValueDependent);
  // The in-place form returns the kernel's result-dtype tensor, not self.
  expectTensor(run("aten::_add_relu_.Tensor", {{"self", "int8:r1"}, {"other", "int32:r1"}}), DType::Int32, 1);
  expectTensor(run("aten::_add_relu_.Tensor", {{"self", "int32:r1"}, {"other", "int64:r0"}}), DType::Int32, 1);
  expectError(run("aten::_add_relu_.Tensor", {{"self", "int32:r1"}, {"other", "float32:r1"}}));
  expectError(run("aten::_add_relu_.Tensor", {{"self", "float32:r0"}, {"other", "float32:r1"}}));
  expectError(run("aten::_add_relu_.Scalar", {{"self", "int32:r1"}, {"other", "2.5"}}));
}

} // namespace
} // namespace dtf
