// What the kind of CPU decides (ops/cpu_capability.h): the table of oneDNN
// facts per version, and rules that answer "may raise" without --cpu and
// exactly with it. Expectations measured on an AMD EPYC (kind avx512) under
// 1.13 and 2.14.1 (scripts/probes/cpu_onednn.py), and the float16 ones
// reported from an Intel Xeon with AVX512-FP16/AMX under 2.14.1 (issue 31).
#include "ops/cpu_capability.h"
#include "ops/semantics.h"

#include "run_op.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

using test::runIn;

const Semantics &v113() { return Semantics::of(TorchVersion::V1_13); }
const Semantics &v214() { return Semantics::of(TorchVersion::V2_14); }
std::shared_ptr<const Semantics> on(const Semantics &s, CpuKind k) {
  return Semantics::inContext(s.shared_from_this(), ExecContext{k});
}

TEST(CpuCapability, NamesRoundTripAndUnknownNamesAreRefused) {
  for (CpuKind k : kCpuKinds) EXPECT_EQ(parseCpuKind(name(k)), k);
  EXPECT_FALSE(parseCpuKind("host")); // the caller's: hostCpuKind
  EXPECT_FALSE(parseCpuKind("AVX512"));
  EXPECT_EQ(torchCapability(CpuKind::Avx512Fp16), "AVX512");
  EXPECT_NE(cpuKindNames().find("avx512_fp16"), std::string::npos);
}

TEST(CpuCapability, KindFromCpuinfoFlags) {
  // An AMD EPYC (Zen 4) as /proc/cpuinfo lists it, shortened.
  EXPECT_EQ(cpuKindOfFlags("fpu sse2 avx fma avx2 avx512f avx512dq avx512bw avx512vl avx512_bf16"), CpuKind::Avx512);
  EXPECT_EQ(cpuKindOfFlags("avx2 fma avx512f avx512dq avx512bw avx512vl avx512_bf16 avx512_fp16 amx_tile amx_bf16"),
            CpuKind::Avx512Fp16);
  EXPECT_EQ(cpuKindOfFlags("sse2 avx fma avx2"), CpuKind::Avx2);
  EXPECT_EQ(cpuKindOfFlags("sse2 avx fma avx2 avx_vnni avx_ne_convert"), CpuKind::Avx2NeConvert);
  EXPECT_EQ(cpuKindOfFlags("avx512f avx2 fma"), CpuKind::Avx2); // AVX-512 F alone (Xeon Phi) is not avx512_core
  EXPECT_EQ(cpuKindOfFlags("sse2 sse4_2"), CpuKind::Default);
  EXPECT_EQ(cpuKindOfFlags(""), CpuKind::Default);
}

TEST(CpuCapability, OneDnnTablePerVersion) {
  for (TorchVersion v : kTorchVersions)
    for (CpuKind k : kCpuKinds) EXPECT_TRUE(oneDnnTakes(v, k, DType::Float32));
  EXPECT_TRUE(oneDnnTakes(TorchVersion::V1_13, CpuKind::Avx512, DType::BFloat16));
  EXPECT_FALSE(oneDnnTakes(TorchVersion::V1_13, CpuKind::Avx2, DType::BFloat16));
  EXPECT_FALSE(oneDnnTakes(TorchVersion::V1_13, CpuKind::Avx512Fp16, DType::Float16)); // 1.13: no float16 path
  EXPECT_FALSE(oneDnnTakes(TorchVersion::V2_14, CpuKind::Avx512, DType::Float16));
  EXPECT_TRUE(oneDnnTakes(TorchVersion::V2_14, CpuKind::Avx512Fp16, DType::Float16));
  EXPECT_TRUE(oneDnnTakes(TorchVersion::V2_14, CpuKind::Avx2NeConvert, DType::BFloat16));
  EXPECT_EQ(oneDnnLeastKind(TorchVersion::V1_13, DType::Float16), std::nullopt);
  EXPECT_FALSE(oneDnnTakes(TorchVersion::V2_14, CpuKind::Avx512Fp16, DType::Float64));
}

const std::vector<std::pair<std::string, std::string>> kConvPadding(const char *in, const char *bias) {
  return {{"input", in}, {"weight", in}, {"bias", bias}, {"stride", "[1,1]"}, {"padding", "'same'"},
          {"dilation", "[1,1]"}, {"groups", "1"}};
}

TEST(CpuCapability, ConvolutionBiasCheckedWhereOneDnnTakesTheInput) {
  // Without --cpu: the dtype, and a possible error naming the CPUs.
  auto any = runIn(v214(), "aten::conv2d.padding", kConvPadding("float16:r4", "float32:r1"));
  test::expectTensor(any, 0, DType::Float16, 4);
  ASSERT_TRUE(any.possibleError);
  EXPECT_EQ(any.possibleError->kind, ErrorKind::CpuDependent);
  EXPECT_NE(any.possibleError->message.find("avx512_fp16"), std::string::npos) << any.possibleError->message;
  EXPECT_NE(any.possibleError->message.find("bias type"), std::string::npos) << any.possibleError->message;
  // The reported Intel outcome, and the measured AMD one.
  test::expectError(runIn(*on(v214(), CpuKind::Avx512Fp16), "aten::conv2d.padding", kConvPadding("float16:r4", "float32:r1")));
  auto amd = runIn(*on(v214(), CpuKind::Avx512), "aten::conv2d.padding", kConvPadding("float16:r4", "float32:r1"));
  test::expectTensor(amd, 0, DType::Float16, 4);
  EXPECT_FALSE(amd.possibleError);
  // bfloat16 takes oneDNN from AVX-512 on, in both versions.
  for (const Semantics *s : {&v113(), &v214()}) {
    test::expectError(runIn(*on(*s, CpuKind::Avx512), "aten::conv2d.padding", kConvPadding("bfloat16:r4", "float32:r1")));
    auto avx2 = runIn(*on(*s, CpuKind::Avx2), "aten::conv2d.padding", kConvPadding("bfloat16:r4", "float32:r1"));
    test::expectTensor(avx2, 0, DType::BFloat16, 4);
    EXPECT_FALSE(avx2.possibleError);
  }
  // 1.13 has no float16 oneDNN path, so no CPU kind decides it; nor any float16 convolution
  // kernel ("slow_conv2d_cpu" not implemented for 'Half'): the measured gap is the possible error.
  auto old = runIn(v113(), "aten::conv2d.padding", kConvPadding("float16:r4", "float32:r1"));
  EXPECT_EQ(old.status, InferOutcome::Status::Ok);
  ASSERT_TRUE(old.possibleError);
  EXPECT_EQ(old.possibleError->kind, ErrorKind::MissingKernel) << old.possibleError->message;
  // float32 with a float32 bias: nothing to check anywhere.
  EXPECT_FALSE(runIn(v214(), "aten::conv2d.padding", kConvPadding("float32:r4", "float32:r1")).possibleError);
}

TEST(CpuCapability, GeluBackwardGradCheckedOnOneDnn) {
  const std::vector<std::pair<std::string, std::string>> args{{"grad_output", "float64:r2"}, {"self", "bfloat16:r2"}};
  auto any = runIn(v214(), "aten::gelu_backward", args);
  test::expectTensor(any, 0, DType::Float64, 2);
  ASSERT_TRUE(any.possibleError);
  EXPECT_EQ(any.possibleError->kind, ErrorKind::CpuDependent);
  test::expectError(runIn(*on(v214(), CpuKind::Avx512), "aten::gelu_backward", args));
  test::expectTensor(runIn(*on(v214(), CpuKind::Avx2), "aten::gelu_backward", args), 0, DType::Float64, 2);
  // float32 self takes oneDNN on every CPU: a plain error.
  test::expectError(runIn(v214(), "aten::gelu_backward", {{"grad_output", "float64:r2"}, {"self", "float32:r2"}}));
}

TEST(CpuCapability, ConvolutionBackwardMixedWeightOnlyOnOneDnn) {
  const std::vector<std::pair<std::string, std::string>> args{
      {"grad_output", "float16:r4"}, {"input", "float16:r4"}, {"weight", "float32:r4"}, {"bias_sizes", "[1]"},
      {"stride", "[1,1]"}, {"padding", "[0,0]"}, {"dilation", "[1,1]"}, {"transposed", "False"},
      {"output_padding", "[0,0]"}, {"groups", "1"}, {"output_mask", "[True,True,True]"}};
  test::expectError(runIn(*on(v214(), CpuKind::Avx512), "aten::convolution_backward", args));
  auto intel = runIn(*on(v214(), CpuKind::Avx512Fp16), "aten::convolution_backward", args);
  ASSERT_EQ(intel.status, InferOutcome::Status::Ok);
  EXPECT_FALSE(intel.outputs[0].dtype()); // oneDNN's mixed path: not modelled
  auto any = runIn(v214(), "aten::convolution_backward", args);
  ASSERT_EQ(any.status, InferOutcome::Status::Ok);
  ASSERT_TRUE(any.possibleError);
  EXPECT_EQ(any.possibleError->kind, ErrorKind::CpuDependent);
}

TEST(CpuCapability, AContextLayerSharesRulesAndKeepsUserRulesAlive) {
  auto layer = on(v214(), CpuKind::Avx2);
  EXPECT_EQ(layer->version(), TorchVersion::V2_14);
  EXPECT_EQ(layer->context().cpu, CpuKind::Avx2);
  EXPECT_EQ(&layer->schemas(), &v214().schemas());
  EXPECT_EQ(layer->registry().find("aten::add.Tensor"), v214().registry().find("aten::add.Tensor"));
  EXPECT_FALSE(v214().context().cpu);
}

} // namespace
} // namespace dtf
