// Shape rules of the splits (list results), indexing, padding and
// resampling, and data-dependent results, on symbolic sizes and on the size
// errors PyTorch raises (the conformance harness checks concrete sizes
// against libtorch).
#include "run_op.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

using test::run;
using test::shapeOf;

/// A list result's elements' sizes, `[1, 3] [1, 3]`; "?" for a list of
/// unknown length.
std::string piecesOf(const InferOutcome &o) {
  if (o.status != InferOutcome::Status::Ok || o.outputs.empty()) return "error";
  const Value &l = o.outputs[0];
  if (!l.isList() || !l.lengthKnown()) return "?";
  std::string out;
  for (const Value &e : l.elements()) out += (out.empty() ? "" : " ") + e.shapeStr();
  return out;
}

bool sizeError(const InferOutcome &o) {
  return o.status == InferOutcome::Status::Error && o.error && o.error->kind == ErrorKind::SizeDependent;
}

TEST(ShapeRulesIndex, SplitsGiveListsOfPieces) {
  EXPECT_EQ(piecesOf(run("aten::split.Tensor", {{"self", "float32:[5,s0]"}, {"split_size", "2"}})),
            "[2, s0] [2, s0] [1, s0]");
  EXPECT_EQ(piecesOf(run("aten::split_with_sizes", {{"self", "float32:[s0,5]"}, {"split_sizes", "[2,3]"}, {"dim", "1"}})),
            "[s0, 2] [s0, 3]");
  // Symbolic sizes that must add up to the dim: assumed to (a guard).
  EXPECT_EQ(piecesOf(run("aten::split_with_sizes", {{"self", "float32:[s0,2]"}, {"split_sizes", "[s0]"}})), "[s0, 2]");
  EXPECT_TRUE(sizeError(run("aten::split_with_sizes", {{"self", "float32:[5,2]"}, {"split_sizes", "[2,2]"}})));
  EXPECT_TRUE(sizeError(run("aten::split.Tensor", {{"self", "float32:[5,2]"}, {"split_size", "0"}})));
  // The number of pieces of a symbolic dim is not known: the list stays one of unknown length.
  EXPECT_EQ(piecesOf(run("aten::split.Tensor", {{"self", "float32:[s0,2]"}, {"split_size", "2"}})), "?");
  EXPECT_EQ(piecesOf(run("aten::chunk", {{"self", "float32:[5,3]"}, {"chunks", "3"}})), "[2, 3] [2, 3] [1, 3]");
  EXPECT_EQ(piecesOf(run("aten::chunk", {{"self", "float32:[0,3]"}, {"chunks", "2"}})), "[0, 3] [0, 3]");
  EXPECT_EQ(piecesOf(run("aten::unbind.int", {{"self", "float32:[2,s0]"}})), "[s0] [s0]");
  // tensor_split into sections: their count is known even for a symbolic dim.
  EXPECT_EQ(piecesOf(run("aten::tensor_split.sections", {{"self", "float32:[s0,2]"}, {"sections", "2"}})),
            "[?, 2] [?, 2]");
  EXPECT_EQ(piecesOf(run("aten::tensor_split.indices", {{"self", "float32:[6]"}, {"indices", "[1,-2,9]"}})),
            "[1] [3] [2] [0]");
  EXPECT_EQ(piecesOf(run("aten::hsplit.int", {{"self", "float32:[2,6]"}, {"sections", "3"}})), "[2, 2] [2, 2] [2, 2]");
  EXPECT_TRUE(sizeError(run("aten::hsplit.int", {{"self", "float32:[2,5]"}, {"sections", "3"}})));
  EXPECT_EQ(piecesOf(run("aten::meshgrid.indexing", {{"tensors", "[float32:[s0],float32:[3],float32:[]]"},
                                                     {"indexing", "'xy'"}})),
            "[3, s0, 1] [3, s0, 1] [3, s0, 1]");
}

TEST(ShapeRulesIndex, GathersScattersAndSelects) {
  EXPECT_EQ(shapeOf(run("aten::index_select", {{"self", "float32:[s0,4]"}, {"dim", "1"}, {"index", "int64:[t]"}})),
            "[s0, t]");
  // An index out of range depends on its values: no size error, the sizes hold.
  EXPECT_EQ(shapeOf(run("aten::index_select", {{"self", "float32:[3,4]"}, {"dim", "0"}, {"index", "int64:[9]"}})),
            "[9, 4]");
  EXPECT_EQ(shapeOf(run("aten::gather", {{"self", "float32:[s0,4]"}, {"dim", "1"}, {"index", "int64:[s0,7]"}})),
            "[s0, 7]");
  // The index needs self's rank, and no larger size off dim.
  EXPECT_TRUE(sizeError(run("aten::gather", {{"self", "float32:[3,4]"}, {"dim", "1"}, {"index", "int64:[2]"}})));
  EXPECT_TRUE(sizeError(run("aten::gather", {{"self", "float32:[3,4]"}, {"dim", "1"}, {"index", "int64:[4,2]"}})));
  // An empty index is not checked.
  EXPECT_EQ(shapeOf(run("aten::gather", {{"self", "float32:[3,4]"}, {"dim", "1"}, {"index", "int64:[0]"}})), "[0]");
  EXPECT_TRUE(sizeError(run("aten::scatter.src", {{"self", "float32:[3,4]"}, {"dim", "1"}, {"index", "int64:[2,2]"},
                                                  {"src", "float32:[2,1]"}})));
  EXPECT_EQ(shapeOf(run("aten::scatter_add", {{"self", "float32:[s0,4]"}, {"dim", "0"}, {"index", "int64:[2,2]"},
                                              {"src", "float32:[2,2]"}})),
            "[s0, 4]");
  EXPECT_EQ(shapeOf(run("aten::take_along_dim", {{"self", "float32:[3,1]"}, {"indices", "int64:[1,s0]"}, {"dim", "0"}})),
            "[1, s0]");
  EXPECT_EQ(shapeOf(run("aten::take_along_dim", {{"self", "float32:[3,4]"}, {"indices", "int64:[2,s0]"}})), "[2*s0]");
  EXPECT_EQ(shapeOf(run("aten::one_hot", {{"self", "int64:[s0,3]"}, {"num_classes", "10"}})), "[s0, 3, 10]");
  EXPECT_EQ(shapeOf(run("aten::one_hot", {{"self", "int64:[s0,3]"}, {"num_classes", "-1"}})), "[s0, 3, ?]");
}

TEST(ShapeRulesIndex, AdvancedIndexing) {
  auto index = [](const char *self, const char *indices) {
    return shapeOf(run("aten::index.Tensor", {{"self", self}, {"indices", indices}}));
  };
  // Adjacent index tensors replace their dims in place; separated ones lead.
  EXPECT_EQ(index("float32:[s0,4,5]", "[None,int64:[2,3]]"), "[s0, 2, 3, 5]");
  EXPECT_EQ(index("float32:[3,4,5]", "[None,int64:[2],int64:[1]]"), "[3, 2]");
  EXPECT_EQ(index("float32:[3,4,s0]", "[int64:[2],None,int64:[2,1]]"), "[2, 2, 4]");
  // A mask: its count of true elements is data-dependent (an unbacked symbol).
  EXPECT_EQ(index("float32:[3,4,5]", "[bool:[3,4]]"), "[u0, 5]");
  // Broadcast against an index tensor of 2: 2 whether the count is 1 or 2 (else PyTorch raises).
  EXPECT_EQ(index("float32:[3,4,5]", "[bool:[3],int64:[2]]"), "[2, 5]");
  EXPECT_TRUE(sizeError(run("aten::index.Tensor", {{"self", "float32:[3,4]"}, {"indices", "[int64:[2],int64:[3]]"}})));
}

TEST(ShapeRulesIndex, PaddingAndResampling) {
  // Pads list the last dim first; negative pads crop.
  EXPECT_EQ(shapeOf(run("aten::constant_pad_nd", {{"self", "float32:[s0,4]"}, {"pad", "[1,2,-1,4]"}})),
            "[s0 + 3, 7]");
  EXPECT_TRUE(sizeError(run("aten::constant_pad_nd", {{"self", "float32:[3,4]"}, {"pad", "[-3,-2]"}})));
  EXPECT_EQ(shapeOf(run("aten::reflection_pad2d", {{"self", "float32:[1,3,s0,8]"}, {"padding", "[1,1,2,2]"}})),
            "[1, 3, s0 + 4, 10]");
  // Reflection needs each pad below the dim's size.
  EXPECT_TRUE(sizeError(run("aten::reflection_pad1d", {{"self", "float32:[1,3,4]"}, {"padding", "[4,1]"}})));
  EXPECT_EQ(shapeOf(run("aten::pad", {{"self", "float32:[2,3,4]"}, {"pad", "[2,1]"}, {"mode", "'replicate'"}})),
            "[2, 3, 7]");
  EXPECT_EQ(shapeOf(run("aten::upsample_bilinear2d", {{"self", "float32:[s0,3,8,8]"}, {"output_size", "[h,16]"},
                                                      {"align_corners", "False"}})),
            "[s0, 3, h, 16]");
  // Scales: truncated products; a symbolic size only by an integral scale.
  EXPECT_EQ(shapeOf(run("aten::upsample_nearest2d.vec", {{"input", "float32:[1,3,s0,5]"}, {"output_size", "None"},
                                                         {"scale_factors", "[2.0,1.7]"}})),
            "[1, 3, 2*s0, 8]");
  EXPECT_EQ(shapeOf(run("aten::upsample_nearest1d.vec", {{"input", "float32:[1,3,s0]"}, {"output_size", "None"},
                                                         {"scale_factors", "[1.5]"}})),
            "[1, 3, ?]");
  EXPECT_EQ(shapeOf(run("aten::pixel_shuffle", {{"self", "float32:[s0,8,h,w]"}, {"upscale_factor", "2"}})),
            "[s0, 2, 2*h, 2*w]");
  EXPECT_TRUE(sizeError(run("aten::pixel_shuffle", {{"self", "float32:[1,5,2,2]"}, {"upscale_factor", "2"}})));
  EXPECT_EQ(shapeOf(run("aten::pixel_unshuffle", {{"self", "float32:[1,3,4,6]"}, {"downscale_factor", "2"}})),
            "[1, 12, 2, 3]");
  EXPECT_EQ(shapeOf(run("aten::im2col", {{"self", "float32:[2,3,5,6]"}, {"kernel_size", "[2,3]"}, {"dilation", "[1,2]"},
                                         {"padding", "[1,0]"}, {"stride", "[2,1]"}})),
            "[2, 18, 6]");
  EXPECT_EQ(shapeOf(run("aten::col2im", {{"self", "float32:[2,12,6]"}, {"output_size", "[4,5]"}, {"kernel_size", "[2,2]"},
                                         {"dilation", "[1,1]"}, {"padding", "[0,0]"}, {"stride", "[1,2]"}})),
            "[2, 3, 4, 5]");
}

/// Dim `d` of result `i`'s range, `[lo, hi]` (hi -1: no bound).
std::string rangeOf(const InferOutcome &o, size_t i, size_t d) {
  auto dims = o.outputs.size() > i ? o.outputs[i].shape() : std::nullopt;
  if (!dims || dims->size() <= d) return "none";
  SymRange r = (*dims)[d].range();
  return "[" + std::to_string(r.lo) + ", " + (r.hi == SymRange::kInf ? "-1" : std::to_string(r.hi)) + "]";
}

TEST(ShapeRulesIndex, DataDependentSizesAreUnbackedSymbols) {
  // The number of nonzeros is data-dependent: a fresh unbacked symbol with
  // its range (at most numel), named after the arguments' symbols.
  auto nz = run("aten::nonzero", {{"self", "float32:[4,3]"}});
  EXPECT_EQ(shapeOf(nz), "[u0, 2]");
  EXPECT_EQ(rangeOf(nz, 0, 0), "[0, 12]");
  EXPECT_EQ(shapeOf(run("aten::nonzero", {{"self", "float32:[u0,3]"}})), "[u1, 2]"); // u0 is taken
  EXPECT_EQ(rangeOf(run("aten::nonzero", {{"self", "float32:[s0,3]"}}), 0, 0), "[0, -1]");
  auto sel = run("aten::masked_select", {{"self", "float32:[2,3]"}, {"mask", "bool:[3]"}});
  EXPECT_EQ(shapeOf(sel), "[u0]");
  EXPECT_EQ(rangeOf(sel, 0, 0), "[0, 6]");
  EXPECT_TRUE(sizeError(run("aten::masked_select", {{"self", "float32:[2,3]"}, {"mask", "bool:[4]"}})));
  // Values and counts have one length: one symbol; a non-empty input has at least one value.
  auto unique = run("aten::_unique2", {{"self", "float32:[s0,3]"}, {"return_inverse", "True"}, {"return_counts", "True"}});
  EXPECT_EQ(shapeOf(unique, 0), "[u0]");
  EXPECT_EQ(shapeOf(unique, 1), "[s0, 3]");
  EXPECT_EQ(shapeOf(unique, 2), "[u0]");
  EXPECT_EQ(rangeOf(run("aten::_unique2", {{"self", "float32:[5]"}}), 0, 0), "[1, 5]");
  EXPECT_EQ(shapeOf(run("aten::_unique2", {{"self", "float32:[0]"}})), "[0]");
  // Counts not asked for are empty; the inverse not asked for is empty unless
  // counts are in 1.13, which fills it then (self's shape); 2.6 and 2.14 do not
  // (VersionFact::Unique2InverseOnlyWhenAsked; scripts/probes/unique2.py).
  auto noCounts = run("aten::_unique2", {{"self", "float32:[s0,3]"}, {"return_inverse", "True"}, {"return_counts", "False"}});
  EXPECT_EQ(shapeOf(noCounts, 2), "[0]");
  const std::vector<std::pair<std::string, std::string>> countsOnly = {
      {"self", "float32:[6]"}, {"return_inverse", "False"}, {"return_counts", "True"}};
  EXPECT_EQ(shapeOf(run("aten::_unique2", countsOnly), 1), "[6]");
  for (TorchVersion v : {TorchVersion::V2_6, TorchVersion::V2_14})
    EXPECT_EQ(shapeOf(test::runIn(Semantics::of(v), "aten::_unique2", countsOnly, false), 1), "[0]") << name(v);
  auto countsUnknown = run("aten::_unique2", {{"self", "float32:[6]"}, {"return_inverse", "False"}});
  EXPECT_EQ(shapeOf(countsUnknown, 1), "[0]"); // return_counts defaults to False
  EXPECT_EQ(shapeOf(run("aten::unique_consecutive", {{"self", "float32:[6]"}, {"return_counts", "True"}}), 1), "[0]");
  auto byDim = run("aten::unique_dim", {{"self", "float32:[s0,3]"}, {"dim", "1"}});
  EXPECT_EQ(shapeOf(byDim, 0), "[s0, u0]");
  EXPECT_EQ(rangeOf(byDim, 0, 1), "[1, 3]");
  EXPECT_EQ(shapeOf(byDim, 1), "[3]");
  // A boolean mask index: its nonzero count.
  EXPECT_EQ(shapeOf(run("aten::index.Tensor", {{"self", "float32:[3,4,5]"}, {"indices", "[bool:[3,4]]"}})), "[u0, 5]");
  // bincount: at least minlength bins, exactly minlength for an empty input.
  auto bins = run("aten::bincount", {{"self", "int64:[5]"}, {"minlength", "3"}});
  EXPECT_EQ(shapeOf(bins), "[u0]");
  EXPECT_EQ(rangeOf(bins, 0, 0), "[3, -1]");
  EXPECT_EQ(shapeOf(run("aten::bincount", {{"self", "int64:[0]"}, {"minlength", "3"}})), "[3]");
  EXPECT_EQ(shapeOf(run("aten::repeat_interleave.self_int", {{"self", "float32:[s0,3]"}, {"repeats", "2"}})), "[6*s0]");
  EXPECT_EQ(shapeOf(run("aten::repeat_interleave.self_int", {{"self", "float32:[s0,3]"}, {"repeats", "t"}, {"dim", "0"}})),
            "[s0*t, 3]");
  // A tensor of counts: their sum, data-dependent (0 when there is nothing to repeat).
  EXPECT_EQ(shapeOf(run("aten::repeat_interleave.self_Tensor", {{"self", "float32:[s0,3]"}, {"repeats", "int64:[s0]"},
                                                                {"dim", "0"}})),
            "[u0, 3]");
  EXPECT_EQ(shapeOf(run("aten::repeat_interleave.Tensor", {{"repeats", "int64:[4]"}})), "[u0]");
  EXPECT_EQ(shapeOf(run("aten::repeat_interleave.Tensor", {{"repeats", "int64:[0]"}})), "[0]");
  EXPECT_EQ(shapeOf(run("aten::repeat_interleave.Tensor", {{"repeats", "int64:[4]"}, {"output_size", "10"}})), "[10]");
}

TEST(ShapeRulesIndex, RepeatsAndDiagonals) {
  EXPECT_EQ(shapeOf(run("aten::repeat", {{"self", "float32:[s0,3]"}, {"repeats", "[4,2,t]"}})), "[4, 2*s0, 3*t]");
  EXPECT_EQ(shapeOf(run("aten::tile", {{"self", "float32:[2,s0,4]"}, {"dims", "[3,2]"}})), "[2, 3*s0, 8]");
  EXPECT_EQ(shapeOf(run("aten::diag", {{"self", "float32:[s0]"}, {"diagonal", "-2"}})), "[s0 + 2, s0 + 2]");
  EXPECT_EQ(shapeOf(run("aten::diag", {{"self", "float32:[3,5]"}, {"diagonal", "1"}})), "[3]");
  EXPECT_EQ(shapeOf(run("aten::diagonal", {{"self", "float32:[3,4,5]"}, {"offset", "2"}, {"dim1", "2"}, {"dim2", "0"}})),
            "[4, 1]");
  EXPECT_EQ(shapeOf(run("aten::diag_embed", {{"self", "float32:[s0,3]"}, {"offset", "-1"}, {"dim1", "0"}, {"dim2", "2"}})),
            "[4, s0, 4]");
  EXPECT_EQ(shapeOf(run("aten::triu_indices", {{"row", "4"}, {"col", "6"}, {"offset", "2"}})), "[2, 10]");
  EXPECT_EQ(shapeOf(run("aten::tril_indices", {{"row", "5"}, {"col", "3"}, {"offset", "-2"}})), "[2, 6]");
}

} // namespace
} // namespace dtf
