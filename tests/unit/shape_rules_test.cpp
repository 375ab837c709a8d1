// Shape rules on symbolic sizes (the conformance harness checks them on
// concrete ones against libtorch): the sizes torch.export would record.
#include "run_op.h"

#include "frontends/text/ir_parser.h"
#include "ops/shape_rules.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

using test::run;
using test::shapeOf;

TEST(ShapeRules, ViewSolvesMinusOneSymbolically) {
  EXPECT_EQ(shapeOf(run("aten::view", {{"self", "float32:[s0,8]"}, {"size", "[-1,4]"}})), "[2*s0, 4]");
  EXPECT_EQ(shapeOf(run("aten::reshape", {{"self", "float32:[s0,3,4]"}, {"shape", "[s0,-1]"}})), "[s0, 12]");
  EXPECT_EQ(shapeOf(run("aten::view", {{"self", "float32:[2,6]"}, {"size", "[3,-1]"}})), "[3, 4]");
  // 2*s0 elements into rows of 4: not known to divide, so not claimed.
  EXPECT_EQ(shapeOf(run("aten::view", {{"self", "float32:[s0,2]"}, {"size", "[-1,4]"}})), "[?, 4]");
  test::expectError(run("aten::view", {{"self", "float32:[2,6]"}, {"size", "[5,-1]"}}));
  test::expectError(run("aten::view", {{"self", "float32:[2,6]"}, {"size", "[-1,-1]"}}));
}

TEST(ShapeRules, BroadcastingKeepsSymbolsAndRaisesOnKnownMismatch) {
  EXPECT_EQ(shapeOf(run("aten::add.Tensor", {{"self", "float32:[s0,1,3]"}, {"other", "float32:[5,1]"}})),
            "[s0, 5, 3]");
  EXPECT_EQ(shapeOf(run("aten::mul.Tensor", {{"self", "float32:[2,3]"}, {"other", "float32:[]"}})), "[2, 3]");
  // u0 may be 1: the result's dim is 4 either way (1 broadcasts, else u0 == 4).
  EXPECT_EQ(shapeOf(run("aten::add.Tensor", {{"self", "float32:[u0]"}, {"other", "float32:[4]"}})), "[4]");
}

TEST(ShapeRules, ConvolutionAndPooling) {
  auto conv = run("aten::conv2d", {{"input", "float32:[s0,3,224,224]"}, {"weight", "float32:[64,3,7,7]"},
                                   {"stride", "[2,2]"}, {"padding", "[3,3]"}});
  EXPECT_EQ(shapeOf(conv), "[s0, 64, 112, 112]");
  auto sym = run("aten::conv2d", {{"input", "float32:[1,3,h,h]"}, {"weight", "float32:[8,3,3,3]"}, {"stride", "[2,2]"},
                                  {"padding", "[1,1]"}});
  EXPECT_EQ(shapeOf(sym), "[1, 8, ((h + 1)//2), ((h + 1)//2)]");
  auto pool = run("aten::max_pool2d", {{"self", "float32:[s0,64,112,112]"}, {"kernel_size", "[3,3]"},
                                       {"stride", "[2,2]"}, {"padding", "[1,1]"}});
  EXPECT_EQ(shapeOf(pool), "[s0, 64, 56, 56]");
  EXPECT_EQ(shapeOf(run("aten::adaptive_avg_pool2d", {{"self", "float32:[s0,512,7,7]"}, {"output_size", "[1,1]"}})),
            "[s0, 512, 1, 1]");
}

TEST(ShapeRules, MatmulLinearAndReductions) {
  EXPECT_EQ(shapeOf(run("aten::matmul", {{"self", "float32:[s0,1,5,6]"}, {"other", "float32:[3,6,7]"}})),
            "[s0, 3, 5, 7]");
  EXPECT_EQ(shapeOf(run("aten::matmul", {{"self", "float32:[6]"}, {"other", "float32:[6]"}})), "[]");
  test::expectError(run("aten::mm", {{"self", "float32:[2,3]"}, {"mat2", "float32:[4,5]"}}));
  EXPECT_EQ(shapeOf(run("aten::linear", {{"input", "float32:[s0,t,16]"}, {"weight", "float32:[32,16]"}})),
            "[s0, t, 32]");
  EXPECT_EQ(shapeOf(run("aten::sum.dim_IntList", {{"self", "float32:[s0,3,4]"}, {"dim", "[1]"}, {"keepdim", "True"}})),
            "[s0, 1, 4]");
  EXPECT_EQ(shapeOf(run("aten::mean.dim", {{"self", "float32:[s0,3,4]"}, {"dim", "[-1,0]"}})), "[3]");
  auto maxDim = run("aten::max.dim", {{"self", "float32:[s0,3]"}, {"dim", "1"}});
  EXPECT_EQ(shapeOf(maxDim, 0), "[s0]");
  EXPECT_EQ(shapeOf(maxDim, 1), "[s0]");
}

TEST(ShapeRules, JoinsViewsAndSizes) {
  EXPECT_EQ(shapeOf(run("aten::cat", {{"tensors", "[float32:[s0,3],float32:[2*s0,3]]"}, {"dim", "0"}})),
            "[3*s0, 3]");
  EXPECT_EQ(shapeOf(run("aten::stack", {{"tensors", "[float32:[s0,3],float32:[s0,3]]"}, {"dim", "1"}})),
            "[s0, 2, 3]");
  EXPECT_EQ(shapeOf(run("aten::flatten.using_ints", {{"self", "float32:[s0,3,4,5]"}, {"start_dim", "1"}})),
            "[s0, 60]");
  EXPECT_EQ(shapeOf(run("aten::permute", {{"self", "float32:[s0,3,4]"}, {"dims", "[2,0,1]"}})), "[4, s0, 3]");
  EXPECT_EQ(shapeOf(run("aten::unsqueeze", {{"self", "float32:[s0,3]"}, {"dim", "-1"}})), "[s0, 3, 1]");
  EXPECT_EQ(shapeOf(run("aten::expand", {{"self", "float32:[s0,1]"}, {"size", "[2,-1,5]"}})), "[2, s0, 5]");
  EXPECT_EQ(shapeOf(run("aten::slice.Tensor", {{"self", "float32:[10,4]"}, {"start", "2"}, {"end", "-1"}, {"step", "3"}})),
            "[3, 4]");
  // squeeze of a dim that may be 1 leaves the rank, hence the sizes, unknown
  EXPECT_EQ(shapeOf(run("aten::squeeze.dim", {{"self", "float32:[u0,3]"}, {"dim", "0"}})), "?");
  auto size = run("aten::size.int", {{"self", "float32:[s0,3]"}, {"dim", "0"}});
  ASSERT_EQ(size.status, InferOutcome::Status::Ok);
  ASSERT_TRUE(size.outputs[0].intExpr());
  EXPECT_EQ(size.outputs[0].intExpr()->str(), "s0");
  EXPECT_EQ(run("aten::numel", {{"self", "float32:[2,3,4]"}}).outputs[0].intValue(), 24);
}

TEST(ShapeRules, SymbolicSliceAgreesWithConcreteSlicesAtEveryAssignment) {
  // Each bound clamped into [0, s0]: `Min`/`Max` atoms that the symbol's range may decide. The
  // symbolic answer, evaluated at s0 = 0..12, is the rule's answer on that concrete size.
  for (const char *start : {"0", "1", "5", "-2", "-20"})
    for (const char *end : {"None", "3", "-1", "100"})
      for (const char *step : {"1", "2", "3"}) {
        auto sym = run("aten::slice.Tensor", {{"self", "float32:[s0,4]"}, {"start", start}, {"end", end}, {"step", step}});
        ASSERT_EQ(sym.status, InferOutcome::Status::Ok);
        const Dim d = sym.outputs[0].dimAt(0);
        ASSERT_TRUE(d.known()) << start << ":" << end << ":" << step;
        for (int64_t n = 0; n <= 12; ++n) {
          std::string self = "float32:[" + std::to_string(n) + ",4]";
          auto con = run("aten::slice.Tensor", {{"self", self}, {"start", start}, {"end", end}, {"step", step}});
          EXPECT_EQ(d.expr()->evaluate({{"s0", n}}), con.outputs[0].dimAt(0).value())
              << "[" << start << ":" << end << ":" << step << "] of " << n << ": " << d.str();
        }
      }
  // [5:] of a size of at least 5 (how torch.export states s0 in [5, 10]) is s0 - 5; without the
  // range it is Max(s0 - 5, 0).
  EXPECT_EQ(shapeOf(run("aten::slice.Tensor", {{"self", "float32:[s0]"}, {"start", "5"}, {"end", "None"}})),
            "[Max(0, s0 - 5)]");
}

TEST(ShapeRules, FactoriesAndUnknownStaysUnknown) {
  EXPECT_EQ(shapeOf(run("aten::zeros", {{"size", "[2,3]"}})), "[2, 3]");
  EXPECT_EQ(shapeOf(run("aten::arange", {{"end", "10"}})), "[10]");
  EXPECT_EQ(shapeOf(run("aten::arange.start_step", {{"start", "0"}, {"end", "1.0"}, {"step", "0.3"}})), "[4]");
  EXPECT_EQ(shapeOf(run("aten::ones_like", {{"self", "float32:[s0,2]"}})), "[s0, 2]");
  // A rank-only operand gives no sizes; an op without a shape rule neither.
  EXPECT_EQ(shapeOf(run("aten::relu", {{"self", "float32:r2"}})), "[?, ?]");
  EXPECT_EQ(shapeOf(run("aten::relu", {{"self", "float32:[s0,2]"}})), "[s0, 2]");
}

/// arange's length with SymInt bounds (`torch.arange(x.size(0))` exported with a dynamic dim).
std::string symbolicArange(const std::string &key, std::vector<std::pair<std::string, std::string>> concrete,
                           const std::string &symbolicArg, SymRange range) {
  auto c = test::bindIn(Semantics::of(TorchVersion::V2_14), key, concrete, false);
  if (!c) return "unbound";
  for (size_t i = 0; i < c->schema->args.size(); ++i)
    if (c->schema->args[i].name == symbolicArg) c->args[i] = Value::symInt(SymExpr::symbol("s0", range));
  InferOutcome o = infer(Semantics::of(TorchVersion::V2_14).registry(), *c->schema, c->args);
  return shapeOf(o);
}

TEST(ShapeRules, ArangeOfSymbolicBounds) {
  const SymRange atLeast2{2, SymRange::kInf};
  EXPECT_EQ(symbolicArange("aten::arange", {{"end", "0"}}, "end", {}), "[s0]");
  EXPECT_EQ(symbolicArange("aten::arange.start", {{"start", "1"}, {"end", "0"}}, "end", atLeast2), "[s0 - 1]");
  EXPECT_EQ(symbolicArange("aten::arange.start_step", {{"start", "0"}, {"end", "5"}, {"step", "-2"}}, "start",
                           SymRange{5, SymRange::kInf}),
            "[(s0//2) - 2]"); // (s0 - 5 + 1)//2
  EXPECT_EQ(symbolicArange("aten::arange.start_step", {{"start", "0"}, {"end", "5"}, {"step", "-2"}}, "start", atLeast2),
            "[?]"); // s0 < 5: the step's sign is wrong, PyTorch raises
  // end - start may be negative (s0 < 5: PyTorch raises): not claimed; nor a float step.
  EXPECT_EQ(symbolicArange("aten::arange.start", {{"start", "5"}, {"end", "0"}}, "end", {}), "[?]");
  EXPECT_EQ(symbolicArange("aten::arange.start_step", {{"start", "0"}, {"end", "0"}, {"step", "0.5"}}, "end", {}),
            "[?]");
  // The expression is the concrete rule's answer at every value of s0.
  for (int64_t step : {1, 2, 3, 7})
    for (int64_t s0 = 0; s0 <= 20; ++s0) {
      auto sym = test::bindIn(Semantics::of(TorchVersion::V2_14), "aten::arange.start_step",
                              {{"start", "0"}, {"end", "0"}, {"step", std::to_string(step)}}, false);
      sym->args[1] = Value::symInt(SymExpr::symbol("s0"));
      const Dim d = infer(Semantics::of(TorchVersion::V2_14).registry(), *sym->schema, sym->args).outputs[0].dimAt(0);
      auto con = test::runIn(Semantics::of(TorchVersion::V2_14), "aten::arange.start_step",
                             {{"start", "0"}, {"end", std::to_string(s0)}, {"step", std::to_string(step)}}, false);
      ASSERT_TRUE(d.known());
      EXPECT_EQ(d.expr()->evaluate({{"s0", s0}}), con.outputs[0].dimAt(0).value()) << step << " " << s0 << " " << d.str();
    }
}

TEST(ShapeRules, ChunksOfASymbolicSizeWhereTheirCountIsDecided) {
  const Semantics &sem = Semantics::of(TorchVersion::V2_14);
  auto chunked = [&](int64_t chunks, SymRange range) {
    auto c = test::bindIn(sem, "aten::chunk", {{"self", "float32:[1,4]"}, {"chunks", std::to_string(chunks)}}, false);
    c->args[0] = Value::tensor(DTypeSet{DType::Float32}, Rank::exact(2)).withShape({Dim(SymExpr::symbol("s0", range)), Dim(4)});
    return infer(sem.registry(), *c->schema, c->args);
  };
  const InferOutcome two = chunked(2, {2, SymRange::kInf});
  ASSERT_EQ(two.outputs[0].elements().size(), 2u);
  EXPECT_EQ(two.outputs[0].elements()[0].shapeStr(), "[((s0 + 1)//2), 4]");
  EXPECT_EQ(two.outputs[0].elements()[1].shapeStr(), "[-((s0 + 1)//2) + s0, 4]");
  EXPECT_FALSE(chunked(3, {2, SymRange::kInf}).outputs[0].lengthKnown()); // 2 pieces of 4, 3 of 5: not decided
  for (int64_t chunks = 1; chunks <= 5; ++chunks)
    for (SymRange range : {SymRange{2, SymRange::kInf}, SymRange{5, 6}, SymRange{9, 9}, SymRange{0, 3}}) {
      InferOutcome sym = chunked(chunks, range);
      const Value &list = sym.outputs[0];
      if (!list.lengthKnown()) continue; // not decided for this range
      for (int64_t n = range.lo; n <= std::min<int64_t>(range.hi, 40); ++n) {
        auto con = test::run("aten::chunk", {{"self", "float32:[" + std::to_string(n) + ",4]"}, {"chunks", std::to_string(chunks)}});
        ASSERT_EQ(con.outputs[0].elements().size(), list.elements().size()) << chunks << " chunks of " << n;
        for (size_t i = 0; i < list.elements().size(); ++i)
          EXPECT_EQ(list.elements()[i].dimAt(0).expr()->evaluate({{"s0", n}}), con.outputs[0].elements()[i].dimAt(0).value())
              << chunks << " chunks of " << n << ", piece " << i;
      }
    }
}

TEST(ShapeRules, TracedSizesReachTheGraph) {
  auto g = ir::parseIR("graph(%x : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)):\n"
                       "  %y : Tensor = aten::relu(%x)\n  return (%y)\n");
  const ir::TypeExpr &t = *g->values[g->blocks[0].params[0]].type;
  EXPECT_EQ(dimsText(t.dims), "[2, 3]");
  EXPECT_EQ(ir::valueOfType(t, true).shapeStr(), "[2, 3]");
}

TEST(ShapeRules, AllAndAnyOverAnEmptyDimListReduceNothing) {
  // torch.ops.aten.all.dims(torch.ones(2, 3), []) is bool [2, 3] (2.6, 2.14; meta too): unlike
  // sum.dim_IntList, whose [] reduces every dim. (1.13 has no all.dims.)
  const Semantics &v214 = Semantics::of(TorchVersion::V2_14);
  using test::runIn;
  EXPECT_EQ(shapeOf(runIn(v214, "aten::all.dims", {{"self", "float32:[2,3]"}, {"dim", "[]"}})), "[2, 3]");
  EXPECT_EQ(shapeOf(runIn(v214, "aten::any.dims", {{"self", "uint8:[s0,3]"}, {"dim", "[]"}, {"keepdim", "True"}})), "[s0, 3]");
  test::expectTensor(runIn(v214, "aten::any.dims", {{"self", "uint8:[2,3]"}, {"dim", "[]"}}), 0, DType::UInt8, 2);
  EXPECT_EQ(shapeOf(runIn(v214, "aten::all.dims", {{"self", "float32:[2,3]"}, {"dim", "None"}})), "[]");
  EXPECT_EQ(shapeOf(runIn(v214, "aten::sum.dim_IntList", {{"self", "float32:[2,3]"}, {"dim", "[]"}})), "[]");
}

TEST(ShapeRules, ElementwiseOperandsThatCannotBroadcastRaise) {
  // torch.add(torch.ones(3), torch.ones(4)): "The size of tensor a (3) must match the size of tensor b
  // (4) at non-singleton dimension 0", whatever the dtypes; a dtypeflow answer of float32 was wrong.
  InferOutcome o = run("aten::add.Tensor", {{"self", "float32:[3]"}, {"other", "float32:[4]"}});
  ASSERT_EQ(o.status, InferOutcome::Status::Error);
  EXPECT_EQ(o.error->kind, ErrorKind::SizeDependent);
  EXPECT_NE(o.error->message.find("(3) must match the size of tensor b (4)"), std::string::npos) << o.error->message;
  test::expectError(run("aten::where.self", {{"condition", "bool:[3]"}, {"self", "float32:[4]"}, {"other", "float32:[]"}}));
  test::expectError(run("aten::mul_.Tensor", {{"self", "float32:[2,3]"}, {"other", "float32:[2]"}}));
  // Broadcastable sizes, numbers and 0-dim tensors are no error.
  EXPECT_EQ(shapeOf(run("aten::add.Tensor", {{"self", "float32:[2,1]"}, {"other", "float32:[3]"}})), "[2, 3]");
  EXPECT_FALSE(run("aten::mul.Tensor", {{"self", "float32:[3]"}, {"other", "float32:[]"}}).possibleError);
  // Where a symbol decides, a possible error naming the condition (torch.export's guard).
  InferOutcome s = run("aten::add.Tensor", {{"self", "float32:[s0]"}, {"other", "float32:[4]"}});
  ASSERT_EQ(s.status, InferOutcome::Status::Ok);
  ASSERT_TRUE(s.possibleError);
  EXPECT_NE(s.possibleError->message.find("s0 == 4"), std::string::npos) << s.possibleError->message;
  EXPECT_FALSE(run("aten::add.Tensor", {{"self", "float32:[s0,3]"}, {"other", "float32:[s0,3]"}}).possibleError);
}

TEST(ShapeRules, LstsqOfABatchOfVectors) {
  // torch.linalg.lstsq(A [3, 2, 2], b [3, 2]) solves a batch of vectors: solution [3, 2] (1.13,
  // measured); b [3, 2, 2] is a batch of matrices; a 1-D b with a 3-D A raises.
  EXPECT_EQ(shapeOf(run("aten::linalg_lstsq", {{"self", "float32:[3,2,2]"}, {"b", "float32:[3,2]"}})), "[3, 2]");
  EXPECT_EQ(shapeOf(run("aten::linalg_lstsq", {{"self", "float32:[3,2,2]"}, {"b", "float32:[3,2,2]"}})), "[3, 2, 2]");
  EXPECT_EQ(shapeOf(run("aten::linalg_lstsq", {{"self", "float32:[2,2]"}, {"b", "float32:[2]"}})), "[2]");
  test::expectError(run("aten::linalg_lstsq", {{"self", "float32:[3,2,2]"}, {"b", "float32:[2]"}}));
}

} // namespace
} // namespace dtf
