// Shape rules of the splits (list results), indexing, padding and
// resampling, and data-dependent results, on symbolic sizes and on the size
// errors PyTorch raises (the conformance harness checks concrete sizes
// against libtorch).
#include "run_op.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

using test::run;

/// Result `i`'s sizes as text (`[2*s0, 4]`), "?" when not known, "error".
std::string shapeOf(const InferOutcome &o, size_t i = 0) {
  if (o.status != InferOutcome::Status::Ok || o.outputs.size() <= i) return "error";
  return o.outputs[i].shapeStr();
}

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

} // namespace
} // namespace dtf
