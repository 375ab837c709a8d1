// Size-1 dimension facts: where they come from, how rules carry them, and the
// squeeze ranks they decide (shapes as torch 1.13 computes them).
#include "frontends/text/ir_parser.h"
#include "ops/unit_dims.h"
#include "ops/semantics.h"
#include "refine/refine.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

TEST(UnitDims, InsertAndRemoveShiftTheFacts) {
  UnitDims u{0b001, 0b110}; // dims: [1, n, n]
  EXPECT_EQ(insertUnitDim(u, 0), (UnitDims{0b0011, 0b1100}));
  EXPECT_EQ(insertUnitDim(u, 3), (UnitDims{0b1001, 0b0110}));
  EXPECT_EQ(removeDim(u, 0), (UnitDims{0b00, 0b11}));
  EXPECT_EQ(removeDim(u, 1), (UnitDims{0b01, 0b10}));
}

TEST(UnitDims, KeptOnlyForAnExactRankAndJoinedByIntersection) {
  Value a = Value::tensor(DType::Float32, Rank::exact(2)).withUnitDims({0b01, 0b10});
  Value b = Value::tensor(DType::Float32, Rank::exact(2)).withUnitDims({0b01, 0b00});
  EXPECT_EQ(a.unitDims(), (UnitDims{0b01, 0b10}));
  EXPECT_EQ(Value::join(a, b).unitDims(), (UnitDims{0b01, 0}));
  EXPECT_FALSE(a == b); // the facts are part of the value (loop fixpoints, memo keys)
  Value c = Value::tensor(DType::Float32, Rank::exact(3)).withUnitDims({0b111, 0});
  EXPECT_EQ(Value::join(a, c).unitDims(), UnitDims{});
  EXPECT_EQ(Value::tensor(DType::Float32, Rank::atLeast1()).withUnitDims({1, 0}).unitDims(), UnitDims{});
  // Bits beyond the rank and contradictory bits are dropped.
  EXPECT_EQ(Value::tensor(DType::Float32, Rank::exact(1)).withUnitDims({0b11, 0b01}).unitDims(), UnitDims{});
}

struct Refined {
  std::unique_ptr<ir::Graph> g;
  refine::Result r;
  std::string operator[](const std::string &name) const {
    for (size_t v = 0; v < g->values.size(); ++v)
      if (g->values[v].name == name) return r.values[v].str();
    return "no value " + name;
  }
};

Refined run(const std::string &text) {
  Refined out;
  out.g = ir::parseIR(text);
  out.r = refine::refineGraph(*out.g, {.semantics = Semantics::shared(TorchVersion::V1_13)});
  return out;
}

TEST(UnitDims, KeepdimReductionThenSqueeze) {
  // n = keep.sum(1, keepdim=True) is (2, 1); n.squeeze(1) is (2,).
  auto r = run(R"(graph(%x : Tensor):
  %t : bool = prim::Constant[value=1]()
  %f : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %c : int = prim::Constant[value=0]()
  %m : Tensor = aten::ne(%x, %c)
  %u : Tensor = aten::unsqueeze(%m, %c)
  %m2 : Tensor = aten::squeeze(%u, %c)
  %dims : int[] = prim::ListConstruct(%one)
  %n : Tensor = aten::sum(%m2, %dims, %t, %none)
  %s : Tensor = aten::squeeze(%n, %one)
  %dropped : Tensor = aten::sum(%m2, %dims, %f, %none)
  return (%s, %dropped)
)"
                           // the input's rank is only known from the written type below
  );
  // Without a known rank for %x nothing about sizes is known: honest unknowns.
  EXPECT_EQ(r["s"], "int64:r?");
  auto k = run(R"(graph(%x : Long(2, 7)):
  %t : bool = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %c : int = prim::Constant[value=0]()
  %m : Tensor = aten::ne(%x, %c)
  %dims : int[] = prim::ListConstruct(%one)
  %n : Tensor = aten::sum(%m, %dims, %t, %none)
  %s : Tensor = aten::squeeze(%n, %one)
  %s0 : Tensor = aten::squeeze(%n, %c)
  %all : Tensor = aten::squeeze(%n)
  return (%s, %s0, %all)
)");
  EXPECT_EQ(k["n"], "int64:r2");
  EXPECT_EQ(k["s"], "int64:r1");  // dim 1 has size 1
  EXPECT_EQ(k["s0"], "int64:r2"); // dim 0 has size 2: squeeze(0) keeps it
  EXPECT_EQ(k["all"], "int64:r1");
}

TEST(UnitDims, InputSizesBroadcastAndShapeKeepingOps) {
  auto r = run(R"(graph(%a : Float(2, 1), %b : Float(1), %c : Float(3), %x : Float(1, 3, 1)):
  %one : int = prim::Constant[value=1]()
  %m1 : int = prim::Constant[value=-1]()
  %ab : Tensor = aten::add(%a, %b, %one)
  %ac : Tensor = aten::add(%a, %c, %one)
  %sab : Tensor = aten::squeeze(%ab, %m1)
  %sac : Tensor = aten::squeeze(%ac, %m1)
  %r : Tensor = aten::relu(%x)
  %k : Tensor = aten::contiguous(%r, %one)
  %sx : Tensor = aten::squeeze(%k)
  %u : Tensor = aten::unsqueeze(%c, %m1)
  %su : Tensor = aten::squeeze(%u, %one)
  return (%sab, %sac, %sx, %su)
)");
  EXPECT_EQ(r["sab"], "float32:r1"); // (2,1)+(1) is (2,1)
  EXPECT_EQ(r["sac"], "float32:r2"); // (2,1)+(3) is (2,3)
  EXPECT_EQ(r["sx"], "float32:r1");  // (1,3,1) squeezed is (3,)
  EXPECT_EQ(r["su"], "float32:r1");  // (3,1) squeezed at 1 is (3,)
}

TEST(UnitDims, SoftmaxSortGatherIndexSelectTopkKeepOrSetTheFacts) {
  auto r = run(R"(graph(%x : Float(2, 1, 3), %i : Long(2, 1, 3), %j : Long(1), %l : Long(2)):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %f : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %s : Tensor = aten::softmax(%x, %zero, %none)
  %ss : Tensor = aten::squeeze(%s, %one)
  %v : Tensor, %vi : Tensor = aten::sort(%x, %two, %f)
  %sv : Tensor = aten::squeeze(%vi, %one)
  %g : Tensor = aten::gather(%x, %two, %i, %f)
  %sg : Tensor = aten::squeeze(%g, %one)
  %e : Tensor = aten::index_select(%x, %two, %j)
  %se : Tensor = aten::squeeze(%e, %two)
  %e2 : Tensor = aten::index_select(%x, %two, %l)
  %se2 : Tensor = aten::squeeze(%e2, %two)
  %t : Tensor, %ti : Tensor = aten::topk(%x, %one, %two, %f, %f)
  %st : Tensor = aten::squeeze(%ti)
  return (%ss, %sv, %sg, %se, %se2, %st)
)");
  EXPECT_EQ(r["ss"], "float32:r2");  // softmax keeps (2,1,3)
  EXPECT_EQ(r["sv"], "int64:r2");    // sort's indices too
  EXPECT_EQ(r["sg"], "float32:r2");  // gather has index's shape (2,1,3)
  EXPECT_EQ(r["se"], "float32:r2");  // a one-element index: (2,1,1) squeezed at 2
  EXPECT_EQ(r["se2"], "float32:r3"); // a two-element index: (2,1,2) keeps dim 2
  EXPECT_EQ(r["st"], "int64:r1");    // topk(k=1) on dim 2: (2,1,1) squeezed is (2,)
}

TEST(UnitDims, MovedimAndUnflattenMoveAndMakeTheFacts) {
  auto r = run(R"(graph(%x : Float(1, 2, 3)):
  %zero : int = prim::Constant[value=0]()
  %m1 : int = prim::Constant[value=-1]()
  %one : int = prim::Constant[value=1]()
  %three : int = prim::Constant[value=3]()
  %m : Tensor = aten::movedim(%x, %zero, %m1)
  %sm : Tensor = aten::squeeze(%m, %m1)
  %sizes : int[] = prim::ListConstruct(%three, %one)
  %u : Tensor = aten::unflatten(%x, %m1, %sizes)
  %su : Tensor = aten::squeeze(%u)
  return (%sm, %su)
)");
  EXPECT_EQ(r["sm"], "float32:r2"); // (1,2,3) -> (2,3,1) squeezed at -1
  EXPECT_EQ(r["su"], "float32:r2"); // (1,2,3,1) squeezed is (2,3)
}

TEST(UnitDims, UnknownSizesStayUnknownAndBranchesMustAgree) {
  auto r = run(R"(graph(%a : Float(*, *), %b : Float(2, 1), %p : bool):
  %one : int = prim::Constant[value=1]()
  %sa : Tensor = aten::squeeze(%a, %one)
  %j : Tensor = prim::If(%p)
    block0():
      -> (%b)
    block1():
      %t : Tensor = aten::t(%b)
      -> (%t)
  %sj : Tensor = aten::squeeze(%j, %one)
  %k : Tensor = prim::If(%p)
    block0():
      -> (%b)
    block1():
      %n : Tensor = aten::neg(%b)
      -> (%n)
  %sk : Tensor = aten::squeeze(%k, %one)
  return (%sa, %sj, %sk)
)");
  EXPECT_EQ(r["sa"], "float32:r+"); // a size-1 dim 1 or not: rank 1 or 2
  EXPECT_EQ(r["sj"], "float32:r+"); // (2,1) or (1,2)
  EXPECT_EQ(r["sk"], "float32:r1"); // (2,1) on both paths
}

} // namespace
} // namespace dtf
