// Hand-checked cases for the unary, unary-preserving and activation rules.
// Every expectation was measured on torch 1.13 (CPU, and meta for the
// dtypes the CPU kernels lack).
#include "ops/semantics.h"
#include "ops/infer.h"
#include "ops/notation.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dtf {
namespace {

/// Run `key` on `name=notation` arguments (names from the schema).
InferOutcome run(const std::string &key, const std::vector<std::pair<std::string, std::string>> &args) {
  const Schema *schema = SchemaTable::of(TorchVersion::V1_13).find(key);
  EXPECT_NE(schema, nullptr) << key;
  std::vector<std::pair<std::string, Value>> named;
  for (const auto &[n, text] : args) {
    int i = schema->argIndex(n);
    EXPECT_GE(i, 0) << key << " has no argument " << n;
    auto v = parseNotation(text, schema->args[i].type.get());
    EXPECT_TRUE(v.value) << v.error;
    named.emplace_back(n, *v.value);
  }
  BindResult b = bindArguments(*schema, {}, named);
  EXPECT_TRUE(b.ok()) << b.error;
  return infer(Semantics::of(TorchVersion::V1_13).registry(), *schema, b.args);
}

/// The single result as `dtype:rN`, or `error` when PyTorch raises.
std::string result(const std::string &key, const std::vector<std::pair<std::string, std::string>> &args) {
  InferOutcome o = run(key, args);
  if (o.status == InferOutcome::Status::Error) return "error";
  EXPECT_EQ(o.status, InferOutcome::Status::Ok) << key;
  EXPECT_EQ(o.outputs.size(), 1u);
  const Value &v = o.outputs.at(0);
  if (!v.dtype()) return "unknown";
  auto r = v.rank().value();
  return std::string(name(*v.dtype())) + (r ? ":r" + std::to_string(*r) : std::string(":r?"));
}

TEST(OpsUnary, IntToFloat) {
  EXPECT_EQ(result("aten::sin", {{"self", "int32:r1"}}), "float32:r1");
  EXPECT_EQ(result("aten::sqrt", {{"self", "bool:r0"}}), "float32:r0");
  EXPECT_EQ(result("aten::exp", {{"self", "float16:r1"}}), "float16:r1"); // CPU gap, meta f16
  EXPECT_EQ(result("aten::log", {{"self", "complex128:r1"}}), "complex128:r1");
  EXPECT_EQ(result("aten::reciprocal", {{"self", "uint8:r1"}}), "float32:r1");
  EXPECT_EQ(result("aten::special_expm1", {{"self", "int64:r1"}}), "float32:r1");
  EXPECT_EQ(result("aten::polygamma", {{"n", "1"}, {"self", "int16:r1"}}), "float32:r1");
  EXPECT_EQ(result("aten::mvlgamma", {{"self", "int32:r1"}, {"p", "1"}}), "float32:r1");
  EXPECT_EQ(result("aten::mvlgamma", {{"self", "bool:r1"}, {"p", "1"}}), "error");
}

TEST(OpsUnary, InPlaceIntToFloatRaisesForIntegers) {
  EXPECT_EQ(result("aten::sin_", {{"self", "int32:r1"}}), "error");
  EXPECT_EQ(result("aten::sigmoid_", {{"self", "bool:r0"}}), "error");
  EXPECT_EQ(result("aten::tanh_", {{"self", "bfloat16:r1"}}), "bfloat16:r1");
  EXPECT_EQ(result("aten::mvlgamma_", {{"self", "int64:r1"}, {"p", "1"}}), "error"); // "step must be nonzero"
}

TEST(OpsUnary, ComplexRejections) {
  EXPECT_EQ(result("aten::deg2rad", {{"self", "complex64:r1"}}), "error");
  EXPECT_EQ(result("aten::deg2rad", {{"self", "int8:r1"}}), "float32:r1");
  EXPECT_EQ(result("aten::logit", {{"self", "complex64:r1"}}), "error");
  EXPECT_EQ(result("aten::sign", {{"self", "complex64:r0"}}), "error");
  EXPECT_EQ(result("aten::sgn", {{"self", "complex64:r0"}}), "complex64:r0");
  EXPECT_EQ(result("aten::ceil", {{"self", "complex128:r1"}}), "error");
  EXPECT_EQ(result("aten::ceil", {{"self", "int16:r1"}}), "int16:r1");
  EXPECT_EQ(result("aten::isposinf", {{"self", "complex64:r1"}}), "error");
  EXPECT_EQ(result("aten::isnan", {{"self", "complex64:r1"}}), "bool:r1");
}

TEST(OpsUnary, PreservingQuirks) {
  EXPECT_EQ(result("aten::neg", {{"self", "bool:r1"}}), "error");
  EXPECT_EQ(result("aten::neg_", {{"self", "uint8:r1"}}), "uint8:r1");
  EXPECT_EQ(result("aten::abs", {{"self", "complex32:r1"}}), "float16:r1");
  EXPECT_EQ(result("aten::abs_", {{"self", "complex64:r1"}}), "error");
  EXPECT_EQ(result("aten::square", {{"self", "bool:r1"}}), "int64:r1");
  EXPECT_EQ(result("aten::square_", {{"self", "bool:r1"}}), "error");
  EXPECT_EQ(result("aten::angle", {{"self", "int64:r0"}}), "float32:r0");
  EXPECT_EQ(result("aten::angle", {{"self", "complex128:r1"}}), "float64:r1");
  EXPECT_EQ(result("aten::imag", {{"self", "float32:r1"}}), "error");
  EXPECT_EQ(result("aten::imag", {{"self", "complex32:r1"}}), "float16:r1");
  EXPECT_EQ(result("aten::real", {{"self", "int32:r1"}}), "int32:r1");
  EXPECT_EQ(result("aten::logical_not", {{"self", "float64:r1"}}), "bool:r1");
  EXPECT_EQ(result("aten::logical_not_", {{"self", "float64:r1"}}), "float64:r1");
  EXPECT_EQ(result("aten::positive", {{"self", "bool:r1"}}), "error");
}

TEST(OpsUnary, FillAndCopy) {
  EXPECT_EQ(result("aten::fill.Scalar", {{"self", "int32:r1"}, {"value", "2.5"}}), "int32:r1");
  EXPECT_EQ(result("aten::fill_.Tensor", {{"self", "bool:r1"}, {"value", "float64:r0"}}), "bool:r1");
  EXPECT_EQ(result("aten::fill.Tensor", {{"self", "float32:r1"}, {"value", "float32:r1"}}), "error");
  EXPECT_EQ(result("aten::copy_", {{"self", "int8:r1"}, {"src", "complex64:r1"}}), "int8:r1");
  EXPECT_EQ(result("aten::copy", {{"self", "int8:r0"}, {"src", "float32:r1"}}), "error");
}

TEST(OpsUnary, Activations) {
  EXPECT_EQ(result("aten::relu", {{"self", "int8:r1"}}), "int8:r1");
  EXPECT_EQ(result("aten::relu", {{"self", "bool:r1"}}), "error");
  EXPECT_EQ(result("aten::relu_", {{"self", "complex64:r1"}}), "error");
  EXPECT_EQ(result("aten::hardtanh_", {{"self", "bool:r0"}}), "error");
  EXPECT_EQ(result("aten::hardtanh", {{"self", "int32:r1"}, {"min_val", "2.5"}}), "int32:r1");
  EXPECT_EQ(result("aten::gelu", {{"self", "int64:r1"}}), "int64:r1"); // CPU gap, meta int64
  EXPECT_EQ(result("aten::hardswish", {{"self", "complex64:r1"}}), "error");
  EXPECT_EQ(result("aten::glu", {{"self", "float32:r0"}}), "error");
  EXPECT_EQ(result("aten::softshrink", {{"self", "float32:r1"}, {"lambd", "-1"}}), "error");
  EXPECT_EQ(result("aten::prelu", {{"self", "bfloat16:r1"}, {"weight", "float32:r1"}}), "bfloat16:r1");
  EXPECT_EQ(result("aten::prelu", {{"self", "float32:r1"}, {"weight", "float64:r1"}}), "error");
}

TEST(OpsUnary, ActivationBackwards) {
  EXPECT_EQ(result("aten::sigmoid_backward", {{"grad_output", "int32:r1"}, {"output", "float16:r0"}}),
            "float16:r1");
  EXPECT_EQ(result("aten::threshold_backward",
                   {{"grad_output", "uint8:r1"}, {"self", "int8:r1"}, {"threshold", "0.5"}}),
            "int16:r1");
  // oneDNN path of the CPU kernel: float32 self needs a float32/bfloat16 grad.
  EXPECT_EQ(result("aten::gelu_backward", {{"grad_output", "float64:r1"}, {"self", "float32:r1"}}), "error");
  EXPECT_EQ(result("aten::gelu_backward",
                   {{"grad_output", "float64:r1"}, {"self", "float32:r1"}, {"approximate", "'tanh'"}}),
            "float64:r1");
  EXPECT_EQ(result("aten::mish_backward", {{"grad_output", "float32:r1"}, {"self", "float16:r1"}}),
            "float16:r1");
  EXPECT_EQ(result("aten::glu_backward", {{"grad_output", "float32:r1"}, {"self", "float64:r1"}, {"dim", "0"}}),
            "error");
}

} // namespace
} // namespace dtf
