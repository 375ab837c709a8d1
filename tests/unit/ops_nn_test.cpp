// Hand-checked cases for the nn / linear-algebra / view / indexing rules.
// Every expectation was measured on torch 1.13.1 (CPU).
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

using test::expectError;
using test::expectTensor;

TEST(OpsNn, MatmulNeedsOneDtypeAndFollowsRankRules) {
  expectTensor(run("aten::mm", {{"self", "int32:r2"}, {"mat2", "int32:r2"}}), 0, DType::Int32, 2);
  expectError(run("aten::mm", {{"self", "float32:r2"}, {"mat2", "float64:r2"}}));
  expectTensor(run("aten::matmul", {{"self", "float32:r1"}, {"other", "float32:r1"}}), 0, DType::Float32, 0);
  expectTensor(run("aten::matmul", {{"self", "float32:r3"}, {"other", "float32:r1"}}), 0, DType::Float32, 2);
  expectTensor(run("aten::matmul", {{"self", "float32:r1"}, {"other", "float32:r4"}}), 0, DType::Float32, 3);
  expectError(run("aten::matmul", {{"self", "int32:r1"}, {"other", "float32:r1"}}));
  // outer is a broadcasting multiply: it promotes.
  expectTensor(run("aten::outer", {{"self", "int32:r1"}, {"vec2", "float64:r1"}}), 0, DType::Float64, 2);
}

TEST(OpsNn, ParametersOfUnknownDtypeAndRankStillGiveTheInputsDtype) {
  // A traced module's parameters read through prim::GetAttr are typed only
  // `Tensor`: 26^4 cases for batch_norm's four, enumerated on demand.
  auto bn = run("aten::batch_norm", {{"input", "float32:r4"}, {"weight", "?"}, {"bias", "?"}, {"running_mean", "?"},
                                     {"running_var", "?"}, {"training", "False"}, {"momentum", "0.1"},
                                     {"eps", "1e-5"}, {"cudnn_enabled", "True"}});
  expectTensor(bn, 0, DType::Float32, 4);
  EXPECT_TRUE(bn.possibleError.has_value()); // parameters of another dtype raise
  // bfloat16 input: float32 parameters are accepted too (CPU mixed mode), the result stays bfloat16.
  expectTensor(run("aten::batch_norm", {{"input", "bfloat16:r4"}, {"weight", "?"}, {"bias", "?"},
                                        {"running_mean", "?"}, {"running_var", "?"}, {"training", "False"},
                                        {"momentum", "0.1"}, {"eps", "1e-5"}, {"cudnn_enabled", "True"}}),
               0, DType::BFloat16, 4);
  // linear: the weight's rank decides the result's, so only the dtype is known.
  auto lin = run("aten::linear", {{"input", "float64:r2"}, {"weight", "?"}, {"bias", "?"}});
  ASSERT_EQ(lin.status, InferOutcome::Status::Ok);
  EXPECT_EQ(lin.outputs[0].str(), "float64:r?");
}

TEST(OpsNn, AddmmChecksSelfButBaddbmmDoesNot) {
  expectError(run("aten::addmm", {{"self", "float64:r1"}, {"mat1", "float32:r2"}, {"mat2", "float32:r2"}}));
  expectTensor(run("aten::baddbmm", {{"self", "complex64:r3"}, {"batch1", "float32:r3"}, {"batch2", "float32:r3"}}),
               0, DType::Float32, 3);
  expectError(run("aten::baddbmm_", {{"self", "float64:r3"}, {"batch1", "float32:r3"}, {"batch2", "float32:r3"}}));
}

TEST(OpsNn, LinearBiasDependsOnInputRank) {
  // 2-D input: addmm, bias must match.
  expectError(run("aten::linear", {{"input", "float32:r2"}, {"weight", "float32:r2"}, {"bias", "float64:r1"}}));
  // 1-D input: matmul then add_: a castable bias is fine, a complex one is not.
  expectTensor(run("aten::linear", {{"input", "float32:r1"}, {"weight", "float32:r2"}, {"bias", "float64:r1"}}), 0,
               DType::Float32, 1);
  expectError(run("aten::linear", {{"input", "float32:r1"}, {"weight", "float32:r2"}, {"bias", "complex64:r1"}}));
}

TEST(OpsNn, ConvolutionBiasChecks) {
  expectError(run("aten::conv2d", {{"input", "float32:r4"}, {"weight", "float32:r4"}, {"bias", "float64:r1"}}));
  expectTensor(run("aten::conv1d", {{"input", "float32:r3"}, {"weight", "float32:r3"}, {"bias", "float64:r1"}}), 0,
               DType::Float32, 3);
  expectError(run("aten::conv1d", {{"input", "complex64:r3"}, {"weight", "complex64:r3"}, {"bias", "float32:r1"}}));
  expectTensor(run("aten::conv2d", {{"input", "int64:r4"}, {"weight", "int64:r4"}}), 0, DType::Int64, 4);
}

TEST(OpsNn, LayersAndLosses) {
  expectTensor(run("aten::embedding", {{"weight", "bool:r2"}, {"indices", "int32:r0"}}), 0, DType::Bool, 1);
  expectError(run("aten::embedding", {{"weight", "float32:r2"}, {"indices", "int16:r1"}}));
  expectError(run("aten::adaptive_avg_pool2d", {{"self", "int64:r4"}, {"output_size", "[1,1]"}}));
  auto mp = run("aten::max_pool2d_with_indices", {{"self", "bfloat16:r4"}, {"kernel_size", "[1,1]"}});
  expectTensor(mp, 0, DType::BFloat16, 4);
  expectTensor(mp, 1, DType::Int64, 4);
  // bf16 input may use f32 batch-norm parameters on CPU; f64 input may not.
  expectTensor(run("aten::batch_norm", {{"input", "bfloat16:r3"}, {"weight", "float32:r1"}, {"bias", "float32:r1"},
                                        {"running_mean", "float32:r1"}, {"running_var", "float32:r1"},
                                        {"training", "False"}, {"momentum", "0.1"}, {"eps", "1e-05"},
                                        {"cudnn_enabled", "False"}}),
               0, DType::BFloat16, 3);
  expectError(run("aten::layer_norm", {{"input", "bfloat16:r3"}, {"normalized_shape", "[2]"}, {"weight", "float32:r1"}}));
  expectError(run("aten::dropout", {{"input", "int32:r2"}, {"p", "0.5"}, {"train", "True"}}));
  expectTensor(run("aten::dropout", {{"input", "int32:r2"}, {"p", "0.5"}, {"train", "False"}}), 0, DType::Int32, 2);
  expectTensor(run("aten::mse_loss", {{"self", "int32:r2"}, {"target", "float64:r2"}}), 0, DType::Float64, 0);
  expectTensor(run("aten::huber_loss", {{"self", "float32:r2"}, {"target", "float64:r2"}}), 0, DType::Float32, 0);
}

TEST(OpsNn, ShapeRanksAndJoins) {
  expectTensor(run("aten::view", {{"self", "float16:r2"}, {"size", "[-1]"}}), 0, DType::Float16, 1);
  expectTensor(run("aten::flatten.using_ints", {{"self", "int8:r4"}, {"start_dim", "1"}}), 0, DType::Int8, 2);
  expectTensor(run("aten::flatten.using_ints", {{"self", "int8:r0"}}), 0, DType::Int8, 1);
  expectTensor(run("aten::select.int", {{"self", "float32:r3"}, {"dim", "0"}, {"index", "0"}}), 0, DType::Float32, 2);
  expectTensor(run("aten::unsqueeze", {{"self", "float32:r0"}, {"dim", "0"}}), 0, DType::Float32, 1);
  expectTensor(run("aten::cat", {{"tensors", "[int8:r1,uint8:r1]"}}), 0, DType::Int16, 1);
  // stack promotes with plain promote_types: zero-dim inputs get no lower tier.
  expectTensor(run("aten::stack", {{"tensors", "[float16:r0,float32:r0]"}}), 0, DType::Float32, 1);
  expectTensor(run("aten::repeat_interleave.Tensor", {{"repeats", "int32:r1"}}), 0, DType::Int32, 1);
}

TEST(OpsNn, IndexDtypes) {
  expectError(run("aten::gather", {{"self", "float32:r2"}, {"dim", "0"}, {"index", "int32:r2"}}));
  expectTensor(run("aten::index_select", {{"self", "float32:r2"}, {"dim", "0"}, {"index", "int32:r1"}}), 0,
               DType::Float32, 2);
  expectError(run("aten::scatter.src", {{"self", "float32:r2"}, {"dim", "0"}, {"index", "int64:r2"}, {"src", "float64:r2"}}));
  expectTensor(run("aten::index.Tensor", {{"self", "float32:r3"}, {"indices", "[int64:r2,None]"}}), 0,
               DType::Float32, 4);
  expectError(run("aten::index.Tensor", {{"self", "float32:r2"}, {"indices", "[int32:r1]"}}));
  expectTensor(run("aten::bincount", {{"self", "int64:r1"}, {"weights", "int32:r1"}}), 0, DType::Float64, 1);
  expectTensor(run("aten::bucketize.Tensor", {{"self", "float32:r2"}, {"boundaries", "float32:r1"},
                                              {"out_int32", "True"}}),
               0, DType::Int32, 2);
}

TEST(OpsNn, InPlaceResizesChangeRank) {
  // squeeze_/unsqueeze_ return self after the resize.
  expectTensor(run("aten::squeeze_.dim", {{"self", "int8:r0"}, {"dim", "0"}}), 0, DType::Int8, 0);
  expectTensor(run("aten::unsqueeze_", {{"self", "int8:r0"}, {"dim", "0"}}), 0, DType::Int8, 1);
  expectTensor(run("aten::unsqueeze_", {{"self", "int8:r2"}, {"dim", "0"}}), 0, DType::Int8, 3);
}

TEST(OpsNn, EmbeddingBagPromotesIndicesAndOffsets) {
  auto b = run("aten::embedding_bag", {{"weight", "float32:r2"}, {"indices", "uint8:r1"}, {"offsets", "int32:r1"}});
  expectTensor(b, 0, DType::Float32, 2);
  expectTensor(b, 1, DType::Int32, 1);
  expectError(run("aten::embedding_bag", {{"weight", "float32:r2"}, {"indices", "int8:r1"}, {"offsets", "int16:r1"}}));
  expectError(run("aten::embedding_bag", {{"weight", "bfloat16:r2"}, {"indices", "int64:r1"}, {"offsets", "int64:r1"}}));
}

TEST(OpsNn, StftReturnComplexAndWindow) {
  // return_complex=None on a real input only warns in 1.13: the real view.
  expectTensor(run("aten::stft", {{"self", "float32:r1"}, {"n_fft", "4"}}), 0, DType::Float32, 3);
  expectTensor(run("aten::stft", {{"self", "float32:r2"}, {"n_fft", "4"}, {"return_complex", "True"}}), 0,
               DType::Complex64, 3);
  // A complex window makes the default complex; the window promotes.
  expectTensor(run("aten::stft", {{"self", "float32:r1"}, {"n_fft", "4"}, {"window", "complex128:r1"}}), 0,
               DType::Complex128, 2);
  expectTensor(run("aten::stft", {{"self", "complex64:r1"}, {"n_fft", "4"}, {"window", "float64:r1"},
                                  {"return_complex", "False"}}),
               0, DType::Float64, 3);
  expectError(run("aten::stft", {{"self", "int32:r1"}, {"n_fft", "4"}, {"return_complex", "True"}}));
}

TEST(OpsNn, EinsumPathDependence) {
  expectTensor(run("aten::einsum", {{"equation", "'ij,jk->ik'"}, {"tensors", "[float32:r2,float32:r2]"}}), 0,
               DType::Float32, 2);
  // No summation: a broadcasting multiply, promote_types.
  expectTensor(run("aten::einsum", {{"equation", "'ij,ij->ij'"}, {"tensors", "[uint8:r2,int8:r2]"}}), 0,
               DType::Int16, 2);
  // One integral operand that sums: int64.
  expectTensor(run("aten::einsum", {{"equation", "'ij->i'"}, {"tensors", "[int32:r2]"}}), 0, DType::Int64, 1);
  // Integral contraction: int32 or int64 depending on sizes -> unknown.
  auto o = run("aten::einsum", {{"equation", "'ij,j->j'"}, {"tensors", "[int32:r2,int32:r1]"}});
  ASSERT_EQ(o.status, InferOutcome::Status::Ok);
  EXPECT_FALSE(o.outputs[0].dtype().has_value());
}

/// A tensor of this dtype and shape, with the shape's size-1 facts.
Value shaped(DType d, std::vector<int> shape) {
  UnitDims u;
  for (size_t i = 0; i < shape.size(); ++i) (shape[i] == 1 ? u.ones : u.others) |= 1u << i;
  return Value::tensor(d, Rank::exact(static_cast<int>(shape.size()))).withUnitDims(u);
}

/// _trilinear(i1, i2, i3, expand1..3, sumdim, unroll_dim) with shaped tensors.
InferOutcome trilinear(Value i1, Value i2, Value i3, const std::string &e1, const std::string &e2,
                       const std::string &e3, const std::string &sumdim, const std::string &unroll) {
  const Schema *s = SchemaTable::of(TorchVersion::V1_13).find("aten::_trilinear");
  std::vector<std::pair<std::string, Value>> args{{"i1", i1}, {"i2", i2}, {"i3", i3}};
  const std::pair<const char *, std::string> lists[] = {
      {"expand1", e1}, {"expand2", e2}, {"expand3", e3}, {"sumdim", sumdim}, {"unroll_dim", unroll}};
  for (const auto &[n, text] : lists) args.emplace_back(n, *parseNotation(text, s->args[s->argIndex(n)].type.get()).value);
  return infer(Semantics::of(TorchVersion::V1_13).registry(), *s, bindArguments(*s, {}, args).args);
}

TEST(OpsNn, TrilinearFollowsItsSumproductPairs) {
  using D = DType;
  // bilinear's own call: one dtype, rank i1.dim() + len(expand1) - len(sumdim).
  expectTensor(trilinear(shaped(D::Float32, {2, 3}), shaped(D::Float32, {4, 3, 5}), shaped(D::Float32, {2, 5}),
                         "[1,3]", "[0]", "[1,2]", "[2,3]", "1"),
               0, D::Float32, 2);
  // No sums: promoting muls, then an in-place add into i1's dtype.
  expectTensor(trilinear(shaped(D::Float64, {2}), shaped(D::Float32, {2}), shaped(D::Float32, {2}), "[]", "[]",
                         "[]", "[]", "0"),
               0, D::Float64, 1);
  expectError(trilinear(shaped(D::Int64, {2}), shaped(D::Float32, {2}), shaped(D::Int64, {2}), "[]", "[]", "[]",
                        "[]", "0"));
  // A sum over a dim of i3: bmm of (i1*i2) with i3 needs one dtype.
  expectError(trilinear(shaped(D::Float32, {2, 3}), shaped(D::Float64, {2, 3}), shaped(D::Float32, {2, 3}), "[]",
                        "[]", "[]", "[1]", "0"));
  expectTensor(trilinear(shaped(D::Float32, {2, 3}), shaped(D::Int32, {2, 1}), shaped(D::Float32, {2, 1}), "[]",
                         "[]", "[]", "[1]", "0"),
               0, D::Float32, 1);
  // ... after summing a dim only one side has: bool becomes int64.
  expectError(trilinear(shaped(D::Bool, {2, 3}), shaped(D::Bool, {2, 1}), shaped(D::Bool, {2, 1}), "[]", "[]",
                        "[]", "[1]", "0"));
  // Summing i1 alone (int32 -> int64) before bmm with i2 raises; not when
  // i2 has that dim too, nor when its size is unknown (it may).
  expectError(trilinear(shaped(D::Int32, {2, 3}), shaped(D::Int32, {2, 1}), shaped(D::Int32, {2}), "[]", "[]",
                        "[1]", "[1]", "0"));
  expectTensor(trilinear(shaped(D::Int32, {2, 3}), shaped(D::Int32, {2, 3}), shaped(D::Int32, {2}), "[]", "[]",
                         "[1]", "[1]", "0"),
               0, D::Int32, 1);
  expectTensor(trilinear(shaped(D::Int32, {2, 3}), Value::tensor(D::Int32, Rank::exact(2)), shaped(D::Int32, {2}),
                         "[]", "[]", "[1]", "[1]", "0"),
               0, D::Int32, 1);
  // Ranks must agree after expansion, unless every slice is empty.
  expectError(trilinear(shaped(D::Float32, {2}), shaped(D::Float32, {2, 2}), shaped(D::Float32, {2}), "[]", "[]",
                        "[]", "[]", "0"));
  expectTensor(trilinear(shaped(D::Float32, {2}), shaped(D::Float32, {2, 3}), shaped(D::Float32, {2, 4, 5}), "[1]",
                         "[1]", "[1]", "[]", "1"),
               0, D::Float32, 2);
  // unroll_dim and the dim lists are range-checked against the total.
  expectError(trilinear(shaped(D::Float32, {2}), shaped(D::Float32, {2}), shaped(D::Float32, {2}), "[]", "[]", "[]",
                        "[]", "1"));
  expectError(trilinear(shaped(D::Float32, {2}), shaped(D::Float32, {2}), shaped(D::Float32, {2}), "[]", "[]", "[]",
                        "[1]", "0"));
}

/// einsum over shaped tensors (their size-1 facts known).
InferOutcome einsum(const std::string &eq, std::vector<Value> tensors) {
  const Schema *s = SchemaTable::of(TorchVersion::V1_13).find("aten::einsum");
  std::vector<std::pair<std::string, Value>> args{{"equation", Value::string(eq)},
                                                  {"tensors", Value::list(std::move(tensors))}};
  return infer(Semantics::of(TorchVersion::V1_13).registry(), *s, bindArguments(*s, {}, args).args);
}

TEST(OpsNn, EinsumExactWithSizeFacts) {
  using D = DType;
  // A label of size != 1 in both operands: bmm, which keeps int32.
  expectTensor(einsum("ij,jk->ik", {shaped(D::Int32, {2, 2}), shaped(D::Int32, {2, 2})}), 0, D::Int32, 2);
  // Size 1 in both: a multiply. Size != 1 in one only: sum() there (int64) first.
  expectTensor(einsum("ij,jk->ik", {shaped(D::Int32, {2, 1}), shaped(D::Int32, {1, 2})}), 0, D::Int32, 2);
  expectTensor(einsum("ij,jk->ik", {shaped(D::Int32, {2, 3}), shaped(D::Int32, {1, 2})}), 0, D::Int64, 2);
  expectTensor(einsum("ij,jk->ik", {shaped(D::Float32, {2, 1}), shaped(D::Float64, {1, 2})}), 0, D::Float64, 2);
  expectError(einsum("ij,jk->ik", {shaped(D::Float32, {2, 2}), shaped(D::Float64, {2, 2})}));
  expectError(einsum("ij,jk,kl->il", {shaped(D::Int32, {2, 2}), shaped(D::Int32, {2, 2}), shaped(D::Int64, {2, 2})}));
  // One operand: sum() over contracted labels, none otherwise.
  expectTensor(einsum("ii", {shaped(D::Int32, {2, 2})}), 0, D::Int64, 0);
  expectTensor(einsum("ij->ji", {shaped(D::Int32, {2, 2})}), 0, D::Int32, 2);
  // Subscripts must match each operand's rank.
  expectError(einsum("ij,jk", {shaped(D::Int32, {2}), shaped(D::Int32, {2, 2})}));
}

TEST(OpsNn, MultiHeadAttention) {
  std::vector<std::pair<std::string, std::string>> a{
      {"query", "float32:r3"},       {"key", "float32:r3"},        {"value", "float32:r3"},
      {"embed_dim", "4"},            {"num_head", "2"},            {"qkv_weight", "float32:r2"},
      {"qkv_bias", "float32:r1"},    {"proj_weight", "float32:r2"}, {"proj_bias", "float32:r1"}};
  auto o = run("aten::_native_multi_head_attention", a);
  expectTensor(o, 0, DType::Float32, 3);
  expectTensor(o, 1, DType::Float32, 3);
  a.push_back({"average_attn_weights", "False"});
  expectTensor(run("aten::_native_multi_head_attention", a), 1, DType::Float32, 4);
  a[5] = {"qkv_weight", "float64:r2"};
  expectError(run("aten::_native_multi_head_attention", a));
}

/// PyTorch raises for every case, for want of a CPU kernel.
void expectMissingKernel(const InferOutcome &o) {
  ASSERT_EQ(o.status, InferOutcome::Status::Error);
  EXPECT_EQ(o.error->kind, ErrorKind::MissingKernel) << o.error->message;
}

TEST(OpsNn, TransformerEncoderLayerFastPath) {
  std::vector<std::pair<std::string, std::string>> a{
      {"src", "float32:r3"},         {"embed_dim", "4"},          {"num_heads", "2"},
      {"qkv_weight", "float32:r2"},  {"qkv_bias", "float32:r1"},  {"proj_weight", "float32:r2"},
      {"proj_bias", "float32:r1"},   {"use_gelu", "False"},       {"norm_first", "False"},
      {"eps", "1e-05"},              {"norm_weight_1", "float32:r1"}, {"norm_bias_1", "float32:r1"},
      {"norm_weight_2", "float32:r1"}, {"norm_bias_2", "float32:r1"}, {"ffn_weight_1", "float32:r2"},
      {"ffn_bias_1", "float32:r1"},  {"ffn_weight_2", "float32:r2"}, {"ffn_bias_2", "float32:r1"}};
  expectTensor(run("aten::_transformer_encoder_layer_fwd", a), 0, DType::Float32, 3);
  // Every tensor must have src's dtype.
  auto b = a;
  b[15] = {"ffn_bias_1", "float64:r1"};
  expectError(run("aten::_transformer_encoder_layer_fwd", b));
  // A padding mask needs its mask_type; 0 (src_mask) is refused on CPU.
  b = a;
  b.push_back({"mask", "bool:r2"});
  expectError(run("aten::_transformer_encoder_layer_fwd", b));
  b.push_back({"mask_type", "1"});
  expectTensor(run("aten::_transformer_encoder_layer_fwd", b), 0, DType::Float32, 3);
  b.back() = {"mask_type", "0"};
  expectMissingKernel(run("aten::_transformer_encoder_layer_fwd", b));
  // float16: no CPU addmm kernel.
  b = a;
  for (auto &[n, v] : b)
    if (v.starts_with("float32")) v = "float16" + v.substr(7);
  expectMissingKernel(run("aten::_transformer_encoder_layer_fwd", b));
  // A scripted module's parameters (prim::GetAttr) are of unknown dtype and
  // rank: the result is still src's, enumerated on demand within budget.
  b = a;
  b[0] = {"src", "bfloat16:r3"};
  for (auto &[n, v] : b)
    if (n != "src" && v.starts_with("float32")) v = "?";
  auto o = run("aten::_transformer_encoder_layer_fwd", b);
  expectTensor(o, 0, DType::BFloat16, 3);
  EXPECT_TRUE(o.possibleError.has_value());
}

TEST(OpsNn, TransformBiasRescaleQkv) {
  auto o = run("aten::_transform_bias_rescale_qkv", {{"qkv", "float16:r3"}, {"qkv_bias", "float16:r1"}, {"num_heads", "2"}});
  for (size_t i = 0; i < 3; ++i) expectTensor(o, i, DType::Float16, 4);
  expectError(run("aten::_transform_bias_rescale_qkv", {{"qkv", "float32:r3"}, {"qkv_bias", "float64:r1"}, {"num_heads", "2"}}));
  expectError(run("aten::_transform_bias_rescale_qkv", {{"qkv", "int32:r3"}, {"qkv_bias", "int32:r1"}, {"num_heads", "2"}}));
  expectError(run("aten::_transform_bias_rescale_qkv", {{"qkv", "float32:r2"}, {"qkv_bias", "float32:r1"}, {"num_heads", "2"}}));
}

TEST(OpsNn, PadEnumAndAntialiasedUpsampling) {
  // _pad_enum modes: 0 reflect, 1 replicate, 2 circular, 3 constant.
  expectTensor(run("aten::_pad_enum", {{"self", "float32:r3"}, {"pad", "[1,1]"}, {"mode", "0"}}), 0, DType::Float32, 3);
  expectTensor(run("aten::_pad_enum", {{"self", "int32:r2"}, {"pad", "[1,1]"}, {"mode", "3"}, {"value", "2.5"}}), 0,
               DType::Int32, 2);
  expectTensor(run("aten::_pad_enum", {{"self", "bool:r4"}, {"pad", "[1,1,1,1]"}, {"mode", "2"}}), 0, DType::Bool, 4);
  expectError(run("aten::_pad_enum", {{"self", "float32:r2"}, {"pad", "[1,1]"}, {"mode", "2"}}));    // circular: 0 pads for 2-D
  expectError(run("aten::_pad_enum", {{"self", "float32:r4"}, {"pad", "[1,1]"}, {"mode", "0"}}));    // not implemented
  expectError(run("aten::_pad_enum", {{"self", "float32:r3"}, {"pad", "[1,1]"}, {"mode", "1"}, {"value", "2.5"}}));
  expectError(run("aten::_pad_enum", {{"self", "float32:r0"}, {"pad", "[1,1]"}, {"mode", "3"}})); // too long
  expectError(run("aten::_pad_enum", {{"self", "float32:r3"}, {"pad", "[1]"}, {"mode", "3"}}));
  // _upsample_bilinear2d_aa: a 4-D float32/float64 input on CPU.
  expectTensor(run("aten::_upsample_bilinear2d_aa", {{"self", "float64:r4"}, {"output_size", "[4,4]"}, {"align_corners", "False"}}),
               0, DType::Float64, 4);
  expectError(run("aten::_upsample_bilinear2d_aa", {{"self", "float32:r3"}, {"output_size", "[4,4]"}, {"align_corners", "False"}}));
  expectError(run("aten::_upsample_bilinear2d_aa", {{"self", "float32:r4"}, {"output_size", "[4]"}, {"align_corners", "False"}}));
  expectMissingKernel(
      run("aten::_upsample_bilinear2d_aa", {{"self", "bfloat16:r4"}, {"output_size", "[4,4]"}, {"align_corners", "False"}}));
  expectTensor(run("aten::_upsample_bilinear2d_aa.vec", {{"input", "float32:r4"}, {"output_size", "None"},
                                                          {"align_corners", "True"}, {"scale_factors", "[2.0,2.0]"}}),
               0, DType::Float32, 4);
  expectError(run("aten::_upsample_bilinear2d_aa.vec", {{"input", "float32:r4"}, {"output_size", "None"},
                                                         {"align_corners", "True"}, {"scale_factors", "None"}}));
}

TEST(OpsNn, NormsLossesAndIndexPutDetails) {
  // Evaluation-mode batch_norm needs the running statistics.
  expectError(run("aten::batch_norm", {{"input", "float32:r3"}, {"weight", "None"}, {"bias", "None"},
                                       {"running_mean", "None"}, {"running_var", "None"}, {"training", "False"},
                                       {"momentum", "0.1"}, {"eps", "1e-05"}, {"cudnn_enabled", "False"}}));
  // binary_cross_entropy: the weight is applied in place.
  expectTensor(run("aten::binary_cross_entropy", {{"self", "float32:r2"}, {"target", "float32:r2"}, {"weight", "int64:r2"}}),
               0, DType::Float32, 0);
  expectError(run("aten::binary_cross_entropy", {{"self", "float32:r2"}, {"target", "float32:r2"}, {"weight", "complex64:r2"}}));
  // nll_loss takes uint8 targets, nll_loss2d does not.
  expectTensor(run("aten::nll_loss", {{"self", "float32:r2"}, {"target", "uint8:r1"}}), 0, DType::Float32, 0);
  expectError(run("aten::nll_loss2d", {{"self", "float32:r4"}, {"target", "uint8:r3"}}));
  // A single bool mask with a 0-dim value is a masked_fill_: the value is cast.
  expectTensor(run("aten::index_put", {{"self", "bool:r2"}, {"indices", "[bool:r1]"}, {"values", "int64:r0"}}), 0,
               DType::Bool, 2);
  expectError(run("aten::index_put", {{"self", "bool:r2"}, {"indices", "[int64:r1]"}, {"values", "int64:r0"}}));
}

// nn.utils.weight_norm traces to _weight_norm: the fused kernel (one dtype)
// at dim 0 or the last dim without half; the promoting composite otherwise.
TEST(OpsNn, WeightNormFusedOrComposite) {
  expectTensor(run("aten::_weight_norm", {{"v", "float32:r2"}, {"g", "float32:r2"}, {"dim", "0"}}), 0, DType::Float32, 2);
  expectError(run("aten::_weight_norm", {{"v", "float32:r2"}, {"g", "float64:r2"}, {"dim", "0"}}));
  expectTensor(run("aten::_weight_norm", {{"v", "float16:r2"}, {"g", "float32:r2"}, {"dim", "0"}}), 0, DType::Float32, 2);
  expectTensor(run("aten::_weight_norm", {{"v", "bfloat16:r2"}, {"g", "float16:r2"}, {"dim", "0"}}), 0, DType::Float32, 2);
  expectTensor(run("aten::_weight_norm", {{"v", "complex64:r2"}, {"g", "float16:r2"}, {"dim", "0"}}), 0, DType::Complex64, 2);
  expectError(run("aten::_weight_norm", {{"v", "int64:r2"}, {"g", "float16:r2"}, {"dim", "0"}}));
  // dim 1 of a 3-D v is neither first nor last: the composite, which promotes
  expectTensor(run("aten::_weight_norm", {{"v", "float32:r3"}, {"g", "float64:r3"}, {"dim", "1"}}), 0, DType::Float64, 3);
}

} // namespace
} // namespace dtf
