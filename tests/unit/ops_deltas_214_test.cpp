//===- tests/unit/ops_deltas_214_test.cpp - 2.14 deltas a differential found -===//
//
// Disagreements with libtorch 2.14.1 that a differential run of random calls
// found and the exhaustive harness had not reached (issue 31, part 4), each
// replayed by hand in the 2.14 root; 1.13's answers checked on the host.
//
//===----------------------------------------------------------------------===//
#include "run_op.h"

#include "ops/may_raise.h"

namespace dtf::test {
namespace {

constexpr TorchVersion k113 = TorchVersion::V1_13, k214 = TorchVersion::V2_14;

/// run() (run_op.h) under PyTorch `version`, dtype names read as that version's.
InferOutcome runAt(TorchVersion version, const std::string &key,
                   const std::vector<std::pair<std::string, std::string>> &named) {
  return test::runIn(Semantics::of(version), key, named);
}

/// The call runs, and may raise an error of `kind`.
void expectPossibleError(const InferOutcome &o, ErrorKind kind) {
  ASSERT_EQ(o.status, InferOutcome::Status::Ok) << (o.error ? o.error->message : "");
  ASSERT_TRUE(o.possibleError.has_value());
  EXPECT_EQ(o.possibleError->kind, kind) << o.possibleError->message;
}

TEST(Deltas214, CosineSimilarityExpandsBeforePromoting) {
  // 2.14: a 0-dim operand keeps its dtype's weight (the operands are expanded first).
  expectTensor(runAt(k214, "aten::cosine_similarity", {{"x1", "float64:r0"}, {"x2", "bfloat16:r2"}, {"eps", "0.5"}}), 0,
               DType::Float64, 1);
  expectTensor(runAt(k214, "aten::cosine_similarity", {{"x1", "bfloat16:r2"}, {"x2", "float64:r0"}}), 0, DType::Float64, 1);
  expectTensor(runAt(k214, "aten::cosine_similarity", {{"x1", "bfloat16:r0"}, {"x2", "float16:r3"}}), 0, DType::Float32, 2);
  // An integral operand is cast to result_type first: it does not widen the result.
  expectTensor(runAt(k214, "aten::cosine_similarity", {{"x1", "int64:r0"}, {"x2", "bfloat16:r2"}}), 0, DType::BFloat16, 1);
  expectTensor(runAt(k214, "aten::cosine_similarity", {{"x1", "bool:r2"}, {"x2", "float64:r0"}}), 0, DType::Float64, 1);
  expectError(runAt(k214, "aten::cosine_similarity", {{"x1", "float32:r2"}, {"x2", "complex64:r0"}}));
  // 1.13 computes in result_type: the 0-dim float64 loses its tier.
  expectTensor(runAt(k113, "aten::cosine_similarity", {{"x1", "float64:r0"}, {"x2", "bfloat16:r2"}}), 0, DType::BFloat16, 1);
}

TEST(Deltas214, VarianceCorrectionMustBeReal) {
  for (const char *op : {"aten::var.correction", "aten::std.correction", "aten::var_mean.correction",
                         "aten::std_mean.correction"}) {
    InferOutcome imaginary = runAt(k214, op, {{"self", "float32:r2"}, {"correction", "1j"}});
    expectError(imaginary);
    ASSERT_TRUE(imaginary.error.has_value());
    EXPECT_EQ(imaginary.error->kind, ErrorKind::ValueDependent);
    EXPECT_NE(imaginary.error->message.find("without overflow"), std::string::npos) << imaginary.error->message;
    expectTensor(runAt(k214, op, {{"self", "float32:r2"}, {"correction", "1+0j"}}), 0, DType::Float32, 0);
    expectTensor(runAt(k214, op, {{"self", "float32:r2"}, {"correction", "2.5"}}), 0, DType::Float32, 0);
    // a complex of unknown value: answered, as any unknown value is
    expectTensor(runAt(k214, op, {{"self", "float64:r2"}, {"correction", "complex"}}), 0, DType::Float64, 0);
  }
  // 1.13's correction is an int?: a complex (or float) is refused when binding.
  const Schema *s = SchemaTable::of(k113).find("aten::var.correction");
  ASSERT_NE(s, nullptr);
  const SchemaType *t = s->args[s->argIndex("correction")].type.get();
  for (const char *text : {"1j", "1+0j", "2.5"}) {
    NotationResult r = parseNotation(text, t, &Semantics::of(k113).types());
    EXPECT_FALSE(r.value.has_value()) << text;
    EXPECT_TRUE(r.pytorchRaises) << text;
    EXPECT_TRUE(r.error.starts_with("must be int, not ")) << r.error;
  }
  EXPECT_TRUE(parseNotation("2", t, &Semantics::of(k113).types()).value.has_value());
  // an int list names the element's kind as Python's parser does
  NotationResult list = parseNotation("[0,1.5]", SchemaTable::of(k113).find("aten::sum.dim_IntList")->args[1].type.get());
  EXPECT_TRUE(list.pytorchRaises);
  EXPECT_EQ(list.error, "must be tuple of ints, but found element of type float at pos 2");
}

TEST(Deltas214, TakeAlongDimWithoutDimGathersInt32) {
  // dim=None flattens and gathers: 2.14's gather takes int32.
  expectTensor(runAt(k214, "aten::take_along_dim", {{"self", "bool:r2"}, {"indices", "int32:r0"}, {"dim", "None"}}), 0,
               DType::Bool, 1);
  expectError(runAt(k214, "aten::take_along_dim", {{"self", "bool:r2"}, {"indices", "int16:r1"}, {"dim", "None"}}));
  // with a dim, take_along_dim checks for int64 itself
  expectError(runAt(k214, "aten::take_along_dim", {{"self", "bool:r2"}, {"indices", "int32:r2"}, {"dim", "0"}}));
  expectTensor(runAt(k214, "aten::take_along_dim", {{"self", "bool:r2"}, {"indices", "int64:r2"}, {"dim", "0"}}), 0,
               DType::Bool, 2);
  // 1.13's gather takes int64 only
  expectError(runAt(k113, "aten::take_along_dim", {{"self", "bool:r2"}, {"indices", "int32:r0"}, {"dim", "None"}}));
}

TEST(Deltas214, NuclearNormBatchesIn214) {
  expectTensor(runAt(k214, "aten::nuclear_norm", {{"self", "float64:r3"}, {"keepdim", "False"}}), 0, DType::Float64, 1);
  expectTensor(runAt(k214, "aten::nuclear_norm", {{"self", "complex64:r3"}, {"keepdim", "True"}}), 0, DType::Float32, 3);
  expectError(runAt(k214, "aten::nuclear_norm", {{"self", "float64:r1"}}));
  expectError(runAt(k113, "aten::nuclear_norm", {{"self", "float64:r3"}}));
  expectTensor(runAt(k113, "aten::nuclear_norm", {{"self", "float64:r2"}}), 0, DType::Float64, 0);
  // a dim named twice, also as -2 and 1 of a 3-D self, in both versions
  for (TorchVersion v : {k113, k214}) {
    expectError(runAt(v, "aten::nuclear_norm.dim", {{"self", "float64:r3"}, {"dim", "[1,1]"}}));
    expectError(runAt(v, "aten::nuclear_norm.dim", {{"self", "float64:r3"}, {"dim", "[1,-2]"}}));
    expectTensor(runAt(v, "aten::nuclear_norm.dim", {{"self", "float64:r3"}, {"dim", "[0,1]"}, {"keepdim", "True"}}), 0,
                 DType::Float64, 3);
  }
}

TEST(Deltas214, IsinMayRaiseOnItsSortingPath) {
  // uint16:r0 with int32s compares in int32 (result_type's tiers) for few
  // test elements, but sorts many by concatenating, which promotes untiered
  // and raises: unknown, with that error possible.
  InferOutcome o = runAt(k214, "aten::isin.Tensor_Tensor", {{"elements", "uint16:r0"}, {"test_elements", "int32:r1"}});
  expectPossibleError(o, ErrorKind::ValueDependent);
  EXPECT_EQ(o.outputs.at(0).dtype(), std::nullopt) << o.outputs.at(0).str();
  EXPECT_NE(o.possibleError->message.find("uint16"), std::string::npos) << o.possibleError->message;
  expectPossibleError(runAt(k214, "aten::isin.Scalar_Tensor", {{"element", "2"}, {"test_elements", "uint16:r1"}}),
                      ErrorKind::ValueDependent);
  // where both promotions agree there is no value-dependent error (the measured kernel gaps name
  // uint16 for any operand of that dtype, data/cpu-kernel-gaps-2.14.txt: a possible error of
  // their own kind, over-approximated where the call computes in another dtype, as here)
  InferOutcome plain = runAt(k214, "aten::isin.Tensor_Tensor", {{"elements", "uint16:r0"}, {"test_elements", "float32:r1"}});
  expectTensor(plain, 0, DType::Bool, 0);
  EXPECT_TRUE(!plain.possibleError || plain.possibleError->kind == ErrorKind::MissingKernel) << plain.possibleError->message;
  expectTensor(runAt(k214, "aten::isin.Scalar_Tensor", {{"element", "2.5"}, {"test_elements", "uint16:r1"}}), 0,
               DType::Bool, 0);
  // a 1-D uint16 with int32s raises whatever the sizes
  expectError(runAt(k214, "aten::isin.Tensor_Tensor", {{"elements", "uint16:r1"}, {"test_elements", "int32:r1"}}));
}

TEST(Deltas214, RankAndArgumentRefusals) {
  for (TorchVersion v : {k113, k214}) {
    // channels_last restrides the resized self: the template's rank must be 4
    expectError(runAt(v, "aten::resize_as_", {{"self", "float32:r2"}, {"the_template", "float32:r2"},
                                               {"memory_format", "channels_last"}}));
    expectError(runAt(v, "aten::resize_as_", {{"self", "float32:r4"}, {"the_template", "float32:r2"},
                                               {"memory_format", "channels_last"}}));
    expectTensor(runAt(v, "aten::resize_as_", {{"self", "float32:r2"}, {"the_template", "float32:r4"},
                                                {"memory_format", "channels_last"}}), 0, DType::Float32, 4);
    expectError(runAt(v, "aten::resize_as_", {{"self", "float32:r2"}, {"the_template", "float32:r4"},
                                               {"memory_format", "channels_last_3d"}}));
    expectTensor(runAt(v, "aten::resize_as_", {{"self", "float32:r2"}, {"the_template", "float32:r4"},
                                                {"memory_format", "preserve_format"}}), 0, DType::Float32, 4);
    expectError(runAt(v, "aten::resize_", {{"self", "float32:r2"}, {"size", "[2,3]"}, {"memory_format", "channels_last"}}));
    // unflatten into no sizes
    expectError(runAt(v, "aten::unflatten.int", {{"self", "float32:r2"}, {"dim", "1"}, {"sizes", "[]"}}));
  }
  // rms_norm normalizes at least one trailing dim that input has
  expectError(runAt(k214, "aten::rms_norm", {{"input", "float32:r0"}, {"normalized_shape", "[1]"}}));
  expectError(runAt(k214, "aten::rms_norm", {{"input", "float32:r1"}, {"normalized_shape", "[]"}}));
  expectError(runAt(k214, "aten::rms_norm", {{"input", "float32:r1"}, {"normalized_shape", "[2,2]"}}));
  expectTensor(runAt(k214, "aten::rms_norm", {{"input", "float32:r1"}, {"normalized_shape", "[2]"}}), 0, DType::Float32, 1);
}

TEST(Deltas214, KernelGapsArePossibleErrorsOfTheirOwnKind) {
  // aminmax's CPU kernel has no complex case (both versions): the dtype stands,
  // the gap is a possible error that names the dtype.
  for (TorchVersion v : {k113, k214}) {
    InferOutcome o = runAt(v, "aten::aminmax", {{"self", "complex64:r0"}});
    expectTensor(o, 0, DType::Complex64, 0);
    expectPossibleError(o, ErrorKind::MissingKernel);
    EXPECT_EQ(kernelGapText(*o.possibleError, name(v)), fmt::format("no CPU kernel for complex64 in {}", name(v)));
  }
  // 1.13 lacks float16, and bfloat16 over a dim; 2.14 the barebones unsigned
  // types and float8, except a 0-dim self with a dim (copied, not reduced)
  expectPossibleError(runAt(k113, "aten::aminmax", {{"self", "float16:r1"}}), ErrorKind::MissingKernel);
  expectPossibleError(runAt(k113, "aten::aminmax", {{"self", "bfloat16:r1"}, {"dim", "0"}}), ErrorKind::MissingKernel);
  EXPECT_FALSE(runAt(k113, "aten::aminmax", {{"self", "bfloat16:r1"}}).possibleError.has_value());
  EXPECT_FALSE(runAt(k214, "aten::aminmax", {{"self", "float16:r1"}}).possibleError.has_value());
  expectPossibleError(runAt(k214, "aten::aminmax", {{"self", "uint16:r1"}}), ErrorKind::MissingKernel);
  EXPECT_FALSE(runAt(k214, "aten::aminmax", {{"self", "uint16:r0"}, {"dim", "0"}}).possibleError.has_value());
  expectPossibleError(runAt(k214, "aten::aminmax", {{"self", "complex64:r0"}, {"dim", "0"}}), ErrorKind::MissingKernel);
  EXPECT_FALSE(runAt(k214, "aten::aminmax", {{"self", "int32:r1"}}).possibleError.has_value());
  // prims::var runs aten's var kernel on CPU, which refuses float8
  InferOutcome var = runAt(k214, "prims::var", {{"inp", "float8_e5m2:r1"}, {"dims", "[0]"}});
  expectTensor(var, 0, DType::Float8E5M2, 0);
  expectPossibleError(var, ErrorKind::MissingKernel);
  EXPECT_EQ(kernelGapText(*var.possibleError, "2.14"), "no CPU kernel for float8_e5m2 in 2.14");
  EXPECT_FALSE(runAt(k214, "prims::var", {{"inp", "float32:r1"}, {"dims", "[0]"}}).possibleError.has_value());
  // an unknown self: the joined answer carries the gap of its complex cases
  expectPossibleError(runAt(k214, "aten::aminmax", {{"self", "?:r1"}}), ErrorKind::MissingKernel);
  // other kinds have no gap text
  EXPECT_EQ(kernelGapText(RuleError{ErrorKind::Semantic, "x"}, "2.14"), "");
  // a missing-kernel error written before cpuKernelGap names no dtype in words
  EXPECT_EQ(kernelGapText(RuleError{ErrorKind::MissingKernel, "aten::isin.Tensor_Tensor: \"isin_default_cpu\" not implemented for Half"}, "1.13"),
            "no CPU kernel for these dtypes in 1.13");
}

/// Result `i` is a list printed as `text` (`[float64:r1,float16:r2]`).
void expectList(const InferOutcome &o, size_t i, const std::string &text) {
  ASSERT_EQ(o.status, InferOutcome::Status::Ok) << (o.error ? o.error->message : "");
  ASSERT_GT(o.outputs.size(), i);
  EXPECT_EQ(o.outputs[i].str(), text);
}

// Overloads new in 2.14 (issue 33), each rule proven by the conformance harness.
TEST(New214, ForeachRunsItsBaseOpPerElement) {
  expectList(runAt(k214, "aten::_foreach_add.Tensor", {{"self", "[int32:r1,float16:r2]"}, {"other", "float64:r0"}}), 0,
             "[float64:r1,float16:r2]");
  expectError(runAt(k214, "aten::_foreach_add.Tensor", {{"self", "[int32:r1]"}, {"other", "float64:r1"}})); // 0-dim other
  expectError(runAt(k214, "aten::_foreach_clamp_max.List", {{"self", "[float32:r1]"}, {"other", "[]"}}));  // lengths
  expectError(runAt(k214, "aten::_foreach_div_.Tensor", {{"self", "[int32:r1]"}, {"other", "float32:r0"}})); // cast back
  expectList(runAt(k214, "aten::_foreach_pow.ScalarAndTensor", {{"self", "2.5"}, {"exponent", "[int64:r1,bool:r0]"}}), 0,
             "[float32:r1,float32:r0]");
  // addcmul's packed scalars: 1-D, each element a number of its dtype's kind
  expectList(runAt(k214, "aten::_foreach_addcmul.Tensor", {{"self", "[float16:r1]"}, {"tensor1", "[float16:r1]"},
                                                           {"tensor2", "[float16:r1]"}, {"scalars", "float64:r1"}}),
             0, "[float16:r1]");
  expectError(runAt(k214, "aten::_foreach_addcmul.Tensor", {{"self", "[float16:r1]"}, {"tensor1", "[float16:r1]"},
                                                            {"tensor2", "[float16:r1]"}, {"scalars", "float64:r0"}}));
  EXPECT_EQ(runAt(k214, "aten::_foreach_sign_", {{"self", "[float32:r1]"}}).outputs.size(), 0u);
}

TEST(New214, LinspaceTensorBoundsAndOutDtypeMatmuls) {
  expectTensor(runAt(k214, "aten::linspace.Tensor_Tensor", {{"start", "int64:r0"}, {"end", "complex128:r0"}, {"steps", "4"}}),
               0, DType::Complex64, 1);
  expectError(runAt(k214, "aten::logspace.Tensor_Scalar", {{"start", "float32:r1"}, {"end", "2"}, {"steps", "4"}}));
  expectError(runAt(k214, "aten::linspace.Scalar_Tensor", {{"start", "0"}, {"end", "complex64:r0"}, {"steps", "4"},
                                                          {"dtype", "float32"}}));
  expectTensor(runAt(k214, "aten::linspace.Tensor_Scalar_out", {{"start", "float64:r0"}, {"end", "2"}, {"steps", "4"},
                                                               {"out", "int8:r1"}}),
               0, DType::Int8, 1);
  // mm.dtype & co: CUDA/XPU kernels only; every CPU call raises
  InferOutcome mm = runAt(k214, "aten::mm.dtype", {{"self", "bfloat16:r2"}, {"mat2", "bfloat16:r2"}, {"out_dtype", "float32"}});
  expectError(mm);
  ASSERT_TRUE(mm.error.has_value());
  EXPECT_EQ(mm.error->kind, ErrorKind::MissingKernel);
}

TEST(New214, FusedOptimizerStateFollowsEachParameter) {
  const std::vector<std::pair<std::string, std::string>> hyper = {
      {"lr", "0.1"}, {"beta1", "0.9"}, {"beta2", "0.99"}, {"weight_decay", "0.0"}, {"eps", "1e-08"},
      {"amsgrad", "False"}, {"maximize", "False"}};
  auto adamw = [&](const char *self, const char *grads, std::vector<std::pair<std::string, std::string>> more = {}) {
    auto args = hyper;
    for (auto [k, v] : std::vector<std::pair<std::string, std::string>>{
             {"self", self}, {"grads", grads}, {"exp_avgs", self}, {"exp_avg_sqs", self}, {"max_exp_avg_sqs", "[]"},
             {"state_steps", "[float32:r0,int64:r0]"}})
      args.emplace_back(k, v);
    for (auto &m : more) args.push_back(m);
    return runAt(k214, "aten::_fused_adamw", args);
  };
  expectList(adamw("[float16:r1,float64:r2]", "[float16:r1,float64:r2]"), 1, "[float16:r1,float64:r2]");
  expectError(adamw("[float16:r1,float64:r2]", "[float16:r1,float32:r2]"));               // a grad of another dtype
  expectError(adamw("[int64:r1,float64:r2]", "[int64:r1,float64:r2]"));                   // no integral kernel
  expectError(adamw("[float16:r1,float64:r2]", "[float16:r1,float64:r2]", {{"grad_scale", "float16:r0"}}));
  // a found_inf of value 1 skips the step before its checks: unknown, not an error
  InferOutcome skipped = adamw("[float16:r1,float64:r2]", "[float16:r1,float32:r2]", {{"found_inf", "float32:r0"}});
  ASSERT_EQ(skipped.status, InferOutcome::Status::Ok);
  EXPECT_EQ(skipped.outputs[0].str(), "[?:r?...]");
  // 1.13's _fused_adam_ has no CPU kernel: no rule there
  EXPECT_EQ(Semantics::of(k113).registry().find("aten::_fused_adam_"), nullptr);
  EXPECT_NE(Semantics::of(k214).registry().find("aten::_fused_adam_"), nullptr);
}

TEST(New214, ScaledMmV2AndFloat8Ldexp) {
  const std::vector<std::pair<std::string, std::string>> tensorwise = {
      {"scale_a", "[float32:r0]"}, {"recipe_a", "[0]"}, {"swizzle_a", "[0]"}, {"scale_b", "[float32:r0]"},
      {"recipe_b", "[0]"}, {"swizzle_b", "[0]"}, {"bias", "None"}};
  auto v2 = [&](const char *a, const char *b, const char *out) {
    auto args = tensorwise;
    args.insert(args.end(), {{"self", a}, {"mat2", b}, {"out_dtype", out}});
    return runAt(k214, "aten::_scaled_mm_v2", args);
  };
  expectTensor(v2("float8_e5m2:r2", "float8_e4m3fn:r2", "None"), 0, DType::Float8E5M2, 2);
  expectTensor(v2("float8_e5m2:r2", "float8_e4m3fn:r2", "bfloat16"), 0, DType::BFloat16, 2);
  expectError(v2("float8_e5m2:r2", "bfloat16:r2", "None"));
  // ldexp: a 0-dim float8 self yields to a dimensioned other; a float8 other raises
  expectTensor(runAt(k214, "aten::ldexp.Tensor", {{"self", "float8_e5m2:r0"}, {"other", "float16:r1"}}), 0,
               DType::Float16, 1);
  expectError(runAt(k214, "aten::ldexp.Tensor", {{"self", "float8_e5m2:r1"}, {"other", "float16:r0"}}));
  expectError(runAt(k214, "aten::ldexp.Tensor", {{"self", "float16:r1"}, {"other", "float8_e4m3fn:r0"}}));
}

} // namespace
} // namespace dtf::test
