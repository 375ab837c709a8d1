//===- tests/unit/ops_deltas_26_test.cpp - where 2.6 is neither 1.13 nor 2.14 -===//
//
// Rules registered since 2.6 (or kept from 1.13 until 2.14) because libtorch
// 2.6.0 behaves like neither neighbour, each measured in the trixie root with
// the conformance harness (and scripts/probes/*.py), checked here against the
// neighbours' answers.
//
//===----------------------------------------------------------------------===//
#include "run_op.h"

namespace dtf::test {
namespace {

constexpr TorchVersion k113 = TorchVersion::V1_13, k26 = TorchVersion::V2_6, k214 = TorchVersion::V2_14;

InferOutcome runAt(TorchVersion version, const std::string &key,
                   const std::vector<std::pair<std::string, std::string>> &named) {
  return test::runIn(Semantics::of(version), key, named);
}

/// Result 0 is a tensor of rank `rank` whose dtype is unknown: more than one
/// dtype, `d` among them.
void expectUnknownDType(const InferOutcome &o, DType d, int rank) {
  ASSERT_EQ(o.status, InferOutcome::Status::Ok) << (o.error ? o.error->message : "");
  ASSERT_FALSE(o.outputs.empty());
  EXPECT_GT(o.outputs[0].dtypes().size(), 1) << o.outputs[0].str();
  EXPECT_TRUE(o.outputs[0].dtypes().contains(d)) << o.outputs[0].str();
  EXPECT_EQ(o.outputs[0].rank().value(), rank) << o.outputs[0].str();
}

TEST(Deltas26, PrimToCopyWithoutTargetIsUnknownPast113) {
  // to_dispatch converts to `*dtype` of an empty optional: 1.13's c10::optional
  // holds a zeroed byte (uint8); 2.x's std::optional an indeterminate one.
  const std::vector<std::pair<std::string, std::string>> noTarget{{"self", "float32:r1"}, {"dtype", "None"}, {"copy", "True"}};
  expectTensor(runAt(k113, "aten::to.prim_dtype", noTarget), 0, DType::UInt8, 1);
  expectTensor(runAt(k113, "aten::to.prim_other", {{"self", "float32:r1"}, {"copy", "True"}}), 0, DType::UInt8, 1);
  for (TorchVersion v : {k26, k214}) {
    expectUnknownDType(runAt(v, "aten::to.prim_dtype", noTarget), DType::UInt8, 1);
    expectUnknownDType(runAt(v, "aten::to.prim_other", {{"self", "float32:r1"}, {"copy", "True"}}), DType::UInt8, 1);
    expectUnknownDType(runAt(v, "aten::to.prim_Device", {{"self", "int32:r2"}, {"device", "None"}, {"dtype", "None"},
                                                         {"copy", "True"}}), DType::Int32, 2);
    // Without copy it is self, and a given dtype is that dtype, in every version.
    expectTensor(runAt(v, "aten::to.prim_dtype", {{"self", "float32:r1"}, {"dtype", "None"}}), 0, DType::Float32, 1);
    expectTensor(runAt(v, "aten::to.prim_dtype", {{"self", "float32:r1"}, {"dtype", "4"}, {"copy", "True"}}), 0,
                 DType::Int64, 1);
  }
}

TEST(Deltas26, AddmvTakesAnySelfUntil214) {
  const std::vector<std::pair<std::string, std::string>> mixed{{"self", "float64:r1"}, {"mat", "float32:r2"}, {"vec", "float32:r1"}};
  expectTensor(runAt(k113, "aten::addmv", mixed), 0, DType::Float32, 1);
  expectTensor(runAt(k26, "aten::addmv", mixed), 0, DType::Float32, 1);
  expectError(runAt(k214, "aten::addmv", mixed));
}

TEST(Deltas26, LinearFlattensThreeDimsAndChecksOneDimBias) {
  // A 3-D input with a 0-dim bias of another dtype: addmm in 1.13 and 2.6, matmul + add_ in 2.14.
  const std::vector<std::pair<std::string, std::string>> threeDims{{"input", "float32:r3"}, {"weight", "float32:r2"}, {"bias", "float64:r0"}};
  expectError(runAt(k113, "aten::linear", threeDims));
  expectError(runAt(k26, "aten::linear", threeDims));
  expectTensor(runAt(k214, "aten::linear", threeDims), 0, DType::Float32, 3);
  // A 1-D input with a 1-D bias of another dtype: refused since 2.6 (1.13 adds it).
  const std::vector<std::pair<std::string, std::string>> oneDim{{"input", "float32:r1"}, {"weight", "float32:r2"}, {"bias", "float64:r1"}};
  expectTensor(runAt(k113, "aten::linear", oneDim), 0, DType::Float32, 1);
  expectError(runAt(k26, "aten::linear", oneDim));
  expectError(runAt(k214, "aten::linear", oneDim));
}

TEST(Deltas26, FakeQuantizePerChannelScaleIsFloatOnly) {
  auto call = [](const char *scale) {
    return std::vector<std::pair<std::string, std::string>>{{"self", "float32:r2"}, {"scale", scale}, {"zero_point", "int32:r1"},
                                                            {"axis", "0"}, {"quant_min", "0"}, {"quant_max", "255"}};
  };
  const char *op = "aten::fake_quantize_per_channel_affine";
  expectTensor(runAt(k113, op, call("bfloat16:r1")), 0, DType::Float32, 2);
  expectError(runAt(k26, op, call("bfloat16:r1")));
  expectTensor(runAt(k214, op, call("bfloat16:r1")), 0, DType::Float32, 2);
  expectError(runAt(k26, op, call("float64:r1")));
  expectTensor(runAt(k26, op, call("float32:r1")), 0, DType::Float32, 2);
}

TEST(Deltas26, SortsTakeComplexAndTopkBoolUntil214) {
  expectTensor(runAt(k26, "aten::sort", {{"self", "complex64:r0"}}), 0, DType::Complex64, 0);
  expectError(runAt(k214, "aten::sort", {{"self", "complex64:r0"}}));
  expectTensor(runAt(k26, "aten::topk", {{"self", "bool:r0"}, {"k", "1"}}), 1, DType::Int64, 0);
  expectError(runAt(k214, "aten::topk", {{"self", "bool:r0"}, {"k", "1"}}));
  // stable=None reads as False from 2.6 on (1.13 asserts).
  expectError(runAt(k113, "aten::sort.stable", {{"self", "float32:r1"}, {"stable", "None"}}));
  expectTensor(runAt(k26, "aten::sort.stable", {{"self", "float32:r1"}, {"stable", "None"}}), 0, DType::Float32, 1);
}

TEST(Deltas26, NativeChannelShuffleTakesTwoDimsUntil214) {
  const std::vector<std::pair<std::string, std::string>> twoDims{{"self", "float32:r2"}, {"groups", "2"}};
  expectTensor(runAt(k26, "aten::native_channel_shuffle", twoDims), 0, DType::Float32, 2);
  expectError(runAt(k214, "aten::native_channel_shuffle", twoDims));
}

TEST(Deltas26, WeightNormHalfGoesTheCompositeWayUntil214) {
  // float16 with a float32 g: the composite (promoting) in 1.13 and 2.6; 2.14's fused kernel wants one dtype.
  const std::vector<std::pair<std::string, std::string>> half{{"v", "float16:r2"}, {"g", "float32:r2"}, {"dim", "0"}};
  expectTensor(runAt(k113, "aten::_weight_norm", half), 0, DType::Float32, 2);
  expectTensor(runAt(k26, "aten::_weight_norm", half), 0, DType::Float32, 2);
  expectError(runAt(k214, "aten::_weight_norm", half));
}

TEST(Deltas26, LdexpOfFloat8PromotesIn26) {
  // 2.6 promotes a float8 self with an integral other (and raises); 2.14 keeps self.
  const std::vector<std::pair<std::string, std::string>> f8{{"self", "float8_e5m2:r1"}, {"other", "int32:r1"}};
  expectError(runAt(k26, "aten::ldexp.Tensor", f8));
  expectTensor(runAt(k214, "aten::ldexp.Tensor", f8), 0, DType::Float8E5M2, 1);
  // Another floating self keeps its dtype for an integral other in both (1.13: float32).
  const std::vector<std::pair<std::string, std::string>> half{{"self", "float16:r1"}, {"other", "int32:r1"}};
  expectTensor(runAt(k113, "aten::ldexp.Tensor", half), 0, DType::Float32, 1);
  expectTensor(runAt(k26, "aten::ldexp.Tensor", half), 0, DType::Float16, 1);
}

} // namespace
} // namespace dtf::test
