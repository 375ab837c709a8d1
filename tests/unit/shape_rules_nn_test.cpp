// Shape rules of the losses, recurrent layers, linalg, random and torchvision
// families on symbolic sizes (the conformance harness checks them on
// concrete ones against libtorch).
#include "run_op.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

using test::run;
using test::expectError;
using test::shapeOf;

TEST(ShapeRulesNn, Decompositions) {
  auto svd = run("aten::linalg_svd", {{"A", "float32:[s0,5,3]"}});
  EXPECT_EQ(shapeOf(svd, 0), "[s0, 5, 5]");
  EXPECT_EQ(shapeOf(svd, 1), "[s0, 3]");
  EXPECT_EQ(shapeOf(svd, 2), "[s0, 3, 3]");
  auto thin = run("aten::linalg_svd", {{"A", "float32:[s0,5,3]"}, {"full_matrices", "False"}});
  EXPECT_EQ(shapeOf(thin, 0), "[s0, 5, 3]");
  auto qr = run("aten::linalg_qr", {{"A", "float32:[2,s0,3]"}, {"mode", "'complete'"}});
  EXPECT_EQ(shapeOf(qr, 0), "[2, s0, s0]");
  EXPECT_EQ(shapeOf(qr, 1), "[2, s0, 3]");
  EXPECT_EQ(shapeOf(run("aten::linalg_qr", {{"A", "float32:[4,3]"}, {"mode", "'r'"}}), 0), "[0]");
  EXPECT_EQ(shapeOf(run("aten::linalg_pinv.atol_rtol_float", {{"self", "float32:[s0,5,3]"}})), "[s0, 3, 5]");
  auto eig = run("aten::linalg_eigh", {{"self", "float32:[s0,n,n]"}});
  EXPECT_EQ(shapeOf(eig, 0), "[s0, n]");
  EXPECT_EQ(shapeOf(eig, 1), "[s0, n, n]");
  auto lu = run("aten::linalg_lu_factor_ex", {{"A", "float32:[s0,4,4]"}});
  EXPECT_EQ(shapeOf(lu, 1), "[s0, 4]");
  EXPECT_EQ(shapeOf(lu, 2), "[s0]");
  // The batch dims of a solver's operands broadcast; the right-hand side's matrix stays.
  EXPECT_EQ(shapeOf(run("aten::linalg_solve_triangular",
                        {{"self", "float32:[s0,1,3,3]"}, {"B", "float32:[4,3,k]"}, {"upper", "True"}})),
            "[s0, 4, 3, k]");
  EXPECT_EQ(shapeOf(run("aten::linalg_vander", {{"x", "float32:[s0,n]"}})), "[s0, n, n]");
}

TEST(ShapeRulesNn, LossesAndDistances) {
  EXPECT_EQ(shapeOf(run("aten::cdist", {{"x1", "float32:[s0,p,3]"}, {"x2", "float32:[1,r,3]"}})), "[s0, p, r]");
  EXPECT_EQ(shapeOf(run("aten::pdist", {{"self", "float32:[5,4]"}})), "[10]");
  EXPECT_EQ(shapeOf(run("aten::cosine_similarity", {{"x1", "float32:[s0,1,8]"}, {"x2", "float32:[5,8]"}, {"dim", "-1"}})),
            "[s0, 5]");
  auto margin = run("aten::multilabel_margin_loss_forward",
                    {{"self", "float32:[s0,4]"}, {"target", "int64:[s0,4]"}, {"reduction", "0"}});
  EXPECT_EQ(shapeOf(margin, 0), "[s0]");
  EXPECT_EQ(shapeOf(margin, 1), "[s0, 4]");
  EXPECT_EQ(shapeOf(run("aten::multilabel_margin_loss_forward",
                        {{"self", "float32:[s0,4]"}, {"target", "int64:[s0,4]"}, {"reduction", "1"}})),
            "[]");
}

TEST(ShapeRulesNn, RecurrentLayers) {
  // Two directions: the output's last dim is twice the hidden size; h_n and c_n as given.
  auto lstm = run("aten::lstm.input", {{"input", "float32:[t,s0,4]"},
                                       {"hx", "[float32:[2,s0,3],float32:[2,s0,3]]"},
                                       {"params", "[float32:[12,4],float32:[12,3],float32:[12,4],float32:[12,3]]"},
                                       {"has_biases", "False"}, {"num_layers", "1"}, {"dropout", "0.0"},
                                       {"train", "False"}, {"bidirectional", "True"}, {"batch_first", "False"}});
  EXPECT_EQ(shapeOf(lstm, 0), "[t, s0, 6]");
  EXPECT_EQ(shapeOf(lstm, 1), "[2, s0, 3]");
  EXPECT_EQ(shapeOf(lstm, 2), "[2, s0, 3]");
  EXPECT_EQ(shapeOf(run("aten::gru_cell", {{"input", "float32:[s0,4]"}, {"hx", "float32:[s0,3]"},
                                           {"w_ih", "float32:[9,4]"}, {"w_hh", "float32:[9,3]"}})),
            "[s0, 3]");
}

TEST(ShapeRulesNn, RandomAndTorchvision) {
  EXPECT_EQ(shapeOf(run("aten::randn", {{"size", "[s0,3]"}})), "[s0, 3]");
  EXPECT_EQ(shapeOf(run("aten::multinomial", {{"self", "float32:[s0,10]"}, {"num_samples", "3"}})), "[s0, 3]");
  EXPECT_EQ(shapeOf(run("aten::bernoulli.p", {{"self", "float32:[s0,3]"}, {"p", "0.5"}})), "[s0, 3]");
  auto roi = run("torchvision::roi_pool", {{"input", "float32:[s0,8,h,w]"}, {"rois", "float32:[k,5]"},
                                           {"spatial_scale", "1.0"}, {"pooled_height", "2"}, {"pooled_width", "2"}});
  EXPECT_EQ(shapeOf(roi, 0), "[k, 8, 2, 2]");
  EXPECT_EQ(shapeOf(roi, 1), "[k, 8, 2, 2]");
  EXPECT_EQ(shapeOf(run("torchvision::ps_roi_align", {{"input", "float32:[s0,8,h,w]"}, {"rois", "float32:[k,5]"},
                                                      {"spatial_scale", "1.0"}, {"pooled_height", "2"},
                                                      {"pooled_width", "2"}, {"sampling_ratio", "-1"}})),
            "[k, 2, 2, 2]");
  // nms keeps a data-dependent number of boxes: an unbacked symbol.
  EXPECT_EQ(shapeOf(run("torchvision::nms", {{"dets", "float32:[n,4]"}, {"scores", "float32:[n]"},
                                             {"iou_threshold", "0.5"}})),
            "[u0]");
  auto hist = run("aten::histogram.bin_ct", {{"self", "float32:[s0]"}, {"bins", "10"}});
  EXPECT_EQ(shapeOf(hist, 0), "[10]");
  EXPECT_EQ(shapeOf(hist, 1), "[11]");
  EXPECT_EQ(shapeOf(run("aten::cumulative_trapezoid.dx", {{"y", "float32:[s0,5]"}})), "[s0, 4]");
}

TEST(ShapeRulesNn, SpectralAndAttention) {
  EXPECT_EQ(shapeOf(run("aten::fft_rfft", {{"self", "float32:[s0,6]"}})), "[s0, 4]");
  EXPECT_EQ(shapeOf(run("aten::fft_irfft", {{"self", "complex64:[s0,5]"}})), "[s0, 8]");
  EXPECT_EQ(shapeOf(run("aten::fft_rfftn", {{"self", "float32:[s0,4,5]"}, {"s", "[6,-1]"}})), "[s0, 6, 3]");
  EXPECT_EQ(shapeOf(run("aten::fft_fft2", {{"self", "complex64:[s0,4,5]"}, {"s", "[2,7]"}})), "[s0, 2, 7]");
  auto qkv = run("aten::_transform_bias_rescale_qkv",
                 {{"qkv", "float32:[s0,t,12]"}, {"qkv_bias", "float32:[12]"}, {"num_heads", "2"}});
  EXPECT_EQ(shapeOf(qkv, 2), "[s0, 2, t, 2]");
}

TEST(ShapeRulesNn, SequencesNormsAndOutOverloads) {
  // stft.center pads n_fft / 2 each side: (L + 16 - 16) // 4 + 1 frames, 16 / 2 + 1 bins.
  EXPECT_EQ(shapeOf(run("aten::stft.center", {{"self", "float32:[s0,L]"}, {"n_fft", "16"}, {"return_complex", "True"}})),
            "[s0, 9, (L//4) + 1]");
  EXPECT_EQ(shapeOf(run("aten::conv_tbc", {{"self", "float32:[t,s0,3]"}, {"weight", "float32:[3,3,5]"},
                                           {"bias", "float32:[5]"}, {"pad", "1"}})),
            "[t, s0, 5]");
  EXPECT_EQ(shapeOf(run("aten::pad_sequence", {{"sequences", "[float32:[a,3],float32:[b,3]]"}, {"batch_first", "True"}})),
            "[2, Max(a, b), 3]");
  // The batch of a padded packed sequence is batch_sizes[0], a value: an unbacked symbol, the
  // lengths' size too; T is len(batch_sizes).
  auto padded = run("aten::_pad_packed_sequence", {{"data", "float32:[?,4]"}, {"batch_sizes", "int64:[t]"},
                                                   {"batch_first", "True"}, {"padding_value", "0.0"}, {"total_length", "0"}});
  EXPECT_EQ(shapeOf(padded, 0), "[u0, t, 4]");
  EXPECT_EQ(shapeOf(padded, 1), "[u0]");
  // Packing: sum(lengths) rows and max(lengths) steps, two data-dependent counts (at most T*B and T).
  auto packed = run("aten::_pack_padded_sequence", {{"input", "float32:[5,2,3]"}, {"lengths", "int64:[2]"},
                                                    {"batch_first", "False"}});
  EXPECT_EQ(shapeOf(packed, 0), "[u0, 3]");
  EXPECT_EQ(shapeOf(packed, 1), "[u1]");
  EXPECT_EQ((*packed.outputs[0].shape())[0].range().hi, 10);
  EXPECT_EQ((*packed.outputs[1].shape())[0].range().hi, 5);
  expectError(run("aten::_pad_packed_sequence", {{"data", "float32:[?,4]"}, {"batch_sizes", "int64:[3]"},
                                                 {"batch_first", "True"}, {"padding_value", "0.0"}, {"total_length", "2"}}));
  auto ln = run("aten::native_layer_norm", {{"input", "float32:[s0,t,8]"}, {"normalized_shape", "[8]"},
                                            {"weight", "None"}, {"bias", "None"}, {"eps", "1e-5"}});
  EXPECT_EQ(shapeOf(ln, 1), "[s0, t, 1]");
  // An out overload has its functional's sizes (out is resized), not out's.
  EXPECT_EQ(shapeOf(run("aten::cat.out", {{"tensors", "[float32:[s0,3],float32:[s1,3]]"}, {"out", "float32:[2]"}})),
            "[s0 + s1, 3]");
}

} // namespace
} // namespace dtf
