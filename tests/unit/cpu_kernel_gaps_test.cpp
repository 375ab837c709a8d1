// The CPU kernel gaps the conformance harness measured (data/cpu-kernel-gaps-*.txt): a call whose
// operand or result has a dtype the version's CPU kernel of that op lacks keeps the rule's answer
// (what a device with the kernel computes) and names the gap as a possible error, on CPU kernels
// only. Expectations measured with Debian's PyTorch 1.13 on the CPU.
#include "run_op.h"

#include "dtype/per_version.h"
#include "ops/cpu_kernels.h"
#include "ops/may_raise.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

TEST(CpuKernelGaps, AMeasuredGapIsAPossibleErrorNamingTheKernel) {
  // torch.abs(torch.tensor([True])) on the CPU: "abs_cpu" not implemented for 'Bool'.
  InferOutcome o = test::runIn(Semantics::of(TorchVersion::V1_13), "aten::abs", {{"self", "bool:r1"}});
  test::expectTensor(o, 0, DType::Bool, 1);
  ASSERT_TRUE(o.possibleError);
  EXPECT_EQ(o.possibleError->kind, ErrorKind::MissingKernel);
  EXPECT_EQ(o.possibleError->message,
            "aten::abs: no CPU kernel for bool in 1.13 (measured: \"abs_cpu\" not implemented for 'Bool')");
  EXPECT_EQ(kernelGapText(*o.possibleError, "1.13"), "no CPU kernel for bool in 1.13");
  EXPECT_EQ(measuredCpuKernelGap(measuredCpuKernelGapLines(TorchVersion::V1_13, "aten::abs"), DType::Bool)->kernel, "abs_cpu");
  // A dtype with a kernel: nothing to name.
  EXPECT_FALSE(test::runIn(Semantics::of(TorchVersion::V1_13), "aten::abs", {{"self", "float32:r1"}}).possibleError);
  EXPECT_FALSE(measuredCpuKernelGap(measuredCpuKernelGapLines(TorchVersion::V1_13, "aten::abs"), DType::Float32));
}

TEST(CpuKernelGaps, EveryLineOfEveryVersionIsFoundByItsKey) {
  // The lookup is a binary search over the sorted text: each line must be found under its key,
  // with every other line of that key, and a key between two others finds nothing.
  for (TorchVersion v : kTorchVersions) {
    const std::string_view text = embeddedText(EmbeddedData::CpuKernelGaps, v);
    size_t lines = 0;
    for (size_t at = 0; at < text.size();) {
      const size_t nl = std::min(text.find('\n', at), text.size());
      const std::string_view line = text.substr(at, nl - at);
      at = nl + 1;
      if (line.empty() || line[0] == '#') continue;
      ++lines;
      const std::string_view key = line.substr(0, line.find(' '));
      const std::string_view found = measuredCpuKernelGapLines(v, key);
      ASSERT_NE(found.find(line), std::string_view::npos) << name(v) << ": " << line;
      ASSERT_EQ(found.substr(0, key.size() + 1), std::string(key) + " ") << name(v) << ": " << key;
      EXPECT_TRUE(measuredCpuKernelGapLines(v, std::string(key) + "!").empty()) << key; // sorts after it, before the next
    }
    if (v == TorchVersion::V1_13) EXPECT_GT(lines, 1000u);
  }
  EXPECT_TRUE(measuredCpuKernelGapLines(TorchVersion::V1_13, "aten::").empty());
  EXPECT_TRUE(measuredCpuKernelGapLines(TorchVersion::V1_13, "zzz::last").empty());
}

TEST(CpuKernelGaps, AnOperandThatMayHaveTheDtypeMayRaise) {
  // An operand of unknown dtype may be bool: the call may raise (the enumeration's lifted answer
  // covers each case's, tests/oracle/enumeration_property_test.cpp).
  InferOutcome o = test::runIn(Semantics::of(TorchVersion::V1_13), "aten::abs", {{"self", "?:r1"}});
  ASSERT_EQ(o.status, InferOutcome::Status::Ok);
  ASSERT_TRUE(o.possibleError);
  EXPECT_EQ(o.possibleError->kind, ErrorKind::MissingKernel);
}

TEST(CpuKernelGaps, OnlyTheRolesWhoseDtypeRaisesItAreLookedAt) {
  // nll_loss's CPU kernel lacks int64 for self (log-probabilities), never for its int64 target;
  // adaptive_max_pool2d lacks int64 input, not the int64 indices it returns; cumsum of bool runs
  // (it sums in int64), with dtype=bool it does not. Measured with each version's libtorch.
  for (TorchVersion v : kTorchVersions) {
    const Semantics &sem = Semantics::of(v);
    SCOPED_TRACE(std::string(name(v)));
    EXPECT_FALSE(test::runIn(sem, "aten::nll_loss", {{"self", "float32:r2"}, {"target", "int64:r1"}}).possibleError);
    InferOutcome ints = test::runIn(sem, "aten::nll_loss", {{"self", "int64:r2"}, {"target", "int64:r1"}});
    ASSERT_TRUE(ints.possibleError);
    EXPECT_EQ(ints.possibleError->kind, ErrorKind::MissingKernel);
    EXPECT_FALSE(test::runIn(sem, "aten::adaptive_max_pool2d", {{"self", "float32:r4"}, {"output_size", "[2,3]"}}).possibleError);
    EXPECT_TRUE(test::runIn(sem, "aten::adaptive_max_pool2d", {{"self", "int64:r4"}, {"output_size", "[2,3]"}}).possibleError);
    EXPECT_FALSE(test::runIn(sem, "aten::cumsum", {{"self", "bool:r2"}, {"dim", "-1"}}).possibleError);
    EXPECT_TRUE(test::runIn(sem, "aten::cumsum", {{"self", "bool:r2"}, {"dim", "-1"}, {"dtype", "bool"}}).possibleError);
    // The data names roles only where the harness measured them; nll_loss's line names self.
    auto gap = measuredCpuKernelGap(measuredCpuKernelGapLines(v, "aten::nll_loss"), DType::Int64);
    ASSERT_TRUE(gap);
    EXPECT_EQ(gap->roles, "self");
  }
}

TEST(CpuKernelGaps, MetaKernelsHaveNoCpuGap) {
  auto meta = Semantics::inContext(Semantics::shared(TorchVersion::V1_13), ExecContext{std::nullopt, Kernels::Meta});
  InferOutcome o = test::runIn(*meta, "aten::abs", {{"self", "bool:r1"}});
  test::expectTensor(o, 0, DType::Bool, 1);
  EXPECT_FALSE(o.possibleError);
}

TEST(CpuKernelGaps, ARuleThatModelsItsGapKeepsItsOwnAnswer) {
  // aminmax names its bfloat16 gap over a dim itself (1.13); without a dim the kernel runs, and the
  // measured table (which leaves out what the rule names) adds nothing.
  InferOutcome over = test::runIn(Semantics::of(TorchVersion::V1_13), "aten::aminmax", {{"self", "bfloat16:r1"}, {"dim", "0"}});
  ASSERT_TRUE(over.possibleError);
  EXPECT_EQ(over.possibleError->message.find("measured:"), std::string::npos) << over.possibleError->message;
  EXPECT_FALSE(test::runIn(Semantics::of(TorchVersion::V1_13), "aten::aminmax", {{"self", "bfloat16:r1"}}).possibleError);
}

} // namespace
} // namespace dtf
