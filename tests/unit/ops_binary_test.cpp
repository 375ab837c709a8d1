// Hand-checked cases for the binary / comparison / ternary / Python-number
// rules. Every expectation was measured on torch 1.13.1 (CPU and meta).
#include "ops/infer.h"
#include "ops/notation.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace dtf {
namespace {

InferOutcome run(const std::string &key, const std::vector<std::pair<std::string, std::string>> &named) {
  const Schema *s = SchemaTable::builtin().find(key);
  EXPECT_NE(s, nullptr) << key;
  std::vector<std::pair<std::string, Value>> args;
  for (auto &[n, text] : named) {
    int i = s->argIndex(n);
    EXPECT_GE(i, 0) << key << " " << n;
    auto v = parseNotation(text, s->args[i].type.get());
    EXPECT_TRUE(v.value.has_value()) << text << ": " << v.error;
    args.emplace_back(n, *v.value);
  }
  BindResult b = bindArguments(*s, {}, args);
  EXPECT_TRUE(b.ok()) << b.error;
  return infer(Registry::builtin(), *s, b.args);
}

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

} // namespace
} // namespace dtf
