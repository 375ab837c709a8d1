// Hand-checked cases for the quantize family (ops/families/quantized.cpp).
// Every expectation was measured on torch 1.13 and 2.14.1 alike
// (scripts/probes/quantized.py).
#include "ops/infer.h"
#include "ops/notation.h"

#include "run_op.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace dtf {
namespace {

using test::expectError;
using test::expectTensor;
using test::run;
using test::runIn;

TEST(OpsQuantized, QuantizePerTensorGivesItsDtypeArgument) {
  for (auto [dt, d] : {std::pair{"quint8", DType::QUInt8}, std::pair{"qint8", DType::QInt8},
                       std::pair{"qint32", DType::QInt32}, std::pair{"quint4x2", DType::QUInt4x2}})
    expectTensor(run("aten::quantize_per_tensor",
                     {{"self", "float32:r2"}, {"scale", "0.1"}, {"zero_point", "0"}, {"dtype", dt}}),
                 0, d, 2);
  // self float32 only; dtype quantized only; a quantized self has no kernel.
  expectError(run("aten::quantize_per_tensor", {{"self", "float64:r2"}, {"scale", "0.1"}, {"zero_point", "0"}, {"dtype", "quint8"}}));
  expectError(run("aten::quantize_per_tensor", {{"self", "float32:r2"}, {"scale", "0.1"}, {"zero_point", "0"}, {"dtype", "uint8"}}));
  expectError(run("aten::quantize_per_tensor", {{"self", "quint8:r2"}, {"scale", "0.1"}, {"zero_point", "0"}, {"dtype", "quint8"}}));
  // Tensor qparams of any plain dtype; a quantized one sends the call to QuantizedCPU.
  expectTensor(run("aten::quantize_per_tensor.tensor_qparams",
                   {{"self", "float32:r1"}, {"scale", "float64:r1"}, {"zero_point", "int32:r1"}, {"dtype", "qint8"}}),
               0, DType::QInt8, 1);
  expectError(run("aten::quantize_per_tensor.tensor_qparams",
                  {{"self", "float32:r1"}, {"scale", "quint8:r1"}, {"zero_point", "int32:r1"}, {"dtype", "qint8"}}));
}

TEST(OpsQuantized, AnUnknownDtypeArgumentRangesOverTheQuantizedDtypes) {
  // An unknown dtype (or self) may be a quantized one for these rules: the
  // answer is their set with a possible error, never "raises".
  auto o = run("aten::quantize_per_tensor", {{"self", "float32:r2"}, {"scale", "0.1"}, {"zero_point", "0"}, {"dtype", "?"}});
  ASSERT_EQ(o.status, InferOutcome::Status::Ok);
  EXPECT_TRUE(o.possibleError.has_value());
  DTypeSet q = Semantics::of(TorchVersion::V1_13).types().quantized();
  EXPECT_EQ(o.outputs[0].dtypes(), q) << o.outputs[0].str();
  auto d = run("aten::dequantize.self", {{"self", "?:r2"}});
  expectTensor(d, 0, DType::Float32, 2);
  EXPECT_FALSE(d.possibleError.has_value());
  auto i = run("aten::int_repr", {{"self", "?:r2"}});
  ASSERT_EQ(i.status, InferOutcome::Status::Ok); // a plain tensor raises, a quantized one runs
  EXPECT_TRUE(i.possibleError.has_value());
}

TEST(OpsQuantized, QuantizeDynamicAndPerChannel) {
  expectTensor(run("aten::quantize_per_tensor_dynamic", {{"self", "float32:r2"}, {"dtype", "quint8"}, {"reduce_range", "False"}}),
               0, DType::QUInt8, 2);
  // float16 is a plain cast, from any plain dtype; qint32 is refused.
  expectTensor(run("aten::quantize_per_tensor_dynamic", {{"self", "int64:r2"}, {"dtype", "float16"}, {"reduce_range", "False"}}),
               0, DType::Float16, 2);
  expectError(run("aten::quantize_per_tensor_dynamic", {{"self", "float32:r2"}, {"dtype", "qint32"}, {"reduce_range", "False"}}));
  auto perChannel = [](std::string self, std::string scales, std::string axis, std::string dtype) {
    return run("aten::quantize_per_channel", {{"self", self}, {"scales", scales}, {"zero_points", "int64:r1"},
                                              {"axis", axis}, {"dtype", dtype}});
  };
  expectTensor(perChannel("float32:r2", "float16:r1", "1", "qint32"), 0, DType::QInt32, 2);
  expectError(perChannel("float32:r2", "int64:r1", "0", "quint8"));  // scales must be floating
  expectError(perChannel("float32:r2", "float32:r0", "0", "quint8")); // ... and 1-D
  expectError(perChannel("float32:r2", "float32:r1", "2", "quint8")); // 0 <= axis < dim, no wrapping
  expectError(perChannel("float32:r2", "float32:r1", "-1", "quint8"));
  expectError(perChannel("float32:r0", "float32:r1", "0", "quint8"));
  expectError(perChannel("float32:r2", "float32:r1", "0", "quint4x2")); // no kernel
}

TEST(OpsQuantized, MakeQuantizedFromTheIntegerRepresentation) {
  expectTensor(run("aten::_make_per_tensor_quantized_tensor", {{"self", "uint8:r2"}, {"scale", "0.1"}, {"zero_point", "0"}}),
               0, DType::QUInt8, 2);
  expectTensor(run("aten::_make_per_tensor_quantized_tensor", {{"self", "int8:r0"}, {"scale", "0.1"}, {"zero_point", "0"}}),
               0, DType::QInt8, 0);
  expectTensor(run("aten::_make_per_channel_quantized_tensor",
                   {{"self", "int32:r2"}, {"scale", "float64:r1"}, {"zero_point", "int64:r1"}, {"axis", "5"}}),
               0, DType::QInt32, 2); // the axis is not checked
  expectError(run("aten::_make_per_tensor_quantized_tensor", {{"self", "int64:r2"}, {"scale", "0.1"}, {"zero_point", "0"}}));
  expectError(run("aten::_make_per_channel_quantized_tensor",
                  {{"self", "uint8:r2"}, {"scale", "int64:r1"}, {"zero_point", "int64:r1"}, {"axis", "0"}}));
}

TEST(OpsQuantized, DequantizeAndIntRepr) {
  for (const char *d : {"qint8", "quint8", "qint32", "quint2x4", "float64", "int8"})
    expectTensor(run("aten::dequantize.self", {{"self", std::string(d) + ":r3"}}), 0, DType::Float32, 3);
  expectTensor(run("aten::int_repr", {{"self", "qint8:r2"}}), 0, DType::Int8, 2);
  expectTensor(run("aten::int_repr", {{"self", "quint8:r0"}}), 0, DType::UInt8, 0);
  expectTensor(run("aten::int_repr", {{"self", "qint32:r3"}}), 0, DType::Int32, 3);
  expectTensor(run("aten::int_repr", {{"self", "quint4x2:r3"}}), 0, DType::UInt8, 1); // packed
  expectError(run("aten::int_repr", {{"self", "int8:r2"}}));
  // A list: float32 each when one element is quantized; none raises.
  auto l = run("aten::dequantize.tensors", {{"tensors", "[quint8:r2,int64:r1]"}});
  ASSERT_EQ(l.status, InferOutcome::Status::Ok);
  EXPECT_EQ(l.outputs[0].str(), "[float32:r2,float32:r1]");
  expectError(run("aten::dequantize.tensors", {{"tensors", "[float32:r2]"}}));
}

TEST(OpsQuantized, QuantizerParametersArePythonNumbers) {
  auto s = run("aten::q_scale", {{"self", "quint8:r2"}});
  ASSERT_EQ(s.status, InferOutcome::Status::Ok);
  EXPECT_EQ(s.outputs[0].numKind(), NumKind::Float);
  EXPECT_TRUE(s.possibleError.has_value()); // a per-channel tensor raises
  EXPECT_EQ(run("aten::q_zero_point", {{"self", "qint8:r1"}}).outputs[0].numKind(), NumKind::Int);
  expectTensor(run("aten::q_per_channel_scales", {{"self", "qint8:r2"}}), 0, DType::Float64, 1);
  expectTensor(run("aten::q_per_channel_zero_points", {{"self", "qint8:r2"}}), 0, DType::Int64, 1);
  expectError(run("aten::q_scale", {{"self", "float32:r2"}}));
  expectError(run("aten::qscheme", {{"self", "float32:r2"}}));
}

// Rules written for plain tensors answer unknown on a quantized one, where
// an unknown dtype would have given a set (sigmoid: the floating dtypes);
// the unknown may be quantized (relu of quint8 is quint8), so the next such
// rule answers unknown too. An untyped tensor (DTypeSet::all()) is plain.
TEST(OpsQuantized, OtherRulesAnswerUnknownForQuantizedTensors) {
  for (const char *op : {"aten::sigmoid", "aten::relu", "aten::abs"}) {
    auto o = run(op, {{"self", "quint8:r2"}});
    ASSERT_EQ(o.status, InferOutcome::Status::Ok) << op;
    EXPECT_FALSE(o.outputs[0].dtype().has_value()) << op << ": " << o.outputs[0].str();
    EXPECT_TRUE(o.outputs[0].dtypes().contains(DType::QUInt8)) << op << ": " << o.outputs[0].str();
    EXPECT_FALSE(o.outputs[0].dtypes().isAll()) << op << ": " << o.outputs[0].str();
  }
  auto add = run("aten::add.Tensor", {{"self", "float32:r2"}, {"other", "qint8:r2"}});
  EXPECT_TRUE(add.outputs[0].dtypes().contains(DType::QInt8)) << add.outputs[0].str();
  // What a rule gives for a tensor that may be quantized: unknown again.
  const Value maybe = Value::tensor(DTypeSet::join(DType::Float32, DType::QUInt8), Rank::exact(2));
  const Semantics &sem = Semantics::of(TorchVersion::V1_13);
  const Schema *sigmoid = sem.schemas().find("aten::sigmoid");
  ASSERT_NE(sigmoid, nullptr);
  auto again = infer(sem.registry(), *sigmoid, std::vector<Value>{maybe});
  EXPECT_FALSE(again.outputs[0].dtype().has_value()) << again.outputs[0].str();
  EXPECT_TRUE(again.outputs[0].dtypes().contains(DType::QUInt8)) << again.outputs[0].str();
  // ... while an untyped tensor is taken to be plain, as before.
  auto plain = infer(sem.registry(), *sigmoid, std::vector<Value>{Value::unknownTensor()});
  EXPECT_FALSE(plain.outputs[0].dtypes().contains(DType::QUInt8)) << plain.outputs[0].str();
}

TEST(OpsQuantized, TheSameUnder214) {
  const Semantics &v214 = Semantics::of(TorchVersion::V2_14);
  expectTensor(runIn(v214, "aten::quantize_per_tensor",
                     {{"self", "float32:r2"}, {"scale", "0.1"}, {"zero_point", "0"}, {"dtype", "qint8"}}),
               0, DType::QInt8, 2);
  expectTensor(runIn(v214, "aten::int_repr", {{"self", "quint8:r1"}}), 0, DType::UInt8, 1);
  // 2.14's bits and sub-byte shells are not measured: unknown, not an error.
  auto bits = runIn(v214, "aten::int_repr", {{"self", "bits8:r1"}});
  ASSERT_EQ(bits.status, InferOutcome::Status::Ok);
  EXPECT_FALSE(bits.outputs[0].dtype().has_value());
}

} // namespace
} // namespace dtf
