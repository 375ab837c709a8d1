// Autocast as part of the semantics (ops/autocast.h): the lists as data, the casts, and
// the refinement under a context. Facts measured with scripts/probes/autocast.py.
#include "ops/autocast.h"
#include "ops/infer.h"
#include "ops/notation.h"
#include "ops/semantics.h"

#include "run_op.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace dtf {
namespace {

constexpr AutocastContext kCpuBf16{AutocastDevice::CPU, DType::BFloat16};

/// `key` called with named arguments in the CLI notation, under `ctx`, as `infer-op --autocast` does.
InferOutcome runUnder(TorchVersion v, const std::optional<AutocastContext> &ctx, const std::string &key,
                      const std::vector<std::pair<std::string, std::string>> &named) {
  const Semantics &sem = Semantics::of(v);
  std::optional<test::BoundCall> c = test::bindIn(sem, key, named);
  return c ? inferUnderAutocast(sem, ctx, *c->schema, c->args) : InferOutcome{};
}

std::optional<DType> dtypeOf(const InferOutcome &o) {
  if (o.status != InferOutcome::Status::Ok || o.outputs.empty()) return std::nullopt;
  return o.outputs[0].dtype();
}

TEST(Autocast, ListsPerVersionAndDevice) {
  // data/autocast-*.txt: the dispatcher's AutocastCPU/AutocastCUDA registrations.
  EXPECT_EQ(autocastListSize(TorchVersion::V1_13, AutocastDevice::CPU), 126u);
  EXPECT_EQ(autocastListSize(TorchVersion::V2_14, AutocastDevice::CPU), 126u);
  EXPECT_EQ(autocastListSize(TorchVersion::V1_13, AutocastDevice::CUDA), 107u);
  EXPECT_EQ(autocastListSize(TorchVersion::V2_14, AutocastDevice::CUDA), 120u);
  // Measured: 1.13 runs conv_transpose in float32 on CPU, 2.14 in the lower precision.
  EXPECT_EQ(autocastPolicy(TorchVersion::V1_13, AutocastDevice::CPU, "aten::conv_transpose1d"), AutocastPolicy::Fp32);
  EXPECT_EQ(autocastPolicy(TorchVersion::V2_14, AutocastDevice::CPU, "aten::conv_transpose1d"),
            AutocastPolicy::LowerPrecisionFp);
  EXPECT_EQ(autocastPolicy(TorchVersion::V2_14, AutocastDevice::CPU, "aten::conv2d"), AutocastPolicy::LowerPrecisionFp);
  EXPECT_EQ(autocastPolicy(TorchVersion::V2_14, AutocastDevice::CPU, "aten::stack"), AutocastPolicy::Promote);
  // 1.13 registers cat for AutocastCPU, yet casts nothing (measured); 2.14 promotes.
  EXPECT_EQ(autocastPolicy(TorchVersion::V1_13, AutocastDevice::CPU, "aten::cat"), AutocastPolicy::None);
  EXPECT_EQ(autocastPolicy(TorchVersion::V2_14, AutocastDevice::CPU, "aten::cat"), AutocastPolicy::Promote);
  // Left alone on CPU, fp32 on CUDA; softmax sets its dtype on CUDA.
  EXPECT_EQ(autocastPolicy(TorchVersion::V2_14, AutocastDevice::CPU, "aten::exp"), std::nullopt);
  EXPECT_EQ(autocastPolicy(TorchVersion::V2_14, AutocastDevice::CUDA, "aten::exp"), AutocastPolicy::Fp32);
  EXPECT_EQ(autocastPolicy(TorchVersion::V2_14, AutocastDevice::CUDA, "aten::softmax.int"),
            AutocastPolicy::Fp32SetOptDtype);
  EXPECT_EQ(autocastPolicy(TorchVersion::V2_14, AutocastDevice::CUDA, "aten::binary_cross_entropy"),
            AutocastPolicy::Banned);
}

TEST(Autocast, ParseContexts) {
  std::string error;
  auto c = AutocastContext::parse("cpu:bfloat16", TorchVersion::V2_14, error);
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, kCpuBf16);
  EXPECT_EQ(c->str(), "autocast(cpu, bfloat16)");
  EXPECT_TRUE(AutocastContext::parse("cpu:float16", TorchVersion::V2_14, error));
  EXPECT_FALSE(AutocastContext::parse("cpu:float16", TorchVersion::V1_13, error)); // 1.13's CPU autocast: bfloat16 only
  EXPECT_NE(error.find("cpu:bfloat16"), std::string::npos) << error;
  EXPECT_FALSE(AutocastContext::parse("cuda:float32", TorchVersion::V2_14, error));
  EXPECT_FALSE(AutocastContext::parse("tpu:bfloat16", TorchVersion::V2_14, error));
  auto d = AutocastContext::parse("cuda", TorchVersion::V2_14, error); // torch.autocast's default dtype
  ASSERT_TRUE(d);
  EXPECT_EQ(d->dtype, DType::Float16);
}

TEST(Autocast, LowerPrecisionCastsEligibleTensorsOnly) {
  for (TorchVersion v : kTorchVersions) {
    auto mm = [&](const char *a, const char *b) {
      return runUnder(v, kCpuBf16, "aten::mm", {{"self", a}, {"mat2", b}});
    };
    EXPECT_EQ(dtypeOf(mm("float32:r2", "float32:r2")), DType::BFloat16);
    EXPECT_EQ(dtypeOf(mm("float16:r2", "float16:r2")), DType::BFloat16);
    EXPECT_EQ(dtypeOf(mm("float64:r2", "float64:r2")), DType::Float64); // float64 is not eligible
    EXPECT_EQ(dtypeOf(mm("int64:r2", "int64:r2")), DType::Int64);
    // Only the eligible one is cast: bfloat16 against float64 raises in mm.
    EXPECT_EQ(mm("float64:r2", "float32:r2").status, InferOutcome::Status::Error);
    // Outside autocast: as the rule says.
    EXPECT_EQ(dtypeOf(runUnder(v, std::nullopt, "aten::mm", {{"self", "float32:r2"}, {"mat2", "float32:r2"}})),
              DType::Float32);
  }
}

TEST(Autocast, Fp32AndPromote) {
  for (TorchVersion v : kTorchVersions) {
    EXPECT_EQ(dtypeOf(runUnder(v, kCpuBf16, "aten::cdist", {{"x1", "bfloat16:r2"}, {"x2", "bfloat16:r2"}})),
              DType::Float32);
    auto stack = [&](const char *tensors) { return runUnder(v, kCpuBf16, "aten::stack", {{"tensors", tensors}}); };
    EXPECT_EQ(dtypeOf(stack("[bfloat16:r2, float32:r2]")), DType::Float32);
    EXPECT_EQ(dtypeOf(stack("[bfloat16:r2, int32:r2]")), DType::BFloat16);
    EXPECT_EQ(dtypeOf(stack("[float64:r2, bfloat16:r2]")), DType::Float64);
    // An eligible dtype neither float32 nor the autocast dtype: autocast's prioritize raises...
    EXPECT_EQ(stack("[float16:r2, bfloat16:r2]").status, InferOutcome::Status::Error);
    // ... unless float32 came first.
    EXPECT_EQ(dtypeOf(stack("[float32:r2, float16:r2]")), DType::Float32);
  }
}

TEST(Autocast, CudaSetOptDtype) {
  const AutocastContext cuda{AutocastDevice::CUDA, DType::Float16};
  auto softmax = [&](const char *self, const char *dtype) {
    return runUnder(TorchVersion::V2_14, cuda, "aten::softmax.int", {{"self", self}, {"dim", "0"}, {"dtype", dtype}});
  };
  EXPECT_EQ(dtypeOf(softmax("float16:r2", "None")), DType::Float32);
  EXPECT_EQ(dtypeOf(softmax("float16:r2", "float64")), DType::Float64); // an explicit dtype is kept
  EXPECT_EQ(dtypeOf(softmax("float64:r2", "None")), DType::Float64);    // not eligible: left alone
}

} // namespace
} // namespace dtf
